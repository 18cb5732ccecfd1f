//! Reading JSON text for the formats' JSON side, stricter than serde_json alone.
//!
//! serde_json reads an integer literal past 64 bits (`18446744073709551616`) as a float
//! and keeps the last of duplicate object keys, so a `serde_json::Value` can no longer
//! tell that the text was wrong. [`parse`] and [`parse_stream`] read the text itself:
//!
//! - an integer literal outside `-2^63 ..= 2^64-1` is an error (no format holds it);
//! - a key repeated in one object is an error unless [`TextOptions::last_key_wins`];
//! - nesting past [`TextOptions::max_depth`] is an error, found without recursion;
//!
//! and every error names the line and column (1-based) where it is.

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// How JSON text is read.
#[derive(Clone, Debug)]
pub struct TextOptions {
    /// Deepest nesting of arrays and objects accepted.
    pub max_depth: usize,
    /// Keep the last value of a repeated key (serde_json's behaviour) instead of failing.
    pub last_key_wins: bool,
}

impl TextOptions {
    /// Strict reading with nesting up to `max_depth`.
    pub fn new(max_depth: usize) -> Self {
        TextOptions {
            max_depth,
            last_key_wins: false,
        }
    }

    /// Sets [`TextOptions::last_key_wins`].
    pub fn last_key_wins(mut self, yes: bool) -> Self {
        self.last_key_wins = yes;
        self
    }
}

/// A problem in JSON text, at a line and column (both 1-based; 0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// Line of the problem.
    pub line: usize,
    /// Column of the problem (in bytes).
    pub column: usize,
    /// Which document of a stream (1-based), when the text held more than one.
    pub document: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON")?;
        if let Some(d) = self.document {
            write!(f, " (document {d})")?;
        }
        write!(f, ": {}", self.message)?;
        if self.line > 0 {
            write!(f, " at line {} column {}", self.line, self.column)?;
        }
        Ok(())
    }
}

impl std::error::Error for TextError {}

impl From<TextError> for crate::Error {
    fn from(e: TextError) -> Self {
        crate::Error::msg(e.to_string())
    }
}

impl TextError {
    fn at(line: usize, column: usize, message: String) -> Self {
        TextError {
            line,
            column,
            document: None,
            message,
        }
    }

    fn from_serde(e: &serde_json::Error, document: Option<usize>) -> Self {
        // serde_json's message ends with " at line L column C"; keep the bare message.
        let text = e.to_string();
        let message = match text.rfind(" at line ") {
            Some(i) if e.line() > 0 => text[..i].to_owned(),
            _ => text,
        };
        TextError {
            line: e.line(),
            column: e.column(),
            document,
            message,
        }
    }
}

/// Checks nesting depth and integer literals in one pass without recursion.
pub fn check_text(text: &[u8], max_depth: usize) -> Result<(), TextError> {
    let (mut line, mut line_start) = (1usize, 0usize);
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if in_str {
            if escaped {
                escaped = false;
                i += 1;
                continue;
            }
            // Straight to the string's next quote, backslash or line break.
            i += memchr::memchr3(b'"', b'\\', b'\n', &text[i..]).unwrap_or(text.len() - i);
            match text.get(i) {
                Some(b'\\') => escaped = true,
                Some(b'"') => in_str = false,
                Some(_) => {
                    line += 1;
                    line_start = i + 1;
                }
                None => break,
            }
            i += 1;
            continue;
        }
        match b {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            // Indentation in one step.
            b' ' => {
                i += text[i..].iter().take_while(|&&c| c == b' ').count();
                continue;
            }
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Err(TextError::at(
                        line,
                        i - line_start + 1,
                        format!("nesting deeper than the limit of {max_depth}"),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'-' | b'0'..=b'9' => {
                let start = i;
                let neg = b == b'-';
                if neg {
                    i += 1;
                }
                let digits_start = i;
                while i < text.len() && text[i].is_ascii_digit() {
                    i += 1;
                }
                let digits = &text[digits_start..i];
                let is_float = i < text.len() && matches!(text[i], b'.' | b'e' | b'E');
                if !is_float && !digits.is_empty() && !fits_64(digits, neg) {
                    let lit = String::from_utf8_lossy(&text[start..i]);
                    let shown = if lit.len() > 40 {
                        format!("{}… ({} digits)", &lit[..40], digits.len())
                    } else {
                        lit.into_owned()
                    };
                    return Err(TextError::at(
                        line,
                        start - line_start + 1,
                        format!(
                            "the integer {shown} is outside the 64-bit range \
                             (-9223372036854775808 to 18446744073709551615)"
                        ),
                    ));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// True when the decimal digits (with a leading minus when `neg`) fit `i64` (negative)
/// or `u64` (positive), the widest integers any format holds.
fn fits_64(digits: &[u8], neg: bool) -> bool {
    let significant = match digits.iter().position(|&d| d != b'0') {
        Some(p) => &digits[p..],
        None => return true,
    };
    if significant.len() > 20 {
        return false;
    }
    let v = significant
        .iter()
        .fold(0u128, |v, &d| v * 10 + u128::from(d - b'0'));
    if neg {
        v <= 1u128 << 63
    } else {
        v <= u128::from(u64::MAX)
    }
}

/// Parses one JSON document (white space around it allowed).
pub fn parse(text: &[u8], opts: &TextOptions) -> Result<Value, TextError> {
    let mut docs = parse_stream(text, opts)?;
    if docs.len() > 1 {
        return Err(TextError::at(
            0,
            0,
            format!(
                "the text holds {} documents where one was expected",
                docs.len()
            ),
        ));
    }
    Ok(docs.remove(0))
}

/// Parses a stream of JSON documents separated by white space (at least one).
pub fn parse_stream(text: &[u8], opts: &TextOptions) -> Result<Vec<Value>, TextError> {
    check_text(text, opts.max_depth)?;
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let mut docs = Vec::new();
    if text.iter().all(|b| b" \t\r\n".contains(b)) {
        return Err(TextError::at(
            0,
            0,
            "the text holds no JSON document".into(),
        ));
    }
    loop {
        let seed = Strict {
            last_key_wins: opts.last_key_wins,
        };
        match seed.deserialize(&mut de) {
            Ok(v) => docs.push(v),
            Err(e) => {
                let document = (!docs.is_empty()).then_some(docs.len() + 1);
                return Err(TextError::from_serde(&e, document));
            }
        }
        if de_at_end(&mut de) {
            break;
        }
    }
    Ok(docs)
}

fn de_at_end(de: &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>) -> bool {
    de.end().is_ok()
}

/// Builds a `serde_json::Value`, refusing repeated keys unless told otherwise.
#[derive(Clone, Copy)]
struct Strict {
    last_key_wins: bool,
}

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number out of range"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(self)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if !self.last_key_wins && out.contains_key(&key) {
                let shown: String = key.chars().take(60).collect();
                return Err(A::Error::custom(format!(
                    "the key {shown:?} appears twice in one object (--last-key-wins keeps the last)"
                )));
            }
            let v = map.next_value_seed(self)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(text: &str) -> Result<Vec<Value>, TextError> {
        parse_stream(text.as_bytes(), &TextOptions::new(64))
    }

    #[test]
    fn integers_past_64_bits_are_errors_with_line_and_column() {
        assert!(strict("[18446744073709551615, -9223372036854775808]").is_ok());
        let e = strict("{\n  \"a\": 18446744073709551616}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8), "{e}");
        assert!(e.message.contains("18446744073709551616"), "{e}");
        let e = strict("[-9223372036854775809]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 2), "{e}");
        assert!(strict(&format!("[1{}]", "0".repeat(400))).is_err());
        // Floats and numbers inside strings are left alone.
        assert!(strict("[1e300, 18446744073709551616.0, \"18446744073709551616\"]").is_ok());
        assert!(strict("[1e999]").is_err()); // serde_json: out of range
    }

    #[test]
    fn duplicate_keys_are_errors_unless_last_key_wins() {
        let e = strict("{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}}").unwrap_err();
        assert!(e.message.contains("\"c\" appears twice"), "{e}");
        assert_eq!(e.line, 2, "{e}");
        let v = parse(
            b"{\"c\": 1, \"c\": 2}",
            &TextOptions::new(8).last_key_wins(true),
        )
        .unwrap();
        assert_eq!(v, serde_json::json!({"c": 2}));
    }

    #[test]
    fn nesting_past_the_limit_names_line_and_column() {
        let text = format!("{{\"a\":\n  {}{}}}", "[".repeat(70), "]".repeat(70));
        let e = parse(text.as_bytes(), &TextOptions::new(64)).unwrap_err();
        assert_eq!((e.line, e.column), (2, 66), "{e}");
        assert!(
            e.to_string().contains("limit of 64 at line 2 column 66"),
            "{e}"
        );
    }

    #[test]
    fn strings_and_indentation_are_passed_over_with_lines_counted() {
        // Brackets, digits and escaped quotes inside strings count for nothing; a line
        // break inside a string (and after indentation) still counts a line.
        let inner = "\"[[{ 18446744073709551616 \\\" ]]\\\\\"";
        let text = format!("[\n    {inner},\n    \"a\nb\",\n        [[18446744073709551616]]]");
        let e = check_text(text.as_bytes(), 64).unwrap_err();
        assert_eq!((e.line, e.column), (5, 11), "{e}");
        assert!(check_text(format!("[{inner}]").as_bytes(), 1).is_ok());
        let e = check_text(format!("[{inner}, [2]]").as_bytes(), 1).unwrap_err();
        assert!(e.message.contains("limit of 1"), "{e}");
        // A string left open at the end is the parser's error, not a panic here.
        assert!(check_text(b"[\"abc\\", 8).is_ok());
        assert!(check_text(b"[\"abc", 8).is_ok());
    }

    #[test]
    fn streams_and_syntax_errors() {
        assert_eq!(strict(" 1 [2] {\"a\": \"]\"}\n").unwrap().len(), 3);
        let e = strict("1\n[2,").unwrap_err();
        assert_eq!(e.document, Some(2), "{e}");
        assert!(strict("  ").is_err());
        assert!(parse(b"1 2", &TextOptions::new(8)).is_err());
        let e = strict("{\"a\" 1}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 6), "{e}");
    }
}
