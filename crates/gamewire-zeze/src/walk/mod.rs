//! The one walk of the ByteBuffer bean grammar, generic over what it produces.
//!
//! [`bean`] and [`value`] read a bean or a value of any wire type and hand what they read
//! to a [`Sink`]; they are compiled once per sink (monomorphised), so each product pays
//! only for what it keeps. Every check and limit is made here or in [`grammar`] (the
//! rules the readers that pull one value at a time share), once, with one error message
//! each:
//!
//! - [`Skip`]: keeps nothing, so the walk validates (`skip_bean`, `skip_value`, the
//!   borrowed view's check of its input and its steps over values);
//! - the owned tree (`decode`, `read_bean`, `read_value`): [`crate::Bean`] and
//!   [`crate::Value`].
//!
//! Errors name the byte offset and the path: field ids as keys, list and map positions
//! as indexes. Nesting is counted at beans, lists, maps and inheritance levels (a bean's
//! fields one deeper than the bean); scalars are not counted.

pub mod grammar;
mod sink;

pub use grammar::Tag;
pub use sink::{Sink, Skip};

use crate::cursor::Cursor;
use crate::decode::Options;
use crate::value::WireType;
use gamewire_core::{Error, ErrorKind, Result};
use grammar::{check_depth, level_depth, list_header, map_header, tag_slow};

/// Walks the one bean that fills `data` into `sink`; bytes after it are an error.
#[inline]
pub fn whole<'a, S: Sink<'a>>(data: &'a [u8], opts: &Options, sink: &mut S) -> Result<S::BeanOut> {
    let mut c = Cursor::new(data);
    let bean = bean(&mut c, opts, 0, sink)?;
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

/// Walks one bean at nesting `depth`, from its first tag up to and including its final
/// `0x00` (all inheritance levels).
pub fn bean<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::BeanOut> {
    check_depth(c, opts, depth)?;
    let mut b = sink.begin_bean();
    let mut levels = 0usize;
    let mut id: u32 = 0;
    loop {
        let t = c.u8()?;
        // The common tags first: a one-byte tag with a defined wire type, its id under
        // the limit (ids never pass 2147483647, so the sum fits).
        if (0x10..0xf0).contains(&t) {
            let next = id + (t >> 4) as u32;
            let ty = t & 0x0f;
            if next <= i32::MAX as u32 {
                id = next;
                match field_value(c, ty, opts, depth + 1, sink) {
                    Ok(v) => sink.field(&mut b, id, v),
                    // An undefined wire type is the tag's error, not the value's.
                    Err(e) if ty > 12 => return Err(e),
                    Err(e) => return Err(e.in_key(id.to_string())),
                }
                continue;
            }
        }
        if t == 0 {
            break;
        }
        match tag_slow(c, t, id)? {
            Tag::End => break,
            Tag::Level => {
                levels += 1;
                level_depth(c.offset() - 1, opts, depth + levels)?;
                sink.level(&mut b);
                id = 0;
            }
            Tag::Field { id: next, wire } => {
                id = next;
                match value(c, wire, opts, depth + 1, sink) {
                    Ok(v) => sink.field(&mut b, id, v),
                    Err(e) => return Err(e.in_key(id.to_string())),
                }
            }
        }
    }
    Ok(sink.end_bean(b))
}

/// A field's value of wire type number `ty` (an error for 13 to 15, at the one-byte tag) at nesting `depth`: integers,
/// byte strings and integer lists with a one-byte header read here, the rest by
/// [`value`]. (Out of the bean's loop so that an unoptimised build's recursive frames
/// stay small: it is inlined only where debug assertions are off.)
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn field_value<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    ty: u8,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::Value> {
    match ty {
        0 => sink.integer(c),
        3 => c.len_bytes().map(|s| sink.bytes(s)),
        4 => match c.peek() {
            // A list of integers with a one-byte header.
            Some(h) if h < 0xf0 && h & 0x0f == 0 && depth < opts.max_depth => {
                let at = c.offset();
                c.step(1);
                match c.check_count(at, (h >> 4) as u64, 1, "list count") {
                    Ok(n) => integers(c, n, sink),
                    Err(e) => Err(e),
                }
            }
            _ => list(c, opts, depth, sink),
        },
        13..=15 => Err(grammar::bad_wire(c.offset() - 1, ty)),
        _ => value(c, WireType::ALL[ty as usize], opts, depth, sink),
    }
}

/// Walks one value of wire type `ty` at nesting `depth`.
#[inline]
pub fn value<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    ty: WireType,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::Value> {
    match ty {
        WireType::Integer => sink.integer(c),
        WireType::Bytes => Ok(sink.bytes(c.len_bytes()?)),
        WireType::List => list(c, opts, depth, sink),
        WireType::Map => map(c, opts, depth, sink),
        WireType::Bean => {
            let b = bean(c, opts, depth, sink)?;
            Ok(sink.bean(b))
        }
        WireType::Dynamic => dynamic(c, opts, depth, sink),
        _ => fixed(c, ty, sink),
    }
}

/// A dynamic bean: its type id, then the bean (at the same nesting).
#[inline(never)]
fn dynamic<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::Value> {
    let type_id = c.long()?;
    let b = bean(c, opts, depth, sink)?;
    Ok(sink.dynamic(type_id, b))
}

/// Floats, doubles and vectors (out of line: it keeps the recursive walk's frames small).
#[inline(never)]
fn fixed<'a, S: Sink<'a>>(c: &mut Cursor<'a>, ty: WireType, sink: &mut S) -> Result<S::Value> {
    Ok(match ty {
        WireType::Float => sink.float(c.f32()?),
        WireType::Double => sink.double(c.f64()?),
        WireType::Vector2 => sink.vector2([c.f32()?, c.f32()?]),
        WireType::Vector2Int => sink.vector2_int([c.long()?, c.long()?]),
        WireType::Vector3 => sink.vector3([c.f32()?, c.f32()?, c.f32()?]),
        WireType::Vector3Int => sink.vector3_int([c.long()?, c.long()?, c.long()?]),
        // Vector4 (the callers hand only the fixed-size types here).
        _ => sink.vector4([c.f32()?, c.f32()?, c.f32()?, c.f32()?]),
    })
}

/// A list: its header, then its items one deeper.
#[inline]
fn list<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::Value> {
    check_depth(c, opts, depth)?;
    let (elem, n) = list_header(c)?;
    if elem == WireType::Integer {
        return integers(c, n, sink);
    }
    let mut items = sink.begin_list(elem, n);
    match elem {
        WireType::Bean => {
            for i in 0..n {
                let b = bean(c, opts, depth + 1, sink).map_err(|e| e.in_index(i))?;
                let v = sink.bean(b);
                sink.item(&mut items, v);
            }
        }
        _ => {
            for i in 0..n {
                let v = value(c, elem, opts, depth + 1, sink).map_err(|e| e.in_index(i))?;
                sink.item(&mut items, v);
            }
        }
    }
    Ok(sink.end_list(elem, items))
}

/// The `n` items of a list of integers, its header read.
#[inline(always)]
fn integers<'a, S: Sink<'a>>(c: &mut Cursor<'a>, n: usize, sink: &mut S) -> Result<S::Value> {
    let mut items = sink.begin_list(WireType::Integer, n);
    for i in 0..n {
        match sink.integer(c) {
            Ok(v) => sink.item(&mut items, v),
            Err(e) => return Err(e.in_index(i)),
        }
    }
    Ok(sink.end_list(WireType::Integer, items))
}

/// A map: its header, then key and value of each entry, one deeper.
#[inline(never)]
fn map<'a, S: Sink<'a>>(
    c: &mut Cursor<'a>,
    opts: &Options,
    depth: usize,
    sink: &mut S,
) -> Result<S::Value> {
    check_depth(c, opts, depth)?;
    let (key, val, n) = map_header(c)?;
    let mut entries = sink.begin_map(key, val, n);
    for i in 0..n {
        let k = value(c, key, opts, depth + 1, sink).map_err(|e| e.in_index(i))?;
        let v = value(c, val, opts, depth + 1, sink).map_err(|e| e.in_index(i))?;
        sink.entry(&mut entries, k, v);
    }
    Ok(sink.end_map(key, val, entries))
}
