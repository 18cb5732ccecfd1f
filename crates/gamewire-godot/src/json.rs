//! The lossless JSON mapping (documented in docs/FORMATS.md).
//!
//! Plain data maps to plain JSON: `null`, `bool`, `int` (a JSON integer), `float` (a JSON
//! number that always has a decimal point or exponent), `String`, an untyped `Array` (a
//! JSON array) and an untyped `Dictionary` whose keys are all distinct Strings, none of
//! them `"$type"` (a JSON object). Every other value is a tagged object
//! `{"$type": "<engine type name>", ...}`. `from_json(to_json(v)) == v` for every value,
//! so engine bytes -> JSON -> bytes gives the same bytes.

use crate::value::*;
use crate::{GString, Kind, Version};
use gamewire_core::{Error, Result};
use serde_json::{json, Map, Number, Value as Json};

/// The key that marks a tagged object.
pub const TYPE_KEY: &str = "$type";

/// Converts a Variant to JSON, naming types as `version` does (`PoolIntArray` in 3.x).
pub fn to_json(v: &Value, version: Version) -> Json {
    ToJson { version }.value(v)
}

/// Converts JSON (as [`to_json`] writes it, or written by hand) to a Variant.
/// Type names of either version are accepted. Errors name the JSON path.
pub fn from_json(j: &Json, version: Version) -> Result<Value> {
    FromJson { version }.value(j, 0)
}

struct ToJson {
    version: Version,
}

/// The JSON of a Variant written straight to a serializer, with no JSON tree built for
/// its containers: `serde_json::to_writer(w, &JsonView::new(&v, version))` writes the
/// very text `to_json` would give, with memory for one leaf at a time (a leaf such as a
/// packed array is still turned into JSON whole).
#[derive(Debug, Clone, Copy)]
pub struct JsonView<'a> {
    value: &'a Value,
    version: Version,
}

impl<'a> JsonView<'a> {
    /// A view of `value`, naming types as `version` does.
    pub fn new(value: &'a Value, version: Version) -> Self {
        JsonView { value, version }
    }

    fn of(&self, value: &'a Value) -> Self {
        JsonView {
            value,
            version: self.version,
        }
    }
}

impl serde::Serialize for JsonView<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        let to = ToJson {
            version: self.version,
        };
        let v = self.value;
        let kind_name = || v.kind().name(self.version);
        match v {
            Value::Array(a) if a.element_type().is_any() => {
                let mut q = s.serialize_seq(Some(a.items.len()))?;
                for x in &a.items {
                    q.serialize_element(&self.of(x))?;
                }
                q.end()
            }
            Value::Array(a) => {
                let mut m = s.serialize_map(Some(3))?;
                m.serialize_entry(TYPE_KEY, kind_name())?;
                m.serialize_entry("element_type", &to.container_type(a.element_type()))?;
                m.serialize_entry("value", &Items(self, &a.items))?;
                m.end()
            }
            Value::Dictionary(d) => {
                let plain = d.key_type().is_any()
                    && d.value_type().is_any()
                    && unique_keys(
                        d.entries.iter().map(|(k, _)| match k {
                            Value::String(s) => Some(s.as_str()),
                            _ => None,
                        }),
                        d.entries.len(),
                    );
                if plain {
                    let mut m = s.serialize_map(Some(d.entries.len()))?;
                    for (k, x) in &d.entries {
                        m.serialize_entry(k.as_str().unwrap_or_default(), &self.of(x))?;
                    }
                    return m.end();
                }
                let mut m = s.serialize_map(None)?;
                m.serialize_entry(TYPE_KEY, kind_name())?;
                if !d.key_type().is_any() {
                    m.serialize_entry("key_type", &to.container_type(d.key_type()))?;
                }
                if !d.value_type().is_any() {
                    m.serialize_entry("value_type", &to.container_type(d.value_type()))?;
                }
                m.serialize_entry("entries", &Pairs(self, &d.entries))?;
                m.end()
            }
            Value::Object(o) => match &**o {
                Object::Full { class, properties } => {
                    let mut m = s.serialize_map(Some(3))?;
                    m.serialize_entry(TYPE_KEY, kind_name())?;
                    m.serialize_entry("class", class)?;
                    m.serialize_entry("properties", &Properties(self, properties))?;
                    m.end()
                }
                Object::Id(_) => to.value(v).serialize(s),
            },
            _ => to.value(v).serialize(s),
        }
    }
}

/// Array items, streamed.
struct Items<'v, 'a>(&'v JsonView<'a>, &'a [Value]);

impl serde::Serialize for Items<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|x| self.0.of(x)))
    }
}

/// Dictionary entries as `[key, value]` pairs, streamed.
struct Pairs<'v, 'a>(&'v JsonView<'a>, &'a [(Value, Value)]);

impl serde::Serialize for Pairs<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|(k, x)| (self.0.of(k), self.0.of(x))))
    }
}

/// Object properties: a map when the names are distinct, else `[name, value]` pairs.
struct Properties<'v, 'a>(&'v JsonView<'a>, &'a [(String, Value)]);

impl serde::Serialize for Properties<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let props = self.1;
        if unique_keys(props.iter().map(|(k, _)| Some(k.as_str())), props.len()) {
            s.collect_map(props.iter().map(|(k, x)| (k, self.0.of(x))))
        } else {
            s.collect_seq(props.iter().map(|(k, x)| (k, self.0.of(x))))
        }
    }
}

/// A f64 as a JSON number (always written with a decimal point or exponent), or the
/// tagged form for NaN and infinities.
fn float(f: f64) -> Json {
    match Number::from_f64(f) {
        Some(n) => Json::Number(n),
        None => json!({ TYPE_KEY: "float", "value": non_finite_f64(f) }),
    }
}

/// `"inf"`, `"-inf"`, `"nan"` (the canonical quiet NaN) or `"nan:0x<bits>"` (any other
/// NaN, so its payload survives).
fn non_finite_f64(f: f64) -> String {
    if f.is_nan() {
        if f.to_bits() == f64::NAN.to_bits() {
            "nan".into()
        } else {
            format!("nan:0x{:016x}", f.to_bits())
        }
    } else if f > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

fn non_finite_f32(f: f32) -> String {
    if f.is_nan() && f.to_bits() != f32::NAN.to_bits() {
        format!("nan:0x{:08x}", f.to_bits())
    } else {
        non_finite_f64(f as f64)
    }
}

/// A f32 as the shortest JSON number that reads back as the same f32.
fn float32(f: f32) -> Json {
    if !f.is_finite() {
        return json!(non_finite_f32(f));
    }
    let short: f64 = format!("{f:?}").parse().unwrap_or(f as f64);
    if short as f32 == f {
        float(short)
    } else {
        float(f as f64)
    }
}

fn f64_json(f: f64) -> Json {
    if f.is_finite() {
        float(f)
    } else {
        json!(non_finite_f64(f))
    }
}

pub(crate) fn unique_keys<'a>(mut keys: impl Iterator<Item = Option<&'a str>>, len: usize) -> bool {
    if len <= 16 {
        let mut seen: Vec<&str> = Vec::with_capacity(len);
        keys.all(|k| match k {
            Some(k) if k != TYPE_KEY && !seen.contains(&k) => {
                seen.push(k);
                true
            }
            _ => false,
        })
    } else {
        let mut seen = std::collections::HashSet::with_capacity(len);
        keys.all(|k| matches!(k, Some(k) if k != TYPE_KEY && seen.insert(k)))
    }
}

impl ToJson {
    fn tagged(&self, kind: Kind, fields: Vec<(&str, Json)>) -> Json {
        let mut m = Map::with_capacity(fields.len() + 1);
        m.insert(
            TYPE_KEY.into(),
            Json::String(kind.name(self.version).into()),
        );
        for (k, v) in fields {
            m.insert(k.into(), v);
        }
        Json::Object(m)
    }

    fn real<const N: usize>(&self, kind: Kind, r: &Real<N>) -> Json {
        match r {
            Real::F32(a) => self.tagged(
                kind,
                vec![("value", a.iter().map(|&x| float32(x)).collect())],
            ),
            Real::F64(a) => self.tagged(
                kind,
                vec![
                    ("value", a.iter().map(|&x| f64_json(x)).collect()),
                    ("precision", json!("double")),
                ],
            ),
        }
    }

    fn reals<const N: usize>(&self, kind: Kind, r: &Reals<N>) -> Json {
        match r {
            Reals::F32(v) => self.tagged(
                kind,
                vec![(
                    "value",
                    v.iter()
                        .map(|a| a.iter().map(|&x| float32(x)).collect::<Json>())
                        .collect(),
                )],
            ),
            Reals::F64(v) => self.tagged(
                kind,
                vec![
                    (
                        "value",
                        v.iter()
                            .map(|a| a.iter().map(|&x| f64_json(x)).collect::<Json>())
                            .collect(),
                    ),
                    ("precision", json!("double")),
                ],
            ),
        }
    }

    fn container_type(&self, t: &ContainerType) -> Json {
        match t {
            ContainerType::Any => Json::Null,
            ContainerType::Builtin(id) => match Kind::from_id(*id, Version::V4) {
                Some(k) => json!(k.name(Version::V4)),
                None => json!(id),
            },
            ContainerType::ClassName(c) => json!({ "class": c }),
            ContainerType::Script(s) => json!({ "script": s }),
        }
    }

    fn value(&self, v: &Value) -> Json {
        let kind = v.kind();
        match v {
            Value::Nil => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::Number((*i).into()),
            Value::Float(f) => float(*f),
            Value::String(s) => Json::String(s.to_string()),
            Value::Vector2(r) => self.real(kind, r),
            Value::Vector3(r) => self.real(kind, r),
            Value::Rect2(r) | Value::Vector4(r) | Value::Plane(r) | Value::Quaternion(r) => {
                self.real(kind, &**r)
            }
            Value::Transform2D(r) | Value::Aabb(r) => self.real(kind, &**r),
            Value::Basis(r) => self.real(kind, &**r),
            Value::Transform3D(r) => self.real(kind, &**r),
            Value::Projection(r) => self.real(kind, &**r),
            Value::Vector2i(a) => self.tagged(kind, vec![("value", json!(a))]),
            Value::Vector3i(a) => self.tagged(kind, vec![("value", json!(a))]),
            Value::Rect2i(a) | Value::Vector4i(a) => self.tagged(kind, vec![("value", json!(a))]),
            Value::Color(c) => self.tagged(
                kind,
                vec![("value", c.iter().map(|&x| float32(x)).collect())],
            ),
            Value::StringName(s) => self.tagged(kind, vec![("value", json!(s.as_str()))]),
            Value::NodePath(p) => {
                let text = p.to_string();
                let mut fields = if NodePath::parse(&text).same_path(p) {
                    vec![("value", json!(text))]
                } else {
                    vec![
                        ("names", json!(p.names)),
                        ("subnames", json!(p.subnames)),
                        ("absolute", json!(p.absolute)),
                    ]
                };
                if let Some(raw) = &p.raw_padding {
                    fields.push(("padding", json!(base64::encode(raw))));
                }
                self.tagged(kind, fields)
            }
            Value::Rid(id) => self.tagged(kind, vec![("value", json!(id))]),
            Value::Object(o) => match &**o {
                Object::Id(id) => self.tagged(kind, vec![("id", json!(id))]),
                Object::Full { class, properties } => {
                    let props = if unique_keys(
                        properties.iter().map(|(k, _)| Some(k.as_str())),
                        properties.len(),
                    ) {
                        Json::Object(
                            properties
                                .iter()
                                .map(|(k, v)| (k.clone(), self.value(v)))
                                .collect(),
                        )
                    } else {
                        properties
                            .iter()
                            .map(|(k, v)| json!([k, self.value(v)]))
                            .collect()
                    };
                    self.tagged(kind, vec![("class", json!(class)), ("properties", props)])
                }
            },
            Value::Callable => self.tagged(kind, vec![]),
            Value::Signal(s) => {
                self.tagged(kind, vec![("name", json!(s.0)), ("object", json!(s.1))])
            }
            Value::Dictionary(d) => {
                let plain = d.key_type().is_any()
                    && d.value_type().is_any()
                    && unique_keys(
                        d.entries.iter().map(|(k, _)| match k {
                            Value::String(s) => Some(s.as_str()),
                            _ => None,
                        }),
                        d.entries.len(),
                    );
                if plain {
                    Json::Object(
                        d.entries
                            .iter()
                            .map(|(k, v)| {
                                (k.as_str().unwrap_or_default().to_owned(), self.value(v))
                            })
                            .collect(),
                    )
                } else {
                    let mut fields = Vec::new();
                    if !d.key_type().is_any() {
                        fields.push(("key_type", self.container_type(d.key_type())));
                    }
                    if !d.value_type().is_any() {
                        fields.push(("value_type", self.container_type(d.value_type())));
                    }
                    fields.push((
                        "entries",
                        d.entries
                            .iter()
                            .map(|(k, v)| json!([self.value(k), self.value(v)]))
                            .collect(),
                    ));
                    self.tagged(kind, fields)
                }
            }
            Value::Array(a) => {
                let items: Json = a.items.iter().map(|x| self.value(x)).collect();
                if a.element_type().is_any() {
                    items
                } else {
                    self.tagged(
                        kind,
                        vec![
                            ("element_type", self.container_type(a.element_type())),
                            ("value", items),
                        ],
                    )
                }
            }
            Value::PackedByteArray(b) => {
                self.tagged(kind, vec![("base64", json!(base64::encode(b)))])
            }
            Value::PackedInt32Array(v) => self.tagged(kind, vec![("value", json!(v))]),
            Value::PackedInt64Array(v) => self.tagged(kind, vec![("value", json!(v))]),
            Value::PackedFloat32Array(v) => self.tagged(
                kind,
                vec![("value", v.iter().map(|&x| float32(x)).collect())],
            ),
            Value::PackedFloat64Array(v) => self.tagged(
                kind,
                vec![("value", v.iter().map(|&x| f64_json(x)).collect())],
            ),
            Value::PackedStringArray(v) => self.tagged(
                kind,
                vec![("value", v.iter().map(|s| json!(s.as_str())).collect())],
            ),
            Value::PackedVector2Array(r) => self.reals(kind, r),
            Value::PackedVector3Array(r) => self.reals(kind, r),
            Value::PackedColorArray(v) => self.tagged(
                kind,
                vec![(
                    "value",
                    v.iter()
                        .map(|a| a.iter().map(|&x| float32(x)).collect::<Json>())
                        .collect(),
                )],
            ),
            Value::PackedVector4Array(r) => self.reals(kind, r),
        }
    }
}

struct FromJson {
    version: Version,
}

fn type_name(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

fn want(expected: &str, j: &Json) -> Error {
    Error::new(gamewire_core::ErrorKind::Unexpected {
        expected: expected.into(),
        found: type_name(j).into(),
    })
}

fn non_finite(s: &str) -> Option<f64> {
    match s {
        "nan" | "NaN" => Some(f64::NAN),
        "inf" | "+inf" | "Infinity" => Some(f64::INFINITY),
        "-inf" | "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

fn nan_bits(s: &str, digits: usize) -> Option<u64> {
    let hex = s.strip_prefix("nan:0x")?;
    (hex.len() == digits)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

fn get_f64(j: &Json) -> Result<f64> {
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| want("a number", j)),
        Json::String(s) => non_finite(s)
            .or_else(|| nan_bits(s, 16).map(f64::from_bits))
            .ok_or_else(|| {
                want(
                    "a number (or \"nan\", \"inf\", \"-inf\", \"nan:0x<16 hex digits>\")",
                    j,
                )
            }),
        _ => Err(want("a number", j)),
    }
}

fn get_f32(j: &Json) -> Result<f32> {
    match j {
        Json::String(s) => non_finite(s)
            .map(|f| f as f32)
            .or_else(|| nan_bits(s, 8).map(|b| f32::from_bits(b as u32)))
            .ok_or_else(|| {
                want(
                    "a number (or \"nan\", \"inf\", \"-inf\", \"nan:0x<8 hex digits>\")",
                    j,
                )
            }),
        _ => get_f64(j).map(|f| f as f32),
    }
}

fn get_i64(j: &Json) -> Result<i64> {
    j.as_i64()
        .ok_or_else(|| want("an integer in the 64-bit signed range", j))
}

fn get_u64(j: &Json) -> Result<u64> {
    j.as_u64()
        .ok_or_else(|| want("an unsigned 64-bit integer", j))
}

fn get_i32(j: &Json) -> Result<i32> {
    j.as_i64()
        .and_then(|i| i32::try_from(i).ok())
        .ok_or_else(|| want("an integer in the 32-bit signed range", j))
}

fn get_str(j: &Json) -> Result<&str> {
    j.as_str().ok_or_else(|| want("a string", j))
}

fn get_array(j: &Json) -> Result<&Vec<Json>> {
    j.as_array().ok_or_else(|| want("an array", j))
}

fn field<'a>(m: &'a Map<String, Json>, key: &str) -> Result<&'a Json> {
    m.get(key)
        .ok_or_else(|| Error::msg(format!("the tagged object has no \"{key}\" field")))
}

fn fixed<T, const N: usize>(j: &Json, get: impl Fn(&Json) -> Result<T>) -> Result<[T; N]> {
    let a = get_array(j)?;
    if a.len() != N {
        return Err(Error::msg(format!(
            "expected {N} components, found {}",
            a.len()
        )));
    }
    let mut out = Vec::with_capacity(N);
    for (i, x) in a.iter().enumerate() {
        out.push(get(x).map_err(|e| e.in_index(i))?);
    }
    out.try_into().map_err(|_| Error::msg("component count"))
}

fn is_double(m: &Map<String, Json>) -> Result<bool> {
    match m.get("precision") {
        None => Ok(false),
        Some(Json::String(s)) if s == "double" => Ok(true),
        Some(Json::String(s)) if s == "single" => Ok(false),
        Some(j) => Err(want("\"single\" or \"double\"", j).in_key("precision")),
    }
}

fn real<const N: usize>(m: &Map<String, Json>) -> Result<Real<N>> {
    let v = field(m, "value")?;
    Ok(if is_double(m)? {
        Real::F64(fixed(v, get_f64).map_err(|e| e.in_key("value"))?)
    } else {
        Real::F32(fixed(v, get_f32).map_err(|e| e.in_key("value"))?)
    })
}

fn reals<const N: usize>(m: &Map<String, Json>) -> Result<Reals<N>> {
    let items = get_array(field(m, "value")?).map_err(|e| e.in_key("value"))?;
    let double = is_double(m)?;
    let at = |i: usize| move |e: Error| e.in_index(i).in_key("value");
    Ok(if double {
        Reals::F64(
            items
                .iter()
                .enumerate()
                .map(|(i, j)| fixed(j, get_f64).map_err(at(i)))
                .collect::<Result<_>>()?,
        )
    } else {
        Reals::F32(
            items
                .iter()
                .enumerate()
                .map(|(i, j)| fixed(j, get_f32).map_err(at(i)))
                .collect::<Result<_>>()?,
        )
    })
}

fn list<T>(m: &Map<String, Json>, get: impl Fn(&Json) -> Result<T>) -> Result<Vec<T>> {
    let items = get_array(field(m, "value")?).map_err(|e| e.in_key("value"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, j)| get(j).map_err(|e| e.in_index(i).in_key("value")))
        .collect()
}

impl FromJson {
    fn container_type(&self, j: Option<&Json>) -> Result<ContainerType> {
        Ok(match j {
            None | Some(Json::Null) => ContainerType::Any,
            Some(Json::String(name)) => match Kind::from_name(name) {
                Some(k) => ContainerType::Builtin(k as u32),
                None => return Err(Error::msg(format!("unknown type name \"{name}\""))),
            },
            Some(Json::Number(n)) => ContainerType::Builtin(
                n.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Error::msg("a type id must be a small unsigned integer"))?,
            ),
            Some(Json::Object(m)) => {
                if let Some(c) = m.get("class") {
                    ContainerType::ClassName(get_str(c)?.to_owned())
                } else if let Some(s) = m.get("script") {
                    ContainerType::Script(get_str(s)?.to_owned())
                } else {
                    return Err(Error::msg(
                        "a container type object needs \"class\" or \"script\"",
                    ));
                }
            }
            Some(j) => {
                return Err(want(
                    "a type name, {\"class\": ...} or {\"script\": ...}",
                    j,
                ))
            }
        })
    }

    fn value(&self, j: &Json, depth: usize) -> Result<Value> {
        if depth > gamewire_core::Limits::DEFAULT.max_depth {
            return Err(Error::new(gamewire_core::ErrorKind::DepthLimit {
                limit: gamewire_core::Limits::DEFAULT.max_depth,
            }));
        }
        Ok(match j {
            Json::Null => Value::Nil,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Value::Int(i)
                } else if n.is_u64() {
                    return Err(Error::msg(format!(
                        "integer {n} is past the 64-bit signed range of Godot's int"
                    )));
                } else {
                    Value::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Json::String(s) => Value::String(s.as_str().into()),
            Json::Array(a) => Value::Array(Array::new(self.items(a, depth)?)),
            Json::Object(m) => match m.get(TYPE_KEY) {
                None => Value::Dictionary(Dictionary::new(
                    m.iter()
                        .map(|(k, v)| {
                            Ok((
                                Value::String(k.as_str().into()),
                                self.value(v, depth + 1).map_err(|e| e.in_key(k.clone()))?,
                            ))
                        })
                        .collect::<Result<_>>()?,
                )),
                Some(t) => {
                    let name = get_str(t).map_err(|e| e.in_key(TYPE_KEY))?;
                    self.tagged(name, m, depth)?
                }
            },
        })
    }

    fn items(&self, a: &[Json], depth: usize) -> Result<Vec<Value>> {
        a.iter()
            .enumerate()
            .map(|(i, x)| self.value(x, depth + 1).map_err(|e| e.in_index(i)))
            .collect()
    }

    fn tagged(&self, name: &str, m: &Map<String, Json>, depth: usize) -> Result<Value> {
        if name == "float" {
            return Ok(Value::Float(
                get_f64(field(m, "value")?).map_err(|e| e.in_key("value"))?,
            ));
        }
        let kind =
            Kind::from_name(name).ok_or_else(|| Error::msg(format!("unknown type \"{name}\"")))?;
        let _ = self.version;
        let v = |key: &str| field(m, key).map_err(|e| e.in_key(key.to_owned()));
        Ok(match kind {
            Kind::Nil => Value::Nil,
            Kind::Bool => Value::Bool(
                v("value")?
                    .as_bool()
                    .ok_or_else(|| want("a boolean", j_or_null(m)))?,
            ),
            Kind::Int => Value::Int(get_i64(v("value")?)?),
            Kind::Float => Value::Float(get_f64(v("value")?)?),
            Kind::String => Value::String(get_str(v("value")?)?.into()),
            Kind::Vector2 => Value::Vector2(real(m)?),
            Kind::Vector2i => {
                Value::Vector2i(fixed(v("value")?, get_i32).map_err(|e| e.in_key("value"))?)
            }
            Kind::Rect2 => Value::Rect2(Box::new(real(m)?)),
            Kind::Rect2i => {
                Value::Rect2i(fixed(v("value")?, get_i32).map_err(|e| e.in_key("value"))?)
            }
            Kind::Vector3 => Value::Vector3(real(m)?),
            Kind::Vector3i => {
                Value::Vector3i(fixed(v("value")?, get_i32).map_err(|e| e.in_key("value"))?)
            }
            Kind::Transform2D => Value::Transform2D(Box::new(real(m)?)),
            Kind::Vector4 => Value::Vector4(Box::new(real(m)?)),
            Kind::Vector4i => {
                Value::Vector4i(fixed(v("value")?, get_i32).map_err(|e| e.in_key("value"))?)
            }
            Kind::Plane => Value::Plane(Box::new(real(m)?)),
            Kind::Quaternion => Value::Quaternion(Box::new(real(m)?)),
            Kind::Aabb => Value::Aabb(Box::new(real(m)?)),
            Kind::Basis => Value::Basis(Box::new(real(m)?)),
            Kind::Transform3D => Value::Transform3D(Box::new(real(m)?)),
            Kind::Projection => Value::Projection(Box::new(real(m)?)),
            Kind::Color => {
                Value::Color(fixed(v("value")?, get_f32).map_err(|e| e.in_key("value"))?)
            }
            Kind::StringName => Value::StringName(get_str(v("value")?)?.into()),
            Kind::NodePath => {
                let mut p = match m.get("value") {
                    Some(text) => NodePath::parse(get_str(text).map_err(|e| e.in_key("value"))?),
                    None => NodePath {
                        names: list_of_strings(v("names")?).map_err(|e| e.in_key("names"))?,
                        subnames: list_of_strings(v("subnames")?)
                            .map_err(|e| e.in_key("subnames"))?,
                        absolute: m.get("absolute").and_then(Json::as_bool).unwrap_or(false),
                        raw_padding: None,
                    },
                };
                if let Some(pad) = m.get("padding") {
                    p.raw_padding =
                        Some(base64::decode(get_str(pad)?).map_err(|e| e.in_key("padding"))?);
                }
                Value::NodePath(Box::new(p))
            }
            Kind::Rid => Value::Rid(get_u64(v("value")?)?),
            Kind::Object => Value::Object(Box::new(if let Some(id) = m.get("id") {
                Object::Id(get_u64(id).map_err(|e| e.in_key("id"))?)
            } else {
                let class = get_str(v("class")?)?.to_owned();
                let properties = match m.get("properties") {
                    None | Some(Json::Null) => Vec::new(),
                    Some(Json::Object(p)) => p
                        .iter()
                        .map(|(k, x)| {
                            Ok((
                                k.clone(),
                                self.value(x, depth + 1)
                                    .map_err(|e| e.in_key(k.clone()).in_key("properties"))?,
                            ))
                        })
                        .collect::<Result<_>>()?,
                    Some(Json::Array(p)) => p
                        .iter()
                        .enumerate()
                        .map(|(i, pair)| {
                            let at = |e: Error| e.in_index(i).in_key("properties");
                            match pair.as_array().map(Vec::as_slice) {
                                Some([k, x]) => Ok((
                                    get_str(k).map_err(at)?.to_owned(),
                                    self.value(x, depth + 1).map_err(at)?,
                                )),
                                _ => Err(at(want("a [name, value] pair", pair))),
                            }
                        })
                        .collect::<Result<_>>()?,
                    Some(j) => {
                        return Err(want("an object or a list of [name, value] pairs", j)
                            .in_key("properties"))
                    }
                };
                Object::Full { class, properties }
            })),
            Kind::Callable => Value::Callable,
            Kind::Signal => Value::Signal(Box::new((
                get_str(v("name")?)?.to_owned(),
                get_u64(v("object")?)?,
            ))),
            Kind::Dictionary => {
                let key_type = self
                    .container_type(m.get("key_type"))
                    .map_err(|e| e.in_key("key_type"))?;
                let value_type = self
                    .container_type(m.get("value_type"))
                    .map_err(|e| e.in_key("value_type"))?;
                let entries = match m.get("entries") {
                    Some(Json::Array(es)) => es
                        .iter()
                        .enumerate()
                        .map(|(i, pair)| {
                            let at = |e: Error| e.in_index(i).in_key("entries");
                            match pair.as_array().map(Vec::as_slice) {
                                Some([k, x]) => Ok((
                                    self.value(k, depth + 1).map_err(at)?,
                                    self.value(x, depth + 1).map_err(at)?,
                                )),
                                _ => Err(at(want("a [key, value] pair", pair))),
                            }
                        })
                        .collect::<Result<_>>()?,
                    Some(j) => {
                        return Err(want("a list of [key, value] pairs", j).in_key("entries"))
                    }
                    None => Vec::new(),
                };
                Value::Dictionary(Dictionary::typed(entries, key_type, value_type))
            }
            Kind::Array => {
                let element_type = self
                    .container_type(m.get("element_type"))
                    .map_err(|e| e.in_key("element_type"))?;
                let items = match m.get("value") {
                    Some(Json::Array(a)) => self.items(a, depth).map_err(|e| e.in_key("value"))?,
                    Some(j) => return Err(want("an array", j).in_key("value")),
                    None => Vec::new(),
                };
                Value::Array(Array::typed(items, element_type))
            }
            Kind::PackedByteArray => {
                Value::PackedByteArray(match (m.get("base64"), m.get("value")) {
                    (Some(b), _) => base64::decode(get_str(b)?).map_err(|e| e.in_key("base64"))?,
                    (None, Some(Json::String(s))) => {
                        base64::decode(s).map_err(|e| e.in_key("value"))?
                    }
                    (None, Some(_)) => list(m, |j| {
                        j.as_u64()
                            .and_then(|b| u8::try_from(b).ok())
                            .ok_or_else(|| want("a byte (0 to 255)", j))
                    })?,
                    (None, None) => {
                        return Err(Error::msg("PackedByteArray needs \"base64\" or \"value\""))
                    }
                })
            }
            Kind::PackedInt32Array => Value::PackedInt32Array(list(m, get_i32)?),
            Kind::PackedInt64Array => Value::PackedInt64Array(list(m, get_i64)?),
            Kind::PackedFloat32Array => Value::PackedFloat32Array(list(m, get_f32)?),
            Kind::PackedFloat64Array => Value::PackedFloat64Array(list(m, get_f64)?),
            Kind::PackedStringArray => {
                Value::PackedStringArray(list(m, |j| get_str(j).map(GString::from))?)
            }
            Kind::PackedVector2Array => Value::PackedVector2Array(reals(m)?),
            Kind::PackedVector3Array => Value::PackedVector3Array(reals(m)?),
            Kind::PackedColorArray => Value::PackedColorArray(list(m, |j| fixed(j, get_f32))?),
            Kind::PackedVector4Array => Value::PackedVector4Array(reals(m)?),
        })
    }
}

fn j_or_null(m: &Map<String, Json>) -> &Json {
    m.get("value").unwrap_or(&Json::Null)
}

fn list_of_strings(j: &Json) -> Result<Vec<String>> {
    get_array(j)?
        .iter()
        .enumerate()
        .map(|(i, s)| get_str(s).map(str::to_owned).map_err(|e| e.in_index(i)))
        .collect()
}

/// Writes `value`'s JSON to `w`, streamed from [`JsonView`] (no JSON tree is built),
/// pretty or on one line: the streaming form of [`to_json`].
pub fn write_json<W: std::io::Write>(
    w: W,
    value: &Value,
    version: Version,
    pretty: bool,
) -> Result<()> {
    gamewire_core::json_out::write(w, &JsonView::new(value, version), pretty)
        .map_err(gamewire_core::json_out::write_error)
}

/// Standard base64 (RFC 4648, with padding), for PackedByteArray in JSON: the one copy
/// in [`gamewire_core::base64`], read leniently.
pub mod base64 {
    use gamewire_core::base64::{self as core, Accept};
    use gamewire_core::Result;

    /// Encodes bytes as base64 text ([`gamewire_core::base64::encode`]).
    pub fn encode(data: &[u8]) -> String {
        core::encode(data)
    }

    /// Decodes base64 text (padding optional, URL-safe characters taken: [`Accept::Lenient`]);
    /// errors name the bad character's index.
    pub fn decode(text: &str) -> Result<Vec<u8>> {
        core::decode_with(text, Accept::Lenient)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_data_is_plain_json() {
        let v = Value::Dictionary(Dictionary::new(vec![
            ("name".into(), "Ann".into()),
            ("hp".into(), Value::Int(7)),
            ("speed".into(), Value::Float(1.0)),
            (
                "tags".into(),
                Value::from(vec![Value::Nil, Value::Bool(true)]),
            ),
        ]));
        let j = to_json(&v, Version::V4);
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"{"name":"Ann","hp":7,"speed":1.0,"tags":[null,true]}"#
        );
        assert_eq!(from_json(&j, Version::V4).unwrap(), v);
    }

    #[test]
    fn other_types_are_tagged() {
        let j = to_json(&Value::Vector2(Real::F32([0.1, 2.0])), Version::V4);
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"{"$type":"Vector2","value":[0.1,2.0]}"#
        );
        let j = to_json(&Value::PackedInt32Array(vec![1]), Version::V3);
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            r#"{"$type":"PoolIntArray","value":[1]}"#
        );
        let d = Value::Dictionary(Dictionary::new(vec![
            (Value::Int(1), Value::Nil),
            ("$type".into(), Value::Nil),
        ]));
        let j = to_json(&d, Version::V4);
        assert_eq!(j[TYPE_KEY], "Dictionary");
        assert_eq!(from_json(&j, Version::V4).unwrap(), d);
        let nan = to_json(&Value::Float(f64::NAN), Version::V4);
        assert!(from_json(&nan, Version::V4)
            .unwrap()
            .as_float()
            .unwrap()
            .is_nan());
    }

    #[test]
    fn f32_shortest_text_reads_back_exactly() {
        let mut x: u32 = 0x1234_5678;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let f = f32::from_bits(x);
            if !f.is_finite() {
                continue;
            }
            let j = float32(f);
            assert_eq!(j.as_f64().unwrap() as f32, f, "{f:?} -> {j}");
        }
    }

    #[test]
    fn nan_payloads_survive_json() {
        // Found by fuzzing: a Quat with a non-canonical NaN component lost its bits.
        let odd32 = f32::from_bits(0xffff_ffce);
        let odd64 = f64::from_bits(0x7ff0_0000_0000_0001);
        let v = Value::from(vec![
            Value::Quaternion(Box::new(Real::F32([odd32, f32::NAN, 1.0, f32::INFINITY]))),
            Value::Float(odd64),
            Value::PackedFloat64Array(vec![odd64, f64::NEG_INFINITY]),
        ]);
        let text = serde_json::to_string(&to_json(&v, Version::V4)).unwrap();
        assert!(
            text.contains("nan:0xffffffce") && text.contains("nan:0x7ff0000000000001"),
            "{text}"
        );
        let back = from_json(&serde_json::from_str(&text).unwrap(), Version::V4).unwrap();
        let opts = crate::EncodeOptions::new(Version::V4);
        assert_eq!(
            crate::encode(&back, &opts).unwrap(),
            crate::encode(&v, &opts).unwrap()
        );
    }

    #[test]
    fn base64_round_trips() {
        for n in 0..20 {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 + 5) as u8).collect();
            assert_eq!(base64::decode(&base64::encode(&data)).unwrap(), data);
        }
        assert_eq!(base64::encode(b"hello"), "aGVsbG8=");
        assert!(base64::decode("a$").is_err());
    }

    #[test]
    fn json_errors_name_the_path() {
        let j: Json =
            serde_json::from_str(r#"{"a": [1, {"$type": "Vector2i", "value": [1, 1e3]}]}"#)
                .unwrap();
        let e = from_json(&j, Version::V4).unwrap_err();
        assert!(e.to_string().contains("$.a[1].value[1]"), "{e}");
    }
}
