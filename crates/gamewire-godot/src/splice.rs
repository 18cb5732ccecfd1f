//! Edits of Variant bytes without decoding them: what a browser of big files needs to
//! change one value of a 100 MB save without building its tree.
//!
//! [`splice`] applies one [`Edit`] at a JSON Pointer of the lossless JSON mapping
//! ([`crate::json`]) to the value a [`Tape`] reads, and gives the new bytes:
//!
//! - Replacing a value encodes the new one (from its JSON, as `encode FILE.json` does)
//!   and puts its bytes in place of the old value's; nothing else changes, since a
//!   Variant's containers hold counts, not byte lengths.
//! - Adding or removing an item of a plain Array or a member of a plain Dictionary
//!   (the mapping's JSON arrays and objects) inserts or cuts that item's (key's and
//!   value's) bytes and changes the container's count by one (its high "shared" bit
//!   kept).
//! - An edit inside a value the mapping gives whole or tagged (a `Vector3`'s `"x"`, an
//!   item of a typed Array, an entry of a tagged Dictionary) re-encodes the smallest
//!   such value holding it, from its JSON with the edit applied: its own checks (an
//!   item of the wrong type, an integer out of range) refuse what the format cannot
//!   hold.
//!
//! Every byte outside the value (or item) edited, and the count, stays as it was.

use crate::json::{from_json, TYPE_KEY};
use crate::json_tape::is_plain;
use crate::tape::{Tape, ValueRef};
use crate::{encode, EncodeOptions, Kind, Value};
use gamewire_core::lazy_json::{apply_edit, index_token, Edit};
use gamewire_core::{Error, Result};
use std::ops::Range;

/// The bytes of `tape`'s value with `edit` applied at `toks` (JSON Pointer tokens of
/// the JSON mapping). Errors: no value there, or a value the format cannot hold (the
/// encoder's message).
pub fn splice(tape: &Tape<'_>, toks: &[String], edit: Edit<'_>) -> Result<Vec<u8>> {
    let version = tape.options().version;
    let eopts = EncodeOptions::new(version);
    let data = tape.input();
    // Down through plain containers: an edit of a count stops at the container.
    let mut cur = tape.root();
    let mut i = 0;
    while i < toks.len() && is_plain(&cur) {
        if edit.changes_count() && i + 1 == toks.len() {
            return structural(data, &cur, &toks[i], edit, &eopts);
        }
        cur = child(&cur, &toks[i])
            .ok_or_else(|| Error::msg(format!("no value at {:?}", pointer(&toks[..=i]))))?;
        i += 1;
    }
    if cur.is_bare() {
        return Err(Error::msg("a property name is not edited alone"));
    }
    // `cur` is edited whole: its JSON with the edit applied, encoded.
    let mut j = crate::json::to_json(&cur.to_value(), version);
    apply_edit(&mut j, &toks[i..], edit)
        .map_err(|e| Error::msg(format!("at {}: {e}", pointer(toks))))?;
    let value = from_json(&j, version)?;
    let bytes = encode(&value, &eopts)?;
    Ok(spliced(data, cur.range(), &bytes, None))
}

/// The child of a plain container under `tok`.
fn child<'t, 'a>(v: &ValueRef<'t, 'a>, tok: &str) -> Option<ValueRef<'t, 'a>> {
    match v.kind() {
        Kind::Array => v.items().nth(index_token(tok)?),
        _ => v.get(tok),
    }
}

/// A JSON Pointer of tokens, for messages.
fn pointer(toks: &[String]) -> String {
    toks.iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Adds or removes an item (member) of the plain container `c`, changing its count.
fn structural(
    data: &[u8],
    c: &ValueRef<'_, '_>,
    tok: &str,
    edit: Edit<'_>,
    eopts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let n = c.len();
    let encoded =
        |j: &serde_json::Value| -> Result<Vec<u8>> { encode(&from_json(j, eopts.version)?, eopts) };
    let (cut, bytes, grow): (Range<usize>, Vec<u8>, bool) = if c.kind() == Kind::Array {
        let at = |i: usize| c.items().nth(i).map(|x| x.range());
        let index = match (edit, tok) {
            (Edit::Add(_), "-") => n,
            _ => index_token(tok).ok_or_else(|| Error::msg(format!("{tok:?} is not an index")))?,
        };
        match edit {
            Edit::Add(v) | Edit::Insert(_, v) if index <= n => {
                let pos = at(index).map_or(c.range().end, |r| r.start);
                (pos..pos, encoded(v)?, true)
            }
            Edit::Remove if index < n => (at(index).expect("index < count"), Vec::new(), false),
            _ => return Err(Error::msg(format!("index {index} is past the end ({n})"))),
        }
    } else {
        if tok == TYPE_KEY {
            return Err(Error::msg(format!(
                "a Dictionary member named {TYPE_KEY:?} is written as a tagged Dictionary"
            )));
        }
        let entries: Vec<_> = c.entries().collect();
        let found = entries.iter().position(|(k, _)| k.as_str() == Some(tok));
        match (edit, found) {
            // A member that exists is replaced (JSON Patch `add`), in its place.
            (Edit::Add(v), Some(i)) => {
                let r = entries[i].1.range();
                return Ok(spliced(data, r, &encoded(v)?, None));
            }
            (Edit::Add(v), None) => {
                let pos = c.range().end;
                (pos..pos, member(tok, v, eopts)?, true)
            }
            (Edit::Insert(at, v), found) => {
                // Taken out, then put at its position among the others.
                let others: Vec<_> = entries
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| Some(*i) != found)
                    .map(|(_, e)| e)
                    .collect();
                let pos = others
                    .get(at)
                    .map_or(c.range().end, |(k, _)| k.range().start);
                let bytes = member(tok, v, eopts)?;
                if let Some(i) = found {
                    let (k, x) = &entries[i];
                    let mut out = spliced(data, k.range().start..x.range().end, &[], None);
                    let shift = x.range().end - k.range().start;
                    let pos = if pos > k.range().start {
                        pos - shift
                    } else {
                        pos
                    };
                    out.splice(pos..pos, bytes);
                    return Ok(out);
                }
                (pos..pos, bytes, true)
            }
            (Edit::Remove, Some(i)) => {
                let (k, x) = &entries[i];
                (k.range().start..x.range().end, Vec::new(), false)
            }
            (Edit::Remove, None) => return Err(Error::msg(format!("no key {tok:?}"))),
            (Edit::Replace(_), _) => unreachable!("not a change of count"),
        }
    };
    let count_at = c.children_start() - 4;
    let raw = u32::from_le_bytes(data[count_at..count_at + 4].try_into().expect("4 bytes"));
    let shared = raw & 0x8000_0000;
    let count = raw & 0x7fff_ffff;
    let count = if grow {
        count
            .checked_add(1)
            .filter(|c| *c <= 0x7fff_ffff)
            .ok_or_else(|| Error::msg("the container holds as many items as the format counts"))?
    } else {
        count - 1
    };
    Ok(spliced(data, cut, &bytes, Some((count_at, count | shared))))
}

/// A Dictionary member's bytes: its String key, then its value.
fn member(key: &str, v: &serde_json::Value, eopts: &EncodeOptions) -> Result<Vec<u8>> {
    let mut out = encode(&Value::String(key.into()), eopts)?;
    out.extend(encode(&from_json(v, eopts.version)?, eopts)?);
    Ok(out)
}

/// `data` with `cut` replaced by `bytes`, and a count (before `cut`) set.
fn spliced(data: &[u8], cut: Range<usize>, bytes: &[u8], count: Option<(usize, u32)>) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + bytes.len() - cut.len());
    out.extend_from_slice(&data[..cut.start]);
    out.extend_from_slice(bytes);
    out.extend_from_slice(&data[cut.end..]);
    if let Some((at, n)) = count {
        out[at..at + 4].copy_from_slice(&n.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::to_json;
    use crate::{DecodeOptions, Version};
    use gamewire_core::lazy_json::OwnedEdit as Op;
    use serde_json::json;

    fn bytes(j: serde_json::Value, v: Version) -> Vec<u8> {
        encode(&from_json(&j, v).unwrap(), &EncodeOptions::new(v)).unwrap()
    }

    fn edit(data: &[u8], v: Version, p: &[&str], e: Edit<'_>) -> Result<Vec<u8>> {
        let tape = Tape::with_options(data, &DecodeOptions::new(v)).unwrap();
        let toks: Vec<String> = p.iter().map(|t| t.to_string()).collect();
        splice(&tape, &toks, e)
    }

    #[test]
    fn the_bytes_are_those_of_the_value_edited() {
        for v in [Version::V3, Version::V4] {
            let doc = json!({"a": [1, "x", [2.5]], "b": {"c": true}, "v": {"$type": "Vector2", "value": [1.0, 2.0]}});
            let data = bytes(doc.clone(), v);
            let cases: Vec<(Vec<&str>, Op)> = vec![
                (vec!["a", "1"], Op::Replace(json!("longer text"))),
                (vec!["a", "0"], Op::Remove),
                (vec!["a", "-"], Op::Add(json!({"k": null}))),
                (vec!["a", "3"], Op::Add(json!(7))),
                (vec!["b", "c"], Op::Remove),
                (vec!["b", "d"], Op::Add(json!(-1))),
                (vec!["b", "d"], Op::Insert(0, json!(2))),
                (vec!["a"], Op::Remove),
                (vec!["z"], Op::Insert(1, json!("z"))),
                (vec!["v", "value", "1"], Op::Replace(json!(9.5))),
                (vec!["a", "2", "0"], Op::Replace(json!(1.25))),
            ];
            for (p, op) in &cases {
                let e = op.edit();
                let toks: Vec<String> = p.iter().map(|t| t.to_string()).collect();
                let mut want = doc.clone();
                gamewire_core::lazy_json::apply_edit(&mut want, &toks, e).unwrap();
                let got = edit(&data, v, p, e).unwrap();
                assert_eq!(got, bytes(want.clone(), v), "{v:?} {p:?} {e:?}");
                let back = crate::decode(&got, &DecodeOptions::new(v)).unwrap();
                assert_eq!(to_json(&back, v), want);
            }
        }
    }

    #[test]
    fn the_shared_bit_of_a_count_is_kept() {
        let v = Version::V3;
        let mut data = bytes(json!([1, 2, 3]), v);
        data[4..8].copy_from_slice(&(3u32 | 0x8000_0000).to_le_bytes());
        let got = edit(&data, v, &["0"], Edit::Remove).unwrap();
        assert_eq!(&got[4..8], &(2u32 | 0x8000_0000).to_le_bytes());
        assert_eq!(got.len(), data.len() - 8);
    }

    #[test]
    fn what_the_format_cannot_hold_is_refused() {
        let v = Version::V4;
        let data = bytes(
            json!({"a": [1], "t": {"$type": "PackedInt32Array", "value": [1]}}),
            v,
        );
        let e = edit(
            &data,
            v,
            &["a", "0"],
            Edit::Replace(&json!(18446744073709551615u64)),
        );
        assert!(e.is_err());
        let e = edit(
            &data,
            v,
            &["t", "value", "0"],
            Edit::Replace(&json!(3_000_000_000u64)),
        );
        assert!(e.is_err(), "a 32-bit item");
        assert!(edit(&data, v, &["$type"], Edit::Add(&json!(1))).is_err());
        assert!(edit(&data, v, &["a", "5"], Edit::Remove).is_err());
    }
}
