//! serde serialization: Rust values straight to Zeze bean bytes, no value tree between.
//!
//! Mapping: a struct (or tuple, or tuple struct) is a bean whose fields get ids in
//! declaration order (1, 2, 3, ...) unless a field is renamed to `"N"` or `"name#N"`,
//! which gives it id `N` (later fields continue from there); ids must increase.
//! Integers and `bool` are wire integers, `f32` float, `f64` double, strings and byte
//! buffers (`serde_bytes`) bytes, sequences lists, maps maps, `Option::None` an absent
//! field. An enum's unit variant is an integer (its index); a newtype, tuple or struct
//! variant is a dynamic bean whose type id is the variant index (or `N` from a
//! `"name#N"` rename). As Zeze's generated code does, fields holding a default value
//! (0, 0.0, false, "", empty list or map, a bean with no fields) are not written.

use crate::value::WireType;
use crate::varint::{write_list_header, write_long, write_map_header, write_tag, write_uint};
use serde::ser::{self, Serialize};
use std::fmt;

/// The error type of the serde layer (wraps [`gamewire_core::Error`]).
#[derive(Debug)]
pub struct SerdeError(pub gamewire_core::Error);

impl fmt::Display for SerdeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SerdeError {}

impl ser::Error for SerdeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerdeError(gamewire_core::Error::msg(msg.to_string()))
    }
}

impl serde::de::Error for SerdeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerdeError(gamewire_core::Error::msg(msg.to_string()))
    }
}

impl From<gamewire_core::Error> for SerdeError {
    fn from(e: gamewire_core::Error) -> Self {
        SerdeError(e)
    }
}

type R<T> = std::result::Result<T, SerdeError>;

fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(SerdeError(gamewire_core::Error::msg(msg)))
}

/// Serializes `value` (a struct, tuple or map at the top) as one bean.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> gamewire_core::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    to_writer(value, &mut out)?;
    Ok(out)
}

/// Appends `value`'s bean bytes to `out`.
pub fn to_writer<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> gamewire_core::Result<()> {
    let w = value.serialize(Ser { out }).map_err(|e| e.0)?;
    if w != Some(WireType::Bean) {
        return Err(gamewire_core::Error::msg(
            "the top value must serialize as a bean (a struct, tuple or unit struct)",
        ));
    }
    Ok(())
}

/// The id a field or variant name asks for: `"N"` or `"name#N"`.
#[inline(always)]
pub(crate) fn explicit_id(name: &str) -> Option<u32> {
    match name.as_bytes().last() {
        Some(b) if b.is_ascii_digit() => digits_id(name),
        _ => None,
    }
}

#[inline(never)]
fn digits_id(name: &str) -> Option<u32> {
    let digits = name.rsplit('#').next()?;
    if digits.len() != name.len() && !name.contains('#') {
        return None;
    }
    digits.parse().ok()
}

/// Serializer writing into a byte vector; `Ok` is the wire type written (`None` when
/// nothing was: `Option::None`, unit).
pub struct Ser<'a> {
    /// Output.
    pub out: &'a mut Vec<u8>,
}

/// Bean under construction: fields and ids.
#[doc(hidden)]
pub struct BeanSer<'a> {
    out: &'a mut Vec<u8>,
    last: u32,
    auto: u32,
    wire: WireType,
    /// For a bean that is a field's value: where its tag starts and its body, so an
    /// empty bean (a default) can be taken back out.
    drop: Option<(usize, usize)>,
}

/// List or map under construction.
#[doc(hidden)]
pub struct SeqSer<'a> {
    out: &'a mut Vec<u8>,
    header: usize,
    count: usize,
    first: bool,
    elem: Option<WireType>,
    key: Option<WireType>,
    is_map: bool,
    /// For an empty list or map that is a field's value: where its tag starts (it is
    /// taken back out at the end, as Zeze leaves empty collections out).
    drop: Option<usize>,
}

impl<'a> BeanSer<'a> {
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, id: u32, value: &T) -> R<()> {
        if id <= self.last {
            return err(format!(
                "field id {id} does not increase after {}",
                self.last
            ));
        }
        let w = value
            .serialize(FieldSer {
                out: self.out,
                delta: id - self.last,
            })
            .map_err(|e| SerdeError(e.0.in_key(id.to_string())))?;
        if w.is_some() {
            self.last = id;
        }
        self.auto = id;
        Ok(())
    }

    #[inline(always)]
    fn next_id(&mut self, name: Option<&str>) -> u32 {
        name.and_then(explicit_id).unwrap_or(self.auto + 1)
    }

    #[inline(always)]
    fn end(self) -> R<Option<WireType>> {
        if let Some((mark, body)) = self.drop {
            if self.out.len() == body {
                self.out.truncate(mark);
                return Ok(None);
            }
        }
        self.out.push(0);
        Ok(Some(self.wire))
    }
}

/// True when the bytes written are the value Zeze's generated encode leaves out.
#[inline]
fn is_default(w: WireType, b: &[u8]) -> bool {
    match w {
        WireType::Integer | WireType::Bytes | WireType::Bean => b == [0],
        WireType::Float => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) == 0.0,
        WireType::Double => {
            b.len() == 8 && f64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8])) == 0.0
        }
        WireType::List => b[0] >> 4 == 0,
        WireType::Map => b.len() >= 2 && b[1] == 0,
        WireType::Dynamic => b == [0, 0],
        _ => b.iter().all(|&x| x == 0),
    }
}

impl SeqSer<'_> {
    #[inline(always)]
    fn item<T: Serialize + ?Sized>(&mut self, v: &T, is_key: bool) -> R<()> {
        let w = v
            .serialize(Ser { out: self.out })
            .map_err(|e| SerdeError(e.0.in_index(self.count)))?
            .ok_or_else(|| {
                SerdeError(gamewire_core::Error::msg(
                    "None or unit cannot be a list or map item",
                ))
            })?;
        let slot = if is_key {
            &mut self.key
        } else {
            &mut self.elem
        };
        match *slot {
            None => {
                *slot = Some(w);
                if self.is_map {
                    if is_key {
                        self.out[self.header] |= (w as u8) << 4;
                    } else {
                        self.out[self.header] |= w as u8;
                    }
                } else {
                    self.out[self.header] |= w as u8;
                }
            }
            Some(t) if t != w => {
                return err(format!(
                    "items of one list or map must share a type: {t} then {w}"
                ))
            }
            _ => {}
        }
        if !is_key {
            self.count += 1;
        }
        let _ = self.first;
        Ok(())
    }
}

/// The other Rust integer widths of a serializer, each written as the `i64` of the same
/// value (`u64` as the `i64` with the same bits: Zeze has no unsigned 64-bit type)
/// through the serializer's own `serialize_i64`.
macro_rules! ints_as_i64 {
    () => {
        ints_as_i64!(serialize_i8 i8, serialize_i16 i16, serialize_i32 i32, serialize_u8 u8,
            serialize_u16 u16, serialize_u32 u32, serialize_u64 u64);
    };
    ($($m:ident $t:ty),*) => {$(
        #[inline(always)]
        fn $m(self, v: $t) -> R<Self::Ok> {
            self.serialize_i64(v as i64)
        }
    )*};
}

impl<'a> ser::Serializer for Ser<'a> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = BeanSer<'a>;
    type SerializeTupleStruct = BeanSer<'a>;
    type SerializeTupleVariant = BeanSer<'a>;
    type SerializeMap = SeqSer<'a>;
    type SerializeStruct = BeanSer<'a>;
    type SerializeStructVariant = BeanSer<'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> R<Self::Ok> {
        self.out.push(v as u8);
        Ok(Some(WireType::Integer))
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> R<Self::Ok> {
        write_long(self.out, v);
        Ok(Some(WireType::Integer))
    }
    ints_as_i64!();
    fn serialize_f32(self, v: f32) -> R<Self::Ok> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(Some(WireType::Float))
    }
    fn serialize_f64(self, v: f64) -> R<Self::Ok> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(Some(WireType::Double))
    }
    fn serialize_char(self, v: char) -> R<Self::Ok> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> R<Self::Ok> {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> R<Self::Ok> {
        let n = u32::try_from(v.len())
            .map_err(|_| SerdeError(gamewire_core::Error::msg("bytes past 4 GiB")))?;
        write_uint(self.out, n);
        self.out.extend_from_slice(v);
        Ok(Some(WireType::Bytes))
    }
    fn serialize_none(self) -> R<Self::Ok> {
        Ok(None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R<Self::Ok> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> R<Self::Ok> {
        Ok(None)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> R<Self::Ok> {
        self.out.push(0);
        Ok(Some(WireType::Bean))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> R<Self::Ok> {
        self.serialize_i64(explicit_id(variant).unwrap_or(index) as i64)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> R<Self::Ok> {
        if let Some(w) = crate::types::marker(name) {
            // A vector: its components are written raw (f32) or as compact ints.
            let mut tmp = Vec::with_capacity(16);
            value.serialize(Ser { out: &mut tmp })?;
            // `tmp` holds a bean of fields 1..n; re-read the components from it.
            let mut c = crate::cursor::Cursor::new(&tmp);
            let n = match w {
                WireType::Vector2 | WireType::Vector2Int => 2,
                WireType::Vector3 | WireType::Vector3Int => 3,
                _ => 4,
            };
            let mut comps = [0f64; 4];
            let mut id = 0;
            loop {
                let t = c.u8()?;
                if t == 0 {
                    break;
                }
                id += crate::decode::read_tag_delta(&mut c, t)?;
                let v = match t & 15 {
                    0 => c.long()? as f64,
                    1 => c.f32()? as f64,
                    _ => return err("vector components must be numbers"),
                };
                if (1..=n).contains(&(id as usize)) {
                    comps[id as usize - 1] = v;
                }
            }
            for x in &comps[..n] {
                if matches!(w, WireType::Vector2Int | WireType::Vector3Int) {
                    write_long(self.out, *x as i64);
                } else {
                    self.out.extend_from_slice(&(*x as f32).to_le_bytes());
                }
            }
            return Ok(Some(w));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> R<Self::Ok> {
        write_long(self.out, explicit_id(variant).unwrap_or(index) as i64);
        match value.serialize(Ser { out: self.out })? {
            Some(WireType::Bean) => Ok(Some(WireType::Dynamic)),
            _ => err(format!(
                "variant {variant} must hold a struct to be a dynamic bean"
            )),
        }
    }
    fn serialize_seq(self, len: Option<usize>) -> R<Self::SerializeSeq> {
        let n = len.ok_or_else(|| {
            SerdeError(gamewire_core::Error::msg("sequences need a known length"))
        })?;
        let header = self.out.len();
        write_list_header(self.out, n as u32, 0);
        Ok(SeqSer {
            out: self.out,
            header,
            count: 0,
            first: true,
            elem: None,
            key: None,
            is_map: false,
            drop: None,
        })
    }
    fn serialize_tuple(self, _len: usize) -> R<Self::SerializeTuple> {
        Ok(BeanSer {
            out: self.out,
            last: 0,
            auto: 0,
            wire: WireType::Bean,
            drop: None,
        })
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> R<Self::SerializeTupleStruct> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        _len: usize,
    ) -> R<Self::SerializeTupleVariant> {
        write_long(self.out, explicit_id(variant).unwrap_or(index) as i64);
        Ok(BeanSer {
            out: self.out,
            last: 0,
            auto: 0,
            wire: WireType::Dynamic,
            drop: None,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> R<Self::SerializeMap> {
        let n =
            len.ok_or_else(|| SerdeError(gamewire_core::Error::msg("maps need a known length")))?;
        let header = self.out.len();
        write_map_header(self.out, n as u32, 0, 0);
        Ok(SeqSer {
            out: self.out,
            header,
            count: 0,
            first: true,
            elem: None,
            key: None,
            is_map: true,
            drop: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> R<Self::SerializeStruct> {
        self.serialize_tuple(len)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> R<Self::SerializeStructVariant> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

/// Serializer of one bean field's value: writes the tag (id delta and wire type) then
/// the value, or nothing at all when the value is one Zeze's generated encode leaves out
/// (0, 0.0, false, "", an empty list or map, a bean with no fields, `None`). Scalars,
/// strings, lists and maps are tested before anything is written; beans are taken back
/// out at their end when empty; vectors and enum newtype variants (rare) are written and
/// then checked.
struct FieldSer<'a> {
    out: &'a mut Vec<u8>,
    delta: u32,
}

impl<'a> FieldSer<'a> {
    #[inline(always)]
    fn tag(&mut self, w: WireType) {
        write_tag(self.out, self.delta, w as u8);
    }

    /// The general path: tag, value, then the value taken back out if it is a default.
    #[inline(never)]
    fn checked(self, f: impl FnOnce(Ser<'_>) -> R<Option<WireType>>) -> R<Option<WireType>> {
        let mark = self.out.len();
        write_tag(self.out, self.delta, 0);
        let body = self.out.len();
        match f(Ser { out: self.out })? {
            Some(w) if !is_default(w, &self.out[body..]) => {
                self.out[mark] |= w as u8;
                Ok(Some(w))
            }
            _ => {
                self.out.truncate(mark);
                Ok(None)
            }
        }
    }

    #[inline]
    fn bean(mut self, wire: WireType, type_id: Option<i64>) -> BeanSer<'a> {
        let mark = self.out.len();
        self.tag(wire);
        if let Some(t) = type_id {
            write_long(self.out, t);
        }
        let body = self.out.len();
        BeanSer {
            out: self.out,
            last: 0,
            auto: 0,
            wire,
            // A dynamic bean is a default only with type id 0 and no fields.
            drop: (type_id.unwrap_or(0) == 0).then_some((mark, body)),
        }
    }
}

impl<'a> ser::Serializer for FieldSer<'a> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = BeanSer<'a>;
    type SerializeTupleStruct = BeanSer<'a>;
    type SerializeTupleVariant = BeanSer<'a>;
    type SerializeMap = SeqSer<'a>;
    type SerializeStruct = BeanSer<'a>;
    type SerializeStructVariant = BeanSer<'a>;

    #[inline(always)]
    fn serialize_bool(mut self, v: bool) -> R<Self::Ok> {
        if !v {
            return Ok(None);
        }
        self.tag(WireType::Integer);
        self.out.push(1);
        Ok(Some(WireType::Integer))
    }
    #[inline(always)]
    fn serialize_i64(mut self, v: i64) -> R<Self::Ok> {
        if v == 0 {
            return Ok(None);
        }
        self.tag(WireType::Integer);
        write_long(self.out, v);
        Ok(Some(WireType::Integer))
    }
    ints_as_i64!();
    fn serialize_f32(mut self, v: f32) -> R<Self::Ok> {
        if v == 0.0 {
            return Ok(None);
        }
        self.tag(WireType::Float);
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(Some(WireType::Float))
    }
    fn serialize_f64(mut self, v: f64) -> R<Self::Ok> {
        if v == 0.0 {
            return Ok(None);
        }
        self.tag(WireType::Double);
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(Some(WireType::Double))
    }
    fn serialize_char(self, v: char) -> R<Self::Ok> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline(always)]
    fn serialize_str(self, v: &str) -> R<Self::Ok> {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline(always)]
    fn serialize_bytes(mut self, v: &[u8]) -> R<Self::Ok> {
        if v.is_empty() {
            return Ok(None);
        }
        let n = u32::try_from(v.len())
            .map_err(|_| SerdeError(gamewire_core::Error::msg("bytes past 4 GiB")))?;
        self.tag(WireType::Bytes);
        write_uint(self.out, n);
        self.out.extend_from_slice(v);
        Ok(Some(WireType::Bytes))
    }
    fn serialize_none(self) -> R<Self::Ok> {
        Ok(None)
    }
    #[inline(always)]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R<Self::Ok> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> R<Self::Ok> {
        Ok(None)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> R<Self::Ok> {
        // An empty bean: a default.
        Ok(None)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> R<Self::Ok> {
        self.serialize_i64(explicit_id(variant).unwrap_or(index) as i64)
    }
    #[inline(always)]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> R<Self::Ok> {
        if crate::types::marker(name).is_some() {
            return self.checked(|s| s.serialize_newtype_struct(name, value));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> R<Self::Ok> {
        self.checked(|s| s.serialize_newtype_variant(name, index, variant, value))
    }
    #[inline(always)]
    fn serialize_seq(mut self, len: Option<usize>) -> R<Self::SerializeSeq> {
        let n = len.ok_or_else(|| {
            SerdeError(gamewire_core::Error::msg("sequences need a known length"))
        })?;
        let mark = self.out.len();
        self.tag(WireType::List);
        let header = self.out.len();
        write_list_header(self.out, n as u32, 0);
        Ok(SeqSer {
            out: self.out,
            header,
            count: 0,
            first: true,
            elem: None,
            key: None,
            is_map: false,
            drop: (n == 0).then_some(mark),
        })
    }
    fn serialize_tuple(self, _len: usize) -> R<Self::SerializeTuple> {
        Ok(self.bean(WireType::Bean, None))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> R<Self::SerializeTupleStruct> {
        Ok(self.bean(WireType::Bean, None))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        _len: usize,
    ) -> R<Self::SerializeTupleVariant> {
        let id = explicit_id(variant).unwrap_or(index) as i64;
        Ok(self.bean(WireType::Dynamic, Some(id)))
    }
    fn serialize_map(mut self, len: Option<usize>) -> R<Self::SerializeMap> {
        let n =
            len.ok_or_else(|| SerdeError(gamewire_core::Error::msg("maps need a known length")))?;
        let mark = self.out.len();
        self.tag(WireType::Map);
        let header = self.out.len();
        write_map_header(self.out, n as u32, 0, 0);
        Ok(SeqSer {
            out: self.out,
            header,
            count: 0,
            first: true,
            elem: None,
            key: None,
            is_map: true,
            drop: (n == 0).then_some(mark),
        })
    }
    #[inline(always)]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> R<Self::SerializeStruct> {
        Ok(self.bean(WireType::Bean, None))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        _len: usize,
    ) -> R<Self::SerializeStructVariant> {
        let id = explicit_id(variant).unwrap_or(index) as i64;
        Ok(self.bean(WireType::Dynamic, Some(id)))
    }
}

impl ser::SerializeSeq for SeqSer<'_> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R<()> {
        self.item(v, false)
    }
    fn end(self) -> R<Self::Ok> {
        if let Some(mark) = self.drop {
            self.out.truncate(mark);
            return Ok(None);
        }
        Ok(Some(WireType::List))
    }
}

impl ser::SerializeMap for SeqSer<'_> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> R<()> {
        self.item(k, true)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> R<()> {
        self.item(v, false)
    }
    fn end(self) -> R<Self::Ok> {
        if let Some(mark) = self.drop {
            self.out.truncate(mark);
            return Ok(None);
        }
        Ok(Some(WireType::Map))
    }
}

macro_rules! bean_impls {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for BeanSer<'_> {
            type Ok = Option<WireType>;
            type Error = SerdeError;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> R<()> {
                let id = self.next_id(None);
                self.field(id, v)
            }
            fn end(self) -> R<Self::Ok> {
                BeanSer::end(self)
            }
        }
    )*};
}
bean_impls!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeStruct for BeanSer<'_> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R<()> {
        let id = self.next_id(Some(key));
        self.field(id, v)
    }
    #[inline(always)]
    fn end(self) -> R<Self::Ok> {
        BeanSer::end(self)
    }
}

impl ser::SerializeStructVariant for BeanSer<'_> {
    type Ok = Option<WireType>;
    type Error = SerdeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> R<()> {
        let id = self.next_id(Some(key));
        self.field(id, v)
    }
    fn end(self) -> R<Self::Ok> {
        BeanSer::end(self)
    }
}
