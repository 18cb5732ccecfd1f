//! Rust types for Zeze values serde has no word for: `binary` and the vectors.
//!
//! With this crate's serializer they become Zeze's bytes and vector wire types; with any
//! other serde format they are plain byte strings and tuples.

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Zeze `binary`: serialized with `serialize_bytes` (a Zeze bytes value).
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub struct Binary(pub Vec<u8>);

impl Serialize for Binary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Binary {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Binary;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Binary, E> {
                Ok(Binary(v.to_vec()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Binary, E> {
                Ok(Binary(v.as_bytes().to_vec()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Binary, A::Error> {
                let mut v = Vec::new();
                while let Some(b) = a.next_element()? {
                    v.push(b);
                }
                Ok(Binary(v))
            }
        }
        d.deserialize_byte_buf(V)
    }
}

/// The struct field name that holds a derived bean's base: with this crate's serde, the
/// field (declared last) is written as Zeze writes an inheritance level: a `1` byte, then
/// the base bean's own bytes (its variables, its own base past another `1`, and the end
/// `0`). Generated code for a bean with a `base` uses it; other serde formats see a
/// nested struct under this key.
pub const BASE_FIELD: &str = "$zeze::base";

/// The newtype-struct names that tell this crate's serializer to write a vector type.
pub(crate) const MARKERS: [(&str, crate::WireType); 5] = [
    ("$zeze::Vector2", crate::WireType::Vector2),
    ("$zeze::Vector2Int", crate::WireType::Vector2Int),
    ("$zeze::Vector3", crate::WireType::Vector3),
    ("$zeze::Vector3Int", crate::WireType::Vector3Int),
    ("$zeze::Vector4", crate::WireType::Vector4),
];

/// The vector wire type a newtype-struct name asks for.
#[inline]
pub(crate) fn marker(name: &str) -> Option<crate::WireType> {
    if !name.starts_with("$zeze::") {
        return None;
    }
    MARKERS.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
}

struct Comps<'a, T, const N: usize>(&'a [T; N]);

impl<T: Serialize, const N: usize> Serialize for Comps<'_, T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for x in self.0 {
            t.serialize_element(x)?;
        }
        t.end()
    }
}

struct CompsVisitor<T, const N: usize>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de> + Default + Copy, const N: usize> Visitor<'de>
    for CompsVisitor<T, N>
{
    type Value = [T; N];
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{N} numbers")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<[T; N], D::Error> {
        d.deserialize_tuple(N, self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<[T; N], A::Error> {
        let mut out = [T::default(); N];
        for (i, o) in out.iter_mut().enumerate() {
            *o = a
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        Ok(out)
    }
}

macro_rules! vector {
    ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $marker:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct $name(pub [$t; $n]);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_newtype_struct($marker, &Comps(&self.0))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_newtype_struct($marker, CompsVisitor::<$t, $n>(std::marker::PhantomData)).map($name)
            }
        }
    };
}

vector!(
    /// Zeze `vector2`: two f32.
    Vector2, f32, 2, "$zeze::Vector2"
);
vector!(
    /// Zeze `vector2int`: two ints.
    Vector2Int, i32, 2, "$zeze::Vector2Int"
);
vector!(
    /// Zeze `vector3`: three f32.
    Vector3, f32, 3, "$zeze::Vector3"
);
vector!(
    /// Zeze `vector3int`: three ints.
    Vector3Int, i32, 3, "$zeze::Vector3Int"
);
vector!(
    /// Zeze `vector4` or `quaternion`: four f32.
    Vector4, f32, 4, "$zeze::Vector4"
);
