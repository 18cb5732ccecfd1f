//! The text of an O3DE file that its JSON document does not hold: indentation, line
//! endings, comments, trailing commas, odd spacing, and number and string forms other
//! JSON tools rewrite.
//!
//! [`Style::detect`] reads it from a file and the [`Document`] parsed from it;
//! [`Style::write`] writes a document (the same one, or one edited since) with it. The
//! same document comes back byte for byte. An edited one changes only where it was
//! edited: the text around a member or element that still exists is kept, a new one is
//! laid out as the file is (its indentation and line ending), one removed takes its
//! comments with it.
//!
//! Each gap between tokens is named by the JSON Pointer of the value it belongs to and
//! its place ([`Gaps`]); only gaps that differ from the file's own layout are kept, so
//! a file O3DE saved has none. A repeated member name is told apart by `~N` after its
//! token (its N-th occurrence, from 2): `~` followed by a digit other than 0 or 1 never
//! occurs in a JSON Pointer.
//!
//! Number and string text that jq or `JSON.stringify` write differently (`1.0000000`
//! becomes `1`, `"\/"` becomes `"/"`) is kept in [`Style::texts`] by pointer, and
//! written back where the value there is still the same.

use crate::doc::{Document, Node, Str};
use gamewire_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The text between the tokens of one value (written once, in `gamewire_core`, for the
/// library's settings too).
pub use gamewire_core::json_gaps::Gaps;

/// How a file is laid out, beyond its JSON document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Style {
    /// On one line (no white space) rather than indented.
    pub compact: bool,
    /// One level of indentation (four spaces in O3DE's own files; two spaces or a tab
    /// in some written by hand).
    pub indent: String,
    /// The line ending: `"\n"` or `"\r\n"`.
    pub newline: String,
    /// The file ends with a line ending.
    pub final_newline: bool,
    /// The gaps that differ from the layout, by JSON Pointer.
    pub gaps: BTreeMap<String, Gaps>,
    /// Number and string text (strings with their quotes) that other JSON tools write
    /// in another form, by JSON Pointer (not `1.0`-like whole numbers, which the
    /// `"$floats"` record of gamewire's documents gives back).
    pub texts: BTreeMap<String, String>,
}

impl Default for Style {
    /// O3DE's own layout: four spaces, `\n`, a final line ending.
    fn default() -> Self {
        Style {
            compact: false,
            indent: "    ".to_owned(),
            newline: "\n".to_owned(),
            final_newline: true,
            gaps: BTreeMap::new(),
            texts: BTreeMap::new(),
        }
    }
}

/// One JSON Pointer token: `~` and `/` escaped, `~N` after the N-th use of a name.
fn push_token(ptr: &mut String, name: &str, nth: usize) {
    ptr.push('/');
    for c in name.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
    if nth > 1 {
        ptr.push('~');
        let _ = write!(ptr, "{nth}");
    }
}

/// Objects with more members than this count their names as they are read.
const SMALL: usize = 32;

/// Counts repeated member names of one object: a list while it is small (most
/// objects), a map past that.
#[derive(Default)]
struct Seen<'a> {
    few: Vec<std::borrow::Cow<'a, str>>,
    many: Option<HashMap<std::borrow::Cow<'a, str>, usize>>,
}

impl<'a> Seen<'a> {
    /// The name and which use of it this is (1 for the first).
    fn next(&mut self, name: std::borrow::Cow<'a, str>) -> (std::borrow::Cow<'a, str>, usize) {
        if let Some(m) = &mut self.many {
            let n = m.entry(name.clone()).or_insert(0);
            *n += 1;
            return (name, *n);
        }
        let nth = 1 + self.few.iter().filter(|n| **n == name).count();
        self.few.push(name.clone());
        if self.few.len() >= 16 {
            let mut m = HashMap::new();
            for n in self.few.drain(..) {
                *m.entry(n).or_insert(0) += 1;
            }
            self.many = Some(m);
        }
        (name, nth)
    }
}

/// True when jq 1.6 and `JSON.stringify` write this number text as it is: an integer
/// of at most 15 digits, or a decimal of at most 15 significant digits as Rust's
/// shortest round trip writes it.
fn number_is_stable(t: &str) -> bool {
    if !t.contains(['.', 'e', 'E']) {
        let digits = t.trim_start_matches('-');
        return digits.len() <= 15 && t != "-0";
    }
    // A fraction ending in 0 (`1.0`, `0.50`): shortest forms never end so.
    if let Some((_, frac)) = t.split_once('.') {
        let frac = frac.split(['e', 'E']).next().unwrap_or(frac);
        if frac.ends_with('0') {
            return false;
        }
    }
    // Sixteen or seventeen significant digits: where two texts of that length read as
    // the same double, tools pick different last digits (jq 1.6 writes
    // 68.10256958007813 as ...812, -225.48367309570313 as ...312).
    let significant = t
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|&c| c == b'0')
        .count();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && significant < 16 => {
            let s = format!("{v}");
            s == t && s.contains('.')
        }
        _ => false,
    }
}

/// `-12.0`: a whole number with one zero after the point, which the `"$floats"` record
/// of gamewire's JSON documents (`gamewire::open::numbers`) already gives back as
/// written after a tool wrote it `-12`; most of O3DE's floats are so (`0.0`, `1.0`).
fn is_whole_with_one_zero(t: &str) -> bool {
    t.strip_suffix(".0").is_some_and(|i| {
        let d = i.strip_prefix('-').unwrap_or(i);
        !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()) && d.len() <= 15
    })
}

/// True when jq and `JSON.stringify` write this string's escapes as they are: none, or
/// only `\"`, `\\` and the short control escapes.
fn string_is_stable(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'\\', &b[i..]) {
        i += p;
        match b.get(i + 1) {
            Some(b'"' | b'\\' | b'n' | b't' | b'r' | b'b' | b'f') => i += 2,
            _ => return false,
        }
    }
    // Control characters must be escaped (the parser checked), DEL is escaped by jq.
    !b.contains(&0x7f)
}

fn same_number(a: &str, b: &str) -> bool {
    a == b
        || matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y && x.is_finite())
}

/// Walks the text of a file alongside its document, reading each gap.
struct Scan<'t> {
    text: &'t str,
    i: usize,
}

impl<'t> Scan<'t> {
    /// The white space and comments at the cursor (the parser already checked them).
    fn gap(&mut self) -> &'t str {
        let b = self.text.as_bytes();
        let start = self.i;
        loop {
            match b.get(self.i) {
                Some(b' ' | b'\n' | b'\r' | b'\t') => self.i += 1,
                Some(b'/') if b.get(self.i + 1) == Some(&b'/') => {
                    self.i = memchr::memchr(b'\n', &b[self.i..]).map_or(b.len(), |n| self.i + n)
                }
                Some(b'/') if b.get(self.i + 1) == Some(&b'*') => {
                    self.i = memchr::memmem::find(&b[self.i + 2..], b"*/")
                        .map_or(b.len(), |n| self.i + 2 + n + 2)
                }
                _ => return &self.text[start..self.i],
            }
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.text.as_bytes().get(self.i) != Some(&c) {
            return Err(Error::msg_at(
                self.i,
                format!(
                    "the layout of this file could not be read at '{}' (expected '{}')",
                    self.text[self.i..].chars().next().unwrap_or(' '),
                    c as char
                ),
            ));
        }
        self.i += 1;
        Ok(())
    }
}

/// Reads the gaps of a file against its layout.
struct Detect<'s, 'n, 'a> {
    style: &'s mut Style,
    /// The containers around the value being read, each with the index of its child
    /// on the way (the JSON Pointer, built only when something is recorded).
    /// For a member of a large object, the use of its name (counted as read; 0: counted
    /// when needed, in a small object).
    path: Vec<(&'n Node<'a>, usize, usize)>,
    /// Gaps and texts as found (hashed; sorted into the style at the end).
    gaps: HashMap<String, Gaps>,
    texts: Vec<(String, String)>,
    /// Texts are looked for.
    with_texts: bool,
}

impl<'n, 'a> Detect<'_, 'n, 'a> {
    /// The JSON Pointer of the value being read.
    fn ptr(&self) -> String {
        let mut p = String::new();
        for &(node, k, nth) in &self.path {
            match node {
                Node::Object(m) => {
                    let name = m[k].0.value();
                    let nth = if nth > 0 {
                        nth
                    } else {
                        1 + m[..k].iter().filter(|(n, _)| n.value() == name).count()
                    };
                    push_token(&mut p, &name, nth);
                }
                _ => {
                    let _ = write!(p, "/{k}");
                }
            }
        }
        p
    }

    fn record(&mut self, what: fn(&mut Gaps) -> &mut Option<String>, got: &str, want: &str) {
        if got != want {
            self.keep(what, got);
        }
    }

    fn keep(&mut self, what: fn(&mut Gaps) -> &mut Option<String>, got: &str) {
        let g = self.gaps.entry(self.ptr()).or_default();
        *what(g) = Some(got.to_owned());
    }

    /// Records `got` unless it is the layout's line break and indentation of `depth`
    /// (compared in place: no string is built per member).
    fn record_line(&mut self, what: fn(&mut Gaps) -> &mut Option<String>, got: &str, depth: usize) {
        let s = &*self.style;
        let is_line = if s.compact {
            got.is_empty()
        } else {
            got.strip_prefix(s.newline.as_str()).is_some_and(|rest| {
                let unit = s.indent.as_bytes();
                rest.len() == unit.len() * depth
                    && (unit.is_empty() || rest.as_bytes().chunks(unit.len()).all(|c| c == unit))
            })
        };
        if !is_line {
            self.keep(what, got);
        }
    }

    fn node(&mut self, s: &mut Scan<'_>, n: &'n Node<'a>, depth: usize) -> Result<()> {
        match n {
            Node::Null => s.i += 4,
            Node::Bool(true) => s.i += 4,
            Node::Bool(false) => s.i += 5,
            Node::Number(t) => {
                if self.with_texts && !number_is_stable(t) && !is_whole_with_one_zero(t) {
                    let p = self.ptr();
                    self.texts.push((p, (*t).to_owned()));
                }
                s.i += t.len();
            }
            Node::String(v) => {
                if self.with_texts && !string_is_stable(v.raw()) {
                    let p = self.ptr();
                    self.texts.push((p, format!("\"{}\"", v.raw())));
                }
                s.i += v.raw().len() + 2;
            }
            Node::Array(items) => {
                s.expect(b'[')?;
                let len = items.len();
                for (k, x) in items.iter().enumerate() {
                    self.path.push((n, k, 0));
                    let g = s.gap();
                    self.record_line(|g| &mut g.before, g, depth + 1);
                    self.node(s, x, depth + 1)?;
                    let trailing = self.comma(s, k + 1 == len, b']')?;
                    self.path.pop();
                    self.trailing(trailing);
                }
                self.close(s, len == 0, depth, b']')?;
            }
            Node::Object(members) => {
                s.expect(b'{')?;
                let len = members.len();
                // Large objects count their names as they go (a pointer built for
                // each of their members stays in proportion).
                let mut seen = (len > SMALL).then(Seen::default);
                for (k, (name, x)) in members.iter().enumerate() {
                    let nth = seen.as_mut().map_or(0, |s| s.next(name.value()).1);
                    self.path.push((n, k, nth));
                    let g = s.gap();
                    self.record_line(|g| &mut g.before, g, depth + 1);
                    s.i += name.raw().len() + 2;
                    let g = s.gap();
                    self.record(|g| &mut g.name, g, "");
                    s.expect(b':')?;
                    let g = s.gap();
                    let want = if self.style.compact { "" } else { " " };
                    self.record(|g| &mut g.colon, g, want);
                    self.node(s, x, depth + 1)?;
                    let trailing = self.comma(s, k + 1 == len, b'}')?;
                    self.path.pop();
                    self.trailing(trailing);
                }
                self.close(s, len == 0, depth, b'}')?;
            }
        }
        Ok(())
    }

    /// The comma after a value (the last one's only when trailing) and the comment on
    /// its line; true for a trailing comma.
    fn comma(&mut self, s: &mut Scan<'_>, last: bool, close: u8) -> Result<bool> {
        let start = s.i;
        let g = s.gap();
        let b = s.text.as_bytes();
        if last && b.get(s.i) != Some(&b',') {
            if b.get(s.i) != Some(&close) {
                return s.expect(close).map(|_| false);
            }
            // The last value: a comment on its line is its own, the rest closes.
            s.i = start;
            let c = same_line_comment(g);
            s.i += c.len();
            self.record(|g| &mut g.comma, c, "");
            return Ok(false);
        }
        self.record(|g| &mut g.after, g, "");
        s.expect(b',')?;
        let start = s.i;
        let g = s.gap();
        s.i = start + same_line_comment(g).len();
        let g = &s.text[start..s.i];
        self.record(|g| &mut g.comma, g, "");
        Ok(last)
    }

    /// Marks the current container as ending with a trailing comma.
    fn trailing(&mut self, trailing: bool) {
        if trailing {
            let p = self.ptr();
            self.gaps.entry(p).or_default().trailing_comma = true;
        }
    }

    fn close(&mut self, s: &mut Scan<'_>, empty: bool, depth: usize, close: u8) -> Result<()> {
        let g = s.gap();
        if empty {
            self.record(|g| &mut g.close, g, "");
        } else {
            self.record_line(|g| &mut g.close, g, depth);
        }
        s.expect(close)
    }
}

impl Style {
    /// A line break and the indentation of `depth` (nothing when compact).
    fn line(&self, depth: usize) -> String {
        if self.compact {
            return String::new();
        }
        let mut s = String::with_capacity(self.newline.len() + self.indent.len() * depth);
        s.push_str(&self.newline);
        for _ in 0..depth {
            s.push_str(&self.indent);
        }
        s
    }

    /// The layout of `data`, from which `doc` was parsed: compact when the text is on
    /// one line, else indented as its first indented line is (four spaces when none
    /// shows); `\r\n` when its first line ends so. Fails only when `doc` is not `data`'s
    /// document, or when the layout would not give `data` back (never expected: a
    /// failure is named rather than a file written differently).
    pub fn detect(data: &[u8], doc: &Document<'_>) -> Result<Style> {
        Self::detect_with(data, doc, true)
    }

    /// [`Style::detect`] without [`Style::texts`] (`with_texts` false): enough to tell
    /// whether a file is in O3DE's own layout ([`Style::is_plain`]), at less cost.
    pub fn detect_with(data: &[u8], doc: &Document<'_>, with_texts: bool) -> Result<Style> {
        let text = std::str::from_utf8(data)
            .map_err(|e| Error::msg_at(e.valid_up_to(), "invalid UTF-8 in JSON text"))?;
        let mut style = Style {
            newline: match memchr::memchr(b'\n', data) {
                Some(p) if p > 0 && data[p - 1] == b'\r' => "\r\n".to_owned(),
                _ => "\n".to_owned(),
            },
            final_newline: data.ends_with(b"\n"),
            ..Style::default()
        };
        let body = text.trim_end_matches(['\n', '\r']);
        style.compact = !body.contains('\n');
        if let Some(indent) = first_indent(text) {
            style.indent = indent;
        }
        let mut s = Scan { text, i: 0 };
        let mut d = Detect {
            style: &mut style,
            path: Vec::new(),
            gaps: HashMap::new(),
            texts: Vec::new(),
            with_texts,
        };
        let g = s.gap_with_bom();
        d.record(|g| &mut g.before, g, "");
        d.node(&mut s, &doc.root, 0)?;
        let tail = &text[s.i..];
        let want = if d.style.final_newline {
            d.style.newline.clone()
        } else {
            String::new()
        };
        let g = s.gap();
        if s.i != text.len() {
            return Err(Error::msg_at(s.i, "text after the JSON value"));
        }
        d.record(|g| &mut g.after, tail, &want);
        let _ = g;
        let (gaps, texts) = (d.gaps, d.texts);
        style.gaps = gaps.into_iter().filter(|(_, g)| !g.is_empty()).collect();
        // A repeated name's pointer is unique (`~N`), so no text is overwritten.
        style.texts = texts.into_iter().collect();
        // Checked as it is written (nothing built): the layout gives `data` back.
        let mut check = Same {
            data,
            at: 0,
            differs: false,
        };
        let _ = style.write_with(&doc.root, &mut check, false);
        if check.differs || check.at != data.len() {
            let at = check.at;
            return Err(Error::msg_at(
                at,
                "this file's layout could not be kept (it would be written differently \
                 here): please report it",
            ));
        }
        Ok(style)
    }

    /// True when the layout is O3DE's own (four spaces or one line, `\n`, no gaps
    /// kept), which the document written that way gives back ([`Style::texts`] only
    /// matters once another tool has rewritten the text).
    pub fn is_plain(&self) -> bool {
        self.gaps.is_empty() && self.newline == "\n" && (self.compact || self.indent == "    ")
    }

    /// Writes `doc` in this layout.
    pub fn write(&self, doc: &Document<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        // A Vec takes every write.
        let _ = self.write_to(&doc.root, &mut out);
        out
    }

    /// Writes the value `root` in this layout to `w` (as a whole file: the text before
    /// and after the root value and the final line ending included).
    pub fn write_to<W: std::io::Write + ?Sized>(
        &self,
        root: &Node<'_>,
        w: &mut W,
    ) -> std::io::Result<()> {
        self.write_with(root, w, true)
    }

    /// [`Style::write_to`]; without `texts` when `use_texts` is false (the document the
    /// style was detected from has those texts already).
    fn write_with<W: std::io::Write + ?Sized>(
        &self,
        root: &Node<'_>,
        w: &mut W,
        use_texts: bool,
    ) -> std::io::Result<()> {
        let use_texts = use_texts && !self.texts.is_empty();
        let mut wr = Writer {
            style: self,
            gaps: self.gaps.iter().map(|(k, g)| (k.as_str(), g)).collect(),
            texts: if use_texts {
                self.texts
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect()
            } else {
                HashMap::new()
            },
            ptr: String::new(),
            track: !self.gaps.is_empty() || use_texts,
            lines: Vec::new(),
            open_line_comment: false,
        };
        let g = self.gaps.get("");
        w.write_all(g.and_then(|g| g.before.as_deref()).unwrap_or("").as_bytes())?;
        wr.node(root, 0, w)?;
        match g.and_then(|g| g.after.as_deref()) {
            Some(t) => w.write_all(t.as_bytes()),
            None if self.final_newline => w.write_all(self.newline.as_bytes()),
            None => Ok(()),
        }
    }
}

impl Scan<'_> {
    /// The gap at the start of a file, a byte order mark included.
    fn gap_with_bom(&mut self) -> &str {
        let text = self.text;
        if text.starts_with('\u{feff}') {
            self.i = 3;
            self.gap();
            return &text[..self.i];
        }
        self.gap()
    }
}

/// The start of a gap that is white space and comments on the line it starts on,
/// when it holds a comment and a line ending follows (else nothing).
fn same_line_comment(g: &str) -> &str {
    let Some(nl) = g.find('\n') else {
        return "";
    };
    let line = g[..nl].trim_end_matches('\r');
    let body = line.trim();
    let comment = body.starts_with("//")
        || (body.starts_with("/*")
            && body.ends_with("*/")
            && body.len() >= 4
            && !body[2..body.len() - 2].contains("*/")
            && !body.contains("//"));
    if comment {
        line.trim_end_matches([' ', '\t'])
    } else {
        ""
    }
}

/// The indentation of the first line indented with one kind of white space (spaces or
/// tabs) inside the first bracket, when that line is at depth 1.
fn first_indent(text: &str) -> Option<String> {
    let open = text.find(['{', '['])?;
    let rest = &text[open + 1..];
    let nl = rest.find('\n')?;
    // Only white space and comments may come between the bracket and that line.
    let before = rest[..nl].trim();
    if !before.is_empty() && !before.starts_with("//") {
        return None;
    }
    let line = &rest[nl + 1..];
    let ws: &str = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let uniform =
        !ws.is_empty() && (ws.bytes().all(|c| c == b' ') || ws.bytes().all(|c| c == b'\t'));
    uniform.then(|| ws.to_owned())
}

/// Compares what is written with `data`, stopping at the first difference.
struct Same<'d> {
    data: &'d [u8],
    /// Bytes matched so far.
    at: usize,
    differs: bool,
}

impl std::io::Write for Same<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let end = self.at + buf.len();
        if self.differs || self.data.get(self.at..end) != Some(buf) {
            if !self.differs {
                let rest = &self.data[self.at.min(self.data.len())..];
                self.at += buf.iter().zip(rest).take_while(|(a, b)| a == b).count();
            }
            self.differs = true;
            return Err(std::io::Error::other("differs"));
        }
        self.at = end;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes a document with a [`Style`].
struct Writer<'s> {
    style: &'s Style,
    /// The style's gaps and texts by pointer, hashed for the many lookups.
    gaps: HashMap<&'s str, &'s Gaps>,
    texts: HashMap<&'s str, &'s str>,
    ptr: String,
    /// Pointers are followed (the style keeps gaps or texts).
    track: bool,
    /// Line breaks and indentation by depth, made once.
    lines: Vec<String>,
    /// A `//` comment was just written after the last value.
    open_line_comment: bool,
}

impl<'s> Writer<'s> {
    fn gaps(&self) -> Option<&'s Gaps> {
        if self.track && !self.gaps.is_empty() {
            self.gaps.get(self.ptr.as_str()).copied()
        } else {
            None
        }
    }

    fn text(&self) -> Option<&'s str> {
        if self.track && !self.texts.is_empty() {
            self.texts.get(self.ptr.as_str()).copied()
        } else {
            None
        }
    }

    fn line<W: std::io::Write + ?Sized>(&mut self, depth: usize, w: &mut W) -> std::io::Result<()> {
        while self.lines.len() <= depth {
            let l = self.style.line(self.lines.len());
            self.lines.push(l);
        }
        w.write_all(self.lines[depth].as_bytes())
    }

    fn gap<W: std::io::Write + ?Sized>(
        &mut self,
        pick: fn(&Gaps) -> Option<&String>,
        default: Option<usize>,
        w: &mut W,
    ) -> std::io::Result<()> {
        if let Some(t) = self.gaps().and_then(pick) {
            return w.write_all(t.as_bytes());
        }
        match default {
            Some(depth) => self.line(depth, w),
            None => Ok(()),
        }
    }

    fn node<W: std::io::Write + ?Sized>(
        &mut self,
        n: &Node<'_>,
        depth: usize,
        w: &mut W,
    ) -> std::io::Result<()> {
        match n {
            Node::Null => w.write_all(b"null"),
            Node::Bool(true) => w.write_all(b"true"),
            Node::Bool(false) => w.write_all(b"false"),
            Node::Number(t) => {
                let kept = self.text();
                match kept {
                    Some(k) if same_number(k, t) => w.write_all(k.as_bytes()),
                    _ => w.write_all(t.as_bytes()),
                }
            }
            Node::String(s) => {
                let kept = self.text();
                if let Some(k) = kept {
                    let raw = k.get(1..k.len().saturating_sub(1)).unwrap_or("");
                    if k.len() >= 2 && Str::from_raw(raw).value() == s.value() {
                        return w.write_all(k.as_bytes());
                    }
                }
                w.write_all(b"\"")?;
                w.write_all(s.raw().as_bytes())?;
                w.write_all(b"\"")
            }
            Node::Array(items) => {
                w.write_all(b"[")?;
                let trailing = self.gaps().is_some_and(|g| g.trailing_comma);
                let len = items.len();
                for (k, x) in items.iter().enumerate() {
                    let keep = self.ptr.len();
                    if self.track {
                        self.ptr.push('/');
                        let _ = write!(self.ptr, "{k}");
                    }
                    self.gap(|g| g.before.as_ref(), Some(depth + 1), w)?;
                    self.node(x, depth + 1, w)?;
                    self.gap(|g| g.after.as_ref(), None, w)?;
                    self.comma(k + 1 < len || trailing, w)?;
                    self.ptr.truncate(keep);
                }
                self.close(items.is_empty(), depth, b']', w)
            }
            Node::Object(members) => {
                w.write_all(b"{")?;
                let trailing = self.gaps().is_some_and(|g| g.trailing_comma);
                let mut seen = Seen::default();
                let len = members.len();
                for (k, (name, x)) in members.iter().enumerate() {
                    let keep = self.ptr.len();
                    if self.track {
                        let (v, nth) = seen.next(name.value());
                        push_token(&mut self.ptr, &v, nth);
                    }
                    self.gap(|g| g.before.as_ref(), Some(depth + 1), w)?;
                    w.write_all(b"\"")?;
                    w.write_all(name.raw().as_bytes())?;
                    w.write_all(b"\"")?;
                    self.gap(|g| g.name.as_ref(), None, w)?;
                    w.write_all(b":")?;
                    match self.gaps().and_then(|g| g.colon.as_ref()) {
                        Some(t) => w.write_all(t.as_bytes())?,
                        None if !self.style.compact => w.write_all(b" ")?,
                        None => {}
                    }
                    self.node(x, depth + 1, w)?;
                    self.gap(|g| g.after.as_ref(), None, w)?;
                    self.comma(k + 1 < len || trailing, w)?;
                    self.ptr.truncate(keep);
                }
                self.close(members.is_empty(), depth, b'}', w)
            }
        }
    }

    /// The comma after a value (when one follows) and the comment kept on its line;
    /// that comment stays after the value when it is now the last one.
    fn comma<W: std::io::Write + ?Sized>(&mut self, comma: bool, w: &mut W) -> std::io::Result<()> {
        if comma {
            w.write_all(b",")?;
        }
        if let Some(t) = self.gaps().and_then(|g| g.comma.as_ref()) {
            w.write_all(t.as_bytes())?;
            // A line comment now before a closing bracket needs its line ending.
            self.open_line_comment = !comma && t.contains("//");
        }
        Ok(())
    }

    fn close<W: std::io::Write + ?Sized>(
        &mut self,
        empty: bool,
        depth: usize,
        bracket: u8,
        w: &mut W,
    ) -> std::io::Result<()> {
        if std::mem::take(&mut self.open_line_comment) {
            let next = match self.gaps().and_then(|g| g.close.as_ref()) {
                Some(t) => t.starts_with(['\n', '\r']),
                None => !self.style.compact,
            };
            if !next {
                w.write_all(self.style.newline.as_bytes())?;
            }
        }
        self.gap(|g| g.close.as_ref(), (!empty).then_some(depth), w)?;
        w.write_all(&[bracket])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::{Syntax, MAX_DEPTH};

    fn round_trip(text: &str) -> Style {
        let doc = Document::parse_with(text.as_bytes(), MAX_DEPTH, Syntax::SETTINGS).unwrap();
        let style = Style::detect(text.as_bytes(), &doc).unwrap();
        assert_eq!(String::from_utf8(style.write(&doc)).unwrap(), text);
        // Through the header's JSON too.
        let json = serde_json::to_string(&style).unwrap();
        let back: Style = serde_json::from_str(&json).unwrap();
        assert_eq!(back, style);
        style
    }

    /// `text` parsed, its layout kept, `edited` (plain JSON) written with it.
    fn edit(text: &str, edited: &str) -> String {
        let doc = Document::parse_with(text.as_bytes(), MAX_DEPTH, Syntax::SETTINGS).unwrap();
        let style = Style::detect(text.as_bytes(), &doc).unwrap();
        let e = Document::parse(edited.as_bytes()).unwrap();
        String::from_utf8(style.write(&e)).unwrap()
    }

    #[test]
    fn o3de_layout_keeps_nothing() {
        let s = round_trip("{\n    \"a\": [\n        1,\n        {}\n    ],\n    \"b\": []\n}\n");
        assert!(s.is_plain(), "{s:?}");
        let s = round_trip("{\"a\":[1,{}],\"b\":[]}");
        assert!(s.is_plain() && s.compact && !s.final_newline, "{s:?}");
    }

    #[test]
    fn every_kind_of_text_comes_back() {
        for text in [
            "\u{feff}// head\r\n{\r\n  \"a\" : [ 1, 2, ], // c\r\n  /* b */ \"b\": {\"x\":1,},\r\n}\r\n\r\n",
            "{\n\t\"a\": 1,\n\t\"b\": {\n\t\t\"c\": \"\\/\\u00e9\",\n\t\t\"c\": 1.0000000\n\t}\n}",
            " 7 ",
            "{ }\n",
            "[\n  [\n  ],\n  {\n  }\n]\n",
            "{\"a~/b\": 1, \"a~/b\": 2,}",
        ] {
            let s = round_trip(text);
            assert!(!s.is_plain(), "{text:?}");
        }
        let s = round_trip("{\n\t\"a\": 1\n}");
        assert_eq!(s.indent, "\t");
        assert!(s.gaps.is_empty());
        let s = round_trip("{\r\n  \"a\": [\r\n    1\r\n  ]\r\n}\r\n");
        assert_eq!((s.indent.as_str(), s.newline.as_str()), ("  ", "\r\n"));
        assert!(s.gaps.is_empty() && s.final_newline);
    }

    #[test]
    fn an_edit_changes_only_what_was_edited() {
        let text = "{\r\n  // keep me\r\n  \"a\": 1.50, // and me\r\n  \"s\": \"\\/\",\r\n  \"gone\": 2, // gone too\r\n  \"l\": [ 1, 2, ],\r\n}\r\n";
        // jq writes 1.50 as 1.5 and "\/" as "/": both come back as written.
        let out = edit(
            text,
            r#"{"a": 1.5, "s": "/", "l": [1, 2, 3], "new": {"x": true}}"#,
        );
        assert_eq!(
            out,
            "{\r\n  // keep me\r\n  \"a\": 1.50, // and me\r\n  \"s\": \"\\/\",\r\n  \"l\": [ 1, 2,\r\n    3, ],\r\n  \"new\": {\r\n    \"x\": true\r\n  },\r\n}\r\n"
        );
        // A changed value is written as given.
        let out = edit(text, r#"{"a": 2.5, "s": "t", "gone": 2, "l": []}"#);
        assert!(out.contains("\"a\": 2.5, // and me"), "{out}");
        assert!(out.contains("\"s\": \"t\""), "{out}");
        assert!(out.contains("\"l\": [ ],\r\n}"), "{out}");
        assert!(out.contains("\"gone\": 2, // gone too"), "{out}");
    }

    #[test]
    fn repeated_names_in_small_and_large_objects() {
        for n in [3, 40] {
            let mut text = String::from("{");
            for i in 0..n {
                text.push_str(&format!("\"k{i}\": {i}, "));
            }
            text.push_str("\"k0\" :1.0000000}");
            let s = round_trip(&text);
            assert_eq!(s.gaps["/k0~2"].name.as_deref(), Some(" "), "{n}");
            assert_eq!(s.texts["/k0~2"], "1.0000000");
        }
    }

    #[test]
    fn stable_forms() {
        for t in ["0", "-12", "0.5", "-3.25", "123456789012345"] {
            assert!(number_is_stable(t), "{t}");
        }
        for t in [
            "1.0",
            "1.0000000",
            "-0",
            "1e5",
            "1E+2",
            "-3.9142520427703859",
            "18446744073709551615",
        ] {
            assert!(!number_is_stable(t), "{t}");
        }
        assert!(string_is_stable(r#"a\"b\\c\n"#));
        assert!(!string_is_stable(r"\/"));
        assert!(!string_is_stable(r"\u00e9"));
    }
}
