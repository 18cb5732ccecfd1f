//! `$import` directives, as O3DE's `JsonImportResolver` resolves them.
//!
//! An object holding `"$import": "file.json"` (or `"$import": {"filename": "file.json",
//! "patch": {...}}`) is replaced by the imported file's JSON, whose own imports are
//! resolved relative to it; the optional `patch` is then applied as a JSON Merge Patch.
//! A file that imports itself, directly or through others, is a cycle: the chain stops
//! with `Catastrophic`.
//!
//! Unlike O3DE, which reads any path, imports are confined: a name resolves only inside
//! the importing file's folder (no `..` out of it, no absolute path) or through an alias
//! the caller gave, unless [`ImportOptions::allow`] lists the path. Imports are bounded
//! in count, chain depth and total size ([`ImportOptions`]); each file is read once.

use crate::duplicates::Duplicates;
use crate::patch::{apply_merge_patch, weight};
use crate::report::{Outcome as O, Report, Reporter, ResultCode, Seg, Task as T};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// The directive's member name.
pub const IMPORT_DIRECTIVE: &str = "$import";

/// Reads the files that directives name.
pub trait Importer {
    /// The JSON of the file at `path` (already joined to the importing file's folder).
    fn read(&mut self, path: &Path) -> Result<Json, String>;

    /// The JSON of the file at `path` and the objects in it that hold duplicate member
    /// names (see [`crate::parse_json_keeping_duplicates`]). By default none are recorded.
    fn read_keeping_duplicates(&mut self, path: &Path) -> Result<(Json, Duplicates), String> {
        Ok((self.read(path)?, Duplicates::default()))
    }
}

/// Reads imported files from disk (comments allowed).
#[derive(Debug, Default)]
pub struct FileImporter;

/// The largest file [`FileImporter`] reads (64 MiB).
pub const MAX_IMPORT_FILE: u64 = 64 << 20;

/// Reads a regular file of at most [`MAX_IMPORT_FILE`] bytes: devices (`/dev/zero`),
/// FIFOs and folders are refused before reading.
fn read_regular(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    // Look before opening: opening a FIFO blocks until something writes to it.
    if !std::fs::metadata(path)
        .map_err(|e| e.to_string())?
        .is_file()
    {
        return Err("not a regular file".into());
    }
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_IMPORT_FILE {
        return Err(format!(
            "{} bytes, more than the {MAX_IMPORT_FILE} an imported file may have",
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(MAX_IMPORT_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_IMPORT_FILE {
        return Err(format!(
            "more than the {MAX_IMPORT_FILE} bytes an imported file may have"
        ));
    }
    Ok(bytes)
}

impl Importer for FileImporter {
    fn read(&mut self, path: &Path) -> Result<Json, String> {
        let bytes = read_regular(path)?;
        crate::comments::parse_json(&bytes).map_err(|e| e.to_string())
    }

    fn read_keeping_duplicates(&mut self, path: &Path) -> Result<(Json, Duplicates), String> {
        let bytes = read_regular(path)?;
        crate::duplicates::parse_json_keeping_duplicates(&bytes).map_err(|e| e.to_string())
    }
}

/// Files held in memory, by path: for tests and for callers with their own storage.
#[derive(Debug, Default)]
pub struct MemoryImporter(pub std::collections::HashMap<PathBuf, Json>);

impl Importer for MemoryImporter {
    fn read(&mut self, path: &Path) -> Result<Json, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no such file: {}", path.display()))
    }
}

/// What resolving found: the report and every file imported, in order.
#[derive(Debug, Clone)]
pub struct ImportResult {
    /// The combined result (task `Import`, as O3DE reports it; `Catastrophic` on a cycle or a missing file).
    pub report: Report,
    /// Paths of all files imported, nested ones included.
    pub imported: Vec<PathBuf>,
    /// The top-level directives that were resolved: where (JSON Pointer), the file name as
    /// written, and the resolved path. [`restore_imports`] uses them to write the
    /// directives back.
    pub directives: Vec<ImportDirective>,
}

/// One resolved `$import` of the top-level document.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportDirective {
    /// JSON Pointer to the value that replaced the directive.
    pub pointer: String,
    /// The file name as written in the directive.
    pub filename: String,
    /// The file's path, relative to the importing file's folder.
    pub path: PathBuf,
}

/// Options for resolving imports.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// File aliases, as O3DE's `FileIOBase::SetAlias` holds them: `@name@` keys (a
    /// key given without the `@`s gets them) and the paths they stand for. A name that
    /// starts with an alias may go anywhere below the alias's path.
    pub aliases: Vec<(String, String)>,
    /// Paths (files, or folders and everything below them) that imports may read
    /// besides the importing file's folder and the aliases (`--allow-import`).
    pub allow: Vec<PathBuf>,
    /// Most `$import` directives resolved in all (default 10,000).
    pub max_imports: usize,
    /// Longest chain of files importing each other (default 32).
    pub max_depth: usize,
    /// Most bytes the imports may add to the document in all, weighed by
    /// [`crate::patch::weight`] (64 per JSON value plus the text of its strings and
    /// member names), each file counted once per directive that brings it in (default
    /// 256 MiB): a fan-out of files importing others twice, or one long string imported
    /// many times, stops here.
    pub max_bytes: u64,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            aliases: Vec::new(),
            allow: Vec::new(),
            max_imports: 10_000,
            max_depth: 32,
            max_bytes: 256 << 20,
        }
    }
}

/// True when `rest` (a path relative to some folder) stays inside it: only plain names,
/// no `..`, no root.
fn stays_inside(rest: &Path) -> bool {
    rest.components().all(|c| {
        matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    })
}

impl ImportOptions {
    /// Adds `path` to the paths imports may read besides the importing file's folder and
    /// the aliases (`--allow-import`).
    pub fn allow_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.allow.push(path.into());
        self
    }

    /// The alias key `name` starts with (compared without regard to ASCII case), and the
    /// rest of `name` after it.
    fn alias_of<'n>(&self, name: &'n str) -> Option<&'n str> {
        self.aliases.iter().find_map(|(key, _)| {
            let n = key.len();
            (name.len() >= n
                && name.is_char_boundary(n)
                && name.as_bytes()[..n].eq_ignore_ascii_case(key.as_bytes()))
            .then(|| &name[n..])
        })
    }

    /// Why `path` (the normalized path of `name` imported from a file in `folder`) may
    /// not be read, or `None` when it may: inside `folder`, through an alias without
    /// `..`, or under an allowed path.
    fn refusal(&self, name: &str, folder: &Path, path: &Path) -> Option<String> {
        if let Some(rest) = self.alias_of(name) {
            if !Path::new(rest.trim_start_matches(['/', '\\']))
                .components()
                .any(|c| c == std::path::Component::ParentDir)
            {
                return None;
            }
        } else if let Ok(rest) = path.strip_prefix(normalize(folder)) {
            // On disk, a symbolic link inside the folder must not lead out of it either.
            let real = std::fs::canonicalize(path).ok().zip(
                std::fs::canonicalize(if folder.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    folder
                })
                .ok(),
            );
            let escapes = real.is_some_and(|(p, f)| !p.starts_with(f));
            if stays_inside(rest) && !escapes {
                return None;
            }
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        for a in &self.allow {
            let a = normalize(a);
            let p = if a.is_absolute() { &absolute } else { path };
            if p.strip_prefix(&a).is_ok_and(stays_inside) {
                return None;
            }
        }
        Some(format!(
            "'{}' is outside the importing file's folder ('{}') and the aliases given; \
             allow it with --allow-import PATH",
            path.display(),
            folder.display()
        ))
    }

    /// Adds alias `name` (`engroot` or `@engroot@`) for `path`.
    pub fn alias(mut self, name: &str, path: &str) -> Self {
        let key = if name.len() >= 2 && name.starts_with('@') && name.ends_with('@') {
            name.to_string()
        } else {
            format!("@{}@", name.trim_matches('@'))
        };
        self.aliases.push((key, path.to_string()));
        self
    }

    /// `LocalFileIO::ReplaceAlias`: when `name` starts with an alias key (compared
    /// without regard to ASCII case), the key is replaced by the alias's path, by plain
    /// text concatenation (`@root@/a.json` → `/base` + `/a.json`). Otherwise `name` is
    /// returned unchanged, so an unknown alias makes the import fail to read.
    pub fn replace_alias(&self, name: &str) -> String {
        for (key, path) in &self.aliases {
            let n = key.len();
            if name.len() >= n
                && name.is_char_boundary(n)
                && name.as_bytes()[..n].eq_ignore_ascii_case(key.as_bytes())
            {
                return format!("{path}{}", &name[n..]);
            }
        }
        name.to_string()
    }
}

/// A file as read: its JSON, its duplicate members, and its number of values.
type Cached = (Json, Duplicates, u64);

struct Resolver<'i> {
    importer: &'i mut dyn Importer,
    opts: &'i ImportOptions,
    /// Every file read so far (each is read once however often it is imported).
    cache: std::collections::HashMap<PathBuf, std::rc::Rc<Cached>>,
    /// Directives resolved and the weight (`patch::weight`) they added so far.
    count: usize,
    weight: u64,
    rep: Reporter<'static>,
    imported: Vec<PathBuf>,
    directives: Vec<ImportDirective>,
    depth: usize,
    /// Objects with duplicate member names in the document being resolved.
    dups: Duplicates,
}

fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

impl Resolver<'_> {
    fn resolve(&mut self, doc: &mut Json, stack: &mut Vec<PathBuf>) -> ResultCode {
        self.depth += 1;
        if self.depth > 256 {
            self.depth -= 1;
            return self
                .rep
                .report(T::Import, O::Catastrophic, "Imports nest too deeply.");
        }
        let r = self.resolve_inner(doc, stack);
        self.depth -= 1;
        r
    }

    fn resolve_inner(&mut self, doc: &mut Json, stack: &mut Vec<PathBuf>) -> ResultCode {
        let ok = ResultCode::new(T::Import, O::Success);
        match doc {
            Json::Object(m) => {
                if let Some(mut directive) = m.get(IMPORT_DIRECTIVE).cloned() {
                    if !self.dups.is_empty() {
                        // With the name given twice, O3DE's FindMember takes the first.
                        let first = self.dups.get(&self.rep.pointer()).and_then(|members| {
                            members.iter().find(|(k, _)| k == IMPORT_DIRECTIVE)
                        });
                        if let Some((_, v)) = first {
                            directive = v.clone();
                        }
                    }
                    let name = match &directive {
                        Json::String(s) => s.clone(),
                        Json::Object(o) => match o.get("filename") {
                            Some(Json::String(s)) => s.clone(),
                            _ => {
                                return self.rep.report(
                                    T::Import,
                                    O::Catastrophic,
                                    "The $import directive has no \"filename\".",
                                )
                            }
                        },
                        _ => {
                            return self.rep.report(
                                T::Import,
                                O::Catastrophic,
                                "The $import directive must be a string or an object.",
                            )
                        }
                    };
                    // O3DE replaces an alias in the name before joining it to the folder
                    // (and records the replaced name as the directive's file name).
                    let written = name;
                    let name = self.opts.replace_alias(&written);
                    let base = stack
                        .last()
                        .and_then(|p| p.parent())
                        .unwrap_or(Path::new(""));
                    let path = normalize(&base.join(&name));
                    if stack.contains(&path) {
                        let msg = format!(
                            "'{}' was already imported in this chain. This indicates a cyclic dependency.",
                            path.display()
                        );
                        return self.rep.report(T::Import, O::Catastrophic, &msg);
                    }
                    if let Some(msg) = self.opts.refusal(&written, base, &path) {
                        return self.rep.report(T::Import, O::Catastrophic, &msg);
                    }
                    if stack.len() > self.opts.max_depth {
                        let msg = format!(
                            "'{}': imports chain more than {} files deep.",
                            path.display(),
                            self.opts.max_depth
                        );
                        return self.rep.report(T::Import, O::Catastrophic, &msg);
                    }
                    self.count += 1;
                    if self.count > self.opts.max_imports {
                        let msg = format!(
                            "'{}': more than {} imports in all.",
                            path.display(),
                            self.opts.max_imports
                        );
                        return self.rep.report(T::Import, O::Catastrophic, &msg);
                    }
                    let cached = match self.cache.get(&path) {
                        Some(c) => c.clone(),
                        None => match self.importer.read_keeping_duplicates(&path) {
                            Ok((j, d)) => {
                                let n = weight(&j);
                                let c = std::rc::Rc::new((j, d, n));
                                self.cache.insert(path.clone(), c.clone());
                                c
                            }
                            Err(e) => {
                                let msg = format!(
                                    "Failed to import file \"{}\". Reason: \"{e}\"",
                                    path.display()
                                );
                                return self.rep.report(T::Import, O::Catastrophic, &msg);
                            }
                        },
                    };
                    self.weight = self.weight.saturating_add(cached.2);
                    if self.weight > self.opts.max_bytes {
                        let msg = format!(
                            "'{}': imports expand past the limit of {} bytes in all \
                             (each JSON value counted as 64 bytes plus its text).",
                            path.display(),
                            self.opts.max_bytes
                        );
                        return self.rep.report(T::Import, O::Catastrophic, &msg);
                    }
                    let (mut imported, imported_dups) = (cached.0.clone(), cached.1.clone());
                    self.imported.push(path.clone());
                    if stack.len() == 1 {
                        self.directives.push(ImportDirective {
                            pointer: self.rep.pointer(),
                            filename: name.clone(),
                            path: path.clone(),
                        });
                    }
                    stack.push(path);
                    let saved = std::mem::take(&mut self.rep.path);
                    let saved_dups = std::mem::replace(&mut self.dups, imported_dups);
                    let r = self.resolve(&mut imported, stack);
                    self.rep.path = saved;
                    let mut inner = std::mem::replace(&mut self.dups, saved_dups);
                    stack.pop();
                    if r.outcome() == O::Catastrophic {
                        return r;
                    }
                    if let Json::Object(o) = &directive {
                        // `BaseJsonImporter::ApplyPatch`: only a non-empty object or array
                        // is merged in; any other patch value is ignored.
                        let patch = o.get("patch").filter(|p| match p {
                            Json::Object(m) => !m.is_empty(),
                            Json::Array(a) => !a.is_empty(),
                            _ => false,
                        });
                        if let Some(patch) = patch {
                            inner.merge_patch("", &imported, patch);
                            let pr = apply_merge_patch(&mut imported, patch);
                            self.rep.issues.extend(pr.issues);
                        }
                    }
                    *doc = imported;
                    if !(self.dups.is_empty() && inner.is_empty()) {
                        let here = self.rep.pointer();
                        self.dups.remove_under(&here);
                        self.dups.extend(inner.nest(&here));
                    }
                    return ok;
                }
                for (k, v) in m.iter_mut() {
                    if v.is_object() || v.is_array() {
                        self.rep.path.push(Seg::Owned(k.clone()));
                        let r = self.resolve(v, stack);
                        self.rep.path.pop();
                        if r.outcome() == O::Catastrophic {
                            return r;
                        }
                    }
                }
                ok
            }
            Json::Array(a) => {
                for (i, v) in a.iter_mut().enumerate() {
                    if v.is_object() || v.is_array() {
                        self.rep.path.push(Seg::Index(i));
                        let r = self.resolve(v, stack);
                        self.rep.path.pop();
                        if r.outcome() == O::Catastrophic {
                            return r;
                        }
                    }
                }
                ok
            }
            _ => ok,
        }
    }
}

/// Resolves every `$import` in `doc`, which was read from `doc_path` (imports are
/// relative to its folder).
pub fn resolve_imports(
    doc: &mut Json,
    doc_path: &Path,
    importer: &mut dyn Importer,
) -> ImportResult {
    resolve_imports_with(doc, doc_path, importer, &ImportOptions::default())
}

/// [`resolve_imports`] with options (file aliases).
pub fn resolve_imports_with(
    doc: &mut Json,
    doc_path: &Path,
    importer: &mut dyn Importer,
    opts: &ImportOptions,
) -> ImportResult {
    let mut dups = Duplicates::default();
    resolve_imports_keeping_duplicates(doc, &mut dups, doc_path, importer, opts)
}

/// [`resolve_imports_with`] for a document parsed by
/// [`crate::parse_json_keeping_duplicates`]: `dups` (the document's objects with
/// duplicate member names) is updated to the resolved document, taking in the
/// duplicates of imported files (read with [`Importer::read_keeping_duplicates`]) and
/// following their patches, so the loader still sees every member as O3DE does.
pub fn resolve_imports_keeping_duplicates(
    doc: &mut Json,
    dups: &mut Duplicates,
    doc_path: &Path,
    importer: &mut dyn Importer,
    opts: &ImportOptions,
) -> ImportResult {
    let mut r = Resolver {
        importer,
        opts,
        cache: Default::default(),
        count: 0,
        weight: 0,
        rep: Reporter::default(),
        imported: Vec::new(),
        directives: Vec::new(),
        depth: 0,
        dups: std::mem::take(dups),
    };
    let mut stack = vec![normalize(doc_path)];
    let code = r.resolve(doc, &mut stack);
    *dups = std::mem::take(&mut r.dups);
    ImportResult {
        report: Report {
            result: code,
            issues: r.rep.issues,
        },
        imported: r.imported,
        directives: r.directives,
    }
}

/// Writes the `$import` directives found by [`resolve_imports`] back into `doc`: each
/// imported value becomes `{"$import": "file"}` again, or `{"$import": {"filename":
/// "file", "patch": {...}}}` with the JSON Merge Patch from the file's (resolved)
/// content to the current value when they differ (O3DE's `StoreImports`).
pub fn restore_imports(
    doc: &mut Json,
    directives: &[ImportDirective],
    importer: &mut dyn Importer,
) -> Report {
    restore_imports_with(doc, directives, importer, &ImportOptions::default())
}

/// [`restore_imports`] with options (the aliases for imports nested in the files).
pub fn restore_imports_with(
    doc: &mut Json,
    directives: &[ImportDirective],
    importer: &mut dyn Importer,
    opts: &ImportOptions,
) -> Report {
    let mut result = ResultCode::empty(T::Import);
    let mut issues = Vec::new();
    // Innermost first, so pointers stay valid.
    for d in directives.iter().rev() {
        let Some(slot) = doc.pointer_mut(&d.pointer) else {
            result.combine(ResultCode::new(T::Import, O::Invalid));
            issues.push(crate::report::Issue {
                path: d.pointer.clone(),
                code: ResultCode::new(T::Import, O::Invalid),
                message: "The imported value is no longer in the document.".into(),
            });
            continue;
        };
        let mut original = match importer.read(&d.path) {
            Ok(j) => j,
            Err(e) => {
                let code = ResultCode::new(T::Import, O::Catastrophic);
                issues.push(crate::report::Issue {
                    path: d.pointer.clone(),
                    code,
                    message: format!("Failed to read \"{}\": {e}", d.path.display()),
                });
                result.combine(code);
                continue;
            }
        };
        let nested = resolve_imports_with(&mut original, &d.path, importer, opts);
        issues.extend(nested.report.issues);
        let (patch, _) = crate::patch::create_merge_patch(&original, slot);
        let mut directive = serde_json::Map::new();
        // `BaseJsonImporter::RestoreImport`: only a non-empty object or array is kept as
        // the patch; any other difference leaves the plain file name.
        let has_patch = match &patch {
            Json::Object(m) => !m.is_empty(),
            Json::Array(a) => !a.is_empty(),
            _ => false,
        };
        if has_patch {
            let mut inner = serde_json::Map::new();
            inner.insert("filename".into(), Json::String(d.filename.clone()));
            inner.insert("patch".into(), patch);
            directive.insert(IMPORT_DIRECTIVE.into(), Json::Object(inner));
        } else {
            directive.insert(IMPORT_DIRECTIVE.into(), Json::String(d.filename.clone()));
        }
        *slot = Json::Object(directive);
        result.combine(ResultCode::new(T::Import, O::Success));
    }
    Report { result, issues }
}
