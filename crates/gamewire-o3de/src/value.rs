//! The typed value a load produces and a store reads.

use crate::types::TypeExpr;
use crate::uuid::Uuid;
use std::cmp::Ordering;

/// A value of a registry type. Which variant is used follows from the declared type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `bool`
    Bool(bool),
    /// A signed integer, or an enum with a signed underlying type.
    Int(i64),
    /// An unsigned integer, or an enum with an unsigned underlying type.
    UInt(u64),
    /// `f32`
    F32(f32),
    /// `f64`
    F64(f64),
    /// `string`
    String(String),
    /// `Uuid`
    Uuid(Uuid),
    /// Vectors, quaternions, colors (RGBA) and matrices (row-major), as floats.
    Math(Box<[f32]>),
    /// `Transform`: translation, rotation (x, y, z, w) and uniform scale.
    Transform {
        /// Translation.
        translation: [f32; 3],
        /// Rotation quaternion (x, y, z, w).
        rotation: [f32; 4],
        /// Uniform scale.
        scale: f32,
    },
    /// Sequences and sets (sets kept sorted by [`Value::total_cmp`]).
    Seq(Vec<Value>),
    /// Maps as key/value pairs, sorted by key.
    Map(Vec<(Value, Value)>),
    /// Pairs and tuples.
    Tuple(Vec<Value>),
    /// Pointers (raw and smart): the actual type of the pointee, and its value.
    Ptr(Option<Box<(TypeExpr, Value)>>),
    /// `any`: the type held, and its value; `None` when empty.
    Any(Option<Box<(TypeExpr, Value)>>),
    /// `Asset<T>` (boxed to keep [`Value`] small).
    Asset(Box<AssetRef>),
    /// A class instance: its fields in layout order (base classes' fields first).
    Object(Vec<Value>),
}

/// A reference to an asset, as `AZ::Data::Asset<T>` stores it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssetRef {
    /// The asset's UUID (`assetId.guid`).
    pub guid: Uuid,
    /// The product's sub id (`assetId.subId`).
    pub sub_id: u32,
    /// The path hint (`assetHint`).
    pub hint: String,
    /// The load behaviour name (`loadBehavior`), when given.
    pub load_behavior: Option<String>,
}

fn rank(v: &Value) -> u8 {
    match v {
        Value::Bool(_) => 0,
        Value::Int(_) => 1,
        Value::UInt(_) => 2,
        Value::F32(_) => 3,
        Value::F64(_) => 4,
        Value::String(_) => 5,
        Value::Uuid(_) => 6,
        Value::Math(_) => 7,
        Value::Transform { .. } => 8,
        Value::Seq(_) => 9,
        Value::Map(_) => 10,
        Value::Tuple(_) => 11,
        Value::Ptr(_) => 12,
        Value::Any(_) => 13,
        Value::Asset(_) => 14,
        Value::Object(_) => 15,
    }
}

fn cmp_slices<T>(a: &[T], b: &[T], f: impl Fn(&T, &T) -> Ordering) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match f(x, y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    a.len().cmp(&b.len())
}

impl Value {
    /// A total order used to keep sets and maps sorted: for scalars it is the C++
    /// `operator<` of the type (bytes for strings and UUIDs), for the rest a structural order.
    pub fn total_cmp(&self, other: &Value) -> Ordering {
        use Value as V;
        match (self, other) {
            (V::Bool(a), V::Bool(b)) => a.cmp(b),
            (V::Int(a), V::Int(b)) => a.cmp(b),
            (V::UInt(a), V::UInt(b)) => a.cmp(b),
            (V::F32(a), V::F32(b)) => a.total_cmp(b),
            (V::F64(a), V::F64(b)) => a.total_cmp(b),
            (V::String(a), V::String(b)) => a.as_bytes().cmp(b.as_bytes()),
            (V::Uuid(a), V::Uuid(b)) => a.cmp(b),
            (V::Math(a), V::Math(b)) => cmp_slices(a, b, |x, y| x.total_cmp(y)),
            (
                V::Transform {
                    translation: t1,
                    rotation: r1,
                    scale: s1,
                },
                V::Transform {
                    translation: t2,
                    rotation: r2,
                    scale: s2,
                },
            ) => cmp_slices(t1, t2, |x, y| x.total_cmp(y))
                .then_with(|| cmp_slices(r1, r2, |x, y| x.total_cmp(y)))
                .then_with(|| s1.total_cmp(s2)),
            (V::Seq(a), V::Seq(b)) | (V::Tuple(a), V::Tuple(b)) | (V::Object(a), V::Object(b)) => {
                cmp_slices(a, b, |x, y| x.total_cmp(y))
            }
            (V::Map(a), V::Map(b)) => cmp_slices(a, b, |x, y| {
                x.0.total_cmp(&y.0).then_with(|| x.1.total_cmp(&y.1))
            }),
            (V::Ptr(a), V::Ptr(b)) | (V::Any(a), V::Any(b)) => match (a, b) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (Some(x), Some(y)) => x.1.total_cmp(&y.1),
            },
            (V::Asset(a), V::Asset(b)) => a
                .guid
                .cmp(&b.guid)
                .then(a.sub_id.cmp(&b.sub_id))
                .then_with(|| a.hint.cmp(&b.hint)),
            _ => rank(self).cmp(&rank(other)),
        }
    }

    /// The fields of a class instance.
    pub fn as_object(&self) -> Option<&[Value]> {
        match self {
            Value::Object(f) => Some(f),
            _ => None,
        }
    }
}

/// A hash consistent with [`Value::total_cmp`] equality (FNV-1a over the contents).
pub(crate) fn key_hash(v: &Value) -> u64 {
    fn mix(h: &mut u64, bytes: &[u8]) {
        for b in bytes {
            *h ^= *b as u64;
            *h = h.wrapping_mul(0x100000001b3);
        }
    }
    fn go(v: &Value, h: &mut u64, depth: usize) {
        mix(h, &[rank(v)]);
        if depth > 64 {
            return;
        }
        match v {
            Value::Bool(b) => mix(h, &[*b as u8]),
            Value::Int(i) => mix(h, &i.to_le_bytes()),
            Value::UInt(u) => mix(h, &u.to_le_bytes()),
            Value::F32(f) => mix(h, &f.to_bits().to_le_bytes()),
            Value::F64(f) => mix(h, &f.to_bits().to_le_bytes()),
            Value::String(s) => mix(h, s.as_bytes()),
            Value::Uuid(u) => mix(h, &u.0),
            Value::Math(m) => m.iter().for_each(|f| mix(h, &f.to_bits().to_le_bytes())),
            Value::Transform {
                translation,
                rotation,
                scale,
            } => translation
                .iter()
                .chain(rotation)
                .chain(std::iter::once(scale))
                .for_each(|f| mix(h, &f.to_bits().to_le_bytes())),
            Value::Seq(a) | Value::Tuple(a) | Value::Object(a) => {
                a.iter().for_each(|x| go(x, h, depth + 1))
            }
            Value::Map(m) => m.iter().for_each(|(k, x)| {
                go(k, h, depth + 1);
                go(x, h, depth + 1)
            }),
            Value::Ptr(p) | Value::Any(p) => {
                if let Some(b) = p {
                    go(&b.1, h, depth + 1)
                }
            }
            Value::Asset(a) => {
                mix(h, &a.guid.0);
                mix(h, &a.sub_id.to_le_bytes());
                mix(h, a.hint.as_bytes());
            }
        }
    }
    let mut h = 0xcbf29ce484222325;
    go(v, &mut h, 0);
    h
}

/// An index from keys to positions in a list, by [`key_hash`], without cloning keys.
/// Small lists are searched linearly; the hash index is built once a list grows.
#[derive(Debug, Default)]
pub(crate) struct KeyIndex {
    built: bool,
    first: std::collections::HashMap<u64, usize>,
    more: Vec<(u64, usize)>,
}

const LINEAR_LIMIT: usize = 16;

impl KeyIndex {
    /// The position of an entry equal to `key` among `len` entries; `at(i)` gives the key at `i`.
    pub fn find<'v>(
        &mut self,
        key: &Value,
        len: usize,
        at: impl Fn(usize) -> &'v Value,
    ) -> Option<usize> {
        let eq = |i: usize| at(i).total_cmp(key) == Ordering::Equal;
        if !self.built {
            if len <= LINEAR_LIMIT {
                return (0..len).find(|&i| eq(i));
            }
            self.built = true;
            for i in 0..len {
                self.add(key_hash(at(i)), i);
            }
        }
        let hash = key_hash(key);
        match self.first.get(&hash) {
            None => None,
            Some(&i) if eq(i) => Some(i),
            Some(_) => self
                .more
                .iter()
                .find(|(h, i)| *h == hash && eq(*i))
                .map(|(_, i)| *i),
        }
    }

    /// Records that `key` is now at position `i` (after a failed [`KeyIndex::find`]).
    pub fn insert(&mut self, key: &Value, i: usize) {
        if self.built {
            self.add(key_hash(key), i);
        }
    }

    fn add(&mut self, hash: u64, i: usize) {
        if let std::collections::hash_map::Entry::Vacant(e) = self.first.entry(hash) {
            e.insert(i);
        } else {
            self.more.push((hash, i));
        }
    }
}
