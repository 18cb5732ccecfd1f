//! A FastLZ compressor that writes the bytes Godot's bundled FastLZ writes
//! (`thirdparty/misc/fastlz.c`, which `Compression::compress` calls for
//! `COMPRESSION_FASTLZ`), written for gamewire from the algorithm's rules:
//!
//! - `fastlz_compress` takes level 1 for inputs under 64 KiB, level 2 otherwise; an input
//!   under 4 bytes is one literal run (nothing at all for an empty input).
//! - Matches are found through a table of 8192 positions (all 0 at the start), hashed from
//!   the three bytes at a position: with `v = u16le(p)`,
//!   `(v ^ u16le(p + 1) ^ (v >> 3)) & 8191`. The table takes the position looked up before
//!   the candidate is checked; a candidate is a match when it is nearer than 8192 bytes
//!   (level 1) or 73 725 (level 2, where one 8191 or more away needs five equal bytes) and
//!   its first three bytes are equal. Level 2 first takes a run of four equal bytes
//!   (the byte before the position and the three from it) as a match at distance 1,
//!   without touching the table.
//! - The first two bytes are always literals; matches are sought while the position is
//!   more than 13 bytes from the end, and no match covers the last three bytes. After a
//!   match the two positions before its end go into the table.
//! - Literal runs hold at most 32 bytes (a control byte `run - 1`); a match is a control
//!   byte `len << 5 | distance >> 8` (`len` = match length − 2, 7 meaning "more follows",
//!   `distance` biased by one), the extra length (level 1: one byte, matches over 264 bytes
//!   split; level 2: 255s then the rest), and the distance's low byte; level 2 writes a far
//!   distance (8191 or more) as low byte 255 then 16 bits big endian of `distance − 8191`.
//! - Level 2 marks itself in the first byte's top bits (`| 0x20`).
//!
//! Decompression ([`decompress`]) is the `fastlz-rs` crate's.
//!
//! ```
//! use gamewire_godot::container::fastlz;
//! let plain = b"abcabcabcabcabcabcabcabcabc, and again abcabcabc".to_vec();
//! let packed = fastlz::compress(&plain);
//! let mut back = vec![0u8; plain.len()];
//! assert_eq!(fastlz::decompress(&packed, &mut back).unwrap(), plain.len());
//! assert_eq!(back, plain);
//! ```

/// Decompresses `src` (either level) into `dst`, giving the bytes written; an error when
/// `src` is damaged or inflates past `dst`.
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Result<usize, fastlz_rs::DecompressError> {
    fastlz_rs::decompress_to_buf(src, dst)
}

/// Inputs shorter than this are compressed at level 1, the rest at level 2.
pub const LEVEL_2_FROM: usize = 65536;

const HASH_SIZE: usize = 1 << 13;
const RUN_MAX: usize = 32;
const L1_MAX_DISTANCE: usize = 8192;
const L2_NEAR: usize = 8191;
const L2_MAX_DISTANCE: usize = 65535 + L2_NEAR - 1;
/// Level 1's longest match code before a match is split (a match of 264 bytes).
const L1_SPLIT: usize = 262;

/// Compresses `input` as Godot's `fastlz_compress` does (level by size).
pub fn compress(input: &[u8]) -> Vec<u8> {
    if input.len() < LEVEL_2_FROM {
        compress_level(input, Level::One)
    } else {
        compress_level(input, Level::Two)
    }
}

/// A FastLZ level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Level 1: near matches only, the faster.
    One,
    /// Level 2: runs, far matches and long lengths.
    Two,
}

fn hash(d: &[u8], p: usize) -> usize {
    let v = u16::from_le_bytes([d[p], d[p + 1]]) as usize;
    let w = u16::from_le_bytes([d[p + 1], d[p + 2]]) as usize;
    (v ^ w ^ (v >> 3)) & (HASH_SIZE - 1)
}

/// The output under construction: bytes and the literal run being written.
struct Out {
    bytes: Vec<u8>,
    /// Literals in the open run (its control byte sits just before them).
    run: usize,
}

impl Out {
    /// Opens a literal run: its control byte, filled in when the run closes.
    fn open_run(&mut self) {
        self.bytes.push(RUN_MAX as u8 - 1);
    }

    fn literal(&mut self, b: u8) {
        self.bytes.push(b);
        self.run += 1;
        if self.run == RUN_MAX {
            self.run = 0;
            self.open_run();
        }
    }

    /// Closes the open run: sets its count, or drops its control byte when empty.
    fn close_run(&mut self) {
        if self.run > 0 {
            let at = self.bytes.len() - self.run - 1;
            self.bytes[at] = self.run as u8 - 1;
        } else {
            self.bytes.pop();
        }
        self.run = 0;
    }
}

/// Compresses `input` at `level` (Godot's `fastlz1_compress` / `fastlz2_compress`).
pub fn compress_level(input: &[u8], level: Level) -> Vec<u8> {
    let d = input;
    let n = d.len();
    if n < 4 {
        let mut out = Vec::with_capacity(n + 1);
        if n > 0 {
            out.push(n as u8 - 1);
            out.extend_from_slice(d);
        }
        return out;
    }
    let bound = n - 2;
    let mut table = vec![0usize; HASH_SIZE];
    let mut out = Out {
        bytes: Vec::with_capacity(n + n / 16 + 8),
        run: 0,
    };
    out.open_run();
    out.literal(d[0]);
    out.literal(d[1]);
    let mut ip = 2usize;
    while ip + 13 < n {
        let anchor = ip;
        // The candidate: a run (level 2), or what the table holds for these bytes.
        let (reference, mut len) = if level == Level::Two
            && d[ip] == d[ip - 1]
            && d[ip] == d[ip + 1]
            && d[ip + 1] == d[ip + 2]
        {
            (anchor - 1, 3)
        } else {
            let h = hash(d, ip);
            let candidate = table[h];
            table[h] = anchor;
            let distance = anchor - candidate;
            let max = match level {
                Level::One => L1_MAX_DISTANCE,
                Level::Two => L2_MAX_DISTANCE,
            };
            if distance == 0 || distance >= max || d[candidate..candidate + 3] != d[ip..ip + 3] {
                out.literal(d[anchor]);
                ip = anchor + 1;
                continue;
            }
            let mut len = 3;
            if level == Level::Two && distance >= L2_NEAR {
                if d[candidate + 3..candidate + 5] != d[ip + 3..ip + 5] {
                    out.literal(d[anchor]);
                    ip = anchor + 1;
                    continue;
                }
                len = 5;
            }
            (candidate, len)
        };
        // Extend the match. `end` follows the engine's cursor: one past the first byte
        // that differs (or the bound), so the match covers anchor..end - 1.
        let distance = anchor - reference - 1;
        let mut p = anchor + len;
        let mut r = reference + len;
        let end = if distance == 0 {
            let x = d[p - 1];
            r = p - 1;
            while p < bound && d[r] == x {
                p += 1;
                r += 1;
            }
            p
        } else {
            let mut differed = false;
            for _ in 0..8 {
                let eq = d[r] == d[p];
                p += 1;
                r += 1;
                if !eq {
                    differed = true;
                    break;
                }
            }
            if !differed {
                while p < bound {
                    let eq = d[r] == d[p];
                    p += 1;
                    r += 1;
                    if !eq {
                        break;
                    }
                }
            }
            p
        };
        out.close_run();
        let last = end - 3;
        len = last - anchor;
        encode_match(&mut out.bytes, level, len, distance);
        table[hash(d, last)] = last;
        table[hash(d, last + 1)] = last + 1;
        ip = last + 2;
        out.open_run();
    }
    while ip < n {
        out.literal(d[ip]);
        ip += 1;
    }
    out.close_run();
    let mut bytes = out.bytes;
    if level == Level::Two {
        bytes[0] |= 1 << 5;
    }
    bytes
}

/// Writes a match of code `len` (length − 2) at biased `distance`.
fn encode_match(o: &mut Vec<u8>, level: Level, mut len: usize, distance: usize) {
    match level {
        Level::One => {
            let hi = (distance >> 8) as u8;
            let lo = distance as u8;
            while len > L1_SPLIT {
                o.extend_from_slice(&[(7 << 5) + hi, (L1_SPLIT - 7 - 2) as u8, lo]);
                len -= L1_SPLIT;
            }
            if len < 7 {
                o.extend_from_slice(&[((len as u8) << 5) + hi, lo]);
            } else {
                o.extend_from_slice(&[(7 << 5) + hi, (len - 7) as u8, lo]);
            }
        }
        Level::Two => {
            let near = distance < L2_NEAR;
            let top = if near { (distance >> 8) as u8 } else { 31 };
            if len < 7 {
                o.push(((len as u8) << 5) + top);
            } else {
                o.push((7 << 5) + top);
                len -= 7;
                while len >= 255 {
                    o.push(255);
                    len -= 255;
                }
                o.push(len as u8);
            }
            if near {
                o.push(distance as u8);
            } else {
                let far = distance - L2_NEAR;
                o.extend_from_slice(&[255, (far >> 8) as u8, far as u8]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(plain: &[u8], level: Level) {
        let packed = compress_level(plain, level);
        let mut back = vec![0u8; plain.len()];
        let n = decompress(&packed, &mut back)
            .unwrap_or_else(|e| panic!("{level:?} {} bytes: {e}", plain.len()));
        assert_eq!(n, plain.len(), "{level:?}");
        assert_eq!(back, plain, "{level:?}");
    }

    /// A small deterministic generator (xorshift) for test data.
    fn noise(seed: u64, len: usize, alphabet: u8) -> Vec<u8> {
        let mut s = seed | 1;
        (0..len)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % alphabet as u64) as u8
            })
            .collect()
    }

    #[test]
    fn both_levels_round_trip_varied_data() {
        for level in [Level::One, Level::Two] {
            for len in [0usize, 1, 3, 4, 5, 13, 14, 15, 16, 17, 100, 4096, 70000] {
                for (seed, alphabet) in [(1, 255u8), (2, 4), (3, 1), (4, 2)] {
                    round_trip(&noise(seed, len, alphabet), level);
                }
            }
            // Long runs, long repeats, far repeats (level 2's 16-bit distances).
            round_trip(&vec![7u8; 100_000], level);
            let block = noise(9, 9000, 255);
            let mut far = block.clone();
            far.extend(noise(10, 60_000, 255));
            far.extend_from_slice(&block);
            round_trip(&far, level);
        }
    }

    #[test]
    fn level_follows_size_and_is_marked() {
        assert_eq!(compress(&[5u8; 1000])[0] >> 5, 0);
        assert_eq!(compress(&[5u8; 70000])[0] >> 5, 1);
        assert_eq!(compress(&[]), Vec::<u8>::new());
        assert_eq!(compress(b"abc"), vec![2, b'a', b'b', b'c']);
    }

    #[test]
    fn a_long_level_one_match_is_split() {
        let plain = vec![0u8; 2000];
        let packed = compress_level(&plain, Level::One);
        // Two literals, then pieces of 264 bytes (code 7, extra 253) at distance 2.
        assert_eq!(&packed[..3], &[1, 0, 0]);
        assert_eq!(&packed[3..6], &[0xE0, 253, 1]);
        round_trip(&plain, Level::One);
    }
}
