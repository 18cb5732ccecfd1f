//! `$import` directives, as O3DE's `JsonImportResolver` resolves them.
//!
//! An object holding `"$import": "file.json"` (or `"$import": {"filename": "file.json",
//! "patch": {...}}`) is replaced by the imported file's JSON, whose own imports are
//! resolved relative to it; the optional `patch` is then applied as a JSON Merge Patch.
//! A file that imports itself, directly or through others, is a cycle: the chain stops
//! with `Catastrophic`.

use crate::duplicates::Duplicates;
use crate::patch::apply_merge_patch;
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

impl Importer for FileImporter {
    fn read(&mut self, path: &Path) -> Result<Json, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        crate::comments::parse_json(&bytes).map_err(|e| e.to_string())
    }

    fn read_keeping_duplicates(&mut self, path: &Path) -> Result<(Json, Duplicates), String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
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
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// File aliases, as O3DE's `FileIOBase::SetAlias` holds them: `@name@` keys (a
    /// key given without the `@`s gets them) and the paths they stand for.
    pub aliases: Vec<(String, String)>,
}

impl ImportOptions {
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

struct Resolver<'i> {
    importer: &'i mut dyn Importer,
    opts: &'i ImportOptions,
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
                    let name = self.opts.replace_alias(&name);
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
                    let (mut imported, imported_dups) =
                        match self.importer.read_keeping_duplicates(&path) {
                            Ok(j) => j,
                            Err(e) => {
                                let msg = format!(
                                    "Failed to import file \"{}\". Reason: \"{e}\"",
                                    path.display()
                                );
                                return self.rep.report(T::Import, O::Catastrophic, &msg);
                            }
                        };
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
