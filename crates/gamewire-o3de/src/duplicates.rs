//! Duplicate member names in input JSON.
//!
//! `serde_json::Value` keeps one member per name (the last value, at the first
//! position), but O3DE reads JSON with rapidjson, which keeps every member, and its
//! class and map loaders visit every member in document order. [`parse_json_keeping_duplicates`]
//! parses like [`crate::parse_json`] and also records, for each object that holds a
//! name more than once, all of its members in document order, keyed by the object's
//! JSON Pointer. The loader ([`crate::load_bytes`]) then visits those members as O3DE does,
//! and `$import` resolution ([`crate::import::resolve_imports_keeping_duplicates`]) carries
//! the records of imported files into the document.
//!
//! Limit: duplicates nested inside a member that is itself overridden by a later
//! duplicate are not recorded (their JSON Pointer is shared with the later member).

use crate::comments::{offset_of, strip_comments_with};
use crate::doc::Syntax;
use gamewire_core::{Error, ErrorKind, Result};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Objects that hold a member name more than once: JSON Pointer of the object → every
/// member, in document order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Duplicates(pub HashMap<String, Vec<(String, Json)>>);

impl Duplicates {
    /// True when no object had duplicate names.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The members, in document order, of the object at `pointer` if it had duplicates.
    pub fn get(&self, pointer: &str) -> Option<&Vec<(String, Json)>> {
        self.0.get(pointer)
    }

    /// Moves every pointer to sit under `prefix` (for a document placed inside another,
    /// such as an imported file at the place of its `$import`).
    pub fn nest(self, prefix: &str) -> Duplicates {
        if prefix.is_empty() {
            return self;
        }
        Duplicates(
            self.0
                .into_iter()
                .map(|(k, v)| (format!("{prefix}{k}"), v))
                .collect(),
        )
    }

    /// Forgets the objects at `pointer` and under it (a value that was replaced).
    pub fn remove_under(&mut self, pointer: &str) {
        if self.0.is_empty() {
            return;
        }
        self.0.retain(|k, _| {
            !(k.len() >= pointer.len()
                && k.starts_with(pointer)
                && (k.len() == pointer.len() || k.as_bytes()[pointer.len()] == b'/'))
        });
    }

    /// Adds the objects recorded in `other` (pointers already relative to the same root).
    pub fn extend(&mut self, other: Duplicates) {
        self.0.extend(other.0);
    }

    /// Follows a JSON Merge Patch about to be applied to `target` (the value at
    /// `pointer`, as `serde_json` holds it): in an object with duplicate names the patch
    /// changes the *first* member of a name, as O3DE's `ApplyMergePatch` (rapidjson's
    /// `FindMember`) does; values the patch replaces lose their records.
    pub fn merge_patch(&mut self, pointer: &str, target: &Json, patch: &Json) {
        let (Json::Object(p), Json::Object(t)) = (patch, target) else {
            self.remove_under(pointer);
            return;
        };
        for (name, pv) in p {
            let mut child = String::with_capacity(pointer.len() + name.len() + 1);
            child.push_str(pointer);
            child.push('/');
            escape_into(&mut child, name);
            // Whether serde_json's member (the last of the name) is the one patched.
            let mut shared = true;
            if let Some(list) = self.0.get_mut(pointer) {
                shared = list.iter().filter(|(k, _)| k == name).count() <= 1;
                match list.iter().position(|(k, _)| k == name) {
                    Some(i) if pv.is_null() => {
                        list.remove(i);
                    }
                    Some(i) if pv.is_object() => {
                        crate::patch::apply_merge_patch(&mut list[i].1, pv);
                    }
                    Some(i) => list[i].1 = pv.clone(),
                    None if pv.is_null() => {}
                    None => {
                        let mut v = Json::Null;
                        crate::patch::apply_merge_patch(&mut v, pv);
                        list.push((name.clone(), v));
                    }
                }
            }
            if shared {
                match (pv, t.get(name)) {
                    (Json::Object(_), Some(tv)) => self.merge_patch(&child, tv, pv),
                    _ => self.remove_under(&child),
                }
            }
        }
    }

    /// Moves every pointer under `prefix` to the root (for a value taken out of a
    /// document, such as an envelope's `/ClassData`); others are dropped.
    pub fn rebase(self, prefix: &str) -> Duplicates {
        Duplicates(
            self.0
                .into_iter()
                .filter_map(|(k, v)| {
                    let rest = k.strip_prefix(prefix)?;
                    (rest.is_empty() || rest.starts_with('/')).then(|| (rest.to_string(), v))
                })
                .collect(),
        )
    }
}

/// Parses JSON that may hold comments (like [`crate::parse_json`]) and records the
/// objects that hold duplicate member names.
pub fn parse_json_keeping_duplicates(bytes: &[u8]) -> Result<(Json, Duplicates)> {
    parse_json_keeping_duplicates_with(bytes, Syntax::ASSET)
}

/// [`parse_json_keeping_duplicates`] with the syntax of the file's O3DE reader
/// (trailing commas in settings registry files: [`Syntax::of`]).
pub fn parse_json_keeping_duplicates_with(
    bytes: &[u8],
    syntax: Syntax,
) -> Result<(Json, Duplicates)> {
    let clean = strip_comments_with(bytes, syntax)?;
    let mut state = State::default();
    let mut de = serde_json::Deserializer::from_slice(&clean);
    let v = Seed(&mut state)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v))
        .map_err(|e| {
            Error::at(
                offset_of(&clean, e.line(), e.column()),
                ErrorKind::Message(format!("invalid JSON: {e}")),
            )
        })?;
    Ok((v, Duplicates(state.dups)))
}

#[derive(Default)]
struct State {
    pointer: String,
    dups: HashMap<String, Vec<(String, Json)>>,
}

fn escape_into(out: &mut String, s: &str) {
    // Most member names need no escaping: copy them whole.
    if !s.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// True when two members share a name: pairwise for small objects (the common case,
/// no hashing), through a set for large ones.
fn has_repeated_name(members: &[(String, Json)]) -> bool {
    let n = members.len();
    if n < 2 {
        return false;
    }
    if n <= 16 {
        return (1..n).any(|i| members[..i].iter().any(|(k, _)| *k == members[i].0));
    }
    let mut seen = HashSet::with_capacity(n);
    members.iter().any(|(k, _)| !seen.insert(k.as_str()))
}

struct Seed<'s>(&'s mut State);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Json;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Json, E> {
        Ok(Json::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Json, E> {
        Ok(Json::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> std::result::Result<Json, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_unit<E>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> std::result::Result<Json, A::Error> {
        let state = self.0;
        let mut out = Vec::new();
        loop {
            let len = state.pointer.len();
            state.pointer.push('/');
            let _ = fmt::Write::write_fmt(&mut state.pointer, format_args!("{}", out.len()));
            let item = a.next_element_seed(Seed(state));
            state.pointer.truncate(len);
            match item? {
                Some(v) => out.push(v),
                None => return Ok(Json::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> std::result::Result<Json, A::Error> {
        let state = self.0;
        let mut members: Vec<(String, Json)> = Vec::new();
        while let Some(k) = a.next_key::<String>()? {
            let len = state.pointer.len();
            state.pointer.push('/');
            escape_into(&mut state.pointer, &k);
            let v = a.next_value_seed(Seed(state));
            state.pointer.truncate(len);
            members.push((k, v?));
        }
        if has_repeated_name(&members) {
            state.dups.insert(state.pointer.clone(), members.clone());
        }
        // As serde_json: the last value of a name, at the name's first position.
        let mut map = Map::with_capacity(members.len());
        for (k, v) in members {
            map.insert(k, v);
        }
        Ok(Json::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeated_names_in_small_and_large_objects() {
        let m = |names: &[String]| -> Vec<(String, Json)> {
            names.iter().map(|n| (n.clone(), Json::Null)).collect()
        };
        let mut names: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        for n in [0, 1, 2, 16, 17, 40] {
            assert!(!has_repeated_name(&m(&names[..n])), "{n}");
        }
        names[15] = "k3".into();
        assert!(has_repeated_name(&m(&names[..16])));
        assert!(has_repeated_name(&m(&names)));
        names[15] = "k15".into();
        names[39] = "k38".into();
        assert!(has_repeated_name(&m(&names)));
    }

    #[test]
    fn merge_patch_changes_the_first_member_of_a_name() {
        let (v, mut d) = parse_json_keeping_duplicates(
            br#"{"a": 1, "a": 2, "o": {"k": 1, "k": 2}, "p": {"q": {"z": 0, "z": 1}}}"#,
        )
        .unwrap();
        let patch = json!({"a": null, "o": {"k": 7, "new": 1}, "p": {"q": {"z": 5}}});
        d.merge_patch("", &v, &patch);
        assert_eq!(
            d.get("").unwrap(),
            &vec![
                ("a".into(), json!(2)),
                // Member values hold serde_json's view (last value of a name).
                ("o".into(), json!({"k": 7, "new": 1})),
                ("p".into(), json!({"q": {"z": 5}})),
            ]
        );
        assert_eq!(
            d.get("/o").unwrap(),
            &vec![
                ("k".into(), json!(7)),
                ("k".into(), json!(2)),
                ("new".into(), json!(1))
            ]
        );
        assert_eq!(
            d.get("/p/q").unwrap(),
            &vec![("z".into(), json!(5)), ("z".into(), json!(1))]
        );
        // A patch that replaces a value drops what was recorded under it.
        d.merge_patch("", &v, &json!({"p": 3}));
        assert!(d.get("/p/q").is_none());
        d.merge_patch("", &v, &json!([1]));
        assert!(d.is_empty());
    }

    #[test]
    fn records_objects_with_duplicates() {
        let (v, d) = parse_json_keeping_duplicates(
            br#"{"a": 1, "b": {"x": 1, "x": 2}, "c~/": [{"k": 0, "k": [1]}], "a": 3} // c"#,
        )
        .unwrap();
        assert_eq!(v, json!({"a": 3, "b": {"x": 2}, "c~/": [{"k": [1]}]}));
        assert_eq!(d.0.len(), 3);
        assert_eq!(
            d.get("/b").unwrap(),
            &vec![("x".into(), json!(1)), ("x".into(), json!(2))]
        );
        assert_eq!(
            d.get("/c~0~1/0").unwrap(),
            &vec![("k".into(), json!(0)), ("k".into(), json!([1]))]
        );
        assert_eq!(d.get("").unwrap().len(), 4);
        let r = d.clone().rebase("/b");
        assert_eq!(r.0.keys().collect::<Vec<_>>(), vec![""]);
        let (_, none) = parse_json_keeping_duplicates(br#"{"a": {"b": 1}, "A": 2}"#).unwrap();
        assert!(none.is_empty());
        let mut n = d.clone().nest("/in");
        assert!(n.get("/in/b").is_some() && n.get("/b").is_none());
        n.remove_under("/in/c~0~1");
        assert_eq!(n.0.len(), 2);
        n.remove_under("/i");
        assert_eq!(n.0.len(), 2, "a prefix that is not a whole segment");
        let e = parse_json_keeping_duplicates(b"{\n \"a\": x}").unwrap_err();
        assert_eq!(e.offset(), Some(8));
    }
}
