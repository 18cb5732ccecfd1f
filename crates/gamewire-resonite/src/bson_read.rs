//! Reading BSON into [`Value`]s, borrowing strings, keys and binary data from the input.
//!
//! Every length is checked against the enclosing document before it is used; every
//! element must end inside its document, and every document must end exactly where its
//! length says. There is no 16 MiB document limit (the engine has none).

use crate::value::{CodeWithScope, DbPointer, Document, Regex, Value};
use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

struct Parser<'a> {
    data: &'a [u8],
    base: usize,
    max_depth: usize,
}

/// Reads one BSON document that fills all of `data`. `base` is the offset of `data` in
/// the file (for errors); `max_depth` bounds nesting of documents and arrays.
pub fn read_document(data: &[u8], base: usize, max_depth: usize) -> Result<Document<'_>> {
    let p = Parser {
        data,
        base,
        max_depth,
    };
    let mut pos = 0;
    let doc = p.document(&mut pos, 1)?;
    if pos != data.len() {
        return Err(Error::at(
            base + pos,
            ErrorKind::TrailingBytes {
                count: data.len() - pos,
            },
        ));
    }
    Ok(doc)
}

impl<'a> Parser<'a> {
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

    #[inline]
    fn i32_at(&self, pos: &mut usize, limit: usize) -> Result<i32> {
        match self.data.get(*pos..*pos + 4) {
            Some(b) if *pos + 4 <= limit => {
                *pos += 4;
                Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
            _ => Err(self.eof(*pos, 4, limit)),
        }
    }

    #[inline]
    fn bytes<const N: usize>(&self, pos: &mut usize, limit: usize) -> Result<[u8; N]> {
        if *pos + N > limit {
            return Err(self.eof(*pos, N, limit));
        }
        let mut a = [0u8; N];
        a.copy_from_slice(&self.data[*pos..*pos + N]);
        *pos += N;
        Ok(a)
    }

    #[inline]
    fn utf8(&self, bytes: &'a [u8], at: usize) -> Result<&'a str> {
        std::str::from_utf8(bytes).map_err(|e| {
            Error::at(
                self.base + at + e.valid_up_to(),
                ErrorKind::InvalidText { encoding: "UTF-8" },
            )
        })
    }

    /// A NUL-terminated key or regex part ending before `limit`.
    #[inline]
    fn cstring(&self, pos: &mut usize, limit: usize) -> Result<&'a str> {
        let start = *pos;
        let Some(n) = memchr::memchr(0, &self.data[start..limit]) else {
            return Err(Error::unexpected_at(
                self.base + start,
                "a NUL-terminated name",
                "no NUL before the end of the document",
            ));
        };
        *pos = start + n + 1;
        self.utf8(&self.data[start..start + n], start)
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

    /// An int32-length-prefixed, NUL-terminated string ending before `limit`.
    #[inline]
    fn string(&self, pos: &mut usize, limit: usize) -> Result<&'a str> {
        let at = *pos;
        let len = self.i32_at(pos, limit)?;
        let remaining = limit - *pos;
        if len < 1 || len as usize > remaining {
            return Err(self.bad_length(at, "string length", len, 1, remaining));
        }
        let len = len as usize;
        let body = &self.data[*pos..*pos + len];
        if body[len - 1] != 0 {
            return Err(Error::unexpected_at(
                self.base + *pos + len - 1,
                "a NUL after the string",
                format!("byte 0x{:02x}", body[len - 1]),
            ));
        }
        let s = self.utf8(&body[..len - 1], *pos)?;
        *pos += len;
        Ok(s)
    }

    /// The length prefix of a document or array at `*pos`; returns its end.
    #[inline]
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

    #[inline]
    fn close(&self, pos: usize, end: usize) -> Result<()> {
        if pos != end {
            return Err(Error::unexpected_at(
                self.base + pos - 1,
                format!("the end of the document at byte {}", self.base + end),
                "a terminator before it",
            ));
        }
        Ok(())
    }

    fn document(&self, pos: &mut usize, depth: usize) -> Result<Document<'a>> {
        let limit = self.data.len();
        self.document_in(pos, limit, depth)
    }

    /// Reads a document and everything nested in it with an explicit stack (no
    /// recursion per level), so any depth up to the limit is safe on any thread.
    fn document_in(&self, pos: &mut usize, limit: usize, depth: usize) -> Result<Document<'a>> {
        let end = self.open(pos, limit, depth)?;
        let mut stack: Vec<Open<'a>> = vec![Open {
            end,
            array: false,
            label: Label::Root,
            start: 0,
        }];
        // Children of every open container, in order; each container takes its own
        // slice out at its end, so it is allocated once with its exact size.
        let mut scratch: Vec<(Cow<'a, str>, Value<'a>)> = Vec::with_capacity(64);
        loop {
            let top = stack.last_mut().unwrap_or_else(|| unreachable!());
            let end = top.end;
            let r = (|| -> Result<Step<'a>> {
                if *pos >= end {
                    return Err(self.missing_terminator(end));
                }
                let t = self.data[*pos];
                *pos += 1;
                if t == 0 {
                    self.close(*pos, end)?;
                    return Ok(Step::Close);
                }
                if *pos > end - 1 {
                    return Err(self.missing_terminator(end));
                }
                if !known_type(t) {
                    return Err(Error::unexpected_at(
                        self.base + *pos - 1,
                        "a BSON element type",
                        format!("type 0x{t:02x}"),
                    ));
                }
                let key = self.cstring(pos, end - 1)?;
                Ok(Step::Element(t, key))
            })();
            let step = r.map_err(|e| with_path(e, &stack, None))?;
            match step {
                Step::Close => {
                    let done = stack.pop().unwrap_or_else(|| unreachable!());
                    let children = scratch.drain(done.start..);
                    let value = if done.array {
                        Value::Array(children.map(|(_, v)| v).collect())
                    } else {
                        Value::Document(Document {
                            entries: children.collect(),
                        })
                    };
                    match stack.last_mut() {
                        None => {
                            return match value {
                                Value::Document(d) => Ok(d),
                                _ => unreachable!(),
                            }
                        }
                        Some(_) => scratch.push((done.label.key(), value)),
                    }
                }
                Step::Element(t, key) => {
                    let top = stack.last_mut().unwrap_or_else(|| unreachable!());
                    let label = if top.array {
                        Label::Index(scratch.len() - top.start)
                    } else {
                        Label::Key(key)
                    };
                    let level = depth + stack.len();
                    if t == 0x03 || t == 0x04 {
                        let inner_end = self
                            .open(pos, end - 1, level)
                            .map_err(|e| with_path(e, &stack, Some(label)))?;
                        stack.push(Open {
                            end: inner_end,
                            array: t == 0x04,
                            label,
                            start: scratch.len(),
                        });
                    } else {
                        let v = self
                            .value(t, pos, end - 1, level - 1)
                            .map_err(|e| with_path(e, &stack, Some(label)))?;
                        scratch.push((label.key(), v));
                    }
                }
            }
        }
    }

    #[cold]
    fn missing_terminator(&self, end: usize) -> Error {
        Error::unexpected_at(
            self.base + end - 1,
            "a document terminator (0x00)",
            format!("byte 0x{:02x}", self.data[end - 1]),
        )
    }

    #[inline]
    fn value(&self, t: u8, pos: &mut usize, limit: usize, depth: usize) -> Result<Value<'a>> {
        Ok(match t {
            0x01 => Value::Double(f64::from_le_bytes(self.bytes(pos, limit)?)),
            0x02 => Value::String(Cow::Borrowed(self.string(pos, limit)?)),
            0x03 => Value::Document(self.document_in(pos, limit, depth + 1)?),
            0x04 => {
                // only reached for arrays outside the main loop (none today)
                let mut doc = self.document_in(pos, limit, depth + 1)?;
                Value::Array(doc.entries.drain(..).map(|(_, v)| v).collect())
            }
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
                Value::Binary {
                    subtype,
                    bytes: Cow::Borrowed(bytes),
                }
            }
            0x06 => Value::Undefined,
            0x07 => Value::ObjectId(self.bytes(pos, limit)?),
            0x08 => {
                let at = *pos;
                match self.bytes::<1>(pos, limit)?[0] {
                    0 => Value::Bool(false),
                    1 => Value::Bool(true),
                    b => {
                        return Err(Error::unexpected_at(
                            self.base + at,
                            "a boolean byte 0 or 1",
                            format!("{b}"),
                        ))
                    }
                }
            }
            0x09 => Value::DateTime(i64::from_le_bytes(self.bytes(pos, limit)?)),
            0x0a => Value::Null,
            0x0b => {
                let pattern = self.cstring(pos, limit)?;
                let options = self.cstring(pos, limit)?;
                Value::Regex(Box::new(Regex {
                    pattern: Cow::Borrowed(pattern),
                    options: Cow::Borrowed(options),
                }))
            }
            0x0c => {
                let ns = self.string(pos, limit)?;
                Value::DbPointer(Box::new(DbPointer {
                    namespace: Cow::Borrowed(ns),
                    id: self.bytes(pos, limit)?,
                }))
            }
            0x0d => Value::JavaScript(Cow::Borrowed(self.string(pos, limit)?)),
            0x0e => Value::Symbol(Cow::Borrowed(self.string(pos, limit)?)),
            0x0f => {
                let at = *pos;
                let total = self.i32_at(pos, limit)?;
                let remaining = limit - at;
                if total < 14 || total as usize > remaining {
                    return Err(self.bad_length(
                        at,
                        "code-with-scope length",
                        total,
                        14,
                        remaining,
                    ));
                }
                let end = at + total as usize;
                let code = self.string(pos, end)?;
                let scope = self.document_in(pos, end, depth + 1)?;
                if *pos != end {
                    return Err(Error::unexpected_at(
                        self.base + *pos,
                        format!("the end of code-with-scope at byte {}", self.base + end),
                        "more bytes",
                    ));
                }
                Value::JavaScriptWithScope(Box::new(CodeWithScope {
                    code: Cow::Borrowed(code),
                    scope,
                }))
            }
            0x10 => Value::Int32(self.i32_at(pos, limit)?),
            0x11 => {
                let raw = u64::from_le_bytes(self.bytes(pos, limit)?);
                Value::Timestamp {
                    time: (raw >> 32) as u32,
                    increment: raw as u32,
                }
            }
            0x12 => Value::Int64(i64::from_le_bytes(self.bytes(pos, limit)?)),
            0x13 => Value::Decimal128(self.bytes(pos, limit)?),
            0xff => Value::MinKey,
            0x7f => Value::MaxKey,
            other => {
                return Err(Error::unexpected_at(
                    self.base + *pos,
                    "a BSON element type",
                    format!("type 0x{other:02x}"),
                ))
            }
        })
    }
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

enum Step<'a> {
    Close,
    Element(u8, &'a str),
}

/// A document or array being read; its children are `scratch[start..]`.
struct Open<'a> {
    end: usize,
    array: bool,
    label: Label<'a>,
    start: usize,
}

impl<'a> Label<'a> {
    /// The key stored with a child (empty for array elements, dropped at the end).
    #[inline]
    fn key(self) -> Cow<'a, str> {
        match self {
            Label::Key(k) => Cow::Borrowed(k),
            _ => Cow::Borrowed(""),
        }
    }
}

/// Adds the path of the open containers (innermost first) to an error.
#[cold]
fn with_path(mut e: Error, stack: &[Open<'_>], current: Option<Label<'_>>) -> Error {
    let labels = current
        .into_iter()
        .chain(stack.iter().rev().map(|o| o.label));
    for l in labels {
        e = match l {
            Label::Root => e,
            Label::Key(k) => e.in_key(k),
            Label::Index(i) => e.in_index(i),
        };
    }
    e
}
