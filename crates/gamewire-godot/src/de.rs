//! serde: Variant bytes straight into Rust values, with no value tree in between.
//!
//! The mirror of [`crate::to_bytes`]: Dictionaries fill structs and maps, Arrays and
//! packed arrays fill sequences, strings are borrowed from the input where the target
//! type allows. Math types read as sequences of their components, NodePath as its text.

use crate::header::*;
use crate::walk::{Leaf, Walker};
use crate::{DecodeOptions, Kind, Version};
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
        w: Walker::new(Reader::new(data), &DecodeOptions::new(version)),
        depth: 0,
    };
    let v = T::deserialize(&mut de)?;
    if !de.w.r.is_empty() {
        return Err(de.w.r.error(ErrorKind::TrailingBytes {
            count: de.w.r.remaining(),
        }));
    }
    Ok(v)
}

/// serde's reader: the target type pulls, and every part of the grammar is read by the
/// one [`Walker`]'s primitives (headers, counts, strings, container types, leaves).
struct De<'de> {
    w: Walker<'de>,
    depth: usize,
}

impl<'de> De<'de> {
    fn peek_kind(&self) -> Option<Kind> {
        let b = self.w.r.rest().first_chunk::<4>()?;
        Kind::from_id(u32::from_le_bytes(*b) & TYPE_MASK, self.w.opts.version)
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.w.opts.max_depth {
            return Err(self.w.depth_error());
        }
        Ok(())
    }

    fn any<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let (kind, header, at) = self.w.header()?;
        match kind {
            Kind::Nil | Kind::Bool | Kind::Int | Kind::Float => {
                match self.w.scalar(kind, header).expect("a scalar kind")? {
                    Leaf::Bool(b) => visitor.visit_bool(b),
                    Leaf::Int(i) => visitor.visit_i64(i),
                    Leaf::Float(f) => visitor.visit_f64(f),
                    _ => visitor.visit_unit(),
                }
            }
            Kind::String | Kind::StringName => visitor.visit_borrowed_str(self.w.str_slice()?),
            Kind::NodePath => {
                let (names, subs, absolute) = self.w.node_path_head()?;
                let mut text = String::new();
                if absolute {
                    text.push('/');
                }
                for i in 0..names + subs {
                    let (name, _) = self.w.node_path_name(i, names)?;
                    if i >= names {
                        text.push(':');
                    } else if i > 0 {
                        text.push('/');
                    }
                    text.push_str(name);
                }
                visitor.visit_string(text)
            }
            Kind::Object | Kind::Signal => Err(self.w.r.error_at(
                at,
                ErrorKind::Message(format!(
                    "a {kind}, which has no serde mapping (decode it as a Value instead)"
                )),
            )),
            Kind::Array => {
                self.w.array_type(header)?;
                let count = self.w.container_count(4, "array count")?;
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
                self.w.dict_types(header)?;
                let count = self.w.container_count(8, "dictionary entry count")?;
                self.enter()?;
                let v = visitor.visit_map(Entries {
                    de: self,
                    left: count,
                    key_at: 0,
                })?;
                self.depth -= 1;
                Ok(v)
            }
            Kind::PackedStringArray => {
                let (count, _) = self.w.counted(4, "packed string array count")?;
                let mut strings = Vec::with_capacity(count);
                for i in 0..count {
                    strings.push(self.w.packed_string().map_err(|e| e.in_index(i))?);
                }
                visitor.visit_seq(de::value::SeqDeserializer::new(strings.into_iter()))
            }
            _ => match self.w.leaf(kind, header)? {
                Leaf::Nil | Leaf::Callable => visitor.visit_unit(),
                Leaf::Bool(b) => visitor.visit_bool(b),
                Leaf::Int(i) => visitor.visit_i64(i),
                Leaf::Float(f) => visitor.visit_f64(f),
                Leaf::Rid(id) | Leaf::ObjectId(id) => visitor.visit_u64(id),
                Leaf::Signal(..) => unreachable!("refused above"),
                Leaf::Reals(_, true, b) => visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(8)
                        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))),
                )),
                Leaf::Reals(_, false, b) | Leaf::Color(b) => {
                    visitor.visit_seq(de::value::SeqDeserializer::new(
                        b.chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                    ))
                }
                Leaf::Ints(_, b) => visitor.visit_seq(de::value::SeqDeserializer::new(
                    b.chunks_exact(4)
                        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                )),
                Leaf::Bytes(b) => visitor.visit_borrowed_bytes(b),
                Leaf::Packed(kind, wide, b) => match kind {
                    Kind::PackedInt32Array => visitor.visit_seq(de::value::SeqDeserializer::new(
                        b.chunks_exact(4)
                            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                    )),
                    Kind::PackedInt64Array => visitor.visit_seq(de::value::SeqDeserializer::new(
                        b.chunks_exact(8)
                            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes"))),
                    )),
                    Kind::PackedFloat32Array => visitor.visit_seq(de::value::SeqDeserializer::new(
                        b.chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                    )),
                    Kind::PackedFloat64Array => visitor.visit_seq(de::value::SeqDeserializer::new(
                        b.chunks_exact(8)
                            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))),
                    )),
                    Kind::PackedVector2Array => visitor.visit_seq(PackedVectors { b, n: 2, wide }),
                    Kind::PackedVector3Array => visitor.visit_seq(PackedVectors { b, n: 3, wide }),
                    Kind::PackedVector4Array => visitor.visit_seq(PackedVectors { b, n: 4, wide }),
                    _ => visitor.visit_seq(PackedVectors {
                        b,
                        n: 4,
                        wide: false,
                    }),
                },
            },
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
            self.w.r.read_u32()?;
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
        let (kind, header, at) = self.w.header()?;
        match kind {
            Kind::String | Kind::StringName => {
                visitor.visit_enum(self.w.str_slice()?.into_deserializer())
            }
            Kind::Dictionary => {
                self.w.dict_types(header)?;
                let count = self.w.r.read_u32()? & 0x7FFF_FFFF;
                if count != 1 {
                    return Err(self.w.r.error_at(
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
            other => Err(self.w.r.error_at(
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
    /// Where the last key was read: an error in its value is placed under it.
    key_at: usize,
}

impl<'de> De<'de> {
    /// The text of the String key at `at`, for an error path; `None` for other keys.
    /// Read again only when a value fails, so keys are read once on the way.
    #[cold]
    fn key_text(&self, at: usize) -> Option<&'de str> {
        let r = &self.w.r;
        let mut probe = Walker::new(
            Reader::with_base(r.data().get(at..)?, r.base() + at),
            &self.w.opts,
        );
        match probe.header() {
            Ok((Kind::String, _, _)) => probe.str_slice().ok(),
            _ => None,
        }
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.key_at = self.de.w.r.pos();
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let key_at = self.key_at;
        seed.deserialize(&mut *self.de)
            .map_err(|e| match self.de.key_text(key_at) {
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
