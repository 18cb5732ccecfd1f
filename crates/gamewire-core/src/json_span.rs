//! Where a value is in JSON text: the byte range of the value at a JSON Pointer, found by
//! scanning the text (no tree built). Comments (`//`, `/* */`) and trailing commas are
//! stepped over, as in the JSON files engines write by hand (O3DE's settings registry);
//! a repeated key's last value is the one found, as JSON readers keep it.

use std::ops::Range;

/// The byte range of the value at the pointer `tokens` (unescaped) in `text`, or `None`
/// when the text holds no value there (or is not JSON).
pub fn span(text: &[u8], tokens: &[String]) -> Option<Range<usize>> {
    let mut s = Scan { t: text, pos: 0 };
    if s.t.starts_with(b"\xEF\xBB\xBF") {
        s.pos = 3;
    }
    s.gap();
    let mut start = s.pos;
    for tok in tokens {
        s.pos = start;
        start = s.child(tok)?;
    }
    s.pos = start;
    s.skip_value()?;
    Some(start..s.pos)
}

struct Scan<'a> {
    t: &'a [u8],
    pos: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.t.get(self.pos).copied()
    }

    /// Skips white space and comments.
    fn gap(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.t.get(self.pos + 1) == Some(&b'/') => {
                    while !matches!(self.peek(), None | Some(b'\n')) {
                        self.pos += 1;
                    }
                }
                Some(b'/') if self.t.get(self.pos + 1) == Some(&b'*') => {
                    self.pos += 2;
                    while self.pos < self.t.len() && !self.t[self.pos..].starts_with(b"*/") {
                        self.pos += 1;
                    }
                    self.pos = (self.pos + 2).min(self.t.len());
                }
                _ => return,
            }
        }
    }

    /// The string at `pos` (unescaped), and moves past it.
    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
        self.pos += 1;
        let raw = std::str::from_utf8(&self.t[start..self.pos]).ok()?;
        serde_json::from_str(raw).ok()
    }

    /// Moves past the value at `pos`.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.gap();
            match self.peek()? {
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b'"' => {
                    self.string()?;
                }
                b',' | b':' if depth > 0 => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    let start = self.pos;
                    while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || b"+-.".contains(&c))
                    {
                        self.pos += 1;
                    }
                    if self.pos == start {
                        return None;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }

    /// The start of the child `tok` of the container at `pos`.
    fn child(&mut self, tok: &str) -> Option<usize> {
        let open = self.peek()?;
        self.pos += 1;
        let mut found = None;
        let mut index = 0usize;
        loop {
            self.gap();
            match self.peek()? {
                b'}' | b']' => return found,
                b',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            let hit = if open == b'{' {
                let key = self.string()?;
                self.gap();
                if self.peek()? != b':' {
                    return None;
                }
                self.pos += 1;
                self.gap();
                key == tok
            } else if open == b'[' {
                let hit = tok.parse::<usize>().ok() == Some(index)
                    && (tok == "0" || !tok.starts_with('0'));
                index += 1;
                hit
            } else {
                return None;
            };
            if hit {
                found = Some(self.pos);
                if open == b'[' {
                    return found;
                }
            }
            self.skip_value()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, p: &[&str]) -> Option<&'a str> {
        let toks: Vec<String> = p.iter().map(|s| s.to_string()).collect();
        span(text.as_bytes(), &toks).map(|r| &text[r])
    }

    #[test]
    fn finds_values_past_comments_and_trailing_commas() {
        let t = "\u{feff}{\n  // a comment\n  \"a\": [1, {\"b\\\"c\": \"x,]\"}, ],\n  /* \"a\": 2 */ \"n\": -1.5e3,\n}";
        assert_eq!(at(t, &["a", "1", "b\"c"]), Some("\"x,]\""));
        assert_eq!(at(t, &["a", "1"]), Some("{\"b\\\"c\": \"x,]\"}"));
        assert_eq!(at(t, &["n"]), Some("-1.5e3"));
        assert_eq!(at(t, &["a", "2"]), None);
        assert_eq!(at(t, &["a", "01"]), None);
        assert_eq!(at(t, &[]), Some(&t[3..]));
        assert_eq!(at("{\"k\": 1, \"k\": true}", &["k"]), Some("true"));
    }
}
