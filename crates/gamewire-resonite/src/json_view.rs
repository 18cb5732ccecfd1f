//! The JSON of a document written straight to a serializer, with no `serde_json` tree
//! built for its documents and arrays: `serde_json::to_writer(w,
//! &DocumentView::new(&doc))` writes the very text that serializing
//! [`crate::json::document_to_json`] gives, with memory for one leaf at a time.
//!
//! One writer serves both readings of a document: [`DocumentView`] over the owned tree
//! and [`DocumentRefView`] over the borrowed [`crate::bson_view`] (so that a file goes
//! to JSON without the owned tree being built at all). Both are the same generic code,
//! compiled per source through a small private `Source` trait; the rarer leaves go through
//! `json::scalar_json`, the one mapping of every BSON scalar.

use crate::bson_view::{DocumentRef, Entries as RefEntries, Items as RefItems, ValueRef};
use crate::json::{is_plain, scalar_json};
use crate::value::{Document, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;
use std::borrow::Cow;

/// A value as the JSON writer sees it: a container to walk, or a leaf.
enum Shape<'k, S: Source<'k>> {
    Document(S),
    Array(S::Items),
    Scope(&'k str, S),
    Str(&'k str),
    Int32(i32),
    Bool(bool),
    Null,
    Double(f64),
    /// Any other leaf, as [`scalar_json`] maps it.
    Other(Json),
}

/// A document the JSON writer reads (the owned tree's or the view's), with its values.
trait Source<'k>: Copy + Sized {
    /// One value of this source.
    type Value: Copy;
    /// The entries of a document.
    type Entries: Iterator<Item = (&'k str, Self::Value)>;
    /// The items of an array.
    type Items: Iterator<Item = Self::Value>;
    fn entries(self) -> Self::Entries;
    /// The number of entries, when known without counting.
    fn len_hint(self) -> Option<usize>;
    /// True when no key starts with `$` and none repeats.
    fn plain(self) -> bool;
    fn shape(v: Self::Value) -> Shape<'k, Self>;
}

impl<'v, 'a: 'v> Source<'v> for &'v Document<'a> {
    type Value = &'v Value<'a>;
    type Entries = std::iter::Map<
        std::slice::Iter<'v, (Cow<'a, str>, Value<'a>)>,
        fn(&'v (Cow<'a, str>, Value<'a>)) -> (&'v str, &'v Value<'a>),
    >;
    type Items = std::slice::Iter<'v, Value<'a>>;

    fn entries(self) -> Self::Entries {
        self.entries.iter().map(|(k, v)| (k.as_ref(), v))
    }
    fn len_hint(self) -> Option<usize> {
        Some(self.len())
    }
    fn plain(self) -> bool {
        is_plain(self)
    }
    #[inline]
    fn shape(v: &'v Value<'a>) -> Shape<'v, Self> {
        match v {
            Value::Document(d) => Shape::Document(d),
            Value::Array(a) => Shape::Array(a.iter()),
            Value::JavaScriptWithScope(c) => Shape::Scope(&c.code, &c.scope),
            Value::String(x) => Shape::Str(x),
            Value::Int32(i) => Shape::Int32(*i),
            Value::Bool(b) => Shape::Bool(*b),
            Value::Null => Shape::Null,
            Value::Double(d) if d.is_finite() => Shape::Double(*d),
            leaf => Shape::Other(scalar_json(leaf)),
        }
    }
}

impl<'a> Source<'a> for DocumentRef<'a> {
    type Value = ValueRef<'a>;
    type Entries = RefEntries<'a>;
    type Items = RefItems<'a>;

    fn entries(self) -> Self::Entries {
        self.iter()
    }
    fn len_hint(self) -> Option<usize> {
        None
    }
    fn plain(self) -> bool {
        is_plain_ref(self)
    }
    #[inline]
    fn shape(v: ValueRef<'a>) -> Shape<'a, Self> {
        match v {
            ValueRef::Document(d) => Shape::Document(d),
            ValueRef::Array(a) => Shape::Array(a.iter()),
            ValueRef::JavaScriptWithScope { code, scope } => Shape::Scope(code, scope),
            ValueRef::String(x) => Shape::Str(x),
            ValueRef::Int32(i) => Shape::Int32(i),
            ValueRef::Bool(b) => Shape::Bool(b),
            ValueRef::Null => Shape::Null,
            ValueRef::Double(d) if d.is_finite() => Shape::Double(d),
            leaf => Shape::Other(scalar_json(&leaf.leaf_value())),
        }
    }
}

/// A document of any source, as the lossless JSON mapping writes it.
struct Doc<S>(S);

/// A value of any source.
struct Val<'k, S: Source<'k>>(S::Value);

/// Entries as `[key, value]` pairs, streamed.
struct Pairs<S>(S);

impl<'k, S: Source<'k>> Serialize for Doc<S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        if self.0.plain() {
            let mut m = s.serialize_map(self.0.len_hint())?;
            for (k, v) in self.0.entries() {
                m.serialize_entry(k, &Val::<S>(v))?;
            }
            m.end()
        } else {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("$entries", &Pairs(self.0))?;
            m.end()
        }
    }
}

impl<'k, S: Source<'k>> Serialize for Pairs<S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        s.collect_seq(self.0.entries().map(|(k, v)| (k, Val::<S>(v))))
    }
}

impl<'k, S: Source<'k>> Serialize for Val<'k, S> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match S::shape(self.0) {
            Shape::Document(d) => Doc(d).serialize(s),
            Shape::Array(items) => s.collect_seq(items.map(Val::<S>)),
            Shape::Scope(code, scope) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("$code", code)?;
                m.serialize_entry("$scope", &Doc(scope))?;
                m.end()
            }
            // the common leaves written directly (the text scalar_json gives)
            Shape::Str(x) => s.serialize_str(x),
            Shape::Int32(i) => s.serialize_i64(i.into()),
            Shape::Bool(b) => s.serialize_bool(b),
            Shape::Null => s.serialize_unit(),
            Shape::Double(d) => s.serialize_f64(d),
            Shape::Other(j) => j.serialize(s),
        }
    }
}

/// A document as the lossless JSON mapping writes it (a plain object, or
/// `{"$entries": [[key, value], ...]}` when a key starts with `$` or repeats).
#[derive(Debug, Clone, Copy)]
pub struct DocumentView<'v, 'a> {
    doc: &'v Document<'a>,
}

impl<'v, 'a> DocumentView<'v, 'a> {
    /// A view of `doc`.
    pub fn new(doc: &'v Document<'a>) -> Self {
        DocumentView { doc }
    }
}

impl Serialize for DocumentView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Doc(self.doc).serialize(s)
    }
}

/// A value as the lossless JSON mapping writes it.
#[derive(Debug, Clone, Copy)]
pub struct ValueView<'v, 'a> {
    value: &'v Value<'a>,
}

impl<'v, 'a> ValueView<'v, 'a> {
    /// A view of `value`.
    pub fn new(value: &'v Value<'a>) -> Self {
        ValueView { value }
    }
}

impl Serialize for ValueView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Val::<&Document<'_>>(self.value).serialize(s)
    }
}

/// A viewed document as the lossless JSON mapping writes it: the same text as
/// [`DocumentView`] of the owned document.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRefView<'a> {
    doc: DocumentRef<'a>,
}

impl<'a> DocumentRefView<'a> {
    /// A view of `doc`.
    pub fn new(doc: DocumentRef<'a>) -> Self {
        DocumentRefView { doc }
    }
}

impl Serialize for DocumentRefView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Doc(self.doc).serialize(s)
    }
}

/// [`is_plain`] over a viewed document: no key starts with `$` and none repeats (keys
/// compared as bytes, values skipped unread).
pub(crate) fn is_plain_ref(doc: DocumentRef<'_>) -> bool {
    let mut n = 0;
    for k in doc.raw_keys() {
        if k.first() == Some(&b'$') {
            return false;
        }
        n += 1;
    }
    if n <= 16 {
        let mut keys: [&[u8]; 16] = [&[]; 16];
        for (i, k) in doc.raw_keys().enumerate() {
            if keys[..i].contains(&k) {
                return false;
            }
            keys[i] = k;
        }
        true
    } else {
        let mut seen = std::collections::HashSet::with_capacity(n);
        doc.raw_keys().all(|k| seen.insert(k))
    }
}

/// A viewed value as the lossless JSON mapping writes it (the same writer as
/// [`DocumentRefView`]).
pub(crate) struct ValueRefView<'a>(pub(crate) ValueRef<'a>);

impl Serialize for ValueRefView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Val::<DocumentRef<'_>>(self.0).serialize(s)
    }
}
