//! Base64 text of bytes (RFC 4648, standard alphabet `A–Z a–z 0–9 + /`), as the JSON
//! mappings write byte strings: Godot's `PackedByteArray`, BSON's `$binary`.
//!
//! [`encode`] always writes the standard alphabet with `=` padding. [`decode`] reads
//! that form only; [`decode_with`] takes an [`Accept`] for readers that also take text
//! other tools write (no padding, the URL-safe alphabet).

use crate::{Error, Result};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 of `data`, with `=` padding to a multiple of four characters.
pub fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What [`decode_with`] reads besides the padded standard form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Accept {
    /// The standard alphabet with padding only: a length that is a multiple of four,
    /// at most two `=`, and those at the end (BSON's `$binary`).
    #[default]
    Strict,
    /// Padding optional (any `=` at the end is ignored), and `-` and `_` of the URL-safe
    /// alphabet read as `+` and `/` (Godot's `PackedByteArray`, as other tools write it).
    Lenient,
}

/// Decodes base64 in the standard padded form ([`Accept::Strict`]).
pub fn decode(text: &str) -> Result<Vec<u8>> {
    decode_with(text, Accept::Strict)
}

/// The value of one base64 character, the URL-safe `-` and `_` too when `url_safe`.
fn value(c: u8, url_safe: bool) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        b'-' if url_safe => 62,
        b'_' if url_safe => 63,
        _ => return None,
    }))
}

fn bad_char(c: u8, i: usize) -> Error {
    Error::msg(format!(
        "invalid base64 character {:?} at index {i}",
        c as char
    ))
}

/// Decodes base64 as `accept` says; errors name the bad character's index.
pub fn decode_with(text: &str, accept: Accept) -> Result<Vec<u8>> {
    match accept {
        Accept::Strict => decode_strict(text.as_bytes()),
        Accept::Lenient => decode_lenient(text),
    }
}

fn decode_strict(b: &[u8]) -> Result<Vec<u8>> {
    if b.len() % 4 != 0 {
        return Err(Error::msg(
            "base64 text's length is not a multiple of four (padding is required)",
        ));
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let quads = b.len() / 4;
    for (qi, q) in b.chunks_exact(4).enumerate() {
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && qi + 1 != quads) {
            return Err(Error::msg(format!(
                "misplaced base64 padding at index {}",
                qi * 4 + 4 - pad
            )));
        }
        let mut n = 0u32;
        for (j, &c) in q[..4 - pad].iter().enumerate() {
            n = (n << 6) | value(c, false).ok_or_else(|| bad_char(c, qi * 4 + j))?;
        }
        n <<= 6 * pad as u32;
        out.push((n >> 16) as u8);
        if pad < 2 {
            out.push((n >> 8) as u8);
        }
        if pad < 1 {
            out.push(n as u8);
        }
    }
    Ok(out)
}

fn decode_lenient(text: &str) -> Result<Vec<u8>> {
    let t = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(t.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for (i, &c) in t.iter().enumerate() {
        acc = acc << 6 | value(c, true).ok_or_else(|| bad_char(c, i))?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if t.len() % 4 == 1 {
        return Err(Error::msg("base64 text has an impossible length"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_4648_vectors() {
        for (raw, enc) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(raw), enc);
            assert_eq!(decode(enc).unwrap(), raw);
            assert_eq!(decode_with(enc, Accept::Lenient).unwrap(), raw);
        }
        let all: Vec<u8> = (0..=255).collect();
        let text = encode(&all);
        assert!(text.contains('+') && text.contains('/'), "{text}");
        assert_eq!(decode(&text).unwrap(), all);
    }

    #[test]
    fn strict_wants_padding_at_the_end() {
        assert!(decode("Zg").is_err());
        assert!(decode("Zg=").is_err());
        assert!(decode("Z===").is_err());
        assert!(decode("Zg==Zm8=").is_err());
        assert!(decode("Zm-v").is_err());
        let e = decode("Zm$v").unwrap_err().to_string();
        assert!(e.contains("'$' at index 2"), "{e}");
    }

    #[test]
    fn lenient_takes_unpadded_and_url_safe_text() {
        assert_eq!(decode_with("Zg", Accept::Lenient).unwrap(), b"f");
        assert_eq!(decode_with("aGVsbG8", Accept::Lenient).unwrap(), b"hello");
        assert_eq!(
            decode_with("-_-_", Accept::Lenient).unwrap(),
            decode("+/+/").unwrap()
        );
        assert!(decode_with("a$", Accept::Lenient).is_err());
        assert!(decode_with("Zm9vY", Accept::Lenient).is_err());
    }
}
