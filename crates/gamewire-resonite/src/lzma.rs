//! LZMA as Resonite's `LZMAHelper` writes it (the 7-Zip LZMA SDK).
//!
//! A 21-byte header — 5 property bytes (`lc/lp/pb` byte, little-endian u32 dictionary
//! size), little-endian i64 uncompressed size, little-endian i64 compressed size — then
//! raw LZMA1 data. Resonite writes `lc=3 lp=0 pb=2` (byte `0x5d`), a 2 MiB dictionary and
//! no end marker. The decoder stops after the declared uncompressed size; a size of -1
//! means "unknown: read to the end marker".
//!
//! Decoding and encoding go through liblzma (xz): its `.lzma` ("alone") decoder is fed a
//! 13-byte header built from our 5 property bytes and the declared size, then the data.
//! liblzma's LZMA1 encoder always ends the stream with an end marker (6 bytes) when it
//! does not know the size up front; the SDK's decoder stops at the declared size and
//! never reads it, so the files stay readable by Resonite.

use gamewire_core::{Error, ErrorKind, Result};
use liblzma::stream::{Action, LzmaOptions, MatchFinder, Mode, Status, Stream};

/// Size of the header before the LZMA data.
pub const HEADER_LEN: usize = 21;
/// The property byte Resonite writes: `(pb * 5 + lp) * 9 + lc` with lc=3, lp=0, pb=2.
pub const RESONITE_PROPS: u8 = 0x5d;
/// The dictionary size Resonite writes (2 MiB).
pub const RESONITE_DICT: u32 = 1 << 21;

/// The parsed 21-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The five property bytes.
    pub props: [u8; 5],
    /// Declared uncompressed size (-1 = unknown).
    pub uncompressed: i64,
    /// Declared compressed size.
    pub compressed: i64,
}

impl Header {
    /// Parses the header at the start of `data`.
    pub fn parse(data: &[u8], base: usize) -> Result<Header> {
        if data.len() < HEADER_LEN {
            return Err(Error::at(
                base + data.len(),
                ErrorKind::UnexpectedEof {
                    needed: HEADER_LEN - data.len(),
                    remaining: data.len(),
                },
            ));
        }
        let mut props = [0u8; 5];
        props.copy_from_slice(&data[..5]);
        let uncompressed = i64::from_le_bytes(data[5..13].try_into().unwrap_or_default());
        let compressed = i64::from_le_bytes(data[13..21].try_into().unwrap_or_default());
        if props[0] >= 9 * 5 * 5 {
            return Err(Error::unexpected_at(
                base,
                "an LZMA property byte below 225",
                props[0].to_string(),
            ));
        }
        Ok(Header {
            props,
            uncompressed,
            compressed,
        })
    }

    /// The dictionary size from the property bytes.
    pub fn dict_size(&self) -> u32 {
        u32::from_le_bytes([self.props[1], self.props[2], self.props[3], self.props[4]])
    }

    /// True when the header is consistent with a file of `len` bytes: a valid property
    /// byte, a compressed size equal to what follows the header, a plausible size.
    pub fn fits_exactly(&self, len: usize) -> bool {
        self.props[0] < 225
            && self.compressed >= 0
            && self.compressed as u64 == (len - HEADER_LEN) as u64
            && (self.uncompressed >= 5 || self.uncompressed == -1)
    }
}

/// Decodes header and data. `base` is the offset of `data` in the file; `cap` the largest
/// output accepted; `memlimit` the most memory liblzma may use (the dictionary).
pub fn decompress(data: &[u8], base: usize, cap: u64, memlimit: u64) -> Result<Vec<u8>> {
    let h = Header::parse(data, base)?;
    let rest = &data[HEADER_LEN..];
    let known = match h.uncompressed {
        -1 => None,
        n if n < 0 => {
            return Err(Error::unexpected_at(
                base + 5,
                "an uncompressed size of -1 or more",
                n.to_string(),
            ));
        }
        n => Some(n as u64),
    };
    if h.compressed < 0 || h.compressed as u64 > rest.len() as u64 {
        return Err(Error::at(
            base + 13,
            ErrorKind::LengthPastEnd {
                what: "LZMA compressed size",
                declared: h.compressed as u64,
                remaining: rest.len(),
            },
        ));
    }
    let input = &rest[..h.compressed as usize];
    if let Some(n) = known {
        if n > cap {
            return Err(Error::at(
                base + 5,
                ErrorKind::SizeLimit {
                    what: "LZMA stream expands past the limit: its declared size",
                    size: n,
                    limit: cap,
                },
            ));
        }
    }
    let dict = h.dict_size();
    if u64::from(dict) > memlimit {
        return Err(Error::at(
            base + 1,
            ErrorKind::SizeLimit {
                what: "LZMA dictionary",
                size: dict.into(),
                limit: memlimit,
            },
        ));
    }
    let mut alone = [0u8; 13];
    alone[..5].copy_from_slice(&h.props);
    alone[5..].copy_from_slice(&known.unwrap_or(u64::MAX).to_le_bytes());
    let lzma_err =
        |e: liblzma::stream::Error, at: usize| Error::msg_at(at, format!("corrupt LZMA data: {e}"));
    // Memory: the dictionary, plus liblzma's state (a few tens of KiB).
    let mut stream = Stream::new_lzma_decoder(memlimit.max(1 << 20))
        .map_err(|e| Error::msg_at(base, format!("cannot start the LZMA decoder: {e}")))?;
    // Never trust the declared size for the first allocation: LZMA rarely expands more
    // than ~60x on real data trees; grow past that only as output actually arrives.
    let guess = (input.len() as u64)
        .saturating_mul(64)
        .saturating_add(1 << 16);
    let first = known.unwrap_or(guess).min(guess).min(cap);
    let mut out: Vec<u8> = Vec::new();
    crate::lz4::try_grow(&mut out, (first as usize).max(64), base, "LZMA stream")?;
    // liblzma reads the header only while it has room for output.
    stream
        .process_vec(&alone, &mut out, Action::Run)
        .map_err(|e| lzma_err(e, base))?;
    if stream.total_in() != alone.len() as u64 {
        return Err(Error::msg_at(
            base,
            "LZMA decoder did not accept the properties",
        ));
    }
    let mut consumed = 0usize;
    loop {
        if let Some(n) = known {
            if out.len() as u64 >= n {
                break;
            }
        }
        if out.len() == out.capacity() {
            // Room for one byte past the cap (to see a stream that goes on), never more:
            // `reserve_exact`, since `reserve` may double past the limit.
            let limit = known.unwrap_or(u64::MAX).min(cap.saturating_add(1));
            let want = (out.len() as u64)
                .max(1 << 16)
                .min(limit - out.len() as u64);
            crate::lz4::try_grow(&mut out, want as usize, base, "LZMA stream")?;
        }
        let before_in = stream.total_in();
        let before_out = out.len();
        let status = stream
            .process_vec(&input[consumed..], &mut out, Action::Run)
            .map_err(|e| lzma_err(e, base + HEADER_LEN + consumed))?;
        consumed += (stream.total_in() - before_in) as usize;
        if out.len() as u64 > cap {
            return Err(Error::at(
                base,
                ErrorKind::SizeLimit {
                    what: "LZMA stream expands past the limit: its output",
                    size: out.len() as u64,
                    limit: cap,
                },
            ));
        }
        if matches!(status, Status::StreamEnd) {
            break;
        }
        if consumed == input.len() && out.len() == before_out && out.len() < out.capacity() {
            return Err(Error::at(
                base + HEADER_LEN + consumed,
                ErrorKind::Unexpected {
                    expected: match known {
                        Some(n) => format!("LZMA data for {n} bytes"),
                        None => "an LZMA end marker".into(),
                    },
                    found: format!("the end of the compressed data after {} bytes", out.len()),
                },
            ));
        }
    }
    if let Some(n) = known {
        if (out.len() as u64) < n {
            return Err(Error::at(
                base + HEADER_LEN + consumed,
                ErrorKind::Unexpected {
                    expected: format!("LZMA data for {n} bytes"),
                    found: format!("an end marker after {} bytes", out.len()),
                },
            ));
        }
        out.truncate(n as usize);
    }
    Ok(out)
}

/// Encodes `data` with Resonite's settings (lc=3 lp=0 pb=2, 2 MiB dictionary, BT4 match
/// finder, 32 fast bytes) and appends header and data to `out`.
pub fn compress(data: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let mut opts =
        LzmaOptions::new_preset(6).map_err(|e| Error::msg(format!("LZMA options: {e}")))?;
    opts.dict_size(RESONITE_DICT)
        .literal_context_bits(3)
        .literal_position_bits(0)
        .position_bits(2)
        .mode(Mode::Normal)
        .match_finder(MatchFinder::BinaryTree4)
        .nice_len(32);
    let mut stream = Stream::new_lzma_encoder(&opts)
        .map_err(|e| Error::msg(format!("cannot start the LZMA encoder: {e}")))?;
    let mut enc: Vec<u8> = Vec::with_capacity(data.len() / 4 + 1024);
    let mut consumed = 0usize;
    loop {
        if enc.len() == enc.capacity() {
            enc.reserve(enc.capacity().max(1 << 16));
        }
        let before = stream.total_in();
        let status = stream
            .process_vec(&data[consumed..], &mut enc, Action::Finish)
            .map_err(|e| Error::msg(format!("LZMA encoder: {e}")))?;
        consumed += (stream.total_in() - before) as usize;
        if matches!(status, Status::StreamEnd) {
            break;
        }
    }
    // `enc` is a .lzma file: 5 property bytes, u64 size (unknown), then the data.
    if enc.len() < 13 {
        return Err(Error::msg("LZMA encoder produced no header"));
    }
    let body = &enc[13..];
    out.extend_from_slice(&enc[..5]);
    out.extend_from_slice(&(data.len() as i64).to_le_bytes());
    out.extend_from_slice(&(body.len() as i64).to_le_bytes());
    out.extend_from_slice(body);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_matches_resonite_settings_and_round_trips() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 97) as u8).collect();
        let mut out = Vec::new();
        compress(&data, &mut out).unwrap();
        assert_eq!(&out[..5], &[0x5d, 0, 0, 0x20, 0]);
        let h = Header::parse(&out, 0).unwrap();
        assert_eq!(h.uncompressed, 5000);
        assert_eq!(h.compressed as usize, out.len() - HEADER_LEN);
        assert!(h.fits_exactly(out.len()));
        assert_eq!(decompress(&out, 0, 1 << 20, 1 << 26).unwrap(), data);
    }

    #[test]
    fn lying_sizes_and_bombs_are_errors() {
        let data = vec![0u8; 100_000];
        let mut out = Vec::new();
        compress(&data, &mut out).unwrap();
        // declared uncompressed size larger than the stream holds
        let mut lie = out.clone();
        lie[5..13].copy_from_slice(&200_000i64.to_le_bytes());
        assert!(decompress(&lie, 0, 1 << 30, 1 << 26).is_err());
        // compressed size past the end
        let mut lie = out.clone();
        lie[13..21].copy_from_slice(&(1i64 << 40).to_le_bytes());
        let e = decompress(&lie, 0, 1 << 30, 1 << 26).unwrap_err();
        assert_eq!(e.offset(), Some(13));
        // output cap
        let e = decompress(&out, 0, 50_000, 1 << 26).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::SizeLimit { .. }));
        // huge dictionary refused before allocation
        let mut lie = out.clone();
        lie[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decompress(&lie, 0, 1 << 30, 1 << 26).is_err());
        // truncated data
        let mut cut = out[..out.len() - 8].to_vec();
        let n = (cut.len() - HEADER_LEN) as i64;
        cut[13..21].copy_from_slice(&n.to_le_bytes());
        assert!(decompress(&cut, 0, 1 << 30, 1 << 26).is_err());
    }
}
