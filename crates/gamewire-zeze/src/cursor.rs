//! A byte cursor over a slice with Zeze's primitive reads; every error names the
//! absolute byte offset.
//!
//! The bounds checks and end-of-input errors are gamewire-core's [`Reader`]'s: a
//! `Cursor` is a `Reader` plus Zeze's compact integers and length-prefixed strings.

use crate::varint;
use gamewire_core::{Error, ErrorKind, Reader, Result};

/// A read position in a slice; errors report `base + pos`.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    r: Reader<'a>,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`, reporting offsets from 0.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Cursor {
            r: Reader::new(data),
        }
    }

    /// A cursor over `data` whose offsets are reported as `base + position`.
    #[inline]
    pub fn with_base(data: &'a [u8], base: usize) -> Self {
        Cursor {
            r: Reader::with_base(data, base),
        }
    }

    /// Absolute offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.r.offset()
    }

    /// Position within the slice.
    #[inline]
    pub fn pos(&self) -> usize {
        self.r.pos()
    }

    /// Bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.r.remaining()
    }

    /// The unread bytes.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.r.rest()
    }

    /// True when all bytes are read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.r.is_empty()
    }

    /// Reads one byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        self.r.read_u8()
    }

    /// The next byte, not consumed.
    #[inline(always)]
    pub fn peek(&self) -> Option<u8> {
        self.r.peek_u8()
    }

    /// Consumes the next byte when it is `0x00` (the usual end of a bean); true if it did.
    #[inline(always)]
    pub fn eat_zero(&mut self) -> bool {
        let zero = self.r.peek_u8() == Some(0);
        if zero {
            self.r.advance(1);
        }
        zero
    }

    /// Steps over `n` bytes the caller has just looked at (through [`Cursor::peek`]):
    /// `n` must be at most [`Cursor::remaining`].
    #[inline(always)]
    pub(crate) fn step(&mut self, n: usize) {
        self.r.advance(n);
    }

    /// Reads `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        self.r
            .read_bytes(n)
            .map_err(|_| self.short(&format!("a value of {n} bytes"), n))
    }

    /// Reads `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.r
            .read_array()
            .map_err(|_| self.short(&format!("a value of {N} bytes"), N))
    }

    /// Reads a little-endian f32 (`ReadFloat`).
    #[inline]
    pub fn f32(&mut self) -> Result<f32> {
        self.r.read_f32().map_err(|_| self.short("a float", 4))
    }

    /// Reads a little-endian f64 (`ReadDouble`).
    #[inline]
    pub fn f64(&mut self) -> Result<f64> {
        self.r.read_f64().map_err(|_| self.short("a double", 8))
    }

    /// Reads a little-endian u32 (`ReadInt4`).
    #[inline]
    pub fn u32_le(&mut self) -> Result<u32> {
        self.r
            .read_u32()
            .map_err(|_| self.short("a 4-byte integer", 4))
    }

    /// The error for a fixed-size value (`what`, `n` bytes) that the input ends inside:
    /// "a double needs 8 bytes, 7 left", at the value's first byte.
    #[cold]
    fn short(&self, what: &str, n: usize) -> Error {
        self.r.error(ErrorKind::Message(format!(
            "{what} needs {n} bytes, {} left",
            self.remaining()
        )))
    }

    /// Reads a compact signed integer (`ReadLong`).
    ///
    /// One-byte values (-64..63) first; then, with 8 bytes readable, values of 2 to 7
    /// bytes decode from one big-endian load without a branch on their length; longer
    /// ones and the input's last bytes take [`varint::read_long`].
    #[inline(always)]
    pub fn long(&mut self) -> Result<i64> {
        let (data, pos) = (self.r.data(), self.r.pos());
        if let Some(&b) = data.get(pos) {
            if !(0x40..0xc0).contains(&b) {
                self.r.advance(1);
                return Ok(b as i8 as i64);
            }
        }
        if let Some(w) = data.get(pos..pos.wrapping_add(8)) {
            let word = u64::from_be_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            // All ones for a negative value (first bit set): its encoding is complemented.
            let flip = ((word as i64) >> 63) as u64;
            let x = word ^ flip;
            // After the leading 0 bit, the count of 1 bits is the length minus one.
            let k = (x << 1).leading_ones();
            if k < 7 {
                let n = k + 1;
                // Drop the n + 1 prefix bits, then keep the 7n - 1 value bits.
                let v = (x << (n + 1)) >> (65 - 7 * n);
                self.r.advance(n as usize);
                return Ok((v ^ flip) as i64);
            }
        }
        self.long_slow()
    }

    /// [`Cursor::long`] with two-byte values read first from the two bytes (without the
    /// 8-byte load), for the serde fields, where they are common. (Not in `long`
    /// itself: inlined into the recursive tree decoder it grew unoptimised builds'
    /// stack frames past what the deep-nesting tests allow.)
    #[inline(always)]
    pub(crate) fn long_fast(&mut self) -> Result<i64> {
        let (data, pos) = (self.r.data(), self.r.pos());
        if let Some(&b) = data.get(pos) {
            if !(0x40..0xc0).contains(&b) {
                self.r.advance(1);
                return Ok(b as i8 as i64);
            }
            // Two bytes (`010xxxxx`, or `101xxxxx` complemented when negative): the
            // 13 value bits after the prefix.
            let flip = (b as i8 >> 7) as i64;
            if (b ^ flip as u8) & 0xe0 == 0x40 {
                if let Some(&b1) = data.get(pos.wrapping_add(1)) {
                    self.r.advance(2);
                    let u = ((((b as i64) << 8) | b1 as i64) ^ flip) & 0x1fff;
                    return Ok(u ^ flip);
                }
            }
        }
        self.long()
    }

    /// Steps over a compact signed integer (validating its length) without decoding it.
    #[inline(always)]
    pub fn skip_long(&mut self) -> Result<()> {
        let (data, pos) = (self.r.data(), self.r.pos());
        if let Some(&b) = data.get(pos) {
            // Complemented when negative; then the 1 bits after the leading 0 give the
            // length minus one.
            let c = b ^ ((b as i8) >> 7) as u8;
            let k = (c << 1).leading_ones() as usize;
            if k < 7 && pos + k < data.len() {
                self.r.advance(k + 1);
                return Ok(());
            }
        }
        self.long_slow().map(|_| ())
    }

    #[inline(never)]
    fn long_slow(&mut self) -> Result<i64> {
        match varint::read_long(self.r.rest()) {
            Some((v, n)) => {
                self.r.advance(n);
                Ok(v)
            }
            None => Err(self.truncated("compact integer", varint::long_len(self.r.rest()))),
        }
    }

    /// Reads a compact unsigned 64-bit integer (`ReadULong`).
    #[inline]
    pub fn ulong(&mut self) -> Result<u64> {
        match varint::read_ulong(self.r.rest()) {
            Some((v, n)) => {
                self.r.advance(n);
                Ok(v)
            }
            None => Err(self.truncated(
                "compact unsigned integer",
                self.r.peek_u8().map(varint::ulong_len),
            )),
        }
    }

    /// Reads a compact unsigned 32-bit integer (`ReadUInt`); values past `u32::MAX` are
    /// refused (Zeze would silently truncate them).
    #[inline]
    pub fn uint(&mut self, what: &'static str) -> Result<u32> {
        let at = self.offset();
        let v = self.ulong()?;
        u32::try_from(v).map_err(|_| {
            Error::unexpected_at(at, format!("{what} of at most 4294967295"), v.to_string())
        })
    }

    /// The error for a compact integer the input ends inside, at its first byte. `len` is
    /// the length its first byte(s) announce, when there are enough to tell: "a 9-byte
    /// compact integer needs 8 more bytes after its first, 7 left".
    #[cold]
    fn truncated(&self, what: &str, len: Option<usize>) -> Error {
        let left = self.remaining();
        let text = match len {
            _ if left == 0 => format!("a {what} needs at least 1 byte, none left"),
            Some(n) => format!(
                "a {n}-byte {what} needs {} more byte(s) after its first, {} left",
                n - 1,
                left - 1
            ),
            None => format!(
                "a {what} whose first byte {:#04x} announces 8 or more bytes needs its \
                 second to tell which, none left",
                self.r.peek_u8().unwrap_or(0)
            ),
        };
        self.r.error(ErrorKind::Message(text))
    }

    /// Reads a length-prefixed byte string (`ReadBytes`), checking the length first.
    #[inline]
    pub fn len_bytes(&mut self) -> Result<&'a [u8]> {
        let (data, pos) = (self.r.data(), self.r.pos());
        if let Some(&b) = data.get(pos) {
            // One-byte length (under 128), the whole string present: the common case.
            if let Some(s) = data.get(pos + 1..pos + 1 + b as usize) {
                if b < 0x80 {
                    self.r.advance(1 + b as usize);
                    return Ok(s);
                }
            }
        }
        self.len_bytes_slow()
    }

    #[inline(never)]
    fn len_bytes_slow(&mut self) -> Result<&'a [u8]> {
        let at = self.r.pos();
        let n = self.ulong()?;
        let n = self.r.check_len_from(at, n, 1, "byte string length")?;
        self.bytes(n)
    }

    /// Checks that `count` items of at least `min` bytes each can fit in the bytes that
    /// remain; `at` is the absolute offset where the count was read.
    #[inline]
    pub fn check_count(
        &self,
        at: usize,
        count: u64,
        min: usize,
        what: &'static str,
    ) -> Result<usize> {
        let at_pos = at.saturating_sub(self.r.base());
        self.r
            .check_len_from(at_pos, count, min, what)
            .map(|_| count as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-load path of `long` and the two-byte path of `long_fast` agree with
    /// `varint::read_long` for every length and sign, with and without bytes after the
    /// integer.
    #[test]
    fn long_fast_path_matches_read_long() {
        let mut xs: Vec<i64> = vec![0, 1, -1, 63, 64, -64, -65, i64::MAX, i64::MIN];
        for i in 0..64 {
            let p = 1i64.wrapping_shl(i);
            xs.extend([
                p,
                p.wrapping_sub(1),
                p.wrapping_neg(),
                1i64.wrapping_sub(p),
                p ^ 0x5555_5555_5555_5555,
            ]);
        }
        for v in xs {
            let mut b = Vec::new();
            varint::write_long(&mut b, v);
            let n = b.len();
            for pad in [0usize, 1, 8] {
                let mut d = b.clone();
                d.extend(std::iter::repeat_n(0xa5, pad));
                let mut c = Cursor::new(&d);
                assert_eq!(c.long().unwrap(), v, "{v:#x} pad {pad}");
                assert_eq!(c.pos(), n);
                let mut c = Cursor::new(&d);
                assert_eq!(c.long_fast().unwrap(), v, "{v:#x} pad {pad} (long_fast)");
                assert_eq!(c.pos(), n);
            }
            assert!(Cursor::new(&b[..n - 1]).long().is_err() || n == 1);
            assert!(Cursor::new(&b[..n - 1]).long_fast().is_err() || n == 1);
        }
    }
}
