//! [`Bytes`]: the bytes of a `std::string` value, kept inline when short.

use std::fmt;
use std::ops::Deref;

/// The most bytes kept inline (in the value itself, no allocation).
pub const INLINE: usize = 22;

/// The bytes of a `std::string` ([`crate::Value::String`]), not necessarily UTF-8: up to
/// [`INLINE`] bytes are kept in the value itself, longer ones in one exact-size heap
/// block. Reads as a `&[u8]` (`Deref`); made from a `Vec<u8>`, `&[u8]`, `String` or
/// `&str` with `.into()`; equal to a byte slice or vector with the same bytes.
#[derive(Clone)]
pub struct Bytes(Repr);

#[derive(Clone)]
enum Repr {
    /// The length and the bytes (the first `len` of them).
    Inline(u8, [u8; INLINE]),
    /// Longer bytes.
    Heap(Box<[u8]>),
}

impl Bytes {
    /// No bytes.
    pub const fn new() -> Self {
        Bytes(Repr::Inline(0, [0; INLINE]))
    }

    /// The bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(n, b) => &b[..usize::from(*n)],
            Repr::Heap(b) => b,
        }
    }

    /// The bytes as a vector.
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Inline(n, b) => b[..usize::from(n)].to_vec(),
            Repr::Heap(b) => b.into_vec(),
        }
    }

    /// True when the bytes are kept inline (no allocation).
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline(..))
    }
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::new()
    }
}

impl Deref for Bytes {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl From<&[u8]> for Bytes {
    #[inline]
    fn from(s: &[u8]) -> Self {
        if s.len() <= INLINE {
            let mut b = [0; INLINE];
            b[..s.len()].copy_from_slice(s);
            Bytes(Repr::Inline(s.len() as u8, b))
        } else {
            Bytes(Repr::Heap(s.into()))
        }
    }
}

impl<const N: usize> From<&[u8; N]> for Bytes {
    fn from(s: &[u8; N]) -> Self {
        Bytes::from(s.as_slice())
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        if v.len() <= INLINE {
            Bytes::from(v.as_slice())
        } else {
            Bytes(Repr::Heap(v.into_boxed_slice()))
        }
    }
}

impl From<&str> for Bytes {
    fn from(s: &str) -> Self {
        Bytes::from(s.as_bytes())
    }
}

impl From<String> for Bytes {
    fn from(s: String) -> Self {
        Bytes::from(s.into_bytes())
    }
}

impl From<Bytes> for Vec<u8> {
    fn from(b: Bytes) -> Self {
        b.into_vec()
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Bytes {}

impl PartialEq<[u8]> for Bytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<&[u8]> for Bytes {
    fn eq(&self, other: &&[u8]) -> bool {
        self.as_slice() == *other
    }
}

impl PartialEq<Vec<u8>> for Bytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::hash::Hash for Bytes {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Bytes {
    /// As a byte vector's (`[104, 105]`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_bytes_stay_inline_and_every_form_reads_the_same() {
        assert_eq!(std::mem::size_of::<Bytes>(), 24);
        for n in [0, 1, INLINE - 1, INLINE, INLINE + 1, 300] {
            let v: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
            for b in [Bytes::from(v.clone()), Bytes::from(v.as_slice())] {
                assert_eq!(b.is_inline(), n <= INLINE, "{n}");
                assert_eq!(&*b, v.as_slice());
                assert_eq!(b, v);
                assert_eq!(format!("{b:?}"), format!("{v:?}"));
                assert_eq!(b.clone().into_vec(), v);
            }
        }
        assert_eq!(Bytes::from("hat"), Bytes::from(b"hat".to_vec()));
        assert_ne!(Bytes::from("hat"), Bytes::from("hats"));
    }
}
