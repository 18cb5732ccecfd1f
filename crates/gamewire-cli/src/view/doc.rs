//! The files the page opened: each one's JSON document as the library decoded it, with
//! the page's edits (and the subtrees they touched as they were on disk), and the
//! operations the page asks of them — one level of the tree, search, edits (JSON
//! Patch), the changes against the disk, and save.
//!
//! The document is what `gamewire decode FILE` writes; saving encodes it as `gamewire
//! encode FILE.json` does. No format rule lives here: values are JSON.

use super::lazy::{self, LazyFile};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// One file the page opened.
pub struct OpenFile {
    /// The canonical path.
    pub path: PathBuf,
    /// The entry of a pack or an archive opened, if one: saving writes it back into
    /// the archive.
    pub entry: Option<String>,
    /// The archive's bytes as they were read, for an entry: a save over an archive
    /// changed since is refused.
    archive: Option<gamewire::open::archive_edit::Fingerprint>,
    /// What the library recognised (`godot3 (bare)`).
    pub describe: String,
    /// Notes from the library.
    pub notes: Vec<String>,
    /// The document (`{"$gamewire", "data", "$floats"}`, as `decode FILE` writes it)
    /// with the page's edits.
    pub working: Value,
    /// The subtrees edits touched, as they were on disk, by tokens (none inside another).
    originals: Vec<(Vec<String>, Value)>,
    /// The file's size and modification time when it was read: a file changed on disk
    /// since is not overwritten.
    stamp: Option<(u64, std::time::SystemTime)>,
    /// The types of the values, from the library.
    types: gamewire::open::types::Types,
    /// A Godot or Resonite file read through its view ([`super::lazy`]): `working`
    /// holds only the header until the first edit builds the document.
    pub lazy: Option<LazyFile>,
    /// The bytes of a file read whole whose values' bytes the library finds (O3DE,
    /// Zeze beans and frames, KingsIsle files), with what the first bytes
    /// request decoded (dropped on an edit).
    spans: Option<gamewire::open::spans::Spans>,
    /// For an entry of a pack or an archive read whole: the view of its bytes (a Godot
    /// or Resonite entry) whose spans the Bytes pane shows ([`lazy::bytes`]), and where
    /// its bytes lie in the archive.
    entry_bytes: Option<EntryBytes>,
}

/// An entry's bytes, for the Bytes pane: its view, if its format has one (else its
/// [`OpenFile::spans`]), and where they lie in the archive.
struct EntryBytes {
    view: Option<gamewire::open::browse::Browse>,
    placement: gamewire::open::archive::Placement,
}

/// The size and modification time of `path`.
fn stamp(path: &Path) -> Option<(u64, std::time::SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// True when `data` is an archive (a Godot pack, a KingsIsle WAD): its entries are
/// opened, not it.
pub fn is_container(data: &[u8]) -> bool {
    gamewire::open::archive::is_archive(data)
}

/// The entries of the pack or archive at `path`: name, size and format, as the CLI's
/// `inspect` lists them.
pub fn list_entries(path: &Path) -> Result<Value, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let a = gamewire::open::archive::archive_with(&data, archive_secret()?.as_ref())
        .ok_or("not a pack or an archive gamewire reads")?
        .map_err(|e| e.to_string())?;
    let entries: Vec<Value> = gamewire::open::archive::list(a.as_ref())
        .into_iter()
        .map(|e| json!({"name": e.name, "format": e.format, "error": e.error}))
        .collect();
    Ok(json!({"entries": entries}))
}

/// The key of an encrypted Godot pack, from `GAMEWIRE_GODOT_KEY` or
/// `GAMEWIRE_GODOT_PASSWORD` (as `convert` takes it): packs are read and written with it.
fn archive_secret() -> Result<Option<gamewire::open::Secret>, String> {
    gamewire::open::Secret::from_env().map_err(|e| e.to_string())
}

/// Decodes `path` (or its entry `entry`, for a pack or an archive) through the library
/// into a document.
pub fn open_file(path: &Path, entry: Option<&str>) -> Result<OpenFile, String> {
    let stamp = stamp(path);
    let data = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let side = gamewire::SideFiles::filesystem();
    let mut opts = gamewire::OpenOptions::default();
    let mut archive = None;
    let mut placement = None;
    if let Some(name) = entry {
        opts.secret = archive_secret()?;
        archive = Some(gamewire::open::archive_edit::Fingerprint::of(&data));
        if gamewire::open::archive::is_archive(&data) {
            placement = Some(
                gamewire::open::archive::placement(&data, name, opts.secret.as_ref())
                    .map_err(|e| e.to_string())?,
            );
        }
    }
    let opened = match entry {
        Some(name) if gamewire::open::archive::is_archive(&data) => {
            gamewire::open::archive::open_entry(&data, Some(path), name, &side, &opts)
        }
        Some(_) => return Err("not a pack or an archive: it has no entries".into()),
        None if is_container(&data) => {
            return Err("a pack or an archive: open one of its entries".into())
        }
        None => gamewire::open(data, Some(path), &side, &opts),
    }
    .map_err(|e| e.to_string())?;
    let describe = opened.describe();
    let notes = opened.notes().to_vec();
    let types = gamewire::open::types::Types::of(&opened);
    // A file the library has a view of is listed from it; entries of packs and archives
    // are read whole (their bytes are not the file's), their values' bytes found in the
    // entry's bytes as in a file's.
    let spans = gamewire::open::spans::Spans::of(&opened);
    let mut entry_bytes = None;
    let (working, lazy) = match entry {
        None => match gamewire::open::browse::Browse::new(opened) {
            Ok(browse) => {
                let header = serde_json::to_value(browse.opened().header(path.parent()))
                    .map_err(|e| e.to_string())?;
                let browse = std::sync::Arc::new(browse);
                let lazy = LazyFile {
                    base: browse.clone(),
                    browse,
                    converted: false,
                    search: None,
                };
                (json!({ "$gamewire": header }), Some(lazy))
            }
            Err(opened) => (document(&opened, path)?, None),
        },
        Some(_) => {
            let working = document(&opened, path)?;
            let placement = placement.ok_or("not a pack or an archive")?;
            let view = match spans {
                Some(_) => None,
                None => gamewire::open::browse::Browse::new(opened).ok(),
            };
            entry_bytes = Some(EntryBytes { view, placement });
            (working, None)
        }
    };
    Ok(OpenFile {
        path: path.to_path_buf(),
        entry: entry.map(str::to_owned),
        archive,
        describe,
        notes,
        working,
        originals: Vec::new(),
        stamp,
        types,
        lazy,
        spans,
        entry_bytes,
    })
}

/// The JSON document of a file read through its view, as `decode FILE` writes it (for
/// [`OpenFile::install_document`]).
pub fn document_of(b: &gamewire::open::browse::Browse, path: &Path) -> Result<Value, String> {
    document(b.opened(), path)
}

/// The JSON document of an opened file, as `decode FILE` writes it.
fn document(opened: &gamewire::Opened, path: &Path) -> Result<Value, String> {
    let mut text = Vec::new();
    opened
        .write_document(&mut text, false, path.parent())
        .map_err(|e| e.to_string())?;
    parse(&text)
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

    /// The view a file is read through until its document is built.
    fn viewing(&self) -> Option<&gamewire::open::browse::Browse> {
        self.lazy
            .as_ref()
            .filter(|l| !l.converted)
            .map(|l| &*l.browse)
    }

    /// The view of a file read through it, shared: long reads (a search) run on it
    /// without the file's lock.
    pub fn shared_view(&self) -> Option<std::sync::Arc<gamewire::open::browse::Browse>> {
        self.lazy
            .as_ref()
            .filter(|l| !l.converted)
            .map(|l| l.browse.clone())
    }

    /// The view of a file whose edits the library makes on its bytes, and the types
    /// the edits are checked against: edits ([`lazy::patch`]) run on them without the
    /// file's lock, then [`OpenFile::install`] keeps the result.
    pub fn splicing(
        &self,
    ) -> Option<(
        std::sync::Arc<gamewire::open::browse::Browse>,
        gamewire::open::types::Types,
    )> {
        let b = self.shared_view().filter(|b| b.splices())?;
        Some((b, self.types.clone()))
    }

    /// Keeps `now`, the file edited from the view `from`, unless another edit came
    /// first (false: the edit is to be made again on the file as it is now).
    pub fn install(
        &mut self,
        from: &std::sync::Arc<gamewire::open::browse::Browse>,
        now: std::sync::Arc<gamewire::open::browse::Browse>,
    ) -> bool {
        match self.lazy.as_mut().filter(|l| !l.converted) {
            Some(l) if std::sync::Arc::ptr_eq(&l.browse, from) => {
                l.browse = now;
                true
            }
            _ => false,
        }
    }

    /// The view a file was read from whose document is to be built, the document
    /// built without the file's lock ([`document_of`]) and kept by
    /// [`OpenFile::install_document`].
    pub fn needs_document(&self) -> Option<std::sync::Arc<gamewire::open::browse::Browse>> {
        self.shared_view().filter(|b| !b.splices())
    }

    /// Keeps the document built from the view `from` (unless the file was read again).
    pub fn install_document(
        &mut self,
        from: &std::sync::Arc<gamewire::open::browse::Browse>,
        doc: Value,
    ) {
        if let Some(l) = self
            .lazy
            .as_mut()
            .filter(|l| !l.converted && std::sync::Arc::ptr_eq(&l.browse, from))
        {
            self.working = doc;
            l.converted = true;
        }
    }

    /// True when the file's edits are made on its bytes (no document built).
    pub fn edits_in_place(&self) -> bool {
        self.shared_view().is_some_and(|b| b.splices())
    }

    /// True while the file is read through its view (no document built yet).
    pub fn is_lazy(&self) -> bool {
        self.viewing().is_some()
    }

    /// Builds the JSON document of a file read through its view (on the first edit).
    fn ensure_document(&mut self) -> Result<(), String> {
        if let Some(l) = self.lazy.as_mut().filter(|l| !l.converted) {
            self.working = document(l.browse.opened(), &self.path)?;
            l.converted = true;
        }
        Ok(())
    }

    /// The data as it is now, from the view when no document is built.
    fn current_data(&self) -> Result<Cow<'_, Value>, String> {
        match self.viewing() {
            Some(b) => b.value("").map(Cow::Owned),
            None => Ok(Cow::Borrowed(self.data())),
        }
    }

    /// The bytes of the value at `pointer` in the file as read (see [`lazy::bytes`]).
    pub fn bytes(&self, pointer: &str) -> Result<Value, String> {
        let entry_view = self.entry_bytes.as_ref().and_then(|e| e.view.as_ref());
        if self.lazy.is_none() && self.spans.is_none() && entry_view.is_none() {
            return Ok(lazy::no_bytes(if self.entry.is_some() {
                "this entry's format has no byte positions here"
            } else {
                "byte positions are shown for Godot, Resonite, O3DE, KingsIsle and Zeze files"
            }));
        }
        let toks = tokens(pointer)?;
        // A kept subtree that differs from the working data was edited: what is inside
        // it may have moved.
        let changed = |k: &Vec<String>, v: &Value| self.data().pointer(&pointer_of(k)) != Some(v);
        if self
            .originals
            .iter()
            .any(|(k, v)| toks.starts_with(k) && changed(k, v))
        {
            return Ok(lazy::no_bytes(
                "edited since the file was read: its bytes are known once it is saved",
            ));
        }
        let mut out = match (&self.lazy, &self.spans, entry_view) {
            (Some(l), _, _) => lazy::bytes(&l.browse, pointer)?,
            (None, Some(spans), _) => lazy::read_bytes(spans, pointer)?,
            (None, None, Some(b)) => lazy::bytes(b, pointer)?,
            (None, None, None) => unreachable!("answered above"),
        };
        if let (Some(e), Some(name)) = (&self.entry_bytes, &self.entry) {
            lazy::in_entry(&mut out, name, &e.placement);
        }
        if self
            .originals
            .iter()
            .any(|(k, v)| k.starts_with(&toks) && changed(k, v))
        {
            out["note"] = json!("a value inside was edited: these are the bytes on disk");
        }
        if self.shared_view().is_some_and(|b| b.is_edited()) {
            out["note"] = json!("the file's bytes as edited (not saved yet)");
        }
        Ok(out)
    }

    /// The value at `pointer` (relative to the data) with `limit` of its children from
    /// `offset`.
    pub fn node(&self, pointer: &str, offset: usize, limit: usize) -> Result<Value, String> {
        if let Some(b) = self.viewing() {
            let mut out = lazy::node(b, pointer, offset, limit)?;
            if !self.types.is_none() {
                // Typed from a small stand-in: the path and the tagged values here.
                let toks = tokens(pointer)?;
                let partial = lazy::partial(b, &toks, &out, self.types.context(&toks))?;
                super::typed::annotate(&self.types, &partial, pointer, &mut out);
            }
            return Ok(out);
        }
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
        super::typed::annotate(&self.types, self.data(), pointer, &mut out);
        Ok(out)
    }

    /// The JSON text of the value at `pointer`.
    pub fn value_text(&self, pointer: &str) -> Result<String, String> {
        if let Some(b) = self.viewing() {
            return Ok(b.value(pointer)?.to_string());
        }
        let v = self
            .data()
            .pointer(pointer)
            .ok_or_else(|| format!("no value at {pointer:?}"))?;
        serde_json::to_string(v).map_err(|e| e.to_string())
    }

    /// Pointers whose key or scalar value contains `q` (case-insensitive), at most
    /// `limit`.
    pub fn search(&self, q: &str, limit: usize) -> Value {
        if let Some(b) = self.viewing() {
            return lazy::search(b, q, limit);
        }
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
    /// the data) to the working document, all or none, and returns the operations that
    /// undo them (in the order to apply them). Before a value is first changed,
    /// the smallest subtree the edit touches is kept as it was on disk (the value
    /// replaced, or the list or map an item is added to or removed from): the changes
    /// are those subtrees against the working data, with no second copy of the document.
    pub fn patch(&mut self, ops: &[Value]) -> Result<Vec<Value>, String> {
        if let Some((from, types)) = self.splicing() {
            // Made on the file's bytes by the library (see `lazy::patch`).
            let (now, undo) = lazy::patch(&from, &types, ops)?;
            self.install(&from, now);
            return Ok(undo);
        }
        self.ensure_document()?;
        let mut undo = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            let result = match parse_op(op) {
                Ok((name, toks)) => {
                    let keep = if name == "replace" || toks.is_empty() {
                        toks
                    } else {
                        toks[..toks.len() - 1].to_vec()
                    };
                    match super::typed::check_op(&self.types, self.data(), op) {
                        Ok(()) => {
                            self.keep_original(keep);
                            apply(&mut self.working["data"], op)
                        }
                        Err(e) => Err(e),
                    }
                }
                Err(e) => Err(e),
            };
            match result {
                Ok(inverse) => undo.push(inverse),
                Err(e) => {
                    for inverse in undo.iter().rev() {
                        let _ = apply(&mut self.working["data"], inverse);
                    }
                    return Err(format!("edit {i}: {e}"));
                }
            }
        }
        undo.reverse();
        // What a bytes request decoded is not kept past an edit.
        if let Some(s) = &mut self.spans {
            s.forget();
        }
        Ok(undo)
    }

    /// Keeps the subtree at `toks` as it is now, unless a kept subtree holds it; kept
    /// subtrees inside it are put back into its copy (no list or map on their way was
    /// changed in shape since they were kept: that would have kept it instead).
    fn keep_original(&mut self, toks: Vec<String>) {
        if self.originals.iter().any(|(k, _)| toks.starts_with(k)) {
            return;
        }
        let Some(now) = self.working["data"].pointer(&pointer_of(&toks)) else {
            return;
        };
        let mut orig = now.clone();
        self.originals.retain(|(k, v)| {
            if !k.starts_with(&toks) {
                return true;
            }
            if let Some(slot) = orig.pointer_mut(&pointer_of(&k[toks.len()..])) {
                *slot = v.clone();
            }
            false
        });
        self.originals.push((toks, orig));
    }

    /// True when the working data differs from the disk's.
    pub fn is_edited(&self) -> bool {
        if let Some(l) = self.lazy.as_ref().filter(|l| !l.converted) {
            return !std::sync::Arc::ptr_eq(&l.base, &l.browse)
                && l.base
                    .diff(&l.browse, 1)
                    .map_or(true, |(c, _)| !c.is_empty());
        }
        self.originals
            .iter()
            .any(|(k, v)| self.working["data"].pointer(&pointer_of(k)) != Some(v))
    }

    /// The differences between the data on disk and the working data: pointer, old and
    /// new (shortened), at most `limit`, in pointer order.
    pub fn changes(&self, limit: usize) -> Value {
        if let Some(l) = self.lazy.as_ref().filter(|l| !l.converted) {
            return lazy::changes(&l.base, &l.browse, limit)
                .unwrap_or_else(|e| json!({"changes": [], "more": false, "error": e}));
        }
        let mut kept: Vec<&(Vec<String>, Value)> = self.originals.iter().collect();
        kept.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out = Vec::new();
        for (k, orig) in kept {
            let p = pointer_of(k);
            match self.working["data"].pointer(&p) {
                Some(now) => diff(&p, orig, now, &mut out, limit),
                None => out.push(
                    json!({"pointer": p, "old": short(Some(orig)), "new": null, "what": "removed"}),
                ),
            }
        }
        let more = out.len() >= limit;
        out.truncate(limit);
        json!({"changes": out, "more": more})
    }

    /// The differences between this file's data and `other`'s (both as edited):
    /// pointer, this file's value and the other's, at most `limit`. Files of two formats
    /// are not compared.
    pub fn compare(&self, other: &OpenFile, limit: usize) -> Result<Value, String> {
        let (a, b) = (
            &self.working["$gamewire"]["format"],
            &other.working["$gamewire"]["format"],
        );
        if a != b {
            return Err(format!(
                "files of two formats ({a} and {b}) are not compared"
            ));
        }
        let mut out = Vec::new();
        let (da, db) = (self.current_data()?, other.current_data()?);
        diff("", &da, &db, &mut out, limit);
        let more = out.len() >= limit;
        out.truncate(limit);
        Ok(json!({"changes": out, "more": more}))
    }

    /// Encodes the working document with the file's settings (as `gamewire encode
    /// FILE.json` does) and writes it atomically over the file; on success, the file
    /// is read again so what the page shows is what the disk holds. An entry of a pack
    /// or an archive is encoded so and written into the archive by the library
    /// ([`gamewire::open::archive_edit`]: every other entry kept byte for byte), the
    /// archive written atomically.
    pub fn save(&mut self) -> Result<usize, String> {
        if self.stamp.is_none() || stamp(&self.path) != self.stamp {
            return Err(
                "the file changed on disk since the page opened it: open it again (its \
                 edits are then lost) or save elsewhere"
                    .into(),
            );
        }
        if let Some(b) = self.shared_view().filter(|b| b.splices()) {
            // The bytes as edited, with the settings the file was read with.
            let bytes = b.file_bytes()?;
            crate::io::write_file(&self.path, &bytes, true).map_err(|e| e.to_string())?;
            *self = open_file(&self.path, None)?;
            return Ok(bytes.len());
        }
        self.ensure_document()?;
        let text = serde_json::to_vec(&self.working).map_err(|e| e.to_string())?;
        let doc = gamewire::read_document(&text).map_err(|e| e.to_string())?;
        let dir = self.path.parent().unwrap_or(Path::new("."));
        // The header names side files relative to the file's folder (as decoded).
        let json_path = dir.join(".gamewire-view.json");
        let name = match &self.entry {
            Some(e) => e.rsplit('/').next().map(str::to_owned),
            None => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
        };
        let opts = gamewire::open::EncodeOptions {
            output_name: name,
            ..Default::default()
        };
        let side = gamewire::SideFiles::filesystem();
        let encoded = gamewire::encode_document(&doc, Some(&json_path), None, &side, &opts)
            .map_err(|e| e.to_string())?;
        if let (Some(entry), Some(print)) = (&self.entry, &self.archive) {
            let archive = gamewire::open::archive_edit::replace_in_file(
                &self.path,
                print,
                archive_secret()?.as_ref(),
                entry,
                &encoded.bytes,
            )
            .map_err(|e| e.to_string())?;
            crate::io::write_file(&self.path, &archive, true).map_err(|e| e.to_string())?;
            let entry = entry.clone();
            *self = open_file(&self.path, Some(&entry))?;
            return Ok(encoded.bytes.len());
        }
        crate::io::write_file(&self.path, &encoded.bytes, true).map_err(|e| e.to_string())?;
        let again = open_file(&self.path, None)?;
        *self = again;
        Ok(encoded.bytes.len())
    }
}

/// Strings longer than this many bytes are listed by their start.
const LONG_STRING: usize = 2048;

/// One entry of a listing: key, kind, child count or value.
pub(super) fn child(key: Value, v: &Value) -> Value {
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
        Value::String(t) if t.len() > LONG_STRING => {
            // A long string (a Godot PackedByteArray's base64, say) is listed by its
            // start; the page asks for the whole of it (/api/value) before editing it.
            let mut end = LONG_STRING;
            while !t.is_char_boundary(end) {
                end -= 1;
            }
            o.insert("value".into(), json!(&t[..end]));
            o.insert("truncated".into(), json!(true));
            o.insert("length".into(), json!(t.len()));
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

/// A JSON Pointer's tokens, unescaped.
pub use gamewire_core::lazy_json::tokens;

/// A JSON Pointer of `toks`.
pub fn pointer_of(toks: &[String]) -> String {
    toks.iter().map(|t| format!("/{}", escape(t))).collect()
}

/// One JSON Patch operation: its name and tokens.
fn parse_op(op: &Value) -> Result<(&str, Vec<String>), String> {
    let name = op["op"].as_str().ok_or("no \"op\"")?;
    let path = op["path"].as_str().ok_or("no \"path\"")?;
    Ok((name, tokens(path)?))
}

/// Applies one JSON Patch operation; returns the operation that undoes it.
fn apply(data: &mut Value, op: &Value) -> Result<Value, String> {
    let (name, mut toks) = parse_op(op)?;
    let path = op["path"].clone();
    let value = || op.get("value").cloned().ok_or("no \"value\"".to_string());
    let Some(last) = toks.pop() else {
        return match name {
            "replace" => {
                let old = std::mem::replace(data, value()?);
                Ok(json!({"op": "replace", "path": "", "value": old}))
            }
            _ => Err("the whole document can only be replaced".into()),
        };
    };
    let parent_ptr = pointer_of(&toks);
    let parent = data
        .pointer_mut(&parent_ptr)
        .ok_or_else(|| format!("no value at {parent_ptr:?}"))?;
    match (parent, name) {
        (Value::Object(m), "add") => match m.get_mut(&last) {
            Some(slot) => {
                let old = std::mem::replace(slot, value()?);
                Ok(json!({"op": "replace", "path": path, "value": old}))
            }
            None => {
                m.insert(last, value()?);
                Ok(json!({"op": "remove", "path": path}))
            }
        },
        (Value::Object(m), "replace") => {
            let slot = m.get_mut(&last).ok_or_else(|| format!("no key {last:?}"))?;
            let old = std::mem::replace(slot, value()?);
            Ok(json!({"op": "replace", "path": path, "value": old}))
        }
        (Value::Object(m), "remove") => {
            let index = m
                .keys()
                .position(|k| *k == last)
                .ok_or_else(|| format!("no key {last:?}"))?;
            let old = m.shift_remove(&last).unwrap_or(Value::Null);
            // Put back where it was: key order is kept in the file.
            Ok(json!({"op": "$insert", "path": path, "index": index, "value": old}))
        }
        (Value::Object(m), "$insert") => {
            let index = op["index"].as_u64().ok_or("no \"index\"")? as usize;
            m.shift_insert(index.min(m.len()), last, value()?);
            Ok(json!({"op": "remove", "path": path}))
        }
        (Value::Array(a), op_name) => {
            let index = if last == "-" && op_name == "add" {
                a.len()
            } else {
                last.parse::<usize>()
                    .map_err(|_| format!("{last:?} is not an index"))?
            };
            let at = json!(format!("{parent_ptr}/{index}"));
            match op_name {
                "add" if index <= a.len() => {
                    a.insert(index, value()?);
                    Ok(json!({"op": "remove", "path": at}))
                }
                "replace" if index < a.len() => {
                    let old = std::mem::replace(&mut a[index], value()?);
                    Ok(json!({"op": "replace", "path": at, "value": old}))
                }
                "remove" if index < a.len() => {
                    let old = a.remove(index);
                    Ok(json!({"op": "add", "path": at, "value": old}))
                }
                "add" | "replace" | "remove" => {
                    Err(format!("index {index} is past the end ({})", a.len()))
                }
                other => Err(format!("unknown op {other:?}")),
            }
        }
        (_, "add" | "replace" | "remove") => Err(format!("{parent_ptr:?} holds no list or map")),
        (_, other) => Err(format!("unknown op {other:?}")),
    }
}

/// Text of `v` shortened for the changes list.
fn short(v: Option<&Value>) -> Value {
    match v {
        None => Value::Null,
        Some(v) => json!(clip(&v.to_string(), 200)),
    }
}

/// `s`, cut to `n` characters.
pub(super) fn clip(s: &str, n: usize) -> String {
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
            entry: None,
            archive: None,
            describe: String::new(),
            notes: Vec::new(),
            working: doc,
            originals: Vec::new(),
            stamp: None,
            types: gamewire::open::types::Types::none(),
            lazy: None,
            spans: None,
            entry_bytes: None,
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
    fn edits_undone_leave_no_changes() {
        let mut f = file(json!({"m": {"x": 1, "y": [1, 2], "z": 3}}));
        f.patch(&[json!({"op": "replace", "path": "/m/y/0", "value": 5})])
            .unwrap();
        // A removal in the map keeps the map, with the earlier original put back.
        f.patch(&[json!({"op": "remove", "path": "/m/x"})]).unwrap();
        assert_eq!(f.originals.len(), 1);
        assert_eq!(f.originals[0].1, json!({"x": 1, "y": [1, 2], "z": 3}));
        assert!(f.is_edited());
        f.patch(&[
            json!({"op": "add", "path": "/m/x", "value": 1}),
            json!({"op": "replace", "path": "/m/y/0", "value": 1}),
        ])
        .unwrap();
        assert_eq!(f.changes(10)["changes"], json!([]));
        assert!(!f.is_edited());
    }

    #[test]
    fn long_strings_are_listed_by_their_start() {
        let long = "é".repeat(3000);
        let f = file(json!({ "s": long }));
        let n = f.node("", 0, 10).unwrap();
        let c = &n["children"][0];
        assert_eq!(c["truncated"], true);
        assert_eq!(c["length"], 6000);
        assert_eq!(c["value"].as_str().unwrap().len(), 2048);
        assert_eq!(f.value_text("/s").unwrap(), json!(long).to_string());
    }

    #[test]
    fn the_undo_operations_restore_order_and_values() {
        let mut f = file(json!({"a": 1, "b": 18446744073709551615u64, "c": [1.5, 2]}));
        let before = f.working.clone();
        let undo = f
            .patch(&[
                json!({"op": "remove", "path": "/b"}),
                json!({"op": "replace", "path": "/c/0", "value": 2.5}),
                json!({"op": "add", "path": "/c/1", "value": "x"}),
                json!({"op": "add", "path": "/d", "value": null}),
            ])
            .unwrap();
        // Through text, as the page sends them back.
        let undo: Vec<Value> = serde_json::from_str(&Value::Array(undo).to_string()).unwrap();
        f.patch(&undo).unwrap();
        assert_eq!(f.working, before);
        let keys: Vec<&String> = f.working["data"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b", "c"], "the key goes back in its place");
        assert!(!f.is_edited());
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
