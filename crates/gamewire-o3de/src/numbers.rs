//! C library number parsing as O3DE uses it: `strtoll`, `strtoull` (base 0) and `strtod`.
//!
//! Each parser reads the longest valid prefix and reports how many bytes it used
//! (0 = no conversion) and whether the value was out of range (`ERANGE`).

/// The result of a C-style prefix parse.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parsed<T> {
    /// The value (clamped on overflow, as C does).
    pub value: T,
    /// Bytes consumed; 0 means nothing could be converted.
    pub used: usize,
    /// True when C would set `errno = ERANGE`.
    pub range_error: bool,
}

fn is_c_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Reads sign and base-0 magnitude: returns (negative, magnitude or None on overflow, used).
fn parse_magnitude(text: &[u8]) -> (bool, Option<u128>, usize) {
    let mut i = 0;
    while i < text.len() && is_c_space(text[i]) {
        i += 1;
    }
    let mut neg = false;
    if i < text.len() && (text[i] == b'+' || text[i] == b'-') {
        neg = text[i] == b'-';
        i += 1;
    }
    let (base, digits_start) = if i + 1 < text.len()
        && text[i] == b'0'
        && (text[i + 1] | 0x20) == b'x'
        && text.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        (16u32, i + 2)
    } else if i < text.len() && text[i] == b'0' {
        (8, i)
    } else {
        (10, i)
    };
    let mut j = digits_start;
    let mut mag: Option<u128> = Some(0);
    while j < text.len() {
        let d = match (text[j] as char).to_digit(base) {
            Some(d) => d,
            None => break,
        };
        mag = mag.and_then(|m| m.checked_mul(base as u128)?.checked_add(d as u128));
        // Keep the magnitude bounded: anything past u64 is out of range anyway.
        if mag.is_some_and(|m| m > u64::MAX as u128 + 1) {
            mag = None;
        }
        j += 1;
    }
    if j == digits_start {
        return (false, Some(0), 0);
    }
    (neg, mag, j)
}

/// `strtoll(text, &end, 0)`.
pub fn strtoll(text: &str) -> Parsed<i64> {
    let (neg, mag, used) = parse_magnitude(text.as_bytes());
    if used == 0 {
        return Parsed {
            value: 0,
            used: 0,
            range_error: false,
        };
    }
    match mag {
        Some(m) if !neg && m <= i64::MAX as u128 => Parsed {
            value: m as i64,
            used,
            range_error: false,
        },
        Some(m) if neg && m <= i64::MAX as u128 + 1 => Parsed {
            value: (m as i128).wrapping_neg() as i64,
            used,
            range_error: false,
        },
        _ => Parsed {
            value: if neg { i64::MIN } else { i64::MAX },
            used,
            range_error: true,
        },
    }
}

/// `strtoull(text, &end, 0)`; a leading minus negates in unsigned arithmetic, as in C.
pub fn strtoull(text: &str) -> Parsed<u64> {
    let (neg, mag, used) = parse_magnitude(text.as_bytes());
    if used == 0 {
        return Parsed {
            value: 0,
            used: 0,
            range_error: false,
        };
    }
    match mag {
        Some(m) if m <= u64::MAX as u128 => Parsed {
            value: if neg {
                (m as u64).wrapping_neg()
            } else {
                m as u64
            },
            used,
            range_error: false,
        },
        _ => Parsed {
            value: u64::MAX,
            used,
            range_error: true,
        },
    }
}

/// `strtod(text, &end)`, including `inf`, `nan` and hexadecimal floats.
pub fn strtod(text: &str) -> Parsed<f64> {
    let b = text.as_bytes();
    let none = Parsed {
        value: 0.0,
        used: 0,
        range_error: false,
    };
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let start = i;
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let rest = &text[i..];
    let lower_starts = |p: &str| {
        rest.as_bytes()
            .get(..p.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(p.as_bytes()))
    };
    if lower_starts("infinity") || lower_starts("inf") {
        let n = if lower_starts("infinity") { 8 } else { 3 };
        let v = if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Parsed {
            value: v,
            used: i + n,
            range_error: false,
        };
    }
    if lower_starts("nan") {
        let mut n = 3;
        // nan(chars)
        if rest.as_bytes().get(3) == Some(&b'(') {
            if let Some(close) = rest[4..].find(')') {
                if rest[4..4 + close]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    n = 4 + close + 1;
                }
            }
        }
        return Parsed {
            value: f64::NAN,
            used: i + n,
            range_error: false,
        };
    }
    if b.len() > i + 1 && b[i] == b'0' && (b[i + 1] | 0x20) == b'x' {
        if let Some(p) = hex_float(&b[i + 2..]) {
            let v = if neg { -p.value } else { p.value };
            return Parsed {
                value: v,
                used: i + 2 + p.used,
                range_error: p.range_error,
            };
        }
        // "0x" with no hex digits: only the "0" converts.
        return Parsed {
            value: if neg { -0.0 } else { 0.0 },
            used: i + 1,
            range_error: false,
        };
    }
    let mut j = i;
    let mut digits = 0;
    let mut nonzero = false;
    while j < b.len() && b[j].is_ascii_digit() {
        nonzero |= b[j] != b'0';
        j += 1;
        digits += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            nonzero |= b[j] != b'0';
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return none;
    }
    if j < b.len() && (b[j] | 0x20) == b'e' {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            j = k;
        }
    }
    let value: f64 = text[start..j].parse().unwrap_or(0.0);
    let range_error = value.is_infinite() || (nonzero && (value == 0.0 || value.is_subnormal()));
    let value = if value.is_infinite() {
        if value < 0.0 {
            -f64::MAX * 2.0
        } else {
            f64::MAX * 2.0
        }
    } else {
        value
    };
    Parsed {
        value,
        used: j,
        range_error,
    }
}

fn hex_float(b: &[u8]) -> Option<Parsed<f64>> {
    let mut i = 0;
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut digits = 0;
    let mut nonzero = false;
    let push = |d: u32, frac: bool, mant: &mut u64, exp: &mut i64| {
        if *mant >> 56 == 0 {
            *mant = *mant << 4 | d as u64;
            if frac {
                *exp -= 4;
            }
        } else if !frac {
            *exp += 4;
        }
    };
    while i < b.len() && b[i].is_ascii_hexdigit() {
        let d = (b[i] as char).to_digit(16)?;
        nonzero |= d != 0;
        push(d, false, &mut mant, &mut exp);
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            let d = (b[i] as char).to_digit(16)?;
            nonzero |= d != 0;
            push(d, true, &mut mant, &mut exp);
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] | 0x20) == b'p' {
        let mut k = i + 1;
        let mut eneg = false;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            eneg = b[k] == b'-';
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            let mut e: i64 = 0;
            while k < b.len() && b[k].is_ascii_digit() {
                e = (e * 10 + (b[k] - b'0') as i64).min(100_000);
                k += 1;
            }
            exp += if eneg { -e } else { e };
            i = k;
        }
    }
    let value = (mant as f64) * 2f64.powi(exp.clamp(-2000, 2000) as i32);
    let range_error = value.is_infinite() || (nonzero && (value == 0.0 || value.is_subnormal()));
    Some(Parsed {
        value,
        used: i,
        range_error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtoll_prefixes() {
        assert_eq!(strtoll("42").value, 42);
        assert_eq!(strtoll("  -42abc").value, -42);
        assert_eq!(strtoll("  -42abc").used, 5);
        assert_eq!(strtoll("0x1F").value, 31);
        assert_eq!(strtoll("010").value, 8);
        assert_eq!(strtoll("09").value, 0);
        assert_eq!(strtoll("09").used, 1);
        assert_eq!(strtoll("0x").used, 1);
        assert_eq!(strtoll("abc").used, 0);
        assert!(strtoll("9223372036854775808").range_error);
        assert_eq!(strtoll("-9223372036854775808").value, i64::MIN);
        assert!(!strtoll("-9223372036854775808").range_error);
        assert_eq!(strtoull("18446744073709551615").value, u64::MAX);
        assert!(strtoull("18446744073709551616").range_error);
        assert_eq!(strtoull("-1").value, u64::MAX);
    }

    #[test]
    fn strtod_prefixes() {
        assert_eq!(strtod("3.5abc").value, 3.5);
        assert_eq!(strtod("3.5abc").used, 3);
        assert_eq!(strtod("  -1e3").value, -1000.0);
        assert_eq!(strtod("1e").used, 1);
        assert_eq!(strtod(".5").value, 0.5);
        assert_eq!(strtod(".").used, 0);
        assert!(strtod("1e400").range_error);
        assert!(strtod("1e-400").range_error);
        assert!(strtod("INF").value.is_infinite());
        assert!(strtod("nan").value.is_nan());
        assert_eq!(strtod("0x1.8p1").value, 3.0);
        // Regression (fuzz): a multi-byte character right after the digits.
        assert_eq!(strtod("0\u{FFFD}").used, 1);
        assert_eq!(strtod("\u{FFFD}nan").used, 0);
    }
}
