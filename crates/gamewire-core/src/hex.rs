//! Hex text of bytes, as the formats' JSON mappings write raw bytes (ObjectIds,
//! undecoded streams, trailing bytes), and back.

use crate::{Error, Result};

/// Lower-case hex of `b`, two digits a byte, no separators.
pub fn to_hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

/// The value of one hex digit (either case).
fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The bytes of hex text: two digits a byte, upper or lower case, no separators, no
/// sign or prefix. Errors say why (an odd number of digits, a character that is not a
/// hex digit).
pub fn from_hex(s: &str) -> Result<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(Error::msg("hex text has an odd number of digits"));
    }
    let d = |c: u8| {
        digit(c).ok_or_else(|| {
            if c.is_ascii() {
                Error::msg(format!("expected a hex digit, found {:?}", c as char))
            } else {
                Error::msg("expected a hex digit, found a non-ASCII character")
            }
        })
    };
    b.chunks_exact(2)
        .map(|p| Ok(d(p[0])? << 4 | d(p[1])?))
        .collect()
}

/// The `N` bytes of hex text of exactly `2 * N` digits (see [`from_hex`]), or `None`.
pub fn from_hex_array<const N: usize>(s: &str) -> Option<[u8; N]> {
    let b = s.as_bytes();
    if b.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (o, p) in out.iter_mut().zip(b.chunks_exact(2)) {
        *o = digit(p[0])? << 4 | digit(p[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_two_lower_case_digits() {
        assert_eq!(to_hex(&[0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c");
        assert_eq!(to_hex(&[]), "");
        let all: Vec<u8> = (0..=255).collect();
        let h = to_hex(&all);
        for (i, pair) in h.as_bytes().chunks(2).enumerate() {
            assert_eq!(pair, format!("{i:02x}").as_bytes());
        }
        assert_eq!(from_hex(&h).unwrap(), all);
        assert_eq!(from_hex(&h.to_uppercase()).unwrap(), all);
    }

    #[test]
    fn bad_hex_is_an_error_that_says_why() {
        assert_eq!(from_hex("").unwrap(), Vec::<u8>::new());
        assert_eq!(from_hex("00aB1f").unwrap(), vec![0, 0xab, 0x1f]);
        let e = from_hex("abc").unwrap_err().to_string();
        assert!(e.contains("odd number of digits"), "{e}");
        let e = from_hex("0z").unwrap_err().to_string();
        assert!(e.contains("'z'"), "{e}");
        // `u8::from_str_radix` would take a sign; hex text has none.
        assert!(from_hex("+f").is_err());
        assert!(from_hex("é0").is_err());
    }

    #[test]
    fn fixed_size_hex() {
        assert_eq!(from_hex_array::<2>("0aFf"), Some([0x0a, 0xff]));
        assert_eq!(from_hex_array::<2>("0aF"), None);
        assert_eq!(from_hex_array::<2>("0aFf00"), None);
        assert_eq!(from_hex_array::<1>("g0"), None);
    }
}
