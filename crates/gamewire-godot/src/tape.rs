//! A borrowed, allocation-light reading of Variant bytes: a tape.
//!
//! [`Tape::new`] checks the bytes exactly as [`decode`](crate::decode) does and records
//! one 8-byte entry per value (where its header is, and for containers where their
//! children end) instead of building an owned [`Value`] tree. Strings, names and packed
//! arrays stay in the input and are borrowed from it; nothing else is allocated. The
//! values are then read through [`ValueRef`]: type, scalars, text, the items of an
//! Array, the entries of a Dictionary, looking a key up, or an owned [`Value`] of any
//! part. This is for servers reading packets and tools scanning files; the owned
//! [`Value`] is for editing.
//!
//! ```
//! use gamewire_godot::{encode, EncodeOptions, Value, Version, tape::Tape};
//! let v = Value::from(vec![Value::from("hp"), Value::Int(87)]);
//! let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
//! let tape = Tape::new(&bytes, Version::V4).unwrap();
//! let items: Vec<_> = tape.root().items().collect();
//! assert_eq!(items[0].as_str(), Some("hp"));
//! assert_eq!(items[1].as_int(), Some(87));
//! ```
//!
//! The tape is a sink of the one reader of the grammar ([`crate::walk`]), as the owned
//! tree is, so bad input gives the very error [`decode`](crate::decode) gives (offset,
//! path and message).

use crate::decode::decode_part_at;
use crate::header::*;
use crate::walk::{Elem, Leaf, Sink, Walker};
use crate::{DecodeOptions, Kind, Value, Version};
use gamewire_core::{Error, ErrorKind, Reader, Result};

/// One value on the tape: the offset of its header in the input, and the index of the
/// entry after its last descendant (for a value with no children, its own index + 1).
/// Property names and packed string elements have no header: their `start` points at
/// their length and carries [`BARE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    start: u32,
    end: u32,
}

/// Marks an [`Entry`] whose `start` is a bare string's length, not a header.
const BARE: u32 = 1 << 31;

/// Marks, in `end`, a bare string that is a PackedStringArray element (whose length
/// counts a trailing NUL, dropped from the text).
const PACKED: u32 = 1 << 31;

impl Entry {
    /// The index after this entry's last descendant.
    #[inline]
    fn end(self) -> usize {
        (self.end & !PACKED) as usize
    }
}

/// Variant bytes checked and indexed, borrowing the input. See the module docs.
#[derive(Debug, Clone)]
pub struct Tape<'a> {
    data: &'a [u8],
    opts: DecodeOptions,
    entries: std::borrow::Cow<'a, [Entry]>,
}

/// A tape's index kept apart from the bytes it indexes ([`Tape::into_index`]), so that a
/// program can hold the bytes and the index together and read them again as a
/// [`Tape`] without reading them through the grammar a second time
/// ([`TapeIndex::tape`]: only their length and a hash of their content are checked).
#[derive(Debug, Clone)]
pub struct TapeIndex {
    len: usize,
    /// The XXH3 (64-bit) hash of the bytes indexed.
    hash: u64,
    opts: DecodeOptions,
    entries: Vec<Entry>,
}

/// The content check of the bytes a [`TapeIndex`] indexes: XXH3 (64 bits), some
/// gigabytes a second.
fn content_hash(data: &[u8]) -> u64 {
    twox_hash::XxHash3_64::oneshot(data)
}

impl TapeIndex {
    /// The tape of `data`, which must be the bytes this index was made from: checked by
    /// length and by a hash of the content (a pass over the bytes), else an error.
    pub fn tape<'a>(&'a self, data: &'a [u8]) -> Result<Tape<'a>> {
        let tape = self.of_length(data)?;
        if content_hash(data) != self.hash {
            return Err(Error::msg(format!(
                "these {} bytes are not the ones this tape index was made from (their \
                 content differs)",
                data.len()
            )));
        }
        Ok(tape)
    }

    /// The tape of `data` for a holder that keeps this index with the very bytes it was
    /// made from and never changes them (the view of `gamewire view`): only the length
    /// is checked, not the content, so reading again costs nothing in proportion to the
    /// bytes. Other bytes of the same length give wrong values, or a panic where an
    /// offset falls outside them: use [`TapeIndex::tape`] unless the bytes are known.
    pub fn tape_of_own<'a>(&'a self, data: &'a [u8]) -> Result<Tape<'a>> {
        let tape = self.of_length(data)?;
        debug_assert_eq!(content_hash(data), self.hash, "not the index's bytes");
        Ok(tape)
    }

    /// The tape of `data` if it has the length indexed.
    fn of_length<'a>(&'a self, data: &'a [u8]) -> Result<Tape<'a>> {
        if data.len() != self.len {
            return Err(Error::msg(format!(
                "this tape index is of {} bytes, not {}",
                self.len,
                data.len()
            )));
        }
        Ok(Tape {
            data,
            opts: self.opts,
            entries: std::borrow::Cow::Borrowed(&self.entries),
        })
    }

    /// The number of values indexed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no value is indexed (never: an index holds at least the top value).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The largest input a tape indexes (offsets are 31-bit).
pub const MAX_INPUT: usize = (BARE - 1) as usize;

impl<'a> Tape<'a> {
    /// Checks and indexes one Variant that fills `data` exactly, with default options.
    pub fn new(data: &'a [u8], version: Version) -> Result<Self> {
        Self::with_options(data, &DecodeOptions::new(version))
    }

    /// Checks and indexes one Variant that fills `data` exactly.
    pub fn with_options(data: &'a [u8], opts: &DecodeOptions) -> Result<Self> {
        if data.len() > MAX_INPUT {
            return Err(Error::msg(format!(
                "a tape indexes inputs of up to 2 GiB; this one has {} bytes",
                data.len()
            )));
        }
        let mut sink = TapeSink {
            // Every value takes at least 4 bytes; most in game data take 8 to 16.
            entries: Vec::with_capacity(data.len() / 12 + 4),
        };
        let mut w = Walker::new(Reader::new(data), opts);
        w.value(&mut sink, 0)?;
        let used = w.r.pos();
        if used != data.len() {
            return Err(Error::at(
                used,
                ErrorKind::TrailingBytes {
                    count: data.len() - used,
                },
            ));
        }
        Ok(Tape {
            data,
            opts: *opts,
            entries: std::borrow::Cow::Owned(sink.entries),
        })
    }

    /// The top value.
    pub fn root(&self) -> ValueRef<'_, 'a> {
        ValueRef { tape: self, i: 0 }
    }

    /// The number of values on the tape (every value at any depth).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a tape with no values (never: a tape holds at least its top value).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The input the tape borrows.
    pub fn input(&self) -> &'a [u8] {
        self.data
    }

    /// The options the input was checked with.
    pub fn options(&self) -> &DecodeOptions {
        &self.opts
    }

    /// The index alone, to be read again with the same bytes ([`TapeIndex::tape`]).
    pub fn into_index(self) -> TapeIndex {
        TapeIndex {
            len: self.data.len(),
            hash: content_hash(self.data),
            opts: self.opts,
            entries: self.entries.into_owned(),
        }
    }
}

/// The tape sink: one [`Entry`] per value, pushed before its children; containers
/// get their `end` when they close.
struct TapeSink {
    entries: Vec<Entry>,
}

impl TapeSink {
    #[inline(always)]
    fn push(&mut self, start: usize, bare: bool, packed: bool) -> usize {
        let i = self.entries.len();
        self.entries.push(Entry {
            start: start as u32 | if bare { BARE } else { 0 },
            end: (i as u32 + 1) | if packed { PACKED } else { 0 },
        });
        i
    }

    #[inline(always)]
    fn close(&mut self, i: usize) {
        self.entries[i].end = self.entries.len() as u32;
    }
}

impl<'a> Sink<'a> for TapeSink {
    type Out = ();
    type Seq = usize;
    type Map = usize;
    type Obj = usize;
    type Strings = usize;
    type Path = ();
    const NEEDS_TEXT: bool = false;

    #[inline(always)]
    fn bool(&mut self, start: usize, _: bool) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn int(&mut self, start: usize, _: i64) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn float(&mut self, start: usize, _: f64) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn vector3(&mut self, start: usize, _: [f32; 3]) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn string(&mut self, start: usize, _: bool, _: &'a str) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn leaf(&mut self, start: usize, _: Leaf<'a>) {
        self.push(start, false, false);
    }
    #[inline(always)]
    fn array_begin(&mut self, start: usize, _: usize, _: Elem<'a>) -> usize {
        self.push(start, false, false)
    }
    #[inline(always)]
    fn array_item(&mut self, _: &mut usize, _: ()) {}
    #[inline(always)]
    fn array_end(&mut self, i: usize) {
        self.close(i);
    }
    #[inline(always)]
    fn dict_begin(&mut self, start: usize, _: usize, _: Option<(Elem<'a>, Elem<'a>)>) -> usize {
        self.push(start, false, false)
    }
    #[inline(always)]
    fn dict_entry(&mut self, _: &mut usize, _: (), _: ()) {}
    #[inline(always)]
    fn dict_end(&mut self, i: usize) {
        self.close(i);
    }
    fn object_begin(&mut self, start: usize, _: &'a str, _: usize) -> usize {
        self.push(start, false, false)
    }
    fn object_name(&mut self, _: &mut usize, at: usize, _: &'a str) {
        // The property name, as a String entry of its own.
        self.push(at, true, false);
    }
    fn object_value(&mut self, _: &mut usize, _: ()) {}
    fn object_end(&mut self, i: usize) {
        self.close(i);
    }
    fn strings_begin(&mut self, start: usize, _: usize) -> usize {
        self.push(start, false, false)
    }
    fn strings_item(&mut self, _: &mut usize, at: usize, _: &'a str) {
        self.push(at, true, true);
    }
    fn strings_end(&mut self, i: usize) {
        self.close(i);
    }
    fn path_begin(&mut self, start: usize, _: usize, _: usize, _: bool) {
        self.push(start, false, false);
    }
    fn path_name(&mut self, _: &mut (), _: &'a str, _: &'a [u8]) {}
    fn path_end(&mut self, _: ()) {}
}

/// One value on a [`Tape`]: its type, its scalar or text, its children.
#[derive(Debug, Clone, Copy)]
pub struct ValueRef<'t, 'a> {
    tape: &'t Tape<'a>,
    i: usize,
}

impl<'t, 'a> ValueRef<'t, 'a> {
    fn entry(&self) -> Entry {
        self.tape.entries[self.i]
    }

    fn start(&self) -> usize {
        (self.entry().start & !BARE) as usize
    }

    fn word(&self, at: usize) -> u32 {
        let b = &self.tape.data[at..at + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn dword(&self, at: usize) -> u64 {
        let b = &self.tape.data[at..at + 8];
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    }

    /// True for the entries of property names and packed string elements, which sit
    /// on the tape as strings with no header of their own.
    fn is_bare_string(&self) -> bool {
        self.entry().start & BARE != 0
    }

    /// The tape this value is on.
    pub(crate) fn tape(&self) -> &'t Tape<'a> {
        self.tape
    }

    /// The header word (type id and flags); a bare string reads as a String's.
    pub(crate) fn header(&self) -> u32 {
        if self.is_bare_string() {
            return Kind::String
                .id(self.tape.opts.version)
                .expect("in every version");
        }
        self.word(self.start())
    }

    /// The value's type.
    pub fn kind(&self) -> Kind {
        Kind::from_id(self.header() & TYPE_MASK, self.tape.opts.version)
            .expect("checked when the tape was built")
    }

    /// True for `null`.
    pub fn is_nil(&self) -> bool {
        self.kind() == Kind::Nil
    }

    /// The value of a `bool`.
    pub fn as_bool(&self) -> Option<bool> {
        (self.kind() == Kind::Bool).then(|| self.word(self.start() + 4) != 0)
    }

    /// The value of an `int`.
    pub fn as_int(&self) -> Option<i64> {
        if self.kind() != Kind::Int {
            return None;
        }
        Some(if self.header() & FLAG_64 != 0 {
            self.dword(self.start() + 4) as i64
        } else {
            self.word(self.start() + 4) as i32 as i64
        })
    }

    /// The value of a `float`.
    pub fn as_float(&self) -> Option<f64> {
        if self.kind() != Kind::Float {
            return None;
        }
        Some(if self.header() & FLAG_64 != 0 {
            f64::from_bits(self.dword(self.start() + 4))
        } else {
            f32::from_bits(self.word(self.start() + 4)) as f64
        })
    }

    /// The text of a `String` or `StringName` (also of a property name or a packed
    /// string element), borrowed from the input.
    pub fn as_str(&self) -> Option<&'a str> {
        let at = if self.is_bare_string() {
            self.start()
        } else if matches!(self.kind(), Kind::String | Kind::StringName) {
            self.start() + 4
        } else {
            return None;
        };
        let mut len = self.word(at) as usize;
        let bytes = &self.tape.data[at + 4..at + 4 + len];
        if self.entry().end & PACKED != 0 && len > 0 && bytes[len - 1] == 0 {
            len -= 1;
        }
        std::str::from_utf8(&bytes[..len]).ok()
    }

    /// The components of a math type (Vector2/3/4, Rect2, Plane, Quaternion, AABB,
    /// Basis, Transform2D/3D, Projection, Color) as `f64`, in wire order.
    pub fn reals(&self) -> Option<Vec<f64>> {
        match self.to_value() {
            Value::Vector2(r) => Some(r.to_f64().to_vec()),
            Value::Vector3(r) => Some(r.to_f64().to_vec()),
            Value::Rect2(r) | Value::Vector4(r) | Value::Plane(r) | Value::Quaternion(r) => {
                Some(r.to_f64().to_vec())
            }
            Value::Transform2D(r) | Value::Aabb(r) => Some(r.to_f64().to_vec()),
            Value::Basis(r) => Some(r.to_f64().to_vec()),
            Value::Transform3D(r) => Some(r.to_f64().to_vec()),
            Value::Projection(r) => Some(r.to_f64().to_vec()),
            Value::Color(c) => Some(c.iter().map(|&x| x as f64).collect()),
            _ => None,
        }
    }

    /// The number of items of an Array or PackedStringArray, entries of a Dictionary,
    /// or properties of a full Object; 0 for other values.
    pub fn len(&self) -> usize {
        let children = self.entry().end() - self.i - 1;
        if children == 0 {
            return 0;
        }
        match self.kind() {
            Kind::Dictionary | Kind::Object => self.children().count() / 2,
            _ => self.children().count(),
        }
    }

    /// True when [`ValueRef::len`] is 0.
    pub fn is_empty(&self) -> bool {
        self.entry().end() == self.i + 1
    }

    /// The direct children in order: Array items, PackedStringArray elements, or for
    /// a Dictionary keys and values alternating (see [`ValueRef::entries`]).
    pub fn children(&self) -> Children<'t, 'a> {
        Children {
            tape: self.tape,
            next: self.i + 1,
            end: self.entry().end(),
        }
    }

    /// The items of an Array (or PackedStringArray); nothing for other values.
    pub fn items(&self) -> Children<'t, 'a> {
        match self.kind() {
            Kind::Array | Kind::PackedStringArray => self.children(),
            _ => Children {
                tape: self.tape,
                next: 0,
                end: 0,
            },
        }
    }

    /// The entries of a Dictionary (key, value), or the properties of a full Object
    /// (name, value); nothing for other values.
    pub fn entries(&self) -> Entries<'t, 'a> {
        let children = match self.kind() {
            Kind::Dictionary | Kind::Object => self.children(),
            _ => Children {
                tape: self.tape,
                next: 0,
                end: 0,
            },
        };
        Entries(children)
    }

    /// The value under a String key of a Dictionary (the last one, as the engine keeps
    /// the last of repeated keys).
    pub fn get(&self, key: &str) -> Option<ValueRef<'t, 'a>> {
        let mut found = None;
        for (k, v) in self.entries() {
            if k.as_str() == Some(key) && matches!(k.kind(), Kind::String) {
                found = Some(v);
            }
        }
        found
    }

    /// This value as an owned [`Value`] (decoded from its bytes).
    pub fn to_value(&self) -> Value {
        if self.is_bare_string() {
            return Value::String(self.as_str().unwrap_or_default().into());
        }
        let data = &self.tape.data[self.start()..];
        decode_part_at(data, self.start(), &self.tape.opts)
            .expect("checked when the tape was built")
    }

    /// Where this value's bytes are in the input: its header (for a property name or a
    /// packed string element, its length) through its last byte (padding included).
    pub fn range(&self) -> std::ops::Range<usize> {
        let end = self.entry().end();
        let stop = match self.tape.entries.get(end) {
            Some(next) => (next.start & !BARE) as usize,
            None => self.tape.data.len(),
        };
        self.start()..stop
    }

    /// True for a property name or a packed string element (a string with no header).
    pub fn is_bare(&self) -> bool {
        self.is_bare_string()
    }

    /// Where this value's children start in the input (the end of its own bytes for a
    /// value with none): for a container, the end of its header, element types and
    /// count.
    pub fn children_start(&self) -> usize {
        match self.tape.entries.get(self.i + 1) {
            Some(next) if self.entry().end() > self.i + 1 => (next.start & !BARE) as usize,
            _ => self.range().end,
        }
    }

    /// The bytes of this value's payload after its header, up to the end of the input
    /// (for readers of packed arrays: the count, then the elements).
    pub fn payload(&self) -> &'a [u8] {
        &self.tape.data[self.start() + 4..]
    }
}

/// The direct children of a value on a [`Tape`].
#[derive(Debug, Clone)]
pub struct Children<'t, 'a> {
    tape: &'t Tape<'a>,
    next: usize,
    end: usize,
}

impl<'t, 'a> Iterator for Children<'t, 'a> {
    type Item = ValueRef<'t, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let v = ValueRef {
            tape: self.tape,
            i: self.next,
        };
        self.next = self.tape.entries[self.next].end();
        Some(v)
    }
}

/// The (key, value) entries of a Dictionary on a [`Tape`].
#[derive(Debug, Clone)]
pub struct Entries<'t, 'a>(Children<'t, 'a>);

impl<'t, 'a> Iterator for Entries<'t, 'a> {
    type Item = (ValueRef<'t, 'a>, ValueRef<'t, 'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let k = self.0.next()?;
        let v = self.0.next()?;
        Some((k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{encode, EncodeOptions};

    /// A kept index reads its own bytes again; other bytes (of another length, or of the
    /// same length with other content) are an error, never a panic.
    #[test]
    fn an_index_reads_only_the_bytes_it_was_made_from() {
        let v = Value::from(vec![Value::from("hp"), Value::Int(87)]);
        let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
        let index = Tape::new(&bytes, Version::V4).unwrap().into_index();
        let tape = index.tape(&bytes).unwrap();
        assert_eq!(tape.root().items().nth(1).unwrap().as_int(), Some(87));
        assert!(index.tape(&bytes[1..]).is_err());
        // The same length, one byte changed: the text "hp" becomes "hq".
        let mut other = bytes.clone();
        let at = other.windows(2).position(|w| w == b"hp").unwrap();
        other[at + 1] = b'q';
        let e = index.tape(&other).unwrap_err().to_string();
        assert!(e.contains("content differs"), "{e}");
        // Its holder's own bytes: the same tape, with no pass over them; a length
        // other than the index's is still refused.
        let own = index.tape_of_own(&bytes).unwrap();
        assert_eq!(own.root().to_value(), tape.root().to_value());
        assert_eq!(own.len(), tape.len());
        let e = index.tape_of_own(&bytes[1..]).unwrap_err().to_string();
        assert!(e.contains("not"), "{e}");
    }
}
