//! Where a value's bits are: the bits of the value at a JSON Pointer of a blob's or
//! `BINd` file's JSON document ([`crate::json`], what `gamewire decode` writes), in
//! bytes and, since the format is bit-packed, the bit within the first byte.
//!
//! Read by the view's decoder ([`crate::view`]) asked to note where each value's bits
//! start and end (after the alignment padding before it: the padding is not the
//! value's): no owned tree is built. A property's bits are its value's (in deep mode the
//! size and tag before it are not included); a container's start with its count; an
//! object's with its type hash (`$hash` is those 32 bits; `$class`, named from them,
//! gets them too, marked not its own). A component of a fixed struct (a `Color`'s `r`,
//! a `Vector3D`'s `x`, a `Rect`'s `left`, a `Matrix3x3`'s row or number) gets its own
//! bits, in wire order (a `Color` is b, g, r, a; a `Quaternion` w, x, y, z); a part of
//! a raw value (`$hash`, `$bits`, `$raw`) gets the whole value's, marked not its own.
//!
//! When the data is compressed (manual zlib framing, serializer flag 8), the offsets
//! are in the inflated data ([`BitSpan::inflated`]), whose bytes [`BitSpan::bytes`]
//! holds.

use crate::types::TypeList;
use crate::view::{OwnedView, Pointed};
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
/// Errors: the decode's (byte, bit, path), or a pointer that names no value. Decodes
/// `data` on each call: a program asking often keeps a [`SpanIndex`].
pub fn span(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    toks: &[String],
) -> Result<BitSpan, String> {
    SpanIndex::decode(data, types, opts)?.span(toks)
}

/// A blob or `BINd` file decoded once with the bits of every value noted (the view's
/// nodes and two words per node, no owned tree): [`SpanIndex::span`] then answers
/// without decoding again. `B` is the input (`&[u8]`, `Arc<[u8]>`, ...), `T` the type
/// list (`&TypeList`, `Arc<TypeList>`, ...), both kept.
pub struct SpanIndex<B, T> {
    view: OwnedView<B, T>,
    bits: Vec<[u64; 2]>,
}

impl<B: AsRef<[u8]>, T: AsRef<TypeList>> SpanIndex<B, T> {
    /// Decodes `data` (a `BINd` file, by its magic, or a blob read with `opts`) with
    /// `types`, noting every value's bits. Errors: the decode's (byte, bit, path).
    pub fn decode(data: B, types: T, opts: &Options) -> Result<Self, String> {
        let (view, bits) = OwnedView::decode_any_with(data, types, opts, false, true)
            .map_err(|e| e.to_string())?;
        Ok(SpanIndex { view, bits })
    }

    /// The bits of the value at JSON Pointer tokens `toks`; an error names a pointer
    /// that is not there.
    pub fn span(&self, toks: &[String]) -> Result<BitSpan, String> {
        let bits = |node: usize| self.bits.get(node).copied().unwrap_or([0, 0]);
        let view = self.view.view();
        let (start, len, own) = match view.pointed(toks).map_err(|e| missing(toks, e))? {
            Pointed::Node(n, own) => {
                let [a, b] = bits(n);
                (a, b.saturating_sub(a), own)
            }
            Pointed::Hash(n, own) => (bits(n)[0], 32, own),
            Pointed::Part(n, first, count) => (bits(n)[0] + first, count, true),
            Pointed::Bits(a, n) => (a, n, true),
        };
        let (input_at, all, base) = self.view.stream();
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
            inflated: input_at.is_none(),
            bytes,
        })
    }
}

/// The error for a pointer that is not there.
pub(crate) fn missing(toks: &[String], why: String) -> String {
    let mut p = String::new();
    for t in toks {
        p.push('/');
        p.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    format!("no value at {p:?}: {why}")
}
