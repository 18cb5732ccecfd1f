//! The checks of a deep object's property loop (each property a bit size, a hash, the
//! value), shared by the owned decoder and the borrowed view so both give the same
//! errors at the same bits.

use crate::bits::BitReader;
use crate::types::ClassDef;
use crate::value::serializer_flags as sf;
use crate::value::Raw;
use gamewire_core::{Error, ErrorKind, Result};

/// Checks that the property that started at bit `start` took the `size` bits its size
/// field says (the error names the property).
#[inline]
pub(crate) fn check_size(r: &BitReader, start: usize, size: usize, name: &str) -> Result<()> {
    let actual = r.pos() - start;
    if actual == size {
        return Ok(());
    }
    Err(r
        .error_at(
            start,
            ErrorKind::Unexpected {
                expected: format!("a property of {size} bits as its size field says"),
                found: format!("{actual} bits"),
            },
        )
        .in_key(name))
}

/// Reads the rest of a property whose hash the class does not know (its size and hash
/// already read from bit `start`) as raw bits.
pub(crate) fn read_unknown(r: &mut BitReader, start: usize, size: usize, hash: u32) -> Result<Raw> {
    let used = r.pos() - start;
    let Some(bits) = size.checked_sub(used) else {
        return Err(r.error_at(
            start,
            ErrorKind::Message(format!(
                "property size {size} is smaller than its {used} bits of header"
            )),
        ));
    };
    let data = r.read_raw(bits).map_err(|e| e.in_key(format!("#{hash}")))?;
    Ok(Raw {
        type_hash: 0,
        bits: bits as u64,
        data,
    })
}

/// The error of a property hash `class` does not know, when unknown properties are not
/// skipped: it says how to keep them.
#[cold]
pub(crate) fn unknown_hash(r: &BitReader, start: usize, hash: u32, class: &ClassDef) -> Error {
    r.error_at(
        start,
        ErrorKind::Message(format!(
            "unknown property hash {hash} (0x{hash:08x}) in {}; {KEEP_RAW}",
            class.name
        )),
    )
}

/// How unknown types and properties can be kept (deep mode only).
const KEEP_RAW: &str = "Options::skip_unknown (the CLI's --skip-unknown) keeps unknown \
                        types and properties as raw bits, written back unchanged";

/// The error of an object whose type hash is not in the type list, when it cannot be
/// kept: in deep mode it says how to keep it, in shallow mode why it cannot be.
#[cold]
pub(crate) fn unknown_type(r: &BitReader, start: usize, hash: u32, shallow: bool) -> Error {
    let why = if shallow {
        "shallow mode has no object sizes, so an unknown object cannot be stepped over"
    } else {
        KEEP_RAW
    };
    r.error_at(
        start,
        ErrorKind::Message(format!(
            "unknown type hash {hash} (0x{hash:08x}): not in the type list; {why}"
        )),
    )
}

/// The error of a root object whose type is unknown: nested objects can be kept raw,
/// the root cannot (a document holds a known root class).
#[cold]
pub(crate) fn unknown_root(base: usize, hash: u32) -> Error {
    Error::at(
        base,
        ErrorKind::Message(format!(
            "the root object's type hash {hash} (0x{hash:08x}) is not in the type list; \
             unknown nested objects can be kept as raw bits, an unknown root cannot: \
             add its class to the type list"
        )),
    )
}

/// The bits left in the object after the property of `size` bits that started at bit
/// `start`, or an error when it runs past the object's end.
#[inline]
pub(crate) fn take(r: &BitReader, start: usize, left: usize, size: usize) -> Result<usize> {
    left.checked_sub(size).ok_or_else(|| {
        r.error_at(
            start,
            ErrorKind::Message(format!(
                "property of {size} bits overflows its object ({left} bits left)"
            )),
        )
    })
}

/// A length prefix: with serializer flag 2 (compact prefixes) a bit choosing 7 or 31
/// bits; otherwise a little-endian `u16` for a string, a `u32` for anything else.
#[inline]
pub(crate) fn length(r: &mut BitReader, flags: u32, string: bool) -> Result<usize> {
    if flags & sf::COMPACT_LENGTH_PREFIXES != 0 {
        let large = r.read_bit()?;
        Ok(r.read_bits(if large { 31 } else { 7 })? as usize)
    } else if string {
        Ok(u16::from_le_bytes(r.read_array::<2>()?) as usize)
    } else {
        Ok(r.read_u32_aligned()? as usize)
    }
}

/// `N` little-endian `f32`s from the first `4 * N` of `B` bytes.
pub(crate) fn f32s<const N: usize, const B: usize>(b: &[u8; B]) -> [f32; N] {
    std::array::from_fn(|i| {
        f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

/// `N` little-endian `i32`s from the first `4 * N` of `B` bytes.
pub(crate) fn i32s<const N: usize, const B: usize>(b: &[u8; B]) -> [i32; N] {
    std::array::from_fn(|i| {
        i32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}
