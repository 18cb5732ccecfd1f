//! zlib framing: `u32 size` (little-endian, the inflated size) followed by a zlib stream.

use flate2::{write::ZlibEncoder, Compression};
use gamewire_core::{Error, ErrorKind, Result};
use libdeflater::{DecompressionError, Decompressor};
use std::cell::RefCell;
use std::io::Write;

/// The largest inflate ratio zlib's deflate can reach (about 1032:1).
const MAX_RATIO: usize = 1032;

/// Inflates `u32 size` + zlib stream; `base` is the offset of `data` for errors.
///
/// The declared size is checked against `cap` and against what the compressed bytes could
/// possibly hold before anything is allocated; the inflated size must match exactly.
pub fn unframe(data: &[u8], base: usize, cap: u64) -> Result<Vec<u8>> {
    let head = data.get(0..4).ok_or_else(|| {
        Error::at(
            base,
            ErrorKind::UnexpectedEof {
                needed: 4 - data.len(),
                remaining: data.len(),
            },
        )
    })?;
    let size = u32::from_le_bytes(head.try_into().expect("4 bytes")) as usize;
    let stream = &data[4..];
    if size as u64 > cap {
        return Err(Error::at(
            base,
            ErrorKind::SizeLimit {
                what: "zlib stream expands past the limit: its declared size",
                size: size as u64,
                limit: cap,
            },
        ));
    }
    inflate_exact(stream, size, base + 4)
}

/// Inflates the zlib `stream` that must give exactly `size` bytes; `base` is the offset
/// of `stream` for errors.
///
/// `size` is checked against what the stream could possibly hold (zlib's largest ratio)
/// before anything is allocated; the output buffer is then made once at exactly `size`
/// bytes and the stream inflated into it in one call (libdeflate), which stops at its
/// end: a stream that would give more (a zlib bomb) is an error, not a large allocation,
/// and so is one that gives less or whose Adler-32 does not match.
pub fn inflate_exact(stream: &[u8], size: usize, base: usize) -> Result<Vec<u8>> {
    if size > stream.len().saturating_mul(MAX_RATIO) + 64 {
        return Err(Error::at(
            base,
            ErrorKind::LengthPastEnd {
                what: "inflated size",
                declared: size as u64,
                remaining: stream.len(),
            },
        ));
    }
    let mut out = Vec::new();
    // An allocation that fails (a memory cap) is an error naming the size, not an abort.
    out.try_reserve_exact(size).map_err(|_| {
        Error::msg_at(
            base,
            format!("out of memory: cannot hold the {size} bytes of the inflated zlib stream"),
        )
    })?;
    out.resize(size, 0);
    inflate_into(stream, &mut out, base)?;
    Ok(out)
}

/// Inflates the zlib `stream` into `out`, which it must fill exactly (one libdeflate
/// call: more output than `out` holds, less, a damaged stream or a mismatched Adler-32
/// is an error); `base` is the offset of `stream` for errors. The caller bounds
/// `out.len()` (see [`inflate_exact`]).
pub fn inflate_into(stream: &[u8], out: &mut [u8], base: usize) -> Result<()> {
    let size = out.len();
    let got = INFLATER.with(|d| d.borrow_mut().zlib_decompress(stream, out));
    let declared = || format!("{size} inflated bytes as declared");
    match got {
        Ok(n) if n == size => Ok(()),
        Ok(n) => Err(Error::at(
            base,
            ErrorKind::Unexpected {
                expected: declared(),
                found: n.to_string(),
            },
        )),
        Err(DecompressionError::InsufficientSpace) => Err(Error::at(
            base,
            ErrorKind::Unexpected {
                expected: declared(),
                found: "more".into(),
            },
        )),
        Err(DecompressionError::BadData) => Err(Error::at(
            base,
            ErrorKind::Message(
                "bad zlib stream (a wrong header, bad deflate data, truncated, or a \
                 mismatched Adler-32)"
                    .into(),
            ),
        )),
    }
}

thread_local! {
    /// One libdeflate decompressor per thread (it holds its tables; making one per call
    /// would allocate them each time).
    static INFLATER: RefCell<Decompressor> = RefCell::new(Decompressor::new());
}

/// The Adler-32 checksum that ends a zlib stream.
pub fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// Deflates `data` (zlib, best compression, as the game's files use).
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::with_capacity(data.len() / 2 + 16), Compression::best());
    e.write_all(data).expect("writing to a Vec");
    e.finish().expect("writing to a Vec")
}

/// `u32 size` + zlib stream of `data`.
pub fn frame(data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&compress(data));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler32_known_value() {
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(b""), 1);
    }

    #[test]
    fn frames_round_trip_and_sizes_are_checked() {
        let data = b"hello hello hello hello".repeat(10);
        let f = frame(&data);
        assert_eq!(unframe(&f, 0, 1 << 20).unwrap(), data);
        let mut bad = f.clone();
        bad[0] = bad[0].wrapping_add(1);
        assert!(unframe(&bad, 0, 1 << 20).is_err());
        assert!(matches!(
            unframe(&f, 0, 10).unwrap_err().kind(),
            ErrorKind::SizeLimit { .. }
        ));
        assert!(unframe(&f[..f.len() - 3], 0, 1 << 20).is_err());
        let mut huge = f.clone();
        huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unframe(&huge, 0, u64::MAX).is_err());
    }
}
