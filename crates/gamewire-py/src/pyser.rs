//! A serde `Serializer` that builds Python values directly from a format's JSON view
//! (the `Serialize` types behind its `to_json`), with no `serde_json::Value` in between:
//! the same mapping, one tree fewer to allocate and free.
//!
//! Maps become dicts, sequences and tuples lists, integers `int`, floats `float`,
//! strings `str`, unit and `None` `None`. In KingsIsle mode ([`PySer::kingsisle`]) a map
//! whose first key is `"$class"` becomes a `gamewire.kingsisle.Object` (`type_name`,
//! `type_hash` as attributes) and a map `{"$bytes": hex}` becomes `bytes`.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use serde::ser::{self, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;

/// FNV-1a: map keys are short, and SipHash's setup costs more than the lookup.
#[derive(Default, Clone, Copy)]
pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Keys<'py> = HashMap<String, Bound<'py, PyString>, std::hash::BuildHasherDefault<Fnv>>;

/// Most distinct map keys kept as shared Python strings during one conversion.
const KEY_CACHE: usize = 4096;

/// An error while serializing (a Python error or a serde custom message).
#[derive(Debug)]
pub struct SerError(pub PyErr);

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerError(crate::errors::DecodeError::new_err(msg.to_string()))
    }
}

impl From<std::convert::Infallible> for SerError {
    fn from(e: std::convert::Infallible) -> Self {
        match e {}
    }
}

impl From<pyo3::DowncastError<'_, '_>> for SerError {
    fn from(e: pyo3::DowncastError<'_, '_>) -> Self {
        SerError(e.into())
    }
}

impl From<PyErr> for SerError {
    fn from(e: PyErr) -> Self {
        SerError(e)
    }
}

type R<'py> = Result<Bound<'py, PyAny>, SerError>;

/// The state of one conversion.
pub struct PySer<'py> {
    py: Python<'py>,
    object_class: Option<Bound<'py, PyAny>>,
    /// `dict.__new__`: makes an instance of `object_class` without running its Python
    /// `__init__` (the attributes are set right after).
    dict_new: Option<Bound<'py, PyAny>>,
    /// A map whose first key is this tag is handed, once filled, to the callable, whose
    /// result takes its place (Godot: `"$type"` and `gamewire.godot._from_json`); the
    /// empty tag: every map.
    tag_hook: Option<(&'static str, Bound<'py, PyAny>)>,
    keys: RefCell<Keys<'py>>,
    /// The deepest nesting of maps and sequences built (see [`PySer::limit`]).
    limit: usize,
    /// Maps and sequences open now.
    depth: Cell<usize>,
    /// A map or sequence was refused past `limit`.
    over: Cell<bool>,
}

impl<'py> PySer<'py> {
    /// Refuses (with an error, and [`PySer::went_over`] true) to build maps and
    /// sequences nested deeper than `limit` levels: a caller that finds them can build
    /// the value again on a thread with a bigger stack.
    pub fn limit(self, limit: usize) -> Self {
        PySer { limit, ..self }
    }

    /// True when the last conversion stopped at the depth limit.
    pub fn went_over(&self) -> bool {
        self.over.get()
    }

    /// [`PySer::convert`], `None` when the value nests past the limit.
    pub fn convert_limited<T: Serialize + ?Sized>(
        &self,
        v: &T,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.convert(v) {
            Err(_) if self.went_over() => Ok(None),
            r => r.map(Some),
        }
    }

    fn enter(&self) -> Result<(), SerError> {
        let d = self.depth.get() + 1;
        if d > self.limit {
            self.over.set(true);
            return Err(<SerError as ser::Error>::custom(
                "nested past the depth limit",
            ));
        }
        self.depth.set(d);
        Ok(())
    }

    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    /// Plain conversion.
    pub fn new(py: Python<'py>) -> Self {
        PySer {
            py,
            object_class: None,
            dict_new: None,
            tag_hook: None,
            keys: RefCell::new(Keys::default()),
            limit: usize::MAX,
            depth: Cell::new(0),
            over: Cell::new(false),
        }
    }

    /// KingsIsle conversion: objects as instances of `object_class`.
    pub fn kingsisle(py: Python<'py>, object_class: Bound<'py, PyAny>) -> PyResult<Self> {
        let dict_new = py.get_type::<PyDict>().getattr(intern!(py, "__new__"))?;
        Ok(PySer {
            object_class: Some(object_class),
            dict_new: Some(dict_new),
            ..PySer::new(py)
        })
    }

    /// Conversion that hands every map (empty ones too) to `hook` (Zeze: every object of
    /// its schema-less JSON becomes a class of `gamewire.zeze`).
    pub fn hooked(py: Python<'py>, hook: Bound<'py, PyAny>) -> Self {
        PySer {
            tag_hook: Some(("", hook)),
            ..PySer::new(py)
        }
    }

    /// Conversion that hands maps whose first key is `tag` to `hook`.
    pub fn tagged(py: Python<'py>, tag: &'static str, hook: Bound<'py, PyAny>) -> Self {
        PySer {
            tag_hook: Some((tag, hook)),
            ..PySer::new(py)
        }
    }

    /// Converts `v`.
    pub fn convert<T: Serialize + ?Sized>(&self, v: &T) -> PyResult<Bound<'py, PyAny>> {
        v.serialize(self).map_err(|e| e.0)
    }

    fn key(&self, k: &str) -> Bound<'py, PyString> {
        if let Some(s) = self.keys.borrow().get(k) {
            return s.clone();
        }
        let s = PyString::new(self.py, k);
        let mut keys = self.keys.borrow_mut();
        if keys.len() < KEY_CACHE {
            keys.insert(k.to_owned(), s.clone());
        }
        s
    }
}

/// A list being filled.
pub struct Seq<'a, 'py> {
    ser: &'a PySer<'py>,
    items: Vec<Bound<'py, PyAny>>,
}

/// A dict (or KingsIsle object) being filled.
pub struct Map<'a, 'py> {
    ser: &'a PySer<'py>,
    dict: Option<Bound<'py, PyDict>>,
    object: Option<Bound<'py, PyAny>>,
    key: Option<Bound<'py, PyAny>>,
    len: usize,
    tagged: bool,
}

impl<'a, 'py> ser::Serializer for &'a PySer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    type SerializeSeq = Seq<'a, 'py>;
    type SerializeTuple = Seq<'a, 'py>;
    type SerializeTupleStruct = Seq<'a, 'py>;
    type SerializeTupleVariant = Seq<'a, 'py>;
    type SerializeMap = Map<'a, 'py>;
    type SerializeStruct = Map<'a, 'py>;
    type SerializeStructVariant = Map<'a, 'py>;

    fn serialize_bool(self, v: bool) -> R<'py> {
        Ok(v.into_pyobject(self.py)?.to_owned().into_any())
    }
    fn serialize_i8(self, v: i8) -> R<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> R<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> R<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> R<'py> {
        Ok(v.into_pyobject(self.py)?.into_any())
    }
    fn serialize_u8(self, v: u8) -> R<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> R<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> R<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> R<'py> {
        Ok(v.into_pyobject(self.py)?.into_any())
    }
    fn serialize_f32(self, v: f32) -> R<'py> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R<'py> {
        Ok(v.into_pyobject(self.py)?.into_any())
    }
    fn serialize_char(self, v: char) -> R<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R<'py> {
        Ok(PyString::new(self.py, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> R<'py> {
        // As serde_json: an array of byte values.
        let items = v
            .iter()
            .map(|b| self.serialize_u64(u64::from(*b)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PyList::new(self.py, items)?.into_any())
    }
    fn serialize_none(self) -> R<'py> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_unit_struct(self, _: &'static str) -> R<'py> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> R<'py> {
        self.enter()?;
        let d = PyDict::new(self.py);
        d.set_item(self.key(variant), v.serialize(self)?)?;
        self.leave();
        Ok(d.into_any())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a, 'py>, SerError> {
        self.enter()?;
        Ok(Seq {
            ser: self,
            items: Vec::with_capacity(len.unwrap_or(0).min(1 << 16)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'py>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'a, 'py>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Map<'a, 'py>, SerError> {
        self.enter()?;
        Ok(Map {
            ser: self,
            dict: None,
            object: None,
            key: None,
            len: 0,
            tagged: false,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Map<'a, 'py>, SerError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        len: usize,
    ) -> Result<Map<'a, 'py>, SerError> {
        self.serialize_map(Some(len))
    }
}

impl<'py> Seq<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.items.push(v.serialize(self.ser)?);
        Ok(())
    }
    fn done(self) -> R<'py> {
        self.ser.leave();
        Ok(PyList::new(self.ser.py, self.items)?.into_any())
    }
}

impl<'py> ser::SerializeSeq for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.push(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeTuple for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.push(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.push(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.push(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

/// Serializes a map key: strings through the shared-key cache (no copy), other scalars
/// as the text serde_json writes for them (`true`, `-7`, `1e20`), so a key reads the same
/// as in the format's JSON output; a float key must be finite, as serde_json requires.
struct KeySer<'a, 'py>(&'a PySer<'py>);

impl<'py> KeySer<'_, 'py> {
    fn text(v: R<'py>) -> R<'py> {
        Ok(v?.str()?.into_any())
    }

    /// A float key: serde_json's shortest text (`ryu`), or an error when not finite.
    fn float<F: Serialize + Copy>(self, v: F, finite: bool) -> R<'py> {
        if !finite {
            return Err(<SerError as ser::Error>::custom("float key must be finite"));
        }
        let text = serde_json::to_string(&v).map_err(<SerError as ser::Error>::custom)?;
        Ok(self.0.key(&text).into_any())
    }
}

fn not_a_key<T>() -> Result<T, SerError> {
    Err(<SerError as ser::Error>::custom(
        "a map key must be a string or a number",
    ))
}

impl<'a, 'py> ser::Serializer for KeySer<'a, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    type SerializeSeq = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeTuple = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeTupleStruct = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeTupleVariant = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeMap = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeStruct = ser::Impossible<Bound<'py, PyAny>, SerError>;
    type SerializeStructVariant = ser::Impossible<Bound<'py, PyAny>, SerError>;

    fn serialize_str(self, v: &str) -> R<'py> {
        Ok(self.0.key(v).into_any())
    }
    fn serialize_bool(self, v: bool) -> R<'py> {
        Ok(self.0.key(if v { "true" } else { "false" }).into_any())
    }
    fn serialize_i8(self, v: i8) -> R<'py> {
        Self::text(self.0.serialize_i8(v))
    }
    fn serialize_i16(self, v: i16) -> R<'py> {
        Self::text(self.0.serialize_i16(v))
    }
    fn serialize_i32(self, v: i32) -> R<'py> {
        Self::text(self.0.serialize_i32(v))
    }
    fn serialize_i64(self, v: i64) -> R<'py> {
        Self::text(self.0.serialize_i64(v))
    }
    fn serialize_u8(self, v: u8) -> R<'py> {
        Self::text(self.0.serialize_u8(v))
    }
    fn serialize_u16(self, v: u16) -> R<'py> {
        Self::text(self.0.serialize_u16(v))
    }
    fn serialize_u32(self, v: u32) -> R<'py> {
        Self::text(self.0.serialize_u32(v))
    }
    fn serialize_u64(self, v: u64) -> R<'py> {
        Self::text(self.0.serialize_u64(v))
    }
    fn serialize_f32(self, v: f32) -> R<'py> {
        self.float(v, v.is_finite())
    }
    fn serialize_f64(self, v: f64) -> R<'py> {
        self.float(v, v.is_finite())
    }
    fn serialize_char(self, v: char) -> R<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_bytes(self, _: &[u8]) -> R<'py> {
        not_a_key()
    }
    fn serialize_none(self) -> R<'py> {
        not_a_key()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R<'py> {
        not_a_key()
    }
    fn serialize_unit_struct(self, _: &'static str) -> R<'py> {
        not_a_key()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R<'py> {
        not_a_key()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        not_a_key()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        not_a_key()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        not_a_key()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        not_a_key()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        not_a_key()
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, SerError> {
        not_a_key()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        not_a_key()
    }
}

impl<'py> Map<'_, 'py> {
    fn put_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), SerError> {
        let key = k.serialize(KeySer(self.ser))?;
        if self.len == 0 && self.dict.is_none() {
            let first = |tag: &str| {
                key.downcast::<PyString>()
                    .is_ok_and(|s| s.to_str().is_ok_and(|s| s == tag))
            };
            let class_key = self.ser.object_class.is_some() && first("$class");
            self.tagged = self
                .ser
                .tag_hook
                .as_ref()
                .is_some_and(|(t, _)| t.is_empty() || first(t));
            if class_key {
                let cls = self.ser.object_class.as_ref().expect("checked");
                let new = self.ser.dict_new.as_ref().expect("set with the class");
                let obj = new.call1((cls,))?;
                self.dict = Some(obj.downcast::<PyDict>()?.clone());
                self.object = Some(obj);
            } else {
                self.dict = Some(PyDict::new(self.ser.py));
            }
        }
        self.key = Some(key);
        Ok(())
    }

    fn put_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| <SerError as ser::Error>::custom("map value without a key"))?;
        let py = self.ser.py;
        let name = key
            .downcast::<PyString>()
            .ok()
            .and_then(|k| k.to_str().ok())
            .filter(|k| k.starts_with('$'));
        // Type names repeat across the tree: share one Python string per name.
        let value = if matches!(name, Some("$class" | "$type")) {
            v.serialize(KeySer(self.ser))?
        } else {
            v.serialize(self.ser)?
        };
        if let (Some(obj), Some(name)) = (&self.object, name) {
            match name {
                "$class" => {
                    obj.setattr(intern!(py, "type_name"), value)?;
                    return Ok(());
                }
                "$hash" => {
                    obj.setattr(intern!(py, "type_hash"), value)?;
                    return Ok(());
                }
                _ => {}
            }
        }
        self.dict
            .as_ref()
            .expect("a key came first")
            .set_item(key, value)?;
        self.len += 1;
        Ok(())
    }

    fn done(self) -> R<'py> {
        let py = self.ser.py;
        self.ser.leave();
        if let Some(obj) = self.object {
            return Ok(obj);
        }
        let Some(d) = self.dict else {
            let d = PyDict::new(py);
            return match &self.ser.tag_hook {
                Some(("", hook)) => Ok(hook.call1((d,))?),
                _ => Ok(d.into_any()),
            };
        };
        if self.tagged {
            if let Some((_, hook)) = &self.ser.tag_hook {
                return Ok(hook.call1((d,))?);
            }
        }
        if self.ser.object_class.is_some() && self.len == 1 {
            if let Some(h) = d.get_item(intern!(py, "$bytes"))? {
                if let Some(b) = h
                    .downcast::<PyString>()
                    .ok()
                    .and_then(|s| gamewire_core::hex::from_hex(s.to_str().ok()?).ok())
                {
                    return Ok(PyBytes::new(py, &b).into_any());
                }
            }
        }
        Ok(d.into_any())
    }
}

impl<'py> ser::SerializeMap for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), SerError> {
        self.put_key(k)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerError> {
        self.put_value(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeStruct for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        k: &'static str,
        v: &T,
    ) -> Result<(), SerError> {
        self.put_key(k)?;
        self.put_value(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        k: &'static str,
        v: &T,
    ) -> Result<(), SerError> {
        self.put_key(k)?;
        self.put_value(v)
    }
    fn end(self) -> R<'py> {
        self.done()
    }
}
