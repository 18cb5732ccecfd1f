//! The one reader of the BSON grammar: [`walk`] goes through a document once, checks
//! every rule, and tells a [`Sink`] what it read.
//!
//! Every length is checked against the enclosing document before it is used; every
//! element must end inside its document, and every document must end exactly where its
//! length says; type bytes, boolean bytes, UTF-8 text (keys, strings, regex parts) and
//! the depth limit are checked too. There is no 16 MiB document limit (the engine has
//! none). Each of these rules, and its error message, is written once, here.
//!
//! The sinks, each compiled into its own copy of the walk:
//!
//! - [`Check`]: nothing is kept (the borrowed [`crate::bson_view`] checks its bytes with
//!   it, then reads them in place);
//! - [`Build`]: the owned [`Document`] tree ([`crate::bson_read::read_document`],
//!   [`crate::read_bson`], [`crate::decode`]).
//!
//! The walk keeps an explicit stack of open documents (no recursion per level), so any
//! depth up to the limit is safe on any thread. An error names the byte offset (from
//! `base`) and the path of keys and array indexes to the fault.

use crate::arena::Arena;
use crate::bson_view::ValueRef;
use crate::value::{CodeWithScope, Document, Entry, Seq, Value};
use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

/// What a container that opens is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open<'a> {
    /// 0x03: an embedded document (also the root).
    Document,
    /// 0x04: an array (its items come with their stored keys, `"0"`, `"1"`, ...).
    Array,
    /// 0x0F: the scope document of JavaScript code with scope; `code` is the code.
    Scope {
        /// The code.
        code: &'a str,
    },
}

/// What [`walk`] reports, in file order. `'a` is the lifetime of the bytes: keys and
/// text are borrowed from them.
///
/// The root document comes as `open("", Open::Document)` and its final `close()`.
/// Every `open` is matched by one `close`. When the walk fails, it stops at once and
/// the sink is left with the containers still open.
pub trait Sink<'a> {
    /// Whether the sink reads the text of keys and strings. When false, the walk still
    /// checks that all of it is UTF-8 (cheaply, where it is ASCII) but hands the sink
    /// empty strings in its place.
    const TEXT: bool = true;
    /// A document, array or code-with-scope's scope opens under `key`.
    fn open(&mut self, key: &'a str, kind: Open<'a>);
    /// The innermost open container ends.
    fn close(&mut self);
    /// A value that is not a container (never [`ValueRef::Document`],
    /// [`ValueRef::Array`] or [`ValueRef::JavaScriptWithScope`]), under `key`.
    fn leaf(&mut self, key: &'a str, value: ValueRef<'a>);
}

/// The sink that keeps nothing: a walk into it is the check that the bytes are one
/// BSON document the readers accept.
#[derive(Debug, Clone, Copy, Default)]
pub struct Check;

impl<'a> Sink<'a> for Check {
    const TEXT: bool = false;
    #[inline(always)]
    fn open(&mut self, _: &'a str, _: Open<'a>) {}
    #[inline(always)]
    fn close(&mut self) {}
    #[inline(always)]
    fn leaf(&mut self, _: &'a str, _: ValueRef<'a>) {}
}

/// The sink that builds the owned tree, borrowing keys and text from the bytes.
///
/// The children of every open container are kept in order in one shared scratch list;
/// each container takes its own out when it closes, into one slice of the [`Arena`]
/// when the builder has one (and the container owns no heap memory: see
/// [`crate::arena`]), else into its own vector of its exact size.
#[derive(Debug, Default)]
pub struct Build<'a> {
    open: Vec<Building<'a>>,
    scratch: Vec<Entry<'a>>,
    root: Option<Document<'a>>,
    arena: Option<&'a Arena>,
}

#[derive(Debug)]
struct Building<'a> {
    key: &'a str,
    kind: Open<'a>,
    start: usize,
    /// A child owns heap memory (a boxed rare value, or a container kept as a vector
    /// for that reason): this container cannot go into the arena either.
    owns: bool,
}

impl<'a> Build<'a> {
    /// An empty builder: every container in its own vector.
    pub fn new() -> Self {
        Build {
            open: Vec::with_capacity(16),
            scratch: Vec::with_capacity(64),
            root: None,
            arena: None,
        }
    }

    /// An empty builder that puts the containers into `arena`.
    pub fn in_arena(arena: &'a Arena) -> Self {
        Build {
            arena: Some(arena),
            ..Build::new()
        }
    }

    /// The root document, once a walk into this builder has succeeded.
    pub fn finish(self) -> Option<Document<'a>> {
        self.root
    }
}

impl<'a> Sink<'a> for Build<'a> {
    #[inline]
    fn open(&mut self, key: &'a str, kind: Open<'a>) {
        self.open.push(Building {
            key,
            kind,
            start: self.scratch.len(),
            owns: false,
        });
    }

    #[inline]
    fn close(&mut self) {
        let Some(done) = self.open.pop() else {
            return;
        };
        let children = self.scratch.drain(done.start..);
        let arena = if done.owns { None } else { self.arena };
        let mut owns = done.owns;
        let value = match (done.kind, arena) {
            (Open::Array, Some(a)) => {
                Value::Array(Seq::Borrowed(a.slice(children.map(|(_, v)| v))))
            }
            (Open::Array, None) => Value::Array(Seq::Owned(children.map(|(_, v)| v).collect())),
            (Open::Document, Some(a)) => Value::Document(Document {
                entries: Seq::Borrowed(a.slice(children)),
            }),
            (Open::Document, None) => Value::Document(Document {
                entries: Seq::Owned(children.collect()),
            }),
            (Open::Scope { code }, _) => {
                owns = true;
                Value::JavaScriptWithScope(Box::new(CodeWithScope {
                    code: Cow::Borrowed(code),
                    scope: Document {
                        entries: match arena {
                            Some(a) => Seq::Borrowed(a.slice(children)),
                            None => Seq::Owned(children.collect()),
                        },
                    },
                }))
            }
        };
        match self.open.last_mut() {
            Some(parent) => {
                parent.owns |= owns;
                self.scratch.push((Cow::Borrowed(done.key), value));
            }
            None => {
                if let Value::Document(d) = value {
                    self.root = Some(d);
                }
            }
        }
    }

    #[inline]
    fn leaf(&mut self, key: &'a str, value: ValueRef<'a>) {
        if let ValueRef::Regex { .. } | ValueRef::DbPointer { .. } = value {
            // boxed: owns heap memory
            if let Some(parent) = self.open.last_mut() {
                parent.owns = true;
            }
        }
        self.scratch.push((Cow::Borrowed(key), value.leaf_value()));
    }
}

/// Reads the one BSON document that fills `data` into `sink`. `base` is the offset of
/// `data` in its file (for errors); `max_depth` bounds the nesting of documents, arrays
/// and scopes (the root is level 1).
pub fn walk<'a, S: Sink<'a>>(
    data: &'a [u8],
    base: usize,
    max_depth: usize,
    sink: &mut S,
) -> Result<()> {
    Walker {
        data,
        base,
        max_depth,
    }
    .run(sink)
}

const NONE: usize = usize::MAX;

/// How many bytes of a key are tested a word at a time for its NUL before a search.
const SHORT: usize = 16;

/// An open container while walking.
#[derive(Clone, Copy)]
struct Frame {
    /// Where it ends (one past its terminator).
    end: usize,
    /// For a scope, where its code-with-scope element ends; else `NONE`.
    cws_end: usize,
    /// Where the element holding it starts (its type byte); `NONE` for the root.
    at: usize,
    /// Elements read so far.
    count: usize,
    array: bool,
}

struct Walker<'a> {
    data: &'a [u8],
    base: usize,
    max_depth: usize,
}

impl<'a> Walker<'a> {
    fn run<S: Sink<'a>>(&self, sink: &mut S) -> Result<()> {
        let data = self.data;
        let text = S::TEXT;
        let mut pos = 0;
        let end = self.open(&mut pos, data.len(), 1)?;
        // The innermost open container is kept apart from the ones around it, so that
        // the hot loop reads it from registers.
        let mut cur = Frame {
            end,
            cws_end: NONE,
            at: NONE,
            count: 0,
            array: false,
        };
        let mut parents: Vec<Frame> = Vec::with_capacity(16);
        sink.open("", Open::Document);
        loop {
            let end = cur.end;
            if pos >= end {
                return Err(self.fault(self.missing_terminator(end), &parents, &cur, None));
            }
            let t = data[pos];
            pos += 1;
            if t == 0 {
                if pos != end {
                    let e = self.early_terminator(pos, end);
                    return Err(self.fault(e, &parents, &cur, None));
                }
                if cur.cws_end != NONE && pos != cur.cws_end {
                    let e = self.scope_short(pos, cur.cws_end);
                    return Err(self.path(e, &parents, Some(self.label_of(&cur, &parents))));
                }
                sink.close();
                match parents.pop() {
                    Some(p) => {
                        cur = p;
                        continue;
                    }
                    None => break,
                }
            }
            let limit = end - 1;
            if pos > limit {
                return Err(self.fault(self.missing_terminator(end), &parents, &cur, None));
            }
            // an unknown type byte is found by `leaf`'s last arm (off the hot path), and
            // reported before anything after it
            let at = pos - 1;
            let key = match self.cstring(&mut pos, limit, text) {
                Ok(k) => k,
                Err(e) => return Err(self.fault(self.type_first(t, at, e), &parents, &cur, None)),
            };
            cur.count += 1;
            let level = parents.len() + 2;
            let r = match t {
                0x03 | 0x04 => self.open(&mut pos, limit, level).map(|end| {
                    let array = t == 0x04;
                    sink.open(key, if array { Open::Array } else { Open::Document });
                    Frame {
                        end,
                        cws_end: NONE,
                        at,
                        count: 0,
                        array,
                    }
                }),
                0x0f => self
                    .scope(&mut pos, limit, level, text)
                    .map(|(code, end, cws_end)| {
                        sink.open(key, Open::Scope { code });
                        Frame {
                            end,
                            cws_end,
                            at,
                            count: 0,
                            array: false,
                        }
                    }),
                _ => match self.leaf(t, &mut pos, limit, text) {
                    Ok(v) => {
                        sink.leaf(key, v);
                        continue;
                    }
                    Err(e) => Err(e),
                },
            };
            match r {
                Ok(frame) => {
                    parents.push(cur);
                    cur = frame;
                }
                Err(e) if !known_type(t) => {
                    return Err(self.fault(self.type_first(t, at, e), &parents, &cur, None));
                }
                Err(e) => {
                    let label = if cur.array {
                        Label::Index(cur.count - 1)
                    } else {
                        // a sink without text was handed an empty key: read it again
                        let mut at = at + 1;
                        self.cstring(&mut at, limit, true)
                            .map_or(Label::Key(key), Label::Key)
                    };
                    return Err(self.fault(e, &parents, &cur, Some(label)));
                }
            }
        }
        if pos != data.len() {
            return Err(Error::at(
                self.base + pos,
                ErrorKind::TrailingBytes {
                    count: data.len() - pos,
                },
            ));
        }
        Ok(())
    }

    #[cold]
    fn eof(&self, pos: usize, needed: usize, limit: usize) -> Error {
        Error::at(
            self.base + pos,
            ErrorKind::UnexpectedEof {
                needed: needed.saturating_sub(limit.saturating_sub(pos)),
                remaining: limit.saturating_sub(pos),
            },
        )
    }

    #[inline(always)]
    fn i32_at(&self, pos: &mut usize, limit: usize) -> Result<i32> {
        match self.data.get(*pos..*pos + 4) {
            Some(b) if *pos + 4 <= limit => {
                *pos += 4;
                Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
            _ => Err(self.eof(*pos, 4, limit)),
        }
    }

    #[inline(always)]
    fn bytes<const N: usize>(&self, pos: &mut usize, limit: usize) -> Result<[u8; N]> {
        match self.data.get(*pos..*pos + N) {
            Some(b) if *pos + N <= limit => {
                let mut a = [0u8; N];
                a.copy_from_slice(b);
                *pos += N;
                Ok(a)
            }
            _ => Err(self.eof(*pos, N, limit)),
        }
    }

    /// `bytes` (at `at`) as UTF-8 text; without `text`, only checked (an empty string
    /// is returned), which for ASCII needs no call to the full validator.
    #[inline(always)]
    fn utf8(&self, bytes: &'a [u8], at: usize, text: bool) -> Result<&'a str> {
        if !text && bytes.is_ascii() {
            return Ok("");
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(if text { s } else { "" }),
            Err(e) => Err(self.bad_utf8(at + e.valid_up_to())),
        }
    }

    #[cold]
    fn bad_utf8(&self, at: usize) -> Error {
        Error::at(self.base + at, ErrorKind::InvalidText { encoding: "UTF-8" })
    }

    /// A NUL-terminated key or regex part ending before `limit` (see [`Self::utf8`] for
    /// `text`); its NUL is found by [`nul`].
    #[inline(always)]
    fn cstring(&self, pos: &mut usize, limit: usize, text: bool) -> Result<&'a str> {
        let start = *pos;
        let rest = self.data.get(start..limit).unwrap_or_default();
        let Some(n) = nul(rest) else {
            return Err(self.no_nul(start));
        };
        *pos = start + n + 1;
        self.utf8(&rest[..n], start, text)
    }

    #[cold]
    fn no_nul(&self, start: usize) -> Error {
        Error::unexpected_at(
            self.base + start,
            "a NUL-terminated name",
            "no NUL before the end of the document",
        )
    }

    /// The error for a length prefix at `at`: below `min` (negative included, shown as
    /// the signed number it is), or past the `remaining` bytes.
    #[cold]
    fn bad_length(
        &self,
        at: usize,
        what: &'static str,
        len: i32,
        min: i32,
        remaining: usize,
    ) -> Error {
        if len < min {
            Error::unexpected_at(
                self.base + at,
                format!("a {what} of at least {min}"),
                format!("{what} {len}"),
            )
        } else {
            Error::at(
                self.base + at,
                ErrorKind::LengthPastEnd {
                    what,
                    declared: len as u64,
                    remaining,
                },
            )
        }
    }

    /// An int32-length-prefixed, NUL-terminated string ending by `limit`.
    #[inline(always)]
    fn string(&self, pos: &mut usize, limit: usize, text: bool) -> Result<&'a str> {
        let at = *pos;
        let len = self.i32_at(pos, limit)?;
        let remaining = limit - *pos;
        if len < 1 || len as usize > remaining {
            return Err(self.bad_length(at, "string length", len, 1, remaining));
        }
        let len = len as usize;
        let body = &self.data[*pos..*pos + len];
        if body[len - 1] != 0 {
            return Err(self.no_string_nul(*pos + len - 1, body[len - 1]));
        }
        let s = self.utf8(&body[..len - 1], *pos, text)?;
        *pos += len;
        Ok(s)
    }

    #[cold]
    fn no_string_nul(&self, at: usize, b: u8) -> Error {
        Error::unexpected_at(
            self.base + at,
            "a NUL after the string",
            format!("byte 0x{b:02x}"),
        )
    }

    /// The length prefix of a document at `*pos`, at nesting level `depth`, ending by
    /// `limit`; returns its end.
    #[inline(always)]
    fn open(&self, pos: &mut usize, limit: usize, depth: usize) -> Result<usize> {
        if depth > self.max_depth {
            return Err(Error::at(
                self.base + *pos,
                ErrorKind::DepthLimit {
                    limit: self.max_depth,
                },
            ));
        }
        let start = *pos;
        let len = self.i32_at(pos, limit)?;
        let remaining = limit - start;
        if len < 5 || len as usize > remaining {
            return Err(self.bad_length(start, "document length", len, 5, remaining));
        }
        Ok(start + len as usize)
    }

    /// A code-with-scope's length, code and the length of its scope document; returns
    /// the code, the scope's end and the element's end.
    #[inline(never)]
    fn scope(
        &self,
        pos: &mut usize,
        limit: usize,
        depth: usize,
        text: bool,
    ) -> Result<(&'a str, usize, usize)> {
        let at = *pos;
        let total = self.i32_at(pos, limit)?;
        let remaining = limit - at;
        if total < 14 || total as usize > remaining {
            return Err(self.bad_length(at, "code-with-scope length", total, 14, remaining));
        }
        let cws_end = at + total as usize;
        let code = self.string(pos, cws_end, text)?;
        let end = self.open(pos, cws_end, depth)?;
        Ok((code, end, cws_end))
    }

    /// A value that is not a container, of type `t`, ending by `limit`.
    #[inline(always)]
    fn leaf(&self, t: u8, pos: &mut usize, limit: usize, text: bool) -> Result<ValueRef<'a>> {
        Ok(match t {
            0x01 => ValueRef::Double(f64::from_le_bytes(self.bytes(pos, limit)?)),
            0x02 => ValueRef::String(self.string(pos, limit, text)?),
            0x05 => {
                let at = *pos;
                let len = self.i32_at(pos, limit)?;
                let remaining = limit - *pos;
                if len < 0 || len as usize + 1 > remaining {
                    return Err(self.bad_length(at, "binary length", len, 0, remaining));
                }
                let subtype = self.data[*pos];
                let bytes = &self.data[*pos + 1..*pos + 1 + len as usize];
                *pos += 1 + len as usize;
                ValueRef::Binary { subtype, bytes }
            }
            0x06 => ValueRef::Undefined,
            0x07 => ValueRef::ObjectId(self.bytes(pos, limit)?),
            0x08 => {
                let at = *pos;
                match self.bytes::<1>(pos, limit)?[0] {
                    0 => ValueRef::Bool(false),
                    1 => ValueRef::Bool(true),
                    b => return Err(self.bad_bool(at, b)),
                }
            }
            0x09 => ValueRef::DateTime(i64::from_le_bytes(self.bytes(pos, limit)?)),
            0x0a => ValueRef::Null,
            0x0b => {
                let pattern = self.cstring(pos, limit, text)?;
                let options = self.cstring(pos, limit, text)?;
                ValueRef::Regex { pattern, options }
            }
            0x0c => {
                let namespace = self.string(pos, limit, text)?;
                let id = self.bytes(pos, limit)?;
                ValueRef::DbPointer { namespace, id }
            }
            0x0d => ValueRef::JavaScript(self.string(pos, limit, text)?),
            0x0e => ValueRef::Symbol(self.string(pos, limit, text)?),
            0x10 => ValueRef::Int32(self.i32_at(pos, limit)?),
            0x11 => {
                let raw = u64::from_le_bytes(self.bytes(pos, limit)?);
                ValueRef::Timestamp {
                    time: (raw >> 32) as u32,
                    increment: raw as u32,
                }
            }
            0x12 => ValueRef::Int64(i64::from_le_bytes(self.bytes(pos, limit)?)),
            0x13 => ValueRef::Decimal128(self.bytes(pos, limit)?),
            0xff => ValueRef::MinKey,
            0x7f => ValueRef::MaxKey,
            _ => return Err(self.unknown_type(*pos - 1, t)),
        })
    }

    #[cold]
    fn bad_bool(&self, at: usize, b: u8) -> Error {
        Error::unexpected_at(self.base + at, "a boolean byte 0 or 1", format!("{b}"))
    }

    /// The error at an element of type `t` at `at`: an unknown type byte first, else
    /// `e`.
    #[cold]
    fn type_first(&self, t: u8, at: usize, e: Error) -> Error {
        if known_type(t) {
            e
        } else {
            self.unknown_type(at, t)
        }
    }

    #[cold]
    fn unknown_type(&self, at: usize, t: u8) -> Error {
        Error::unexpected_at(
            self.base + at,
            "a BSON element type",
            format!("type 0x{t:02x}"),
        )
    }

    #[cold]
    fn missing_terminator(&self, end: usize) -> Error {
        Error::unexpected_at(
            self.base + end - 1,
            "a document terminator (0x00)",
            format!("byte 0x{:02x}", self.data[end - 1]),
        )
    }

    #[cold]
    fn early_terminator(&self, pos: usize, end: usize) -> Error {
        Error::unexpected_at(
            self.base + pos - 1,
            format!("the end of the document at byte {}", self.base + end),
            "a terminator before it",
        )
    }

    #[cold]
    fn scope_short(&self, pos: usize, cws_end: usize) -> Error {
        Error::unexpected_at(
            self.base + pos,
            format!("the end of code-with-scope at byte {}", self.base + cws_end),
            "more bytes",
        )
    }

    /// [`Self::path`] of the open containers `parents` and, innermost, `cur`.
    #[cold]
    fn fault(&self, e: Error, parents: &[Frame], cur: &Frame, current: Option<Label<'a>>) -> Error {
        let mut stack = parents.to_vec();
        stack.push(*cur);
        self.path(e, &stack, current)
    }

    /// The label of `frame`, open inside `parents` (the root has none).
    #[cold]
    fn label_of(&self, frame: &Frame, parents: &[Frame]) -> Label<'a> {
        match parents.last() {
            None => Label::Root,
            Some(p) if p.array => Label::Index(p.count - 1),
            Some(_) => {
                // the key was read and checked when the container opened
                let mut at = frame.at + 1;
                self.cstring(&mut at, frame.end, true)
                    .map_or(Label::Root, Label::Key)
            }
        }
    }

    /// Adds the path of the open containers (innermost first) to an error, after the
    /// label of the element being read, if any.
    #[cold]
    fn path(&self, mut e: Error, stack: &[Frame], current: Option<Label<'a>>) -> Error {
        let mut labels: Vec<Label<'a>> = current.into_iter().collect();
        for i in (0..stack.len()).rev() {
            labels.push(self.label_of(&stack[i], &stack[..i]));
        }
        for l in labels {
            e = match l {
                Label::Root => e,
                Label::Key(k) => e.in_key(k),
                Label::Index(i) => e.in_index(i),
            };
        }
        e
    }
}

/// Where the first NUL byte of `bytes` is. Keys are short: the first [`SHORT`] bytes
/// are tested eight at a time in a word (the lowest byte flagged by the zero-byte test
/// is always a true zero), the rest searched with `memchr`.
#[inline(always)]
fn nul(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(word) = bytes.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w);
        let zero = x.wrapping_sub(LO) & !x & HI;
        if zero != 0 {
            return Some(i + (zero.trailing_zeros() / 8) as usize);
        }
        i += 8;
        if i >= SHORT {
            return memchr::memchr(0, &bytes[i..]).map(|n| i + n);
        }
    }
    let tail = bytes.get(i..).unwrap_or_default();
    tail.iter().position(|&b| b == 0).map(|n| i + n)
}

/// True for the element types BSON defines.
#[inline]
fn known_type(t: u8) -> bool {
    matches!(t, 0x01..=0x13 | 0x7f | 0xff)
}

/// Where a container sits in its parent (for error paths).
#[derive(Clone, Copy)]
enum Label<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(bytes: &[u8]) -> Error {
        let a = walk(bytes, 0, 64, &mut Check).unwrap_err();
        let b = walk(bytes, 0, 64, &mut Build::new()).unwrap_err();
        assert_eq!(a.to_string(), b.to_string(), "one walk, one error");
        a
    }

    #[test]
    fn nul_finds_the_first_zero_byte_at_every_position_and_length() {
        for len in 0..40 {
            for at in 0..=len {
                // bytes 0x01 and 0x80-0xff around the zero (the word test's borrows)
                let mut b: Vec<u8> = (0..len).map(|i| [1u8, 0x80, 0xff, b'a'][i % 4]).collect();
                if at < len {
                    b[at] = 0;
                    // a second zero after the first is never the answer
                    if at + 1 < len {
                        b[at + 1] = 0;
                    }
                }
                let want = b.iter().position(|&x| x == 0);
                assert_eq!(nul(&b), want, "len {len}, zero at {at}");
            }
        }
    }

    #[test]
    fn an_unknown_type_is_named_before_its_key_is_read() {
        // type 0x20 at byte 4, and its key runs into the terminator
        let e = both(&[7, 0, 0, 0, 0x20, b'a', 0]);
        assert_eq!(
            e.to_string(),
            "at byte 4 (0x4): expected a BSON element type, found type 0x20"
        );
    }

    #[test]
    fn a_fault_in_an_array_item_names_its_index() {
        // {"a": [true, <bool byte 2>]}
        let bytes = [
            21, 0, 0, 0, 4, b'a', 0, 13, 0, 0, 0, 8, b'0', 0, 1, 8, b'1', 0, 2, 0, 0,
        ];
        let e = both(&bytes);
        assert_eq!((e.offset(), e.path_string().as_str()), (Some(18), "$.a[1]"));
        // the same item fine: the build sink gives the tree
        let mut ok = bytes;
        ok[18] = 0;
        let mut b = Build::new();
        walk(&ok, 0, 64, &mut b).unwrap();
        let doc = b.finish().unwrap();
        assert_eq!(
            doc.get("a").and_then(|a| a.as_array()).map(|a| a.to_vec()),
            Some(vec![Value::Bool(true), Value::Bool(false)])
        );
    }

    #[test]
    fn a_scope_that_ends_before_its_element_is_refused() {
        // {"c": code-with-scope of total 16 whose scope document ends one byte short}
        let bytes = [
            24, 0, 0, 0, 0x0f, b'c', 0, // element
            16, 0, 0, 0, // total
            2, 0, 0, 0, b'x', 0, // code "x"
            5, 0, 0, 0, 0, // empty scope
            9, // one byte more than the scope
            0, // terminator
        ];
        let e = both(&bytes);
        assert_eq!(e.offset(), Some(22), "{e}");
        assert!(
            e.to_string()
                .contains("the end of code-with-scope at byte 23"),
            "{e}"
        );
        assert_eq!(e.path_string(), "$.c");
    }
}
