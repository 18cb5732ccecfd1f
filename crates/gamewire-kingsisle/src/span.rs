//! Where a value's bits are: the bits of the value at a JSON Pointer of a blob's or
//! `BINd` file's JSON document ([`crate::json`], what `gamewire decode` writes), in
//! bytes and, since the format is bit-packed, the bit within the first byte.
//!
//! Read by the view's decoder ([`crate::view`]) asked to note where each value's bits
//! start and end (after the alignment padding before it: the padding is not the
//! value's): no owned tree is built. A property's bits are its value's (in deep mode the
//! size and tag before it are not included); a container's start with its count; an
//! object's with its type hash (`$hash` is those 32 bits; `$class`, named from them,
//! gets them too, marked not its own). A part of a value read whole (a `Color`'s `r`,
//! a `Vector3D`'s `x`) gets the whole value's bits, marked not its own.
//!
//! When the data is compressed (manual zlib framing, serializer flag 8), the offsets
//! are in the inflated data ([`BitSpan::inflated`]), whose bytes [`BitSpan::bytes`]
//! holds.

use crate::types::TypeList;
use crate::view::{Pointed, View};
use crate::Options;

/// Where the bits of one value are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSpan {
    /// The byte holding the first bit.
    pub offset: usize,
    /// The bytes holding the bits, from `offset` (the first and last may hold bits of
    /// other values too when the value is not byte-aligned).
    pub length: usize,
    /// The first bit within the first byte (0 = its least significant bit: bits are
    /// read least significant first).
    pub bit: u8,
    /// The number of bits.
    pub bits: u64,
    /// False when the bits hold more than the value (a component of a `Color` or
    /// `Vector3D`; an object's `$class`).
    pub own: bool,
    /// True when the offsets are in the inflated data (the data is zlib-compressed),
    /// not in the input.
    pub inflated: bool,
    /// The `length` bytes from `offset`.
    pub bytes: Vec<u8>,
}

/// The bits of the value at JSON Pointer tokens `toks` of the JSON document of `data`
/// (a `BINd` file, by its magic, or a blob read with `opts`), read with `types`.
/// Errors: the decode's (byte, bit, path), or a pointer that names no value.
pub fn span(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    toks: &[String],
) -> Result<BitSpan, String> {
    let mut scratch = Vec::new();
    let (view, located) = View::decode_any_located(data, types, opts, &mut scratch, false, true)
        .map_err(|e| e.to_string())?;
    let bits = |node: usize| located.spans.get(node).copied().unwrap_or([0, 0]);
    let (start, len, own) = match view.pointed(toks).map_err(|e| missing(toks, e))? {
        Pointed::Node(n, own) => {
            let [a, b] = bits(n);
            (a, b.saturating_sub(a), own)
        }
        Pointed::Hash(n, own) => (bits(n)[0], 32, own),
        Pointed::Bits(a, n) => (a, n, true),
    };
    let (base, inflated, all): (usize, bool, &[u8]) = match located.input_at {
        Some(at) => (at, false, data),
        None => (located.scratch_at, true, &scratch),
    };
    let offset = base + (start / 8) as usize;
    let bit = (start % 8) as u8;
    let length = (u64::from(bit) + len).div_ceil(8) as usize;
    let bytes = all
        .get(offset..offset + length)
        .ok_or_else(|| missing(toks, "its bits run past the data".into()))?
        .to_vec();
    Ok(BitSpan {
        offset,
        length,
        bit,
        bits: len,
        own,
        inflated,
        bytes,
    })
}

/// The error for a pointer that is not there.
fn missing(toks: &[String], why: String) -> String {
    let mut p = String::new();
    for t in toks {
        p.push('/');
        p.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    format!("no value at {p:?}: {why}")
}
