//! The JSON of a decoded document written straight to a serializer, with no
//! `serde_json` tree built for its documents and arrays: `serde_json::to_writer(w,
//! &DocumentView::new(&doc))` writes the very text that serializing
//! [`crate::json::document_to_json`] gives, with memory for one leaf at a time.
//!
//! [`DocumentRefView`] does the same from the borrowed [`crate::bson_view`], so that a
//! file goes to JSON without the owned tree being built at all.

use crate::bson_view::{DocumentRef, ValueRef};
use crate::json::{is_plain, scalar_json};
use crate::value::{Document, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

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

impl Serialize for DocumentView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = &self.doc.entries;
        if is_plain(self.doc) {
            let mut m = s.serialize_map(Some(entries.len()))?;
            for (k, v) in entries {
                m.serialize_entry(k.as_ref(), &ValueView::new(v))?;
            }
            m.end()
        } else {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("$entries", &Entries(entries))?;
            m.end()
        }
    }
}

/// Entries as `[key, value]` pairs, streamed.
struct Entries<'v, 'a>(&'v [(std::borrow::Cow<'a, str>, Value<'a>)]);

impl Serialize for Entries<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|(k, v)| (k.as_ref(), ValueView::new(v))))
    }
}

impl Serialize for ValueView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Document(d) => DocumentView::new(d).serialize(s),
            Value::Array(a) => s.collect_seq(a.iter().map(ValueView::new)),
            Value::JavaScriptWithScope(c) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("$code", c.code.as_ref())?;
                m.serialize_entry("$scope", &DocumentView::new(&c.scope))?;
                m.end()
            }
            // the common leaves written directly (the text scalar_json's gives)
            Value::String(x) => s.serialize_str(x),
            Value::Int32(i) => s.serialize_i64((*i).into()),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Null => s.serialize_unit(),
            Value::Double(d) if d.is_finite() => s.serialize_f64(*d),
            leaf => scalar_json(leaf).serialize(s),
        }
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

/// A viewed value as the lossless JSON mapping writes it.
pub(crate) struct ValueRefView<'a>(pub(crate) ValueRef<'a>);

/// Viewed entries as `[key, value]` pairs, streamed.
struct RefEntries<'a>(DocumentRef<'a>);

impl Serialize for RefEntries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|(k, v)| (k, ValueRefView(v))))
    }
}

impl Serialize for DocumentRefView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if is_plain_ref(self.doc) {
            let mut m = s.serialize_map(None)?;
            for (k, v) in self.doc.iter() {
                m.serialize_entry(k, &ValueRefView(v))?;
            }
            m.end()
        } else {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("$entries", &RefEntries(self.doc))?;
            m.end()
        }
    }
}

impl Serialize for ValueRefView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            ValueRef::Document(d) => DocumentRefView::new(d).serialize(s),
            ValueRef::Array(a) => s.collect_seq(a.iter().map(ValueRefView)),
            ValueRef::JavaScriptWithScope { code, scope } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("$code", code)?;
                m.serialize_entry("$scope", &DocumentRefView::new(scope))?;
                m.end()
            }
            // the common leaves written directly (the text scalar_json's gives)
            ValueRef::String(x) => s.serialize_str(x),
            ValueRef::Int32(i) => s.serialize_i64(i.into()),
            ValueRef::Bool(b) => s.serialize_bool(b),
            ValueRef::Null => s.serialize_unit(),
            ValueRef::Double(d) if d.is_finite() => s.serialize_f64(d),
            leaf => match leaf.to_value() {
                Ok(v) => scalar_json(&v).serialize(s),
                Err(e) => Err(serde::ser::Error::custom(e)),
            },
        }
    }
}
