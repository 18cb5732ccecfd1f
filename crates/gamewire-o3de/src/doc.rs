//! An O3DE JSON file kept exactly as written, for the untyped (registry-free) path.
//!
//! O3DE reads its files with rapidjson, which keeps every member of an object in
//! document order (duplicates included) and each number as written until a serializer
//! converts it. [`Document::parse`] does the same: objects are lists of members,
//! numbers keep their source text (`1.0000000`, `-3.9142520427703859` and
//! `18446744073709551615` stay as they are), strings keep their escaped source text, and
//! nothing is copied: the tree borrows from the input bytes. `//` and `/* */` comments
//! are accepted as O3DE accepts them, and dropped; a trailing comma before `]` or `}`
//! only where O3DE accepts one ([`Syntax`]). [`crate::layout::Style`] keeps what the tree
//! drops (comments, trailing commas, white space) to write a file back byte for byte.
//!
//! [`Document::write`] writes the tree back: indented as O3DE's `PrettyWriter` writes
//! (four spaces, `"name": value`, `[]` and `{}` for empty containers), or compact. A
//! file O3DE saved comes back byte for byte; any other file comes back as the same
//! JSON document (same members in the same order, same number and string text), with
//! only white space and comments changed.

use gamewire_core::{Error, Result};
use std::borrow::Cow;

/// A JSON string as written between its quotes (escapes not yet decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Str<'a>(&'a str);

impl<'a> Str<'a> {
    /// Wraps the source text of a string (between the quotes). The text must already be
    /// valid JSON string content (as the parser checks).
    pub fn from_raw(raw: &'a str) -> Self {
        Str(raw)
    }

    /// The text as written, escapes included.
    pub fn raw(&self) -> &'a str {
        self.0
    }

    /// The string's value (escapes decoded; borrowed when there are none).
    pub fn value(&self) -> Cow<'a, str> {
        if !self.0.as_bytes().contains(&b'\\') {
            return Cow::Borrowed(self.0);
        }
        Cow::Owned(unescape(self.0))
    }

    /// True when the string's value is `s` (no allocation unless it has escapes).
    pub fn is(&self, s: &str) -> bool {
        if self.0.as_bytes().contains(&b'\\') {
            unescape(self.0) == s
        } else {
            self.0 == s
        }
    }
}

/// Decodes the escapes of checked string content.
fn unescape(raw: &str) -> String {
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < b.len() {
        let Some(p) = memchr::memchr(b'\\', &b[i..]) else {
            out.push_str(&raw[i..]);
            break;
        };
        out.push_str(&raw[i..i + p]);
        i += p + 1;
        let c = b[i];
        i += 1;
        match c {
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let hi = hex4(&b[i..i + 4]).unwrap_or(0xFFFD);
                i += 4;
                let cp = if (0xD800..0xDC00).contains(&hi) && b.get(i) == Some(&b'\\') {
                    let lo = hex4(&b[i + 2..i + 6]).unwrap_or(0);
                    i += 6;
                    0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                } else {
                    hi
                };
                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
            }
            other => out.push(other as char),
        }
    }
    out
}

fn hex4(b: &[u8]) -> Option<u32> {
    if b.len() < 4 {
        return None;
    }
    let mut v = 0u32;
    for &c in &b[..4] {
        v = v * 16 + (c as char).to_digit(16)?;
    }
    Some(v)
}

/// One member of an object: name and value.
pub type Member<'a> = (Str<'a>, Node<'a>);

/// A JSON value as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, its source text kept.
    Number(&'a str),
    /// A string, its escaped source text kept.
    String(Str<'a>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object: every member in document order, repeated names included.
    Object(Vec<Member<'a>>),
}

impl<'a> Node<'a> {
    /// The first member named `name` of an object (as rapidjson's `FindMember`).
    pub fn get(&self, name: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(m) => m.iter().find(|(k, _)| k.is(name)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The members of an object.
    pub fn members(&self) -> Option<&[Member<'a>]> {
        match self {
            Node::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn elements(&self) -> Option<&[Node<'a>]> {
        match self {
            Node::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A string's value.
    pub fn as_str(&self) -> Option<Cow<'a, str>> {
        match self {
            Node::String(s) => Some(s.value()),
            _ => None,
        }
    }

    /// The name of the JSON kind (`object`, `array`, `string`, `number`, `bool`, `null`).
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "bool",
            Node::Number(_) => "number",
            Node::String(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }

    /// The value as a `serde_json::Value` (for the typed loader): numbers read as
    /// `serde_json` reads them, and of repeated member names the last value kept at the
    /// first position, as `serde_json` keeps them.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Node::Null => J::Null,
            Node::Bool(b) => J::Bool(*b),
            // rapidjson reads a bare `-0` as the integer 0 (see `parse_json`).
            Node::Number("-0") => J::from(0),
            Node::Number(n) => serde_json::from_str(n).unwrap_or(J::Null),
            Node::String(s) => J::String(s.value().into_owned()),
            Node::Array(a) => J::Array(a.iter().map(Node::to_json).collect()),
            Node::Object(m) => {
                let mut map = serde_json::Map::with_capacity(m.len());
                for (k, v) in m {
                    map.insert(k.value().into_owned(), v.to_json());
                }
                J::Object(map)
            }
        }
    }
}

/// How [`Document::write`] lays the text out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// As O3DE's `PrettyWriter` writes: each member and element on its own line,
    /// indented by four spaces a level.
    Pretty,
    /// No white space at all.
    Compact,
}

/// A parsed O3DE JSON file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    /// The root value.
    pub root: Node<'a>,
    /// The text after the root value ended a line (written back as a final newline).
    pub final_newline: bool,
}

/// Deepest nesting [`Document::parse`] accepts.
pub const MAX_DEPTH: usize = 1024;

/// What a reader accepts beyond JSON, as the O3DE reader of that kind of file does.
///
/// Every O3DE reader accepts `//` and `/* */` comments (`kParseCommentsFlag`). Only the
/// settings registry (`SettingsRegistryImpl::MergeSettingsString`: `.setreg`,
/// `.setregpatch`, `project.json`, `gem.json`, `engine.json`, `o3de_manifest.json`)
/// also parses with `kParseTrailingCommasFlag`; assets (`AZ::JsonSerializationUtils::
/// ReadJsonString`: prefabs, materials, passes, `.azasset` ...) do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Syntax {
    /// A comma may follow the last member or element (`[1, 2,]`, `{"a": 1,}`).
    pub trailing_commas: bool,
}

impl Syntax {
    /// Comments only: how O3DE reads assets.
    pub const ASSET: Syntax = Syntax {
        trailing_commas: false,
    };
    /// Comments and trailing commas: how the settings registry reads its files.
    pub const SETTINGS: Syntax = Syntax {
        trailing_commas: true,
    };

    /// The syntax O3DE's reader of the file `name` holding `data` accepts
    /// ([`crate::recognize::recognize`]): trailing commas in settings registry files,
    /// patches and JSON O3DE does not recognise as an asset (`project.json`, `gem.json`
    /// are settings registry files), not in assets.
    pub fn of(data: &[u8], name: Option<&str>) -> Syntax {
        use crate::recognize::FileKind as K;
        match crate::recognize::recognize(data, name) {
            None | Some(K::Settings | K::SettingsPatch | K::JsonPatch | K::MergePatch) => {
                Syntax::SETTINGS
            }
            Some(_) => Syntax::ASSET,
        }
    }
}

impl<'a> Document<'a> {
    /// Parses `bytes` (UTF-8 JSON, comments allowed, a UTF-8 byte order mark skipped).
    /// Errors give the byte offset.
    pub fn parse(bytes: &'a [u8]) -> Result<Document<'a>> {
        Self::parse_with_depth(bytes, MAX_DEPTH)
    }

    /// [`Document::parse`] with a nesting limit.
    pub fn parse_with_depth(bytes: &'a [u8], max_depth: usize) -> Result<Document<'a>> {
        Self::parse_with(bytes, max_depth, Syntax::ASSET)
    }

    /// [`Document::parse`] with a nesting limit and the syntax of the file's reader
    /// (trailing commas accepted or not).
    pub fn parse_with(bytes: &'a [u8], max_depth: usize, syntax: Syntax) -> Result<Document<'a>> {
        let mut p = Parser::new(bytes, max_depth)?;
        p.trailing_commas = syntax.trailing_commas;
        let root = p.value()?;
        let final_newline = p.finish()?;
        Ok(Document {
            root,
            final_newline,
        })
    }

    /// Writes the document back as JSON text.
    pub fn write(&self, layout: Layout) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_into(layout, &mut out);
        out
    }

    /// [`Document::write`] appending to `out`.
    pub fn write_into(&self, layout: Layout, out: &mut Vec<u8>) {
        // A Vec takes every write.
        let _ = self.write_to(layout, out);
    }

    /// [`Document::write`] streamed to `w` (nothing built in memory: pretty text can be
    /// far larger than the input, as each line is indented by its depth).
    pub fn write_to<W: std::io::Write + ?Sized>(
        &self,
        layout: Layout,
        w: &mut W,
    ) -> std::io::Result<()> {
        write_node_to(&self.root, layout, 0, w)?;
        if self.final_newline {
            w.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// Writes one value (`level` is its nesting depth, for the indentation).
pub fn write_node(n: &Node<'_>, layout: Layout, level: usize, out: &mut Vec<u8>) {
    // A Vec takes every write.
    let _ = write_node_to(n, layout, level, out);
}

/// [`write_node`] to any writer.
pub fn write_node_to<W: std::io::Write + ?Sized>(
    n: &Node<'_>,
    layout: Layout,
    level: usize,
    out: &mut W,
) -> std::io::Result<()> {
    match n {
        Node::Null => out.write_all(b"null"),
        Node::Bool(true) => out.write_all(b"true"),
        Node::Bool(false) => out.write_all(b"false"),
        Node::Number(t) => out.write_all(t.as_bytes()),
        Node::String(s) => write_str(s, out),
        Node::Array(a) => {
            out.write_all(b"[")?;
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                newline(layout, level + 1, out)?;
                write_node_to(x, layout, level + 1, out)?;
            }
            if !a.is_empty() {
                newline(layout, level, out)?;
            }
            out.write_all(b"]")
        }
        Node::Object(m) => {
            out.write_all(b"{")?;
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                newline(layout, level + 1, out)?;
                write_str(k, out)?;
                out.write_all(if layout == Layout::Pretty {
                    b": "
                } else {
                    b":"
                })?;
                write_node_to(x, layout, level + 1, out)?;
            }
            if !m.is_empty() {
                newline(layout, level, out)?;
            }
            out.write_all(b"}")
        }
    }
}

fn write_str<W: std::io::Write + ?Sized>(s: &Str<'_>, out: &mut W) -> std::io::Result<()> {
    out.write_all(b"\"")?;
    out.write_all(s.raw().as_bytes())?;
    out.write_all(b"\"")
}

fn newline<W: std::io::Write + ?Sized>(
    layout: Layout,
    level: usize,
    out: &mut W,
) -> std::io::Result<()> {
    const SPACES: [u8; 256] = [b' '; 256];
    if layout == Layout::Pretty {
        out.write_all(b"\n")?;
        let mut n = 4 * level;
        while n > 0 {
            let k = n.min(SPACES.len());
            out.write_all(&SPACES[..k])?;
            n -= k;
        }
    }
    Ok(())
}

/// The parser behind [`Document::parse`], also driven member by member by readers that
/// keep only part of a file ([`crate::prefab::PrefabTree::parse`]).
pub(crate) struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
    max_depth: usize,
    /// A comma may come before a closing bracket.
    trailing_commas: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `bytes` (UTF-8 checked, a byte order mark skipped,
    /// leading white space and comments skipped). Fails on invalid UTF-8 and on text
    /// with no value.
    pub(crate) fn new(bytes: &'a [u8], max_depth: usize) -> Result<Parser<'a>> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::msg_at(e.valid_up_to(), "invalid UTF-8 in JSON text"))?;
        let mut p = Parser {
            text,
            b: bytes,
            i: 0,
            depth: 0,
            max_depth,
            trailing_commas: false,
        };
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            p.i = 3;
        }
        p.skip_ws()?;
        if p.i >= bytes.len() {
            return Err(Error::msg_at(p.i, "empty JSON text: expected a value"));
        }
        Ok(p)
    }

    /// Checks that only white space and comments follow the value; returns whether a
    /// newline ended it.
    pub(crate) fn finish(mut self) -> Result<bool> {
        let end = self.i;
        self.skip_ws()?;
        if self.i < self.b.len() {
            return Err(Error::msg_at(
                self.i,
                "unexpected text after the JSON value (one value per file)",
            ));
        }
        Ok(self.b[end..].contains(&b'\n'))
    }

    /// Reads a whole value at the cursor as a tree.
    pub(crate) fn node(&mut self) -> Result<Node<'a>> {
        self.value()
    }

    /// Skips white space and comments.
    fn skip_ws(&mut self) -> Result<()> {
        let b = self.b;
        loop {
            match b.get(self.i) {
                // Indentation: runs of spaces, taken eight at a time.
                Some(b' ') => {
                    let mut j = self.i + 1;
                    while b.get(j..j + 8) == Some(b"        ") {
                        j += 8;
                    }
                    while b.get(j) == Some(&b' ') {
                        j += 1;
                    }
                    self.i = j;
                }
                Some(b'\n' | b'\r' | b'\t') => self.i += 1,
                Some(b'/') => match b.get(self.i + 1) {
                    Some(b'/') => {
                        self.i = memchr::memchr(b'\n', &b[self.i..]).map_or(b.len(), |n| self.i + n)
                    }
                    Some(b'*') => match memchr::memmem::find(&b[self.i + 2..], b"*/") {
                        Some(n) => self.i += 2 + n + 2,
                        None => return Err(Error::msg_at(self.i, "unterminated /* comment")),
                    },
                    _ => return Err(Error::msg_at(self.i, "unexpected '/'")),
                },
                _ => return Ok(()),
            }
        }
    }

    fn expected(&self, what: &str) -> Error {
        match self.b.get(self.i) {
            None => Error::msg_at(
                self.i,
                format!(
                    "unexpected end of JSON text: expected {what}{}",
                    self.line_column()
                ),
            ),
            Some(&c) => Error::msg_at(
                self.i,
                format!(
                    "expected {what}, found {:?}{}",
                    self.text[self.i..].chars().next().unwrap_or(c as char),
                    self.line_column()
                ),
            ),
        }
    }

    /// " at line L column C" of the cursor (both 1-based, the column in characters),
    /// counted only when an error needs it.
    fn line_column(&self) -> String {
        let before = &self.b[..self.i.min(self.b.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |n| n + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        format!(" at line {line} column {column}")
    }

    fn value(&mut self) -> Result<Node<'a>> {
        match self.b.get(self.i) {
            Some(b'{') => {
                let mut members = Vec::new();
                self.object_with(|p, name| {
                    members.push((name, p.value()?));
                    Ok(())
                })?;
                Ok(Node::Object(members))
            }
            Some(b'[') => {
                let mut items = Vec::new();
                self.array_with(|p| {
                    items.push(p.value()?);
                    Ok(())
                })?;
                Ok(Node::Array(items))
            }
            Some(b'"') => Ok(Node::String(self.string()?)),
            Some(b't') => self.word(b"true", Node::Bool(true)),
            Some(b'f') => self.word(b"false", Node::Bool(false)),
            Some(b'n') => self.word(b"null", Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.expected("a value")),
        }
    }

    /// Checks one value and moves past it without building anything.
    pub(crate) fn skip(&mut self) -> Result<()> {
        match self.b.get(self.i) {
            Some(b'{') => self.object_with(|p, _| p.skip()),
            Some(b'[') => self.array_with(|p| p.skip()),
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.word(b"true", Node::Null).map(drop),
            Some(b'f') => self.word(b"false", Node::Null).map(drop),
            Some(b'n') => self.word(b"null", Node::Null).map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            _ => Err(self.expected("a value")),
        }
    }

    /// True when the cursor is on the opening brace of an object.
    pub(crate) fn at_object(&self) -> bool {
        self.b.get(self.i) == Some(&b'{')
    }

    /// True when the cursor is on the opening bracket of an array.
    pub(crate) fn at_array(&self) -> bool {
        self.b.get(self.i) == Some(&b'[')
    }

    fn word(&mut self, w: &[u8], n: Node<'a>) -> Result<Node<'a>> {
        if self.b[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(n)
        } else {
            Err(self.expected("a value"))
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Error::msg_at(
                self.i,
                format!(
                    "JSON nested deeper than {} levels{}",
                    self.max_depth,
                    self.line_column()
                ),
            ));
        }
        Ok(())
    }

    /// Reads the array at the cursor, calling `item` on each element (which must
    /// consume it).
    pub(crate) fn array_with(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.enter()?;
        self.i += 1;
        self.skip_ws()?;
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            item(self)?;
            self.skip_ws()?;
            match self.b.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.skip_ws()?;
                    if self.trailing_comma(b']', comma)? {
                        break;
                    }
                }
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.expected("',' or ']'")),
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads the object at the cursor, calling `member` with each name and the cursor
    /// on its value (which `member` must consume).
    pub(crate) fn object_with(
        &mut self,
        mut member: impl FnMut(&mut Self, Str<'a>) -> Result<()>,
    ) -> Result<()> {
        self.enter()?;
        self.i += 1;
        self.skip_ws()?;
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            if self.b.get(self.i) != Some(&b'"') {
                return Err(self.expected("a member name in quotes"));
            }
            let name = self.string()?;
            self.skip_ws()?;
            if self.b.get(self.i) != Some(&b':') {
                return Err(self.expected("':'"));
            }
            self.i += 1;
            self.skip_ws()?;
            member(self, name)?;
            self.skip_ws()?;
            match self.b.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.skip_ws()?;
                    if self.trailing_comma(b'}', comma)? {
                        break;
                    }
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.expected("',' or '}'")),
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// After a comma: true (the bracket consumed) when `close` follows and trailing
    /// commas are accepted; an error naming the comma when they are not.
    fn trailing_comma(&mut self, close: u8, comma: usize) -> Result<bool> {
        if self.b.get(self.i) != Some(&close) {
            return Ok(false);
        }
        if self.trailing_commas {
            self.i += 1;
            return Ok(true);
        }
        let at = self.line_column();
        Err(Error::msg_at(
            comma,
            format!(
                "a trailing comma before '{}'{at}: O3DE accepts these only in settings \
                 registry files (.setreg, .setregpatch), not in assets",
                close as char
            ),
        ))
    }

    /// A string starting at the opening quote; checks escapes and control characters.
    pub(crate) fn string(&mut self) -> Result<Str<'a>> {
        let b = self.b;
        let start = self.i + 1;
        let mut j = start;
        loop {
            let Some(p) = memchr::memchr2(b'"', b'\\', &b[j..]) else {
                return Err(Error::msg_at(self.i, "unterminated string"));
            };
            if let Some(c) = b[j..j + p].iter().position(|&c| c < 0x20) {
                return Err(Error::msg_at(
                    j + c,
                    "control character in a string (must be escaped)",
                ));
            }
            j += p;
            if b[j] == b'"' {
                self.i = j + 1;
                return Ok(Str(&self.text[start..j]));
            }
            j = self.escape(j)?;
        }
    }

    /// Checks the escape at `at` (a backslash); returns the offset after it.
    fn escape(&self, at: usize) -> Result<usize> {
        let b = self.b;
        match b.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let cp = b
                    .get(at + 2..at + 6)
                    .and_then(hex4)
                    .ok_or_else(|| Error::msg_at(at, "bad \\u escape: expected four hex digits"))?;
                if (0xDC00..0xE000).contains(&cp) {
                    return Err(Error::msg_at(at, "lone low surrogate in a \\u escape"));
                }
                if (0xD800..0xDC00).contains(&cp) {
                    let lo = if b.get(at + 6..at + 8) == Some(b"\\u") {
                        b.get(at + 8..at + 12).and_then(hex4)
                    } else {
                        None
                    };
                    match lo {
                        Some(lo) if (0xDC00..0xE000).contains(&lo) => return Ok(at + 12),
                        _ => {
                            return Err(Error::msg_at(
                                at,
                                "high surrogate not followed by a low surrogate",
                            ))
                        }
                    }
                }
                Ok(at + 6)
            }
            _ => Err(Error::msg_at(at, "invalid escape in a string")),
        }
    }

    fn number(&mut self) -> Result<Node<'a>> {
        let b = self.b;
        let start = self.i;
        let mut j = start;
        if b[j] == b'-' {
            j += 1;
        }
        let digits = |j: usize| b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
        match b.get(j) {
            Some(b'0') => j += 1,
            Some(b'1'..=b'9') => j += digits(j),
            _ => return Err(Error::msg_at(j, "invalid number: expected a digit")),
        }
        if b.get(j) == Some(&b'.') {
            let n = digits(j + 1);
            if n == 0 {
                return Err(Error::msg_at(
                    j + 1,
                    "invalid number: expected a digit after '.'",
                ));
            }
            j += 1 + n;
        }
        if matches!(b.get(j), Some(b'e' | b'E')) {
            j += 1;
            if matches!(b.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let n = digits(j);
            if n == 0 {
                return Err(Error::msg_at(j, "invalid number: expected an exponent"));
            }
            j += n;
        }
        self.i = j;
        Ok(Node::Number(&self.text[start..j]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_numbers_strings_order_and_duplicates() {
        let text = "{\n    \"b\": 1.0000000,\n    \"a\": -3.9142520427703859,\n    \"a\": 18446744073709551616,\n    \"s\": \"\\u00e9\\n\\/\",\n    \"e\": [],\n    \"o\": {},\n    \"l\": [\n        true,\n        false,\n        null,\n        -0,\n        1E+2\n    ]\n}";
        let doc = Document::parse(text.as_bytes()).unwrap();
        assert_eq!(doc.write(Layout::Pretty), text.as_bytes());
        assert!(!doc.final_newline);
        let m = doc.root.members().unwrap();
        assert_eq!(m.len(), 7);
        assert_eq!(
            doc.root.get("a"),
            Some(&Node::Number("-3.9142520427703859"))
        );
        assert_eq!(doc.root.get("s").unwrap().as_str().unwrap(), "é\n/");
        assert_eq!(
            doc.write(Layout::Compact),
            br#"{"b":1.0000000,"a":-3.9142520427703859,"a":18446744073709551616,"s":"\u00e9\n\/","e":[],"o":{},"l":[true,false,null,-0,1E+2]}"#
        );
        // The compact text reads back to the same document.
        let again = doc.write(Layout::Compact);
        assert_eq!(Document::parse(&again).unwrap().root, doc.root);
    }

    #[test]
    fn comments_bom_and_final_newline() {
        let doc =
            Document::parse(b"\xEF\xBB\xBF// head\n{\"a\": /* x */ [1, 2] // y\n}\n").unwrap();
        assert!(doc.final_newline);
        assert_eq!(doc.write(Layout::Compact), b"{\"a\":[1,2]}\n");
    }

    #[test]
    fn errors_name_the_offset() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 0, "empty"),
            (b"{\"a\" 1}", 5, "expected ':'"),
            (b"[1,]", 2, "trailing comma before ']' at line 1 column 4"),
            (
                b"{\"a\": 1, /* , */ }",
                7,
                "only in settings registry files",
            ),
            (b"[01]", 2, "expected ',' or ']'"),
            (b"[1.]", 3, "after '.'"),
            (b"[1e]", 3, "exponent"),
            (b"[\"a\x01\"]", 3, "control character"),
            (b"[\"\\x\"]", 2, "invalid escape"),
            (b"[\"\\ud800\"]", 2, "high surrogate"),
            (b"[\"\\udc00\"]", 2, "low surrogate"),
            (b"[\"abc", 1, "unterminated string"),
            (b"{} x", 3, "after the JSON value"),
            (b"[1] /* x", 4, "unterminated"),
            (b"[\xff]", 1, "UTF-8"),
            (b"{1: 2}", 1, "member name"),
            (b"[nul]", 1, "expected a value"),
        ];
        for (text, off, msg) in cases {
            let e = Document::parse(text).unwrap_err();
            assert_eq!(
                e.offset(),
                Some(*off),
                "{:?}: {e}",
                String::from_utf8_lossy(text)
            );
            assert!(
                e.to_string().contains(msg),
                "{:?}: {e}",
                String::from_utf8_lossy(text)
            );
        }
        assert!(Document::parse(b"[\"\\ud83d\\ude00\"]").is_ok());
    }

    #[test]
    fn trailing_commas_where_o3de_reads_them() {
        let text = b"{\"a\": [1, 2, ], \"b\": {\"c\": 3,}, // x\n}";
        let doc = Document::parse_with(text, MAX_DEPTH, Syntax::SETTINGS).unwrap();
        assert_eq!(doc.write(Layout::Compact), br#"{"a":[1,2],"b":{"c":3}}"#);
        assert!(Document::parse(text).is_err());
        // Only one comma, and never in an empty container or before the first value.
        for bad in [&b"[1,,]"[..], b"[,]", b"{,}", b"[1 2,]"] {
            assert!(Document::parse_with(bad, MAX_DEPTH, Syntax::SETTINGS).is_err());
        }
        assert_eq!(Syntax::of(b"{}", Some("a.setreg")), Syntax::SETTINGS);
        assert_eq!(Syntax::of(b"{}", Some("project.json")), Syntax::SETTINGS);
        assert_eq!(Syntax::of(b"{}", Some("a.pass")), Syntax::ASSET);
        assert_eq!(Syntax::of(b"{}", Some("a.prefab")), Syntax::ASSET);
    }

    #[test]
    fn depth_is_limited() {
        let deep = format!("{}{}", "[".repeat(50), "]".repeat(50));
        assert!(Document::parse_with_depth(deep.as_bytes(), 50).is_ok());
        let e = Document::parse_with_depth(deep.as_bytes(), 49).unwrap_err();
        assert!(e.to_string().contains("deeper than 49"), "{e}");
        // The default limit, in objects and arrays, fits a test thread's stack, and the
        // prefab reader (which skips values) takes the same limit.
        let deep = format!("{}{}", "{\"a\": [".repeat(512), "]}".repeat(512));
        let doc = Document::parse(deep.as_bytes()).unwrap();
        assert_eq!(Document::parse(&doc.write(Layout::Pretty)).unwrap(), doc);
        let _ = crate::infer::summarize(&doc.root);
        let skipped = format!("{{\"Entities\": {{}}, \"x\": {deep}}}");
        let e = crate::prefab::PrefabTree::parse(skipped.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("deeper than 1024"), "{e}");
        let deeper = format!("[{deep}]");
        let e = Document::parse(deeper.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("deeper than 1024"), "{e}");
        // The limit names the line and column of the first bracket past it.
        let text = format!("{{\n  \"k\": {}", "[".repeat(2000));
        let e = Document::parse(text.as_bytes()).unwrap_err();
        assert_eq!(e.offset(), Some(2 + 7 + 1023), "{e}");
        assert!(e.to_string().contains("at line 2 column 1031"), "{e}");
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let e = Document::parse("{\n  \"é\": [1, 2,, 3]\n}".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("at line 2 column 14"), "{e}");
        let e = Document::parse(b"[1,\n").unwrap_err();
        assert!(e.to_string().contains("at line 2 column 1"), "{e}");
    }

    #[test]
    fn values_and_conversion() {
        let doc = Document::parse(br#"{"k\u0041": "\ud83d\ude00", "n": 5, "k\u0041": 2}"#).unwrap();
        assert_eq!(
            doc.root.get("kA").unwrap(),
            &Node::String(Str::from_raw("\\ud83d\\ude00"))
        );
        assert_eq!(doc.root.get("kA").unwrap().as_str().unwrap(), "😀");
        assert_eq!(doc.root.to_json(), serde_json::json!({"kA": 2, "n": 5}));
    }
}
