//! O3DE's `AZ::Uuid` text rules.

use std::fmt;

/// A 16-byte UUID, printed the O3DE way: `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Uuid(pub [u8; 16]);

/// The null UUID as O3DE prints it; loading exactly this text gives `DefaultsUsed`.
pub const NULL_UUID_TEXT: &str = "{00000000-0000-0000-0000-000000000000}";

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl Uuid {
    /// The null (all zero) UUID.
    pub const NULL: Uuid = Uuid([0; 16]);

    /// True for the null UUID.
    pub fn is_null(&self) -> bool {
        self.0 == [0; 16]
    }

    /// Finds the first `{8-4-4-4-12}` group (dashes optional, any case) anywhere in
    /// `text`, as O3DE's Uuid serializer does with its regular expression.
    pub fn search(text: &str) -> Option<Uuid> {
        let b = text.as_bytes();
        let mut start = 0;
        while let Some(p) = memchr::memchr(b'{', &b[start..]) {
            let at = start + p;
            if let Some(found) = Self::match_at(&b[at..]) {
                // The first match of the pattern decides, even when it is unusable.
                return found;
            }
            start = at + 1;
        }
        None
    }

    /// `None`: no match here; `Some(None)`: the pattern matched but the text is not a
    /// UUID `Uuid::CreateString` accepts.
    fn match_at(b: &[u8]) -> Option<Option<Uuid>> {
        // b[0] == '{'
        let groups = [8usize, 4, 4, 4, 12];
        let mut i = 1;
        for (g, &len) in groups.iter().enumerate() {
            if g > 0 && b.get(i) == Some(&b'-') {
                i += 1;
            }
            for _ in 0..len {
                hex(*b.get(i)?)?;
                i += 1;
            }
        }
        // The regular expression allows any dash to be missing; the match then goes
        // through `Uuid::CreateString`.
        (b.get(i) == Some(&b'}')).then(|| Self::create_string(&b[..=i]))
    }

    /// `Uuid::CreateString` on a matched `{...}`: whether dashes are used is decided by
    /// the one after the first 8 digits. With it, the other three must be there (else
    /// null); without it, any later dash is read as a digit worth 0xFF, as O3DE does.
    fn create_string(s: &[u8]) -> Option<Uuid> {
        let mut p = 0;
        let mut next = || {
            let c = s.get(p).copied().unwrap_or(0);
            p += 1;
            c
        };
        let value = |c: u8| hex(c).unwrap_or(0xFF);
        let mut c = next();
        if c == b'{' {
            c = next();
        }
        let mut dashes = false;
        let mut out = [0u8; 16];
        for (i, byte) in out.iter_mut().enumerate() {
            if i == 4 {
                dashes = c == b'-';
                if dashes {
                    c = next();
                }
            }
            if dashes && matches!(i, 6 | 8 | 10) {
                if c != b'-' {
                    return None;
                }
                c = next();
            }
            let high = value(c) << 4;
            c = next();
            *byte = high | value(c);
            c = next();
        }
        Some(Uuid(out))
    }

    /// Parses a UUID written with or without braces and dashes (32 hex digits).
    pub fn parse(text: &str) -> Option<Uuid> {
        let t = text.trim();
        let t = t.strip_prefix('{').unwrap_or(t);
        let t = t.strip_suffix('}').unwrap_or(t);
        let mut out = [0u8; 16];
        let mut nib = 0usize;
        for &c in t.as_bytes() {
            if c == b'-' {
                continue;
            }
            if nib >= 32 {
                return None;
            }
            let v = hex(c)?;
            out[nib / 2] |= if nib % 2 == 0 { v << 4 } else { v };
            nib += 1;
        }
        (nib == 32).then_some(Uuid(out))
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.0;
        write!(f, "{{")?;
        for (i, x) in b.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                write!(f, "-")?;
            }
            write!(f, "{x:02X}")?;
        }
        write!(f, "}}")
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_and_print() {
        let u = Uuid::search("{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}").unwrap();
        assert_eq!(u.to_string(), "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}");
        let v = Uuid::search("junk {9b0a0f3a0b1c4d2e8f90123456789abc} Name").unwrap();
        assert_eq!(u, v);
        assert!(Uuid::search("9B0A0F3A-0B1C-4D2E-8F90-123456789ABC").is_none());
        assert!(Uuid::search("{9B0A0F3A-0B1C-4D2E-8F90-123456789AB}").is_none());
        assert_eq!(Uuid::parse("9B0A0F3A0B1C4D2E8F90123456789ABC"), Some(u));
    }
}
