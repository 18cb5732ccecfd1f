//! A checked little-endian cursor over a byte slice.

use crate::{Error, ErrorKind, Result};

/// A cursor over a byte slice. Every read checks the bytes that remain; every error
/// carries the absolute byte offset (the slice start plus [`Reader::base`]).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

macro_rules! read_le {
    ($($name:ident => $t:ty),* $(,)?) => {$(
        #[doc = concat!("Reads a little-endian `", stringify!($t), "`.")]
        #[inline]
        pub fn $name(&mut self) -> Result<$t> {
            Ok(<$t>::from_le_bytes(self.read_array()?))
        }
    )*};
}

impl<'a> Reader<'a> {
    /// A cursor at the start of `data`.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            pos: 0,
            base: 0,
        }
    }

    /// A cursor over `data` whose offsets are reported as `base + position`.
    #[inline]
    pub fn with_base(data: &'a [u8], base: usize) -> Self {
        Reader { data, pos: 0, base }
    }

    /// The offset added to positions in errors.
    #[inline]
    pub fn base(&self) -> usize {
        self.base
    }

    /// The position within the slice.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The absolute offset (base + position) used in errors.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The bytes not read yet.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// How many bytes are not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when every byte has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos == self.data.len()
    }

    /// The whole slice.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error of `kind` at the current offset.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::at(self.offset(), kind)
    }

    /// An error at an absolute offset `at` (for example where a value started).
    #[cold]
    pub fn error_at(&self, at_pos: usize, kind: ErrorKind) -> Error {
        Error::at(self.base + at_pos, kind)
    }

    #[cold]
    fn eof(&self, needed: usize) -> Error {
        self.error(ErrorKind::UnexpectedEof {
            needed: needed - self.remaining(),
            remaining: self.remaining(),
        })
    }

    /// Reads `n` bytes as a borrowed slice.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        // One checked `get` (no panic path): `wrapping_add` cannot wrap for an `n` that
        // fits, and a wrapped range is refused by the `n` check.
        match self.data.get(self.pos..self.pos.wrapping_add(n)) {
            Some(s) if n <= self.remaining() => {
                self.pos += n;
                Ok(s)
            }
            _ => Err(self.eof(n)),
        }
    }

    /// Reads exactly `N` bytes into an array.
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
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

    /// Skips `n` bytes.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.read_bytes(n).map(|_| ())
    }

    /// Steps over `n` bytes the caller has already looked at (through [`Reader::data`],
    /// [`Reader::rest`] or [`Reader::peek_u8`]), with no check: `n` must be at most
    /// [`Reader::remaining`] (a larger `n` makes later reads panic, never read past the
    /// slice). For decoders' fast paths, which have just bounds-checked those bytes.
    #[inline(always)]
    pub fn advance(&mut self, n: usize) {
        debug_assert!(n <= self.remaining());
        self.pos += n;
    }

    /// Moves to position `pos` within the slice (must be within bounds).
    #[inline]
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.eof(pos - self.pos));
        }
        self.pos = pos;
        Ok(())
    }

    /// Reads one byte.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Looks at the next byte without reading it.
    #[inline]
    pub fn peek_u8(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    read_le! {
        read_u16 => u16, read_u32 => u32, read_u64 => u64,
        read_i8 => i8, read_i16 => i16, read_i32 => i32, read_i64 => i64,
        read_f32 => f32, read_f64 => f64,
    }

    /// Checks that `count` elements of `elem_size` bytes each fit in the bytes that remain,
    /// and returns the byte length. Call before allocating anything sized by `count`.
    #[inline]
    pub fn check_len(&self, count: u64, elem_size: usize, what: &'static str) -> Result<usize> {
        self.check_len_from(self.pos, count, elem_size, what)
    }

    /// Like [`Reader::check_len`], but an error points at position `at_pos` (where the
    /// count was read) rather than after it.
    #[inline]
    pub fn check_len_from(
        &self,
        at_pos: usize,
        count: u64,
        elem_size: usize,
        what: &'static str,
    ) -> Result<usize> {
        match count.checked_mul(elem_size as u64) {
            Some(n) if n <= self.remaining() as u64 => Ok(n as usize),
            _ => Err(self.error_at(
                at_pos,
                ErrorKind::LengthPastEnd {
                    what,
                    declared: count,
                    remaining: self.remaining(),
                },
            )),
        }
    }

    /// Reads `len` bytes and checks they are UTF-8.
    #[inline]
    pub fn read_str(&mut self, len: usize) -> Result<&'a str> {
        let start = self.pos;
        let bytes = self.read_bytes(len)?;
        std::str::from_utf8(bytes).map_err(|e| {
            self.error_at(
                start + e.valid_up_to(),
                ErrorKind::InvalidText { encoding: "UTF-8" },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_reports_offsets() {
        let mut r = Reader::with_base(&[1, 0, 0, 0, 0xff], 10);
        assert_eq!(r.read_u32().unwrap(), 1);
        assert_eq!(r.offset(), 14);
        let e = r.read_u16().unwrap_err();
        assert_eq!(e.offset(), Some(14));
        assert!(matches!(
            e.kind(),
            ErrorKind::UnexpectedEof {
                needed: 1,
                remaining: 1
            }
        ));
    }

    #[test]
    fn check_len_refuses_counts_past_the_end() {
        let r = Reader::new(&[0; 8]);
        assert_eq!(r.check_len(2, 4, "count").unwrap(), 8);
        assert!(r.check_len(3, 4, "count").is_err());
        assert!(r.check_len(u64::MAX, 8, "count").is_err());
    }

    #[test]
    fn invalid_utf8_points_at_the_bad_byte() {
        let mut r = Reader::new(b"ab\xffc");
        let e = r.read_str(4).unwrap_err();
        assert_eq!(e.offset(), Some(2));
    }
}
