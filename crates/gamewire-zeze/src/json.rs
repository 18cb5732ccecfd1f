//! The lossless JSON mapping of the schema-less tree (see `docs/FORMATS.md`).
//!
//! - a bean is an object keyed by field id (`{"1": 150, "3": "hi"}`), with its base
//!   class's level under `"base"`;
//! - integers are JSON integers, doubles JSON numbers with a fraction or exponent,
//!   strings (valid UTF-8 bytes) JSON strings;
//! - every other wire type is a tagged object: `{"float": 1.5}`, `{"bytes": "hex"}`,
//!   `{"list": "int", "items": [..]}`, `{"map": ["bytes", "bean"], "entries": [[k, v]]}`,
//!   `{"dynamic": 7, "bean": {..}}`, `{"vector3": [x, y, z]}`, ...;
//! - inside `items` and `entries`, whose type the header gives, items are compact:
//!   floats are plain numbers and vectors plain arrays.

use crate::value::{Bean, Field, Value, WireType};
use gamewire_core::{Error, Result};
use serde_json::{json, Map, Number, Value as J};

/// Lower-case hex of `b` (see [`gamewire_core::hex::to_hex`]).
pub use gamewire_core::hex::to_hex as hex;

/// Parses hex (upper or lower case, no separators; see [`gamewire_core::hex::from_hex`]).
pub use gamewire_core::hex::from_hex as unhex;

/// The contract's name for [`bean_to_json`]: a bean's JSON tree.
pub use self::bean_to_json as to_json;

/// The contract's name for [`bean_from_json`]: a bean from its JSON tree.
pub use self::bean_from_json as from_json;

/// Writes a bean's JSON to `w`, streamed from [`crate::json_view::BeanView`] (no JSON
/// tree is built), pretty or on one line.
pub fn write_json<W: std::io::Write>(w: W, bean: &Bean, pretty: bool) -> Result<()> {
    gamewire_core::json_out::write(w, &crate::json_view::BeanView::new(bean), pretty)
        .map_err(gamewire_core::json_out::write_error)
}

/// A finite f32 as the shortest JSON number that reads back to the same bits; a
/// non-finite one as `{"float_bits": n}`.
pub fn f32_json(f: f32) -> J {
    if !f.is_finite() {
        return json!({ "float_bits": f.to_bits() });
    }
    let short: f64 = format!("{f}").parse().unwrap_or(f as f64);
    let x = if (short as f32).to_bits() == f.to_bits() {
        short
    } else {
        f as f64
    };
    Number::from_f64(x).map(J::Number).unwrap_or(J::Null)
}

/// A finite f64 as a JSON number; a non-finite one as `{"double_bits": n}`.
pub fn f64_json(d: f64) -> J {
    match Number::from_f64(d) {
        Some(n) if d.is_finite() => J::Number(n),
        _ => json!({ "double_bits": d.to_bits() }),
    }
}

fn bits_of(j: &J, key: &str) -> Option<u64> {
    j.as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get(key))
        .and_then(J::as_u64)
}

/// Reads an f32 written by [`f32_json`] (any JSON number is accepted).
pub fn f32_from(j: &J) -> Result<f32> {
    if let Some(b) = bits_of(j, "float_bits") {
        return u32::try_from(b)
            .map(f32::from_bits)
            .map_err(|_| Error::msg("float_bits past 32 bits"));
    }
    j.as_f64()
        .map(|x| x as f32)
        .ok_or_else(|| expected("a number (float)", j))
}

/// Reads an f64 written by [`f64_json`] (any JSON number is accepted).
pub fn f64_from(j: &J) -> Result<f64> {
    if let Some(b) = bits_of(j, "double_bits") {
        return Ok(f64::from_bits(b));
    }
    j.as_f64().ok_or_else(|| expected("a number (double)", j))
}

/// Reads a JSON integer as i64.
pub fn i64_from(j: &J) -> Result<i64> {
    match j {
        J::Number(n) => n
            .as_i64()
            .ok_or_else(|| expected("an integer in the i64 range", j)),
        J::Bool(b) => Ok(*b as i64),
        _ => Err(expected("an integer", j)),
    }
}

#[cold]
pub(crate) fn expected(what: &str, found: &J) -> Error {
    let mut s = found.to_string();
    if s.len() > 60 {
        let mut cut = 57;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    Error::msg(format!("expected {what}, found {s}"))
}

/// Bytes as a JSON string when they are UTF-8, else `{"bytes": "hex"}`.
pub fn bytes_json(b: &[u8]) -> J {
    match std::str::from_utf8(b) {
        Ok(s) => J::String(s.to_owned()),
        Err(_) => json!({ "bytes": hex(b) }),
    }
}

/// Reads bytes written by [`bytes_json`].
pub fn bytes_from(j: &J) -> Result<Vec<u8>> {
    match j {
        J::String(s) => Ok(s.as_bytes().to_vec()),
        J::Object(o) if o.len() == 1 => match o.get("bytes") {
            Some(J::String(h)) => unhex(h),
            _ => Err(expected("a string or {\"bytes\": hex}", j)),
        },
        _ => Err(expected("a string or {\"bytes\": hex}", j)),
    }
}

/// A bean as a JSON object keyed by field id, the base level under `"base"`.
pub fn bean_to_json(b: &Bean) -> J {
    let mut m = Map::with_capacity(b.fields.len() + 1);
    for f in &b.fields {
        m.insert(f.id.to_string(), value_to_json(&f.value));
    }
    if let Some(base) = &b.base {
        m.insert("base".into(), bean_to_json(base));
    }
    J::Object(m)
}

/// Reads a bean written by [`bean_to_json`] (keys in any order).
pub fn bean_from_json(j: &J) -> Result<Bean> {
    let o = j.as_object().ok_or_else(|| expected("a bean object", j))?;
    let mut fields = Vec::with_capacity(o.len());
    let mut base = None;
    for (k, v) in o {
        if k == "base" {
            base = Some(Box::new(bean_from_json(v).map_err(|e| e.in_key("base"))?));
            continue;
        }
        let id: u32 = k
            .parse()
            .ok()
            .filter(|&i| i >= 1 && i <= i32::MAX as u32)
            .ok_or_else(|| {
                Error::msg(format!(
                    "expected a field id 1..=2147483647 or \"base\", found key {k:?}"
                ))
            })?;
        fields.push(Field {
            id,
            value: value_from_json(v).map_err(|e| e.in_key(k.clone()))?,
        });
    }
    fields.sort_by_key(|f| f.id);
    Ok(Bean { fields, base })
}

fn f32s(a: &[f32]) -> J {
    J::Array(a.iter().map(|&x| f32_json(x)).collect())
}

fn i64s(a: &[i64]) -> J {
    J::Array(a.iter().map(|&x| J::from(x)).collect())
}

/// A value in self-describing form (a bean field's value).
pub fn value_to_json(v: &Value) -> J {
    match v {
        Value::Bean(b) => bean_to_json(b),
        Value::List { .. } | Value::Map { .. } | Value::Dynamic { .. } => item_to_json(v),
        _ => scalar_to_json(v),
    }
}

#[inline(never)]
pub(crate) fn scalar_to_json(v: &Value) -> J {
    let tagged = |k: &str, x: J| {
        let mut m = Map::with_capacity(1);
        m.insert(k.to_owned(), x);
        J::Object(m)
    };
    match v {
        Value::Integer(i) => J::from(*i),
        Value::Double(d) => f64_json(*d),
        Value::Bytes(b) => bytes_json(b),
        Value::Float(f) => tagged("float", f32_json(*f)),
        Value::Vector2(a) => tagged("vector2", f32s(a)),
        Value::Vector3(a) => tagged("vector3", f32s(a)),
        Value::Vector4(a) => tagged("vector4", f32s(a)),
        Value::Vector2Int(a) => tagged("vector2int", i64s(a)),
        Value::Vector3Int(a) => tagged("vector3int", i64s(a)),
        _ => item_to_json(v),
    }
}

/// A value in compact form, where the wire type is known from a list or map header.
pub fn item_to_json(v: &Value) -> J {
    match v {
        Value::Bean(b) => bean_to_json(b),
        Value::List { elem, items } => {
            let mut m = Map::with_capacity(2);
            m.insert("list".into(), J::from(elem.name()));
            m.insert(
                "items".into(),
                J::Array(items.iter().map(item_to_json).collect()),
            );
            J::Object(m)
        }
        Value::Map {
            key,
            value,
            entries,
        } => {
            let mut m = Map::with_capacity(2);
            m.insert(
                "map".into(),
                J::Array(vec![J::from(key.name()), J::from(value.name())]),
            );
            let e = entries
                .iter()
                .map(|(k, v)| J::Array(vec![item_to_json(k), item_to_json(v)]))
                .collect();
            m.insert("entries".into(), J::Array(e));
            J::Object(m)
        }
        Value::Dynamic { type_id, bean } => {
            let mut m = Map::with_capacity(2);
            m.insert("dynamic".into(), J::from(*type_id));
            m.insert("bean".into(), bean_to_json(bean));
            J::Object(m)
        }
        _ => compact_scalar_json(v),
    }
}

#[inline(never)]
pub(crate) fn compact_scalar_json(v: &Value) -> J {
    match v {
        Value::Integer(i) => J::from(*i),
        Value::Float(f) => f32_json(*f),
        Value::Double(d) => f64_json(*d),
        Value::Bytes(b) => bytes_json(b),
        Value::Vector2(a) => f32s(a),
        Value::Vector3(a) => f32s(a),
        Value::Vector4(a) => f32s(a),
        Value::Vector2Int(a) => i64s(a),
        Value::Vector3Int(a) => i64s(a),
        _ => J::Null,
    }
}

fn arr<const N: usize, T: Copy + Default>(j: &J, f: impl Fn(&J) -> Result<T>) -> Result<[T; N]> {
    let a = j
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| expected(&format!("an array of {N} numbers"), j))?;
    let mut out = [T::default(); N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = f(x)?;
    }
    Ok(out)
}

fn type_name(j: &J) -> Result<WireType> {
    j.as_str()
        .and_then(WireType::from_name)
        .ok_or_else(|| expected("a wire type name (int, float, double, bytes, list, map, bean, dynamic, vector2, vector2int, vector3, vector3int, vector4)", j))
}

/// Reads a compact item of wire type `ty`.
pub fn item_from_json(j: &J, ty: WireType) -> Result<Value> {
    Ok(match ty {
        WireType::Integer => Value::Integer(i64_from(j)?),
        WireType::Float => Value::Float(f32_from(j)?),
        WireType::Double => Value::Double(f64_from(j)?),
        WireType::Bytes => Value::Bytes(bytes_from(j)?),
        WireType::Bean => Value::Bean(bean_from_json(j)?),
        WireType::Vector2 => Value::Vector2(arr(j, f32_from)?),
        WireType::Vector3 => Value::Vector3(arr(j, f32_from)?),
        WireType::Vector4 => Value::Vector4(arr(j, f32_from)?),
        WireType::Vector2Int => Value::Vector2Int(arr(j, i64_from)?),
        WireType::Vector3Int => Value::Vector3Int(arr(j, i64_from)?),
        WireType::List | WireType::Map | WireType::Dynamic => {
            let v = value_from_json(j)?;
            if v.wire_type() != ty {
                return Err(expected(&format!("a {ty}"), j));
            }
            v
        }
    })
}

/// Reads a self-describing value written by [`value_to_json`].
pub fn value_from_json(j: &J) -> Result<Value> {
    match j {
        J::Object(o) if !is_tagged(o) => Ok(Value::Bean(bean_from_json(j)?)),
        _ => tagged_from_json(j),
    }
}

/// True for the tagged objects (anything but a bean).
fn is_tagged(o: &Map<String, J>) -> bool {
    const TAGS: [&str; 11] = [
        "float",
        "float_bits",
        "double_bits",
        "bytes",
        "vector2",
        "vector2int",
        "vector3",
        "vector3int",
        "vector4",
        "list",
        "map",
    ];
    o.keys()
        .any(|k| TAGS.contains(&k.as_str()) || k == "dynamic")
}

#[inline(never)]
fn tagged_from_json(j: &J) -> Result<Value> {
    match j {
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(Value::Integer(i))
            } else if n.is_u64() {
                Err(expected("an integer in the i64 range", j))
            } else {
                Ok(Value::Double(n.as_f64().unwrap_or(0.0)))
            }
        }
        J::Bool(b) => Ok(Value::Integer(*b as i64)),
        J::String(s) => Ok(Value::Bytes(s.as_bytes().to_vec())),
        J::Null | J::Array(_) => Err(expected("a value (number, string or object)", j)),
        J::Object(o) => {
            let one = |k: &str| if o.len() == 1 { o.get(k) } else { None };
            if let Some(x) = one("float") {
                return Ok(Value::Float(f32_from(x)?));
            }
            if one("float_bits").is_some() {
                return Ok(Value::Float(f32_from(j)?));
            }
            if one("double_bits").is_some() {
                return Ok(Value::Double(f64_from(j)?));
            }
            if one("bytes").is_some() {
                return Ok(Value::Bytes(bytes_from(j)?));
            }
            for ty in [
                WireType::Vector2,
                WireType::Vector2Int,
                WireType::Vector3,
                WireType::Vector3Int,
                WireType::Vector4,
            ] {
                if let Some(x) = one(ty.name()) {
                    return item_from_json(x, ty);
                }
            }
            if let (Some(t), Some(items), 2) = (o.get("list"), o.get("items"), o.len()) {
                let elem = type_name(t)?;
                let items = items
                    .as_array()
                    .ok_or_else(|| expected("an items array", items))?;
                let items = items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| item_from_json(x, elem).map_err(|e| e.in_index(i)))
                    .collect::<Result<Vec<_>>>()?;
                return Ok(Value::List { elem, items });
            }
            if let (Some(t), Some(entries), 2) = (o.get("map"), o.get("entries"), o.len()) {
                let kv = t
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| expected("[key type, value type]", t))?;
                let (key, value) = (type_name(&kv[0])?, type_name(&kv[1])?);
                let entries = entries
                    .as_array()
                    .ok_or_else(|| expected("an entries array", entries))?;
                let entries = entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let pair = || -> Result<(Value, Value)> {
                            let p = e
                                .as_array()
                                .filter(|p| p.len() == 2)
                                .ok_or_else(|| expected("a [key, value] pair", e))?;
                            Ok((item_from_json(&p[0], key)?, item_from_json(&p[1], value)?))
                        };
                        pair().map_err(|err| err.in_index(i))
                    })
                    .collect::<Result<Vec<_>>>()?;
                return Ok(Value::Map {
                    key,
                    value,
                    entries,
                });
            }
            if let (Some(t), Some(b), 2) = (o.get("dynamic"), o.get("bean"), o.len()) {
                return Ok(Value::Dynamic {
                    type_id: i64_from(t)?,
                    bean: bean_from_json(b).map_err(|e| e.in_key("bean"))?,
                });
            }
            Ok(Value::Bean(bean_from_json(j)?))
        }
    }
}

use crate::frame::{Body, Family, Frame, Payload};

/// A frame as `{"module": m, "protocol": p, "family": "protocol", "result_code": rc,
/// "session_id": s, "bean": {..}}` (`result_code` and `session_id` only when present),
/// or `{"module": m, "protocol": p, "raw": {"bytes": hex}}` for a non-standard body.
pub fn frame_to_json(f: &Frame, bean: impl FnOnce(&Bean) -> J) -> J {
    let mut m = Map::new();
    m.insert("module".into(), J::from(f.module_id));
    m.insert("protocol".into(), J::from(f.protocol_id));
    match &f.payload {
        Payload::Body(b) => {
            m.insert("family".into(), J::from(b.family.name()));
            if let Some(rc) = b.result_code {
                m.insert("result_code".into(), J::from(rc));
            }
            if let Some(s) = b.session_id {
                m.insert("session_id".into(), J::from(s));
            }
            m.insert("bean".into(), bean(&b.bean));
        }
        Payload::Raw(r) => {
            m.insert("raw".into(), json!({ "bytes": hex(r) }));
        }
    }
    J::Object(m)
}

/// Reads a frame written by [`frame_to_json`]; `bean` reads the bean object.
pub fn frame_from_json(j: &J, bean: impl FnOnce(&J) -> Result<Bean>) -> Result<Frame> {
    let o = j.as_object().ok_or_else(|| expected("a frame object", j))?;
    let id = |k: &str| -> Result<u32> {
        o.get(k)
            .and_then(J::as_u64)
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| Error::msg(format!("frame needs \"{k}\": an integer 0..=4294967295")))
    };
    let (module_id, protocol_id) = (id("module")?, id("protocol")?);
    let payload = if let Some(r) = o.get("raw") {
        Payload::Raw(bytes_from(r).map_err(|e| e.in_key("raw"))?)
    } else {
        let fam = o
            .get("family")
            .and_then(J::as_str)
            .and_then(Family::from_name);
        let family = fam.ok_or_else(|| {
            Error::msg("frame needs \"family\": \"protocol\", \"request\" or \"response\"")
        })?;
        let opt = |k: &str| {
            o.get(k)
                .map(|v| i64_from(v).map_err(|e| e.in_key(k.to_owned())))
                .transpose()
        };
        Payload::Body(Body {
            family,
            result_code: opt("result_code")?,
            session_id: opt("session_id")?,
            bean: bean(o.get("bean").unwrap_or(&J::Null)).map_err(|e| e.in_key("bean"))?,
        })
    };
    Ok(Frame {
        module_id,
        protocol_id,
        payload,
    })
}
