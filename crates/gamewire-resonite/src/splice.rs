//! Edits of checked BSON without reading it into a tree: what a browser of big files
//! needs to change one value of a 100 MB file without building its document.
//!
//! [`splice`] applies one [`Edit`] at a JSON Pointer of the lossless JSON mapping
//! ([`crate::json`]) to BSON the view checked ([`crate::bson_view`]) and gives the new
//! BSON:
//!
//! - Replacing a value writes the element again (its type byte, its key, the new value
//!   from its JSON as `encode FILE.json` reads it) in place of the old one.
//! - Adding or removing a member of a plain document (the mapping's JSON objects) inserts
//!   or cuts one element; adding or removing an item of an array does so and writes
//!   the keys of the items after it again (an array's keys are `"0"`, `"1"`, ...).
//! - An edit inside a value the mapping gives whole (a binary value, a document in
//!   `"$entries"` form) writes that value again from its JSON with the edit applied.
//! - Every document and array on the way to the edit carries its byte length: each is
//!   changed by the difference.
//!
//! Every other byte stays as it was. What BSON cannot hold (a key with a NUL, a
//! string past 2 GiB) is refused with the writer's message.

use crate::bson_view::{BsonView, DocumentRef, Element, ValueRef};
use crate::json::{document_from_json, value_from_json};
use crate::json_view::{is_plain_ref, ValueRefView};
use crate::value::{Document, Value};
use crate::{bson_write, Options};
use gamewire_core::lazy_json::{apply_edit, index_token, Edit};
use gamewire_core::{Error, Result};
use std::ops::Range;

/// `bson` (checked by the view) with `edit` applied at `toks` (JSON Pointer tokens of
/// the JSON mapping), checked again. Errors: no value there, or a value BSON cannot
/// hold.
pub fn splice(bson: &[u8], toks: &[String], edit: Edit<'_>, opts: &Options) -> Result<Vec<u8>> {
    let max_depth = opts.limits.max_depth;
    let root = BsonView::new(bson, opts)?.root();
    let out = edited(bson, root, toks, edit, max_depth)?;
    BsonView::new(&out, opts)?;
    Ok(out)
}

/// The edit, not checked again.
fn edited(
    bson: &[u8],
    root: DocumentRef<'_>,
    toks: &[String],
    edit: Edit<'_>,
    max_depth: usize,
) -> Result<Vec<u8>> {
    // Containers holding the edit: where each starts (its length prefix).
    let mut holders: Vec<usize> = Vec::new();
    let mut cur = ValueRef::Document(root);
    let mut at = 0;
    // The element holding `cur`: key, and where it is.
    let mut elem: Option<(&str, Range<usize>)> = None;
    let mut i = 0;
    while i < toks.len() {
        let (doc, array) = match cur {
            ValueRef::Document(d) if is_plain_ref(d) => (d, false),
            ValueRef::Array(a) => (a.as_document(), true),
            _ => break,
        };
        if edit.changes_count() && i + 1 == toks.len() {
            holders.push(at);
            return structural(bson, &holders, doc, array, &toks[i], edit, max_depth);
        }
        let e = find(doc, array, &toks[i])
            .ok_or_else(|| Error::msg(format!("no value at {:?}", pointer(&toks[..=i]))))?;
        holders.push(at);
        elem = Some((e.key, at + e.start..at + e.end));
        cur = e.value;
        at += e.value_start;
        i += 1;
    }
    let mut j = serde_json::to_value(ValueRefView(cur))
        .map_err(|e| Error::msg(format!("cannot read the value: {e}")))?;
    apply_edit(&mut j, &toks[i..], edit)
        .map_err(|e| Error::msg(format!("at {}: {e}", pointer(toks))))?;
    match elem {
        // The root document, written whole.
        None => bson_write::to_vec(&document_from_json(&j, max_depth)?, max_depth),
        Some((key, range)) => {
            let bytes = element(key, value_from_json(&j, max_depth)?, max_depth)?;
            spliced(bson, range, &bytes, &holders)
        }
    }
}

/// The element of `doc` under `tok` (an array's by index).
fn find<'a>(doc: DocumentRef<'a>, array: bool, tok: &str) -> Option<Element<'a>> {
    if array {
        doc.elements().nth(index_token(tok)?)
    } else {
        doc.elements().find(|e| e.key == tok)
    }
}

/// A JSON Pointer of tokens, for messages.
fn pointer(toks: &[String]) -> String {
    toks.iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// One element's bytes: type byte, key, value.
fn element(key: &str, value: Value<'_>, max_depth: usize) -> Result<Vec<u8>> {
    let mut d = Document::new();
    d.push(key, value);
    let whole = bson_write::to_vec(&d, max_depth)?;
    Ok(whole[4..whole.len() - 1].to_vec())
}

/// Adds or removes a member of the plain document (an item of the array) that starts
/// at the last of `holders`.
fn structural(
    bson: &[u8],
    holders: &[usize],
    doc: DocumentRef<'_>,
    array: bool,
    tok: &str,
    edit: Edit<'_>,
    max_depth: usize,
) -> Result<Vec<u8>> {
    let at = *holders.last().expect("the container itself");
    let end = at + doc.as_bytes().len() - 1; // its terminating NUL
    let value = |j: &serde_json::Value| value_from_json(j, max_depth);
    if array {
        let n = doc.len();
        let index = match (edit, tok) {
            (Edit::Add(_), "-") => n,
            _ => index_token(tok).ok_or_else(|| Error::msg(format!("{tok:?} is not an index")))?,
        };
        let start = |e: Option<Element<'_>>| e.map_or(end, |e| at + e.start);
        let (from, mut bytes, shift, skip) = match edit {
            Edit::Add(v) | Edit::Insert(_, v) if index <= n => (
                start(doc.elements().nth(index)),
                element(&index.to_string(), value(v)?, max_depth)?,
                1,
                index,
            ),
            Edit::Remove if index < n => {
                (start(doc.elements().nth(index)), Vec::new(), 0, index + 1)
            }
            _ => return Err(Error::msg(format!("index {index} is past the end ({n})"))),
        };
        // The items after: keys written again, one more (or less) than before.
        for (k, e) in doc.elements().enumerate().skip(skip) {
            bytes.push(bson[at + e.start]);
            bytes.extend_from_slice((k + shift - (skip - index)).to_string().as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(&bson[at + e.value_start..at + e.end]);
        }
        return spliced(bson, from..end, &bytes, holders);
    }
    let found = doc.elements().position(|e| e.key == tok);
    let nth = |i: usize| doc.elements().nth(i).expect("counted");
    let new = |v: &serde_json::Value| -> Result<Vec<u8>> {
        if tok.starts_with('$') {
            return Err(Error::msg(format!(
                "a member whose key starts with \"$\" ({tok:?}) is written in the \"$entries\" form: edit the document whole"
            )));
        }
        element(tok, value(v)?, max_depth)
    };
    match (edit, found) {
        (Edit::Add(v), Some(i)) => {
            let e = nth(i);
            let bytes = element(tok, value(v)?, max_depth)?;
            spliced(bson, at + e.start..at + e.end, &bytes, holders)
        }
        (Edit::Add(v), None) => spliced(bson, end..end, &new(v)?, holders),
        (Edit::Insert(pos, v), found) => {
            let bytes = new(v)?;
            // Where it goes among the other members, and the old one taken out.
            let others: Vec<Range<usize>> = doc
                .elements()
                .enumerate()
                .filter(|(i, _)| Some(*i) != found)
                .map(|(_, e)| at + e.start..at + e.end)
                .collect();
            let to = others.get(pos).map_or(end, |r| r.start);
            match found.map(nth) {
                Some(e) => {
                    let old = at + e.start..at + e.end;
                    // The stretch from the first of the two places to the last, written again.
                    let (lo, hi) = (old.start.min(to), old.end.max(to));
                    let mut mid = Vec::new();
                    if to <= old.start {
                        mid.extend_from_slice(&bytes);
                        mid.extend_from_slice(&bson[to..old.start]);
                    } else {
                        mid.extend_from_slice(&bson[old.end..to]);
                        mid.extend_from_slice(&bytes);
                    }
                    spliced(bson, lo..hi, &mid, holders)
                }
                None => spliced(bson, to..to, &bytes, holders),
            }
        }
        (Edit::Remove, Some(i)) => {
            let e = nth(i);
            spliced(bson, at + e.start..at + e.end, &[], holders)
        }
        (Edit::Remove, None) => Err(Error::msg(format!("no key {tok:?}"))),
        (Edit::Replace(_), _) => unreachable!("not a change of count"),
    }
}

/// `bson` with `cut` replaced by `bytes` and the length of each of `holders` (the
/// containers holding `cut`) changed by the difference.
fn spliced(bson: &[u8], cut: Range<usize>, bytes: &[u8], holders: &[usize]) -> Result<Vec<u8>> {
    let delta = bytes.len() as i64 - cut.len() as i64;
    let mut out = Vec::with_capacity(bson.len() + bytes.len() - cut.len());
    out.extend_from_slice(&bson[..cut.start]);
    out.extend_from_slice(bytes);
    out.extend_from_slice(&bson[cut.end..]);
    for &h in holders {
        let len = i32::from_le_bytes(out[h..h + 4].try_into().expect("4 bytes")) as i64 + delta;
        let len = i32::try_from(len)
            .map_err(|_| Error::msg("the document would pass the 2 GiB BSON can hold"))?;
        out[h..h + 4].copy_from_slice(&len.to_le_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::document_to_json;
    use gamewire_core::lazy_json::OwnedEdit as Op;
    use serde_json::json;

    fn bson(j: &serde_json::Value) -> Vec<u8> {
        bson_write::to_vec(&document_from_json(j, 64).unwrap(), 64).unwrap()
    }

    #[test]
    fn the_bytes_are_those_of_the_document_edited() {
        let doc = json!({"a": [1, "x", [2.5], {"d": 3}], "b": {"c": true}, "s": "text"});
        let data = bson(&doc);
        let cases: Vec<(Vec<&str>, Op)> = vec![
            (vec!["s"], Op::Replace(json!("longer text"))),
            (vec!["s"], Op::Replace(json!(5))),
            (vec!["a", "0"], Op::Remove),
            (vec!["a", "1"], Op::Add(json!("new"))),
            (vec!["a", "-"], Op::Add(json!([1, 2]))),
            (vec!["a", "3", "d"], Op::Replace(json!("deep"))),
            (vec!["a", "2", "0"], Op::Remove),
            (vec!["b", "c"], Op::Remove),
            (vec!["b", "e"], Op::Add(json!({"f": null}))),
            (vec!["b", "e"], Op::Insert(0, json!(1))),
            (vec!["s"], Op::Insert(0, json!("moved"))),
            (vec!["a"], Op::Insert(2, json!("moved"))),
            (vec![], Op::Replace(json!({"only": 1}))),
        ];
        for (p, op) in &cases {
            let e = op.edit();
            let toks: Vec<String> = p.iter().map(|t| t.to_string()).collect();
            let mut want = doc.clone();
            apply_edit(&mut want, &toks, e).unwrap();
            let got = splice(&data, &toks, e, &Options::default()).unwrap();
            assert_eq!(got, bson(&want), "{p:?} {e:?}");
            let back = crate::read_bson(&got, &Options::default()).unwrap();
            assert_eq!(document_to_json(&back, 64).unwrap(), want, "{p:?}");
        }
    }

    #[test]
    fn what_bson_cannot_hold_is_refused() {
        let data = bson(&json!({"a": [1]}));
        let o = Options::default();
        let t = |p: &[&str]| p.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert!(splice(&data, &t(&["a\u{0}b"]), Edit::Add(&json!(1)), &o).is_err());
        assert!(splice(&data, &t(&["$x"]), Edit::Add(&json!(1)), &o).is_err());
        assert!(splice(&data, &t(&["a", "3"]), Edit::Remove, &o).is_err());
        assert!(splice(&data, &t(&["nothing", "here"]), Edit::Remove, &o).is_err());
    }
}
