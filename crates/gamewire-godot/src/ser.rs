//! serde: Rust values straight to Variant bytes, with no value tree in between.
//!
//! Structs and maps become Dictionaries (struct fields as String keys), sequences and
//! tuples Arrays, integers `int`, floats `float`, `Option::None` and `()` null, byte
//! buffers (`serde_bytes`) PackedByteArray. Enums: a unit variant is its name as a String;
//! other variants are a one-entry Dictionary `{name: content}`.

use crate::encode::{float_needs_64, int_needs_64};
use crate::{Kind, Version};
use gamewire_core::{Error, Result};
use serde::ser::{self, Serialize};

/// Encodes `value` as the Variant bytes `var_to_bytes` would give for the equivalent
/// Dictionary/Array/scalar value.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Player { name: String, hp: i32 }
/// let bytes = gamewire_godot::to_bytes(&Player { name: "A".into(), hp: 3 }, gamewire_godot::Version::V4).unwrap();
/// let v = gamewire_godot::decode(&bytes, &gamewire_godot::DecodeOptions::new(gamewire_godot::Version::V4)).unwrap();
/// let gamewire_godot::Value::Dictionary(d) = v else { panic!() };
/// assert_eq!(d.get("hp"), Some(&gamewire_godot::Value::Int(3)));
/// ```
pub fn to_bytes<T: Serialize + ?Sized>(value: &T, version: Version) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    to_writer(value, version, &mut out)?;
    Ok(out)
}

/// Appends the Variant bytes of `value` to `out`.
pub fn to_writer<T: Serialize + ?Sized>(
    value: &T,
    version: Version,
    out: &mut Vec<u8>,
) -> Result<()> {
    value.serialize(&mut Ser {
        out,
        version,
        depth: 0,
    })
}

struct Ser<'a> {
    out: &'a mut Vec<u8>,
    version: Version,
    depth: usize,
}

const MAX_DEPTH: usize = 1024;

impl Ser<'_> {
    #[inline]
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    #[inline]
    fn header(&mut self, kind: Kind, flags: u32) {
        // Every kind used here exists in both versions.
        let id = kind.id(self.version).unwrap_or(kind as u32);
        self.u32(id | flags);
    }

    #[inline]
    fn str_payload(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.out.extend_from_slice(s.as_bytes());
        let pad = (4 - s.len() % 4) % 4;
        self.out.extend_from_slice(&[0; 3][..pad]);
    }

    /// Starts a container: writes the header and a count placeholder to patch at the end.
    fn open(&mut self, kind: Kind) -> Result<Compound<'_, Self>> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::new(gamewire_core::ErrorKind::DepthLimit {
                limit: MAX_DEPTH,
            }));
        }
        self.header(kind, 0);
        let at = self.out.len();
        self.u32(0);
        self.depth += 1;
        Ok(Compound {
            ser: self,
            count_at: at,
            count: 0,
        })
    }

    /// `{variant: ...}`: a one-entry Dictionary whose value follows.
    fn variant_wrapper(&mut self, variant: &str) {
        self.header(Kind::Dictionary, 0);
        self.u32(1);
        self.header(Kind::String, 0);
        self.str_payload(variant);
    }
}

/// A Dictionary or Array being written; its count is patched in at the end.
struct Compound<'s, S> {
    ser: &'s mut S,
    count_at: usize,
    count: u32,
}

impl Compound<'_, Ser<'_>> {
    fn finish(self) -> Result<()> {
        self.ser.out[self.count_at..self.count_at + 4].copy_from_slice(&self.count.to_le_bytes());
        self.ser.depth -= 1;
        Ok(())
    }
}

impl<'a, 'b> ser::Serializer for &'a mut Ser<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, Ser<'b>>;
    type SerializeTuple = Compound<'a, Ser<'b>>;
    type SerializeTupleStruct = Compound<'a, Ser<'b>>;
    type SerializeTupleVariant = Compound<'a, Ser<'b>>;
    type SerializeMap = Compound<'a, Ser<'b>>;
    type SerializeStruct = Compound<'a, Ser<'b>>;
    type SerializeStructVariant = Compound<'a, Ser<'b>>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.header(Kind::Bool, 0);
        self.u32(v as u32);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        if int_needs_64(v) {
            self.header(Kind::Int, crate::header::FLAG_64);
            self.out.extend_from_slice(&v.to_le_bytes());
        } else {
            self.header(Kind::Int, 0);
            self.out.extend_from_slice(&(v as i32).to_le_bytes());
        }
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| Error::msg(format!("{v} does not fit Godot's 64-bit int")))?;
        self.serialize_i64(v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| Error::msg(format!("{v} does not fit Godot's signed 64-bit int")))?;
        self.serialize_i64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        let v = i64::try_from(v)
            .map_err(|_| Error::msg(format!("{v} does not fit Godot's 64-bit int")))?;
        self.serialize_i64(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.serialize_f64(v as f64)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        if float_needs_64(v) {
            self.header(Kind::Float, crate::header::FLAG_64);
            self.out.extend_from_slice(&v.to_le_bytes());
        } else {
            self.header(Kind::Float, 0);
            self.out.extend_from_slice(&(v as f32).to_le_bytes());
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.header(Kind::String, 0);
        self.str_payload(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.header(Kind::PackedByteArray, 0);
        self.u32(v.len() as u32);
        self.out.extend_from_slice(v);
        let pad = (4 - v.len() % 4) % 4;
        self.out.extend_from_slice(&[0; 3][..pad]);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.header(Kind::Nil, 0);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.variant_wrapper(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        self.open(Kind::Array)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        self.open(Kind::Array)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        self.open(Kind::Array)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        self.variant_wrapper(variant);
        self.open(Kind::Array)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        self.open(Kind::Dictionary)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        self.open(Kind::Dictionary)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        self.variant_wrapper(variant);
        self.open(Kind::Dictionary)
    }
}

macro_rules! seq_like {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_, Ser<'_>> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut *self.ser).map_err(|e| e.in_index(self.count as usize))?;
                self.count += 1;
                Ok(())
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}
seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, Ser<'_>> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(&mut *self.ser)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)?;
        self.count += 1;
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

macro_rules! struct_like {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_, Ser<'_>> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
                self.ser.header(Kind::String, 0);
                self.ser.str_payload(key);
                value.serialize(&mut *self.ser).map_err(|e| e.in_key(key))?;
                self.count += 1;
                Ok(())
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}
struct_like!(SerializeStruct, SerializeStructVariant);
