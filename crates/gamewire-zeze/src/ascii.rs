//! Short ASCII strings as text without `str::from_utf8`: the crate's one `unsafe` item.
//!
//! `std::str::from_utf8` costs about 110 instructions and two branch mispredictions on
//! a 10-byte name (a call, an alignment test, then a byte loop), as much as all of a
//! record's integer fields together. Zeze strings are mostly short and ASCII (names,
//! keys, ids), so [`short_ascii`] checks strings of up to 16 bytes with two overlapping
//! word loads and one mask, and hands back the `&str` without checking again. The
//! benchmark that proves the need is `examples/serde_vs_postcard.rs`: serde decode of
//! the bench records (owned strings) took 1.08-1.09x postcard's time without it and
//! 0.88-0.98x with it (docs/PERFORMANCE.md, "Serde decode against postcard"); the safe
//! alternative measured (`utf8_chunks` after the same mask) kept most of the cost.

/// The longest string [`short_ascii`] checks itself; longer ones go to
/// `std::str::from_utf8`, whose word-at-a-time ASCII loop pays off there.
pub(crate) const SHORT: usize = 16;

/// `b` as text when it is at most [`SHORT`] bytes long and every byte is ASCII
/// (below 0x80); `None` otherwise (the caller then checks it with `str::from_utf8`).
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn short_ascii(b: &[u8]) -> Option<&str> {
    let n = b.len();
    // The bytes OR-ed together (two overlapping loads cover every byte once or twice).
    let bits = if n >= 8 {
        if n > SHORT {
            return None;
        }
        let head = u64::from_le_bytes(b[..8].try_into().ok()?);
        let tail = u64::from_le_bytes(b[n - 8..].try_into().ok()?);
        head | tail
    } else if n >= 4 {
        let head = u32::from_le_bytes(b[..4].try_into().ok()?);
        let tail = u32::from_le_bytes(b[n - 4..].try_into().ok()?);
        (head | tail) as u64
    } else {
        b.iter().fold(0, |acc, &x| acc | x as u64)
    };
    if bits & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    // SAFETY: every byte of `b` is below 0x80 (the mask above covers each of them), and
    // a sequence of such bytes is valid UTF-8 (each is a one-byte code point).
    Some(unsafe { std::str::from_utf8_unchecked(b) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `short_ascii` must answer: the text when std accepts it, is ASCII and short.
    fn expected(b: &[u8]) -> Option<&str> {
        let s = std::str::from_utf8(b).ok()?;
        (b.len() <= SHORT && b.is_ascii()).then_some(s)
    }

    #[test]
    fn one_high_byte_anywhere_is_refused() {
        // Every length up to past the limit, every position, every byte value.
        for n in 0..=SHORT + 2 {
            for at in 0..n {
                for x in 0..=255u8 {
                    let mut b: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
                    b[at] = x;
                    assert_eq!(short_ascii(&b), expected(&b), "n {n} at {at} byte {x:#x}");
                }
            }
        }
    }

    #[test]
    fn random_bytes_agree_with_std() {
        let mut s: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let n = (s % 24) as usize;
            // Mostly ASCII, sometimes a multi-byte character or a stray high byte.
            let b: Vec<u8> = (0..n)
                .map(|i| {
                    let r = s.rotate_left(i as u32 * 5);
                    if r % 11 == 0 {
                        0x80 | (r >> 8) as u8
                    } else {
                        (r >> 16) as u8 & 0x7f
                    }
                })
                .collect();
            assert_eq!(short_ascii(&b), expected(&b), "{b:?}");
            let text = "é".repeat(n / 2);
            assert_eq!(short_ascii(text.as_bytes()), expected(text.as_bytes()));
        }
        assert_eq!(short_ascii(b""), Some(""));
        assert_eq!(short_ascii(b"player0042"), Some("player0042"));
    }
}
