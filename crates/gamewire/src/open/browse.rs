//! Big files looked at without being decoded: [`Browse`] keeps an opened file's bytes
//! and the index of its borrowed view (Godot's tape, one per `store_var` frame;
//! Resonite's checked BSON), and answers with the file's JSON (the very JSON
//! [`Opened::write_json`] writes) a level at a time: one page of children at a JSON
//! Pointer, one value, search, and where a value's bytes are ([`Span`]).
//!
//! [`span`] gives the bytes of a value for every file the view reads, opened lazily or
//! not, and for the files whose values [`super::spans::Spans`] finds in their bytes
//! (O3DE, Zeze beans and frames, KingsIsle blobs, `BINd` and XML files); other formats
//! (Godot text, bytes and project.binary) have none.

use super::{Opened, Settings};
pub use gamewire_core::lazy_json::SearchFrom;
use gamewire_core::lazy_json::{self, Hit, Key, LazyJson, Node, Shape, Summary};
use serde_json::Value as Json;
use std::ops::Range;

/// An opened file and the index of its view. See the module docs.
pub struct Browse {
    pub(super) opened: Opened,
    pub(super) index: Index,
    /// True once an edit changed the bytes ([`Browse::edit`]).
    pub(super) edited: bool,
}

impl std::fmt::Debug for Browse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browse")
            .field("opened", &self.opened)
            .field("edited", &self.edited)
            .finish()
    }
}

/// The index of a file's view.
pub(super) enum Index {
    /// Godot: one tape per value (a bare file has one, starting at 0).
    #[cfg(feature = "godot")]
    Godot {
        frames: Vec<(Range<usize>, gamewire_godot::tape::TapeIndex)>,
        framed: bool,
    },
    /// Resonite: the checked BSON (decompressed, or copied from the file).
    #[cfg(feature = "resonite")]
    Resonite(gamewire_resonite::bson_view::FileView<'static>),
}

/// A node of a file's JSON, read from its view.
#[derive(Clone)]
enum Lazy<'t, 'a> {
    /// The list of a `store_var` file's frames.
    #[cfg(feature = "godot")]
    Frames(&'t [(usize, gamewire_godot::tape::Tape<'a>)]),
    /// A Godot value (offsets in its frame, which starts at the `usize`).
    #[cfg(feature = "godot")]
    Godot(gamewire_godot::json_tape::Node<'t, 'a>, usize),
    /// A Resonite value.
    #[cfg(feature = "resonite")]
    Resonite(gamewire_resonite::json_lazy::Node<'a>),
    #[allow(dead_code)]
    None(std::marker::PhantomData<(&'t (), &'a ())>),
}

impl LazyJson for Lazy<'_, '_> {
    fn shape(&self) -> Shape {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Frames(f) => Shape::Array(f.len()),
            #[cfg(feature = "godot")]
            Lazy::Godot(n, _) => n.shape(),
            #[cfg(feature = "resonite")]
            Lazy::Resonite(n) => n.shape(),
            Lazy::None(_) => Shape::Json(Json::Null),
        }
    }

    fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Self)> {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Frames(f) => f
                .iter()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, (at, t))| {
                    (
                        Key::Index(i),
                        Lazy::Godot(gamewire_godot::json_tape::root(t), *at),
                    )
                })
                .collect(),
            #[cfg(feature = "godot")]
            Lazy::Godot(n, at) => n
                .children(offset, limit)
                .into_iter()
                .map(|(k, c)| (k, Lazy::Godot(c, *at)))
                .collect(),
            #[cfg(feature = "resonite")]
            Lazy::Resonite(n) => n
                .children(offset, limit)
                .into_iter()
                .map(|(k, c)| (k, Lazy::Resonite(c)))
                .collect(),
            Lazy::None(_) => Vec::new(),
        }
    }

    fn get(&self, tok: &str) -> Option<Self> {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Frames(_) => {
                let i = lazy_json::index_token(tok)?;
                self.children(i, 1).pop().map(|(_, c)| c)
            }
            #[cfg(feature = "godot")]
            Lazy::Godot(n, at) => n.get(tok).map(|c| Lazy::Godot(c, *at)),
            #[cfg(feature = "resonite")]
            Lazy::Resonite(n) => n.get(tok).map(Lazy::Resonite),
            Lazy::None(_) => None,
        }
    }

    fn span(&self) -> Option<Range<usize>> {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Frames(f) => {
                let start = f.first().map_or(0, |(at, _)| at - 4);
                let end = f.last().map_or(0, |(at, t)| at + t.input().len());
                Some(start..end)
            }
            #[cfg(feature = "godot")]
            Lazy::Godot(n, at) => n.span().map(|r| r.start + at..r.end + at),
            #[cfg(feature = "resonite")]
            Lazy::Resonite(n) => n.span(),
            Lazy::None(_) => None,
        }
    }

    fn to_json(&self) -> Json {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Frames(_) => Json::Array(
                self.children(0, usize::MAX)
                    .into_iter()
                    .map(|(_, c)| c.to_json())
                    .collect(),
            ),
            #[cfg(feature = "godot")]
            Lazy::Godot(n, _) => n.to_json(),
            #[cfg(feature = "resonite")]
            Lazy::Resonite(n) => n.to_json(),
            Lazy::None(_) => Json::Null,
        }
    }

    fn tag(&self) -> Option<String> {
        match self {
            #[cfg(feature = "godot")]
            Lazy::Godot(n, _) => n.tag(),
            _ => None,
        }
    }
}

/// One page of a value's children.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The value itself (its key left as index 0).
    pub value: Summary,
    /// The children listed, from the offset asked for.
    pub children: Vec<Summary>,
    /// True when the format's view holds the value whole (a scalar, a tagged value
    /// such as a Resonite int64's `{"$numberLong": ..}` or a Godot vector, a packed
    /// array, or a part of one: [`lazy_json::Node::is_whole`]); a front end checking an
    /// edit against the value reads such a value whole ([`Browse::value`]), and no
    /// other.
    pub whole: bool,
}

/// Where a value's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The first byte.
    pub offset: usize,
    /// The number of bytes.
    pub length: usize,
    /// False when the value is a part of a value read whole (a component of a vector,
    /// an element of a packed array): the span is that value's.
    pub own: bool,
    /// True when the offsets are in the file's decompressed or decrypted data, not in
    /// the file as stored.
    pub unpacked: bool,
    /// What the offsets count in, for people: `"the file"`, `"the decompressed BSON
    /// (the file is lz4-compressed)"`.
    pub space: String,
    /// For a bit-packed format (KingsIsle): where in the bytes the value's bits are.
    pub bits: Option<Bits>,
    /// For a text format (O3DE JSON, KingsIsle XML): the line and column of the first
    /// byte.
    pub line: Option<LineColumn>,
}

/// Where a byte is on the page of a text file ([`Span::line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineColumn {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl LineColumn {
    /// The line and column of byte `at` of the UTF-8 text `text`.
    pub fn of(text: &[u8], at: usize) -> LineColumn {
        let before = &text[..at.min(text.len())];
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        LineColumn {
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            // Counting the bytes that start a character.
            column: 1 + before[start..]
                .iter()
                .filter(|&&b| (b & 0xC0) != 0x80)
                .count(),
        }
    }
}

/// Where a value's bits are in its bytes ([`Span::bits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bits {
    /// The first bit within the first byte (0 = its least significant bit).
    pub first: u8,
    /// The number of bits.
    pub count: u64,
}

impl Browse {
    /// Indexes an opened file's view; the file is given back when its format (or
    /// layout) has no view here or its bytes do not read (its error is then the
    /// eager path's to give).
    pub fn new(opened: Opened) -> std::result::Result<Browse, Box<Opened>> {
        match index(&opened) {
            Some(index) => Ok(Browse {
                opened,
                index,
                edited: false,
            }),
            None => Err(Box::new(opened)),
        }
    }

    /// The file opened.
    pub fn opened(&self) -> &Opened {
        &self.opened
    }

    /// The file opened, the index dropped.
    pub fn into_opened(self) -> Opened {
        self.opened
    }

    /// Runs `f` on the root of the file's JSON. Godot's tapes are read from the kept
    /// indexes in constant time each (their bytes are not hashed again: the index was
    /// made from them here). Errors: a Godot tape index that is not of the bytes it is
    /// read with (never, since the file's bytes are kept unchanged).
    fn with_root<R>(
        &self,
        f: impl FnOnce(Node<Lazy<'_, '_>>) -> std::result::Result<R, String>,
    ) -> std::result::Result<R, String> {
        match &self.index {
            #[cfg(not(any(feature = "godot", feature = "resonite")))]
            _ => Err("files are indexed only with the godot or resonite feature".into()),
            #[cfg(feature = "godot")]
            Index::Godot { frames, framed } => {
                let data = self.opened.data();
                let mut tapes: Vec<(usize, gamewire_godot::tape::Tape<'_>)> =
                    Vec::with_capacity(frames.len());
                for (r, ix) in frames {
                    // The index was made from these bytes, which a `Browse` never
                    // changes (an edit makes a new one): no pass over them per call.
                    let tape = ix
                        .tape_of_own(&data[r.clone()])
                        .map_err(|e| format!("the file's view: {e}"))?;
                    tapes.push((r.start, tape));
                }
                if *framed {
                    f(Node::of(Lazy::Frames(&tapes)))
                } else {
                    f(Node::of(Lazy::Godot(
                        gamewire_godot::json_tape::root(&tapes[0].1),
                        0,
                    )))
                }
            }
            #[cfg(feature = "resonite")]
            Index::Resonite(view) => f(Node::of(Lazy::Resonite(
                gamewire_resonite::json_lazy::root(view.root()),
            ))),
        }
    }

    /// The value at `pointer` (of the file's JSON) and up to `limit` of its children
    /// from `offset`.
    pub fn listing(
        &self,
        pointer: &str,
        offset: usize,
        limit: usize,
    ) -> std::result::Result<Listing, String> {
        self.with_root(|root| {
            let node = root.at(pointer)?;
            let children = node
                .children(offset, limit)
                .into_iter()
                .map(|(k, c)| Summary {
                    key: k,
                    ..c.summary()
                })
                .collect();
            Ok(Listing {
                value: node.summary(),
                children,
                whole: node.is_whole(),
            })
        })
    }

    /// The JSON of the value at `pointer`.
    pub fn value(&self, pointer: &str) -> std::result::Result<Json, String> {
        self.with_root(|root| Ok(root.at(pointer)?.to_json()))
    }

    /// Pointers whose key or scalar value contains `q` (ignoring case), in document
    /// order, at most `limit`; and whether more were left. None when the view cannot be
    /// read (never: the bytes it indexes are kept unchanged with it, see
    /// [`Browse::with_root`]).
    pub fn search(&self, q: &str, limit: usize) -> (Vec<Hit>, bool) {
        let (hits, next) = self.search_from(q, limit, None);
        (hits, next.is_some())
    }

    /// [`Browse::search`] a page at a time: at most `limit` hits from where an earlier
    /// page of the same search of this `Browse` stopped (`from`; `None`: from the
    /// start), and where this page stopped (`None`: no hit left). Reading on from a
    /// position walks only what lies after it ([`lazy_json::Node::search_from`]).
    pub fn search_from(
        &self,
        q: &str,
        limit: usize,
        from: Option<&SearchFrom>,
    ) -> (Vec<Hit>, Option<SearchFrom>) {
        let q = q.to_lowercase();
        self.with_root(|root| Ok(root.search_from("", &q, limit, from)))
            .unwrap_or_default()
    }

    /// Where the bytes of the value at `pointer` are.
    pub fn span(&self, pointer: &str) -> std::result::Result<Option<Span>, String> {
        let found = self.with_root(|root| Ok(root.at(pointer)?.span()))?;
        Ok(found.map(|(r, own)| self.place(r, own)))
    }

    /// A span in the view's data as the reader sees it.
    fn place(&self, r: Range<usize>, own: bool) -> Span {
        let (shift, unpacked, space) = self.space();
        Span {
            offset: r.start + shift,
            length: r.len(),
            own,
            unpacked,
            space,
            bits: None,
            line: None,
        }
    }

    /// What offsets count in: the shift to the file, whether they are in unpacked
    /// data, and a description.
    fn space(&self) -> (usize, bool, String) {
        match (&self.index, self.opened.settings()) {
            #[cfg(feature = "godot")]
            (Index::Godot { .. }, Settings::Godot3(g) | Settings::Godot4(g)) => {
                match &g.container {
                    Some(c) => (
                        0,
                        true,
                        format!(
                            "the data inside the container (the file is {})",
                            c.describe()
                        ),
                    ),
                    None => (0, false, "the file".into()),
                }
            }
            #[cfg(feature = "resonite")]
            (Index::Resonite(view), Settings::Resonite(r)) => match view.stored_at() {
                Some(at) => (at, false, "the file".into()),
                None => (
                    0,
                    true,
                    format!(
                        "the decompressed BSON (the file is {}-compressed)",
                        r.compression
                    ),
                ),
            },
            _ => (0, false, "the file".into()),
        }
    }

    /// The bytes offsets count in ([`Span::unpacked`]: the decompressed or decrypted
    /// data), from `offset`, at most `length`.
    pub fn bytes(&self, offset: usize, length: usize) -> &[u8] {
        let (data, offset): (&[u8], usize) = match &self.index {
            // The BSON as it is now (edits change it, not the file's bytes read).
            #[cfg(feature = "resonite")]
            Index::Resonite(view) => match view.stored_at() {
                Some(at) if offset < at => (self.opened.data(), offset),
                Some(at) => (view.bson(), offset - at),
                None => (view.bson(), offset),
            },
            #[allow(unreachable_patterns)]
            _ => (self.opened.data(), offset),
        };
        let start = offset.min(data.len());
        &data[start..start.saturating_add(length).min(data.len())]
    }
}

/// A difference between two files' JSON ([`Browse::diff`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Where.
    pub pointer: String,
    /// The value in the first file (`None`: added in the second).
    pub old: Option<Json>,
    /// The value in the second file (`None`: removed from it).
    pub new: Option<Json>,
}

impl Browse {
    /// The bytes of a span of the view's data, as [`LazyJson::span`] gives it.
    fn raw(&self, r: Range<usize>) -> Option<&[u8]> {
        let data: &[u8] = match &self.index {
            #[cfg(feature = "resonite")]
            Index::Resonite(view) => view.bson(),
            #[allow(unreachable_patterns)]
            _ => self.opened.data(),
        };
        data.get(r)
    }

    /// Where this file's JSON and `other`'s differ, at most `limit` differences in
    /// document order (list items by position), and whether more were left. Values whose
    /// bytes are the same are not read (an edited file against itself as read reads
    /// only the values on the way to its edits); the others are compared as JSON.
    pub fn diff(
        &self,
        other: &Browse,
        limit: usize,
    ) -> std::result::Result<(Vec<Change>, bool), String> {
        let mut out = Vec::new();
        let more = self.with_root(|a| {
            other.with_root(|b| {
                let raw_a = |r: Range<usize>| self.raw(r);
                let raw_b = |r: Range<usize>| other.raw(r);
                Ok(diff_nodes(&a, &raw_a, &b, &raw_b, "", &mut out, limit))
            })
        })?;
        Ok((out, more))
    }
}

/// Children compared at a time.
const DIFF_CHUNK: usize = 4096;

/// Adds the differences between `a` and `b` (at `p`) to `out`; true when `limit` was
/// reached with more left.
fn diff_nodes<'x, A: LazyJson, B: LazyJson>(
    a: &Node<A>,
    raw_a: &dyn Fn(Range<usize>) -> Option<&'x [u8]>,
    b: &Node<B>,
    raw_b: &dyn Fn(Range<usize>) -> Option<&'x [u8]>,
    p: &str,
    out: &mut Vec<Change>,
    limit: usize,
) -> bool {
    if let (Some((ra, true)), Some((rb, true))) = (a.span(), b.span()) {
        if let (Some(x), Some(y)) = (raw_a(ra), raw_b(rb)) {
            if x == y {
                return false;
            }
        }
    }
    let (sa, sb) = (a.summary(), b.summary());
    let push = |c: Change, out: &mut Vec<Change>| {
        if out.len() >= limit {
            return true;
        }
        out.push(c);
        false
    };
    let both = |k: &str| sa.kind == k && sb.kind == k && sa.count.is_some() && sb.count.is_some();
    if both("array") {
        let n = sa.count.unwrap_or(0).max(sb.count.unwrap_or(0));
        let mut i = 0;
        while i < n {
            let ca = a.children(i, DIFF_CHUNK);
            let cb = b.children(i, DIFF_CHUNK);
            for j in 0..ca.len().max(cb.len()) {
                let q = format!("{p}/{}", i + j);
                let stop = match (ca.get(j), cb.get(j)) {
                    (Some((_, x)), Some((_, y))) => diff_nodes(x, raw_a, y, raw_b, &q, out, limit),
                    (x, y) => push(
                        Change {
                            pointer: q,
                            old: x.map(|(_, x)| x.to_json()),
                            new: y.map(|(_, y)| y.to_json()),
                        },
                        out,
                    ),
                };
                if stop {
                    return true;
                }
            }
            i += DIFF_CHUNK;
        }
        return false;
    }
    if both("object") {
        let theirs: std::collections::HashMap<String, Node<B>> = b
            .children(0, usize::MAX)
            .into_iter()
            .filter_map(|(k, c)| match k {
                Key::Name(n) => Some((n, c)),
                Key::Index(_) => None,
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        let mut i = 0;
        loop {
            let ca = a.children(i, DIFF_CHUNK);
            if ca.is_empty() {
                break;
            }
            i += ca.len();
            for (k, x) in &ca {
                let Key::Name(name) = k else { continue };
                let q = format!("{p}/{}", k.token());
                seen.insert(name.clone());
                let stop = match theirs.get(name) {
                    Some(y) => diff_nodes(x, raw_a, y, raw_b, &q, out, limit),
                    None => push(
                        Change {
                            pointer: q,
                            old: Some(x.to_json()),
                            new: None,
                        },
                        out,
                    ),
                };
                if stop {
                    return true;
                }
            }
        }
        for (k, y) in b.children(0, usize::MAX) {
            let Key::Name(name) = &k else { continue };
            if seen.contains(name) {
                continue;
            }
            let c = Change {
                pointer: format!("{p}/{}", k.token()),
                old: None,
                new: Some(y.to_json()),
            };
            if push(c, out) {
                return true;
            }
        }
        return false;
    }
    let (x, y) = (a.to_json(), b.to_json());
    if x != y {
        return push(
            Change {
                pointer: p.to_owned(),
                old: Some(x),
                new: Some(y),
            },
            out,
        );
    }
    false
}

/// The index of a file's view, or `None`.
pub(super) fn index(o: &Opened) -> Option<Index> {
    match o.settings() {
        #[cfg(feature = "godot")]
        Settings::Godot3(g) | Settings::Godot4(g) => {
            use super::GodotFraming;
            let opts = super::formats::godot_decode_options(o, g);
            let data = o.data();
            let (framed, bodies) = match g.framing {
                GodotFraming::Bare => {
                    let whole = 0..data.len();
                    (false, vec![whole])
                }
                GodotFraming::StoreVar => (true, gamewire_godot::framing::frame_bodies(data).ok()?),
                _ => return None,
            };
            let mut frames = Vec::with_capacity(bodies.len());
            for r in bodies {
                let tape =
                    gamewire_godot::tape::Tape::with_options(&data[r.clone()], &opts).ok()?;
                frames.push((r, tape.into_index()));
            }
            Some(Index::Godot { frames, framed })
        }
        #[cfg(feature = "resonite")]
        Settings::Resonite(_) => {
            let name = o
                .path
                .as_deref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            let opts = gamewire_resonite::Options {
                limits: o.opts.limits,
                ..Default::default()
            };
            let view =
                gamewire_resonite::bson_view::FileView::open(o.data(), name.as_deref(), &opts)
                    .ok()?;
            Some(Index::Resonite(view.into_owned()))
        }
        _ => None,
    }
}

/// Where the bytes of the value at `pointer` (of the file's JSON) are: for a file whose
/// format has a view here, and for the files [`super::spans::Spans`] reads (an O3DE
/// file, whose JSON is its own text: the value's text in the file, [`text_span`]; a
/// Zeze bean or frame stream; a KingsIsle blob, `BINd` or XML file); else
/// `None`. Indexes the file on each call:
/// a program asking often keeps a [`Browse`] or a [`super::spans::Spans`].
pub fn span(opened: Opened, pointer: &str) -> std::result::Result<Option<Span>, String> {
    if let Some(s) = super::spans::Spans::of(&opened) {
        return s.span(pointer);
    }
    match Browse::new(opened) {
        Ok(b) => b.span(pointer),
        Err(_) => Ok(None),
    }
}

/// True for files whose JSON is their own text (O3DE), whose values' bytes
/// [`text_span`] finds.
pub fn text_spans(opened: &Opened) -> bool {
    opened.format() == crate::Format::O3de
}

/// Where the text of the value at `pointer` is in a JSON file (comments and trailing
/// commas stepped over).
pub fn text_span(text: &[u8], pointer: &str) -> std::result::Result<Option<Span>, String> {
    let toks = lazy_json::tokens(pointer)?;
    let r = gamewire_core::json_span::span(text, &toks)
        .ok_or_else(|| format!("no value at {pointer:?} in the file's text"))?;
    Ok(Some(Span {
        offset: r.start,
        length: r.len(),
        own: true,
        unpacked: false,
        space: "the file (its JSON text)".into(),
        bits: None,
        line: Some(LineColumn::of(text, r.start)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open::{open, OpenOptions, SideFiles};

    fn opened(bytes: Vec<u8>, name: &str) -> Opened {
        open(
            bytes,
            Some(std::path::Path::new(name)),
            &SideFiles::none(),
            &OpenOptions::default(),
        )
        .unwrap()
    }

    /// The lazy listing is the JSON `write_json` gives, at every level.
    fn same_as_write_json(o: Opened) {
        let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        let b = Browse::new(o).expect("a view");
        assert_eq!(b.value("").unwrap(), whole);
        let l = b.listing("", 0, 3).unwrap();
        let n = match &whole {
            Json::Array(a) => a.len(),
            Json::Object(m) => m.len(),
            _ => 0,
        };
        assert_eq!(l.value.count, Some(n));
        assert_eq!(l.children.len(), n.min(3));
    }

    fn fixture(p: &str) -> Vec<u8> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        std::fs::read(root.join(p)).unwrap()
    }

    /// Every listing of the file agrees with the JSON `write_json` gives, at every
    /// pointer, and every value with bytes of its own has them inside the data.
    fn listings_agree(b: &Browse, j: &Json, p: &str) {
        let l = b.listing(p, 0, usize::MAX).unwrap();
        assert_eq!(l.value.kind, lazy_json::kind_of(j), "at {p}");
        let span = b.span(p).unwrap().expect("a span");
        assert_eq!(
            b.bytes(span.offset, span.length).len(),
            span.length,
            "at {p}"
        );
        match j {
            Json::Array(a) => {
                assert_eq!(l.children.len(), a.len(), "at {p}");
                for (i, c) in a.iter().enumerate() {
                    listings_agree(b, c, &format!("{p}/{i}"));
                }
            }
            Json::Object(m) => {
                let keys: Vec<Json> = l.children.iter().map(|c| c.key.to_json()).collect();
                let want: Vec<Json> = m.keys().map(|k| Json::from(k.as_str())).collect();
                assert_eq!(keys, want, "at {p}");
                for (k, c) in m {
                    let tok = k.replace('~', "~0").replace('/', "~1");
                    listings_agree(b, c, &format!("{p}/{tok}"));
                }
            }
            other => assert_eq!(l.value.value.as_ref(), Some(other), "at {p}"),
        }
    }

    #[test]
    fn real_files_list_as_their_json_and_their_bytes_are_where_the_engines_put_them() {
        let files = [
            "godot/real/bom-reader-savegame.godot4.save",
            "godot/real/restlife-savegame.godot4.save",
            "godot/real/jaws-of-time-attacks.godot4.save",
            "godot/real/blasto-x-save_data.godot3.save",
            "godot/real/retrofps-settings.godot3.save",
            "godot/real/rogue-like-save_file.godot3.save",
            "../../samples/resonite/item.frdt",
            "resonite/real/resonite-avatar-root-id.brson",
            "resonite/real/neos-holder.7zbson",
        ];
        for f in files {
            let o = opened(fixture(f), f);
            let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
            let b = Browse::new(o)
                .ok()
                .unwrap_or_else(|| panic!("{f}: no view"));
            listings_agree(&b, &whole, "");
        }
        // A Godot 4 store_var save (bom-reader): frame length at 0, the Dictionary at 4,
        // its count at 8, the key "filename" at 12 (header, length 8, text), and its
        // value at 28: String header, length 15, "res://main.tscn" and one byte of
        // padding.
        let b = Browse::new(opened(fixture(files[0]), files[0]))
            .ok()
            .unwrap();
        let s = b.span("/0/filename").unwrap().unwrap();
        assert_eq!(
            (s.offset, s.length, s.own, s.unpacked),
            (28, 24, true, false)
        );
        assert_eq!(&b.bytes(36, 15), b"res://main.tscn");
        assert_eq!(b.span("/0").unwrap().unwrap().offset, 4);
        // restlife: the Object id under "Player" at 28 (header 0x00010018, 8 bytes).
        let b = Browse::new(opened(fixture(files[1]), files[1]))
            .ok()
            .unwrap();
        let s = b.span("/0/Player").unwrap().unwrap();
        assert_eq!((s.offset, s.length), (28, 12));
        assert_eq!(b.bytes(28, 4), &[0x18, 0, 1, 0]);
        // An uncompressed FrDT file: the header's 9 bytes, the BSON's length, the
        // element "VersionNumber" at 13, its string's length at 28 (14) and its text:
        // offsets in the file.
        let b = Browse::new(opened(fixture(files[6]), "item.frdt"))
            .ok()
            .unwrap();
        let s = b.span("/VersionNumber").unwrap().unwrap();
        assert_eq!((s.offset, s.length, s.unpacked), (28, 18, false));
        assert_eq!(s.space, "the file");
        assert_eq!(b.bytes(32, 13), b"2024.8.5.1346");
        // A Brotli FrDT file: offsets in the decompressed BSON, said so.
        let b = Browse::new(opened(fixture(files[7]), files[7]))
            .ok()
            .unwrap();
        let s = b.span("/VersionNumber").unwrap().unwrap();
        assert!(s.unpacked && s.space.contains("brotli"), "{s:?}");
        let text = b.value("/VersionNumber").unwrap();
        let bytes = b.bytes(s.offset + 4, s.length - 5);
        assert_eq!(Json::from(std::str::from_utf8(bytes).unwrap()), text);
    }

    /// An O3DE file's values are found in its text: each span holds the value's JSON.
    #[cfg(feature = "o3de")]
    #[test]
    fn o3de_values_are_their_text() {
        for f in [
            "o3de/real/extras-Controllers.prefab",
            "o3de/real/asv-material_pipelines.setreg",
            "o3de/real/asv-SelectorPass.pass",
        ] {
            let data = fixture(f);
            let o = opened(data.clone(), f);
            assert!(text_spans(&o));
            let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
            let mut seen = 0;
            let mut stack = vec![(String::new(), &whole)];
            while let Some((p, j)) = stack.pop() {
                let s = text_span(&data, &p).unwrap().unwrap();
                let text = &data[s.offset..s.offset + s.length];
                match j {
                    // A container's text may hold comments: its brackets are checked.
                    Json::Object(_) => {
                        assert!(text.starts_with(b"{") && text.ends_with(b"}"), "{f} at {p}")
                    }
                    Json::Array(_) => {
                        assert!(text.starts_with(b"[") && text.ends_with(b"]"), "{f} at {p}")
                    }
                    _ => {
                        let read: Json = serde_json::from_slice(text).unwrap();
                        assert_eq!(&read, j, "{f} at {p}");
                    }
                }
                seen += 1;
                match j {
                    Json::Object(m) => stack.extend(m.iter().map(|(k, c)| {
                        (
                            format!("{p}/{}", k.replace('~', "~0").replace('/', "~1")),
                            c,
                        )
                    })),
                    Json::Array(a) => {
                        stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c)))
                    }
                    _ => {}
                }
            }
            assert!(seen > 5, "{f}: {seen}");
        }
    }

    /// Engine-written compressed and encrypted Godot files: offsets in the data inside
    /// the container, said so, and the bytes there are the value's.
    #[cfg(feature = "godot")]
    #[test]
    fn godot_containers_give_offsets_in_their_plaintext() {
        use crate::open::Secret;
        use gamewire_godot::{json::to_json, Version};
        for (f, secret, says) in [
            ("godot/containers/godot3-zstd.sav", None, "compressed"),
            ("godot/containers/godot3-deflate.sav", None, "compressed"),
            (
                "godot/containers/godot3-password.sav",
                Some(Secret::Password("secret".into())),
                "encrypted",
            ),
        ] {
            let opts = OpenOptions {
                secret,
                ..OpenOptions::default()
            };
            let o = open(
                fixture(f),
                Some(std::path::Path::new(f)),
                &SideFiles::none(),
                &opts,
            )
            .unwrap();
            let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
            let b = Browse::new(o).unwrap();
            listings_agree(&b, &whole, "");
            let s = b.span("/0").unwrap().unwrap();
            assert!(s.unpacked && s.space.contains(says), "{f}: {s:?}");
            // The first frame's value follows its 4-byte length in the plaintext.
            assert_eq!(s.offset, 4, "{f}");
            let v = gamewire_godot::decode(
                b.bytes(s.offset, s.length),
                &gamewire_godot::DecodeOptions::new(Version::V3),
            )
            .unwrap();
            assert_eq!(to_json(&v, Version::V3), b.value("/0").unwrap(), "{f}");
        }
    }

    #[cfg(feature = "godot")]
    #[test]
    fn godot_frames_and_bare_values() {
        use gamewire_godot::{framing, EncodeOptions, Value, Version};
        let v = Value::from(vec![Value::from("hp"), Value::Int(87)]);
        let eo = EncodeOptions::new(Version::V4);
        let mut framed = framing::encode_framed(&v, &eo).unwrap();
        framed.extend(framing::encode_framed(&Value::Int(5), &eo).unwrap());
        let o = opened(framed.clone(), "save.dat");
        same_as_write_json(opened(framed.clone(), "save.dat"));
        let b = Browse::new(o).unwrap();
        // Frame 1: length at 24, header at 28.
        let s = b.span("/1").unwrap().unwrap();
        // Frame 0 is 4 + 28 bytes (Array header and count, "hp", 87).
        assert_eq!((s.offset, s.length, s.unpacked), (36, 8, false));
        assert_eq!(b.bytes(s.offset, 4), &[2, 0, 0, 0]);
        let s = b.span("/0/0").unwrap().unwrap();
        assert_eq!((s.offset, s.length), (12, 12));
    }
}
