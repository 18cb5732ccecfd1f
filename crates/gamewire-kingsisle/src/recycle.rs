//! The memory of trees already used, kept for the next decode: [`Recycler`].
//!
//! An owned tree takes one allocation per object (its properties) and one per list (its
//! elements). Dropped, a large tree goes back to the allocator, and glibc's `malloc`
//! hands what lies at the top of its heap back to the kernel (anything over 128 KiB by
//! default). The next decode of a large file then has the kernel fault every page in
//! again: on a file of 1,000,000 objects that is half the decode's time
//! (docs/PERFORMANCE.md). A [`Recycler`] takes a tree apart instead of dropping it and
//! keeps its property arrays and element vectors; [`decode_with`] and
//! [`crate::bind::decode_with`] build the next tree in them, so a process that decodes
//! file after file stops asking the kernel for memory.
//!
//! ```
//! use gamewire_kingsisle::recycle::{decode_with, Recycler};
//! use gamewire_kingsisle::{encode, Document, Object, Options, TypeList, Value};
//! let types = TypeList::from_json(br#"{"version": 2, "classes": {"7": {"name": "class A",
//!   "hash": 7, "bases": [], "singleton": false, "properties": {"m_x": {"type": "int",
//!   "id": 0, "offset": 8, "flags": 31, "container": "Static", "dynamic": false,
//!   "pointer": false, "hash": 5, "enum_options": {}}}}}}"#).unwrap();
//! let doc = Document { root: Object::new(7, vec![(5, Value::Int(-3))]), ..Document::default() };
//! let data = encode(&doc, &types, &Options::default()).unwrap();
//! let mut r = Recycler::new();
//! for _ in 0..3 {
//!     let back = decode_with(&data, &types, &Options::default(), &mut r).unwrap();
//!     assert_eq!(back.root, doc.root);
//!     r.recycle(back); // instead of dropping it
//! }
//! assert!(r.kept_bytes() > 0);
//! ```

use crate::properties::Properties;
use crate::value::{Document, Object, Value};
use crate::{Options, TypeList};
use gamewire_core::Result;
use std::mem::size_of;

/// Property arrays are kept for objects of up to this many properties (larger objects
/// are rare, and each length has its own list).
const MAX_LEN: usize = 256;

/// What a [`Recycler`] keeps by default: 256 MiB.
pub const DEFAULT_LIMIT: usize = 256 << 20;

/// Allocations of trees taken apart, for the next decodes; see the [module](self).
///
/// It keeps at most its limit in bytes ([`DEFAULT_LIMIT`] unless made
/// [`Recycler::with_limit`]); what it is given beyond that is freed.
#[derive(Debug)]
pub struct Recycler {
    pub(crate) spare: Spare,
    limit: usize,
    /// Containers met while taking a tree apart (kept: its memory is reused too).
    work: Vec<Value>,
}

impl Default for Recycler {
    fn default() -> Self {
        Recycler::with_limit(DEFAULT_LIMIT)
    }
}

impl Recycler {
    /// An empty recycler that keeps up to [`DEFAULT_LIMIT`] bytes.
    pub fn new() -> Self {
        Recycler::default()
    }

    /// An empty recycler that keeps up to `bytes`.
    pub fn with_limit(bytes: usize) -> Self {
        Recycler {
            spare: Spare::default(),
            limit: bytes,
            work: Vec::new(),
        }
    }

    /// The bytes of the allocations it holds now.
    pub fn kept_bytes(&self) -> usize {
        self.spare.kept
    }

    /// Frees everything it holds.
    pub fn clear(&mut self) {
        self.spare = Spare::default();
        self.work = Vec::new();
    }

    /// Takes `doc` apart and keeps its property arrays and element vectors (up to the
    /// limit); everything else in it is dropped. Any depth is fine: it walks with a
    /// stack of its own, not the thread's.
    pub fn recycle(&mut self, doc: Document) {
        let mut work = std::mem::take(&mut self.work);
        self.object(doc.root, &mut work);
        while let Some(v) = work.pop() {
            match v {
                Value::Object(o) => self.object(o, &mut work),
                Value::List(items) => self.list(items, &mut work),
                _ => {}
            }
        }
        self.work = work;
    }

    /// Keeps the object's properties, its containers going on `work`.
    fn object(&mut self, o: Object, work: &mut Vec<Value>) {
        let limit = self.limit;
        o.properties.take_apart(
            |v| {
                if matches!(v, Value::Object(_) | Value::List(_)) {
                    work.push(v);
                }
            },
            |pairs| self.spare.put_props(pairs, limit),
        );
    }

    /// Keeps the list's vector, its objects taken apart at once and its lists put on
    /// `work`.
    fn list(&mut self, mut items: Vec<Value>, work: &mut Vec<Value>) {
        for v in items.drain(..) {
            match v {
                Value::Object(o) => self.object(o, work),
                Value::List(_) => work.push(v),
                _ => {}
            }
        }
        self.spare.put_list(items, self.limit);
    }
}

/// An object's properties kept whole: tag and value.
type Pairs = Box<[(u32, Value)]>;

/// The kept allocations, handed to the decoder's tree for one decode.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    /// Property arrays whose every pair is `(0, Value::Null)`: `props[n]` holds arrays
    /// of `n` pairs.
    props: Vec<Vec<Pairs>>,
    /// Empty element vectors.
    lists: Vec<Vec<Value>>,
    /// The empty element vector of the largest capacity, for a decode's outermost list.
    big: Option<Vec<Value>>,
    /// Bytes held.
    kept: usize,
}

impl Spare {
    /// An emptied property array of `n` pairs, if one is kept.
    #[inline]
    pub(crate) fn take_props(&mut self, n: usize) -> Option<Pairs> {
        let b = self.props.get_mut(n)?.pop()?;
        self.kept -= n * size_of::<(u32, Value)>();
        Some(b)
    }

    /// An empty element vector: the largest kept for an outermost list, else any.
    #[inline]
    pub(crate) fn take_list(&mut self, outermost: bool) -> Option<Vec<Value>> {
        let v = match (outermost, self.big.is_some()) {
            (true, true) => self.big.take(),
            _ => self.lists.pop().or_else(|| self.big.take()),
        }?;
        self.kept -= v.capacity() * size_of::<Value>();
        Some(v)
    }

    /// Keeps an array whose values were all taken (each now `Value::Null`).
    fn put_props(&mut self, pairs: Pairs, limit: usize) {
        let n = pairs.len();
        let bytes = n * size_of::<(u32, Value)>();
        if n == 0 || n > MAX_LEN || self.kept + bytes > limit {
            return;
        }
        if self.props.len() <= n {
            self.props.resize_with(n + 1, Vec::new);
        }
        self.props[n].push(pairs);
        self.kept += bytes;
    }

    /// Keeps an empty vector.
    fn put_list(&mut self, v: Vec<Value>, limit: usize) {
        let bytes = v.capacity() * size_of::<Value>();
        if bytes == 0 || self.kept + bytes > limit {
            return;
        }
        self.kept += bytes;
        match &mut self.big {
            Some(b) if b.capacity() >= v.capacity() => self.lists.push(v),
            big => {
                if let Some(old) = big.replace(v) {
                    self.lists.push(old);
                }
            }
        }
    }
}

impl Properties {
    /// Hands each value to `value` (leaving `Value::Null` in its place) and then, when
    /// the properties are one array of pairs, that array to `array`.
    fn take_apart(self, mut value: impl FnMut(Value), array: impl FnOnce(Box<[(u32, Value)]>)) {
        match self.into_pairs() {
            Ok(mut pairs) => {
                for (tag, v) in pairs.iter_mut() {
                    *tag = 0;
                    value(std::mem::replace(v, Value::Null));
                }
                array(pairs);
            }
            Err(values) => values.into_iter().for_each(value),
        }
    }
}

/// Decodes one serialized object blob as [`crate::decode`] does, building the tree in
/// the allocations `recycler` kept (and taking more from the allocator as needed).
pub fn decode_with(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    recycler: &mut Recycler,
) -> Result<Document> {
    let spare = std::mem::take(&mut recycler.spare);
    let (doc, spare) = crate::decode::decode_in(data, types, opts, spare);
    recycler.spare = spare;
    doc
}
