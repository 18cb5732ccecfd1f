//! The lossless JSON mapping of a [`Document`] (documented in `docs/FORMATS.md`).
//!
//! An object is a JSON object with `"$class"` (its class name) and `"$hash"` (its class
//! hash), then its properties by name in wire order. Plain values map to plain JSON;
//! the type list says how to read them back. The root object also carries what a
//! byte-exact re-encode needs (`$flags`, `$padding`, `$trailing`, ...), only when present.

use crate::stack::{StackGuard, TOO_DEEP};
use crate::types::{ClassDef, Kind, PropertyDef, TypeList};
use crate::value::{Document, KeptZlib, Object, Raw, Value};
use gamewire_core::hex::{from_hex as unhex, to_hex as hex};
use gamewire_core::{Error, Result};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value as Json};

/// A [`Document`] viewed as JSON: serialize it with serde_json (streams, no tree built).
pub struct DocumentJson<'a> {
    /// The document.
    pub doc: &'a Document,
    /// The type list naming its classes and properties.
    pub types: &'a TypeList,
    /// Write enum values as numbers even where the type list names them (by default an
    /// enum is written as its option's name, or `A|B` for a bit enum, whenever the
    /// name gives back exactly the same value).
    pub enum_numbers: bool,
}

/// The document as a `serde_json::Value`. Fails only when the document nests too deep
/// for the stack budget.
pub fn to_json(doc: &Document, types: &TypeList) -> Result<Json> {
    serde_json::to_value(DocumentJson {
        doc,
        types,
        enum_numbers: false,
    })
    .map_err(|e| Error::msg(e.to_string()))
}

/// One value as JSON (objects named through `types`).
pub fn value_to_json(v: &Value, types: &TypeList) -> Result<Json> {
    serde_json::to_value(ValueJson {
        v,
        types,
        guard: StackGuard::new(),
        prop: None,
        enum_numbers: false,
    })
    .map_err(|e| Error::msg(e.to_string()))
}

/// Writes the document as JSON text (compact or pretty) to `w`.
pub fn write_json<W: std::io::Write>(
    w: W,
    doc: &Document,
    types: &TypeList,
    pretty: bool,
) -> Result<()> {
    let view = DocumentJson {
        doc,
        types,
        enum_numbers: false,
    };
    if pretty {
        serde_json::to_writer_pretty(w, &view)
    } else {
        serde_json::to_writer(w, &view)
    }
    .map_err(|e| {
        if e.is_io() {
            // The writer failed: an I/O error that keeps its source.
            gamewire_core::json_out::write_error(e)
        } else {
            Error::msg(e.to_string())
        }
    })
}

/// The document as JSON text (compact or pretty).
pub fn to_json_bytes(doc: &Document, types: &TypeList, pretty: bool) -> Result<Vec<u8>> {
    let view = DocumentJson {
        doc,
        types,
        enum_numbers: false,
    };
    let mut out = Vec::with_capacity(1024);
    if pretty {
        serde_json::to_writer_pretty(&mut out, &view)
    } else {
        serde_json::to_writer(&mut out, &view)
    }
    .map_err(|e| Error::msg(e.to_string()))?;
    Ok(out)
}

struct ObjectJson<'a> {
    obj: &'a Object,
    types: &'a TypeList,
    doc: Option<&'a Document>,
    guard: StackGuard,
    enum_numbers: bool,
}

struct ValueJson<'a> {
    v: &'a Value,
    types: &'a TypeList,
    guard: StackGuard,
    /// The property this value (or list element) belongs to, when the type list
    /// knows it: enums are named through it.
    prop: Option<&'a PropertyDef>,
    enum_numbers: bool,
}

impl Serialize for DocumentJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ObjectJson {
            obj: &self.doc.root,
            types: self.types,
            doc: Some(self.doc),
            guard: StackGuard::new(),
            enum_numbers: self.enum_numbers,
        }
        .serialize(s)
    }
}

impl Serialize for ObjectJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        if !self.guard.ok() {
            return Err(serde::ser::Error::custom(TOO_DEEP));
        }
        let class = self.types.get(self.obj.hash);
        let mut m = s.serialize_map(None)?;
        if let Some(c) = class {
            m.serialize_entry("$class", &c.name)?;
        }
        m.serialize_entry("$hash", &self.obj.hash)?;
        let mut hint = 0;
        for (h, v) in &self.obj.properties {
            let mut v = ValueJson {
                v,
                types: self.types,
                guard: self.guard,
                prop: None,
                enum_numbers: self.enum_numbers,
            };
            match class.and_then(|c| c.property_index(h, hint).map(|i| (c, i))) {
                Some((c, i)) => {
                    hint = i + 1;
                    v.prop = Some(&c.properties[i]);
                    m.serialize_entry(&c.properties[i].name, &v)?;
                }
                None => m.serialize_entry(&format!("$prop:{h}"), &v)?,
            }
        }
        if let Some(d) = self.doc {
            if d.bind {
                m.serialize_entry("$bind", &true)?;
            }
            if let Some(f) = d.flags {
                m.serialize_entry("$flags", &f)?;
            }
            if let Some(z) = d.zlib_marker {
                m.serialize_entry("$zlib_marker", &z)?;
            }
            if !d.padding.is_empty() {
                m.serialize_entry("$padding", &d.padding)?;
            }
            if !d.trailing.is_empty() {
                m.serialize_entry("$trailing", &hex(&d.trailing))?;
            }
            for (key, k) in [
                ("$manual_zlib", &d.manual_zlib),
                ("$flag_zlib", &d.flag_zlib),
            ] {
                if let Some(k) = k {
                    m.serialize_entry(key, &(k.size, hex(&k.stream)))?;
                }
            }
        }
        m.end()
    }
}

fn float<S: Serializer>(
    s: S,
    x: f64,
    bits: String,
    tag: &str,
) -> std::result::Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(x)
    } else {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(tag, &bits)?;
        m.end()
    }
}

fn named<S: Serializer, T: Serialize>(
    s: S,
    names: &[&str],
    vals: &[T],
) -> std::result::Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(names.len()))?;
    for (n, v) in names.iter().zip(vals) {
        m.serialize_entry(n, v)?;
    }
    m.end()
}

struct F(f32);
impl Serialize for F {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        float(
            s,
            f64::from(self.0),
            format!("{:08x}", self.0.to_bits()),
            "$f32",
        )
    }
}

impl ValueJson<'_> {
    /// The name of enum value `x` when the property's type list names it and the name
    /// reads back as exactly `x` (a bit enum with bits no option covers stays a number).
    fn enum_name(&self, x: i64) -> Option<String> {
        if self.enum_numbers {
            return None;
        }
        let p = self.prop?;
        if p.enum_options.is_empty() {
            return None;
        }
        let name = p.enum_to_names(x)?;
        (!name.is_empty() && p.enum_from_names(&name) == Ok(x)).then_some(name)
    }
}

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.v {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Enum(x) => match self.enum_name(*x) {
                Some(name) => s.serialize_str(&name),
                None => s.serialize_i64(*x),
            },
            Value::Int(x) => s.serialize_i64(*x),
            Value::UInt(x) => s.serialize_u64(*x),
            Value::Float(x) => F(*x).serialize(s),
            Value::Double(x) => float(s, *x, format!("{:016x}", x.to_bits()), "$f64"),
            Value::String(b) => match std::str::from_utf8(b) {
                Ok(t) => s.serialize_str(t),
                Err(_) => named(s, &["$bytes"], &[hex(b)]),
            },
            Value::WString(w) => match String::from_utf16(w) {
                Ok(t) => s.serialize_str(&t),
                Err(_) => named(s, &["$utf16"], &[w]),
            },
            Value::EnumName(n) => s.serialize_str(n),
            Value::Color([b, g, r, a]) => named(s, &["r", "g", "b", "a"], &[r, g, b, a]),
            Value::Vec3(v) => named(s, &["x", "y", "z"], &v.map(F)),
            Value::Euler(v) => named(s, &["pitch", "yaw", "roll"], &v.map(F)),
            Value::Quat([w, x, y, z]) => {
                named(s, &["x", "y", "z", "w"], &[x, y, z, w].map(|v| F(*v)))
            }
            Value::Matrix(m) => {
                let row = |i: usize| [F(m[i]), F(m[i + 1]), F(m[i + 2])];
                named(s, &["i", "j", "k"], &[row(0), row(3), row(6)])
            }
            Value::PointInt(v) => named(s, &["x", "y"], v),
            Value::PointUChar(v) => named(s, &["x", "y"], v),
            Value::PointUInt(v) => named(s, &["x", "y"], v),
            Value::PointFloat(v) => named(s, &["x", "y"], &v.map(F)),
            Value::SizeInt(v) => named(s, &["width", "height"], v),
            Value::RectInt(v) => named(s, &["left", "top", "right", "bottom"], v),
            Value::RectFloat(v) => named(s, &["left", "top", "right", "bottom"], &v.map(F)),
            Value::Bools(b) => s.collect_seq(b),
            Value::SmallInts(b) => s.collect_seq(b),
            Value::SmallUInts(b) => s.collect_seq(b),
            Value::List(items) => {
                let mut q = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    q.serialize_element(&ValueJson {
                        v,
                        types: self.types,
                        guard: self.guard,
                        prop: self.prop,
                        enum_numbers: self.enum_numbers,
                    })?;
                }
                q.end()
            }
            Value::Object(o) => ObjectJson {
                obj: o,
                types: self.types,
                doc: None,
                guard: self.guard,
                enum_numbers: self.enum_numbers,
            }
            .serialize(s),
            Value::Raw(r) => {
                let mut m = s.serialize_map(None)?;
                if r.type_hash != 0 {
                    m.serialize_entry("$hash", &r.type_hash)?;
                }
                m.serialize_entry("$bits", &r.bits)?;
                m.serialize_entry("$raw", &hex(&r.data))?;
                m.end()
            }
        }
    }
}

// ---- JSON to values ------------------------------------------------------------------

fn found(j: &Json) -> String {
    let s = j.to_string();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

fn expected(what: &str, j: &Json) -> Error {
    Error::new(gamewire_core::ErrorKind::Unexpected {
        expected: what.to_owned(),
        found: found(j),
    })
}

/// Reads a document from its JSON form (as written by [`to_json`]).
pub fn from_json(j: &Json, types: &TypeList) -> Result<Document> {
    let m = j
        .as_object()
        .ok_or_else(|| expected("a JSON object for the root object", j))?;
    let outer = JSON_STACK.with(|g| g.replace(Some(StackGuard::new())));
    let root = object_from_json(m, types, 0);
    JSON_STACK.with(|g| g.set(outer));
    let root = root?;
    let mut doc = Document {
        root,
        ..Document::default()
    };
    doc.bind = m.get("$bind").and_then(Json::as_bool).unwrap_or(false);
    if let Some(f) = m.get("$flags") {
        doc.flags = Some(
            f.as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .ok_or_else(|| expected("a u32", f).in_key("$flags"))?,
        );
    }
    if let Some(z) = m.get("$zlib_marker") {
        doc.zlib_marker = Some(
            z.as_u64()
                .and_then(|x| u8::try_from(x).ok())
                .ok_or_else(|| expected("a byte", z).in_key("$zlib_marker"))?,
        );
    }
    if let Some(p) = m.get("$padding") {
        let arr = p
            .as_array()
            .ok_or_else(|| expected("an array of [bit, value]", p).in_key("$padding"))?;
        for e in arr {
            let pair = e
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some((a[0].as_u64()?, u8::try_from(a[1].as_u64()?).ok()?)))
                .ok_or_else(|| expected("[bit position, padding byte]", e).in_key("$padding"))?;
            doc.padding.push(pair);
        }
    }
    if let Some(t) = m.get("$trailing") {
        doc.trailing = unhex(t.as_str().ok_or_else(|| expected("hex text", t))?)
            .map_err(|e| e.in_key("$trailing"))?;
    }
    for (key, slot) in [
        ("$manual_zlib", &mut doc.manual_zlib),
        ("$flag_zlib", &mut doc.flag_zlib),
    ] {
        if let Some(z) = m.get(key) {
            let (size, stream) = z
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some((u32::try_from(a[0].as_u64()?).ok()?, a[1].as_str()?)))
                .ok_or_else(|| expected("[inflated size, hex zlib stream]", z).in_key(key))?;
            *slot = Some(KeptZlib {
                size,
                stream: unhex(stream).map_err(|e| e.in_key(key))?,
            });
        }
    }
    Ok(doc)
}

const MAX_JSON_DEPTH: usize = 1024;

thread_local! {
    /// The stack position where the current `from_json` started.
    static JSON_STACK: std::cell::Cell<Option<crate::stack::StackGuard>> = const { std::cell::Cell::new(None) };
}

fn class_of<'t>(m: &Map<String, Json>, types: &'t TypeList) -> Result<&'t ClassDef> {
    if let Some(h) = m.get("$hash") {
        let h = h
            .as_u64()
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| expected("a u32 class hash", h).in_key("$hash"))?;
        let c = types
            .get(h)
            .ok_or_else(|| Error::msg(format!("unknown class hash {h}: not in the type list")))?;
        if let Some(n) = m.get("$class").and_then(Json::as_str) {
            if n != c.name {
                return Err(Error::msg(format!(
                    "$class {n:?} does not match $hash {h} ({})",
                    c.name
                )));
            }
        }
        return Ok(c);
    }
    match m.get("$class") {
        Some(Json::String(n)) => types
            .by_name(n)
            .ok_or_else(|| Error::msg(format!("unknown class {n:?}: not in the type list"))),
        _ => Err(Error::msg(
            "an object needs \"$class\" (a class name) or \"$hash\"",
        )),
    }
}

fn object_from_json(m: &Map<String, Json>, types: &TypeList, depth: usize) -> Result<Object> {
    if depth > MAX_JSON_DEPTH {
        return Err(Error::new(gamewire_core::ErrorKind::DepthLimit {
            limit: MAX_JSON_DEPTH,
        }));
    }
    if !JSON_STACK.with(|g| g.get().map_or(true, |g| g.ok())) {
        return Err(Error::msg(TOO_DEEP));
    }
    let class = class_of(m, types)?;
    let mut props = Vec::with_capacity(m.len());
    for (k, v) in m {
        if let Some(h) = k.strip_prefix("$prop:") {
            let h: u32 = h
                .parse()
                .map_err(|_| Error::msg(format!("bad unknown-property key {k:?}")))?;
            props.push((h, raw_from_json(v).map_err(|e| e.in_key(k.as_str()))?));
            continue;
        }
        if k.starts_with('$') {
            continue;
        }
        let (_, p) = class
            .property_by_name(k)
            .ok_or_else(|| Error::msg(format!("{} has no property {k:?}", class.name)))?;
        props.push((
            p.hash,
            value_from_json(v, p, types, depth).map_err(|e| e.in_key(k.as_str()))?,
        ));
    }
    Ok(Object::new(class.hash, props))
}

fn raw_from_json(j: &Json) -> Result<Value> {
    let bits = j
        .get("$bits")
        .and_then(Json::as_u64)
        .ok_or_else(|| expected("{\"$bits\": n, \"$raw\": hex}", j))?;
    let data = unhex(
        j.get("$raw")
            .and_then(Json::as_str)
            .ok_or_else(|| expected("{\"$bits\": n, \"$raw\": hex}", j))?,
    )?;
    if data.len() as u64 * 8 < bits {
        return Err(Error::msg("$raw holds fewer bits than $bits says"));
    }
    let type_hash = j
        .get("$hash")
        .and_then(Json::as_u64)
        .and_then(|x| u32::try_from(x).ok())
        .unwrap_or(0);
    Ok(Value::Raw(Box::new(Raw {
        type_hash,
        bits,
        data,
    })))
}

/// Reads the JSON of one property value (a list when the property is a container).
fn value_from_json(j: &Json, p: &PropertyDef, types: &TypeList, depth: usize) -> Result<Value> {
    if p.dynamic {
        let arr = j
            .as_array()
            .ok_or_else(|| expected("an array (the property is a container)", j))?;
        let mut out = Vec::with_capacity(arr.len());
        for (i, e) in arr.iter().enumerate() {
            out.push(single(e, p, types, depth + 1).map_err(|err| err.in_index(i))?);
        }
        Ok(Value::List(out))
    } else {
        single(j, p, types, depth)
    }
}

fn f32_of(j: &Json) -> Result<f32> {
    if let Some(x) = j.as_f64() {
        return Ok(x as f32);
    }
    match j.get("$f32").and_then(Json::as_str) {
        Some(h) => u32::from_str_radix(h, 16)
            .map(f32::from_bits)
            .map_err(|_| expected("8 hex digits", j)),
        None => Err(expected("a number", j)),
    }
}

fn fields<const N: usize, T>(
    j: &Json,
    names: [&str; N],
    f: impl Fn(&Json) -> Result<T>,
) -> Result<[T; N]>
where
    T: Copy + Default,
{
    let m = j
        .as_object()
        .ok_or_else(|| expected(&format!("an object with {}", names.join(", ")), j))?;
    let mut out = [T::default(); N];
    for (i, n) in names.iter().enumerate() {
        let v = m
            .get(*n)
            .ok_or_else(|| Error::msg(format!("missing field {n:?}")))?;
        out[i] = f(v).map_err(|e| e.in_key(*n))?;
    }
    Ok(out)
}

fn int<T: TryFrom<i64> + TryFrom<u64>>(j: &Json) -> Result<T> {
    let r = match j {
        Json::Number(n) => n
            .as_u64()
            .map(T::try_from)
            .map(|r| r.ok())
            .or_else(|| n.as_i64().map(|v| T::try_from(v).ok())),
        _ => None,
    };
    r.flatten().ok_or_else(|| {
        expected(
            &format!("an integer that fits {}", std::any::type_name::<T>()),
            j,
        )
    })
}

fn single(j: &Json, p: &PropertyDef, types: &TypeList, depth: usize) -> Result<Value> {
    Ok(match p.kind {
        Kind::Bool => Value::Bool(j.as_bool().ok_or_else(|| expected("true or false", j))?),
        Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64 | Kind::SBits(_) => Value::Int(int::<i64>(j)?),
        Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64 | Kind::UBits(_) => {
            Value::UInt(int::<u64>(j)?)
        }
        Kind::F32 => Value::Float(f32_of(j)?),
        Kind::F64 => Value::Double(match j.as_f64() {
            Some(x) => x,
            None => match j.get("$f64").and_then(Json::as_str) {
                Some(h) => u64::from_str_radix(h, 16)
                    .map(f64::from_bits)
                    .map_err(|_| expected("16 hex digits", j))?,
                None => return Err(expected("a number", j)),
            },
        }),
        Kind::Str => match j {
            Json::String(s) => Value::String(s.as_str().into()),
            _ => match j.get("$bytes").and_then(Json::as_str) {
                Some(h) => Value::String(unhex(h)?.into()),
                None => return Err(expected("a string or {\"$bytes\": hex}", j)),
            },
        },
        Kind::WStr => match j {
            Json::String(s) => Value::WString(s.encode_utf16().collect()),
            _ => match j.get("$utf16").and_then(Json::as_array) {
                Some(a) => Value::WString(a.iter().map(int::<u16>).collect::<Result<_>>()?),
                None => return Err(expected("a string or {\"$utf16\": [units]}", j)),
            },
        },
        Kind::Enum => match j {
            // A name as decoding writes it stands for its value; other spellings are
            // kept as text (checked against the options when encoding).
            Json::String(s) => match p.enum_from_names(s) {
                Ok(v) if p.enum_to_names(v).as_deref() == Some(s.as_str()) => Value::Enum(v),
                _ => Value::EnumName(s.clone()),
            },
            _ => Value::Enum(int::<i64>(j)?),
        },
        Kind::Color => {
            let [r, g, b, a] = fields(j, ["r", "g", "b", "a"], int::<u8>)?;
            Value::Color([b, g, r, a])
        }
        Kind::Vec3 => Value::Vec3(fields(j, ["x", "y", "z"], f32_of)?),
        Kind::Euler => Value::Euler(fields(j, ["pitch", "yaw", "roll"], f32_of)?),
        Kind::Quat => {
            let [x, y, z, w] = fields(j, ["x", "y", "z", "w"], f32_of)?;
            Value::Quat([w, x, y, z])
        }
        Kind::Matrix => {
            let rows = fields(j, ["i", "j", "k"], |r| {
                let a = r
                    .as_array()
                    .filter(|a| a.len() == 3)
                    .ok_or_else(|| expected("an array of 3 numbers", r))?;
                Ok([f32_of(&a[0])?, f32_of(&a[1])?, f32_of(&a[2])?])
            })?;
            Value::Matrix(Box::new(std::array::from_fn(|i| rows[i / 3][i % 3])))
        }
        Kind::PointInt => Value::PointInt(fields(j, ["x", "y"], int::<i32>)?),
        Kind::PointUChar => Value::PointUChar(fields(j, ["x", "y"], int::<u8>)?),
        Kind::PointUInt => Value::PointUInt(fields(j, ["x", "y"], int::<u32>)?),
        Kind::PointFloat => Value::PointFloat(fields(j, ["x", "y"], f32_of)?),
        Kind::SizeInt => Value::SizeInt(fields(j, ["width", "height"], int::<i32>)?),
        Kind::RectInt => Value::RectInt(fields(j, ["left", "top", "right", "bottom"], int::<i32>)?),
        Kind::RectFloat => Value::RectFloat(fields(j, ["left", "top", "right", "bottom"], f32_of)?),
        Kind::Object => match j {
            Json::Null => Value::Null,
            Json::Object(m) if m.contains_key("$raw") => raw_from_json(j)?,
            Json::Object(m) => Value::Object(object_from_json(m, types, depth + 1)?),
            _ => return Err(expected("an object or null", j)),
        },
    })
}
