//! Schema-less decoding: bytes to a [`Bean`] tree typed by the wire.

use crate::cursor::Cursor;
use crate::value::{Bean, Field, Value, WireType};
use gamewire_core::{Error, ErrorKind, Result};

/// Options for decoding untrusted bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Deepest nesting of beans, lists and maps accepted (default 1024).
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: gamewire_core::Limits::DEFAULT.max_depth,
        }
    }
}

/// Decodes one bean that fills the whole of `data`.
pub fn decode(data: &[u8], opts: &Options) -> Result<Bean> {
    let mut c = Cursor::new(data);
    let bean = read_bean(&mut c, opts, 0)?;
    if !c.is_empty() {
        return Err(Error::at(
            c.offset(),
            ErrorKind::TrailingBytes {
                count: c.remaining(),
            },
        ));
    }
    Ok(bean)
}

/// Decodes one bean from the cursor (bytes after it are left unread).
pub fn read_bean(c: &mut Cursor<'_>, opts: &Options, depth: usize) -> Result<Bean> {
    read_bean_in(c, opts, depth, &mut scratch())
}

/// A field stack for [`read_bean_in`]. It starts with one placeholder so that no bean's
/// fields start at index 0: `split_off(0)` would hand over the whole stack's buffer
/// (its spare capacity included) instead of copying the fields to an exact-size one.
fn scratch() -> Vec<Field> {
    let mut v = Vec::with_capacity(16);
    v.push(Field {
        id: 0,
        value: Value::Integer(0),
    });
    v
}

/// Refuses nesting past `opts.max_depth`, at the current offset.
#[inline]
pub(crate) fn check_depth(c: &Cursor<'_>, opts: &Options, depth: usize) -> Result<()> {
    if depth >= opts.max_depth {
        return Err(Error::at(
            c.offset(),
            ErrorKind::DepthLimit {
                limit: opts.max_depth,
            },
        ));
    }
    Ok(())
}

/// [`read_bean`] collecting fields on `scratch` (shared by all nested beans), so each
/// bean's field vector is allocated once at its exact size.
fn read_bean_in(
    c: &mut Cursor<'_>,
    opts: &Options,
    depth: usize,
    scratch: &mut Vec<Field>,
) -> Result<Bean> {
    check_depth(c, opts, depth)?;
    let start = scratch.len();
    let mut levels: Vec<Vec<Field>> = Vec::new();
    let mut id: u32 = 0;
    loop {
        let at = c.offset();
        let t = c.u8()?;
        match t {
            0 => break,
            1 => {
                // Each base level nests one deeper (the tree chains them): bounded by
                // the same limit as nesting, at the byte that opens the level.
                level_depth(at, opts, depth + levels.len() + 1)?;
                levels.push(scratch.split_off(start));
                id = 0;
                continue;
            }
            2..=15 => {
                return Err(Error::unexpected_at(
                    at,
                    "a field tag (id delta 1 or more), 0x00 (end of bean) or 0x01 (end of level)",
                    format!("tag byte 0x{t:02x} (id delta 0)"),
                ))
            }
            _ => {}
        }
        let delta = read_tag_delta(c, t)?;
        let new_id = id as u64 + delta as u64;
        if new_id > i32::MAX as u64 {
            return Err(Error::unexpected_at(
                at,
                "a field id up to 2147483647",
                new_id.to_string(),
            ));
        }
        id = new_id as u32;
        let value = if t & 0x0f == 0 {
            Value::Integer(c.long().map_err(|e| e.in_key(id.to_string()))?)
        } else {
            let ty = wire_type(at, t & 0x0f)?;
            read_value_in(c, ty, opts, depth + 1, scratch).map_err(|e| e.in_key(id.to_string()))?
        };
        scratch.push(Field { id, value });
    }
    // `split_off` (at 1 or more) allocates exactly the fields' length and copies them.
    let fields = scratch.split_off(start);
    // Levels run from the most derived to the base; chain them.
    let mut bean = Bean { fields, base: None };
    while let Some(f) = levels.pop() {
        bean = Bean {
            fields: f,
            base: Some(Box::new(bean)),
        };
    }
    Ok(bean)
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
    WireType::from_u8(n)
        .ok_or_else(|| Error::unexpected_at(at, "a wire type 0 to 12", format!("wire type {n}")))
}

/// Reads one value of wire type `ty`.
pub fn read_value(c: &mut Cursor<'_>, ty: WireType, opts: &Options, depth: usize) -> Result<Value> {
    read_value_in(c, ty, opts, depth, &mut scratch())
}

fn read_value_in(
    c: &mut Cursor<'_>,
    ty: WireType,
    opts: &Options,
    depth: usize,
    scratch: &mut Vec<Field>,
) -> Result<Value> {
    match ty {
        WireType::List => read_list(c, opts, depth, scratch),
        WireType::Map => read_map(c, opts, depth, scratch),
        WireType::Bean => Ok(Value::Bean(read_bean_in(c, opts, depth, scratch)?)),
        WireType::Dynamic => read_dynamic(c, opts, depth, scratch),
        _ => read_scalar(c, ty),
    }
}

#[inline(never)]
fn read_dynamic(
    c: &mut Cursor<'_>,
    opts: &Options,
    depth: usize,
    scratch: &mut Vec<Field>,
) -> Result<Value> {
    let type_id = c.long()?;
    Ok(Value::Dynamic {
        type_id,
        bean: read_bean_in(c, opts, depth, scratch)?,
    })
}

#[inline(never)]
fn read_scalar(c: &mut Cursor<'_>, ty: WireType) -> Result<Value> {
    Ok(match ty {
        WireType::Integer => Value::Integer(c.long()?),
        WireType::Float => Value::Float(c.f32()?),
        WireType::Double => Value::Double(c.f64()?),
        WireType::Bytes => Value::Bytes(c.len_bytes()?.to_vec()),
        WireType::Vector2 => Value::Vector2([c.f32()?, c.f32()?]),
        WireType::Vector2Int => Value::Vector2Int([c.long()?, c.long()?]),
        WireType::Vector3 => Value::Vector3([c.f32()?, c.f32()?, c.f32()?]),
        WireType::Vector3Int => Value::Vector3Int([c.long()?, c.long()?, c.long()?]),
        _ => Value::Vector4([c.f32()?, c.f32()?, c.f32()?, c.f32()?]),
    })
}

#[inline(never)]
fn read_list(
    c: &mut Cursor<'_>,
    opts: &Options,
    depth: usize,
    scratch: &mut Vec<Field>,
) -> Result<Value> {
    check_depth(c, opts, depth)?;
    let at = c.offset();
    let t = c.u8()?;
    let elem = wire_type(at, t & 0x0f)?;
    let count = read_tag_delta(c, t)?;
    let n = c.check_count(at, count as u64, elem.min_size(), "list count")?;
    let mut items = Vec::with_capacity(n);
    if elem == WireType::Integer {
        for i in 0..n {
            items.push(Value::Integer(c.long().map_err(|e| e.in_index(i))?));
        }
        return Ok(Value::List { elem, items });
    }
    for i in 0..n {
        items.push(read_value_in(c, elem, opts, depth + 1, scratch).map_err(|e| e.in_index(i))?);
    }
    Ok(Value::List { elem, items })
}

#[inline(never)]
fn read_map(
    c: &mut Cursor<'_>,
    opts: &Options,
    depth: usize,
    scratch: &mut Vec<Field>,
) -> Result<Value> {
    check_depth(c, opts, depth)?;
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
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        let k = read_value_in(c, key, opts, depth + 1, scratch).map_err(|e| e.in_index(i))?;
        let v = read_value_in(c, value, opts, depth + 1, scratch).map_err(|e| e.in_index(i))?;
        entries.push((k, v));
    }
    Ok(Value::Map {
        key,
        value,
        entries,
    })
}

/// Skips one value of wire type `ty` without building it (Zeze's `SkipUnknownField`).
pub fn skip_value(c: &mut Cursor<'_>, ty: WireType, opts: &Options, depth: usize) -> Result<()> {
    check_depth(c, opts, depth)?;
    match ty {
        WireType::Integer => c.skip_long()?,
        WireType::Float => {
            c.bytes(4)?;
        }
        WireType::Double | WireType::Vector2 => {
            c.bytes(8)?;
        }
        WireType::Vector3 => {
            c.bytes(12)?;
        }
        WireType::Vector4 => {
            c.bytes(16)?;
        }
        WireType::Vector2Int => {
            c.long()?;
            c.long()?;
        }
        WireType::Vector3Int => {
            c.long()?;
            c.long()?;
            c.long()?;
        }
        WireType::Bytes => {
            c.len_bytes()?;
        }
        WireType::List => {
            let at = c.offset();
            let t = c.u8()?;
            let elem = wire_type(at, t & 0x0f)?;
            let n = read_tag_delta(c, t)?;
            let n = c.check_count(at, n as u64, elem.min_size(), "list count")?;
            match elem {
                WireType::Integer => {
                    for _ in 0..n {
                        c.skip_long()?;
                    }
                }
                WireType::Bean if n > 0 => {
                    // The depth check `skip_value` makes for each item, made once (at
                    // the first item, as it would fail).
                    if depth + 1 >= opts.max_depth {
                        return Err(Error::at(
                            c.offset(),
                            ErrorKind::DepthLimit {
                                limit: opts.max_depth,
                            },
                        )
                        .in_index(0));
                    }
                    for i in 0..n {
                        skip_bean(c, opts, depth + 1).map_err(|e| e.in_index(i))?;
                    }
                }
                _ => {
                    for i in 0..n {
                        skip_value(c, elem, opts, depth + 1).map_err(|e| e.in_index(i))?;
                    }
                }
            }
        }
        WireType::Map => {
            let at = c.offset();
            let t = c.u8()?;
            let (k, v) = (wire_type(at, t >> 4)?, wire_type(at, t & 0x0f)?);
            let cat = c.offset();
            let n = c.uint("map count")?;
            let n = c.check_count(cat, n as u64, k.min_size() + v.min_size(), "map count")?;
            for i in 0..n {
                skip_value(c, k, opts, depth + 1).map_err(|e| e.in_index(i))?;
                skip_value(c, v, opts, depth + 1).map_err(|e| e.in_index(i))?;
            }
        }
        WireType::Dynamic => {
            c.long()?;
            skip_bean(c, opts, depth)?;
        }
        WireType::Bean => skip_bean(c, opts, depth)?,
    }
    Ok(())
}

/// Refuses a base level at `depth` past `opts.max_depth` (the `0x01` at `at` opens it).
#[inline]
fn level_depth(at: usize, opts: &Options, depth: usize) -> Result<()> {
    if depth >= opts.max_depth {
        return Err(Error::at(
            at,
            ErrorKind::DepthLimit {
                limit: opts.max_depth,
            },
        ));
    }
    Ok(())
}

/// Skips the rest of a bean up to and including its final `0x00` (all levels).
pub fn skip_bean(c: &mut Cursor<'_>, opts: &Options, depth: usize) -> Result<()> {
    let mut levels = 0usize;
    loop {
        let t = c.u8()?;
        // The common tags first: a one-byte tag of an integer or a byte string.
        if (0x10..0xf0).contains(&t) {
            let ty = t & 0x0f;
            if ty == 0 {
                c.skip_long()?;
                continue;
            }
            if ty == 3 {
                c.len_bytes()?;
                continue;
            }
            if ty == 4 && depth + 1 < opts.max_depth {
                // A list of integers with a one-byte header, as `skip_value` would.
                if let Some(h) = c.peek() {
                    if h < 0xf0 && h & 0x0f == 0 {
                        let at = c.offset();
                        c.u8()?;
                        let n = c.check_count(at, (h >> 4) as u64, 1, "list count")?;
                        for _ in 0..n {
                            c.skip_long()?;
                        }
                        continue;
                    }
                }
            }
        }
        let at = c.offset() - 1;
        match t {
            0 => return Ok(()),
            1 => {
                levels += 1;
                level_depth(at, opts, depth + levels)?;
                continue;
            }
            2..=15 => {
                return Err(Error::unexpected_at(
                    at,
                    "a field tag, 0x00 or 0x01",
                    format!("tag byte 0x{t:02x} (id delta 0)"),
                ))
            }
            _ => {}
        }
        if t >> 4 == 15 {
            read_tag_delta(c, t)?;
        }
        match t & 0x0f {
            0 => c.skip_long()?,
            3 => {
                c.len_bytes()?;
            }
            ty => skip_value(c, wire_type(at, ty)?, opts, depth + 1)?,
        }
    }
}
