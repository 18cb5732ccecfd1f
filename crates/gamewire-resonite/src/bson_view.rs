//! A borrowed, allocation-light reading of BSON: a view over the bytes.
//!
//! [`BsonView::new`] checks the bytes exactly as [`bson_read::read_document`] does (every
//! length, terminator, type byte, boolean byte, UTF-8 text and the depth limit) in one
//! pass that builds nothing; after that, the document is read in place through
//! [`DocumentRef`], [`ArrayRef`] and [`ValueRef`]: iterate, look a key up, and typed
//! scalars (int32, int64 and double kept apart, as [`Value`] keeps them). Keys, strings
//! and binary data are borrowed from the bytes. Nothing is allocated but the check's
//! stack of open containers (one entry per nesting level). This is for servers and tools
//! that read or scan; the owned [`Value`] tree is for editing.
//!
//! [`FileView::open`] does the same for a whole FrDT or legacy file: it decompresses once
//! into a buffer and views it.
//!
//! ```
//! use gamewire_resonite::{bson_view::BsonView, bson_write, Document, Options, Value};
//! let mut doc = Document::new();
//! doc.push("hp", Value::Int32(87));
//! doc.push("name", Value::String("crate".into()));
//! let bytes = bson_write::to_vec(&doc, 64).unwrap();
//! let view = BsonView::new(&bytes, &Options::default()).unwrap();
//! let root = view.root();
//! assert_eq!(root.get("hp").and_then(|v| v.as_i32()), Some(87));
//! assert_eq!(root.get("name").and_then(|v| v.as_str()), Some("crate"));
//! assert_eq!(root.iter().count(), 2);
//! ```
//!
//! The check is the one [`walk`](crate::walk) of the BSON grammar into its
//! [`Check`] sink (nothing kept), so bad input gives the very error the owned reader
//! gives (offset, path and message). The reads in place below trust the checked bytes
//! for their layout and check nothing again; every read still goes through
//! bounds-checked slices, so a view can never panic.

use crate::bson_read;
use crate::container::{self, Container};
use crate::value::{CodeWithScope, DbPointer, Document, Regex, Value};
use crate::walk::{walk, Check};
use crate::Options;
use gamewire_core::Result;
use std::borrow::Cow;

/// Checked BSON bytes (one document filling them), borrowed. See the module docs.
#[derive(Debug, Clone, Copy)]
pub struct BsonView<'a> {
    root: DocumentRef<'a>,
}

impl<'a> BsonView<'a> {
    /// Checks `bson` (one document that fills it, nesting bounded by the options' depth
    /// limit); errors are those of [`crate::read_bson`].
    pub fn new(bson: &'a [u8], opts: &Options) -> Result<Self> {
        Self::with_base(bson, 0, opts.limits.max_depth)
    }

    /// As [`BsonView::new`], with `base` the offset of `bson` in its file (for errors) and
    /// an explicit depth limit; errors are those of [`bson_read::read_document`].
    pub fn with_base(bson: &'a [u8], base: usize, max_depth: usize) -> Result<Self> {
        walk(bson, base, max_depth, &mut Check)?;
        Ok(BsonView {
            root: DocumentRef { data: bson },
        })
    }

    /// The root document.
    pub fn root(&self) -> DocumentRef<'a> {
        self.root
    }
}

/// A decompressed file and its checked BSON: [`FileView::open`], then
/// [`FileView::root`].
#[derive(Debug, Clone)]
pub struct FileView<'a> {
    container: Container,
    bson: Cow<'a, [u8]>,
    /// Where the BSON sits in the file when it is stored uncompressed.
    stored_at: Option<usize>,
}

impl<'a> FileView<'a> {
    /// Opens a FrDT or legacy file as [`crate::decode`] does (`file_name` picks the
    /// compression of headerless files), decompressing once into a buffer (stored BSON
    /// is borrowed from `data`), and checks the BSON. Errors are those of
    /// [`crate::decode`].
    pub fn open(data: &'a [u8], file_name: Option<&str>, opts: &Options) -> Result<Self> {
        let (container, bson) = container::unpack(data, file_name, opts)?;
        crate::walk_unpacked(data.len(), &container, &bson, opts, &mut Check)?;
        let stored_at = match &bson {
            Cow::Borrowed(b) => (b.as_ptr() as usize).checked_sub(data.as_ptr() as usize),
            Cow::Owned(_) => None,
        };
        Ok(FileView {
            container,
            bson,
            stored_at,
        })
    }

    /// A view of edited BSON of a file read with `container` (its BSON at `stored_at`
    /// in the file when stored uncompressed), checked as [`FileView::open`] checks.
    pub fn of_bson(
        container: Container,
        bson: Vec<u8>,
        stored_at: Option<usize>,
        opts: &Options,
    ) -> Result<FileView<'static>> {
        BsonView::new(&bson, opts)?;
        Ok(FileView {
            container,
            bson: Cow::Owned(bson),
            stored_at,
        })
    }

    /// Where the BSON is in the file: `Some(offset)` when it is stored uncompressed,
    /// `None` when it was decompressed (offsets into [`FileView::bson`] are then
    /// offsets in the decompressed data).
    pub fn stored_at(&self) -> Option<usize> {
        self.stored_at
    }

    /// The view with the BSON owned (copied when it was borrowed from the file), to be
    /// kept without the file's bytes.
    pub fn into_owned(self) -> FileView<'static> {
        FileView {
            container: self.container,
            bson: Cow::Owned(self.bson.into_owned()),
            stored_at: self.stored_at,
        }
    }

    /// The container: framing and compression.
    pub fn container(&self) -> &Container {
        &self.container
    }

    /// The (decompressed) BSON bytes.
    pub fn bson(&self) -> &[u8] {
        &self.bson
    }

    /// The root document, borrowing the buffer.
    pub fn root(&self) -> DocumentRef<'_> {
        DocumentRef { data: &self.bson }
    }
}

// ---------------------------------------------------------------------------------------
// Reading checked bytes. Every read below is of bytes the check accepted; the reads
// still go through bounds-checked slices, so a view can never panic.

#[inline]
fn le<const N: usize>(data: &[u8], at: usize) -> [u8; N] {
    let mut a = [0u8; N];
    if let Some(b) = data.get(at..at + N) {
        a.copy_from_slice(b);
    }
    a
}

#[inline]
fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or_default()
}

#[inline]
fn len_at(data: &[u8], at: usize) -> usize {
    i32::from_le_bytes(le(data, at)).max(0) as usize
}

/// A length-prefixed string at `at` and the position after it.
#[inline]
fn str_at(data: &[u8], at: usize) -> (&str, usize) {
    let len = len_at(data, at).max(1);
    let body = data.get(at + 4..at + 3 + len).unwrap_or_default();
    (text(body), at + 4 + len)
}

/// A NUL-terminated name at `at` and the position after its NUL.
#[inline]
fn cstr_at(data: &[u8], at: usize) -> (&str, usize) {
    let rest = data.get(at..).unwrap_or_default();
    let n = memchr::memchr(0, rest).unwrap_or(rest.len());
    (text(&rest[..n]), at + n + 1)
}

/// A document's bytes at `at` (length prefix through terminator).
#[inline]
fn doc_at(data: &[u8], at: usize) -> (DocumentRef<'_>, usize) {
    let end = at + len_at(data, at);
    let d = data.get(at..end).unwrap_or_default();
    (DocumentRef { data: d }, end)
}

/// The value of type `t` at `at`, and the position after it.
#[inline]
fn value_at(data: &[u8], t: u8, at: usize) -> (ValueRef<'_>, usize) {
    match t {
        0x01 => (ValueRef::Double(f64::from_le_bytes(le(data, at))), at + 8),
        0x02 => {
            let (s, next) = str_at(data, at);
            (ValueRef::String(s), next)
        }
        0x03 => {
            let (d, next) = doc_at(data, at);
            (ValueRef::Document(d), next)
        }
        0x04 => {
            let (d, next) = doc_at(data, at);
            (ValueRef::Array(ArrayRef { doc: d }), next)
        }
        0x05 => {
            let len = len_at(data, at);
            let subtype = data.get(at + 4).copied().unwrap_or(0);
            let bytes = data.get(at + 5..at + 5 + len).unwrap_or_default();
            (ValueRef::Binary { subtype, bytes }, at + 5 + len)
        }
        0x06 => (ValueRef::Undefined, at),
        0x07 => (ValueRef::ObjectId(le(data, at)), at + 12),
        0x08 => (ValueRef::Bool(data.get(at) == Some(&1)), at + 1),
        0x09 => (ValueRef::DateTime(i64::from_le_bytes(le(data, at))), at + 8),
        0x0a => (ValueRef::Null, at),
        0x0b => {
            let (pattern, next) = cstr_at(data, at);
            let (options, next) = cstr_at(data, next);
            (ValueRef::Regex { pattern, options }, next)
        }
        0x0c => {
            let (namespace, next) = str_at(data, at);
            (
                ValueRef::DbPointer {
                    namespace,
                    id: le(data, next),
                },
                next + 12,
            )
        }
        0x0d => {
            let (s, next) = str_at(data, at);
            (ValueRef::JavaScript(s), next)
        }
        0x0e => {
            let (s, next) = str_at(data, at);
            (ValueRef::Symbol(s), next)
        }
        0x0f => {
            let total = len_at(data, at);
            let (code, scope_at) = str_at(data, at + 4);
            let (scope, _) = doc_at(data, scope_at);
            (ValueRef::JavaScriptWithScope { code, scope }, at + total)
        }
        0x10 => (ValueRef::Int32(i32::from_le_bytes(le(data, at))), at + 4),
        0x11 => {
            let raw = u64::from_le_bytes(le(data, at));
            (
                ValueRef::Timestamp {
                    time: (raw >> 32) as u32,
                    increment: raw as u32,
                },
                at + 8,
            )
        }
        0x12 => (ValueRef::Int64(i64::from_le_bytes(le(data, at))), at + 8),
        0x13 => (ValueRef::Decimal128(le(data, at)), at + 16),
        0xff => (ValueRef::MinKey, at),
        _ => (ValueRef::MaxKey, at),
    }
}

/// The position after the value of type `t` at `at`, without reading it (no text is
/// decoded).
#[inline]
fn skip_at(data: &[u8], t: u8, at: usize) -> usize {
    match t {
        0x01 | 0x09 | 0x11 | 0x12 => at + 8,
        0x02 | 0x0d | 0x0e => at + 4 + len_at(data, at).max(1),
        0x03 | 0x04 | 0x0f => at + len_at(data, at),
        0x05 => at + 5 + len_at(data, at),
        0x07 => at + 12,
        0x08 => at + 1,
        0x0b => {
            let rest = data.get(at..).unwrap_or_default();
            let mut parts = memchr::memchr_iter(0, rest);
            let _ = parts.next();
            at + parts.next().map_or(rest.len(), |n| n + 1)
        }
        0x0c => at + 4 + len_at(data, at).max(1) + 12,
        0x10 => at + 4,
        0x13 => at + 16,
        _ => at,
    }
}

/// The raw keys of a document (bytes without their NUL), each value skipped unread.
#[derive(Debug, Clone)]
pub(crate) struct RawKeys<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for RawKeys<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let t = *self.data.get(self.pos)?;
        if t == 0 {
            return None;
        }
        let rest = self.data.get(self.pos + 1..)?;
        let n = memchr::memchr(0, rest)?;
        self.pos = skip_at(self.data, t, self.pos + 2 + n);
        Some(&rest[..n])
    }
}

/// A checked BSON document, borrowed: its bytes from the length prefix through the
/// terminator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentRef<'a> {
    data: &'a [u8],
}

impl<'a> DocumentRef<'a> {
    /// The entries in file order (duplicate keys kept).
    pub fn iter(&self) -> Entries<'a> {
        Entries {
            data: self.data,
            pos: 4,
        }
    }

    /// The first value under `key` (as [`Document::get`]); the values before it are
    /// skipped unread.
    pub fn get(&self, key: &str) -> Option<ValueRef<'a>> {
        let key = key.as_bytes();
        let mut pos = 4;
        loop {
            let t = *self.data.get(pos)?;
            if t == 0 {
                return None;
            }
            let rest = self.data.get(pos + 1..)?;
            let n = memchr::memchr(0, rest)?;
            let at = pos + 2 + n;
            if &rest[..n] == key {
                return Some(value_at(self.data, t, at).0);
            }
            pos = skip_at(self.data, t, at);
        }
    }

    /// The value at a path of keys from this document (array items by their decimal
    /// index, as BSON stores them).
    pub fn lookup(&self, path: &[&str]) -> Option<ValueRef<'a>> {
        let (first, rest) = path.split_first()?;
        let mut v = self.get(first)?;
        for k in rest {
            v = match v {
                ValueRef::Document(d) => d.get(k)?,
                ValueRef::Array(a) => a.get(k.parse().ok()?)?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// The entries in file order with where each is in the document's bytes
    /// ([`Element`]).
    pub fn elements(&self) -> Elements<'a> {
        Elements {
            data: self.data,
            pos: 4,
        }
    }

    /// The keys in file order, each value skipped unread (cheaper than [`Self::iter`]).
    pub fn keys(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.raw_keys().map(text)
    }

    /// The keys as bytes, values skipped unread.
    pub(crate) fn raw_keys(&self) -> RawKeys<'a> {
        RawKeys {
            data: self.data,
            pos: 4,
        }
    }

    /// The number of entries (counted by skipping from one to the next).
    pub fn len(&self) -> usize {
        self.raw_keys().count()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.data.get(4).map_or(true, |&t| t == 0)
    }

    /// The document's bytes, length prefix through terminator.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The owned model of this document (strings still borrowed from the bytes).
    pub fn to_document(&self) -> Result<Document<'a>> {
        bson_read::read_document(self.data, 0, usize::MAX)
    }
}

impl<'a> IntoIterator for DocumentRef<'a> {
    type Item = (&'a str, ValueRef<'a>);
    type IntoIter = Entries<'a>;
    fn into_iter(self) -> Entries<'a> {
        self.iter()
    }
}

/// The entries of a [`DocumentRef`]: `(key, value)` in file order.
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a str, ValueRef<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let t = *self.data.get(self.pos)?;
        if t == 0 {
            return None;
        }
        let (key, at) = cstr_at(self.data, self.pos + 1);
        let (v, next) = value_at(self.data, t, at);
        self.pos = next;
        Some((key, v))
    }
}

/// One entry of a document with its place in the document's bytes (offsets from the
/// document's length prefix).
#[derive(Debug, Clone, Copy)]
pub struct Element<'a> {
    /// The key.
    pub key: &'a str,
    /// The value.
    pub value: ValueRef<'a>,
    /// Where the element starts (its type byte).
    pub start: usize,
    /// Where its value starts (after the key's NUL).
    pub value_start: usize,
    /// Where it ends.
    pub end: usize,
}

/// The entries of a [`DocumentRef`] with their places ([`DocumentRef::elements`]).
#[derive(Debug, Clone)]
pub struct Elements<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = Element<'a>;

    fn next(&mut self) -> Option<Element<'a>> {
        let t = *self.data.get(self.pos)?;
        if t == 0 {
            return None;
        }
        let start = self.pos;
        let (key, at) = cstr_at(self.data, self.pos + 1);
        let (value, next) = value_at(self.data, t, at);
        self.pos = next;
        Some(Element {
            key,
            value,
            start,
            value_start: at,
            end: next,
        })
    }
}

/// A checked BSON array, borrowed (on the wire, a document keyed "0", "1", ...; the
/// keys are not checked, as the owned reader does not check them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayRef<'a> {
    doc: DocumentRef<'a>,
}

impl<'a> ArrayRef<'a> {
    /// The items in order.
    pub fn iter(&self) -> Items<'a> {
        Items(self.doc.iter())
    }

    /// The item at `index` (the items before it are skipped unread).
    pub fn get(&self, index: usize) -> Option<ValueRef<'a>> {
        let mut keys = self.doc.raw_keys();
        for _ in 0..index {
            keys.next()?;
        }
        let t = *keys.data.get(keys.pos)?;
        if t == 0 {
            return None;
        }
        let n = memchr::memchr(0, keys.data.get(keys.pos + 1..)?)?;
        Some(value_at(keys.data, t, keys.pos + 2 + n).0)
    }

    /// The number of items (counted by skipping from one to the next).
    pub fn len(&self) -> usize {
        self.doc.len()
    }

    /// True when there are no items.
    pub fn is_empty(&self) -> bool {
        self.doc.is_empty()
    }

    /// The array's bytes, length prefix through terminator.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.doc.data
    }

    /// The array as a document, with its stored keys.
    pub fn as_document(&self) -> DocumentRef<'a> {
        self.doc
    }
}

impl<'a> IntoIterator for ArrayRef<'a> {
    type Item = ValueRef<'a>;
    type IntoIter = Items<'a>;
    fn into_iter(self) -> Items<'a> {
        self.iter()
    }
}

/// The items of an [`ArrayRef`].
#[derive(Debug, Clone)]
pub struct Items<'a>(Entries<'a>);

impl<'a> Iterator for Items<'a> {
    type Item = ValueRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<ValueRef<'a>> {
        self.0.next().map(|(_, v)| v)
    }
}

/// One BSON value in checked bytes, borrowed; the variants are those of [`Value`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    /// 0x01: a 64-bit float.
    Double(f64),
    /// 0x02: a UTF-8 string.
    String(&'a str),
    /// 0x03: an embedded document.
    Document(DocumentRef<'a>),
    /// 0x04: an array.
    Array(ArrayRef<'a>),
    /// 0x05: binary data with its subtype.
    Binary {
        /// The subtype byte.
        subtype: u8,
        /// The bytes.
        bytes: &'a [u8],
    },
    /// 0x06: undefined (deprecated).
    Undefined,
    /// 0x07: a 12-byte ObjectId.
    ObjectId([u8; 12]),
    /// 0x08: a boolean.
    Bool(bool),
    /// 0x09: UTC milliseconds since the Unix epoch.
    DateTime(i64),
    /// 0x0A: null.
    Null,
    /// 0x0B: a regular expression.
    Regex {
        /// The pattern.
        pattern: &'a str,
        /// The options letters.
        options: &'a str,
    },
    /// 0x0C: a DBPointer (deprecated).
    DbPointer {
        /// The namespace.
        namespace: &'a str,
        /// The ObjectId.
        id: [u8; 12],
    },
    /// 0x0D: JavaScript code.
    JavaScript(&'a str),
    /// 0x0E: a symbol (deprecated).
    Symbol(&'a str),
    /// 0x0F: JavaScript code with a scope document.
    JavaScriptWithScope {
        /// The code.
        code: &'a str,
        /// The scope.
        scope: DocumentRef<'a>,
    },
    /// 0x10: a 32-bit integer.
    Int32(i32),
    /// 0x11: a MongoDB timestamp.
    Timestamp {
        /// Seconds since the epoch (high half).
        time: u32,
        /// Ordinal (low half).
        increment: u32,
    },
    /// 0x12: a 64-bit integer.
    Int64(i64),
    /// 0x13: a decimal128, as its 16 little-endian bytes.
    Decimal128([u8; 16]),
    /// 0xFF: min key.
    MinKey,
    /// 0x7F: max key.
    MaxKey,
}

impl<'a> ValueRef<'a> {
    /// The BSON element type byte.
    pub fn element_type(&self) -> u8 {
        match self {
            ValueRef::Double(_) => 0x01,
            ValueRef::String(_) => 0x02,
            ValueRef::Document(_) => 0x03,
            ValueRef::Array(_) => 0x04,
            ValueRef::Binary { .. } => 0x05,
            ValueRef::Undefined => 0x06,
            ValueRef::ObjectId(_) => 0x07,
            ValueRef::Bool(_) => 0x08,
            ValueRef::DateTime(_) => 0x09,
            ValueRef::Null => 0x0a,
            ValueRef::Regex { .. } => 0x0b,
            ValueRef::DbPointer { .. } => 0x0c,
            ValueRef::JavaScript(_) => 0x0d,
            ValueRef::Symbol(_) => 0x0e,
            ValueRef::JavaScriptWithScope { .. } => 0x0f,
            ValueRef::Int32(_) => 0x10,
            ValueRef::Timestamp { .. } => 0x11,
            ValueRef::Int64(_) => 0x12,
            ValueRef::Decimal128(_) => 0x13,
            ValueRef::MinKey => 0xff,
            ValueRef::MaxKey => 0x7f,
        }
    }

    /// The type's short name, as [`Value::type_name`] gives it.
    pub fn type_name(&self) -> &'static str {
        match self {
            ValueRef::Double(_) => "double",
            ValueRef::String(_) => "string",
            ValueRef::Document(_) => "document",
            ValueRef::Array(_) => "array",
            ValueRef::Binary { .. } => "binary",
            ValueRef::Undefined => "undefined",
            ValueRef::ObjectId(_) => "objectId",
            ValueRef::Bool(_) => "bool",
            ValueRef::DateTime(_) => "datetime",
            ValueRef::Null => "null",
            ValueRef::Regex { .. } => "regex",
            ValueRef::DbPointer { .. } => "dbPointer",
            ValueRef::JavaScript(_) => "javascript",
            ValueRef::Symbol(_) => "symbol",
            ValueRef::JavaScriptWithScope { .. } => "javascriptWithScope",
            ValueRef::Int32(_) => "int32",
            ValueRef::Timestamp { .. } => "timestamp",
            ValueRef::Int64(_) => "int64",
            ValueRef::Decimal128(_) => "decimal128",
            ValueRef::MinKey => "minKey",
            ValueRef::MaxKey => "maxKey",
        }
    }

    /// The string, when this is a string.
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            ValueRef::String(s) => Some(s),
            _ => None,
        }
    }

    /// The document, when this is a document.
    pub fn as_document(&self) -> Option<DocumentRef<'a>> {
        match *self {
            ValueRef::Document(d) => Some(d),
            _ => None,
        }
    }

    /// The array, when this is an array.
    pub fn as_array(&self) -> Option<ArrayRef<'a>> {
        match *self {
            ValueRef::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The integer, when this is an int32 (only).
    pub fn as_i32(&self) -> Option<i32> {
        match *self {
            ValueRef::Int32(i) => Some(i),
            _ => None,
        }
    }

    /// The integer, when this is an int32 or int64 (as [`Value::as_i64`]).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            ValueRef::Int32(i) => Some(i.into()),
            ValueRef::Int64(i) => Some(i),
            _ => None,
        }
    }

    /// The number, when this is a double, int32 or int64 (as [`Value::as_f64`]).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            ValueRef::Double(d) => Some(d),
            ValueRef::Int32(i) => Some(i.into()),
            ValueRef::Int64(i) => Some(i as f64),
            _ => None,
        }
    }

    /// The boolean, when this is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            ValueRef::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The milliseconds since the epoch, when this is a datetime.
    pub fn as_datetime(&self) -> Option<i64> {
        match *self {
            ValueRef::DateTime(t) => Some(t),
            _ => None,
        }
    }

    /// The subtype and bytes, when this is binary data.
    pub fn as_binary(&self) -> Option<(u8, &'a [u8])> {
        match *self {
            ValueRef::Binary { subtype, bytes } => Some((subtype, bytes)),
            _ => None,
        }
    }

    /// True when this is null.
    pub fn is_null(&self) -> bool {
        matches!(self, ValueRef::Null)
    }

    /// The owned model of this value (strings still borrowed from the bytes).
    pub fn to_value(&self) -> Result<Value<'a>> {
        Ok(match *self {
            ValueRef::Document(d) => Value::Document(d.to_document()?),
            ValueRef::Array(a) => Value::Array(
                a.doc
                    .to_document()?
                    .entries
                    .into_owned()
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect(),
            ),
            ValueRef::JavaScriptWithScope { code, scope } => {
                Value::JavaScriptWithScope(Box::new(CodeWithScope {
                    code: Cow::Borrowed(code),
                    scope: scope.to_document()?,
                }))
            }
            leaf => leaf.leaf_value(),
        })
    }

    /// The owned model of a value that is not a container (a container gives null: it
    /// needs [`Self::to_value`]).
    #[inline]
    pub(crate) fn leaf_value(self) -> Value<'a> {
        match self {
            ValueRef::Double(d) => Value::Double(d),
            ValueRef::String(s) => Value::String(Cow::Borrowed(s)),
            ValueRef::Binary { subtype, bytes } => Value::Binary {
                subtype,
                bytes: Cow::Borrowed(bytes),
            },
            ValueRef::Undefined => Value::Undefined,
            ValueRef::ObjectId(o) => Value::ObjectId(o),
            ValueRef::Bool(b) => Value::Bool(b),
            ValueRef::DateTime(t) => Value::DateTime(t),
            ValueRef::Null => Value::Null,
            ValueRef::Regex { pattern, options } => Value::Regex(Box::new(Regex {
                pattern: Cow::Borrowed(pattern),
                options: Cow::Borrowed(options),
            })),
            ValueRef::DbPointer { namespace, id } => Value::DbPointer(Box::new(DbPointer {
                namespace: Cow::Borrowed(namespace),
                id,
            })),
            ValueRef::JavaScript(s) => Value::JavaScript(Cow::Borrowed(s)),
            ValueRef::Symbol(s) => Value::Symbol(Cow::Borrowed(s)),
            ValueRef::Int32(i) => Value::Int32(i),
            ValueRef::Timestamp { time, increment } => Value::Timestamp { time, increment },
            ValueRef::Int64(i) => Value::Int64(i),
            ValueRef::Decimal128(b) => Value::Decimal128(b),
            ValueRef::MinKey => Value::MinKey,
            ValueRef::MaxKey => Value::MaxKey,
            ValueRef::Document(_) | ValueRef::Array(_) | ValueRef::JavaScriptWithScope { .. } => {
                Value::Null
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_of(doc: &Document<'_>) -> Vec<u8> {
        crate::bson_write::to_vec(doc, 64).unwrap()
    }

    #[test]
    fn typed_accessors_keep_int32_int64_and_double_apart() {
        let mut inner = Document::new();
        inner.push("t", Value::DateTime(-5));
        let mut doc = Document::new();
        doc.push("a", Value::Int32(-3));
        doc.push("b", Value::Int64(1 << 40));
        doc.push("c", Value::Double(0.5));
        doc.push("d", Value::Bool(true));
        doc.push("e", Value::Null);
        doc.push(
            "f",
            Value::Binary {
                subtype: 4,
                bytes: Cow::Borrowed(&[1, 2, 3]),
            },
        );
        doc.push(
            "g",
            Value::Array(vec![Value::Document(inner), Value::Int32(9)].into()),
        );
        let b = bytes_of(&doc);
        let view = BsonView::new(&b, &Options::default()).unwrap();
        let r = view.root();
        assert_eq!(r.len(), 7);
        assert_eq!(r.get("a").unwrap().as_i32(), Some(-3));
        assert_eq!(r.get("a").unwrap().as_i64(), Some(-3));
        assert_eq!(r.get("b").unwrap().as_i32(), None);
        assert_eq!(r.get("b").unwrap().as_i64(), Some(1 << 40));
        assert_eq!(r.get("c").unwrap().as_f64(), Some(0.5));
        assert_eq!(r.get("c").unwrap().as_i64(), None);
        assert_eq!(r.get("d").unwrap().as_bool(), Some(true));
        assert!(r.get("e").unwrap().is_null());
        assert_eq!(r.get("f").unwrap().as_binary(), Some((4, &[1u8, 2, 3][..])));
        assert_eq!(
            r.lookup(&["g", "0", "t"]).and_then(|v| v.as_datetime()),
            Some(-5)
        );
        assert_eq!(r.lookup(&["g", "1"]).and_then(|v| v.as_i32()), Some(9));
        assert_eq!(r.lookup(&["g", "2"]), None);
        assert_eq!(r.get("zz"), None);
        assert_eq!(r.to_document().unwrap(), doc);
    }

    #[test]
    fn faults_give_the_owned_readers_error() {
        let mut doc = Document::new();
        doc.push("k", Value::Bool(true));
        let mut b = bytes_of(&doc);
        let at = b.len() - 2;
        b[at] = 7;
        let ours = BsonView::with_base(&b, 10, 64).unwrap_err().to_string();
        let owned = bson_read::read_document(&b, 10, 64)
            .unwrap_err()
            .to_string();
        assert_eq!(ours, owned);
        assert!(ours.contains("boolean"), "{ours}");
    }
}
