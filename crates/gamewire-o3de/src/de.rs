//! A lenient serde deserializer: plain Rust structs load O3DE-style JSON with the same
//! coercions as the registry loader.
//!
//! - Scalars use O3DE's rules: `"42"`, `"0x2A"`, `true` and `42.9` all load into an
//!   `i32` as 42, 1 and 42; `"TRUE"` and `"1"` into a `bool`; numbers and booleans into
//!   a `String` (`"True"`, `"3.500000"`). Out-of-range values are errors, not clamped.
//! - `{}` loads the zero value of a scalar (O3DE's explicit default).
//! - Struct fields and enum variants match case-insensitively; `$type` and unknown
//!   fields are ignored (serde's `deny_unknown_fields` still applies).
//! - Maps load from objects (string keys go through the key type's coercions) or from
//!   arrays of `{"Key": ..., "Value": ...}`.
//!
//! ```
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Light { intensity: f32, enabled: bool, count: u8 }
//! let j = serde_json::json!({"Intensity": "2.5", "ENABLED": "true", "count": "0x10"});
//! let l: Light = gamewire_o3de::de::from_value(&j).unwrap();
//! assert_eq!(l, Light { intensity: 2.5, enabled: true, count: 16 });
//! ```

use crate::load::{is_explicit_default, Loader};
use crate::registry::Registry;
use crate::report::Processing;
use crate::types::TypeExpr;
use crate::value::Value;
use crate::LoadOptions;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;
use std::fmt;
use std::sync::OnceLock;

/// A deserialization error, with the JSON Pointer where it happened when known.
#[derive(Debug, Clone, PartialEq)]
pub struct DeError(pub String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
    }
}

/// Deserializes `T` from JSON with O3DE's coercions.
pub fn from_value<T: de::DeserializeOwned>(json: &Json) -> Result<T, DeError> {
    T::deserialize(Lenient(json))
}

/// Deserializes `T` from JSON bytes (comments allowed) with O3DE's coercions.
pub fn from_slice<T: de::DeserializeOwned>(bytes: &[u8]) -> Result<T, DeError> {
    let json = crate::comments::parse_json(bytes).map_err(|e| DeError(e.to_string()))?;
    from_value(&json)
}

fn empty_registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(Registry::default)
}

/// Loads a scalar through the registry loader's rules.
fn scalar(ty: TypeExpr, json: &Json) -> Result<Value, DeError> {
    let reg = empty_registry();
    let opts = LoadOptions::default();
    let mut v = reg.zero(&ty);
    let mut loader = Loader::new(reg, &opts);
    let code = loader.load_ro(&ty, json, &mut v, true);
    if code.processing() != Processing::Completed {
        let rep = loader.finish(code);
        let msg = rep
            .issues
            .first()
            .map(|i| i.message.clone())
            .unwrap_or_else(|| format!("cannot load {ty}"));
        return Err(DeError(format!("{msg} (found {json})")));
    }
    Ok(v)
}

/// A JSON value seen through O3DE's coercion rules.
#[derive(Clone, Copy)]
pub struct Lenient<'a>(pub &'a Json);

macro_rules! int_method {
    ($name:ident, $visit:ident, $ty:ident, $rust:ty) => {
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            match scalar(TypeExpr::$ty, self.0)? {
                Value::Int(i) => visitor.$visit(i as $rust),
                Value::UInt(u) => visitor.$visit(u as $rust),
                _ => Err(DeError("internal: integer expected".into())),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for Lenient<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(0.0))
                }
            }
            Json::String(s) => visitor.visit_str(s),
            Json::Array(a) => visitor.visit_seq(Seq(a.iter())),
            Json::Object(m) => visitor.visit_map(Map {
                iter: m.iter(),
                value: None,
                fields: None,
            }),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match scalar(TypeExpr::Bool, self.0)? {
            Value::Bool(b) => visitor.visit_bool(b),
            _ => Err(DeError("internal: bool expected".into())),
        }
    }

    int_method!(deserialize_i8, visit_i8, I8, i8);
    int_method!(deserialize_i16, visit_i16, I16, i16);
    int_method!(deserialize_i32, visit_i32, I32, i32);
    int_method!(deserialize_i64, visit_i64, I64, i64);
    int_method!(deserialize_u8, visit_u8, U8, u8);
    int_method!(deserialize_u16, visit_u16, U16, u16);
    int_method!(deserialize_u32, visit_u32, U32, u32);
    int_method!(deserialize_u64, visit_u64, U64, u64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match scalar(TypeExpr::F32, self.0)? {
            Value::F32(f) => visitor.visit_f32(f),
            _ => Err(DeError("internal: float expected".into())),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match scalar(TypeExpr::F64, self.0)? {
            Value::F64(f) => visitor.visit_f64(f),
            _ => Err(DeError("internal: float expected".into())),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match scalar(TypeExpr::String, self.0)? {
            Value::String(s) => match s.chars().next() {
                Some(c) => visitor.visit_char(c),
                None => Err(DeError("empty string for a char".into())),
            },
            _ => Err(DeError("internal: string expected".into())),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if let Json::String(s) = self.0 {
            return visitor.visit_str(s);
        }
        match scalar(TypeExpr::String, self.0)? {
            Value::String(s) => visitor.visit_string(s),
            _ => Err(DeError("internal: string expected".into())),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Json::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Json::Array(a) => visitor.visit_seq(Seq(a.iter())),
            j if is_explicit_default(j) => visitor.visit_seq(Seq([].iter())),
            other => Err(DeError(format!(
                "Unsupported type. Basic containers can only be read from an array (found {other})"
            ))),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.0 {
            Json::Object(m) => visitor.visit_map(Map {
                iter: m.iter(),
                value: None,
                fields: None,
            }),
            Json::Array(a) => visitor.visit_map(PairMap {
                iter: a.iter(),
                value: None,
            }),
            other => Err(DeError(format!(
                "Unsupported type. Associative containers can only be read from an array or object (found {other})"
            ))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.0 {
            Json::Object(m) => visitor.visit_map(Map {
                iter: m.iter(),
                value: None,
                fields: Some(fields),
            }),
            other => Err(DeError(format!(
                "Reading into targets of type '{name}' is not supported (found {other})"
            ))),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let canon = |s: &str| -> String {
            variants
                .iter()
                .find(|v| v.eq_ignore_ascii_case(s))
                .map(|v| v.to_string())
                .unwrap_or_else(|| s.to_string())
        };
        match self.0 {
            Json::String(s) => visitor.visit_enum(canon(s).into_deserializer()),
            Json::Object(m) if m.len() == 1 => {
                let (k, v) = m.iter().next().ok_or_else(|| DeError("empty object".into()))?;
                visitor.visit_enum(EnumAccess {
                    variant: canon(k),
                    value: v,
                })
            }
            other => Err(DeError(format!(
                "Unsupported type. Enums must be read from a string or a single-member object (found {other})"
            ))),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }
}

struct Seq<'a>(std::slice::Iter<'a, Json>);

impl<'de> SeqAccess<'de> for Seq<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.0.next() {
            Some(j) => seed.deserialize(Lenient(j)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Map<'a> {
    iter: serde_json::map::Iter<'a>,
    value: Option<&'a Json>,
    fields: Option<&'static [&'static str]>,
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        for (k, v) in self.iter.by_ref() {
            if let Some(fields) = self.fields {
                if k == "$type" {
                    continue;
                }
                let name = fields
                    .iter()
                    .find(|f| f.eq_ignore_ascii_case(k))
                    .map(|f| f.to_string())
                    .unwrap_or_else(|| k.clone());
                self.value = Some(v);
                return seed
                    .deserialize(Json::String(name).into_deserializer_lenient())
                    .map(Some);
            }
            self.value = Some(v);
            let key = if k == "{}" {
                Json::Object(serde_json::Map::new())
            } else {
                Json::String(k.clone())
            };
            return seed.deserialize(Lenient(&key)).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.value.take() {
            Some(v) => seed.deserialize(Lenient(v)),
            None => Err(DeError("value without a key".into())),
        }
    }
}

/// Owned JSON as a lenient deserializer (for names made on the fly).
struct OwnedLenient(Json);

trait IntoLenient {
    fn into_deserializer_lenient(self) -> OwnedLenient;
}

impl IntoLenient for Json {
    fn into_deserializer_lenient(self) -> OwnedLenient {
        OwnedLenient(self)
    }
}

impl<'de> de::Deserializer<'de> for OwnedLenient {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        Lenient(&self.0).deserialize_any(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        Lenient(&self.0).deserialize_str(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

struct PairMap<'a> {
    iter: std::slice::Iter<'a, Json>,
    value: Option<&'a Json>,
}

impl<'de> MapAccess<'de> for PairMap<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        static EMPTY: OnceLock<Json> = OnceLock::new();
        let empty = EMPTY.get_or_init(|| Json::Object(serde_json::Map::new()));
        match self.iter.next() {
            None => Ok(None),
            Some(Json::Object(o)) => {
                self.value = Some(o.get("Value").unwrap_or(empty));
                seed.deserialize(Lenient(o.get("Key").unwrap_or(empty))).map(Some)
            }
            Some(other) => Err(DeError(format!(
                "Unsupported type for elements in an associative container: an object with \"Key\" and \"Value\" is expected (found {other})"
            ))),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.value.take() {
            Some(v) => seed.deserialize(Lenient(v)),
            None => Err(DeError("value without a key".into())),
        }
    }
}

struct EnumAccess<'a> {
    variant: String,
    value: &'a Json,
}

impl<'de, 'a> de::EnumAccess<'de> for EnumAccess<'a> {
    type Error = DeError;
    type Variant = VariantAccess<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), DeError> {
        let v = seed.deserialize(Json::String(self.variant).into_deserializer_lenient())?;
        Ok((v, VariantAccess(self.value)))
    }
}

struct VariantAccess<'a>(&'a Json);

impl<'de> de::VariantAccess<'de> for VariantAccess<'_> {
    type Error = DeError;

    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(Lenient(self.0))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_seq(Lenient(self.0), visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_struct(Lenient(self.0), "", fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[derive(Deserialize, Debug, PartialEq)]
    enum Mode {
        Fast,
        Slow,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Thing {
        name: String,
        count: u8,
        ratio: f64,
        on: bool,
        mode: Mode,
        tags: Vec<i32>,
        by_id: BTreeMap<u32, String>,
        #[serde(default)]
        maybe: Option<i16>,
    }

    #[test]
    fn coerces_like_o3de() {
        let j = json!({
            "$type": "Thing", "NAME": 42, "Count": "0x10", "ratio": "2.5e1 m", "on": "TRUE",
            "mode": "slow", "tags": [1, "2", 3.9, true], "by_id": {"7": "seven", "0x8": "eight"},
            "unknown": 1
        });
        let t: Thing = from_value(&j).unwrap();
        assert_eq!(
            t,
            Thing {
                name: "42".into(),
                count: 16,
                ratio: 25.0,
                on: true,
                mode: Mode::Slow,
                tags: vec![1, 2, 3, 1],
                by_id: [(7, "seven".to_string()), (8, "eight".to_string())]
                    .into_iter()
                    .collect(),
                maybe: None,
            }
        );
        let m: BTreeMap<i32, bool> = from_value(&json!([{"Key": "3", "Value": 1}])).unwrap();
        assert_eq!(m.get(&3), Some(&true));
        // Out of range is an error, not clamped.
        let e = from_value::<u8>(&json!(256)).unwrap_err();
        assert!(e.0.contains("could not be fitted"), "{e}");
        assert!(from_value::<i32>(&json!("abc")).is_err());
        assert_eq!(from_value::<i32>(&json!({})).unwrap(), 0);
        assert_eq!(from_value::<String>(&json!(false)).unwrap(), "False");
    }
}
