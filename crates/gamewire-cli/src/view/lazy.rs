//! Files looked at without being decoded: a Godot or Resonite file opened by the page is
//! kept as its bytes and the index of the library's borrowed view
//! ([`gamewire::open::browse::Browse`]), and the tree, values, search and the bytes of
//! a value are read from it. Edits of a Godot or Resonite file are made on its bytes
//! by the library ([`patch`]: no document built; undo by inverse operations, changes
//! listed against the file as read); a file whose edits are not made on its bytes gets
//! its JSON document on the first edit, as `decode FILE` writes it. An O3DE file's values are found in its own text. No format
//! rule lives here: the library lists and finds, this renders.

use gamewire::open::browse::{Browse, Listing};
use gamewire_core::lazy_json::{Key, Summary};
use serde_json::{json, Value};

/// A file read through its view.
pub struct LazyFile {
    /// The file and its view's index (shared with long reads such as a search, which
    /// run without the file's lock).
    pub browse: std::sync::Arc<Browse>,
    /// The file as read from disk, which the changes are listed against (the same
    /// view until the first edit; edits make new ones, [`patch`]).
    pub base: std::sync::Arc<Browse>,
    /// True once the JSON document was built (on the first edit of a file whose edits
    /// are not made on its bytes, or a comparison).
    pub converted: bool,
    /// Where the last search page stopped, to read on from there ([`search_page`]).
    pub search: Option<KeptSearch>,
}

/// Where a search page of a file read through its view stopped: the next page of the
/// same search of the same view reads on from there instead of walking the file again
/// up to it. A few words a level of depth; dropped with the view it was made on (an
/// edit, an undo or a reload makes a new view, whose searches start again).
#[derive(Clone)]
pub struct KeptSearch {
    /// The text searched for, as the page sent it.
    q: String,
    /// The hit the next page starts at.
    next: usize,
    /// The view searched (not kept alive by this).
    view: std::sync::Weak<Browse>,
    /// The search's position in it.
    from: gamewire::open::browse::SearchFrom,
}

/// A page of a search of `b`: up to `limit` hits from hit `offset`, read on from
/// `kept` when it is where the same search of `b` stopped at `offset` (else walked from
/// the start, the hits before `offset` dropped); the answer as [`search`] gives it, and
/// where this page stopped.
pub fn search_page(
    b: &std::sync::Arc<Browse>,
    q: &str,
    offset: usize,
    limit: usize,
    kept: Option<&KeptSearch>,
) -> (Value, Option<KeptSearch>) {
    let resume = kept
        .filter(|k| {
            k.q == q
                && k.next == offset
                && std::ptr::eq(k.view.as_ptr(), std::sync::Arc::as_ptr(b))
                && k.view.strong_count() > 0
        })
        .map(|k| &k.from);
    let (hits, stopped) = match resume {
        Some(from) => b.search_from(q, limit, Some(from)),
        None => {
            let (mut hits, stopped) = b.search_from(q, offset.saturating_add(limit), None);
            hits.drain(..offset.min(hits.len()));
            (hits, stopped)
        }
    };
    let more = stopped.is_some();
    let kept = stopped.map(|from| KeptSearch {
        q: q.to_owned(),
        next: offset + hits.len(),
        view: std::sync::Arc::downgrade(b),
        from,
    });
    (render_hits(hits, more), kept)
}

/// Bytes shown in the hex pane at most.
pub const MAX_BYTES: usize = 4096;

/// The listing of a value and a page of its children, as [`super::doc::OpenFile::node`]
/// renders a document's.
pub fn node(b: &Browse, pointer: &str, offset: usize, limit: usize) -> Result<Value, String> {
    let Listing {
        value, children, ..
    } = b.listing(pointer, offset, limit)?;
    let mut out = summary(Value::Null, &value);
    out["pointer"] = json!(pointer);
    out["offset"] = json!(offset);
    out["children"] = children.iter().map(|c| summary(key(&c.key), c)).collect();
    Ok(out)
}

/// A key as the page gets it.
fn key(k: &Key) -> Value {
    k.to_json()
}

/// One entry of a listing: a container's kind, count and tag, a scalar as the document
/// path renders it.
fn summary(key: Value, s: &Summary) -> Value {
    match &s.value {
        Some(v) => super::doc::child(key, v),
        None => {
            let mut o = json!({"key": key, "kind": s.kind, "count": s.count});
            if let Some(t) = &s.tag {
                o["tag"] = json!(t);
            }
            o
        }
    }
}

/// The search's answer as the document path gives it: the first `limit` hits in
/// document order; the walk stops at the hit after them (`more`), so a search with
/// enough hits answers without reading the rest of the file.
pub fn search(b: &Browse, q: &str, limit: usize) -> Value {
    let (hits, more) = b.search(q, limit);
    render_hits(hits, more)
}

/// Search hits as the page gets them.
fn render_hits(hits: Vec<gamewire_core::lazy_json::Hit>, more: bool) -> Value {
    let hits: Vec<Value> = hits
        .into_iter()
        .map(|h| {
            json!({"pointer": h.pointer, "on": if h.on_key { "key" } else { "value" },
                   "text": super::doc::clip(&h.text, 120), "kind": h.kind})
        })
        .collect();
    json!({"hits": hits, "more": more})
}

/// The bytes of the value at `pointer`: offset and length, what they count in, and the
/// first [`MAX_BYTES`] of them in hex.
pub fn bytes(b: &Browse, pointer: &str) -> Result<Value, String> {
    let Some(span) = b.span(pointer)? else {
        return Ok(no_bytes("this file's format has no byte positions here"));
    };
    let shown = b.bytes(span.offset, span.length.min(MAX_BYTES));
    Ok(render(&span, shown))
}

/// The bytes of the value at `pointer` in a file read whole whose values' bytes the
/// library finds (O3DE, Zeze beans and frames, KingsIsle files).
pub fn read_bytes(spans: &gamewire::open::spans::Spans, pointer: &str) -> Result<Value, String> {
    let Some((span, bytes)) = spans.span_and_bytes(pointer)? else {
        return Ok(no_bytes(
            "not in the file: a value the bytes do not hold, shown with its default",
        ));
    };
    Ok(render(&span, &bytes[..bytes.len().min(MAX_BYTES)]))
}

/// A span and the first of its bytes, for the page.
fn render(span: &gamewire::open::browse::Span, shown: &[u8]) -> Value {
    let mut out = json!({
        "available": true,
        "offset": span.offset,
        "length": span.length,
        "own": span.own,
        "unpacked": span.unpacked,
        "unit": "byte",
        "space": span.space,
        "hex": gamewire_core::hex::to_hex(shown),
        "shown": shown.len(),
    });
    // A bit-packed value: its first bit in the first byte and how many bits.
    if let Some(b) = span.bits {
        out["bit"] = json!(b.first);
        out["bits"] = json!(b.count);
    }
    // A text file's value: where it starts on the page.
    if let Some(l) = span.line {
        out["line"] = json!(l.line);
        out["column"] = json!(l.column);
    }
    out
}

/// Says on a Bytes answer for a value of the entry `name` of a pack or an archive
/// that its offsets are in the entry (or in its inflated or decrypted data), and, for
/// an entry stored as it is, the value's offset in the archive file.
pub fn in_entry(out: &mut Value, name: &str, placement: &gamewire::open::archive::Placement) {
    if out["available"] != true {
        return;
    }
    out["entry"] = json!(name);
    out["space"] = json!(match out["space"].as_str() {
        Some(inner) if out["unpacked"] == true => {
            format!("{inner}, in {}", placement.describe(name))
        }
        _ => placement.describe(name),
    });
    // Offsets in data the entry unpacks to (a compressed blob inside it) have no place in
    // the archive file.
    let archive = out["offset"]
        .as_u64()
        .filter(|_| out["unpacked"] != true)
        .and_then(|o| placement.in_archive(o));
    if let Some(a) = archive {
        out["archive_offset"] = json!(a);
    } else {
        out["unpacked"] = json!(true);
    }
}

/// The answer for a value whose bytes are not known.
pub fn no_bytes(reason: &str) -> Value {
    json!({"available": false, "reason": reason})
}

/// A small stand-in for the document, for typing the value at `pointer` and its listed
/// `children` without building the whole document: the path to it as containers holding
/// only that path, and the tagged values (a Godot `Vector3`, `Color`, ...: the values that
/// carry a type beyond JSON) read whole, the value itself when it is tagged and each
/// listed child that is. Nothing else is read, so a level of plain values costs no more
/// than its listing. Where the library types values by more than tags (its `context`:
/// Resonite's BSON numbers and components), the listed scalars are put in too, and the
/// values it names (`extra`: a component's `Type`, the `Types` table) read whole.
pub fn partial(
    b: &Browse,
    toks: &[String],
    listed: &Value,
    (extra, scalars): (Vec<Vec<String>>, bool),
) -> Result<Value, String> {
    let empty = |kind: &str| {
        if kind == "array" {
            json!([])
        } else {
            json!({})
        }
    };
    let mut root = Value::Null;
    let tagged = listed.get("tag").is_some();
    let tagged_children = listed["children"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c.get("tag").is_some()));
    if !tagged && !tagged_children && !scalars {
        return Ok(root);
    }
    // The path: each ancestor as a container of its own kind (for the scalars alone, as
    // a map: the library finds a child by its token in either, and no listing is read).
    for i in 0..toks.len() {
        let kind = if tagged || tagged_children {
            b.listing(&super::doc::pointer_of(&toks[..i]), 0, 0)?
                .value
                .kind
        } else {
            "object"
        };
        place(&mut root, &toks[..i], empty(kind));
    }
    for t in &extra {
        if let Ok(v) = b.value(&super::doc::pointer_of(t)) {
            place(&mut root, t, v);
        }
    }
    if tagged {
        place(&mut root, toks, b.value(&super::doc::pointer_of(toks))?);
        return Ok(root);
    }
    // A scalar's listing holds its value as the document has it (a number as written).
    let scalar = |c: &Value| {
        c.get("value")
            .filter(|v| scalars && !v.is_string() && c.get("truncated").is_none())
            .cloned()
    };
    if let Some(v) = scalar(listed) {
        place(&mut root, toks, v);
        return Ok(root);
    }
    place(
        &mut root,
        toks,
        empty(listed["kind"].as_str().unwrap_or("object")),
    );
    for c in listed["children"].as_array().into_iter().flatten() {
        let listed_value = scalar(c);
        if c.get("tag").is_none() && listed_value.is_none() {
            continue;
        }
        let key = match &c["key"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let mut t = toks.to_vec();
        t.push(key);
        let v = match listed_value {
            Some(v) => v,
            None => b.value(&super::doc::pointer_of(&t))?,
        };
        place(&mut root, &t, v);
    }
    Ok(root)
}

/// Puts `v` at `toks` in `root`, making the containers on the way (lists padded with
/// nulls up to an index).
fn place(root: &mut Value, toks: &[String], v: Value) {
    let Some((last, up)) = toks.split_last() else {
        *root = v;
        return;
    };
    let mut at = root;
    for t in up {
        at = match at {
            Value::Array(a) => match t.parse::<usize>() {
                Ok(i) => {
                    if a.len() <= i {
                        a.resize(i + 1, Value::Null);
                    }
                    &mut a[i]
                }
                Err(_) => return,
            },
            Value::Object(m) => m.entry(t.clone()).or_insert(Value::Null),
            _ => return,
        };
    }
    match at {
        Value::Array(a) => {
            if let Ok(i) = last.parse::<usize>() {
                if a.len() <= i {
                    a.resize(i + 1, Value::Null);
                }
                if a[i].is_null() || !v.is_null() {
                    a[i] = v;
                }
            }
        }
        Value::Object(m) => {
            m.insert(last.clone(), v);
        }
        _ => {}
    }
}

/// A file read through its view whose edits the library makes on its bytes
/// ([`Browse::edit`]): the edits of one request, all or none, on `from`; gives the file
/// edited and the operations that undo them (in the order to apply them). Reads and
/// edits only the values on the way to each edit: no document is built. Each edit's
/// value must fit its place's type (checked on a small stand-in, as listings are typed)
/// and the format must hold it (the format's message).
pub fn patch(
    from: &std::sync::Arc<Browse>,
    types: &gamewire::open::types::Types,
    ops: &[Value],
) -> Result<(std::sync::Arc<Browse>, Vec<Value>), String> {
    let mut b = from.clone();
    let mut undo = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let step = || -> Result<(Browse, Value), String> {
            let (name, toks) = op_of(op)?;
            let pointer = super::doc::pointer_of(&toks);
            if !types.is_none() {
                super::typed::check_op(types, &stand_in(&b, types, &toks)?, op)?;
            }
            let value = || op.get("value").ok_or("no \"value\"".to_string());
            let edit = match name {
                "replace" => Edit::Replace(value()?),
                "add" => Edit::Add(value()?),
                "$insert" => Edit::Insert(
                    op["index"].as_u64().ok_or("no \"index\"")? as usize,
                    value()?,
                ),
                "remove" => Edit::Remove,
                other => return Err(format!("unknown op {other:?}")),
            };
            // The edit first: its message names what is wrong with it.
            let next = b.edit(&pointer, edit)?;
            Ok((next, inverse(&b, name, &toks)?))
        };
        let (next, inverse) = step().map_err(|e| format!("edit {i}: {e}"))?;
        b = std::sync::Arc::new(next);
        undo.push(inverse);
    }
    undo.reverse();
    Ok((b, undo))
}

use gamewire::open::splice::Edit;

/// A small stand-in for the document, for checking an edit at `toks` against its
/// place's type. Where the library types the format by more than tags (Resonite: BSON
/// number types, a component's members), the value at `toks` (or, for a new member, its
/// parent) with the scalars listed there and the values the library names (its
/// `context`), the value itself read whole only where the library's view holds it
/// whole ([`Listing::whole`]: an int64's `$numberLong` tag, a scalar); else the nearest
/// tagged value holding the place (a vector, a packed array: the values whose parts
/// have types) within three levels, read whole, on its path.
fn stand_in(
    b: &Browse,
    types: &gamewire::open::types::Types,
    toks: &[String],
) -> Result<Value, String> {
    let (extra, scalars) = types.context(toks);
    if scalars {
        let at = |t: &[String]| node(b, &super::doc::pointer_of(t), 0, 0);
        return match at(toks) {
            Ok(listed) => {
                let mut root = partial(b, toks, &listed, (extra, true))?;
                // What the format's view holds whole, as the document holds it (an
                // int64 as its `$numberLong` tag, a scalar): the library says which.
                let pointer = super::doc::pointer_of(toks);
                if b.listing(&pointer, 0, 0)?.whole {
                    place(&mut root, toks, b.value(&pointer)?);
                }
                Ok(root)
            }
            Err(_) if !toks.is_empty() => {
                let up = &toks[..toks.len() - 1];
                partial(b, up, &at(up)?, (extra, true))
            }
            Err(e) => Err(e),
        };
    }
    for i in (toks.len().saturating_sub(3)..toks.len()).rev() {
        let up = &toks[..i];
        let Ok(listed) = node(b, &super::doc::pointer_of(up), 0, 0) else {
            continue;
        };
        if listed.get("tag").is_some() {
            return partial(b, up, &listed, (Vec::new(), false));
        }
    }
    Ok(Value::Null)
}

/// One JSON Patch operation's name and tokens.
fn op_of(op: &Value) -> Result<(&str, Vec<String>), String> {
    let name = op["op"].as_str().ok_or("no \"op\"")?;
    let path = op["path"].as_str().ok_or("no \"path\"")?;
    Ok((name, super::doc::tokens(path)?))
}

/// The operation that undoes `name` at `toks`, read from the file before it is made
/// (the value replaced or removed, where a removed member was).
fn inverse(b: &Browse, name: &str, toks: &[String]) -> Result<Value, String> {
    let path = super::doc::pointer_of(toks);
    if name == "replace" {
        return Ok(json!({"op": "replace", "path": path, "value": b.value(&path)?}));
    }
    let Some((last, up)) = toks.split_last() else {
        return Err("the whole document can only be replaced".into());
    };
    let parent = super::doc::pointer_of(up);
    let listed = b.listing(&parent, 0, 0)?;
    if listed.value.kind == "array" {
        return Ok(match name {
            "remove" => json!({"op": "add", "path": path, "value": b.value(&path)?}),
            _ => {
                let index = if last == "-" {
                    listed.value.count.unwrap_or(0)
                } else {
                    last.parse::<usize>()
                        .map_err(|_| format!("{last:?} is not an index"))?
                };
                json!({"op": "remove", "path": format!("{parent}/{index}")})
            }
        });
    }
    let old = b.value(&path).ok();
    Ok(match (name, old) {
        ("remove", None) => return Err(format!("no key {last:?}")),
        // Put back where it was: key order is kept in the file.
        (_, Some(old)) if name != "add" => {
            json!({"op": "$insert", "path": path, "index": position(b, &parent, last)?, "value": old})
        }
        (_, Some(old)) => json!({"op": "replace", "path": path, "value": old}),
        (_, None) => json!({"op": "remove", "path": path}),
    })
}

/// The position of the member `key` among the members of the object at `parent`.
fn position(b: &Browse, parent: &str, key: &str) -> Result<usize, String> {
    const CHUNK: usize = 4096;
    let mut at = 0;
    loop {
        let l = b.listing(parent, at, CHUNK)?;
        if l.children.is_empty() {
            return Err(format!("no key {key:?}"));
        }
        if let Some(i) = l
            .children
            .iter()
            .position(|c| matches!(&c.key, Key::Name(n) if n == key))
        {
            return Ok(at + i);
        }
        at += l.children.len();
    }
}

/// The differences between the file as read (`base`) and as edited, as the page lists
/// them (the document path's form).
pub fn changes(base: &Browse, now: &Browse, limit: usize) -> Result<Value, String> {
    let (found, more) = base.diff(now, limit)?;
    let short = |v: &Option<Value>| match v {
        None => Value::Null,
        Some(v) => json!(super::doc::clip(&v.to_string(), 200)),
    };
    let out: Vec<Value> = found
        .iter()
        .map(|c| {
            let what = match (&c.old, &c.new) {
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            };
            json!({"pointer": c.pointer, "old": short(&c.old), "new": short(&c.new), "what": what})
        })
        .collect();
    Ok(json!({"changes": out, "more": more}))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real Resonite avatar read through its view.
    fn avatar() -> (Browse, gamewire::open::types::Types) {
        fixture("resonite/real/resonite-avatar-root-id.brson")
    }

    /// A fixture read through its view.
    fn fixture(name: &str) -> (Browse, gamewire::open::types::Types) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(name);
        let opened = gamewire::open(
            std::fs::read(&path).unwrap(),
            Some(&path),
            &gamewire::SideFiles::none(),
            &gamewire::OpenOptions::default(),
        )
        .unwrap();
        let types = gamewire::open::types::Types::of(&opened);
        (Browse::new(opened).unwrap(), types)
    }

    fn toks(p: &str) -> Vec<String> {
        super::super::doc::tokens(p).unwrap()
    }

    /// The edit check's stand-in reads a value whole where the library's view holds it
    /// whole (an int64's `$numberLong` tag), and not a container of a few children
    /// (the size guess it had read every value of up to 4 children whole: here a
    /// member `{"ID", "Data": [x, y, z]}`, whose vector it does not need).
    #[test]
    fn the_edit_check_reads_whole_what_the_library_holds_whole() {
        let (b, types) = avatar();
        let v = stand_in(&b, &types, &toks("/Object/OrderOffset/Data")).unwrap();
        let whole = b.value("/Object/OrderOffset/Data").unwrap();
        assert!(whole.get("$numberLong").is_some(), "{whole}");
        assert_eq!(v.pointer("/Object/OrderOffset/Data"), Some(&whole), "{v}");
        let listed = b.listing("/Object/Position", 0, 0).unwrap();
        assert_eq!(listed.value.count, Some(2));
        assert!(!listed.whole);
        let v = stand_in(&b, &types, &toks("/Object/Position")).unwrap();
        let position = v.pointer("/Object/Position").expect("the place");
        assert!(position.get("Data").is_none(), "{v}");
        // A component of the vector: its listed numbers are there, as the check needs.
        let v = stand_in(&b, &types, &toks("/Object/Position/Data/0")).unwrap();
        assert_eq!(
            v.pointer("/Object/Position/Data/0"),
            b.value("/Object/Position/Data/0").ok().as_ref(),
            "{v}"
        );
    }

    /// A search read a page at a time gives the pages of one whole search; a kept
    /// position is read on only on the view it was made on (here another file's,
    /// which would give other hits), else the page is walked to again.
    #[test]
    fn search_pages_read_on_only_on_their_own_view() {
        let a = std::sync::Arc::new(avatar().0);
        let b = std::sync::Arc::new(fixture("resonite/real/neos-holder.7zbson").0);
        let texts = |v: &Value| -> Vec<String> {
            v["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["pointer"].as_str().unwrap().to_owned())
                .collect()
        };
        for view in [&a, &b] {
            let whole = texts(&search(view, "d", usize::MAX));
            assert!(whole.len() > 12, "{}", whole.len());
            let (first, kept) = search_page(view, "d", 0, 5, None);
            assert_eq!(texts(&first), whole[..5]);
            let kept = kept.expect("more hits");
            let (second, _) = search_page(view, "d", 5, 5, Some(&kept));
            assert_eq!(texts(&second), whole[5..10]);
            // The same position on the other file: not read on there.
            let other = if std::sync::Arc::ptr_eq(view, &a) {
                &b
            } else {
                &a
            };
            let theirs = texts(&search(other, "d", usize::MAX));
            let (page, _) = search_page(other, "d", 5, 5, Some(&kept));
            assert_eq!(texts(&page), theirs[5..10]);
            // Another search's position is not read on either.
            let (page, _) = search_page(view, "e", 5, 5, Some(&kept));
            let es = texts(&search(view, "e", usize::MAX));
            assert_eq!(texts(&page), es[5..10.min(es.len())]);
        }
    }
}
