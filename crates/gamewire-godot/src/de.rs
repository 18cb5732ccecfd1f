//! serde: Variant bytes straight into Rust values, with no value tree in between.
//!
//! The mirror of [`crate::to_bytes`]: Dictionaries fill structs and maps, Arrays and
//! packed arrays fill sequences, strings are borrowed from the input where the target
//! type allows. Math types read as sequences of their components, NodePath as its text.

use crate::header::*;
use crate::{Kind, Version};
use gamewire_core::{Error, ErrorKind, Reader, Result};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::Deserialize;

/// Decodes Variant bytes into `T`. The value must fill `data` exactly.
///
/// ```
/// #[derive(serde::Deserialize, PartialEq, Debug)]
/// struct Player { name: String, hp: i32 }
/// use gamewire_godot::*;
/// let v = Value::Dictionary(Dictionary::new(vec![("name".into(), "A".into()), ("hp".into(), Value::Int(3))]));
/// let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
/// assert_eq!(from_bytes::<Player>(&bytes, Version::V4).unwrap(), Player { name: "A".into(), hp: 3 });
/// ```
pub fn from_bytes<'de, T: Deserialize<'de>>(data: &'de [u8], version: Version) -> Result<T> {
    let mut de = De {
        r: Reader::new(data),
        version,
        depth: 0,
    };
    let v = T::deserialize(&mut de)?;
    if !de.r.is_empty() {
        return Err(de.r.error(ErrorKind::TrailingBytes {
            count: de.r.remaining(),
        }));
    }
    Ok(v)
}

struct De<'de> {
    r: Reader<'de>,
    version: Version,
    depth: usize,
}

const MAX_DEPTH: usize = 1024;

impl<'de> De<'de> {
    fn header(&mut self) -> Result<(Kind, u32, usize)> {
        let at = self.r.pos();
        let header = self.r.read_u32()?;
        let kind = Kind::from_id(header & TYPE_MASK, self.version).ok_or_else(|| {
            self.r.error_at(
                at,
                ErrorKind::Unexpected {
                    expected: format!("a Godot {} type id", self.version.major()),
                    found: format!("type id {}", header & TYPE_MASK),
                },
            )
        })?;
        Ok((kind, header, at))
    }

    fn peek_kind(&self) -> Option<Kind> {
        let b = self.r.rest();
        if b.len() < 4 {
            return None;
        }
        Kind::from_id(
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & TYPE_MASK,
            self.version,
        )
    }

    fn count(&mut self) -> Result<usize> {
        let at = self.r.pos();
        let c = self.r.read_u32()?;
        if c > i32::MAX as u32 {
            return Err(self
                .r
                .error_at(at, ErrorKind::Message(format!("count {c} is 2^31 or more"))));
        }
        Ok(c as usize)
    }

    fn str(&mut self) -> Result<&'de str> {
        let len = self.count()?;
        let padded = (len + 3) & !3;
        self.r.check_len(padded as u64, 1, "string length")?;
        let s = self.r.read_str(len)?;
        self.r.skip(padded - len)?;
        Ok(s)
    }

    fn skip_container_types(&mut self, header: u32, kind: Kind) -> Result<()> {
        if self.version == Version::V3 {
            return Ok(());
        }
        let kinds: &[u32] = match kind {
            Kind::Array => &[(header & ARRAY_TYPE_MASK) >> ARRAY_TYPE_SHIFT],
            _ => &[
                (header & DICT_KEY_MASK) >> DICT_KEY_SHIFT,
                (header & DICT_VALUE_MASK) >> DICT_VALUE_SHIFT,
            ],
        };
        for &k in kinds {
            match k {
                CONTAINER_NONE => {}
                CONTAINER_BUILTIN => {
                    self.r.read_u32()?;
                }
                _ => {
                    self.str()?;
                }
            }
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.r.error(ErrorKind::DepthLimit { limit: MAX_DEPTH }));
        }
        Ok(())
    }

    fn reals<V: Visitor<'de>>(&mut self, header: u32, n: usize, visitor: V) -> Result<V::Value> {
        if header & FLAG_64 != 0 && self.version == Version::V4 {
            let b = self.r.read_bytes(n * 8)?;
            visitor.visit_seq(de::value::SeqDeserializer::new(
                b.chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))),
            ))
        } else {
            let b = self.r.read_bytes(n * 4)?;
            visitor.visit_seq(de::value::SeqDeserializer::new(
                b.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ))
        }
    }

    fn ints<V: Visitor<'de>>(&mut self, n: usize, visitor: V) -> Result<V::Value> {
        let b = self.r.read_bytes(n * 4)?;
        visitor.visit_seq(de::value::SeqDeserializer::new(
            b.chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        ))
    }

    fn packed_reals<V: Visitor<'de>>(
        &mut self,
        header: u32,
        n: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let count = self.count()?;
        let wide = header & FLAG_64 != 0 && self.version == Version::V4;
        let size = if wide { 8 } else { 4 } * n;
        let len = self.r.check_len(count as u64, size, "packed array count")?;
        let b = self.r.read_bytes(len)?;
        visitor.visit_seq(PackedVectors { b, n, wide })
    }

    fn any<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let (kind, header, at) = self.header()?;
        let wide = header & FLAG_64 != 0;
        match kind {
            Kind::Nil => visitor.visit_unit(),
            Kind::Bool => visitor.visit_bool(self.r.read_u32()? != 0),
            Kind::Int if wide => visitor.visit_i64(self.r.read_i64()?),
            Kind::Int => visitor.visit_i64(self.r.read_i32()? as i64),
            Kind::Float if wide => visitor.visit_f64(self.r.read_f64()?),
            Kind::Float => visitor.visit_f64(self.r.read_f32()? as f64),
            Kind::String | Kind::StringName => visitor.visit_borrowed_str(self.str()?),
            Kind::Vector2 => self.reals(header, 2, visitor),
            Kind::Vector3 => self.reals(header, 3, visitor),
            Kind::Rect2 | Kind::Vector4 | Kind::Plane | Kind::Quaternion => {
                self.reals(header, 4, visitor)
            }
            Kind::Transform2D | Kind::Aabb => self.reals(header, 6, visitor),
            Kind::Basis => self.reals(header, 9, visitor),
            Kind::Transform3D => self.reals(header, 12, visitor),
            Kind::Projection => self.reals(header, 16, visitor),
            Kind::Color => self.reals(0, 4, visitor),
            Kind::Vector2i => self.ints(2, visitor),
            Kind::Vector3i => self.ints(3, visitor),
            Kind::Rect2i | Kind::Vector4i => self.ints(4, visitor),
            Kind::Rid if self.version == Version::V3 => visitor.visit_u64(0),
            Kind::Rid => visitor.visit_u64(self.r.read_u64()?),
            Kind::Callable => visitor.visit_unit(),
            Kind::NodePath => {
                let first = self.r.read_u32()?;
                if first & 0x8000_0000 == 0 {
                    return Err(self.r.error_at(
                        at,
                        ErrorKind::Message("NodePath in the obsolete format".into()),
                    ));
                }
                let names = (first & 0x7FFF_FFFF) as usize;
                let mut subs = self.r.read_u32()? as usize;
                let flags = self.r.read_u32()?;
                if flags & 2 != 0 {
                    subs += 1;
                }
                self.r
                    .check_len((names + subs) as u64, 4, "NodePath name count")?;
                let mut text = String::new();
                if flags & 1 != 0 {
                    text.push('/');
                }
                for i in 0..names {
                    if i > 0 {
                        text.push('/');
                    }
                    text.push_str(self.str()?);
                }
                for _ in 0..subs {
                    text.push(':');
                    text.push_str(self.str()?);
                }
                visitor.visit_string(text)
            }
            Kind::Object | Kind::Signal => Err(self.r.error_at(
                at,
                ErrorKind::Message(format!(
                    "a {kind}, which has no serde mapping (decode it as a Value instead)"
                )),
            )),
            Kind::Array => {
                self.skip_container_types(header, kind)?;
                let count = self.r.read_u32()? as usize & 0x7FFF_FFFF;
                self.r.check_len(count as u64, 4, "array count")?;
                self.enter()?;
                let v = visitor.visit_seq(Elements {
                    de: self,
                    left: count,
                    index: 0,
                })?;
                self.depth -= 1;
                Ok(v)
            }
            Kind::Dictionary => {
                self.skip_container_types(header, kind)?;
                let count = self.r.read_u32()? as usize & 0x7FFF_FFFF;
                self.r
                    .check_len(count as u64, 8, "dictionary entry count")?;
                self.enter()?;
                let v = visitor.visit_map(Entries {
                    de: self,
                    left: count,
                    key: None,
                })?;
                self.depth -= 1;
                Ok(v)
            }
            Kind::PackedByteArray => {
                let count = self.count()?;
                let b = self.r.read_bytes(count)?;
                let pad = (4 - count % 4) % 4;
                self.r.skip(pad.min(self.r.remaining()))?;
                visitor.visit_borrowed_bytes(b)
            }
            Kind::PackedInt32Array => {
                let count = self.count()?;
                let len = self.r.check_len(count as u64, 4, "packed array count")?;
                let b = self.r.read_bytes(len)?;
                visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(4)
                        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                ))
            }
            Kind::PackedInt64Array => {
                let count = self.count()?;
                let len = self.r.check_len(count as u64, 8, "packed array count")?;
                let b = self.r.read_bytes(len)?;
                visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(8)
                        .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))),
                ))
            }
            Kind::PackedFloat32Array => {
                let count = self.count()?;
                let len = self.r.check_len(count as u64, 4, "packed array count")?;
                let b = self.r.read_bytes(len)?;
                visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                ))
            }
            Kind::PackedFloat64Array => {
                let count = self.count()?;
                let len = self.r.check_len(count as u64, 8, "packed array count")?;
                let b = self.r.read_bytes(len)?;
                visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(8)
                        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))),
                ))
            }
            Kind::PackedStringArray => {
                let count = self.count()?;
                self.r
                    .check_len(count as u64, 4, "packed string array count")?;
                let mut strings = Vec::with_capacity(count);
                for _ in 0..count {
                    let len = self.count()?;
                    let padded = (len + 3) & !3;
                    self.r.check_len(padded as u64, 1, "string length")?;
                    let text = if len > 0 && self.r.rest()[len - 1] == 0 {
                        len - 1
                    } else {
                        len
                    };
                    strings.push(self.r.read_str(text)?);
                    self.r.skip(padded - text)?;
                }
                visitor.visit_seq(de::value::SeqDeserializer::new(strings.into_iter()))
            }
            Kind::PackedVector2Array => self.packed_reals(header, 2, visitor),
            Kind::PackedVector3Array => self.packed_reals(header, 3, visitor),
            Kind::PackedVector4Array => self.packed_reals(header, 4, visitor),
            Kind::PackedColorArray => self.packed_reals(0, 4, visitor),
        }
        .map_err(|e: Error| e.or_offset(at))
    }
}

impl<'de> de::Deserializer<'de> for &mut De<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek_kind() == Some(Kind::Nil) {
            self.r.read_u32()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (kind, header, at) = self.header()?;
        match kind {
            Kind::String | Kind::StringName => visitor.visit_enum(self.str()?.into_deserializer()),
            Kind::Dictionary => {
                self.skip_container_types(header, kind)?;
                let count = self.r.read_u32()? & 0x7FFF_FFFF;
                if count != 1 {
                    return Err(self.r.error_at(
                        at,
                        ErrorKind::Unexpected {
                            expected: "an enum as a String or a one-entry Dictionary".into(),
                            found: format!("a Dictionary of {count} entries"),
                        },
                    ));
                }
                self.enter()?;
                let v = visitor.visit_enum(Enum { de: self })?;
                self.depth -= 1;
                Ok(v)
            }
            other => Err(self.r.error_at(
                at,
                ErrorKind::Unexpected {
                    expected: "an enum as a String or a one-entry Dictionary".into(),
                    found: other.to_string(),
                },
            )),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.any(de::IgnoredAny)?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

struct Elements<'a, 'de> {
    de: &'a mut De<'de>,
    left: usize,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let i = self.index;
        self.index += 1;
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| e.in_index(i))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

struct Entries<'a, 'de> {
    de: &'a mut De<'de>,
    left: usize,
    key: Option<&'de str>,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // Remember a String key for error paths.
        self.key = match self.de.peek_kind() {
            Some(Kind::String) => {
                let mut probe = De {
                    r: self.de.r.clone(),
                    version: self.de.version,
                    depth: 0,
                };
                probe.r.read_u32().ok();
                probe.str().ok()
            }
            _ => None,
        };
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let key = self.key;
        seed.deserialize(&mut *self.de).map_err(|e| match key {
            Some(k) => e.in_key(k),
            None => e,
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

struct Enum<'a, 'de> {
    de: &'a mut De<'de>,
}

impl<'de> de::EnumAccess<'de> for Enum<'_, 'de> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(&mut *self.de)?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'_, 'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
}

/// A packed array of vectors, read as a sequence of component sequences.
struct PackedVectors<'de> {
    b: &'de [u8],
    n: usize,
    wide: bool,
}

impl<'de> de::SeqAccess<'de> for PackedVectors<'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let size = self.n * if self.wide { 8 } else { 4 };
        if self.b.len() < size {
            return Ok(None);
        }
        let (item, rest) = self.b.split_at(size);
        self.b = rest;
        let seq: Vec<f64> = if self.wide {
            item.chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        } else {
            item.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                .collect()
        };
        seed.deserialize(de::value::SeqDeserializer::new(seq.into_iter()))
            .map(Some)
    }
}
