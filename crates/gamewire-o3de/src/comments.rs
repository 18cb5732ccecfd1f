//! JSON input with comments, as O3DE reads it (rapidjson's `kParseCommentsFlag`):
//! `// line` and `/* block */` comments outside strings are ignored.

use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

/// Replaces comments with spaces (so byte offsets stay the same). Returns the input
/// unchanged, without copying, when it holds no comment.
pub fn strip_comments(bytes: &[u8]) -> Result<Cow<'_, [u8]>> {
    // Fast path: find the first '/' outside a string; most files have none.
    let mut i = 0;
    let first = loop {
        match memchr::memchr2(b'"', b'/', &bytes[i..]) {
            None => return Ok(Cow::Borrowed(bytes)),
            Some(p) => {
                let at = i + p;
                if bytes[at] == b'/' {
                    break at;
                }
                // Skip the string.
                let mut j = at + 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &bytes[j..]) {
                        None => return Ok(Cow::Borrowed(bytes)),
                        Some(q) => {
                            let k = j + q;
                            if bytes[k] == b'\\' {
                                j = k + 2;
                                if j >= bytes.len() {
                                    return Ok(Cow::Borrowed(bytes));
                                }
                            } else {
                                j = k + 1;
                                break;
                            }
                        }
                    }
                }
                i = j;
                if i >= bytes.len() {
                    return Ok(Cow::Borrowed(bytes));
                }
            }
        }
    };
    let mut out = bytes.to_vec();
    let mut i = first;
    let mut in_string = false;
    while i < out.len() {
        let c = out[i];
        if in_string {
            match c {
                b'\\' => i += 2,
                b'"' => {
                    in_string = false;
                    i += 1
                }
                _ => i += 1,
            }
            continue;
        }
        match c {
            b'"' => {
                in_string = true;
                i += 1;
            }
            b'/' if out.get(i + 1) == Some(&b'/') => {
                while i < out.len() && out[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if out.get(i + 1) == Some(&b'*') => {
                let start = i;
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                loop {
                    if i + 1 >= out.len() {
                        return Err(Error::msg_at(start, "unterminated /* comment"));
                    }
                    if out[i] == b'*' && out[i + 1] == b'/' {
                        out[i] = b' ';
                        out[i + 1] = b' ';
                        i += 2;
                        break;
                    }
                    if out[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    Ok(Cow::Owned(out))
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

/// Parses JSON that may hold comments; syntax errors carry the byte offset.
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value> {
    let clean = strip_comments(bytes)?;
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
    }
}
