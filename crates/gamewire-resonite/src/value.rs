//! The lossless BSON model: every BSON element type kept apart.
//!
//! Strings, keys and binary data borrow from the decoded bytes where they can
//! ([`Cow::Borrowed`]); values built by hand or from JSON own theirs. So do the entries
//! of documents and the items of arrays: a document read into an [`Arena`] borrows
//! them from it (one allocation for the whole tree, nothing to free item by item);
//! one built by hand, or read without an arena, owns them (a [`Seq`] of either kind).
//! [`Seq::to_mut`] makes a borrowed list owned where it is to be edited.
//!
//! [`Arena`]: crate::arena::Arena

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// The entries of a [`Document`] or the items of an array: borrowed from the
/// [`Arena`](crate::arena::Arena) the tree was read into, or owned. Reads go through
/// the slice it derefs to; [`Seq::to_mut`] gives a vector to edit.
#[derive(Clone)]
pub enum Seq<'a, T> {
    /// In an arena.
    Borrowed(&'a [T]),
    /// A vector of its own.
    Owned(Vec<T>),
}

impl<T> Deref for Seq<'_, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Seq::Borrowed(s) => s,
            Seq::Owned(v) => v,
        }
    }
}

impl<T: Clone> Seq<'_, T> {
    /// The items as a vector to edit (copied out of the arena first if borrowed).
    pub fn to_mut(&mut self) -> &mut Vec<T> {
        if let Seq::Borrowed(s) = *self {
            *self = Seq::Owned(s.to_vec());
        }
        match self {
            Seq::Owned(v) => v,
            Seq::Borrowed(_) => unreachable!("made owned above"),
        }
    }

    /// The items as a vector (copied out of the arena if borrowed).
    pub fn into_owned(self) -> Vec<T> {
        match self {
            Seq::Borrowed(s) => s.to_vec(),
            Seq::Owned(v) => v,
        }
    }
}

impl<T> Default for Seq<'_, T> {
    fn default() -> Self {
        Seq::Owned(Vec::new())
    }
}

impl<T: fmt::Debug> fmt::Debug for Seq<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: PartialEq> PartialEq for Seq<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T> From<Vec<T>> for Seq<'_, T> {
    fn from(v: Vec<T>) -> Self {
        Seq::Owned(v)
    }
}

impl<'a, T> From<&'a [T]> for Seq<'a, T> {
    fn from(s: &'a [T]) -> Self {
        Seq::Borrowed(s)
    }
}

impl<T> FromIterator<T> for Seq<'_, T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Seq::Owned(iter.into_iter().collect())
    }
}

impl<'s, T> IntoIterator for &'s Seq<'_, T> {
    type Item = &'s T;
    type IntoIter = std::slice::Iter<'s, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// One BSON value. int32, int64 and double stay distinct; so do the rarer types the
/// engine never writes but a lossless tool must keep (regex, timestamp, decimal128, ...).
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// 0x01: a 64-bit float.
    Double(f64),
    /// 0x02: a UTF-8 string.
    String(Cow<'a, str>),
    /// 0x03: an embedded document.
    Document(Document<'a>),
    /// 0x04: an array (keys "0", "1", ... on the wire).
    Array(Seq<'a, Value<'a>>),
    /// 0x05: binary data with its subtype.
    Binary {
        /// The subtype byte (0 generic, 4 UUID, ...).
        subtype: u8,
        /// The bytes.
        bytes: Cow<'a, [u8]>,
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
    Regex(Box<Regex<'a>>),
    /// 0x0C: a DBPointer (deprecated).
    DbPointer(Box<DbPointer<'a>>),
    /// 0x0D: JavaScript code.
    JavaScript(Cow<'a, str>),
    /// 0x0E: a symbol (deprecated).
    Symbol(Cow<'a, str>),
    /// 0x0F: JavaScript code with a scope document.
    JavaScriptWithScope(Box<CodeWithScope<'a>>),
    /// 0x10: a 32-bit integer.
    Int32(i32),
    /// 0x11: a MongoDB timestamp (`time` high 32 bits, `increment` low 32 bits).
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

/// A regular expression (0x0B), boxed in [`Value::Regex`] to keep `Value` small.
#[derive(Debug, Clone, PartialEq)]
pub struct Regex<'a> {
    /// The pattern.
    pub pattern: Cow<'a, str>,
    /// The options letters.
    pub options: Cow<'a, str>,
}

/// A DBPointer (0x0C, deprecated), boxed in [`Value::DbPointer`].
#[derive(Debug, Clone, PartialEq)]
pub struct DbPointer<'a> {
    /// The namespace.
    pub namespace: Cow<'a, str>,
    /// The ObjectId.
    pub id: [u8; 12],
}

/// JavaScript code with a scope document (0x0F), boxed in [`Value::JavaScriptWithScope`].
#[derive(Debug, Clone, PartialEq)]
pub struct CodeWithScope<'a> {
    /// The code.
    pub code: Cow<'a, str>,
    /// The scope.
    pub scope: Document<'a>,
}

/// One entry of a [`Document`]: its key and its value.
pub type Entry<'a> = (Cow<'a, str>, Value<'a>);

/// A BSON document: keys in order, duplicates kept.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document<'a> {
    /// The entries in file order: borrowed from the [`Arena`](crate::arena::Arena) the
    /// document was read into, or owned.
    pub entries: Seq<'a, Entry<'a>>,
}

impl<'a> Document<'a> {
    /// An empty document.
    pub fn new() -> Self {
        Document {
            entries: Seq::Owned(Vec::new()),
        }
    }

    /// A document of these entries.
    pub fn from_entries(entries: Vec<Entry<'a>>) -> Self {
        Document {
            entries: Seq::Owned(entries),
        }
    }

    /// The first value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Appends an entry (the entries become owned first if they were borrowed).
    pub fn push(&mut self, key: impl Into<Cow<'a, str>>, value: Value<'a>) {
        self.entries.to_mut().push((key.into(), value));
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A copy that borrows nothing.
    pub fn into_owned(self) -> Document<'static> {
        Document {
            entries: Seq::Owned(
                self.entries
                    .into_owned()
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }
}

fn own_str(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl<'a> Value<'a> {
    /// The BSON element type byte of this value.
    pub fn element_type(&self) -> u8 {
        match self {
            Value::Double(_) => 0x01,
            Value::String(_) => 0x02,
            Value::Document(_) => 0x03,
            Value::Array(_) => 0x04,
            Value::Binary { .. } => 0x05,
            Value::Undefined => 0x06,
            Value::ObjectId(_) => 0x07,
            Value::Bool(_) => 0x08,
            Value::DateTime(_) => 0x09,
            Value::Null => 0x0a,
            Value::Regex { .. } => 0x0b,
            Value::DbPointer { .. } => 0x0c,
            Value::JavaScript(_) => 0x0d,
            Value::Symbol(_) => 0x0e,
            Value::JavaScriptWithScope { .. } => 0x0f,
            Value::Int32(_) => 0x10,
            Value::Timestamp { .. } => 0x11,
            Value::Int64(_) => 0x12,
            Value::Decimal128(_) => 0x13,
            Value::MinKey => 0xff,
            Value::MaxKey => 0x7f,
        }
    }

    /// A short name of the type, as `inspect` prints it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Document(_) => "document",
            Value::Array(_) => "array",
            Value::Binary { .. } => "binary",
            Value::Undefined => "undefined",
            Value::ObjectId(_) => "objectId",
            Value::Bool(_) => "bool",
            Value::DateTime(_) => "datetime",
            Value::Null => "null",
            Value::Regex { .. } => "regex",
            Value::DbPointer { .. } => "dbPointer",
            Value::JavaScript(_) => "javascript",
            Value::Symbol(_) => "symbol",
            Value::JavaScriptWithScope { .. } => "javascriptWithScope",
            Value::Int32(_) => "int32",
            Value::Timestamp { .. } => "timestamp",
            Value::Int64(_) => "int64",
            Value::Decimal128(_) => "decimal128",
            Value::MinKey => "minKey",
            Value::MaxKey => "maxKey",
        }
    }

    /// The string, when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The document, when this is a document.
    pub fn as_document(&self) -> Option<&Document<'a>> {
        match self {
            Value::Document(d) => Some(d),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The integer, when this is an int32 or int64.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int32(i) => Some(i.into()),
            Value::Int64(i) => Some(i),
            _ => None,
        }
    }

    /// The number, when this is a double, int32 or int64.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Double(d) => Some(d),
            Value::Int32(i) => Some(i.into()),
            Value::Int64(i) => Some(i as f64),
            _ => None,
        }
    }

    /// The boolean, when this is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// A copy that borrows nothing.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Double(d) => Value::Double(d),
            Value::String(s) => Value::String(own_str(s)),
            Value::Document(d) => Value::Document(d.into_owned()),
            Value::Array(a) => Value::Array(Seq::Owned(
                a.into_owned().into_iter().map(Value::into_owned).collect(),
            )),
            Value::Binary { subtype, bytes } => Value::Binary {
                subtype,
                bytes: Cow::Owned(bytes.into_owned()),
            },
            Value::Undefined => Value::Undefined,
            Value::ObjectId(o) => Value::ObjectId(o),
            Value::Bool(b) => Value::Bool(b),
            Value::DateTime(t) => Value::DateTime(t),
            Value::Null => Value::Null,
            Value::Regex(r) => Value::Regex(Box::new(Regex {
                pattern: own_str(r.pattern),
                options: own_str(r.options),
            })),
            Value::DbPointer(p) => Value::DbPointer(Box::new(DbPointer {
                namespace: own_str(p.namespace),
                id: p.id,
            })),
            Value::JavaScript(s) => Value::JavaScript(own_str(s)),
            Value::Symbol(s) => Value::Symbol(own_str(s)),
            Value::JavaScriptWithScope(c) => {
                let c = *c;
                Value::JavaScriptWithScope(Box::new(CodeWithScope {
                    code: own_str(c.code),
                    scope: c.scope.into_owned(),
                }))
            }
            Value::Int32(i) => Value::Int32(i),
            Value::Timestamp { time, increment } => Value::Timestamp { time, increment },
            Value::Int64(i) => Value::Int64(i),
            Value::Decimal128(b) => Value::Decimal128(b),
            Value::MinKey => Value::MinKey,
            Value::MaxKey => Value::MaxKey,
        }
    }
}
