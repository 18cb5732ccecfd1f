//! LZ4 as lz4net's `LZ4Stream` writes it: a sequence of chunks, not the LZ4 frame format.
//!
//! Each chunk is `varint flags`, `varint original length`, then — only when flag bit 0
//! (compressed) is set — `varint compressed length`, then that many bytes: a raw LZ4
//! block that decodes to exactly the original length, or the original bytes stored.
//! Flag bit 1 marks high compression (informational); bits 2..4 count extra passes and
//! must be 0 on a compressed chunk. The writer cuts the input into 1 MiB chunks and
//! stores a chunk whose compressed form is not smaller.

use crate::varint;
use gamewire_core::{Error, ErrorKind, Result};

/// Flag bit: the chunk holds an LZ4 block.
pub const FLAG_COMPRESSED: u64 = 0x01;
/// Flag bit: the writer used LZ4 HC (does not change decoding).
pub const FLAG_HIGH_COMPRESSION: u64 = 0x02;
/// The chunk size lz4net uses by default (1 MiB).
pub const CHUNK_SIZE: usize = 1 << 20;

/// The most an LZ4 block of `n` bytes can decode to (each byte of a length run adds at
/// most 255 bytes of output); a declared original length above it is a lie.
fn max_expansion(n: usize) -> u64 {
    (n as u64).saturating_mul(255).saturating_add(64)
}

/// The sum of the original lengths the chunk headers declare, read without decoding a
/// block. The sum stops at the first header the decoder would refuse (it reports it in
/// its turn) and once it passes `cap` (the decoder refuses the stream there).
fn declared_total(data: &[u8], cap: u64) -> u64 {
    let mut pos = 0usize;
    let mut total = 0u64;
    while pos < data.len() {
        let Ok(flags) = varint::read(data, &mut pos, 0, "") else {
            break;
        };
        let Ok(original) = varint::read(data, &mut pos, 0, "") else {
            break;
        };
        let compressed = flags & FLAG_COMPRESSED != 0;
        let stored = if compressed {
            match varint::read(data, &mut pos, 0, "") {
                Ok(n) => n,
                Err(_) => break,
            }
        } else {
            original
        };
        if original > i32::MAX as u64
            || stored > original
            || stored > (data.len() - pos) as u64
            || (compressed && (flags >> 2 != 0 || original > max_expansion(stored as usize)))
        {
            break;
        }
        total += original;
        if total > cap {
            break;
        }
        pos += stored as usize;
    }
    total
}

/// Grows `out` by `extra` bytes of capacity, exactly; an allocation that fails (a memory
/// cap, `ulimit -v`) is an error naming the size, not an abort.
pub(crate) fn try_grow(out: &mut Vec<u8>, extra: usize, at: usize, what: &str) -> Result<()> {
    out.try_reserve_exact(extra).map_err(|_| {
        Error::msg_at(
            at,
            format!(
                "out of memory: cannot hold {} bytes of the decompressed {what}",
                out.len() as u64 + extra as u64
            ),
        )
    })
}

/// Decodes an lz4net chunk stream. `base` is the offset of `data` in the file (for
/// errors); `cap` is the largest output accepted.
///
/// The chunk headers are read first: when the lengths they declare fit in `cap`, the
/// output is allocated once at that size (no doubling, whose copy would briefly hold
/// one and a half times the output).
pub fn decompress(data: &[u8], base: usize, cap: u64) -> Result<Vec<u8>> {
    let mut out: Vec<u8> = Vec::new();
    let declared = declared_total(data, cap);
    if declared <= cap {
        try_grow(&mut out, declared as usize, base, "LZ4 stream")?;
    }
    let mut pos = 0usize;
    while pos < data.len() {
        let chunk_at = pos;
        let flags = varint::read(data, &mut pos, base, "LZ4 chunk flags")?;
        let compressed = flags & FLAG_COMPRESSED != 0;
        let original = varint::read(data, &mut pos, base, "LZ4 chunk length")?;
        let stored = if compressed {
            varint::read(data, &mut pos, base, "LZ4 compressed length")?
        } else {
            original
        };
        if original > i32::MAX as u64 {
            return Err(Error::unexpected_at(
                base + chunk_at,
                "an LZ4 chunk length of at most 2147483647",
                original.to_string(),
            ));
        }
        if stored > original {
            return Err(Error::unexpected_at(
                base + chunk_at,
                "a compressed length not above the original length",
                format!("{stored} > {original}"),
            ));
        }
        let remaining = data.len() - pos;
        if stored > remaining as u64 {
            return Err(Error::at(
                base + pos,
                ErrorKind::LengthPastEnd {
                    what: "LZ4 chunk",
                    declared: stored,
                    remaining,
                },
            ));
        }
        let stored = stored as usize;
        let original = original as usize;
        let total = out.len() as u64 + original as u64;
        if total > cap {
            return Err(Error::at(
                base + chunk_at,
                ErrorKind::SizeLimit {
                    what: "LZ4 stream expands past the limit: its chunks",
                    size: total,
                    limit: cap,
                },
            ));
        }
        let body = &data[pos..pos + stored];
        // Grow geometrically, but never past the cap (`reserve` could double past it).
        if out.capacity() - out.len() < original {
            let want = (out.capacity() as u64 * 2).clamp(total, cap.max(total));
            let extra = want as usize - out.len();
            try_grow(&mut out, extra, base + chunk_at, "LZ4 stream")?;
        }
        if !compressed {
            out.extend_from_slice(body);
        } else {
            if flags >> 2 != 0 {
                return Err(Error::unexpected_at(
                    base + chunk_at,
                    "an LZ4 chunk of one pass (flag bits 2-4 clear)",
                    format!("flags 0x{flags:x}"),
                ));
            }
            if original as u64 > max_expansion(stored) {
                return Err(Error::unexpected_at(
                    base + chunk_at,
                    format!("an original length an LZ4 block of {stored} bytes can reach"),
                    original.to_string(),
                ));
            }
            let start = out.len();
            out.resize(start + original, 0);
            match lz4_flex::block::decompress_into(body, &mut out[start..]) {
                Ok(n) if n == original => {}
                Ok(n) => {
                    return Err(Error::msg_at(
                        base + pos,
                        format!("LZ4 block decoded to {n} bytes, the chunk declares {original}"),
                    ))
                }
                Err(e) => return Err(Error::msg_at(base + pos, format!("corrupt LZ4 block: {e}"))),
            }
        }
        pos += stored;
    }
    Ok(out)
}

/// Encodes `data` as an lz4net chunk stream of `chunk_size`-byte chunks (lz4net's
/// default is [`CHUNK_SIZE`]). Chunks that do not shrink are stored.
pub fn compress(data: &[u8], chunk_size: usize, out: &mut Vec<u8>) {
    let chunk_size = chunk_size.max(16);
    let mut scratch =
        vec![0u8; lz4_flex::block::get_maximum_output_size(chunk_size.min(data.len().max(16)))];
    for chunk in data.chunks(chunk_size) {
        let n = lz4_flex::block::compress_into(chunk, &mut scratch).unwrap_or(usize::MAX);
        if n < chunk.len() {
            varint::write(out, FLAG_COMPRESSED);
            varint::write(out, chunk.len() as u64);
            varint::write(out, n as u64);
            out.extend_from_slice(&scratch[..n]);
        } else {
            varint::write(out, 0);
            varint::write(out, chunk.len() as u64);
            out.extend_from_slice(chunk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_chunk_layout() {
        let mut out = Vec::new();
        compress(b"abc", CHUNK_SIZE, &mut out);
        assert_eq!(out, [0, 3, b'a', b'b', b'c']);
        assert_eq!(decompress(&out, 0, 100).unwrap(), b"abc");
    }

    #[test]
    fn compressed_chunks_split_at_chunk_size() {
        let data = vec![7u8; 100];
        let mut out = Vec::new();
        compress(&data, 64, &mut out);
        assert_eq!(&out[..2], &[FLAG_COMPRESSED as u8, 64]);
        assert_eq!(decompress(&out, 0, 1000).unwrap(), data);
        let e = decompress(&out, 0, 99).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::SizeLimit { .. }), "{e}");
    }

    #[test]
    fn lies_are_errors() {
        // compressed length above the original length
        assert!(decompress(&[1, 2, 3, 0, 0, 0], 0, 100).is_err());
        // stored chunk longer than the input
        let e = decompress(&[0, 9, 1, 2], 10, 100).unwrap_err();
        assert_eq!(e.offset(), Some(12));
        // a bomb: 1 GiB from 5 bytes
        let mut bomb = vec![1u8];
        varint::write(&mut bomb, 1 << 30);
        bomb.extend_from_slice(&[5, 0x1f, 0, 1, 0, 0]);
        assert!(decompress(&bomb, 0, u64::MAX).is_err());
        // extra passes
        assert!(decompress(&[5, 4, 2, 0x30, b'a'], 0, 100).is_err());
    }
}
