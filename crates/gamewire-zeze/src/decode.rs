//! Schema-less decoding: bytes to a [`Bean`] tree typed by the wire, as a sink of the one
//! walk ([`crate::walk`]); the validating walk (`skip_bean`, `skip_value`) is the same
//! walk with the sink that keeps nothing.

use crate::cursor::Cursor;
use crate::value::{Bean, Field, Value, WireType};
use crate::walk::{self, Sink, Skip};
use gamewire_core::Result;

pub use crate::walk::grammar::{read_tag_delta, wire_type};

/// Options for decoding untrusted bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Deepest nesting of beans, lists and maps accepted (default 1024).
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: gamewire_core::Limits::DEFAULT.max_depth,
        }
    }
}

/// Decodes one bean that fills the whole of `data`.
pub fn decode(data: &[u8], opts: &Options) -> Result<Bean> {
    walk::whole(data, opts, &mut Tree::new())
}

/// Decodes one bean from the cursor (bytes after it are left unread).
pub fn read_bean(c: &mut Cursor<'_>, opts: &Options, depth: usize) -> Result<Bean> {
    walk::bean(c, opts, depth, &mut Tree::new())
}

/// Reads one value of wire type `ty`.
pub fn read_value(c: &mut Cursor<'_>, ty: WireType, opts: &Options, depth: usize) -> Result<Value> {
    walk::value(c, ty, opts, depth, &mut Tree::new())
}

/// Skips one value of wire type `ty` without building it (Zeze's `SkipUnknownField`):
/// the walk with every check [`read_value`] makes, keeping nothing.
pub fn skip_value(c: &mut Cursor<'_>, ty: WireType, opts: &Options, depth: usize) -> Result<()> {
    walk::value(c, ty, opts, depth, &mut Skip)
}

/// Skips the rest of a bean up to and including its final `0x00` (all levels), with
/// every check [`read_bean`] makes.
pub fn skip_bean(c: &mut Cursor<'_>, opts: &Options, depth: usize) -> Result<()> {
    walk::bean(c, opts, depth, &mut Skip)
}

/// The owned tree as a sink of the walk. Fields are collected on one scratch stack
/// shared by all nested beans and copied off it with `split_off` when a bean or level
/// ends (one exact-size allocation and a memcpy, instead of a growing vector per bean).
pub(crate) struct Tree {
    scratch: Vec<Field>,
}

impl Tree {
    /// A sink whose stack starts with one placeholder so that no bean's fields start at
    /// index 0: `split_off(0)` would hand over the whole stack's buffer (its spare
    /// capacity included) instead of copying the fields to an exact-size one.
    pub(crate) fn new() -> Self {
        let mut scratch = Vec::with_capacity(16);
        scratch.push(Field {
            id: 0,
            value: Value::Integer(0),
        });
        Tree { scratch }
    }
}

/// A bean being built: where its fields start on the stack, and its finished levels
/// (most derived first).
pub(crate) struct Levels {
    start: usize,
    done: Vec<Vec<Field>>,
}

impl<'a> Sink<'a> for Tree {
    type Value = Value;
    type Bean = Levels;
    type BeanOut = Bean;
    type Items = Vec<Value>;
    type Entries = Vec<(Value, Value)>;

    #[inline]
    fn integer(&mut self, c: &mut Cursor<'a>) -> Result<Value> {
        Ok(Value::Integer(c.long()?))
    }
    #[inline]
    fn float(&mut self, v: f32) -> Value {
        Value::Float(v)
    }
    #[inline]
    fn double(&mut self, v: f64) -> Value {
        Value::Double(v)
    }
    #[inline]
    fn bytes(&mut self, b: &'a [u8]) -> Value {
        Value::Bytes(b.to_vec())
    }
    #[inline]
    fn vector2(&mut self, v: [f32; 2]) -> Value {
        Value::Vector2(v)
    }
    #[inline]
    fn vector2_int(&mut self, v: [i64; 2]) -> Value {
        Value::Vector2Int(v)
    }
    #[inline]
    fn vector3(&mut self, v: [f32; 3]) -> Value {
        Value::Vector3(v)
    }
    #[inline]
    fn vector3_int(&mut self, v: [i64; 3]) -> Value {
        Value::Vector3Int(v)
    }
    #[inline]
    fn vector4(&mut self, v: [f32; 4]) -> Value {
        Value::Vector4(v)
    }
    #[inline]
    fn begin_bean(&mut self) -> Levels {
        Levels {
            start: self.scratch.len(),
            done: Vec::new(),
        }
    }
    #[inline]
    fn field(&mut self, _: &mut Levels, id: u32, value: Value) {
        self.scratch.push(Field { id, value });
    }
    #[inline]
    fn level(&mut self, bean: &mut Levels) {
        bean.done.push(self.scratch.split_off(bean.start));
    }
    #[inline]
    fn end_bean(&mut self, mut bean: Levels) -> Bean {
        // `split_off` (at 1 or more) allocates exactly the fields' length and copies them.
        let fields = self.scratch.split_off(bean.start);
        // Levels run from the most derived to the base; chain them.
        let mut out = Bean { fields, base: None };
        while let Some(f) = bean.done.pop() {
            out = Bean {
                fields: f,
                base: Some(Box::new(out)),
            };
        }
        out
    }
    #[inline]
    fn bean(&mut self, bean: Bean) -> Value {
        Value::Bean(bean)
    }
    #[inline]
    fn dynamic(&mut self, type_id: i64, bean: Bean) -> Value {
        Value::Dynamic { type_id, bean }
    }
    #[inline]
    fn begin_list(&mut self, _: WireType, len: usize) -> Vec<Value> {
        Vec::with_capacity(len)
    }
    #[inline]
    fn item(&mut self, items: &mut Vec<Value>, value: Value) {
        items.push(value);
    }
    #[inline]
    fn end_list(&mut self, elem: WireType, items: Vec<Value>) -> Value {
        Value::List { elem, items }
    }
    #[inline]
    fn begin_map(&mut self, _: WireType, _: WireType, len: usize) -> Vec<(Value, Value)> {
        Vec::with_capacity(len)
    }
    #[inline]
    fn entry(&mut self, entries: &mut Vec<(Value, Value)>, key: Value, value: Value) {
        entries.push((key, value));
    }
    #[inline]
    fn end_map(&mut self, key: WireType, value: WireType, entries: Vec<(Value, Value)>) -> Value {
        Value::Map {
            key,
            value,
            entries,
        }
    }
}
