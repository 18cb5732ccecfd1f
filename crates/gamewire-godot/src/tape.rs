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
//! Bad input gives the very error [`decode`](crate::decode) gives (offset, path and
//! message): the tape is built without error bookkeeping on its fast path, and when it
//! finds a fault the owned decoder is run to describe it.

use crate::decode::decode_prefix_at;
use crate::header::*;
use crate::{decode, DecodeOptions, Kind, Value, Version};
use gamewire_core::{Error, Result};

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
/// [`Tape`] without checking the bytes a second time ([`TapeIndex::tape`]).
#[derive(Debug, Clone)]
pub struct TapeIndex {
    len: usize,
    opts: DecodeOptions,
    entries: Vec<Entry>,
}

impl TapeIndex {
    /// The tape of `data`, which must be the bytes this index was made from (checked by
    /// length; other bytes of the same length read as garbage or panic, never as
    /// undefined behaviour).
    pub fn tape<'a>(&'a self, data: &'a [u8]) -> Result<Tape<'a>> {
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
        let mut b = Builder {
            data,
            pos: 0,
            // Every value takes at least 4 bytes; most in game data take 8 to 16.
            entries: Vec::with_capacity(data.len() / 12 + 4),
            v3: opts.version == Version::V3,
            opts: *opts,
            vector3_header: Kind::Vector3.id(opts.version).expect("in every version"),
        };
        match b.value(0) {
            Ok(()) if b.pos == data.len() => Ok(Tape {
                data,
                opts: *opts,
                entries: std::borrow::Cow::Owned(b.entries),
            }),
            // The owned decoder describes the fault: the same offset, path and message.
            _ => Err(match decode(data, opts) {
                Err(e) => e,
                Ok(_) => Error::msg("the tape and the decoder disagree on this input (a bug)"),
            }),
        }
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
            opts: self.opts,
            entries: self.entries.into_owned(),
        }
    }
}

/// Checks the input and fills the tape, with no error bookkeeping.
struct Builder<'a> {
    data: &'a [u8],
    pos: usize,
    entries: Vec<Entry>,
    v3: bool,
    opts: DecodeOptions,
    vector3_header: u32,
}

/// A fault found while building; [`Tape::with_options`] asks the owned decoder for
/// its description.
struct Fault;

type Step = std::result::Result<(), Fault>;

impl Builder<'_> {
    #[inline(always)]
    fn u32_at(&self, at: usize) -> std::result::Result<u32, Fault> {
        match self.data.get(at..at + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(Fault),
        }
    }

    #[inline(always)]
    fn skip(&mut self, n: usize) -> Step {
        if n <= self.data.len() - self.pos {
            self.pos += n;
            Ok(())
        } else {
            Err(Fault)
        }
    }

    /// A count as [`crate::decode`] reads it for packed arrays: below 2^31, and
    /// `count * size` bytes must remain after it.
    #[inline(always)]
    fn counted(&mut self, size: usize) -> std::result::Result<usize, Fault> {
        let c = self.u32_at(self.pos)?;
        if c > i32::MAX as u32 {
            return Err(Fault);
        }
        self.pos += 4;
        let n = c as usize * size;
        if n > self.data.len() - self.pos {
            return Err(Fault);
        }
        Ok(n)
    }

    /// A string: u32 length (below 2^31), UTF-8 text, zero padding to 4 bytes, all of
    /// it present.
    #[inline(always)]
    fn string(&mut self) -> Step {
        let len = self.u32_at(self.pos)? as usize;
        let padded = (len + 3) & !3;
        let start = self.pos + 4;
        let Some(text) = self.data.get(start..start + padded) else {
            return Err(Fault);
        };
        if len > i32::MAX as usize || !utf8(&text[..len]) {
            return Err(Fault);
        }
        self.pos = start + padded;
        Ok(())
    }

    /// A string read as the engine reads NodePath names and packed strings: u32
    /// length (below 2^31), `padded` bytes present, the first `text` bytes UTF-8.
    #[inline]
    fn counted_string(&mut self, packed: bool) -> Step {
        let len = self.u32_at(self.pos)?;
        if len > i32::MAX as u32 {
            return Err(Fault);
        }
        let len = len as usize;
        self.pos += 4;
        let padded = (len + 3) & !3;
        if padded > self.data.len() - self.pos {
            return Err(Fault);
        }
        let body = &self.data[self.pos..self.pos + len];
        let text = if packed && len > 0 && body[len - 1] == 0 {
            &body[..len - 1]
        } else {
            body
        };
        if !utf8(text) {
            return Err(Fault);
        }
        self.pos += padded;
        Ok(())
    }

    #[inline(always)]
    fn push_bare(&mut self, start: usize, packed: bool) {
        let i = self.entries.len() as u32;
        self.entries.push(Entry {
            start: start as u32 | BARE,
            end: (i + 1) | if packed { PACKED } else { 0 },
        });
    }

    #[inline(always)]
    fn push_leaf(&mut self, start: usize) {
        let i = self.entries.len() as u32;
        self.entries.push(Entry {
            start: start as u32,
            end: i + 1,
        });
    }

    /// One value and its descendants.
    #[inline(always)]
    fn value(&mut self, depth: usize) -> Step {
        if depth > self.opts.max_depth {
            return Err(Fault);
        }
        let start = self.pos;
        let header = self.u32_at(start)?;
        // The commonest plain types first, as the owned decoder reads them.
        match header {
            1..=3 => {
                self.skip(8)?;
                self.push_leaf(start);
                return Ok(());
            }
            4 => {
                self.pos += 4;
                self.string()?;
                self.push_leaf(start);
                return Ok(());
            }
            0x1_0002 | 0x1_0003 => {
                self.skip(12)?;
                self.push_leaf(start);
                return Ok(());
            }
            h if h == self.vector3_header => {
                self.skip(16)?;
                self.push_leaf(start);
                return Ok(());
            }
            _ => {}
        }
        self.general(start, header, depth)
    }

    #[inline(never)]
    fn general(&mut self, start: usize, header: u32, depth: usize) -> Step {
        let Some(kind) = Kind::from_id(header & TYPE_MASK, self.opts.version) else {
            return Err(Fault);
        };
        self.pos += 4;
        match kind {
            Kind::Dictionary | Kind::Array => {
                let header = if self.v3 { 0 } else { header };
                let i = self.entries.len();
                self.entries.push(Entry {
                    start: start as u32,
                    end: 0,
                });
                if kind == Kind::Dictionary {
                    if header & DICT_KEY_MASK != 0 {
                        self.container_type((header & DICT_KEY_MASK) >> DICT_KEY_SHIFT)?;
                    }
                    if header & DICT_VALUE_MASK != 0 {
                        self.container_type((header & DICT_VALUE_MASK) >> DICT_VALUE_SHIFT)?;
                    }
                } else if header & ARRAY_TYPE_MASK != 0 {
                    self.container_type((header & ARRAY_TYPE_MASK) >> ARRAY_TYPE_SHIFT)?;
                }
                let count = (self.u32_at(self.pos)? & 0x7FFF_FFFF) as usize;
                self.pos += 4;
                let per = if kind == Kind::Dictionary { 8 } else { 4 };
                if count * per > self.data.len() - self.pos {
                    return Err(Fault);
                }
                let values = if kind == Kind::Dictionary {
                    count * 2
                } else {
                    count
                };
                for _ in 0..values {
                    self.value(depth + 1)?;
                }
                self.entries[i].end = self.entries.len() as u32;
                Ok(())
            }
            Kind::Object => {
                if header & FLAG_OBJECT_AS_ID != 0 {
                    self.skip(8)?;
                    self.push_leaf(start);
                    return Ok(());
                }
                if !self.opts.allow_objects {
                    return Err(Fault);
                }
                let i = self.entries.len();
                self.entries.push(Entry {
                    start: start as u32,
                    end: 0,
                });
                let class_len = self.u32_at(self.pos)?;
                self.string()?;
                if class_len != 0 {
                    let count = self.counted(8)? / 8;
                    for _ in 0..count {
                        // The property name, as a String entry of its own.
                        let at = self.pos;
                        self.string()?;
                        self.push_bare(at, false);
                        self.value(depth + 1)?;
                    }
                }
                self.entries[i].end = self.entries.len() as u32;
                Ok(())
            }
            Kind::PackedStringArray => {
                let i = self.entries.len();
                self.entries.push(Entry {
                    start: start as u32,
                    end: 0,
                });
                let count = self.counted(4)? / 4;
                for _ in 0..count {
                    let at = self.pos;
                    self.counted_string(true)?;
                    self.push_bare(at, true);
                }
                self.entries[i].end = self.entries.len() as u32;
                Ok(())
            }
            _ => {
                self.leaf(kind, header)?;
                self.push_leaf(start);
                Ok(())
            }
        }
    }

    /// A container element type (Godot 4.3+): a type id, a class name or a script path.
    fn container_type(&mut self, kind: u32) -> Step {
        match kind {
            CONTAINER_NONE => Ok(()),
            CONTAINER_BUILTIN => {
                let id = self.u32_at(self.pos)?;
                if Kind::from_id(id, Version::V4).is_none() {
                    return Err(Fault);
                }
                self.pos += 4;
                Ok(())
            }
            _ => self.string(),
        }
    }

    /// Every type with no children: its payload is checked and skipped.
    fn leaf(&mut self, kind: Kind, header: u32) -> Step {
        let wide = !self.v3 && header & FLAG_64 != 0;
        let real = if wide { 8 } else { 4 };
        let fixed = |n: usize| Some(n);
        let size = match kind {
            Kind::Nil | Kind::Callable => fixed(0),
            Kind::Bool => fixed(4),
            Kind::Int | Kind::Float => fixed(if header & FLAG_64 != 0 { 8 } else { 4 }),
            Kind::Vector2 => fixed(2 * real),
            Kind::Rect2 | Kind::Plane | Kind::Quaternion | Kind::Vector4 => fixed(4 * real),
            Kind::Vector3 => fixed(3 * real),
            Kind::Transform2D | Kind::Aabb => fixed(6 * real),
            Kind::Basis => fixed(9 * real),
            Kind::Transform3D => fixed(12 * real),
            Kind::Projection => fixed(16 * real),
            Kind::Vector2i => fixed(8),
            Kind::Vector3i => fixed(12),
            Kind::Rect2i | Kind::Vector4i | Kind::Color => fixed(16),
            Kind::Rid => fixed(if self.v3 { 0 } else { 8 }),
            _ => None,
        };
        if let Some(n) = size {
            return self.skip(n);
        }
        match kind {
            Kind::String | Kind::StringName => self.string(),
            Kind::NodePath => self.node_path(),
            Kind::Signal => {
                self.string()?;
                self.skip(8)
            }
            Kind::PackedByteArray => {
                let n = self.counted(1)?;
                self.pos += n;
                let pad = (4 - n % 4) % 4;
                self.pos += pad.min(self.data.len() - self.pos);
                Ok(())
            }
            Kind::PackedInt32Array | Kind::PackedFloat32Array => self.packed(4),
            Kind::PackedInt64Array | Kind::PackedFloat64Array => self.packed(8),
            Kind::PackedVector2Array => self.packed(2 * real),
            Kind::PackedVector3Array => self.packed(3 * real),
            Kind::PackedColorArray => self.packed(16),
            Kind::PackedVector4Array => self.packed(4 * real),
            _ => unreachable!("{kind:?} has children or a fixed size"),
        }
    }

    fn packed(&mut self, size: usize) -> Step {
        let n = self.counted(size)?;
        self.pos += n;
        Ok(())
    }

    fn node_path(&mut self) -> Step {
        let first = self.u32_at(self.pos)?;
        if first & 0x8000_0000 == 0 {
            return Err(Fault);
        }
        let names = (first & 0x7FFF_FFFF) as u64;
        let mut subs = self.u32_at(self.pos + 4)?;
        let flags = self.u32_at(self.pos + 8)?;
        self.pos += 12;
        if flags & 2 != 0 {
            subs = subs.wrapping_add(1);
        }
        let total = names + subs as u64;
        if total * 4 > (self.data.len() - self.pos) as u64 {
            return Err(Fault);
        }
        for _ in 0..total {
            self.counted_string(false)?;
        }
        Ok(())
    }
}

/// UTF-8 check with a fast path for short ASCII text (most keys and names).
#[inline(always)]
fn utf8(b: &[u8]) -> bool {
    if b.len() <= 16 {
        let mut acc = 0u8;
        for &x in b {
            acc |= x;
        }
        if acc < 0x80 {
            return true;
        }
    }
    std::str::from_utf8(b).is_ok()
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
        decode_prefix_at(data, self.start(), &self.tape.opts)
            .map(|(v, _)| v)
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
