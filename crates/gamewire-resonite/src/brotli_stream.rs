//! Brotli as Resonite writes it: one raw Brotli stream (no framing), quality 9, window 16.

use gamewire_core::{Error, ErrorKind, Result};
use std::io::Read;

/// The quality Resonite's `ToBRSON` uses.
pub const RESONITE_QUALITY: u32 = 9;
/// The window (log2 of bytes) Resonite's `ToBRSON` uses.
pub const RESONITE_WINDOW: u32 = 16;

/// Decodes a raw Brotli stream; bytes after the end of the stream are ignored (as the
/// engine does). `base` is the offset of `data` in the file; `cap` the largest output.
///
/// The output grows in exact steps and never past `cap`: a stream that would produce
/// more stops with "expands past the limit" as soon as its output reaches `cap + 1`.
pub fn decompress(data: &[u8], base: usize, cap: u64) -> Result<Vec<u8>> {
    decompress_prefix(data, base, cap.saturating_add(1), cap)
}

/// Decodes at most `want` bytes of a raw Brotli stream (fewer when it ends first); more
/// output than `cap` is an error. `decompress_prefix(d, b, 4, cap)` peeks at the first
/// bytes without decoding the rest.
pub fn decompress_prefix(data: &[u8], base: usize, want: u64, cap: u64) -> Result<Vec<u8>> {
    let first = (data.len() as u64)
        .saturating_mul(4)
        .min(want.min(cap).saturating_add(1));
    let mut out = Vec::new();
    crate::lz4::try_grow(&mut out, first.min(1 << 30) as usize, base, "Brotli stream")?;
    let mut reader = brotli::Decompressor::new(data, 1 << 16);
    let mut buf = vec![0u8; 1 << 16];
    while (out.len() as u64) < want {
        let n = reader
            .read(&mut buf)
            .map_err(|e| Error::msg_at(base, format!("corrupt Brotli stream: {e}")))?;
        if n == 0 {
            break;
        }
        let total = out.len() as u64 + n as u64;
        if total > cap {
            return Err(Error::at(
                base,
                ErrorKind::SizeLimit {
                    what: "Brotli stream expands past the limit: its output",
                    size: total,
                    limit: cap,
                },
            ));
        }
        if out.capacity() - out.len() < n {
            // Double, but never past the cap.
            let grow = (out.len() as u64).max(n as u64).min(cap - out.len() as u64);
            crate::lz4::try_grow(&mut out, grow as usize, base, "Brotli stream")?;
        }
        out.extend_from_slice(&buf[..n]);
    }
    out.truncate(want.min(out.len() as u64) as usize);
    Ok(out)
}

/// Encodes `data` as a raw Brotli stream with the given quality (0..=11) and window
/// (10..=24), appending to `out`.
pub fn compress(data: &[u8], quality: u32, window: u32, out: &mut Vec<u8>) -> Result<()> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality.min(11) as i32,
        lgwin: window.clamp(10, 24) as i32,
        size_hint: data.len(),
        ..Default::default()
    };
    let mut input = data;
    brotli::BrotliCompress(&mut input, out, &params)
        .map_err(|e| Error::msg(format!("Brotli encoder: {e}")))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_cap() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 13) as u8).collect();
        let mut out = Vec::new();
        compress(&data, RESONITE_QUALITY, RESONITE_WINDOW, &mut out).unwrap();
        assert!(out.len() < 200);
        assert_eq!(decompress(&out, 0, 10_000).unwrap(), data);
        assert!(matches!(
            decompress(&out, 0, 9_999).unwrap_err().kind(),
            ErrorKind::SizeLimit { .. }
        ));
    }

    #[test]
    fn corrupt_and_truncated_streams_are_errors() {
        let mut out = Vec::new();
        compress(b"hello hello hello hello", 9, 16, &mut out).unwrap();
        assert!(decompress(&out[..out.len() - 2], 0, 1000).is_err());
        assert!(decompress(&[0xff, 0xff, 0xff, 0xff], 0, 1000).is_err());
    }
}
