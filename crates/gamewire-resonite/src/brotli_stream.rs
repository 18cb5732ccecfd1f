//! Brotli as Resonite writes it: one raw Brotli stream (no framing), quality 9, window 16.

use gamewire_core::{Error, ErrorKind, Result};
use std::io::Read;

/// The quality Resonite's `ToBRSON` uses.
pub const RESONITE_QUALITY: u32 = 9;
/// The window (log2 of bytes) Resonite's `ToBRSON` uses.
pub const RESONITE_WINDOW: u32 = 16;

/// Decodes a raw Brotli stream; bytes after the end of the stream are ignored (as the
/// engine does). `base` is the offset of `data` in the file; `cap` the largest output.
pub fn decompress(data: &[u8], base: usize, cap: u64) -> Result<Vec<u8>> {
    let mut out =
        Vec::with_capacity((data.len() as u64).saturating_mul(4).min(cap).min(1 << 30) as usize);
    let reader = brotli::Decompressor::new(data, 1 << 16);
    let mut limited = reader.take(cap.saturating_add(1));
    limited
        .read_to_end(&mut out)
        .map_err(|e| Error::msg_at(base, format!("corrupt Brotli stream: {e}")))?;
    if out.len() as u64 > cap {
        return Err(Error::at(
            base,
            ErrorKind::SizeLimit {
                what: "decompressed Brotli data",
                size: out.len() as u64,
                limit: cap,
            },
        ));
    }
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
