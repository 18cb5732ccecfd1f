//! Bytes to [`Value`]: the engine's `decode_variant`, for both wire versions, as the
//! owned-tree sink of the one [`Walker`](crate::walk::Walker).

use crate::value::*;
use crate::walk::{array_f32, array_f64, array_i32, Elem, Leaf, Sink, Walker, SHORT_STRING};
use crate::{Kind, Version};
use gamewire_core::{Error, ErrorKind, Reader, Result};

/// Options for decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The wire version.
    pub version: Version,
    /// Accept full objects (like `bytes_to_var_with_objects`); otherwise they are an error.
    /// Objects sent as instance ids (`OBJECT_AS_ID`) are always accepted.
    pub allow_objects: bool,
    /// Deepest nesting accepted (the engine uses 1024).
    pub max_depth: usize,
}

impl DecodeOptions {
    /// Defaults for `version`: no full objects, depth 1024.
    pub fn new(version: Version) -> Self {
        DecodeOptions {
            version,
            allow_objects: false,
            max_depth: gamewire_core::Limits::DEFAULT.max_depth,
        }
    }

    /// Sets [`DecodeOptions::allow_objects`].
    pub fn allow_objects(mut self, allow: bool) -> Self {
        self.allow_objects = allow;
        self
    }

    /// Sets [`DecodeOptions::max_depth`].
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }
}

/// Decodes one Variant that fills `data` exactly (trailing bytes are an error).
pub fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let (value, used) = decode_prefix(data, opts)?;
    if used != data.len() {
        return Err(Error::at(
            used,
            ErrorKind::TrailingBytes {
                count: data.len() - used,
            },
        ));
    }
    Ok(value)
}

/// Decodes one Variant from the start of `data`; returns it and the bytes it used
/// (the engine's `bytes_to_var`, which ignores what follows).
pub fn decode_prefix(data: &[u8], opts: &DecodeOptions) -> Result<(Value, usize)> {
    let mut w = Walker::new(Reader::new(data), opts);
    let v = w.value(&mut Tree::for_input(data.len()), 0)?;
    Ok((v, w.r.pos()))
}

/// One value at the start of `data` (bytes already checked, as a tape's), with no
/// string cache: for reading one part of a larger input, where the cache, sized by
/// the input, would cost more than the part.
pub(crate) fn decode_part_at(data: &[u8], base: usize, opts: &DecodeOptions) -> Result<Value> {
    let mut w = Walker::new(Reader::with_base(data, base), opts);
    w.value(&mut Tree::for_input(0), 0)
}

/// Like [`decode_prefix`], with error offsets counted from `base`.
pub(crate) fn decode_prefix_at(
    data: &[u8],
    base: usize,
    opts: &DecodeOptions,
) -> Result<(Value, usize)> {
    let mut w = Walker::new(Reader::with_base(data, base), opts);
    let v = w.value(&mut Tree::for_input(data.len()), 0)?;
    Ok((v, w.r.pos()))
}

/// The owned-tree sink: builds a [`Value`] from what the walker reads.
pub(crate) struct Tree {
    strings: StrCache,
}

impl Tree {
    /// A tree sink for an input of `len` bytes (with a string cache for large ones).
    pub(crate) fn for_input(len: usize) -> Self {
        Tree {
            strings: StrCache::for_input(len),
        }
    }
}

/// Slots in [`StrCache`] (a power of two).
const STR_CACHE_SLOTS: usize = 64;

/// Recently decoded short strings (up to [`SHORT_STRING`] bytes), keyed by their whole
/// wire form (length, text and padding read as one `u128`), so a repeated Dictionary
/// key or tag is copied from here instead of being validated as UTF-8 and built again.
/// Two-way: a string lives in its slot or the slot's pair (`i ^ 1`), newest in its own
/// slot. Made only for inputs of [`STR_CACHE_MIN_INPUT`] bytes or more, so a small
/// Variant does not pay for it. An empty slot holds the key 0 with the text "", which
/// is exactly the wire form of the empty string, so it needs no separate "empty" mark.
struct StrCache {
    slots: Option<Box<[(u128, GString); STR_CACHE_SLOTS]>>,
}

/// The smallest input for which [`StrCache`] is made: making it costs about as much as
/// decoding 20 short strings (a few hundred bytes of input), and a hit saves most of one.
const STR_CACHE_MIN_INPUT: usize = 2048;

impl StrCache {
    /// A cache for an input of `len` bytes (none for a small input).
    fn for_input(len: usize) -> Self {
        StrCache {
            slots: (len >= STR_CACHE_MIN_INPUT)
                .then(|| Box::new(std::array::from_fn(|_| (0, GString::const_new(""))))),
        }
    }

    #[inline]
    fn slot(key: u128) -> usize {
        let x = key as u64 ^ (key >> 64) as u64;
        let h = (x ^ (x >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - STR_CACHE_SLOTS.trailing_zeros())) as usize
    }
}

const _: () = assert!(
    SHORT_STRING <= 12,
    "a short string's wire form fits in a u128"
);

/// `N`-component reals from `b`, 64-bit when `wide`.
#[inline]
fn real<const N: usize>(wide: bool, b: &[u8]) -> Real<N> {
    if wide {
        Real::F64(array_f64(b))
    } else {
        Real::F32(array_f32(b))
    }
}

/// Packed `N`-component vectors from `b`, 64-bit when `wide`.
fn reals<const N: usize>(wide: bool, b: &[u8]) -> Reals<N> {
    if wide {
        Reals::F64(b.chunks_exact(N * 8).map(array_f64::<N>).collect())
    } else {
        Reals::F32(b.chunks_exact(N * 4).map(array_f32::<N>).collect())
    }
}

/// Fixed-size numbers from packed bytes.
fn packed<T, const N: usize>(b: &[u8], from_le: impl Fn([u8; N]) -> T) -> Vec<T> {
    b.chunks_exact(N)
        .map(|c| from_le(c.try_into().expect("chunks of N bytes")))
        .collect()
}

impl From<Elem<'_>> for ContainerType {
    fn from(e: Elem<'_>) -> Self {
        match e {
            Elem::Any => ContainerType::Any,
            Elem::Builtin(id) => ContainerType::Builtin(id),
            Elem::ClassName(s) => ContainerType::ClassName(s.to_owned()),
            Elem::Script(s) => ContainerType::Script(s.to_owned()),
        }
    }
}

/// A value of a leaf, built.
#[inline(never)]
fn leaf_value(leaf: Leaf<'_>) -> Value {
    match leaf {
        Leaf::Nil => Value::Nil,
        Leaf::Bool(b) => Value::Bool(b),
        Leaf::Int(i) => Value::Int(i),
        Leaf::Float(f) => Value::Float(f),
        Leaf::Reals(kind, wide, b) => match kind {
            Kind::Vector2 => Value::Vector2(real(wide, b)),
            Kind::Vector3 => Value::Vector3(real(wide, b)),
            Kind::Rect2 => Value::Rect2(Box::new(real(wide, b))),
            Kind::Plane => Value::Plane(Box::new(real(wide, b))),
            Kind::Quaternion => Value::Quaternion(Box::new(real(wide, b))),
            Kind::Vector4 => Value::Vector4(Box::new(real(wide, b))),
            Kind::Transform2D => Value::Transform2D(Box::new(real(wide, b))),
            Kind::Aabb => Value::Aabb(Box::new(real(wide, b))),
            Kind::Basis => Value::Basis(Box::new(real(wide, b))),
            Kind::Transform3D => Value::Transform3D(Box::new(real(wide, b))),
            Kind::Projection => Value::Projection(Box::new(real(wide, b))),
            _ => unreachable!("the walker gives reals only for math types"),
        },
        Leaf::Ints(kind, b) => match kind {
            Kind::Vector2i => Value::Vector2i(array_i32(b)),
            Kind::Vector3i => Value::Vector3i(array_i32(b)),
            Kind::Rect2i => Value::Rect2i(array_i32(b)),
            Kind::Vector4i => Value::Vector4i(array_i32(b)),
            _ => unreachable!("the walker gives ints only for integer vectors"),
        },
        Leaf::Color(b) => Value::Color(array_f32(b)),
        Leaf::Rid(id) => Value::Rid(id),
        Leaf::Callable => Value::Callable,
        Leaf::Signal(name, id) => Value::Signal(Box::new((name.to_owned(), id))),
        Leaf::ObjectId(id) => Value::Object(Box::new(Object::Id(id))),
        Leaf::Bytes(b) => Value::PackedByteArray(b.to_vec()),
        Leaf::Packed(kind, wide, b) => match kind {
            Kind::PackedInt32Array => Value::PackedInt32Array(packed(b, i32::from_le_bytes)),
            Kind::PackedInt64Array => Value::PackedInt64Array(packed(b, i64::from_le_bytes)),
            Kind::PackedFloat32Array => Value::PackedFloat32Array(packed(b, f32::from_le_bytes)),
            Kind::PackedFloat64Array => Value::PackedFloat64Array(packed(b, f64::from_le_bytes)),
            Kind::PackedColorArray => {
                Value::PackedColorArray(b.chunks_exact(16).map(array_f32::<4>).collect())
            }
            Kind::PackedVector2Array => Value::PackedVector2Array(reals(wide, b)),
            Kind::PackedVector3Array => Value::PackedVector3Array(reals(wide, b)),
            Kind::PackedVector4Array => Value::PackedVector4Array(reals(wide, b)),
            _ => unreachable!("the walker gives packed bytes only for packed arrays"),
        },
    }
}

/// A [`NodePath`] being built: the path, the name count and the padding seen.
pub(crate) struct PathBuild {
    path: NodePath,
    names: usize,
    padding: Vec<u8>,
}

impl<'a> Sink<'a> for Tree {
    type Out = Value;
    type Seq = (Vec<Value>, Elem<'a>);
    type Map = (Vec<(Value, Value)>, Option<(Elem<'a>, Elem<'a>)>);
    type Obj = (String, Vec<(String, Value)>);
    type Strings = Vec<GString>;
    type Path = PathBuild;

    #[inline(always)]
    fn bool(&mut self, _: usize, b: bool) -> Value {
        Value::Bool(b)
    }
    #[inline(always)]
    fn int(&mut self, _: usize, i: i64) -> Value {
        Value::Int(i)
    }
    #[inline(always)]
    fn float(&mut self, _: usize, f: f64) -> Value {
        Value::Float(f)
    }
    #[inline(always)]
    fn vector3(&mut self, _: usize, v: [f32; 3]) -> Value {
        Value::Vector3(Real::F32(v))
    }
    #[inline(always)]
    fn string(&mut self, _: usize, name: bool, text: &'a str) -> Value {
        let s = GString::from(text);
        if name {
            Value::StringName(s)
        } else {
            Value::String(s)
        }
    }
    #[inline(always)]
    fn caches_strings(&self) -> bool {
        self.strings.slots.is_some()
    }
    #[inline(always)]
    fn cached(&mut self, _: usize, name: bool, key: u128) -> Option<Value> {
        let slots = self.strings.slots.as_deref()?;
        let i = StrCache::slot(key);
        let s = if slots[i].0 == key {
            slots[i].1.clone()
        } else if slots[i ^ 1].0 == key {
            slots[i ^ 1].1.clone()
        } else {
            return None;
        };
        Some(if name {
            Value::StringName(s)
        } else {
            Value::String(s)
        })
    }
    #[inline(never)]
    fn keyed(&mut self, _: usize, name: bool, key: u128, text: &'a str) -> Value {
        let s = GString::from(text);
        if let Some(slots) = self.strings.slots.as_deref_mut() {
            let i = StrCache::slot(key);
            let old = std::mem::replace(&mut slots[i], (key, s.clone()));
            slots[i ^ 1] = old;
        }
        if name {
            Value::StringName(s)
        } else {
            Value::String(s)
        }
    }
    #[inline]
    fn leaf(&mut self, _: usize, leaf: Leaf<'a>) -> Value {
        leaf_value(leaf)
    }

    #[inline(always)]
    fn array_begin(&mut self, _: usize, count: usize, elem: Elem<'a>) -> Self::Seq {
        (Vec::with_capacity(count), elem)
    }
    #[inline(always)]
    fn array_item(&mut self, seq: &mut Self::Seq, item: Value) {
        seq.0.push(item);
    }
    #[inline(always)]
    fn array_end(&mut self, (items, elem): Self::Seq) -> Value {
        Value::Array(match elem {
            Elem::Any => Array::new(items),
            t => Array::typed(items, t.into()),
        })
    }

    #[inline(always)]
    fn dict_begin(
        &mut self,
        _: usize,
        count: usize,
        types: Option<(Elem<'a>, Elem<'a>)>,
    ) -> Self::Map {
        (Vec::with_capacity(count), types)
    }
    #[inline(always)]
    fn dict_entry(&mut self, map: &mut Self::Map, key: Value, value: Value) {
        map.0.push((key, value));
    }
    #[inline(always)]
    fn dict_end(&mut self, (entries, types): Self::Map) -> Value {
        Value::Dictionary(match types {
            None => Dictionary::new(entries),
            Some((k, v)) => Dictionary::typed(entries, k.into(), v.into()),
        })
    }

    fn object_begin(&mut self, _: usize, class: &'a str, count: usize) -> Self::Obj {
        (class.to_owned(), Vec::with_capacity(count))
    }
    fn object_name(&mut self, obj: &mut Self::Obj, _: usize, name: &'a str) {
        obj.1.push((name.to_owned(), Value::Nil));
    }
    fn object_value(&mut self, obj: &mut Self::Obj, value: Value) {
        if let Some(last) = obj.1.last_mut() {
            last.1 = value;
        }
    }
    fn object_end(&mut self, (class, properties): Self::Obj) -> Value {
        Value::Object(Box::new(Object::Full { class, properties }))
    }

    fn strings_begin(&mut self, _: usize, count: usize) -> Vec<GString> {
        Vec::with_capacity(count)
    }
    fn strings_item(&mut self, s: &mut Vec<GString>, _: usize, text: &'a str) {
        s.push(GString::from(text));
    }
    fn strings_end(&mut self, s: Vec<GString>) -> Value {
        Value::PackedStringArray(s)
    }

    fn path_begin(&mut self, _: usize, names: usize, subnames: usize, absolute: bool) -> PathBuild {
        PathBuild {
            path: NodePath {
                names: Vec::with_capacity(names),
                subnames: Vec::with_capacity(subnames),
                absolute,
                raw_padding: None,
            },
            names,
            padding: Vec::new(),
        }
    }
    fn path_name(&mut self, p: &mut PathBuild, text: &'a str, padding: &'a [u8]) {
        if p.path.names.len() < p.names {
            p.path.names.push(text.to_owned());
        } else {
            p.path.subnames.push(text.to_owned());
        }
        p.padding.extend_from_slice(padding);
    }
    fn path_end(&mut self, p: PathBuild) -> Value {
        let PathBuild {
            mut path, padding, ..
        } = p;
        path.raw_padding = padding.iter().any(|&b| b != 0).then_some(padding);
        Value::NodePath(Box::new(path))
    }
}
