//! Where a value's bytes are: the byte range of the value at a JSON Pointer of the
//! schema-less JSON ([`crate::json`], what `gamewire decode` writes without a schema) of
//! one bean ([`bean_span`]) or of a stream of protocol frames ([`frames_span`]).
//!
//! Read from the bytes with the one grammar ([`crate::walk::grammar`]): the path to the
//! value is followed tag by tag, and every value before it on the way is stepped over
//! with the walk that keeps nothing ([`crate::skip_value`]); no tree is built.
//!
//! A value's range is its own bytes, without the tag that names its field: an integer's
//! compact bytes, a string's length prefix and text, a nested bean's fields up to and
//! including its final `00`. `"base"` (the next inheritance level) spans from the byte
//! after the `01` that opens it to the bean's final `00`. A key that names the type of a
//! list, a map or a dynamic bean (`"list"`, `"map"`, `"dynamic"`) spans the header it is
//! read from, which says more than that (the count as well): such a span is not the
//! value's own ([`Span::own`] false). `"items"` and `"entries"` span the bytes after
//! the header. A frame's `"family"` is the family class header,
//! which also carries the result-code bit.
//!
//! A bean read with its schema (JSON keyed by variable names) has its spans from
//! [`typed_bean_span`], the same walk led by the schema; a frame stream typed by a
//! solution from [`typed_frames_span`].

use crate::cursor::Cursor;
use crate::decode::{skip_bean, skip_value, Options};
use crate::frame::{read_family_head, HEADER_SIZE};
use crate::value::WireType;
use crate::walk::grammar::{list_header, map_header, tag};
use crate::walk::Tag;
use std::ops::Range;

mod typed;
pub use typed::typed_bean_span;

/// Where the bytes of one value are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The bytes, as offsets in the input.
    pub range: Range<usize>,
    /// False when the bytes hold more than the value (a list's element type is read
    /// from the header that also holds its count).
    pub own: bool,
}

/// The span of the value at JSON Pointer tokens `toks` of the schema-less JSON of the
/// one bean that fills `data`. Errors name the pointer that is not there, or the byte
/// offset where the bytes do not read.
pub fn bean_span(data: &[u8], toks: &[String], opts: &Options) -> Result<Span, String> {
    let mut c = Cursor::new(data);
    in_bean(&mut c, toks, opts, 0).map_err(|e| missing(toks, e))
}

/// The span of the value at JSON Pointer tokens `toks` of the schema-less JSON of a
/// stream of protocol frames (an array of frame objects, [`crate::frame`]): a frame
/// (`/1`) spans its 12-byte header and its body; `module`, `protocol`, `family`,
/// `result_code`, `session_id`, `bean` and `raw` (a body kept as bytes) their own bytes.
pub fn frames_span(data: &[u8], toks: &[String], opts: &Options) -> Result<Span, String> {
    frames_span_with(data, toks, opts, None)?
        .ok_or_else(|| missing(toks, "no bytes hold it".into()))
}

/// The span of the value at JSON Pointer tokens `toks` of the JSON of a stream of
/// protocol frames typed by a solution ([`crate::typed_json::Frames`]): as
/// [`frames_span`], but a body whose bean `typing` knows (the bean given for every
/// frame, or the protocol's argument or result bean) is walked with its schema
/// ([`typed_bean_span`]: `Ok(None)` for a variable absent from the bytes), and a frame's
/// `"name"` (the protocol's, from the solution) spans the module and protocol ids it is
/// found by, marked not its own.
pub fn typed_frames_span(
    typing: crate::typed_json::Typing<'_>,
    data: &[u8],
    toks: &[String],
    opts: &Options,
) -> Result<Option<Span>, String> {
    frames_span_with(data, toks, opts, Some(typing))
}

/// [`frames_span`] or [`typed_frames_span`].
fn frames_span_with(
    data: &[u8],
    toks: &[String],
    opts: &Options,
    typing: Option<crate::typed_json::Typing<'_>>,
) -> Result<Option<Span>, String> {
    let Some(first) = toks.first() else {
        return Ok(Some(own(0..data.len())));
    };
    let index: usize = first
        .parse()
        .map_err(|_| format!("no frame {first:?}: frames are numbered from 0"))?;
    let mut at = 0;
    let mut n = 0;
    loop {
        if data.len() - at < HEADER_SIZE {
            return Err(format!("no frame {index}: the stream holds {n}"));
        }
        let size = u32::from_le_bytes([data[at + 8], data[at + 9], data[at + 10], data[at + 11]]);
        let end = at
            .checked_add(HEADER_SIZE + size as usize)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| format!("frame {n} at byte {at} runs past the end"))?;
        if n == index {
            return in_frame(data, at, end, &toks[1..], opts, typing).map_err(|e| missing(toks, e));
        }
        at = end;
        n += 1;
    }
}

/// The error for a pointer that is not there (or bytes that do not read on the way).
fn missing(toks: &[String], why: String) -> String {
    let mut p = String::new();
    for t in toks {
        p.push('/');
        p.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    format!("no value at {p:?}: {why}")
}

/// A span that is the value's own.
fn own(range: Range<usize>) -> Span {
    Span { range, own: true }
}

/// Shorthand for the walk's errors.
fn err(e: gamewire_core::Error) -> String {
    e.to_string()
}

/// The span inside the frame at `at..end` (`at` is its header), its body typed by
/// `typing` when given.
fn in_frame(
    data: &[u8],
    at: usize,
    end: usize,
    toks: &[String],
    opts: &Options,
    typing: Option<crate::typed_json::Typing<'_>>,
) -> Result<Option<Span>, String> {
    let body = at + HEADER_SIZE..end;
    let Some(key) = toks.first() else {
        return Ok(Some(own(at..end)));
    };
    let rest = &toks[1..];
    let leaf = |r: Range<usize>| {
        if rest.is_empty() {
            Ok(Some(own(r)))
        } else {
            Err(format!("{key:?} holds no {:?}", rest[0]))
        }
    };
    let id = |k: usize| u32::from_le_bytes([data[k], data[k + 1], data[k + 2], data[k + 3]]);
    let (module, protocol) = (id(at), id(at + 4));
    match key.as_str() {
        "module" => return leaf(at..at + 4),
        "protocol" => return leaf(at + 4..at + 8),
        // A typed frame's protocol name, found by its module and protocol ids.
        "name" if rest.is_empty() => {
            return match typing.and_then(|t| t.frame_bean(module, protocol, None).1) {
                Some(_) => Ok(Some(Span {
                    range: at..at + 8,
                    own: false,
                })),
                None => Err("the frame has no \"name\"".into()),
            }
        }
        _ => {}
    }
    // The standard layout, as the frame decoder reads it: else the body is kept raw.
    let bytes = &data[body.clone()];
    let mut c = Cursor::with_base(bytes, body.start);
    let mut marks = [body.start; 3];
    let mut family = None;
    let standard = (|| -> gamewire_core::Result<Option<Cursor<'_>>> {
        let (fam, result_code, session_id) = read_family_head(&mut c)?;
        family = Some(fam);
        // Where each part ends, read again: the head is a few compact integers.
        let mut r = Cursor::with_base(bytes, body.start);
        r.skip_long()?;
        marks[0] = r.offset();
        if result_code.is_some() {
            r.skip_long()?;
        }
        marks[1] = r.offset();
        if session_id.is_some() {
            r.skip_long()?;
        }
        marks[2] = r.offset();
        let bean = c.clone();
        match skip_bean(&mut c, opts, 0) {
            Ok(()) if c.is_empty() => Ok(Some(bean)),
            Err(e) if matches!(e.kind(), gamewire_core::ErrorKind::DepthLimit { .. }) => Err(e),
            _ => Ok(None),
        }
    })()
    .map_err(err)?;
    let Some(mut bean) = standard else {
        return match (key.as_str(), rest) {
            ("raw", []) => Ok(Some(own(body))),
            ("raw", [b]) if b == "bytes" => Ok(Some(own(body))),
            _ => Err(format!("the frame's body is kept raw: it has no {key:?}")),
        };
    };
    let family_of = family;
    let (family, result_code, session_id) = (
        body.start..marks[0],
        (marks[1] > marks[0]).then_some(marks[0]..marks[1]),
        (marks[2] > marks[1]).then_some(marks[1]..marks[2]),
    );
    // The bean a typed frame's body is, when the solution knows it.
    let typed = typing.and_then(|t| {
        t.frame_bean(module, protocol, family_of)
            .0
            .map(|n| (t.schema, n))
    });
    match key.as_str() {
        "family" if rest.is_empty() => Ok(Some(Span {
            range: family,
            own: false,
        })),
        "result_code" => leaf(result_code.ok_or("the frame has no result code")?),
        "session_id" => leaf(session_id.ok_or("the frame has no session id")?),
        "bean" => match typed {
            Some((schema, name)) => typed::bean_at(schema, name, &mut bean, rest, opts),
            None => in_bean(&mut bean, rest, opts, 0).map(Some),
        },
        k => Err(format!("a frame has no {k:?}")),
    }
}

/// The span inside the bean (or inheritance level) whose fields start at `c`.
fn in_bean(
    c: &mut Cursor<'_>,
    toks: &[String],
    opts: &Options,
    depth: usize,
) -> Result<Span, String> {
    let start = c.offset();
    let Some(key) = toks.first() else {
        skip_bean(c, opts, depth).map_err(err)?;
        return Ok(own(start..c.offset()));
    };
    let base = key == "base";
    let id: Option<u32> = if base { None } else { key.parse().ok() };
    if !base && id.is_none() {
        return Err(format!(
            "a bean's keys are field ids and \"base\", not {key:?}"
        ));
    }
    let mut last = 0;
    loop {
        match tag(c, last).map_err(err)? {
            Tag::End => return Err(format!("the bean has no {key:?}")),
            Tag::Level if base => return in_bean(c, &toks[1..], opts, depth),
            Tag::Level => return Err(format!("the bean's level has no field {key}")),
            Tag::Field { id: f, wire } if Some(f) == id => {
                return in_value(c, wire, &toks[1..], false, opts, depth + 1)
            }
            Tag::Field { id: f, wire } => {
                skip_value(c, wire, opts, depth + 1).map_err(err)?;
                last = f;
            }
        }
    }
}

/// The span inside the value of wire type `wire` at `c`; `compact` for an item of a
/// list or map (a float a plain number, a vector a plain array).
fn in_value(
    c: &mut Cursor<'_>,
    wire: WireType,
    toks: &[String],
    compact: bool,
    opts: &Options,
    depth: usize,
) -> Result<Span, String> {
    let start = c.offset();
    let whole = |c: &mut Cursor<'_>| -> Result<Range<usize>, String> {
        skip_value(c, wire, opts, depth).map_err(err)?;
        Ok(start..c.offset())
    };
    let first = toks.first().map(String::as_str);
    match wire {
        WireType::Bean => return in_bean(c, toks, opts, depth),
        WireType::List => {
            if toks.is_empty() {
                return whole(c).map(own);
            }
            let (elem, n) = list_header(c).map_err(err)?;
            let header = start..c.offset();
            return match (first, &toks[1..]) {
                (Some("list"), []) => Ok(Span {
                    range: header,
                    own: false,
                }),
                (Some("items"), []) => {
                    let s = c.offset();
                    for _ in 0..n {
                        skip_value(c, elem, opts, depth).map_err(err)?;
                    }
                    Ok(own(s..c.offset()))
                }
                (Some("items"), [i, rest @ ..]) => {
                    let i = index(i, n)?;
                    for _ in 0..i {
                        skip_value(c, elem, opts, depth).map_err(err)?;
                    }
                    in_value(c, elem, rest, true, opts, depth)
                }
                _ => Err(format!("a list holds \"list\" and \"items\", not {toks:?}")),
            };
        }
        WireType::Map => {
            if toks.is_empty() {
                return whole(c).map(own);
            }
            let (k, v, n) = map_header(c).map_err(err)?;
            let header = start..c.offset();
            return match (first, &toks[1..]) {
                // `"map": [key type, value type]`, both from the header.
                (Some("map"), [] | [_]) if toks[1..].iter().all(|t| t == "0" || t == "1") => {
                    Ok(Span {
                        range: header,
                        own: false,
                    })
                }
                (Some("entries"), []) => {
                    let s = c.offset();
                    for _ in 0..n {
                        skip_value(c, k, opts, depth).map_err(err)?;
                        skip_value(c, v, opts, depth).map_err(err)?;
                    }
                    Ok(own(s..c.offset()))
                }
                (Some("entries"), [i, rest @ ..]) => {
                    let i = index(i, n)?;
                    for _ in 0..i {
                        skip_value(c, k, opts, depth).map_err(err)?;
                        skip_value(c, v, opts, depth).map_err(err)?;
                    }
                    let s = c.offset();
                    match rest {
                        [] => {
                            skip_value(c, k, opts, depth).map_err(err)?;
                            skip_value(c, v, opts, depth).map_err(err)?;
                            Ok(own(s..c.offset()))
                        }
                        [j, rest @ ..] if j == "0" => in_value(c, k, rest, true, opts, depth),
                        [j, rest @ ..] if j == "1" => {
                            skip_value(c, k, opts, depth).map_err(err)?;
                            in_value(c, v, rest, true, opts, depth)
                        }
                        _ => Err("an entry is [key, value]: 0 or 1".into()),
                    }
                }
                _ => Err(format!("a map holds \"map\" and \"entries\", not {toks:?}")),
            };
        }
        WireType::Dynamic => {
            if toks.is_empty() {
                return whole(c).map(own);
            }
            c.long().map_err(err)?;
            let id = start..c.offset();
            return match (first, &toks[1..]) {
                (Some("dynamic"), []) => Ok(own(id)),
                (Some("bean"), rest) => in_bean(c, rest, opts, depth),
                _ => Err(format!(
                    "a dynamic bean holds \"dynamic\" and \"bean\", not {toks:?}"
                )),
            };
        }
        _ => {}
    }
    // Scalars and vectors: an optional key naming the form, then a component.
    let name = wire.name();
    let (keyed, rest) = match (first, compact) {
        (Some(k), _)
            if k == name
                || (wire == WireType::Float && k == "float_bits")
                || (wire == WireType::Double && k == "double_bits")
                || (wire == WireType::Bytes && k == "bytes") =>
        {
            (true, &toks[1..])
        }
        _ => (false, toks),
    };
    let vector = matches!(
        wire,
        WireType::Vector2
            | WireType::Vector2Int
            | WireType::Vector3
            | WireType::Vector3Int
            | WireType::Vector4
    );
    // A vector field is `{"vector2": [..]}`; an item a plain array.
    if vector && keyed == compact && !toks.is_empty() {
        return Err(format!("a {name} holds no {toks:?}"));
    }
    match rest {
        [] => whole(c).map(own),
        [i] if vector => {
            let n = match wire {
                WireType::Vector2 | WireType::Vector2Int => 2,
                WireType::Vector3 | WireType::Vector3Int => 3,
                _ => 4,
            };
            let i = index(i, n)?;
            let ints = matches!(wire, WireType::Vector2Int | WireType::Vector3Int);
            for _ in 0..i {
                if ints {
                    c.skip_long().map_err(err)?;
                } else {
                    c.f32().map_err(err)?;
                }
            }
            let s = c.offset();
            if ints {
                c.skip_long().map_err(err)?;
            } else {
                c.f32().map_err(err)?;
            }
            Ok(own(s..c.offset()))
        }
        _ => Err(format!("a {name} holds no {toks:?}")),
    }
}

/// An index token below `n`.
fn index(t: &str, n: usize) -> Result<usize, String> {
    match t.parse::<usize>() {
        Ok(i) if i < n && (t == "0" || !t.starts_with('0')) => Ok(i),
        _ => Err(format!("no item {t:?} of {n}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(p: &str) -> Vec<String> {
        p.split('/').skip(1).map(str::to_owned).collect()
    }

    fn at(data: &[u8], p: &str) -> (usize, usize, bool) {
        let s = bean_span(data, &toks(p), &Options::default()).unwrap();
        (s.range.start, s.range.len(), s.own)
    }

    /// A small bean written by hand: field 1 = 150 (`40 96`), field 3 = "hi", a list of
    /// two vector2 items, then a base level holding field 1 = 1.
    #[test]
    fn fields_lists_vectors_and_levels() {
        let data = [
            0x10, 0x40, 0x96, // 1: int 150 at 1..3
            0x23, 0x02, b'h', b'i', // 3: bytes "hi" at 4..7
            0x14, 0x28, // 4: list of 2 vector2 at 8..
            0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, // [1.0, 2.0] at 9..17
            0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40, // [3.0, 4.0] at 17..25
            0x01, // level
            0x10, 0x01, // base 1: int 1 at 27..28
            0x00,
        ];
        assert_eq!(at(&data, ""), (0, data.len(), true));
        assert_eq!(at(&data, "/1"), (1, 2, true));
        assert_eq!(at(&data, "/3"), (4, 3, true));
        assert_eq!(at(&data, "/4"), (8, 17, true));
        assert_eq!(at(&data, "/4/list"), (8, 1, false));
        assert_eq!(at(&data, "/4/items/1"), (17, 8, true));
        assert_eq!(at(&data, "/4/items/1/1"), (21, 4, true));
        assert_eq!(at(&data, "/base"), (26, 3, true));
        assert_eq!(at(&data, "/base/1"), (27, 1, true));
        let opts = Options::default();
        for bad in [
            "/2",
            "/4/items/2",
            "/4/items/0/vector2",
            "/1/x",
            "/base/2",
            "/x",
        ] {
            let e = bean_span(&data, &toks(bad), &opts).unwrap_err();
            assert!(e.contains("no value at"), "{bad}: {e}");
        }
        // Bytes that stop short give the walk's error, never a panic.
        assert!(bean_span(&data[..5], &toks("/3"), &opts).is_err());
    }
}
