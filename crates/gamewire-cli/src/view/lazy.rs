//! Files looked at without being decoded: a Godot or Resonite file opened by the page is
//! kept as its bytes and the index of the library's borrowed view
//! ([`gamewire::open::browse::Browse`]), and the tree, values, search and the bytes of
//! a value are read from it. The JSON document is built only when the page first edits
//! the file (or compares it), as `decode FILE` writes it; the index stays for the bytes
//! of the values not edited. An O3DE file's values are found in its own text. No format
//! rule lives here: the library lists and finds, this renders.

use gamewire::open::browse::{Browse, Listing};
use gamewire_core::lazy_json::{Key, Summary};
use serde_json::{json, Value};

/// A file read through its view.
pub struct LazyFile {
    /// The file and its view's index.
    pub browse: Browse,
    /// True once the JSON document was built (on the first edit).
    pub converted: bool,
}

/// Bytes shown in the hex pane at most.
pub const MAX_BYTES: usize = 4096;

/// The listing of a value and a page of its children, as [`super::doc::OpenFile::node`]
/// renders a document's.
pub fn node(b: &Browse, pointer: &str, offset: usize, limit: usize) -> Result<Value, String> {
    let Listing { value, children } = b.listing(pointer, offset, limit)?;
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

/// The search's answer as the document path gives it.
pub fn search(b: &Browse, q: &str, limit: usize) -> Value {
    let (hits, more) = b.search(q, limit);
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
