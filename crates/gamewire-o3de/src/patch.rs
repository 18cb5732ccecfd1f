//! JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386), apply and create, with
//! O3DE's `JsonMerger` rules and result codes.
//!
//! - Creating a JSON Patch walks objects member by member (added, then removed
//!   members), arrays index by index (extra entries added, missing ones removed from
//!   the back), and replaces anything else that differs.
//! - `test` compares with O3DE's [`crate::compare::compare`].
//! - A merge patch cannot write `null`s: creating one whose target holds a null
//!   reports `Unsupported`.

use crate::compare::compare;
use crate::report::{
    Outcome as O, Processing, Report, Reporter, Reporting, ResultCode, Seg, Task as T,
};
use serde_json::{Map, Value as Json};

type Code = ResultCode;

/// A parsed JSON Pointer token.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    name: String,
    index: Option<usize>,
}

/// Parses a JSON Pointer (RFC 6901); `None` when it is not valid.
fn parse_pointer(p: &str) -> Option<Vec<Token>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    let mut out = Vec::new();
    for raw in rest.split('/') {
        let mut name = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '~' {
                match chars.next() {
                    Some('0') => name.push('~'),
                    Some('1') => name.push('/'),
                    _ => return None,
                }
            } else {
                name.push(c);
            }
        }
        let index = if !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_digit())
            && (name == "0" || !name.starts_with('0'))
        {
            name.parse().ok()
        } else {
            None
        };
        out.push(Token { name, index });
    }
    Some(out)
}

fn get_mut<'a>(root: &'a mut Json, tokens: &[Token]) -> Option<&'a mut Json> {
    let mut cur = root;
    for t in tokens {
        cur = match cur {
            Json::Object(m) => m.get_mut(&t.name)?,
            Json::Array(a) => a.get_mut(t.index?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn get<'a>(root: &'a Json, tokens: &[Token]) -> Option<&'a Json> {
    let mut cur = root;
    for t in tokens {
        cur = match cur {
            Json::Object(m) => m.get(&t.name)?,
            Json::Array(a) => a.get(t.index?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn pointer_text(tokens: &[Token]) -> String {
    let mut s = String::new();
    for t in tokens {
        s.push('/');
        s.push_str(&t.name.replace('~', "~0").replace('/', "~1"));
    }
    s
}

/// A JSON Patch may add at most this many bytes per byte of the document and the patch
/// together, both weighed by [`weight`] (plus [`PATCH_GROWTH_ALLOWANCE`]): `copy`
/// doubles a document, so a few dozen self-copies would otherwise need terabytes, and
/// many copies of one subtree or one long string would hold memory out of proportion to
/// the texts. `add` and `replace` insert values of the patch itself, so any patch that
/// copies less than the document and the patch hold applies.
pub const PATCH_GROWTH_FACTOR: u64 = 2;

/// Bytes (as [`weight`] counts them) any JSON Patch may add, whatever the sizes of the
/// document and the patch: 4 MiB, about 64 Ki small values.
pub const PATCH_GROWTH_ALLOWANCE: u64 = 4 << 20;

/// What one JSON value costs in [`weight`] besides its text: about what a parsed value
/// takes in the tree (the value, and its share of the array or map holding it).
pub const VALUE_WEIGHT: u64 = 64;

/// The memory a parsed JSON value holds, estimated: [`VALUE_WEIGHT`] per value (objects,
/// arrays, members' values, scalars) plus the bytes of every string and member name, so
/// a long string weighs its length and many small values their count (iterative, so any
/// depth is fine).
pub fn weight(j: &Json) -> u64 {
    let mut n = 0u64;
    let mut stack = vec![j];
    while let Some(v) = stack.pop() {
        n = n.saturating_add(VALUE_WEIGHT);
        match v {
            Json::Array(a) => stack.extend(a.iter()),
            Json::Object(m) => {
                for (k, x) in m {
                    n = n.saturating_add(k.len() as u64);
                    stack.push(x);
                }
            }
            Json::String(s) => n = n.saturating_add(s.len() as u64),
            _ => {}
        }
    }
    n
}

struct Patcher<'c> {
    rep: Reporter<'static>,
    callback: Option<&'c mut Reporting<'c>>,
    /// Weight ([`weight`]) added so far by `add`, `replace` and `copy`, and the most
    /// allowed.
    grown: u64,
    max_growth: u64,
}

impl Patcher<'_> {
    fn fail(&mut self, outcome: O, msg: &str) -> Code {
        self.issue(T::Merge, outcome, msg)
    }

    /// Reports an issue, through the caller's callback when there is one.
    fn issue(&mut self, task: T, outcome: O, msg: &str) -> Code {
        let code = ResultCode::new(task, outcome);
        let code = match self.callback.as_mut() {
            Some(cb) => cb(msg, code, &self.rep.pointer()),
            None => code,
        };
        self.rep.code(code, msg)
    }

    fn at<R>(&mut self, seg: Seg<'static>, f: impl FnOnce(&mut Self) -> R) -> R {
        self.rep.path.push(seg);
        let r = f(self);
        self.rep.path.pop();
        r
    }

    /// Counts `n` more bytes ([`weight`]) into the document; past the limit, the patch
    /// halts.
    fn grow(&mut self, n: u64) -> Option<Code> {
        self.grown = self.grown.saturating_add(n);
        (self.grown > self.max_growth).then(|| {
            let msg = format!(
                "The JSON Patch grows the document past the limit of {} bytes added \
                 ({PATCH_GROWTH_FACTOR} per byte of the document and the patch, plus \
                 {PATCH_GROWTH_ALLOWANCE}; each value counted as {VALUE_WEIGHT} bytes \
                 plus its text).",
                self.max_growth
            );
            self.fail(O::Catastrophic, &msg)
        })
    }

    fn apply(&mut self, target: &mut Json, patch: &Json) -> Code {
        let Json::Array(entries) = patch else {
            return self.fail(
                O::TypeMismatch,
                "JSON Patch only supports arrays at the root.",
            );
        };
        let max_growth = (weight(target).saturating_add(weight(patch)))
            .saturating_mul(PATCH_GROWTH_FACTOR)
            .saturating_add(PATCH_GROWTH_ALLOWANCE);
        self.apply_within(target, entries, max_growth)
    }

    fn apply_within(&mut self, target: &mut Json, entries: &[Json], max_growth: u64) -> Code {
        self.max_growth = max_growth;
        let mut result = ResultCode::empty(T::Merge);
        for (i, entry) in entries.iter().enumerate() {
            self.rep.path.push(Seg::Index(i));
            let r = self.apply_entry(target, entry);
            self.rep.path.pop();
            result.combine(r);
            if result.halted() {
                return result;
            }
        }
        result.combine(ResultCode::new(T::Merge, O::Success));
        result
    }

    fn apply_entry(&mut self, target: &mut Json, entry: &Json) -> Code {
        let Json::Object(e) = entry else {
            return self.fail(O::TypeMismatch, "Entry in JSON Patch is not an object.");
        };
        let op = match e.get("op") {
            None => {
                return self.at(Seg::Key("op"), |s| {
                    s.fail(
                        O::Missing,
                        r#"The required field "op" is missing in entry of JSON Patch."#,
                    )
                })
            }
            Some(Json::String(op)) => op.as_str(),
            Some(_) => {
                return self.at(Seg::Key("op"), |s| {
                    s.fail(O::TypeMismatch, r#"The value for "op" is not a string."#)
                })
            }
        };
        let path = match e.get("path") {
            None => {
                return self.at(Seg::Key("path"), |s| {
                    s.fail(
                        O::Missing,
                        r#"The required field "path" is missing in entry of JSON Patch."#,
                    )
                })
            }
            Some(Json::String(p)) => p,
            Some(_) => {
                return self.at(Seg::Key("path"), |s| {
                    s.fail(O::TypeMismatch, r#"The value for "path" is not a string."#)
                })
            }
        };
        let Some(tokens) = parse_pointer(path) else {
            return self.at(Seg::Key("path"), |s| {
                s.fail(
                    O::Invalid,
                    r#"The value for "path" is not a valid JSON Pointer."#,
                )
            });
        };
        match op {
            "add" => match e.get("value") {
                Some(v) => {
                    if let Some(stop) = self.grow(weight(v)) {
                        return stop;
                    }
                    self.add_value(target, &tokens, v.clone())
                }
                None => self.at(Seg::Key("value"), |s| {
                    s.fail(
                        O::Missing,
                        r#"The required field "value" for "add" operation is missing."#,
                    )
                }),
            },
            "remove" => self.remove(target, &tokens).1,
            "replace" => {
                let Some(v) = e.get("value") else {
                    return self.at(Seg::Key("value"), |s| {
                        s.fail(
                            O::Missing,
                            r#"The required field "value" for "replace" operation is missing."#,
                        )
                    });
                };
                if let Some(stop) = self.grow(weight(v)) {
                    return stop;
                }
                match get_mut(target, &tokens) {
                    Some(slot) => {
                        *slot = v.clone();
                        ResultCode::new(T::Merge, O::Success)
                    }
                    None => self.fail(
                        O::Invalid,
                        r#"The target for "replace" operation doesn't exist."#,
                    ),
                }
            }
            "move" | "copy" => {
                let from = match e.get("from") {
                    None => {
                        return self.at(Seg::Key("from"), |s| {
                            s.fail(
                                O::Missing,
                                r#"The required field "from" is missing in entry of JSON Patch."#,
                            )
                        })
                    }
                    Some(Json::String(f)) => f,
                    Some(_) => {
                        return self.at(Seg::Key("from"), |s| {
                            s.fail(O::TypeMismatch, r#"The value for "from" is not a string."#)
                        })
                    }
                };
                let Some(from_tokens) = parse_pointer(from) else {
                    return self.at(Seg::Key("from"), |s| {
                        s.fail(
                            O::Invalid,
                            r#"The value for "from" is not a valid JSON Pointer."#,
                        )
                    });
                };
                let Some(found) = get(target, &from_tokens) else {
                    return self.at(Seg::Key("from"), |s| {
                        s.fail(O::Invalid, r#"The path specified in "from" doesn't exist."#)
                    });
                };
                // A copy adds what it copies (a move only relocates), counted before
                // anything is cloned.
                if op == "copy" {
                    if let Some(stop) = self.grow(weight(found)) {
                        return stop;
                    }
                }
                let v = found.clone();
                let mut result = ResultCode::new(T::Merge, O::Success);
                if op == "move" {
                    let (_, r) = self.remove(target, &from_tokens);
                    result.combine(r);
                    if r.halted() {
                        return result;
                    }
                }
                result.combine(self.add_value(target, &tokens, v));
                result
            }
            "test" => {
                let Some(v) = e.get("value") else {
                    return self.at(Seg::Key("value"), |s| {
                        s.fail(
                            O::Missing,
                            r#"The required field "value" for "test" operation is missing."#,
                        )
                    });
                };
                match get(target, &tokens) {
                    None => self.at(Seg::Key("path"), |s| {
                        s.fail(O::Invalid, r#"The path specified in "path" for the "test" operation doesn't exist."#)
                    }),
                    Some(cur) if compare(cur, v).is_eq() => ResultCode::new(T::Merge, O::Success),
                    Some(_) => self.fail(O::TestFailed, r#"The values for the "test" operation are not equal."#),
                }
            }
            other => self.fail(O::Unknown, &format!(r#"Unknown operation "{other}"."#)),
        }
    }

    fn add_value(&mut self, target: &mut Json, tokens: &[Token], v: Json) -> Code {
        let Some((last, parent)) = tokens.split_last() else {
            *target = v;
            return ResultCode::new(T::Merge, O::Success);
        };
        let Some(pv) = get_mut(target, parent) else {
            return self.fail(
                O::Invalid,
                r#"The target path for "add" operation does not exist."#,
            );
        };
        match pv {
            Json::Object(m) => {
                m.insert(last.name.clone(), v);
            }
            Json::Array(a) => match last.index {
                None if last.name == "-" => a.push(v),
                None => {
                    return self.fail(
                        O::Invalid,
                        r#"The target path for "add" operation is not an index value."#,
                    )
                }
                Some(i) if i <= a.len() => a.insert(i, v),
                Some(_) => {
                    return self.fail(
                        O::Invalid,
                        r#"The target path for "add" operation is not a valid index."#,
                    )
                }
            },
            _ => {
                return self.fail(
                    O::TypeMismatch,
                    r#"The target for "add" operation is not an object or array."#,
                )
            }
        }
        ResultCode::new(T::Merge, O::Success)
    }

    fn remove(&mut self, target: &mut Json, tokens: &[Token]) -> (Option<Json>, Code) {
        let Some((last, parent)) = tokens.split_last() else {
            return (
                None,
                self.fail(
                    O::Invalid,
                    r#"The target path for "remove" operation can't point at the root."#,
                ),
            );
        };
        let Some(pv) = get_mut(target, parent) else {
            return (
                None,
                self.fail(
                    O::Invalid,
                    r#"The target path for "remove" operation does not exist."#,
                ),
            );
        };
        let removed = match pv {
            Json::Object(m) => match m.shift_remove(&last.name) {
                Some(v) => v,
                None => {
                    return (
                        None,
                        self.fail(
                            O::Invalid,
                            r#"The "remove" operation failed to remove member from object."#,
                        ),
                    )
                }
            },
            Json::Array(a) => match last.index {
                Some(i) if i < a.len() => a.remove(i),
                _ => {
                    return (
                        None,
                        self.fail(
                            O::Invalid,
                            r#"The target path for "remove" operation has an invalid index."#,
                        ),
                    )
                }
            },
            _ => {
                return (
                    None,
                    self.fail(
                        O::TypeMismatch,
                        r#"The target for "remove" operation is not an object or array."#,
                    ),
                )
            }
        };
        (Some(removed), ResultCode::new(T::Merge, O::Success))
    }

    fn merge(&mut self, target: &mut Json, patch: &Json) -> Code {
        let mut result = ResultCode::empty(T::Merge);
        if let Json::Object(pm) = patch {
            if !target.is_object() {
                *target = Json::Object(Map::new());
            }
            let Json::Object(tm) = target else {
                return result;
            };
            for (k, v) in pm {
                if v.is_object() {
                    self.rep.path.push(Seg::Owned(k.clone()));
                    let slot = tm.entry(k.clone()).or_insert(Json::Null);
                    let r = self.merge(slot, v);
                    self.rep.path.pop();
                    result.combine(r);
                } else if v.is_null() {
                    if tm.shift_remove(k).is_some() {
                        result.combine(ResultCode::new(T::Merge, O::Success));
                    }
                } else {
                    tm.insert(k.clone(), v.clone());
                    result.combine(ResultCode::new(T::Merge, O::Success));
                }
            }
        } else {
            *target = patch.clone();
        }
        result.combine(ResultCode::new(T::Merge, O::Success));
        result
    }

    fn create(
        &mut self,
        patch: &mut Vec<Json>,
        source: &Json,
        target: &Json,
        path: &mut Vec<Token>,
    ) -> Code {
        let op = |name: &str, path: &[Token], value: Option<&Json>| {
            let mut m = Map::new();
            m.insert("op".into(), Json::String(name.into()));
            m.insert("path".into(), Json::String(pointer_text(path)));
            if let Some(v) = value {
                m.insert("value".into(), v.clone());
            }
            Json::Object(m)
        };
        let tok = |name: String| Token { name, index: None };
        match (source, target) {
            (Json::Object(s), Json::Object(t)) => {
                let mut result = ResultCode::empty(T::CreatePatch);
                for (k, tv) in t {
                    path.push(tok(k.clone()));
                    match s.get(k) {
                        Some(sv) => {
                            result.combine(self.create(patch, sv, tv, path));
                        }
                        None => {
                            patch.push(op("add", path, Some(tv)));
                            result.combine(ResultCode::new(T::CreatePatch, O::Success));
                        }
                    }
                    path.pop();
                    if result.halted() {
                        return result;
                    }
                }
                for k in s.keys() {
                    if !t.contains_key(k) {
                        path.push(tok(k.clone()));
                        patch.push(op("remove", path, None));
                        path.pop();
                        result.combine(ResultCode::new(T::CreatePatch, O::Success));
                    }
                }
                result
            }
            (Json::Array(s), Json::Array(t)) => {
                let mut result = ResultCode::empty(T::CreatePatch);
                let n = s.len().min(t.len());
                for i in 0..n {
                    path.push(tok(i.to_string()));
                    result.combine(self.create(patch, &s[i], &t[i], path));
                    path.pop();
                    if result.halted() {
                        return result;
                    }
                }
                for (i, tv) in t.iter().enumerate().skip(n) {
                    path.push(tok(i.to_string()));
                    patch.push(op("add", path, Some(tv)));
                    path.pop();
                    result.combine(ResultCode::new(T::CreatePatch, O::Success));
                }
                for i in (n..s.len()).rev() {
                    path.push(tok(i.to_string()));
                    patch.push(op("remove", path, None));
                    path.pop();
                    result.combine(ResultCode::new(T::CreatePatch, O::Success));
                }
                result
            }
            _ => {
                if source != target {
                    patch.push(op("replace", path, Some(target)));
                    ResultCode::new(T::CreatePatch, O::Success)
                } else {
                    ResultCode::new(T::CreatePatch, O::DefaultsUsed)
                }
            }
        }
    }

    fn create_merge(&mut self, source: &Json, target: &Json) -> (Json, Code) {
        if let Json::Object(t) = target {
            let mut result = ResultCode::empty(T::CreatePatch);
            let mut out = Map::new();
            let empty = Map::new();
            let (s, source_is_object) = match source {
                Json::Object(s) => (s, true),
                _ => (&empty, false),
            };
            for (k, tv) in t {
                self.rep.path.push(Seg::Owned(k.clone()));
                if !source_is_object && tv.is_null() {
                    let c = self.issue(
                        T::CreatePatch,
                        O::Unsupported,
                        "JSON Merge Patch can't be used to write nulls.",
                    );
                    self.rep.path.pop();
                    return (Json::Object(Map::new()), c);
                }
                let sv = s.get(k).unwrap_or(&Json::Null);
                let (v, r) = self.create_merge(sv, tv);
                self.rep.path.pop();
                if matches!(r.outcome(), O::Success | O::PartialDefaults) {
                    out.insert(k.clone(), v);
                    result.combine(r);
                } else if r.processing() != Processing::Completed {
                    return (Json::Object(Map::new()), r);
                } else {
                    // Identical members (DefaultsUsed): not written, and an object whose
                    // members are all identical is left out of its parent's patch.
                    result.combine(r);
                }
            }
            for k in s.keys() {
                if !t.contains_key(k) {
                    out.insert(k.clone(), Json::Null);
                    result.combine(ResultCode::new(T::CreatePatch, O::Success));
                }
            }
            if !source_is_object && t.is_empty() {
                // "Added empty object to JSON Merge Patch."
                result.combine(ResultCode::new(T::CreatePatch, O::Success));
            }
            (Json::Object(out), result)
        } else if source != target {
            if target.is_null() {
                let c = self.issue(
                    T::CreatePatch,
                    O::Unsupported,
                    "JSON Merge Patch can't be used to write nulls.",
                );
                return (Json::Null, c);
            }
            (target.clone(), ResultCode::new(T::CreatePatch, O::Success))
        } else {
            (Json::Null, ResultCode::new(T::CreatePatch, O::DefaultsUsed))
        }
    }
}

fn patcher<'c>(callback: Option<&'c mut Reporting<'c>>) -> Patcher<'c> {
    Patcher {
        rep: Reporter::default(),
        callback,
        grown: 0,
        max_growth: u64::MAX,
    }
}

fn report(p: Patcher<'_>, result: Code) -> Report {
    Report {
        result,
        issues: p.rep.issues,
    }
}

/// Applies a JSON Patch to `target` in place. Operations before a halting one stay applied.
pub fn apply_patch(target: &mut Json, patch: &Json) -> Report {
    let mut p = patcher(None);
    let r = p.apply(target, patch);
    report(p, r)
}

/// [`apply_patch`] with the growth bound given by the caller instead of computed from
/// the sizes of `target` and `patch` (which takes a walk of `target`): at most
/// `max_growth` bytes (as [`weight`] counts them) added. For callers that apply many
/// small patches to one large document and bound the whole themselves
/// ([`crate::flatten`]).
pub fn apply_patch_within(target: &mut Json, patch: &Json, max_growth: u64) -> Report {
    let mut p = patcher(None);
    let r = match patch {
        Json::Array(entries) => p.apply_within(target, entries, max_growth),
        _ => p.apply(target, patch),
    };
    report(p, r)
}

/// [`apply_patch`] with a reporting callback (O3DE's `JsonApplyPatchSettings::m_reporting`),
/// which sees every issue and chooses the code processing goes on with.
pub fn apply_patch_with(target: &mut Json, patch: &Json, reporting: &mut Reporting<'_>) -> Report {
    let mut p = patcher(Some(reporting));
    let r = p.apply(target, patch);
    report(p, r)
}

/// Applies a JSON Patch to a copy of `source`; a halted patch gives `{}` (as
/// `JsonSerialization::ApplyPatch` with an output value does).
pub fn apply_patch_to_copy(source: &Json, patch: &Json) -> (Json, Report) {
    let mut out = source.clone();
    let rep = apply_patch(&mut out, patch);
    if rep.processing() == Processing::Halted {
        out = Json::Object(Map::new());
    }
    (out, rep)
}

/// Applies a JSON Merge Patch to `target` in place.
pub fn apply_merge_patch(target: &mut Json, patch: &Json) -> Report {
    let mut p = patcher(None);
    let r = p.merge(target, patch);
    report(p, r)
}

/// Creates the JSON Patch that turns `source` into `target`.
pub fn create_patch(source: &Json, target: &Json) -> (Json, Report) {
    let mut p = patcher(None);
    let mut ops = Vec::new();
    let r = p.create(&mut ops, source, target, &mut Vec::new());
    (Json::Array(ops), report(p, r))
}

/// Creates the JSON Merge Patch that turns `source` into `target`.
pub fn create_merge_patch(source: &Json, target: &Json) -> (Json, Report) {
    let mut p = patcher(None);
    let (j, r) = p.create_merge(source, target);
    (j, report(p, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers() {
        assert_eq!(parse_pointer(""), Some(vec![]));
        assert_eq!(parse_pointer("a"), None);
        assert_eq!(parse_pointer("/a~2"), None);
        let t = parse_pointer("/a~1b/m~0n/01/10").unwrap();
        assert_eq!(t[0].name, "a/b");
        assert_eq!(t[1].name, "m~n");
        assert_eq!(t[2].index, None);
        assert_eq!(t[3].index, Some(10));
        assert_eq!(pointer_text(&t), "/a~1b/m~0n/01/10");
    }
}
