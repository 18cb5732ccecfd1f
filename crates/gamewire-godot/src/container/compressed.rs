//! Godot's compressed files (magic `GCPF`): what `FileAccess.open_compressed` writes
//! (`File.open_compressed` in Godot 3), the same in both engines.
//!
//! The layout, from the engines' `core/io/file_access_compressed.cpp` and
//! `core/io/compression.cpp` (all numbers little endian u32):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `GCPF` |
//! | 4 | mode: 0 FastLZ, 1 Deflate (zlib-wrapped), 2 Zstd, 3 gzip |
//! | 4 | block size (4096 as `open_compressed` writes) |
//! | 4 | plaintext length |
//! | 4 × n | each block's compressed size; n = length / block size + 1 (the last block may be empty) |
//! | … | the blocks, each compressed on its own |
//! | 4 | magic `GCPF` again |
//!
//! Every block holds `block size` bytes of plaintext but the last, which holds the rest
//! (`length % block size`, possibly none). FastLZ compresses a block shorter than 16
//! bytes as 16 bytes, zero-padded.
//!
//! [`compress_block`] compresses as the engine does, with the engine's algorithms and
//! settings: FastLZ by [`super::fastlz`] (level by size, as `fastlz_compress` picks),
//! Deflate and gzip by zlib itself at level 6 (window bits 15, memory level 8, default
//! strategy), Zstd by libzstd at level 3, one frame per block. So a block the engine
//! wrote compresses again to the same bytes. A compressor of another build may still
//! write other bytes for the same plaintext, so [`Compressed::blocks`] keeps each block's
//! original bytes, and [`write`] can take a block's original bytes back when its
//! plaintext is unchanged.
//!
//! ```
//! use gamewire_godot::container::compressed::{self, Mode};
//! let plain = b"hello hello hello hello".repeat(500);
//! for mode in [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip] {
//!     let file = compressed::write(&plain, mode, 4096, &|_, _| None).unwrap();
//!     let read = compressed::read(&file, &gamewire_core::Limits::DEFAULT).unwrap();
//!     assert_eq!(read.plaintext, plain);
//!     assert_eq!(read.mode, mode);
//! }
//! ```

use gamewire_core::{Error, ErrorKind, Limits, Result};
use std::ops::Range;

/// The magic at the start (and the end) of a compressed file.
pub const MAGIC: &[u8; 4] = b"GCPF";

/// The block size `open_compressed` uses.
pub const DEFAULT_BLOCK_SIZE: u32 = 4096;

/// A compression mode (`FileAccess.CompressionMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 0: FastLZ.
    FastLz,
    /// 1: Deflate in a zlib wrapper.
    Deflate,
    /// 2: Zstandard.
    Zstd,
    /// 3: gzip.
    Gzip,
}

impl Mode {
    /// The mode's number in the file.
    pub fn number(self) -> u32 {
        match self {
            Mode::FastLz => 0,
            Mode::Deflate => 1,
            Mode::Zstd => 2,
            Mode::Gzip => 3,
        }
    }

    /// The mode numbered `n`.
    pub fn from_number(n: u32) -> Option<Mode> {
        Some(match n {
            0 => Mode::FastLz,
            1 => Mode::Deflate,
            2 => Mode::Zstd,
            3 => Mode::Gzip,
            _ => return None,
        })
    }

    /// The mode's name: `fastlz`, `deflate`, `zstd`, `gzip`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::FastLz => "fastlz",
            Mode::Deflate => "deflate",
            Mode::Zstd => "zstd",
            Mode::Gzip => "gzip",
        }
    }

    /// The mode named `name` (as [`Mode::name`] writes it).
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip]
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}

/// A compressed file read.
#[derive(Debug, Clone)]
pub struct Compressed {
    /// The compression mode.
    pub mode: Mode,
    /// The block size from the header.
    pub block_size: u32,
    /// The plaintext.
    pub plaintext: Vec<u8>,
    /// Where each block's compressed bytes lie in the file read.
    pub blocks: Vec<Range<usize>>,
}

/// True when `data` starts with the compressed-file magic.
pub fn is_compressed(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

fn u32_at(data: &[u8], at: usize) -> Result<u32> {
    match data.get(at..at + 4) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(Error::at(
            data.len().min(at),
            ErrorKind::UnexpectedEof {
                needed: at + 4 - data.len().min(at + 4),
                remaining: data.len().saturating_sub(at),
            },
        )),
    }
}

/// The plaintext length of block `i` of `count`.
fn block_len(i: usize, count: usize, total: usize, block_size: usize) -> usize {
    if i + 1 == count {
        total % block_size
    } else {
        block_size
    }
}

/// Reads a compressed file. The plaintext may be at most
/// [`Limits::decompress_cap`] of the file's size; each block must give exactly the
/// bytes its place says (a block that inflates past them is an error, found before
/// anything past them is kept).
pub fn read(data: &[u8], limits: &Limits) -> Result<Compressed> {
    if !is_compressed(data) {
        return Err(Error::at(
            0,
            ErrorKind::Unexpected {
                expected: "the compressed-file magic GCPF".into(),
                found: format!("{:?}", String::from_utf8_lossy(&data[..data.len().min(4)])),
            },
        ));
    }
    let mode_n = u32_at(data, 4)?;
    let mode = Mode::from_number(mode_n).ok_or_else(|| {
        let extra = match mode_n {
            4 => " (Brotli, which Godot itself only decompresses and never writes here)",
            _ => "",
        };
        Error::msg_at(
            4,
            format!(
                "compression mode {mode_n}{extra}: gamewire reads 0 FastLZ, 1 Deflate, \
                 2 Zstd and 3 gzip"
            ),
        )
    })?;
    let block_size = u32_at(data, 8)?;
    if block_size == 0 {
        return Err(Error::msg_at(8, "block size 0 (the engine refuses it too)"));
    }
    let total = u32_at(data, 12)? as usize;
    let cap = limits.decompress_cap(data.len());
    if total as u64 > cap {
        return Err(Error::at(
            12,
            ErrorKind::SizeLimit {
                what: "compressed file's plaintext length",
                size: total as u64,
                limit: cap,
            },
        ));
    }
    let bs = block_size as usize;
    let count = total / bs + 1;
    let table = 16usize;
    let table_len = count.saturating_mul(4);
    if table_len > data.len().saturating_sub(table) {
        return Err(Error::at(
            12,
            ErrorKind::LengthPastEnd {
                what: "block size table (4 bytes per block of the length)",
                declared: table_len as u64,
                remaining: data.len().saturating_sub(table),
            },
        ));
    }
    let mut blocks = Vec::with_capacity(count);
    let mut at = table + table_len;
    for i in 0..count {
        let field = table + 4 * i;
        let csize = u32_at(data, field)? as usize;
        if csize > data.len() - at {
            return Err(Error::at(
                field,
                ErrorKind::LengthPastEnd {
                    what: "compressed block size",
                    declared: csize as u64,
                    remaining: data.len() - at,
                },
            ));
        }
        blocks.push(at..at + csize);
        at += csize;
    }
    if data.len() - at < 4 || &data[at..at + 4] != MAGIC {
        return Err(Error::at(
            at,
            ErrorKind::Unexpected {
                expected: "the closing magic GCPF after the last block".into(),
                found: format!(
                    "{:?}",
                    String::from_utf8_lossy(&data[at..data.len().min(at + 4)])
                ),
            },
        ));
    }
    if at + 4 != data.len() {
        return Err(Error::at(
            at + 4,
            ErrorKind::TrailingBytes {
                count: data.len() - at - 4,
            },
        ));
    }
    let mut plaintext = vec![0u8; total];
    let mut scratch = Vec::new();
    for (i, r) in blocks.iter().enumerate() {
        let want = block_len(i, count, total, bs);
        let dst = &mut plaintext[i * bs..i * bs + want];
        decompress_block(mode, &data[r.clone()], dst, &mut scratch).map_err(|(at, what)| {
            Error::msg_at(
                r.start + at,
                format!("compressed block {i} of {count}: {what}"),
            )
        })?;
    }
    Ok(Compressed {
        mode,
        block_size,
        plaintext,
        blocks,
    })
}

/// A block's fault: where in the block, and what.
type BlockError = (usize, String);

fn block_error(at: usize, what: impl std::fmt::Display) -> BlockError {
    (at, what.to_string())
}

/// Decompresses one block into `dst`, which it must fill exactly.
fn decompress_block(
    mode: Mode,
    src: &[u8],
    dst: &mut [u8],
    scratch: &mut Vec<u8>,
) -> std::result::Result<(), BlockError> {
    let want = dst.len();
    let got = match mode {
        Mode::FastLz => {
            // Blocks under 16 bytes were compressed as 16 (zero-padded).
            if want < 16 {
                scratch.clear();
                scratch.resize(16, 0);
                let n = fastlz_rs::decompress_to_buf(src, scratch)
                    .map_err(|e| block_error(0, format!("FastLZ: {e}")))?;
                if n != 16 {
                    return Err(block_error(
                        0,
                        format!("FastLZ gives {n} bytes, not the 16 a short block holds"),
                    ));
                }
                dst.copy_from_slice(&scratch[..want]);
                want
            } else {
                fastlz_rs::decompress_to_buf(src, dst).map_err(|e| match e {
                    fastlz_rs::DecompressError::OutputTooSmall => block_error(
                        0,
                        format!("FastLZ inflates past the {want} bytes the block holds"),
                    ),
                    e => block_error(0, format!("FastLZ: {e}")),
                })?
            }
        }
        Mode::Deflate | Mode::Gzip => {
            let mut d = if mode == Mode::Deflate {
                flate2::Decompress::new(true)
            } else {
                flate2::Decompress::new_gzip(15)
            };
            // One byte of room past the block: output there is a block that inflates
            // past its size.
            scratch.clear();
            scratch.resize(want + 1, 0);
            let status = d
                .decompress(src, scratch, flate2::FlushDecompress::Finish)
                .map_err(|e| block_error(d.total_in() as usize, format!("{}: {e}", mode.name())))?;
            let n = d.total_out() as usize;
            if n > want {
                return Err(block_error(
                    0,
                    format!(
                        "{} inflates past the {want} bytes the block holds",
                        mode.name()
                    ),
                ));
            }
            if status != flate2::Status::StreamEnd {
                return Err(block_error(
                    d.total_in() as usize,
                    format!("the {} stream ends early", mode.name()),
                ));
            }
            if n == want {
                dst.copy_from_slice(&scratch[..want]);
            }
            n
        }
        Mode::Zstd => {
            // libzstd (the crate that also writes the engine's bytes), one decompression
            // context per thread; one byte of room past the block shows a block that
            // inflates past its size.
            scratch.clear();
            scratch.resize(want + 1, 0);
            let n = ZSTD_DECODER.with(|d| -> std::result::Result<usize, BlockError> {
                let mut d = d.borrow_mut();
                let d = match &mut *d {
                    Some(d) => d,
                    none => none.insert(
                        zstd::bulk::Decompressor::new()
                            .map_err(|e| block_error(0, format!("zstd: {e}")))?,
                    ),
                };
                d.decompress_to_buffer(src, &mut scratch[..])
                    .map_err(|e| block_error(0, format!("zstd: {e}")))
            })?;
            if n > want {
                return Err(block_error(
                    0,
                    format!("zstd inflates past the {want} bytes the block holds"),
                ));
            }
            dst[..n].copy_from_slice(&scratch[..n]);
            n
        }
    };
    if got != want {
        return Err(block_error(
            0,
            format!("{} gives {got} bytes, the block holds {want}", mode.name()),
        ));
    }
    Ok(())
}

thread_local! {
    /// The Zstandard decompression context of this thread, made on first use.
    static ZSTD_DECODER: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Compresses one block as the engine does (FastLZ pads blocks under 16 bytes to 16).
pub fn compress_block(mode: Mode, plain: &[u8]) -> Result<Vec<u8>> {
    Ok(match mode {
        Mode::FastLz => {
            let mut padded;
            let src = if plain.len() < 16 {
                padded = [0u8; 16];
                padded[..plain.len()].copy_from_slice(plain);
                &padded[..]
            } else {
                plain
            };
            super::fastlz::compress(src)
        }
        Mode::Deflate | Mode::Gzip => deflate_like_zlib(mode, plain)?,
        Mode::Zstd => {
            zstd::bulk::compress(plain, ZSTD_LEVEL).map_err(|e| Error::msg(format!("zstd: {e}")))?
        }
    })
}

/// The zlib level the engine compresses Deflate and gzip blocks at
/// (`Z_DEFAULT_COMPRESSION`, which zlib takes as 6).
pub const ZLIB_LEVEL: u32 = 6;

/// The Zstandard level the engine compresses at (`Compression::zstd_level`'s default,
/// long-distance matching off).
pub const ZSTD_LEVEL: i32 = 3;

/// Deflate (zlib-wrapped) or gzip as the engine's `deflateInit2(level 6, window bits 15
/// or 15 + 16, memory level 8, default strategy)` then one `deflate(Z_FINISH)` writes it:
/// zlib's own algorithm, so the bytes match.
fn deflate_like_zlib(mode: Mode, plain: &[u8]) -> Result<Vec<u8>> {
    let level = flate2::Compression::new(ZLIB_LEVEL);
    let mut c = if mode == Mode::Gzip {
        flate2::Compress::new_gzip(level, 15)
    } else {
        flate2::Compress::new(level, true)
    };
    let mut out = Vec::with_capacity(plain.len() / 2 + 64);
    loop {
        let before = c.total_in() as usize;
        let st = c
            .compress_vec(&plain[before..], &mut out, flate2::FlushCompress::Finish)
            .map_err(|e| Error::msg(format!("{}: {e}", mode.name())))?;
        if st == flate2::Status::StreamEnd {
            break;
        }
        out.reserve(out.capacity().max(64));
    }
    Ok(out)
}

/// Gives the bytes to keep for block `i` (its index and plaintext), or `None` to
/// compress it.
pub type OriginalBlock<'a> = &'a dyn Fn(usize, &[u8]) -> Option<Vec<u8>>;

/// Writes a compressed file of `plaintext` in `mode` with blocks of `block_size`.
/// `original(i, block_plaintext)` gives the bytes to keep for block `i` when that block's
/// plaintext is unchanged from a file read (`None`: compress it).
pub fn write(
    plaintext: &[u8],
    mode: Mode,
    block_size: u32,
    original: OriginalBlock<'_>,
) -> Result<Vec<u8>> {
    if block_size == 0 {
        return Err(Error::msg("a compressed file's block size is at least 1"));
    }
    let total: u32 = plaintext.len().try_into().map_err(|_| {
        Error::msg(format!(
            "a compressed file holds at most 4 GiB (its length is a u32), not {} bytes",
            plaintext.len()
        ))
    })?;
    let bs = block_size as usize;
    let count = plaintext.len() / bs + 1;
    let mut out = Vec::with_capacity(16 + 4 * count + plaintext.len() / 2 + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&mode.number().to_le_bytes());
    out.extend_from_slice(&block_size.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.resize(16 + 4 * count, 0);
    for i in 0..count {
        let len = block_len(i, count, plaintext.len(), bs);
        let plain = &plaintext[i * bs..i * bs + len];
        let c = match original(i, plain) {
            Some(c) => c,
            None => compress_block(mode, plain)?,
        };
        let size = c.len() as u32;
        out[16 + 4 * i..20 + 4 * i].copy_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&c);
    }
    out.extend_from_slice(MAGIC);
    Ok(out)
}

/// The plaintext of each block of a file read (for matching blocks on write).
pub fn block_plaintexts(c: &Compressed) -> impl Iterator<Item = &[u8]> {
    let bs = c.block_size as usize;
    let count = c.blocks.len();
    let total = c.plaintext.len();
    (0..count).map(move |i| {
        let len = block_len(i, count, total, bs);
        &c.plaintext[i * bs..i * bs + len]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modes() -> [Mode; 4] {
        [Mode::FastLz, Mode::Deflate, Mode::Zstd, Mode::Gzip]
    }

    fn fixture(name: &str) -> Vec<u8> {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/containers")
            .join(name);
        std::fs::read(p).unwrap()
    }

    #[test]
    fn engine_written_blocks_compress_again_to_the_same_bytes() {
        for (name, mode) in [
            ("godot3-deflate.sav", Mode::Deflate),
            ("godot3-zstd.sav", Mode::Zstd),
            ("godot3-gzip.sav", Mode::Gzip),
            ("godot3-text-zstd.sav", Mode::Zstd),
            ("godot3-fastlz.sav", Mode::FastLz),
        ] {
            let f = fixture(name);
            let r = read(&f, &Limits::DEFAULT).unwrap();
            assert_eq!(r.mode, mode);
            assert!(!r.blocks.is_empty());
            for (i, (plain, range)) in block_plaintexts(&r).zip(&r.blocks).enumerate() {
                let ours = compress_block(mode, plain).unwrap();
                assert_eq!(ours, &f[range.clone()], "{name} block {i}");
            }
            assert_eq!(
                write(&r.plaintext, mode, r.block_size, &|_, _| None).unwrap(),
                f,
                "{name}"
            );
        }
    }

    #[test]
    fn every_mode_round_trips_at_block_edges() {
        for mode in modes() {
            for len in [0usize, 1, 15, 16, 17, 4095, 4096, 4097, 8192, 10000] {
                let plain: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
                let f = write(&plain, mode, 4096, &|_, _| None).unwrap();
                let r = read(&f, &Limits::DEFAULT).unwrap();
                assert_eq!(r.plaintext, plain, "{mode:?} {len}");
                assert_eq!(r.blocks.len(), len / 4096 + 1);
                // Written back keeping the blocks read: the same bytes.
                let again = write(&plain, mode, 4096, &|i, _| {
                    Some(f[r.blocks[i].clone()].to_vec())
                })
                .unwrap();
                assert_eq!(again, f);
            }
        }
    }

    #[test]
    fn truncations_and_lies_are_errors_with_offsets() {
        for mode in modes() {
            let plain = b"some save data ".repeat(600);
            let f = write(&plain, mode, 4096, &|_, _| None).unwrap();
            for cut in 0..f.len() {
                let e = read(&f[..cut], &Limits::DEFAULT).unwrap_err();
                assert!(e.offset().is_some(), "{mode:?} cut {cut}: {e}");
            }
            // A length past what the blocks hold.
            let mut g = f.clone();
            g[12..16].copy_from_slice(&(plain.len() as u32 + 5000).to_le_bytes());
            assert!(read(&g, &Limits::DEFAULT).is_err());
            // A smaller block size than the blocks were written with: the first block
            // inflates past it.
            let mut g = f.clone();
            g[8..12].copy_from_slice(&8192u32.to_le_bytes());
            assert!(read(&g, &Limits::DEFAULT).is_err());
            // A block size a little smaller, the same block count: block 0 inflates past
            // it, named at the block's first byte.
            let mut g = f.clone();
            g[8..12].copy_from_slice(&4000u32.to_le_bytes());
            let e = read(&g, &Limits::DEFAULT).unwrap_err();
            assert_eq!(e.offset(), Some(16 + 4 * 3), "{mode:?}: {e}");
            assert!(e.to_string().contains("compressed block 0 of 3"), "{e}");
        }
    }

    #[test]
    fn a_length_past_the_decompression_cap_is_refused_before_allocating() {
        let f = write(b"tiny", Mode::Zstd, 4096, &|_, _| None).unwrap();
        let mut g = f.clone();
        g[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        let limits = Limits {
            decompress_allowance: 1 << 20,
            ..Limits::DEFAULT
        };
        let e = read(&g, &limits).unwrap_err();
        assert_eq!(e.offset(), Some(12), "{e}");
    }
}
