//! Floats that other JSON tools turn into integers.
//!
//! jq 1.6, JavaScript's `JSON.stringify` and many editors write the float `-3006.0` as
//! `-3006`. In every format where an integer and a float are different engine types
//! (Godot, Resonite BSON, Zeze without a solution, O3DE number text), reading that text
//! back would change the value's type without a word. The rule, applied in one place for
//! every format:
//!
//! - while a file is decoded to JSON, [`FloatScan`] watches the JSON text go out and
//!   records the JSON Pointer and value of every number written with a fraction or an
//!   exponent whose value is a whole number (the numbers such tools rewrite), and the
//!   length of every array holding one ([`FloatRecord`], written after the data as
//!   `"$floats"`);
//! - when JSON with that record is encoded ([`restore`]), a number written without a
//!   fraction at a recorded pointer is read as the float it was (`-3006` becomes
//!   `-3006.0`) — whether or not its value was edited, since the slot held a float;
//! - where an array on the way to a recorded pointer changed length (items inserted or
//!   removed), the pointer may now name another item: a number there is converted only
//!   when its value is still the recorded one, and otherwise the encode is refused,
//!   naming the pointer, rather than guessing.
//!
//! Numbers at pointers not recorded are read as written.

use gamewire_core::{Error, Result};
use std::collections::{BTreeMap, HashMap};

/// Where the decoded JSON held whole-valued floats, and the lengths of the arrays
/// holding them.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FloatRecord {
    /// JSON Pointers (relative to the data) of whole-valued floats, with their values.
    #[serde(default)]
    pub at: Vec<(String, f64)>,
    /// JSON Pointers of the arrays holding any of them, with their lengths.
    #[serde(default)]
    pub arrays: BTreeMap<String, u64>,
}

impl FloatRecord {
    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }
}

/// One open container while scanning.
#[derive(Debug)]
enum Frame {
    Array {
        /// Items begun so far.
        count: u64,
        /// A recorded float lies inside.
        holds: bool,
    },
    Object {
        /// The key of the member being read (raw text between the quotes).
        key: Vec<u8>,
        /// The next string is a key.
        expect_key: bool,
        holds: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens.
    Between,
    /// Inside a string; `escape` after a backslash.
    Str { key: bool, escape: bool },
    /// Inside a number token.
    Num,
    /// Inside `true`, `false` or `null`.
    Word,
}

/// A streaming reader of JSON text that knows the JSON Pointer of the value it is in.
/// It assumes well-formed text (what a JSON writer produced, or what a strict parser
/// accepts afterwards) and never fails: malformed text only gives odd pointers.
#[derive(Debug)]
struct Walker {
    stack: Vec<Frame>,
    state: State,
    token: Vec<u8>,
    /// Bytes seen so far (offsets of tokens).
    pos: usize,
}

/// What the walker reports to its user.
trait Visit {
    /// A number token ended at byte `end`; `walker` still stands in its position.
    fn number(&mut self, walker: &mut Walker, text: &[u8], end: usize);
    /// An array closes with `count` items; `holds` when a number of interest lies inside.
    fn array_end(&mut self, walker: &Walker, count: u64, holds: bool);
}

impl Walker {
    fn new() -> Self {
        Walker {
            stack: Vec::new(),
            state: State::Between,
            token: Vec::new(),
            pos: 0,
        }
    }

    /// The JSON Pointer of the value being read.
    fn pointer(&self) -> String {
        pointer_of(&self.stack)
    }

    /// Marks every open container as holding a value of interest.
    fn mark(&mut self) {
        for f in self.stack.iter_mut().rev() {
            match f {
                Frame::Array { holds, .. } | Frame::Object { holds, .. } => {
                    if *holds {
                        break;
                    }
                    *holds = true;
                }
            }
        }
    }

    /// A value begins here: counts it in its array.
    fn begin_value(&mut self) {
        if let Some(Frame::Array { count, .. }) = self.stack.last_mut() {
            *count += 1;
        }
    }

    fn feed(&mut self, bytes: &[u8], v: &mut dyn Visit) {
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match self.state {
                State::Str { key, escape } => {
                    if escape {
                        if key {
                            self.token.push(b);
                        }
                        self.state = State::Str { key, escape: false };
                        i += 1;
                        continue;
                    }
                    // Skip to the next quote or backslash in one step.
                    let rest = &bytes[i..];
                    let stop = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
                    if key {
                        self.token.extend_from_slice(&rest[..stop]);
                    }
                    i += stop;
                    if i >= bytes.len() {
                        break;
                    }
                    if bytes[i] == b'\\' {
                        if key {
                            self.token.push(b'\\');
                        }
                        self.state = State::Str { key, escape: true };
                    } else {
                        self.state = State::Between;
                        if key {
                            if let Some(Frame::Object {
                                key: k, expect_key, ..
                            }) = self.stack.last_mut()
                            {
                                *k = std::mem::take(&mut self.token);
                                *expect_key = false;
                            }
                        }
                    }
                    i += 1;
                }
                State::Num => {
                    if matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                        self.token.push(b);
                        i += 1;
                    } else {
                        self.end_number(v, self.pos + i);
                        // The delimiter is read again between tokens.
                    }
                }
                State::Word => {
                    if b.is_ascii_alphabetic() {
                        i += 1;
                    } else {
                        self.state = State::Between;
                    }
                }
                State::Between => {
                    match b {
                        b'"' => {
                            let key = matches!(
                                self.stack.last(),
                                Some(Frame::Object {
                                    expect_key: true,
                                    ..
                                })
                            );
                            if !key {
                                self.begin_value();
                            }
                            self.token.clear();
                            self.state = State::Str { key, escape: false };
                        }
                        b'{' => {
                            self.begin_value();
                            self.stack.push(Frame::Object {
                                key: Vec::new(),
                                expect_key: true,
                                holds: false,
                            });
                        }
                        b'[' => {
                            self.begin_value();
                            self.stack.push(Frame::Array {
                                count: 0,
                                holds: false,
                            });
                        }
                        b'}' => {
                            self.stack.pop();
                        }
                        b']' => {
                            if let Some(Frame::Array { count, holds }) = self.stack.pop() {
                                // Report with the array's own pointer: push it back
                                // for the call and take it off again.
                                self.stack.push(Frame::Array { count, holds });
                                let ptr_walker = &*self;
                                v.array_end(ptr_walker, count, holds);
                                self.stack.pop();
                            }
                        }
                        b',' => {
                            if let Some(Frame::Object { expect_key, .. }) = self.stack.last_mut() {
                                *expect_key = true;
                            }
                        }
                        b'-' | b'0'..=b'9' => {
                            self.begin_value();
                            self.token.clear();
                            self.token.push(b);
                            self.state = State::Num;
                        }
                        b't' | b'f' | b'n' => {
                            self.begin_value();
                            self.state = State::Word;
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
        }
        self.pos += bytes.len();
    }

    fn end_number(&mut self, v: &mut dyn Visit, end: usize) {
        self.state = State::Between;
        let text = std::mem::take(&mut self.token);
        v.number(self, &text, end);
        self.token = text;
    }

    /// The end of the text: a number running to the end ends here.
    fn finish(&mut self, v: &mut dyn Visit) {
        if self.state == State::Num {
            self.end_number(v, self.pos);
        }
    }
}

/// The JSON Pointer of the value the innermost frame is reading.
fn pointer_of(stack: &[Frame]) -> String {
    let mut p = String::new();
    for f in stack {
        p.push('/');
        match f {
            Frame::Array { count, .. } => p.push_str(&count.saturating_sub(1).to_string()),
            Frame::Object { key, .. } => {
                let k = decode_key(key);
                p.push_str(&k.replace('~', "~0").replace('/', "~1"));
            }
        }
    }
    p
}

/// The text of a key from its raw bytes between the quotes (escapes decoded).
fn decode_key(raw: &[u8]) -> String {
    if !raw.contains(&b'\\') {
        return String::from_utf8_lossy(raw).into_owned();
    }
    let mut quoted = Vec::with_capacity(raw.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(raw);
    quoted.push(b'"');
    serde_json::from_slice(&quoted).unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned())
}

/// True for number text with a fraction or an exponent.
fn has_fraction(text: &[u8]) -> bool {
    text.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

/// The value of number text.
fn value_of(text: &[u8]) -> Option<f64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// Watches JSON text as it is written and records its whole-valued floats.
#[derive(Debug)]
pub struct FloatScan {
    walker: Walker,
    record: FloatRecord,
}

struct Recorder<'a>(&'a mut FloatRecord);

impl Visit for Recorder<'_> {
    fn number(&mut self, walker: &mut Walker, text: &[u8], _end: usize) {
        if !has_fraction(text) {
            return;
        }
        if let Some(x) = value_of(text) {
            if x.is_finite() && x.fract() == 0.0 {
                self.0.at.push((walker.pointer(), x));
                walker.mark();
            }
        }
    }

    fn array_end(&mut self, walker: &Walker, count: u64, holds: bool) {
        if holds {
            let p = pointer_of(&walker.stack[..walker.stack.len() - 1]);
            self.0.arrays.insert(p, count);
        }
    }
}

impl Default for FloatScan {
    fn default() -> Self {
        Self::new()
    }
}

impl FloatScan {
    /// A scan at the start of a JSON document.
    pub fn new() -> Self {
        FloatScan {
            walker: Walker::new(),
            record: FloatRecord::default(),
        }
    }

    /// Reads the next bytes of the text.
    pub fn feed(&mut self, bytes: &[u8]) {
        let mut r = Recorder(&mut self.record);
        self.walker.feed(bytes, &mut r);
    }

    /// Ends the text and gives what was recorded.
    pub fn finish(mut self) -> FloatRecord {
        let mut r = Recorder(&mut self.record);
        self.walker.finish(&mut r);
        self.record
    }
}

/// A writer that passes JSON text through and scans it ([`FloatScan`]).
pub struct ScanningWriter<W> {
    /// Where the text goes.
    pub inner: W,
    /// The scan of what went through.
    pub scan: FloatScan,
}

impl<W: std::io::Write> std::io::Write for ScanningWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.scan.feed(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A number written as an integer at a recorded float's pointer.
struct Candidate {
    end: usize,
    pointer: String,
    value: Option<f64>,
}

struct Finder<'a> {
    floats: &'a HashMap<&'a str, f64>,
    arrays: &'a BTreeMap<String, u64>,
    found: Vec<Candidate>,
    lengths: HashMap<String, u64>,
}

impl Visit for Finder<'_> {
    fn number(&mut self, walker: &mut Walker, text: &[u8], end: usize) {
        if has_fraction(text) {
            return;
        }
        let p = walker.pointer();
        if self.floats.contains_key(p.as_str()) {
            self.found.push(Candidate {
                end,
                pointer: p,
                value: value_of(text),
            });
        }
    }

    fn array_end(&mut self, walker: &Walker, count: u64, _holds: bool) {
        if self.arrays.is_empty() {
            return;
        }
        let p = pointer_of(&walker.stack[..walker.stack.len() - 1]);
        if self.arrays.contains_key(&p) {
            self.lengths.insert(p, count);
        }
    }
}

/// Gives back `text` (one JSON document, the data of a decoded file) with the floats
/// `record` names written as floats again (see the module docs). Returns the text
/// unchanged (borrowed) when nothing needs it.
pub fn restore<'a>(text: &'a [u8], record: &FloatRecord) -> Result<std::borrow::Cow<'a, [u8]>> {
    if record.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let floats: HashMap<&str, f64> = record.at.iter().map(|(p, x)| (p.as_str(), *x)).collect();
    let mut f = Finder {
        floats: &floats,
        arrays: &record.arrays,
        found: Vec::new(),
        lengths: HashMap::new(),
    };
    let mut w = Walker::new();
    w.feed(text, &mut f);
    w.finish(&mut f);
    if f.found.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    // Arrays whose length changed: pointers under them may name other items now.
    let changed: Vec<&str> = record
        .arrays
        .iter()
        .filter(|(p, n)| f.lengths.get(*p).is_some_and(|m| m != *n))
        .map(|(p, _)| p.as_str())
        .collect();
    let mut out = Vec::with_capacity(text.len() + 2 * f.found.len());
    let mut from = 0;
    for c in &f.found {
        let under = changed.iter().find(|a| {
            c.pointer.len() > a.len()
                && c.pointer.starts_with(*a)
                && c.pointer.as_bytes()[a.len()] == b'/'
        });
        if let Some(array) = under {
            let was = floats[c.pointer.as_str()];
            if c.value != Some(was) {
                return Err(Error::msg(format!(
                    "at {}: a number written without a fraction where the decoded file held \
                     the float {was:?}, and the array at {} changed length since it was \
                     decoded (from {} to {} items), so gamewire cannot tell whether this is \
                     that float edited or another item moved here: write the number with a \
                     fraction ({}.0) if it is a float, or encode with the numbers as written \
                     (`--numbers-as-written`)",
                    show(&c.pointer),
                    show(array),
                    record.arrays[*array],
                    f.lengths[*array],
                    c.value.map_or("N".to_owned(), |x| format!("{x}")),
                )));
            }
        }
        out.extend_from_slice(&text[from..c.end]);
        out.extend_from_slice(b".0");
        from = c.end;
    }
    out.extend_from_slice(&text[from..]);
    Ok(std::borrow::Cow::Owned(out))
}

/// A pointer as shown in messages (the root is `/`… written as the empty pointer `""`).
fn show(p: &str) -> String {
    if p.is_empty() {
        "the root".to_owned()
    } else {
        p.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> FloatRecord {
        let mut s = FloatScan::new();
        // Fed a byte at a time: the state carries across every boundary.
        for b in text.as_bytes() {
            s.feed(std::slice::from_ref(b));
        }
        s.finish()
    }

    #[test]
    fn records_whole_floats_with_their_pointers() {
        let r = scan(
            r#"{"player": {"x": -3006.0, "y": 1.5, "hp": 87, "a/b~": 2e3},
               "list": [1, 2.0, {"z": 0.0}], "s": "3.0", "k\"ey": [4.0]}"#,
        );
        assert_eq!(
            r.at,
            vec![
                ("/player/x".to_owned(), -3006.0),
                ("/player/a~1b~0".to_owned(), 2000.0),
                ("/list/1".to_owned(), 2.0),
                ("/list/2/z".to_owned(), 0.0),
                ("/k\"ey/0".to_owned(), 4.0),
            ]
        );
        assert_eq!(r.arrays.get("/list"), Some(&3));
        assert_eq!(r.arrays.get("/k\"ey"), Some(&1));
        assert_eq!(r.arrays.len(), 2);
    }

    #[test]
    fn a_bare_number_document_is_recorded_at_the_root() {
        let r = scan("5.0");
        assert_eq!(r.at, vec![(String::new(), 5.0)]);
        assert_eq!(restore(b"5", &r).unwrap().as_ref(), b"5.0");
    }

    #[test]
    fn restore_puts_fractions_back_as_jq_took_them_away() {
        let original = r#"{"x": -3006.0, "v": [1, 2.0, 3], "n": 7, "e": 1e20}"#;
        let r = scan(original);
        // jq 1.6 / JSON.stringify output of the same document.
        let jq = br#"{"x":-3006,"v":[1,2,3],"n":7,"e":100000000000000000000}"#;
        let back = restore(jq, &r).unwrap();
        assert_eq!(
            std::str::from_utf8(&back).unwrap(),
            r#"{"x":-3006.0,"v":[1,2.0,3],"n":7,"e":100000000000000000000.0}"#
        );
        // An edited float stays a float; an unrecorded integer stays an integer.
        let edited = br#"{"x":5,"v":[1,2,3],"n":8,"e":1}"#;
        let back = restore(edited, &r).unwrap();
        assert_eq!(
            std::str::from_utf8(&back).unwrap(),
            r#"{"x":5.0,"v":[1,2.0,3],"n":8,"e":1.0}"#
        );
    }

    #[test]
    fn an_array_that_changed_length_is_trusted_only_where_values_match() {
        let r = scan(r#"{"v": [1, 2.0, 3]}"#);
        // Appended: the float is where it was, with its value.
        let back = restore(br#"{"v":[1,2,3,4]}"#, &r).unwrap();
        assert_eq!(back.as_ref(), br#"{"v":[1,2.0,3,4]}"#);
        // Inserted at the front: /v/1 is now another item: refused, naming it.
        let err = restore(br#"{"v":[0,1,2,3]}"#, &r).unwrap_err().to_string();
        assert!(
            err.contains("at /v/1") && err.contains("/v changed length"),
            "{err}"
        );
        // Written with a fraction, nothing is guessed.
        let back = restore(br#"{"v":[0,1.0,2.0,3]}"#, &r).unwrap();
        assert_eq!(back.as_ref(), br#"{"v":[0,1.0,2.0,3]}"#);
    }

    #[test]
    fn strings_and_keys_are_never_numbers() {
        let r = scan(r#"{"a": "1.0", "1.0": "x", "b": [true, null, false, 2.0]}"#);
        assert_eq!(r.at, vec![("/b/3".to_owned(), 2.0)]);
        let back = restore(br#"{"a":"1","1.0":"x","b":[true,null,false,2]}"#, &r).unwrap();
        assert_eq!(
            back.as_ref(),
            br#"{"a":"1","1.0":"x","b":[true,null,false,2.0]}"#
        );
    }
}
