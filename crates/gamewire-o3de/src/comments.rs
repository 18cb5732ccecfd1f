//! JSON input with comments, as O3DE reads it (rapidjson's `kParseCommentsFlag`):
//! `// line` and `/* block */` comments outside strings are ignored. rapidjson also reads
//! the number `-0` as the integer 0 (serde_json reads it as the double -0.0), so the
//! minus sign of a bare `-0` is dropped too.

use crate::doc::Syntax;
use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

/// The end (one past the closing quote) of the string starting at `at`, or `None` when
/// it is not closed.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut j = at + 1;
    loop {
        let k = j + memchr::memchr2(b'"', b'\\', bytes.get(j..)?)?;
        if bytes[k] == b'\\' {
            j = k + 2;
        } else {
            return Some(k + 1);
        }
    }
}

/// Replaces comments with spaces, and the minus of a bare `-0` with a space, so byte
/// offsets stay the same. Returns the input unchanged, without copying, when there is
/// nothing to replace.
pub fn strip_comments(bytes: &[u8]) -> Result<Cow<'_, [u8]>> {
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while let Some(p) = memchr::memchr3(b'"', b'/', b'-', &bytes[i..]) {
        let at = i + p;
        match bytes[at] {
            b'"' => match string_end(bytes, at) {
                Some(end) => i = end,
                None => break,
            },
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
                out.get_or_insert_with(|| bytes.to_vec())[at..end].fill(b' ');
                i = end;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let Some(n) = memchr::memmem::find(&bytes[at + 2..], b"*/") else {
                    return Err(Error::msg_at(at, "unterminated /* comment"));
                };
                let end = at + 2 + n + 2;
                let o = out.get_or_insert_with(|| bytes.to_vec());
                for c in &mut o[at..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
            }
            b'-' if bytes.get(at + 1) == Some(&b'0')
                && !matches!(bytes.get(at + 2), Some(b'.' | b'e' | b'E' | b'0'..=b'9')) =>
            {
                out.get_or_insert_with(|| bytes.to_vec())[at] = b' ';
                i = at + 2;
            }
            _ => i = at + 1,
        }
    }
    Ok(match out {
        Some(o) => Cow::Owned(o),
        None => Cow::Borrowed(bytes),
    })
}

/// The byte offset of a 1-based line and column.
pub(crate) fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut off = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &bytes[off..]) {
            Some(p) => off += p + 1,
            None => return bytes.len(),
        }
    }
    (off + column.saturating_sub(1)).min(bytes.len())
}

/// [`strip_comments`], and when `syntax` accepts them, trailing commas replaced by a
/// space too (offsets kept).
pub fn strip_comments_with(bytes: &[u8], syntax: Syntax) -> Result<Cow<'_, [u8]>> {
    let clean = strip_comments(bytes)?;
    if !syntax.trailing_commas {
        return Ok(clean);
    }
    let mut out: Option<Vec<u8>> = None;
    let b: &[u8] = &clean;
    let mut i = 0;
    while let Some(p) = memchr::memchr2(b'"', b',', &b[i..]) {
        let at = i + p;
        if b[at] == b'"' {
            match string_end(b, at) {
                Some(end) => i = end,
                None => break,
            }
            continue;
        }
        let next = b[at + 1..]
            .iter()
            .find(|c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t'));
        if matches!(next, Some(b'}' | b']')) {
            out.get_or_insert_with(|| b.to_vec())[at] = b' ';
        }
        i = at + 1;
    }
    Ok(match out {
        Some(o) => Cow::Owned(o),
        None => clean,
    })
}

/// Parses JSON that may hold comments; syntax errors carry the byte offset.
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value> {
    parse_json_with(bytes, Syntax::ASSET)
}

/// [`parse_json`] with the syntax of the file's O3DE reader (trailing commas in
/// settings registry files: [`Syntax::of`]).
pub fn parse_json_with(bytes: &[u8], syntax: Syntax) -> Result<serde_json::Value> {
    let clean = strip_comments_with(bytes, syntax)?;
    serde_json::from_slice(&clean).map_err(|e| {
        let off = offset_of(&clean, e.line(), e.column());
        Error::at(off, ErrorKind::Message(format!("invalid JSON: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_outside_strings() {
        let s = br#"{"a": "http://x/*y*/", // c
  /* b */ "b": 1}"#;
        let v = parse_json(s).unwrap();
        assert_eq!(v["a"], "http://x/*y*/");
        assert_eq!(v["b"], 1);
        assert!(matches!(
            strip_comments(br#"{"a":"\"/"}"#).unwrap(),
            Cow::Borrowed(_)
        ));
        assert!(parse_json(b"{} /* open").is_err());
        let e = parse_json(b"{\n \"a\": x}").unwrap_err();
        assert_eq!(e.offset(), Some(8));
        // A comment holding a quote, a comment right at the end, and a line comment
        // with no newline after it.
        let v = parse_json(b"[1 /* \" */, 2] // end").unwrap();
        assert_eq!(v, serde_json::json!([1, 2]));
        assert!(parse_json(b"[1] /").is_err());
    }

    #[test]
    fn trailing_commas_only_with_the_settings_syntax() {
        let s = b"{\"a\": [1, 2, /* x */ ], \"s\": \",]\", \"b\": {\"c\": 1, // y\n}, }";
        let v = parse_json_with(s, Syntax::SETTINGS).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": [1, 2], "s": ",]", "b": {"c": 1}})
        );
        assert!(parse_json(s).is_err());
        assert!(parse_json_with(b"[1,,]", Syntax::SETTINGS).is_err());
    }

    #[test]
    fn bare_minus_zero_is_the_integer_zero() {
        let v = parse_json(br#"[-0, -0.0, -0e1, -01, -1, "-0", {"-0": -0}]"#);
        // -01 is not JSON: the error stays, at the same place.
        assert_eq!(v.unwrap_err().offset(), Some(19));
        let v = parse_json(br#"[-0, -0.0, -0e1, -10, "-0", {"-0": -0}, -0 ]"#).unwrap();
        assert!(v[0].is_u64(), "{v}");
        assert_eq!(v[0], serde_json::json!(0));
        assert!(v[1].as_f64().unwrap().is_sign_negative());
        assert!(v[2].as_f64().unwrap().is_sign_negative());
        assert_eq!(v[3], serde_json::json!(-10));
        assert_eq!(v[4], serde_json::json!("-0"));
        assert_eq!(v[5], serde_json::json!({"-0": 0}));
        assert_eq!(v[6], serde_json::json!(0));
        assert!(matches!(
            strip_comments(br#"{"a": "-0", "b": -0.5, "c": -12}"#).unwrap(),
            Cow::Borrowed(_)
        ));
    }
}
