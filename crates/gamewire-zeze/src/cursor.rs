//! A byte cursor over a slice with Zeze's primitive reads; every error names the
//! absolute byte offset.

use crate::varint;
use gamewire_core::{Error, ErrorKind, Result};

/// A read position in a slice; errors report `base + pos`.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`, reporting offsets from 0.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Cursor {
            data,
            pos: 0,
            base: 0,
        }
    }

    /// A cursor over `data` whose offsets are reported as `base + position`.
    #[inline]
    pub fn with_base(data: &'a [u8], base: usize) -> Self {
        Cursor { data, pos: 0, base }
    }

    /// Absolute offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Position within the slice.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The unread bytes.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// True when all bytes are read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    #[cold]
    fn eof(&self, needed: usize) -> Error {
        Error::at(
            self.offset(),
            ErrorKind::UnexpectedEof {
                needed: needed.saturating_sub(self.remaining()).max(1),
                remaining: self.remaining(),
            },
        )
    }

    /// Reads one byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// The next byte, not consumed.
    #[inline(always)]
    pub fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// Consumes the next byte when it is `0x00` (the usual end of a bean); true if it did.
    #[inline(always)]
    pub fn eat_zero(&mut self) -> bool {
        if self.data.get(self.pos) == Some(&0) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.data.get(self.pos..self.pos.wrapping_add(n)) {
            Some(s) if n <= self.remaining() => {
                self.pos += n;
                Ok(s)
            }
            _ => Err(self.eof(n)),
        }
    }

    /// Reads `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.data.get(self.pos..self.pos + N) {
            Some(s) => {
                self.pos += N;
                let mut a = [0u8; N];
                a.copy_from_slice(s);
                Ok(a)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Reads a little-endian f32 (`ReadFloat`).
    #[inline]
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian f64 (`ReadDouble`).
    #[inline]
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian u32 (`ReadInt4`).
    #[inline]
    pub fn u32_le(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads a compact signed integer (`ReadLong`).
    ///
    /// One-byte values (-64..63) first; then, with 8 bytes readable, values of 2 to 7
    /// bytes decode from one big-endian load without a branch on their length; longer
    /// ones and the input's last bytes take [`varint::read_long`].
    #[inline(always)]
    pub fn long(&mut self) -> Result<i64> {
        if let Some(&b) = self.data.get(self.pos) {
            if !(0x40..0xc0).contains(&b) {
                self.pos += 1;
                return Ok(b as i8 as i64);
            }
        }
        if let Some(w) = self.data.get(self.pos..self.pos.wrapping_add(8)) {
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
                self.pos += n as usize;
                return Ok((v ^ flip) as i64);
            }
        }
        self.long_slow()
    }

    /// Steps over a compact signed integer (validating its length) without decoding it.
    #[inline(always)]
    pub fn skip_long(&mut self) -> Result<()> {
        if let Some(&b) = self.data.get(self.pos) {
            // Complemented when negative; then the 1 bits after the leading 0 give the
            // length minus one.
            let c = b ^ ((b as i8) >> 7) as u8;
            let k = (c << 1).leading_ones() as usize;
            if k < 7 && self.pos + k < self.data.len() {
                self.pos += k + 1;
                return Ok(());
            }
        }
        self.long_slow().map(|_| ())
    }

    #[inline(never)]
    fn long_slow(&mut self) -> Result<i64> {
        match varint::read_long(&self.data[self.pos..]) {
            Some((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            None => Err(self.truncated("compact integer")),
        }
    }

    /// Reads a compact unsigned 64-bit integer (`ReadULong`).
    #[inline]
    pub fn ulong(&mut self) -> Result<u64> {
        match varint::read_ulong(&self.data[self.pos..]) {
            Some((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            None => Err(self.truncated("compact unsigned integer")),
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

    #[cold]
    fn truncated(&self, what: &str) -> Error {
        Error::at(
            self.offset(),
            ErrorKind::Unexpected {
                expected: format!("a complete {what}"),
                found: format!("the input ending after {} byte(s)", self.remaining()),
            },
        )
    }

    /// Reads a length-prefixed byte string (`ReadBytes`), checking the length first.
    #[inline]
    pub fn len_bytes(&mut self) -> Result<&'a [u8]> {
        if let Some(&b) = self.data.get(self.pos) {
            // One-byte length (under 128), the whole string present: the common case.
            if let Some(s) = self.data.get(self.pos + 1..self.pos + 1 + b as usize) {
                if b < 0x80 {
                    self.pos += 1 + b as usize;
                    return Ok(s);
                }
            }
        }
        self.len_bytes_slow()
    }

    #[inline(never)]
    fn len_bytes_slow(&mut self) -> Result<&'a [u8]> {
        let at = self.offset();
        let n = self.ulong()?;
        if n > self.remaining() as u64 {
            return Err(Error::at(
                at,
                ErrorKind::LengthPastEnd {
                    what: "byte string length",
                    declared: n,
                    remaining: self.remaining(),
                },
            ));
        }
        self.bytes(n as usize)
    }

    /// Checks that `count` items of at least `min` bytes each can fit in the bytes that
    /// remain; `at` is where the count was read.
    #[inline]
    pub fn check_count(
        &self,
        at: usize,
        count: u64,
        min: usize,
        what: &'static str,
    ) -> Result<usize> {
        match count.checked_mul(min as u64) {
            Some(n) if n <= self.remaining() as u64 => Ok(count as usize),
            _ => Err(Error::at(
                at,
                ErrorKind::LengthPastEnd {
                    what,
                    declared: count,
                    remaining: self.remaining(),
                },
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-load path of `long` agrees with `varint::read_long` for every length and
    /// sign, with and without bytes after the integer.
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
            }
            assert!(Cursor::new(&b[..n - 1]).long().is_err() || n == 1);
        }
    }
}
