//! The checks of a deep object's property loop (each property a bit size, a hash, the
//! value), shared by the owned decoder and the borrowed view so both give the same
//! errors at the same bits.

use crate::bits::BitReader;
use crate::types::ClassDef;
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
/// skipped.
#[cold]
pub(crate) fn unknown_hash(r: &BitReader, start: usize, hash: u32, class: &ClassDef) -> Error {
    r.error_at(
        start,
        ErrorKind::Message(format!(
            "unknown property hash {hash} (0x{hash:08x}) in {}",
            class.name
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
