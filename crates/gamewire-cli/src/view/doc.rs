//! The files the page opened: each one's JSON document as the library decoded it (the
//! one on disk) and as edited, and the operations the page asks of them — one level of
//! the tree, search, edits (JSON Patch), the changes against the disk, and save.
//!
//! The document is what `gamewire decode FILE` writes; saving encodes it as `gamewire
//! encode FILE.json` does. No format rule lives here: values are JSON.

use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// One file the page opened.
pub struct OpenFile {
    /// The canonical path.
    pub path: PathBuf,
    /// What the library recognised (`godot3 (bare)`).
    pub describe: String,
    /// Notes from the library.
    pub notes: Vec<String>,
    /// The document as decoded from the disk: `{"$gamewire", "data", "$floats"}`.
    pub disk: Value,
    /// The document with the page's edits.
    pub working: Value,
    /// The file's size and modification time when it was read: a file changed on disk
    /// since is not overwritten.
    stamp: Option<(u64, std::time::SystemTime)>,
}

/// The size and modification time of `path`.
fn stamp(path: &Path) -> Option<(u64, std::time::SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// Decodes `path` through the library into a document.
pub fn open_file(path: &Path) -> Result<OpenFile, String> {
    let stamp = stamp(path);
    let data = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let side = gamewire::SideFiles::filesystem();
    let opened = gamewire::open(data, Some(path), &side, &gamewire::OpenOptions::default())
        .map_err(|e| e.to_string())?;
    let mut text = Vec::new();
    opened
        .write_document(&mut text, false, path.parent())
        .map_err(|e| e.to_string())?;
    let disk = parse(&text)?;
    Ok(OpenFile {
        path: path.to_path_buf(),
        describe: opened.describe(),
        notes: opened.notes().to_vec(),
        working: disk.clone(),
        disk,
        stamp,
    })
}

/// Parses JSON text of any depth.
fn parse(text: &[u8]) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let v = serde::Deserialize::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

impl OpenFile {
    /// The data being edited.
    fn data(&self) -> &Value {
        &self.working["data"]
    }

    /// The value at `pointer` (relative to the data) with `limit` of its children from
    /// `offset`.
    pub fn node(&self, pointer: &str, offset: usize, limit: usize) -> Result<Value, String> {
        let v = self
            .data()
            .pointer(pointer)
            .ok_or_else(|| format!("no value at {pointer:?}"))?;
        let children: Vec<Value> = match v {
            Value::Array(a) => a
                .iter()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, c)| child(json!(i), c))
                .collect(),
            Value::Object(m) => m
                .iter()
                .skip(offset)
                .take(limit)
                .map(|(k, c)| child(json!(k), c))
                .collect(),
            _ => Vec::new(),
        };
        let mut out = child(Value::Null, v);
        out["pointer"] = json!(pointer);
        out["offset"] = json!(offset);
        out["children"] = Value::Array(children);
        Ok(out)
    }

    /// The JSON text of the value at `pointer`.
    pub fn value_text(&self, pointer: &str) -> Result<String, String> {
        let v = self
            .data()
            .pointer(pointer)
            .ok_or_else(|| format!("no value at {pointer:?}"))?;
        serde_json::to_string(v).map_err(|e| e.to_string())
    }

    /// Pointers whose key or scalar value contains `q` (case-insensitive), at most
    /// `limit`.
    pub fn search(&self, q: &str, limit: usize) -> Value {
        let q = q.to_lowercase();
        let mut hits = Vec::new();
        let mut more = false;
        let mut stack: Vec<(String, &Value)> = vec![(String::new(), self.data())];
        while let Some((p, v)) = stack.pop() {
            let kids: Vec<(String, &Value)> = match v {
                Value::Object(m) => m
                    .iter()
                    .map(|(k, c)| (format!("{p}/{}", escape(k)), c))
                    .collect(),
                Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (format!("{p}/{i}"), c))
                    .collect(),
                _ => Vec::new(),
            };
            if let Value::Object(m) = v {
                for (k, c) in m {
                    if k.to_lowercase().contains(&q) {
                        if hits.len() >= limit {
                            more = true;
                            break;
                        }
                        hits.push(json!({"pointer": format!("{p}/{}", escape(k)), "on": "key",
                                         "text": k, "kind": kind(c)}));
                    }
                }
            }
            let scalar = match v {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            };
            if let Some(s) = scalar {
                if s.to_lowercase().contains(&q) {
                    if hits.len() >= limit {
                        more = true;
                    } else {
                        hits.push(json!({"pointer": p, "on": "value",
                                         "text": clip(&s, 120), "kind": kind(v)}));
                    }
                }
            }
            if more {
                break;
            }
            stack.extend(kids.into_iter().rev());
        }
        json!({"hits": hits, "more": more})
    }

    /// Applies JSON Patch operations (`add`, `remove`, `replace`; pointers relative to
    /// the data) to the working document, all or none.
    pub fn patch(&mut self, ops: &[Value]) -> Result<(), String> {
        let mut data = self.working["data"].clone();
        for (i, op) in ops.iter().enumerate() {
            apply(&mut data, op).map_err(|e| format!("edit {i}: {e}"))?;
        }
        self.working["data"] = data;
        Ok(())
    }

    /// The differences between the data on disk and the working data: pointer, old and
    /// new (shortened), at most `limit`.
    pub fn changes(&self, limit: usize) -> Value {
        let mut out = Vec::new();
        diff(
            "",
            &self.disk["data"],
            &self.working["data"],
            &mut out,
            limit,
        );
        json!({"changes": out, "more": out.len() >= limit})
    }

    /// Encodes the working document with the file's settings (as `gamewire encode
    /// FILE.json` does) and writes it atomically over the file; on success, the file
    /// is read again so what the page shows is what the disk holds.
    pub fn save(&mut self) -> Result<usize, String> {
        if self.stamp.is_none() || stamp(&self.path) != self.stamp {
            return Err(
                "the file changed on disk since the page opened it: open it again (its \
                 edits are then lost) or save elsewhere"
                    .into(),
            );
        }
        let text = serde_json::to_vec(&self.working).map_err(|e| e.to_string())?;
        let doc = gamewire::read_document(&text).map_err(|e| e.to_string())?;
        let dir = self.path.parent().unwrap_or(Path::new("."));
        // The header names side files relative to the file's folder (as decoded).
        let json_path = dir.join(".gamewire-view.json");
        let opts = gamewire::open::EncodeOptions {
            output_name: self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            ..Default::default()
        };
        let side = gamewire::SideFiles::filesystem();
        let encoded = gamewire::encode_document(&doc, Some(&json_path), None, &side, &opts)
            .map_err(|e| e.to_string())?;
        crate::io::write_file(&self.path, &encoded.bytes, true).map_err(|e| e.to_string())?;
        let again = open_file(&self.path)?;
        *self = again;
        Ok(encoded.bytes.len())
    }
}

/// One entry of a listing: key, kind, child count or value.
fn child(key: Value, v: &Value) -> Value {
    let mut o = Map::new();
    o.insert("key".into(), key);
    o.insert("kind".into(), json!(kind(v)));
    match v {
        Value::Array(a) => {
            o.insert("count".into(), json!(a.len()));
        }
        Value::Object(m) => {
            o.insert("count".into(), json!(m.len()));
            if let Some(Value::String(t)) = m.get("$type") {
                o.insert("tag".into(), json!(t));
            }
        }
        Value::Number(n) => {
            // The number as written: JavaScript reads integers past 2^53 inexactly, and
            // a float's text keeps its decimal point.
            o.insert("text".into(), json!(n.to_string()));
            o.insert("value".into(), v.clone());
        }
        _ => {
            o.insert("value".into(), v.clone());
        }
    }
    Value::Object(o)
}

/// The JSON type of a value, numbers split into integers and floats.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A JSON Pointer token for `key`.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A JSON Pointer's tokens.
fn tokens(pointer: &str) -> Result<Vec<String>, String> {
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

/// Applies one JSON Patch operation.
fn apply(data: &mut Value, op: &Value) -> Result<(), String> {
    let name = op["op"].as_str().ok_or("no \"op\"")?;
    let path = op["path"].as_str().ok_or("no \"path\"")?;
    let mut toks = tokens(path)?;
    let Some(last) = toks.pop() else {
        return match name {
            "replace" => {
                *data = op.get("value").cloned().ok_or("no \"value\"")?;
                Ok(())
            }
            _ => Err("the whole document can only be replaced".into()),
        };
    };
    let parent_ptr: String = toks.iter().map(|t| format!("/{}", escape(t))).collect();
    let parent = data
        .pointer_mut(&parent_ptr)
        .ok_or_else(|| format!("no value at {parent_ptr:?}"))?;
    let value = || op.get("value").cloned().ok_or("no \"value\"".to_string());
    match (parent, name) {
        (Value::Object(m), "add") => {
            m.insert(last, value()?);
        }
        (Value::Object(m), "replace") => {
            let slot = m.get_mut(&last).ok_or_else(|| format!("no key {last:?}"))?;
            *slot = value()?;
        }
        (Value::Object(m), "remove") => {
            m.shift_remove(&last)
                .ok_or_else(|| format!("no key {last:?}"))?;
        }
        (Value::Array(a), op_name) => {
            let index = if last == "-" && op_name == "add" {
                a.len()
            } else {
                last.parse::<usize>()
                    .map_err(|_| format!("{last:?} is not an index"))?
            };
            match op_name {
                "add" if index <= a.len() => a.insert(index, value()?),
                "replace" if index < a.len() => a[index] = value()?,
                "remove" if index < a.len() => {
                    a.remove(index);
                }
                "add" | "replace" | "remove" => {
                    return Err(format!("index {index} is past the end ({})", a.len()))
                }
                other => return Err(format!("unknown op {other:?}")),
            }
        }
        (_, "add" | "replace" | "remove") => {
            return Err(format!("{parent_ptr:?} holds no list or map"))
        }
        (_, other) => return Err(format!("unknown op {other:?}")),
    }
    Ok(())
}

/// Text of `v` shortened for the changes list.
fn short(v: Option<&Value>) -> Value {
    match v {
        None => Value::Null,
        Some(v) => json!(clip(&v.to_string(), 200)),
    }
}

/// `s`, cut to `n` characters.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        s.chars().take(n).chain(std::iter::once('…')).collect()
    }
}

/// Lists where `a` and `b` differ.
fn diff(p: &str, a: &Value, b: &Value, out: &mut Vec<Value>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let q = format!("{p}/{}", escape(k));
                match y.get(k) {
                    Some(vb) => diff(&q, va, vb, out, limit),
                    None if out.len() < limit => {
                        out.push(json!({"pointer": q, "old": short(Some(va)), "new": null, "what": "removed"}))
                    }
                    None => {}
                }
            }
            for (k, vb) in y {
                if !x.contains_key(k) && out.len() < limit {
                    let q = format!("{p}/{}", escape(k));
                    out.push(
                        json!({"pointer": q, "old": null, "new": short(Some(vb)), "what": "added"}),
                    );
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let q = format!("{p}/{i}");
                match (x.get(i), y.get(i)) {
                    (Some(va), Some(vb)) => diff(&q, va, vb, out, limit),
                    (va, vb) if out.len() < limit => out.push(json!({
                        "pointer": q, "old": short(va), "new": short(vb),
                        "what": if va.is_some() { "removed" } else { "added" }})),
                    _ => {}
                }
            }
        }
        _ => {
            out.push(json!({"pointer": p, "old": short(Some(a)), "new": short(Some(b)), "what": "changed"}));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(data: Value) -> OpenFile {
        let doc = json!({"$gamewire": {}, "data": data});
        OpenFile {
            path: PathBuf::new(),
            describe: String::new(),
            notes: Vec::new(),
            disk: doc.clone(),
            working: doc,
            stamp: None,
        }
    }

    #[test]
    fn patch_diff_and_node() {
        let mut f = file(json!({"a": [1, 2.5, "x"], "b/c": {"d": true}}));
        f.patch(&[
            json!({"op": "replace", "path": "/a/1", "value": 3.0}),
            json!({"op": "add", "path": "/a/-", "value": null}),
            json!({"op": "remove", "path": "/b~1c/d"}),
        ])
        .unwrap();
        assert_eq!(
            f.working["data"],
            json!({"a": [1, 3.0, "x", null], "b/c": {}})
        );
        let c = f.changes(100);
        let ptrs: Vec<&str> = c["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["pointer"].as_str().unwrap())
            .collect();
        assert_eq!(ptrs, ["/a/1", "/a/3", "/b~1c/d"]);
        let n = f.node("/a", 1, 2).unwrap();
        assert_eq!(n["count"], 4);
        assert_eq!(n["children"][0]["kind"], "float");
        assert_eq!(n["children"][0]["key"], 1);
        assert_eq!(n["children"].as_array().unwrap().len(), 2);
        // All or nothing.
        assert!(f
            .patch(&[
                json!({"op": "replace", "path": "/a/0", "value": 9}),
                json!({"op": "replace", "path": "/zz/0", "value": 9}),
            ])
            .is_err());
        assert_eq!(f.working["data"]["a"][0], 1);
    }

    #[test]
    fn search_keys_and_values() {
        let f = file(json!({"name": "Ann", "items": [{"label": "sword"}]}));
        let r = f.search("SWO", 10);
        assert_eq!(r["hits"][0]["pointer"], "/items/0/label");
        let r = f.search("nam", 10);
        assert_eq!(r["hits"][0]["pointer"], "/name");
        assert_eq!(r["hits"][0]["on"], "key");
    }
}
