//! The bit buffer: bits are read and written least significant first; values of a byte
//! or more are aligned to a byte boundary first (the padding bits are skipped on read,
//! and remembered when not zero so that a re-encode can put them back).

use gamewire_core::{Error, ErrorKind, Result};

#[inline]
fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Reads bits, least significant first, from a byte slice.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    /// Non-zero padding met while aligning: (bit position, padding value).
    pub padding: Vec<(u64, u8)>,
}

impl<'a> BitReader<'a> {
    /// A reader at the start of `data`; error offsets are reported as `base + byte`.
    pub fn new(data: &'a [u8], base: usize) -> Self {
        BitReader {
            data,
            pos: 0,
            base,
            padding: Vec::new(),
        }
    }

    /// The position in bits from the start.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bits not read yet.
    #[inline]
    pub fn remaining_bits(&self) -> usize {
        self.data.len() * 8 - self.pos
    }

    /// The bytes read from.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Moves `n` bits forward (at most to the end).
    #[inline]
    pub fn skip_bits(&mut self, n: usize) {
        self.pos += n.min(self.remaining_bits());
    }

    /// The whole bytes after the current (aligned) position.
    pub fn rest_bytes(&self) -> &'a [u8] {
        &self.data[self.pos.div_ceil(8)..]
    }

    /// An error at the current bit position.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        self.error_at(self.pos, kind)
    }

    /// An error at bit position `pos`.
    #[cold]
    pub fn error_at(&self, pos: usize, kind: ErrorKind) -> Error {
        Error::at_bit(self.base + pos / 8, (pos % 8) as u8, kind)
    }

    #[cold]
    fn eof(&self, bits: usize) -> Error {
        let have = self.remaining_bits();
        self.error(ErrorKind::UnexpectedEof {
            needed: (bits - have).div_ceil(8),
            remaining: have / 8,
        })
    }

    /// Skips to the next byte boundary, remembering non-zero padding.
    #[inline]
    pub fn align(&mut self) {
        let off = self.pos & 7;
        if off != 0 {
            let pad = self.data[self.pos >> 3] >> off;
            if pad != 0 {
                self.padding.push((self.pos as u64, pad));
            }
            self.pos += 8 - off;
        }
    }

    /// Reads `n` (at most 64) bits, unaligned.
    #[inline]
    pub fn read_bits(&mut self, n: u32) -> Result<u64> {
        let n_us = n as usize;
        if n_us > self.remaining_bits() {
            return Err(self.eof(n_us));
        }
        let byte = self.pos >> 3;
        let shift = (self.pos & 7) as u32;
        let v = if let Some(chunk) = self.data.get(byte..byte + 8) {
            let lo = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) >> shift;
            if n + shift > 64 {
                let hi = u64::from(self.data[byte + 8]);
                lo | (hi << (64 - shift))
            } else {
                lo
            }
        } else {
            let mut acc: u128 = 0;
            for (i, &b) in self.data[byte..].iter().take(9).enumerate() {
                acc |= u128::from(b) << (8 * i);
            }
            (acc >> shift) as u64
        };
        self.pos += n_us;
        Ok(v & mask(n))
    }

    /// Reads one bit.
    #[inline]
    pub fn read_bit(&mut self) -> Result<bool> {
        match self.data.get(self.pos >> 3) {
            Some(&b) => {
                let v = (b >> (self.pos & 7)) & 1;
                self.pos += 1;
                Ok(v != 0)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Reads `n` bits as a sign-extended integer.
    #[inline]
    pub fn read_signed(&mut self, n: u32) -> Result<i64> {
        let v = self.read_bits(n)?;
        let sh = 64 - n;
        Ok(((v << sh) as i64) >> sh)
    }

    /// Aligns, then reads `N` bytes.
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.align();
        let byte = self.pos >> 3;
        match self.data.get(byte..byte + N) {
            Some(s) => {
                self.pos += N * 8;
                Ok(s.try_into().expect("N bytes"))
            }
            None => Err(self.eof(N * 8)),
        }
    }

    /// Aligns, then reads a little-endian u32.
    #[inline]
    pub fn read_u32_aligned(&mut self) -> Result<u32> {
        self.read_array::<4>().map(u32::from_le_bytes)
    }

    /// Aligns, then reads `len` bytes (checked against what remains first).
    #[inline]
    pub fn read_bytes(&mut self, len: usize, what: &'static str) -> Result<&'a [u8]> {
        self.align();
        let byte = self.pos >> 3;
        if len > self.data.len() - byte {
            return Err(self.error(ErrorKind::LengthPastEnd {
                what,
                declared: len as u64,
                remaining: self.data.len() - byte,
            }));
        }
        self.pos += len * 8;
        Ok(&self.data[byte..byte + len])
    }
}

impl BitReader<'_> {
    /// Reads a deep object's 32-bit size field (which counts itself) and returns the
    /// bits that follow it; a size under 32 is an error at the field.
    #[inline]
    pub(crate) fn object_size(&mut self) -> Result<usize> {
        let at = self.pos();
        // Aligned in practice (it follows the aligned type hash): read as a whole u32.
        let size = if at & 7 == 0 {
            self.read_u32_aligned()? as usize
        } else {
            self.read_bits(32)? as usize
        };
        if size < 32 {
            return Err(self.error_at(
                at,
                ErrorKind::Unexpected {
                    expected: "an object size of at least 32 bits".into(),
                    found: format!("{size}"),
                },
            ));
        }
        Ok(size - 32)
    }

    /// Reads `bits` bits (a skipped or unknown value) into bytes, the last one holding
    /// the leftover bits; the length is checked against what remains first.
    pub(crate) fn read_raw(&mut self, bits: usize) -> Result<Vec<u8>> {
        if bits > self.remaining_bits() {
            return Err(self.error(ErrorKind::LengthPastEnd {
                what: "skipped size in bits",
                declared: bits as u64,
                remaining: self.remaining_bits() / 8,
            }));
        }
        let mut out = Vec::with_capacity(bits.div_ceil(8));
        let mut left = bits;
        while left >= 8 {
            out.push(self.read_bits(8)? as u8);
            left -= 8;
        }
        if left > 0 {
            out.push(self.read_bits(left as u32)? as u8);
        }
        Ok(out)
    }
}

/// Writes bits, least significant first, into a growing byte buffer.
#[derive(Debug, Clone, Default)]
pub struct BitWriter {
    buf: Vec<u8>,
    pos: usize,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Self {
        BitWriter {
            buf: Vec::with_capacity(bytes),
            pos: 0,
        }
    }

    /// The position in bits.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Writes the low `n` (at most 64) bits of `v`.
    #[inline]
    pub fn write_bits(&mut self, v: u64, n: u32) {
        let mut v = v & mask(n);
        let mut n = n as usize;
        let off = self.pos & 7;
        if off != 0 && n > 0 {
            let last = self.buf.last_mut().expect("a partial byte");
            *last |= (v << off) as u8;
            let take = (8 - off).min(n);
            v >>= take;
            n -= take;
            self.pos += take;
        }
        while n >= 8 {
            self.buf.push(v as u8);
            v >>= 8;
            n -= 8;
            self.pos += 8;
        }
        if n > 0 {
            self.buf.push(v as u8);
            self.pos += n;
        }
    }

    /// Writes one bit.
    #[inline]
    pub fn write_bit(&mut self, b: bool) {
        self.write_bits(u64::from(b), 1);
    }

    /// Pads to the next byte boundary with the low bits of `pad` (usually zero).
    #[inline]
    pub fn align_with(&mut self, pad: u8) {
        let off = self.pos & 7;
        if off != 0 {
            let last = self.buf.last_mut().expect("a partial byte");
            *last |= pad << off;
            self.pos += 8 - off;
        }
    }

    /// Bits needed to reach the next byte boundary.
    #[inline]
    pub fn pad_width(&self) -> u32 {
        ((8 - (self.pos & 7)) & 7) as u32
    }

    /// Writes whole bytes; the writer must be aligned.
    #[inline]
    pub fn write_bytes(&mut self, b: &[u8]) {
        debug_assert!(self.pos & 7 == 0);
        self.buf.extend_from_slice(b);
        self.pos += b.len() * 8;
    }

    /// Overwrites the aligned u32 at bit position `pos` (a size written earlier).
    #[inline]
    pub fn patch_u32(&mut self, pos: usize, v: u32) {
        let b = pos >> 3;
        self.buf[b..b + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// The bytes written (a last partial byte has zero padding).
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_lsb_first_and_round_trip() {
        let mut w = BitWriter::new();
        w.write_bit(true);
        w.write_bits(0b101, 3);
        w.write_bits(0x1234_5678_9abc_def0, 64);
        w.write_bits(0x7f, 7);
        let bytes = w.into_bytes();
        assert_eq!(bytes[0] & 0x0f, 0b1011);
        let mut r = BitReader::new(&bytes, 0);
        assert!(r.read_bit().unwrap());
        assert_eq!(r.read_bits(3).unwrap(), 0b101);
        assert_eq!(r.read_bits(64).unwrap(), 0x1234_5678_9abc_def0);
        assert_eq!(r.read_signed(7).unwrap(), -1);
        assert_eq!(r.pos(), 75);
    }

    #[test]
    fn align_records_nonzero_padding_and_eof_has_offsets() {
        let data = [0b1010_0001u8, 0x11, 0x22];
        let mut r = BitReader::new(&data, 100);
        assert!(r.read_bit().unwrap());
        assert_eq!(r.read_u32_aligned().unwrap_err().offset(), Some(101));
        let mut r = BitReader::new(&data, 0);
        r.read_bits(3).unwrap();
        assert_eq!(r.read_array::<1>().unwrap(), [0x11]);
        assert_eq!(r.padding, vec![(3, 0b10100)]);
        let e = r.read_bits(9).unwrap_err();
        assert_eq!((e.offset(), e.bit()), (Some(2), Some(0)));
    }
}
