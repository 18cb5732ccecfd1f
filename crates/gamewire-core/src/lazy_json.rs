//! A format's lossless JSON read a level at a time from its borrowed view, with no JSON
//! tree built: what a browser of big files needs (one level or one page of children at
//! a JSON Pointer, a value's JSON, search, and the bytes a value came from).
//!
//! A format implements [`LazyJson`] for a node of its view (Godot's tape, Resonite's
//! BSON view), following its own JSON mapping; small values (scalars, vectors, packed
//! arrays) it hands over as [`Shape::Json`]. [`Node`] then walks pointers, lists pages
//! and searches the same way for every format, going on inside the small values' JSON.
//! The listing, the pointers and the values are those of the JSON the format's
//! `write_json` gives (each format's tests compare the two).

use serde_json::Value as Json;
use std::ops::Range;

/// The key of a child: an array index or an object member's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// An array item.
    Index(usize),
    /// An object member.
    Name(String),
}

impl Key {
    /// The key as JSON: a number or a string.
    pub fn to_json(&self) -> Json {
        match self {
            Key::Index(i) => Json::from(*i),
            Key::Name(n) => Json::from(n.as_str()),
        }
    }

    /// The key as a JSON Pointer token (`~` and `/` escaped).
    pub fn token(&self) -> String {
        match self {
            Key::Index(i) => i.to_string(),
            Key::Name(n) => n.replace('~', "~0").replace('/', "~1"),
        }
    }
}

/// What a value is, without its children.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A JSON array of this many items, read lazily.
    Array(usize),
    /// A JSON object of this many members, read lazily.
    Object(usize),
    /// A small value, whole.
    Json(Json),
}

/// A node of a format's view, as the JSON its mapping gives.
pub trait LazyJson: Sized + Clone {
    /// The value's shape (a container's count; a small value whole).
    fn shape(&self) -> Shape;
    /// Up to `limit` children from `offset`, in order (only for [`Shape::Array`] and
    /// [`Shape::Object`]).
    fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Self)>;
    /// The child under a JSON Pointer token (an index or a member name).
    fn get(&self, token: &str) -> Option<Self>;
    /// Where the value's bytes are in the data viewed.
    fn span(&self) -> Option<Range<usize>>;
    /// The whole value's JSON.
    fn to_json(&self) -> Json;
    /// The `"$type"` of a tagged object (read without listing it).
    fn tag(&self) -> Option<String> {
        None
    }
}

/// A value reached from the root: a node of the view, or a part of a small value's JSON
/// (with the span of the view's value it is part of).
#[derive(Debug, Clone)]
pub enum Node<L> {
    /// A node of the view.
    View(L),
    /// JSON inside a small value.
    Json {
        /// The JSON.
        value: Json,
        /// The bytes of the view's value that holds it, and whether they are this
        /// value's own (`true` for the small value itself, `false` for a part of it).
        span: Option<(Range<usize>, bool)>,
    },
}

/// One child in a listing: its key and what it is (a container's count and tag, a
/// scalar's value).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The key under its parent.
    pub key: Key,
    /// `null`, `boolean`, `integer`, `float`, `string`, `array` or `object`.
    pub kind: &'static str,
    /// The number of children of an array or an object.
    pub count: Option<usize>,
    /// The `"$type"` of a tagged object.
    pub tag: Option<String>,
    /// A scalar's value (`None` for arrays and objects).
    pub value: Option<Json>,
}

/// The JSON type of a value, numbers split into integers and floats.
pub fn kind_of(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "integer",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// A JSON Pointer's tokens, unescaped.
pub fn tokens(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(format!("{pointer:?} is not a JSON Pointer"));
    };
    Ok(rest
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect())
}

impl<L: LazyJson> Node<L> {
    /// The node of a view's value: a small value becomes its JSON.
    pub fn of(view: L) -> Self {
        match view.shape() {
            Shape::Json(value) => Node::Json {
                value,
                span: view.span().map(|s| (s, true)),
            },
            _ => Node::View(view),
        }
    }

    /// True when the format's view holds this value whole, as one small value (a
    /// scalar; a tagged value such as a Godot vector or a Resonite int64's
    /// `{"$numberLong": ..}`; a packed array; or a part of one): its JSON is read in
    /// one piece, whatever its number of children. False for the containers the view
    /// reads a level at a time.
    pub fn is_whole(&self) -> bool {
        matches!(self, Node::Json { .. })
    }

    /// The value at `pointer` below this one.
    pub fn at(&self, pointer: &str) -> Result<Node<L>, String> {
        let mut node = self.clone();
        for tok in tokens(pointer)? {
            node = node
                .child(&tok)
                .ok_or_else(|| format!("no value at {pointer:?}"))?;
        }
        Ok(node)
    }

    /// The child under a JSON Pointer token.
    pub fn child(&self, tok: &str) -> Option<Node<L>> {
        match self {
            Node::View(v) => v.get(tok).map(Node::of),
            Node::Json { value, span } => {
                let c = match value {
                    Json::Object(m) => m.get(tok)?,
                    Json::Array(a) => a.get(index(tok)?)?,
                    _ => return None,
                };
                Some(Node::Json {
                    value: c.clone(),
                    span: span.as_ref().map(|(r, _)| (r.clone(), false)),
                })
            }
        }
    }

    /// What the value is, without its children (its key left as index 0).
    pub fn summary(&self) -> Summary {
        match self {
            Node::View(v) => {
                let (kind, count) = match v.shape() {
                    Shape::Array(n) => ("array", n),
                    Shape::Object(n) => ("object", n),
                    Shape::Json(j) => return json_summary(&j),
                };
                Summary {
                    key: Key::Index(0),
                    kind,
                    count: Some(count),
                    tag: v.tag(),
                    value: None,
                }
            }
            Node::Json { value, .. } => json_summary(value),
        }
    }

    /// Up to `limit` children from `offset`.
    pub fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Node<L>)> {
        match self {
            Node::View(v) => v
                .children(offset, limit)
                .into_iter()
                .map(|(k, c)| (k, Node::of(c)))
                .collect(),
            Node::Json { value, span } => {
                let part = |c: &Json| Node::Json {
                    value: c.clone(),
                    span: span.as_ref().map(|(r, _)| (r.clone(), false)),
                };
                match value {
                    Json::Array(a) => a
                        .iter()
                        .enumerate()
                        .skip(offset)
                        .take(limit)
                        .map(|(i, c)| (Key::Index(i), part(c)))
                        .collect(),
                    Json::Object(m) => m
                        .iter()
                        .skip(offset)
                        .take(limit)
                        .map(|(k, c)| (Key::Name(k.clone()), part(c)))
                        .collect(),
                    _ => Vec::new(),
                }
            }
        }
    }

    /// The bytes the value came from, and whether they are its own (`false`: the value
    /// is a part of a small value, and these are that small value's bytes).
    pub fn span(&self) -> Option<(Range<usize>, bool)> {
        match self {
            Node::View(v) => v.span().map(|s| (s, true)),
            Node::Json { span, .. } => span.clone(),
        }
    }

    /// The whole value's JSON.
    pub fn to_json(&self) -> Json {
        match self {
            Node::View(v) => v.to_json(),
            Node::Json { value, .. } => value.clone(),
        }
    }

    /// Pointers below this value (this value at `pointer`) whose key or scalar value
    /// contains `needle` (lower case; compared with each text lowered), depth first in
    /// document order, at most `limit`: `(pointer, on key, text, kind)`; and whether
    /// more were left.
    pub fn search(&self, pointer: &str, needle: &str, limit: usize) -> (Vec<Hit>, bool) {
        let (hits, next) = self.search_from(pointer, needle, limit, None);
        (hits, next.is_some())
    }

    /// [`Node::search`] a page at a time: at most `limit` hits from where an earlier
    /// page of the same search of the same, unchanged data stopped (`from`; `None`
    /// from the start), and where this one stopped (`None`: no hit is left). A page
    /// read on so walks on from the last one's position instead of walking again up to
    /// it (and a position that does not fit the data starts again from the start).
    ///
    /// In each object, the keys of a chunk of children are matched before the
    /// children's values (as a document's search does, by chunks of
    /// [`SEARCH_CHUNK`] children so that memory stays bounded by the depth, not by
    /// the width, of the document).
    pub fn search_from(
        &self,
        pointer: &str,
        needle: &str,
        limit: usize,
        from: Option<&SearchFrom>,
    ) -> (Vec<Hit>, Option<SearchFrom>) {
        /// An open container on the walk's path.
        struct Level<L> {
            /// Its pointer.
            p: String,
            node: Node<L>,
            object: bool,
            /// The index of the first child in `kids`.
            start: usize,
            /// A chunk of children (each taken out when visited).
            kids: Vec<(Key, Node<L>)>,
            /// The next key to match in `kids`.
            key: usize,
            /// The child being visited in `kids`.
            visit: usize,
            /// How many children the next chunk lists (an object's chunks are all
            /// [`SEARCH_CHUNK`]; an array read on from a position starts small and
            /// doubles, so a page costs about its own hits).
            want: usize,
        }
        fn open<L: LazyJson>(p: String, node: Node<L>, start: usize) -> Level<L> {
            Level {
                object: node.summary().kind == "object",
                kids: match start {
                    usize::MAX => Vec::new(),
                    _ => node.children(start, SEARCH_CHUNK),
                },
                p,
                node,
                start,
                key: 0,
                visit: 0,
                want: SEARCH_CHUNK,
            }
        }
        fn text(s: &Summary) -> Option<String> {
            match &s.value {
                Some(Json::String(t)) => Some(t.clone()),
                Some(Json::Number(n)) => Some(n.to_string()),
                Some(Json::Bool(b)) => Some(b.to_string()),
                _ => None,
            }
        }
        // A level whose keys are all matched is kept as where its visits are (`key`
        // then says so), so that reading on lists its chunk from there only.
        let stop = |stack: &[Level<L>]| SearchFrom {
            levels: stack
                .iter()
                .map(|l| match l.object && l.key < l.kids.len() {
                    true => (l.start, l.key, l.visit),
                    false => (l.start, KEYS_DONE, l.visit),
                })
                .collect(),
        };
        let mut hits = Vec::new();
        let mut stack: Vec<Level<L>> = Vec::new();
        // Back down to where the last page stopped.
        if let Some(f) = from.filter(|f| !f.levels.is_empty()) {
            let (mut p, mut node) = (pointer.to_owned(), self.clone());
            for (d, &(start, key, visit)) in f.levels.iter().enumerate() {
                let level = match key {
                    // The rest of the chunk (its keys matched), from the child visited.
                    KEYS_DONE => {
                        let mut l = open(p.clone(), node.clone(), usize::MAX);
                        // An object's next chunk starts where this one ends (its keys
                        // are matched a chunk at a time); an array's anywhere, so a
                        // few of its items are listed here, the rest as the walk goes.
                        let rest = match l.object {
                            true => SEARCH_CHUNK.saturating_sub(visit),
                            false => RESUME_ITEMS,
                        };
                        l.kids = l.node.children(start + visit, rest);
                        if !l.object {
                            l.want = 2 * RESUME_ITEMS;
                        }
                        (l.start, l.key, l.visit) = (start + visit, l.kids.len(), 0);
                        l
                    }
                    _ => {
                        let mut l = open(p.clone(), node.clone(), start);
                        (l.key, l.visit) = (key, visit);
                        l
                    }
                };
                let visit = level.visit;
                if d + 1 < f.levels.len() {
                    match level.kids.get(visit) {
                        Some((k, c)) => {
                            p = format!("{}/{}", level.p, k.token());
                            node = c.clone();
                        }
                        // Not this data's position: from the start.
                        None => return self.search_from(pointer, needle, limit, None),
                    }
                } else if visit > level.kids.len() || level.key > level.kids.len() {
                    return self.search_from(pointer, needle, limit, None);
                }
                stack.push(level);
            }
        } else {
            let s = self.summary();
            if let Some(t) = text(&s) {
                if t.to_lowercase().contains(needle) {
                    if limit == 0 {
                        return (hits, Some(SearchFrom { levels: Vec::new() }));
                    }
                    hits.push(Hit {
                        pointer: pointer.to_owned(),
                        on_key: false,
                        text: t,
                        kind: s.kind,
                    });
                }
            }
            if s.count.is_some() {
                stack.push(open(pointer.to_owned(), self.clone(), 0));
            }
        }
        while let Some(top) = stack.last_mut() {
            if top.object && top.key < top.kids.len() {
                let (k, c) = &top.kids[top.key];
                if let Key::Name(name) = k {
                    if name.to_lowercase().contains(needle) {
                        if hits.len() >= limit {
                            return (hits, Some(stop(&stack)));
                        }
                        hits.push(Hit {
                            pointer: format!("{}/{}", top.p, k.token()),
                            on_key: true,
                            text: name.clone(),
                            kind: c.summary().kind,
                        });
                    }
                }
                top.key += 1;
                continue;
            }
            if top.visit < top.kids.len() {
                let s = top.kids[top.visit].1.summary();
                if let Some(t) = text(&s) {
                    if t.to_lowercase().contains(needle) {
                        if hits.len() >= limit {
                            return (hits, Some(stop(&stack)));
                        }
                        let k = &top.kids[top.visit].0;
                        hits.push(Hit {
                            pointer: format!("{}/{}", top.p, k.token()),
                            on_key: false,
                            text: t,
                            kind: s.kind,
                        });
                    }
                }
                if s.count.is_some() {
                    // Taken out: visited once, and a position is found again by index.
                    let (k, c) = std::mem::replace(
                        &mut top.kids[top.visit],
                        (
                            Key::Index(0),
                            Node::Json {
                                value: Json::Null,
                                span: None,
                            },
                        ),
                    );
                    let p = format!("{}/{}", top.p, k.token());
                    stack.push(open(p, c, 0));
                } else {
                    top.visit += 1;
                }
                continue;
            }
            // The chunk is done: the next one, or the container.
            if !top.kids.is_empty() {
                let next = top.start + top.kids.len();
                top.kids = top.node.children(next, top.want);
                top.want = (2 * top.want).min(SEARCH_CHUNK);
                if !top.kids.is_empty() {
                    (top.start, top.key, top.visit) = (next, 0, 0);
                    continue;
                }
            }
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                parent.visit += 1;
            }
        }
        (hits, None)
    }
}

/// Children a search lists at a time ([`Node::search_from`]).
pub const SEARCH_CHUNK: usize = 16 * 1024;

/// In a [`SearchFrom`] level: every key of its chunk is matched.
const KEYS_DONE: usize = usize::MAX;

/// An array's items listed at first when a search reads on inside it.
const RESUME_ITEMS: usize = 64;

/// Where a search stopped ([`Node::search_from`]): its position in the data, a few
/// words a level of depth, to read on from there on the same, unchanged data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchFrom {
    /// Each open container on the path, outermost first: the index of the first child
    /// of its chunk being read, the next key to match in the chunk, the child being
    /// visited (whose subtree is the next level).
    levels: Vec<(usize, usize, usize)>,
}

/// A search hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Where.
    pub pointer: String,
    /// Found in the key (else in the value).
    pub on_key: bool,
    /// The key or the value's text.
    pub text: String,
    /// The value's kind.
    pub kind: &'static str,
}

/// An array index token.
fn index(tok: &str) -> Option<usize> {
    if tok.len() > 1 && tok.starts_with('0') {
        return None;
    }
    tok.parse().ok()
}

/// The summary of a JSON value.
fn json_summary(v: &Json) -> Summary {
    let (count, tag, value) = match v {
        Json::Array(a) => (Some(a.len()), None, None),
        Json::Object(m) => (
            Some(m.len()),
            m.get("$type").and_then(Json::as_str).map(str::to_owned),
            None,
        ),
        other => (None, None, Some(other.clone())),
    };
    Summary {
        key: Key::Index(0),
        kind: kind_of(v),
        count,
        tag,
        value,
    }
}

/// An edit of the value at a JSON Pointer, as a format's splicing of its bytes takes it
/// (the page's JSON Patch operations).
#[derive(Debug, Clone, Copy)]
pub enum Edit<'j> {
    /// Replaces the value (JSON Patch `replace`).
    Replace(&'j Json),
    /// Adds a list item (at an index, or `-` for the end) or an object member (JSON
    /// Patch `add`; a member that exists is replaced).
    Add(&'j Json),
    /// Adds an object member at a position among the members (undoing a removal puts
    /// the member back where it was).
    Insert(usize, &'j Json),
    /// Removes the item or member (JSON Patch `remove`).
    Remove,
}

impl Edit<'_> {
    /// True for an edit that changes its container's count (add, insert, remove).
    pub fn changes_count(&self) -> bool {
        !matches!(self, Edit::Replace(_))
    }

    /// The value the edit puts in place, if any.
    pub fn value(&self) -> Option<&Json> {
        match *self {
            Edit::Replace(v) | Edit::Add(v) | Edit::Insert(_, v) => Some(v),
            Edit::Remove => None,
        }
    }
}

/// An [`Edit`] that owns its value: one kept past the request that gave it (a list of
/// edits to apply later, a test's table of cases). [`OwnedEdit::edit`] lends it as the
/// [`Edit`] the formats' splicing takes.
#[derive(Debug, Clone, PartialEq)]
pub enum OwnedEdit {
    /// [`Edit::Replace`].
    Replace(Json),
    /// [`Edit::Add`].
    Add(Json),
    /// [`Edit::Insert`].
    Insert(usize, Json),
    /// [`Edit::Remove`].
    Remove,
}

impl OwnedEdit {
    /// The edit, borrowing this one's value.
    pub fn edit(&self) -> Edit<'_> {
        match self {
            OwnedEdit::Replace(v) => Edit::Replace(v),
            OwnedEdit::Add(v) => Edit::Add(v),
            OwnedEdit::Insert(i, v) => Edit::Insert(*i, v),
            OwnedEdit::Remove => Edit::Remove,
        }
    }
}

impl From<Edit<'_>> for OwnedEdit {
    fn from(e: Edit<'_>) -> Self {
        match e {
            Edit::Replace(v) => OwnedEdit::Replace(v.clone()),
            Edit::Add(v) => OwnedEdit::Add(v.clone()),
            Edit::Insert(i, v) => OwnedEdit::Insert(i, v.clone()),
            Edit::Remove => OwnedEdit::Remove,
        }
    }
}

/// Applies `edit` at `toks` inside `j` (a small value's JSON, edited whole by a format
/// that re-encodes it). Errors name what is missing.
pub fn apply_edit(j: &mut Json, toks: &[String], edit: Edit<'_>) -> Result<(), String> {
    let Some((last, up)) = toks.split_last() else {
        return match edit {
            Edit::Replace(v) => {
                *j = v.clone();
                Ok(())
            }
            _ => Err("the whole value can only be replaced".into()),
        };
    };
    let mut at = j;
    for t in up {
        at = match at {
            Json::Array(a) => index(t).and_then(|i| a.get_mut(i)),
            Json::Object(m) => m.get_mut(t.as_str()),
            _ => None,
        }
        .ok_or_else(|| format!("no value at {t:?}"))?;
    }
    match (at, edit) {
        (Json::Object(m), Edit::Replace(v)) => match m.get_mut(last.as_str()) {
            Some(slot) => *slot = v.clone(),
            None => return Err(format!("no key {last:?}")),
        },
        (Json::Object(m), Edit::Add(v)) => {
            m.insert(last.clone(), v.clone());
        }
        (Json::Object(m), Edit::Insert(i, v)) => {
            m.shift_remove(last.as_str());
            m.shift_insert(i.min(m.len()), last.clone(), v.clone());
        }
        (Json::Object(m), Edit::Remove) => {
            m.shift_remove(last.as_str())
                .ok_or_else(|| format!("no key {last:?}"))?;
        }
        (Json::Array(a), edit) => {
            let i = if last == "-" && matches!(edit, Edit::Add(_)) {
                a.len()
            } else {
                index(last).ok_or_else(|| format!("{last:?} is not an index"))?
            };
            match edit {
                Edit::Add(v) | Edit::Insert(_, v) if i <= a.len() => a.insert(i, v.clone()),
                Edit::Replace(v) if i < a.len() => a[i] = v.clone(),
                Edit::Remove if i < a.len() => {
                    a.remove(i);
                }
                _ => return Err(format!("index {i} is past the end ({})", a.len())),
            }
        }
        _ => return Err("the value holds no list or map".into()),
    }
    Ok(())
}

/// Parses an array index token as [`LazyJson::get`] implementations do (no leading
/// zeros, no sign).
pub fn index_token(tok: &str) -> Option<usize> {
    index(tok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A view that is a JSON value, read lazily: the generic walk must agree with the
    /// JSON itself.
    #[derive(Clone)]
    struct Plain(Json);

    impl LazyJson for Plain {
        fn shape(&self) -> Shape {
            match &self.0 {
                Json::Array(a) => Shape::Array(a.len()),
                Json::Object(m) if m.contains_key("big") => Shape::Object(m.len()),
                other => Shape::Json(other.clone()),
            }
        }
        fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Self)> {
            LISTED.with(|n| n.set(n.get() + 1));
            match &self.0 {
                Json::Array(a) => a
                    .iter()
                    .enumerate()
                    .skip(offset)
                    .take(limit)
                    .map(|(i, c)| (Key::Index(i), Plain(c.clone())))
                    .collect(),
                Json::Object(m) => m
                    .iter()
                    .skip(offset)
                    .take(limit)
                    .map(|(k, c)| (Key::Name(k.clone()), Plain(c.clone())))
                    .collect(),
                _ => Vec::new(),
            }
        }
        fn get(&self, tok: &str) -> Option<Self> {
            match &self.0 {
                Json::Array(a) => a.get(index_token(tok)?).cloned().map(Plain),
                Json::Object(m) => m.get(tok).cloned().map(Plain),
                _ => None,
            }
        }
        fn span(&self) -> Option<Range<usize>> {
            Some(0..self.0.to_string().len())
        }
        fn to_json(&self) -> Json {
            self.0.clone()
        }
    }

    #[test]
    fn pointers_listings_and_search_go_into_small_values() {
        let j = json!({"big": [1, {"a/b": [2.5, "Sword"]}], "x": true});
        let root = Node::of(Plain(j.clone()));
        let n = root.at("/big/1/a~1b/1").unwrap();
        assert_eq!(n.to_json(), json!("Sword"));
        // What the view holds whole: a small value and its parts, not a container it
        // reads a level at a time, whatever their counts.
        assert!(n.is_whole() && root.at("/big/1").unwrap().is_whole());
        assert!(!root.is_whole() && !root.at("/big").unwrap().is_whole());
        // Inside a small value: the bytes are the small value's, not its own.
        assert_eq!(n.span().map(|s| s.1), Some(false));
        let kids = root.at("/big").unwrap().children(1, 5);
        assert_eq!(kids.len(), 1);
        assert_eq!(kids[0].0, Key::Index(1));
        assert_eq!(kids[0].1.summary().count, Some(1));
        let (hits, more) = root.search("", "sword", 10);
        assert!(!more);
        assert_eq!(hits[0].pointer, "/big/1/a~1b/1");
        let (hits, _) = root.search("", "a/b", 10);
        assert!(hits[0].on_key);
        assert!(root.at("/big/01").is_err());
        assert_eq!(root.summary().kind, "object");
    }

    thread_local! {
        /// Lists of children read (`Plain::children` calls) on this thread.
        static LISTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Issue 28: a search read a page at a time from where the last page stopped gives
    /// the hits of one whole search, in order, none twice (keys and values, inside
    /// small values, across chunks of children), for any page size.
    #[test]
    fn search_pages_read_on_from_where_the_last_stopped() {
        let rows: Vec<Json> = (0..17_000)
            .map(|i| {
                json!({"big": i % 7 == 0, "name": format!("item {i}"),
                       "vec": {"x": i % 3, "item": [i]}})
            })
            .collect();
        let root = Node::of(Plain(json!({"big": rows, "item x": "items"})));
        for (needle, pages) in [
            ("item 169", &[1, 7][..]),
            ("tru", &[1000]),
            ("big", &[5000, 16 * 1024 + 1]),
            ("item", &[9000]),
            ("nothing", &[1]),
        ] {
            let (all, more) = root.search("", needle, usize::MAX);
            assert!(!more);
            for &page in pages {
                let mut got = Vec::new();
                let mut from = None;
                loop {
                    let (hits, next) = root.search_from("", needle, page, from.as_ref());
                    assert!(hits.len() <= page);
                    got.extend(hits);
                    match next {
                        Some(n) => from = Some(n),
                        None => break,
                    }
                    if got.len() > all.len() {
                        break;
                    }
                }
                assert_eq!(got.len(), all.len(), "{needle:?} by {page}");
                assert!(got == all, "{needle:?} by {page}");
            }
        }
    }

    /// A page read on from the last one's position does not walk again what the
    /// pages before it walked: the last page of a search by pages lists about as
    /// many children as the end of the document has, not the whole document.
    #[test]
    fn a_page_read_on_does_not_walk_the_pages_before_it() {
        let rows: Vec<Json> = (0..20_000)
            .map(|i| json!({"big": true, "name": format!("item {i}")}))
            .collect();
        let root = Node::of(Plain(json!({ "big": rows })));
        let listed = |f: &dyn Fn()| {
            LISTED.with(|n| n.set(0));
            f();
            LISTED.with(|n| n.get())
        };
        let (_, from) = root.search_from("", "item 1999", 1, None);
        let whole = listed(&|| {
            root.search_from("", "item 1999", 10, None);
        });
        let on = listed(&|| {
            let (hits, _) = root.search_from("", "item 1999", 10, from.as_ref());
            assert_eq!(hits[0].pointer, "/big/19990/name");
        });
        // 20,000 rows listed from the start; from the position, the last ten.
        assert!(whole > 19_000, "{whole}");
        assert!(on < 30, "{on}");
    }

    #[test]
    fn search_goes_on_past_a_chunk_of_children_in_order() {
        let big: Vec<Json> = (0..20_000).map(Json::from).collect();
        let root = Node::of(Plain(json!({ "big": big })));
        let (hits, more) = root.search("", "1999", 100);
        assert!(!more);
        let ptrs: Vec<&str> = hits.iter().map(|h| h.pointer.as_str()).collect();
        let mut want = vec!["/big/1999".to_owned(), "/big/11999".to_owned()];
        want.extend((19990..20000).map(|i| format!("/big/{i}")));
        assert_eq!(ptrs, want);
        let (hits, more) = root.search("", "1999", 2);
        assert!(more);
        assert_eq!(hits.len(), 2);
    }

    #[test]
    fn edits_apply_as_json_patch_does_with_members_kept_in_order() {
        let mut j = json!({"a": [1, 2], "b": {"x": 1, "y": 2}});
        let t = |p: &str| tokens(p).unwrap();
        apply_edit(&mut j, &t("/a/-"), Edit::Add(&json!(3))).unwrap();
        apply_edit(&mut j, &t("/a/0"), Edit::Remove).unwrap();
        apply_edit(&mut j, &t("/b/x"), Edit::Remove).unwrap();
        apply_edit(&mut j, &t("/b/x"), Edit::Insert(1, &json!(5))).unwrap();
        apply_edit(&mut j, &t("/b/z"), Edit::Insert(0, &json!(0))).unwrap();
        apply_edit(&mut j, &t("/b/y"), Edit::Add(&json!(9))).unwrap();
        assert_eq!(j, json!({"a": [2, 3], "b": {"z": 0, "y": 9, "x": 5}}));
        let keys: Vec<&String> = j["b"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["z", "y", "x"]);
        assert!(apply_edit(&mut j, &t("/a/5"), Edit::Remove).is_err());
        assert!(apply_edit(&mut j, &t("/b/q"), Edit::Replace(&json!(1))).is_err());
        assert!(apply_edit(&mut j, &t(""), Edit::Remove).is_err());
        assert!(Edit::Remove.changes_count() && !Edit::Replace(&json!(1)).changes_count());
        let v = json!({"k": [1]});
        for e in [
            Edit::Replace(&v),
            Edit::Add(&v),
            Edit::Insert(2, &v),
            Edit::Remove,
        ] {
            let owned = OwnedEdit::from(e);
            assert_eq!(format!("{:?}", owned.edit()), format!("{e:?}"));
        }
    }
}
