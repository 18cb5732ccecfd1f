//! The rules of the ByteBuffer bean grammar, each written once: a field tag (end of bean,
//! end of level, id delta and wire type, the id limit), a list header, a map header and
//! the nesting limit, with their errors. The walker ([`super::bean`]) and every reader
//! that pulls values one at a time (the view's iterators, serde, the schema's typed
//! codec and its JSON view) read the grammar through these.

use crate::cursor::Cursor;
use crate::decode::Options;
use crate::value::WireType;
use gamewire_core::{Error, ErrorKind, Result};

/// What a tag byte (and its extension) says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// `0x00`: the end of the bean.
    End,
    /// `0x01`: the end of an inheritance level (the next level's fields follow, ids from 0).
    Level,
    /// A field: its id (the last id plus the tag's delta) and wire type.
    Field {
        /// The field id, at most 2147483647.
        id: u32,
        /// The wire type of its value.
        wire: WireType,
    },
}

/// Reads the tag at the cursor, the last field id of the level being `last`. Errors: a
/// tag byte 0x02 to 0x0f (id delta 0), an id past 2147483647, a wire type 13 to 15, an
/// extended delta past `u32::MAX`; each names the tag's offset.
#[inline(always)]
pub fn tag(c: &mut Cursor<'_>, last: u32) -> Result<Tag> {
    let t = c.u8()?;
    if (0x10..0xf0).contains(&t) {
        let id = last as u64 + (t >> 4) as u64;
        if let Some(wire) = WireType::from_u8(t & 0x0f) {
            if id <= i32::MAX as u64 {
                return Ok(Tag::Field {
                    id: id as u32,
                    wire,
                });
            }
        }
    }
    tag_slow(c, t, last)
}

/// [`tag`] for everything but a one-byte field tag under the id limit.
#[inline(never)]
pub fn tag_slow(c: &mut Cursor<'_>, t: u8, last: u32) -> Result<Tag> {
    let at = c.offset() - 1;
    match t {
        0 => return Ok(Tag::End),
        1 => return Ok(Tag::Level),
        2..=15 => return Err(bad_tag(at, t)),
        _ => {}
    }
    let delta = read_tag_delta(c, t)?;
    let id = field_id(at, last, delta)?;
    Ok(Tag::Field {
        id,
        wire: wire_type(at, t & 0x0f)?,
    })
}

/// The error for a tag byte 0x02 to 0x0f at `at`.
#[cold]
pub fn bad_tag(at: usize, t: u8) -> Error {
    Error::unexpected_at(
        at,
        "a field tag (id delta 1 or more), 0x00 (end of bean) or 0x01 (end of level)",
        format!("tag byte 0x{t:02x} (id delta 0)"),
    )
}

/// `last + delta` as a field id, refused past 2147483647 (Java's `int`) at `at`.
#[inline(always)]
pub fn field_id(at: usize, last: u32, delta: u32) -> Result<u32> {
    let id = last as u64 + delta as u64;
    if id > i32::MAX as u64 {
        return Err(id_error(at, id));
    }
    Ok(id as u32)
}

#[cold]
fn id_error(at: usize, id: u64) -> Error {
    Error::unexpected_at(at, "a field id up to 2147483647", id.to_string())
}

/// Reads the id delta (or count) packed in the high nibble of `t` (Zeze's `ReadTagSize`).
#[inline]
pub fn read_tag_delta(c: &mut Cursor<'_>, t: u8) -> Result<u32> {
    let d = t >> 4;
    if d < 15 {
        Ok(d as u32)
    } else {
        let at = c.offset();
        let x = c.uint("extended tag")?;
        x.checked_add(15).ok_or_else(|| {
            Error::unexpected_at(
                at,
                "an id delta or count up to 4294967295",
                format!("{x} + 15"),
            )
        })
    }
}

/// The wire type numbered `n` (an error naming the offset for 13..=15).
#[inline]
pub fn wire_type(at: usize, n: u8) -> Result<WireType> {
    WireType::from_u8(n).ok_or_else(|| bad_wire(at, n))
}

/// The error for wire type `n` (13 to 15, undefined) in the tag or header at `at`.
#[cold]
pub fn bad_wire(at: usize, n: u8) -> Error {
    Error::unexpected_at(at, "a wire type 0 to 12", format!("wire type {n}"))
}

/// Refuses a bean, list or map at nesting `depth` past `opts.max_depth`, at the current
/// offset.
#[inline]
pub fn check_depth(c: &Cursor<'_>, opts: &Options, depth: usize) -> Result<()> {
    if depth >= opts.max_depth {
        return Err(depth_error(c.offset(), opts));
    }
    Ok(())
}

/// The nesting limit's error at `at`.
#[cold]
pub fn depth_error(at: usize, opts: &Options) -> Error {
    Error::at(
        at,
        ErrorKind::DepthLimit {
            limit: opts.max_depth,
        },
    )
}

/// Refuses a base level at `depth` past `opts.max_depth` (the `0x01` at `at` opens it:
/// each level nests one deeper, as the tree chains them).
#[inline]
pub fn level_depth(at: usize, opts: &Options, depth: usize) -> Result<()> {
    if depth >= opts.max_depth {
        return Err(depth_error(at, opts));
    }
    Ok(())
}

/// Reads a list header: the items' wire type and their count, checked against the
/// bytes left (each item takes at least its wire type's smallest size). A one-byte
/// header (count under 15) whose items fit is read inline.
#[inline(always)]
pub fn list_header(c: &mut Cursor<'_>) -> Result<(WireType, usize)> {
    if let Some(t) = c.peek() {
        if let Some(elem) = WireType::from_u8(t & 15) {
            let n = (t >> 4) as usize;
            if n < 15 && n * MIN_SIZE[elem as usize] < c.remaining() {
                c.step(1);
                return Ok((elem, n));
            }
        }
    }
    list_header_slow(c)
}

/// [`list_header`] for every other header, and its errors.
#[inline(never)]
pub fn list_header_slow(c: &mut Cursor<'_>) -> Result<(WireType, usize)> {
    let at = c.offset();
    let t = c.u8()?;
    let elem = wire_type(at, t & 15)?;
    let n = read_tag_delta(c, t)?;
    let n = c.check_count(at, n as u64, elem.min_size(), "list count")?;
    Ok((elem, n))
}

/// Reads a map header: key and value wire types and the count of entries, checked
/// against the bytes left.
#[inline]
pub fn map_header(c: &mut Cursor<'_>) -> Result<(WireType, WireType, usize)> {
    let at = c.offset();
    let t = c.u8()?;
    let key = wire_type(at, t >> 4)?;
    let value = wire_type(at, t & 0x0f)?;
    let cat = c.offset();
    let count = c.uint("map count")?;
    let n = c.check_count(
        cat,
        count as u64,
        key.min_size() + value.min_size(),
        "map count",
    )?;
    Ok((key, value, n))
}

/// [`WireType::min_size`] by wire type number (an indexed load where the `match`
/// compiled to a jump).
pub const MIN_SIZE: [usize; 13] = {
    let mut t = [0; 13];
    let mut i = 0;
    while i < 13 {
        t[i] = WireType::ALL[i].min_size();
        i += 1;
    }
    t
};
