//! A level (or any prefab) flattened as O3DE builds it: every nested prefab instance
//! expanded, its patches applied, every entity in one flat list with a unique id.
//!
//! What the engine does, and this module after it:
//!
//! - **Loading** (`PrefabLoader::LoadTemplateFromString`, `LoadNestedInstance`): each
//!   instance of `Instances` names a prefab file in `Source`, relative to the project
//!   root. That file is loaded as a template (once per file; its own nested instances
//!   expanded first), and the instance becomes a copy of it with the instance's
//!   `Patches` applied (`Link::UpdateTarget`). A file met again while it is being
//!   loaded is a cycle; O3DE refuses that branch, here it is an error naming the chain.
//! - **Patches** (`Link::RebuildLinkPatchesTree`, `GetLinkPatches`): the patches are
//!   kept in a tree keyed by their `path`, so of several patches on one path only the
//!   last counts, a patch on the root path (`""`) or without a `path` is left out, and
//!   they apply in their order in the file. They are JSON Patch (RFC 6902) with O3DE's rules ([`crate::patch`]).
//!   A patch that fails is skipped by O3DE with a warning (`PrefabDomUtils::ApplyPatches`
//!   turns a halting result into `Skipped`) and the template is marked as loaded with
//!   errors; here it is an error naming the instance alias chain, the patch's index in
//!   `Patches`, its `op` and `path`, unless [`FlattenOptions::keep_going`] asks for
//!   O3DE's behaviour (the failure is then listed in [`Flattened::skipped`]).
//! - **Defaults**: O3DE writes each loaded template back with its default values
//!   (`PrefabLoader::SanitizeLoadedTemplate`) before patching, so a patch may replace a
//!   member the file leaves out because it holds its default (a transform's
//!   `Transform Data` of a prefab's container, for one). When a patch fails on such a
//!   member and the registry knows the component's class, the defaults on the patch's
//!   path are written in (as O3DE's store with defaults kept writes them) and the patch
//!   is tried again; nothing else of the file is touched ([`Flattened::defaults_filled`]).
//! - **Entity ids** (`InstanceEntityIdMapper::MapJsonToId`, `GenerateEntityIdForAliasPath`):
//!   an entity's id is `CityHash64WithSeed` of its absolute alias path (the root
//!   instance's alias, the aliases of the instances down to it, and its own alias, joined
//!   by `/`, lexically normalised) with the seed `5915587277`. Entity references inside
//!   components are alias paths relative to the instance (`Entity_[1]`,
//!   `../Entity_[2]`, `Instance_[3]/Entity_[4]`) and map to the same ids. O3DE gives
//!   the root instance a new random alias (`Instance_[…]`) at each load, so ids are
//!   only stable relative to a root alias: [`entity_id`] takes it.
//!
//! The flattened level is a prefab without instances: its `Entities` hold every entity
//! of every instance under its alias path from the root (`Instance_[3]/Entity_[4]`,
//! `Instance_[3]/ContainerEntity` for a nested container), each entity's `Id` is that
//! path, and every entity reference is rewritten to the path it resolves to. O3DE
//! hashes the same path for the same entity either way, so the flattened level loads
//! with the ids the nested one had. [`Flattened::entities`] lists each entity with its
//! instance path, the prefab it came from and its id.

use crate::patch::{apply_patch, apply_patch_within, weight};
use crate::registry::Registry;
use crate::report::Report;
use crate::types::TypeExpr;
use crate::uuid::Uuid;
use crate::StoreOptions;
use gamewire_core::{Error, Limits, Result};
use serde_json::{Map, Value as Json};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// The seed O3DE hashes alias paths with (`InstanceEntityIdMapper::SeedKey`).
pub const SEED_KEY: u64 = 5_915_587_277;

/// The id O3DE gives the entity at `path` (an alias path from the root instance, as
/// [`FlatEntity::path`]) when the root instance's alias is `root_alias`:
/// `CityHash64WithSeed(root_alias/path, SEED_KEY)`. An empty `root_alias` hashes the
/// path alone.
pub fn entity_id(root_alias: &str, path: &str) -> u64 {
    if root_alias.is_empty() {
        crate::city::city_hash64_with_seed(path.as_bytes(), SEED_KEY)
    } else {
        let full = format!("{root_alias}/{path}");
        crate::city::city_hash64_with_seed(full.as_bytes(), SEED_KEY)
    }
}

/// How to flatten.
#[derive(Debug, Clone)]
pub struct FlattenOptions<'r> {
    /// Bounds: instances nest at most `max_depth / 16` levels (64 by default), and the
    /// expanded level may hold at most [`Limits::decompress_cap`] of the bytes read (as
    /// [`weight`] counts them): a level expands at most as a compressed stream may.
    pub limits: Limits,
    /// The registry whose classes give the defaults a patch may need (see the module
    /// documentation); `None` fills none.
    pub registry: Option<&'r Registry>,
    /// Skip a patch that fails, as O3DE does, instead of stopping.
    pub keep_going: bool,
    /// The root instance's alias for [`FlatEntity::id`] (empty: the path alone).
    pub root_alias: String,
}

impl Default for FlattenOptions<'_> {
    fn default() -> Self {
        FlattenOptions {
            limits: Limits::DEFAULT,
            registry: None,
            keep_going: false,
            root_alias: String::new(),
        }
    }
}

/// One entity of the flattened level.
#[derive(Debug, Clone, PartialEq)]
pub struct FlatEntity {
    /// Its alias path from the root instance: the instance aliases and its own alias
    /// joined by `/` (`Instance_[3]/Entity_[4]`); its key in the flattened `Entities`.
    pub path: String,
    /// The alias path of the instance it belongs to (`""` for the level itself).
    pub instance: String,
    /// The prefab file it comes from (the instance's `Source`; the level's own name for
    /// the level's entities).
    pub source: String,
    /// Its `Name`, when a string.
    pub name: Option<String>,
    /// The id O3DE gives it ([`entity_id`] with [`FlattenOptions::root_alias`]).
    pub id: u64,
}

/// A patch that could not be applied.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchFailure {
    /// The instance alias chain from the level down to the instance whose `Patches` hold
    /// the patch (`Instance_[1]/Instance_[2]`).
    pub chain: String,
    /// The prefab files along the chain, the level first.
    pub sources: Vec<String>,
    /// The patch's index in the instance's `Patches`.
    pub index: usize,
    /// Its `op` (empty when missing).
    pub op: String,
    /// Its `path` (empty when missing).
    pub path: String,
    /// Why it failed (O3DE's message, and where in the patch).
    pub message: String,
}

impl fmt::Display for PatchFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instance {} ({}): patch {} ({} {}) failed: {}",
            self.chain,
            self.sources.join(" > "),
            self.index,
            if self.op.is_empty() { "?" } else { &self.op },
            self.path,
            self.message
        )
    }
}

/// The flattened level and what flattening did.
#[derive(Debug, Clone)]
pub struct Flattened {
    /// The level as one prefab without instances (see the module documentation).
    pub document: Json,
    /// Every entity, the level's container first, then the level's entities, then each
    /// instance's container, entities and nested instances, depth first.
    pub entities: Vec<FlatEntity>,
    /// Nested instances expanded (every occurrence counted).
    pub instances: usize,
    /// Patches applied (a prefab's patches of its own instances once, however often the
    /// prefab is instanced: templates are expanded once, as O3DE's are).
    pub patches_applied: usize,
    /// Patches skipped because they failed (only with [`FlattenOptions::keep_going`]).
    pub skipped: Vec<PatchFailure>,
    /// Patches that applied once the defaults on their path were written in.
    pub defaults_filled: usize,
    /// Patches O3DE leaves out, as (instance chain, index): an earlier patch on a path a
    /// later one also patches, a patch on the root path, and an entry without a `path`
    /// string.
    pub left_out: Vec<(String, usize)>,
    /// Entity references rewritten to their path from the root.
    pub references_rewritten: usize,
    /// The prefab files read (project-relative), the level first.
    pub files: Vec<String>,
}

/// Where the prefab files come from: given a project-relative path (as `Source` names
/// it), the file's bytes.
pub trait Sources {
    /// The bytes of the prefab at `source` (a project-relative path); an error names it.
    fn read(&mut self, source: &str) -> Result<Vec<u8>>;
}

/// Files under a project folder.
#[derive(Debug, Clone)]
pub struct ProjectDir {
    /// The project root (the folder of `project.json`).
    pub root: PathBuf,
}

impl ProjectDir {
    /// The project holding `file`: the nearest folder above it with a `project.json`.
    pub fn find(file: &Path) -> Option<ProjectDir> {
        let abs = std::fs::canonicalize(file).ok()?;
        abs.ancestors()
            .skip(1)
            .find(|d| d.join("project.json").is_file())
            .map(|d| ProjectDir {
                root: d.to_path_buf(),
            })
    }

    /// `file`'s path relative to the project root, with `/` separators, when it lies
    /// under it.
    pub fn relative(&self, file: &Path) -> Option<String> {
        let abs = std::fs::canonicalize(file).ok()?;
        let root = std::fs::canonicalize(&self.root).ok()?;
        let rel = abs.strip_prefix(root).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }
}

impl Sources for ProjectDir {
    fn read(&mut self, source: &str) -> Result<Vec<u8>> {
        // Only paths inside the project: no absolute paths, no `..` above the root.
        let rel = Path::new(source);
        let mut depth = 0i32;
        for c in rel.components() {
            match c {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => depth -= 1,
                _ => depth = -1,
            }
            if depth < 0 {
                return Err(Error::msg(format!(
                    "{source}: not a path inside the project {}",
                    self.root.display()
                )));
            }
        }
        let full = self.root.join(rel);
        match std::fs::read(&full) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Projects are mostly made on Windows, whose file names ignore case:
                // a `Source` may differ in case from the file on a case-sensitive disk.
                match find_ignoring_case(&self.root, rel) {
                    Some(p) => std::fs::read(&p)
                        .map_err(|e| Error::msg(format!("{source}: {e} ({})", p.display()))),
                    None => Err(Error::msg(format!("{source}: {e} ({})", full.display()))),
                }
            }
            r => r.map_err(|e| Error::msg(format!("{source}: {e} ({})", full.display()))),
        }
    }
}

/// `rel` under `root`, each name matched ignoring ASCII case when no entry has it
/// exactly (one directory listing per name that differs).
fn find_ignoring_case(root: &Path, rel: &Path) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else {
            at.push(c.as_os_str());
            continue;
        };
        let exact = at.join(name);
        if exact.exists() {
            at = exact;
            continue;
        }
        let want = name.to_string_lossy().to_ascii_lowercase();
        let found = std::fs::read_dir(&at).ok()?.find_map(|e| {
            let e = e.ok()?;
            (e.file_name().to_string_lossy().to_ascii_lowercase() == want).then(|| e.path())
        })?;
        at = found;
    }
    Some(at)
}

/// Prefab files held in memory (project-relative path → bytes), for tests and callers
/// that have the files already.
impl Sources for HashMap<String, Vec<u8>> {
    fn read(&mut self, source: &str) -> Result<Vec<u8>> {
        self.get(source)
            .cloned()
            .ok_or_else(|| Error::msg(format!("{source}: no such prefab")))
    }
}

/// One step down the instance chain: (instance alias, its source file).
type Step = (String, String);

struct Expander<'o, 's> {
    opts: &'o FlattenOptions<'o>,
    sources: &'s mut dyn Sources,
    /// Expanded templates by source path, with their weight.
    templates: HashMap<String, (Rc<Json>, u64)>,
    /// Sources being expanded (for cycles).
    in_progress: Vec<String>,
    bytes_read: u64,
    weight: u64,
    out: Flattened,
    class_defaults: HashMap<usize, Option<Map<String, Json>>>,
}

fn chain_text(chain: &[Step]) -> String {
    let aliases: Vec<&str> = chain.iter().skip(1).map(|s| s.0.as_str()).collect();
    if aliases.is_empty() {
        "(the level)".to_string()
    } else {
        aliases.join("/")
    }
}

fn chain_sources(chain: &[Step]) -> Vec<String> {
    chain.iter().map(|s| s.1.clone()).collect()
}

impl Expander<'_, '_> {
    fn max_nesting(&self) -> usize {
        (self.opts.limits.max_depth / 16).max(1)
    }

    fn cap(&self) -> u64 {
        self.opts
            .limits
            .decompress_cap(usize::try_from(self.bytes_read).unwrap_or(usize::MAX))
    }

    fn grow(&mut self, n: u64, chain: &[Step]) -> Result<()> {
        self.weight = self.weight.saturating_add(n);
        if self.weight > self.cap() {
            return Err(Error::msg(format!(
                "instance {} ({}): the expanded level passes the limit of {} bytes for {} \
                 bytes of prefab files (each value counted as {} bytes plus its text)",
                chain_text(chain),
                chain_sources(chain).join(" > "),
                self.cap(),
                self.bytes_read,
                crate::patch::VALUE_WEIGHT
            )));
        }
        Ok(())
    }

    /// Parses a prefab and expands its nested instances; `source` is its
    /// project-relative path (`Source` is set to it, as the loader does).
    fn expand_bytes(&mut self, bytes: &[u8], source: &str, chain: &mut Vec<Step>) -> Result<Json> {
        self.bytes_read = self.bytes_read.saturating_add(bytes.len() as u64);
        self.out.files.push(source.to_string());
        let mut dom = crate::parse_json(bytes).map_err(|e| {
            Error::msg(format!(
                "instance {} ({}): {source}: {e}",
                chain_text(chain),
                chain_sources(chain).join(" > ")
            ))
        })?;
        let Json::Object(m) = &mut dom else {
            return Err(Error::msg(format!(
                "instance {} ({}): {source}: not a prefab (the top level is not an object)",
                chain_text(chain),
                chain_sources(chain).join(" > ")
            )));
        };
        if !source.is_empty() && chain.len() > 1 {
            m.insert("Source".into(), Json::String(source.to_string()));
        }
        self.weight = self.weight.saturating_add(weight(&dom));
        self.in_progress.push(source.to_string());
        let r = self.expand_instances(&mut dom, chain);
        self.in_progress.pop();
        r?;
        Ok(dom)
    }

    fn template(&mut self, source: &str, chain: &mut Vec<Step>) -> Result<(Rc<Json>, u64)> {
        if let Some(t) = self.templates.get(source) {
            return Ok(t.clone());
        }
        if self.in_progress.iter().any(|s| s == source) {
            return Err(Error::msg(format!(
                "instance {} ({}): a cycle of prefabs: {source} instances itself",
                chain_text(chain),
                chain_sources(chain).join(" > ")
            )));
        }
        let bytes = self.sources.read(source).map_err(|e| {
            Error::msg(format!(
                "instance {} ({}): missing source: {e}",
                chain_text(chain),
                chain_sources(chain).join(" > ")
            ))
        })?;
        let dom = self.expand_bytes(&bytes, source, chain)?;
        let w = weight(&dom);
        let t = (Rc::new(dom), w);
        self.templates.insert(source.to_string(), t.clone());
        Ok(t)
    }

    fn expand_instances(&mut self, dom: &mut Json, chain: &mut Vec<Step>) -> Result<()> {
        let Some(Json::Object(instances)) = dom.get_mut("Instances") else {
            return Ok(());
        };
        let aliases: Vec<String> = instances.keys().cloned().collect();
        for alias in aliases {
            let inst = instances.get_mut(&alias).expect("alias listed above");
            // One name per file, as O3DE's loader keys templates by their normalised
            // relative path: `Prefabs/./A.prefab`, `Prefabs\A.prefab` and
            // `x/../Prefabs/A.prefab` are one template (and one cycle).
            let source = match inst.get("Source") {
                Some(Json::String(s)) if !s.is_empty() => {
                    let s = s.replace('\\', "/");
                    join_alias_path("", &s).unwrap_or(s)
                }
                _ => String::new(),
            };
            chain.push((alias.clone(), source.clone()));
            if source.is_empty() {
                return Err(Error::msg(format!(
                    "instance {} ({}): no \"Source\" string naming its prefab",
                    chain_text(chain),
                    chain_sources(chain).join(" > ")
                )));
            }
            if chain.len() > self.max_nesting() + 1 {
                let e = Error::msg(format!(
                    "instance {} ({}): instances nest deeper than {} levels",
                    chain_text(chain),
                    chain_sources(chain).join(" > "),
                    self.max_nesting()
                ));
                return Err(e);
            }
            let (template, w) = self.template(&source, chain)?;
            self.grow(w, chain)?;
            let mut expanded = (*template).clone();
            let patches = match inst.get("Patches") {
                Some(Json::Array(p)) => Some(p.clone()),
                _ => None,
            };
            if let Some(p) = patches {
                self.apply_patches(&mut expanded, &p, chain)?;
            }
            if let (Json::Object(e), Some(link)) = (&mut expanded, inst.get("LinkId")) {
                e.insert("LinkId".into(), link.clone());
            }
            *inst = expanded;
            chain.pop();
        }
        Ok(())
    }

    fn apply_patches(&mut self, target: &mut Json, patches: &[Json], chain: &[Step]) -> Result<()> {
        // O3DE keeps the last patch of each path, in file order, none on the root path.
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (i, p) in patches.iter().enumerate() {
            if let Some(Json::String(path)) = p.get("path") {
                last.insert(path.as_str(), i);
            }
        }
        for (i, p) in patches.iter().enumerate() {
            let path = match p.get("path") {
                Some(Json::String(s)) => Some(s.as_str()),
                _ => None,
            };
            // Left out as O3DE leaves them: no path (the patch tree only takes entries
            // with one), the root path, or a later patch on the same path.
            match path {
                Some(path) if !path.is_empty() && last.get(path) == Some(&i) => {}
                _ => {
                    self.out.left_out.push((chain_text(chain), i));
                    continue;
                }
            }
            let one = Json::Array(vec![p.clone()]);
            let mut report = self.apply_one(target, &one, chain)?;
            if report.processing() == crate::Processing::Halted {
                if let Some(reg) = self.opts.registry {
                    if self.fill_defaults(reg, target, path.unwrap_or_default()) {
                        report = self.apply_one(target, &one, chain)?;
                        if report.processing() != crate::Processing::Halted {
                            self.out.defaults_filled += 1;
                        }
                    }
                }
            }
            if report.processing() == crate::Processing::Halted {
                let message = report
                    .issues
                    .iter()
                    .find(|i| i.code.halted())
                    .or(report.issues.first())
                    .map(|i| {
                        let at = i.path.strip_prefix("/0").unwrap_or(&i.path);
                        if at.is_empty() {
                            i.message.clone()
                        } else {
                            format!("{} (at {at} in the patch)", i.message)
                        }
                    })
                    .unwrap_or_else(|| "the patch halted".to_string());
                let text = |k: &str| match p.get(k) {
                    Some(Json::String(s)) => s.clone(),
                    _ => String::new(),
                };
                let failure = PatchFailure {
                    chain: chain_text(chain),
                    sources: chain_sources(chain),
                    index: i,
                    op: text("op"),
                    path: text("path"),
                    message,
                };
                if !self.opts.keep_going {
                    return Err(Error::msg(failure.to_string()));
                }
                self.out.skipped.push(failure);
            } else {
                self.out.patches_applied += 1;
            }
        }
        Ok(())
    }

    /// Applies a patch of one entry, counting what it adds into the level's bound:
    /// `add` and `replace` add at most their own value (no walk of the target needed);
    /// `copy` adds what it copies, weighed before and after.
    fn apply_one(&mut self, target: &mut Json, one: &Json, chain: &[Step]) -> Result<Report> {
        let is_copy = one[0].get("op").and_then(Json::as_str) == Some("copy");
        if is_copy {
            let before = weight(target);
            let report = apply_patch(target, one);
            self.grow(weight(target).saturating_sub(before), chain)?;
            return Ok(report);
        }
        let w = weight(one);
        self.grow(w, chain)?;
        Ok(apply_patch_within(target, one, w))
    }

    /// The class a component's `$type` names (`{uuid} Name`, `Name` or `{uuid}`).
    fn class_of(reg: &Registry, ty: &str) -> Option<usize> {
        let t = ty.trim();
        if let Some(rest) = t.strip_prefix('{') {
            if let Some((u, _)) = rest.split_once('}') {
                if let Some(uuid) = Uuid::parse(&format!("{{{u}}}")) {
                    if let Some(c) = reg.class_by_uuid(&uuid) {
                        return Some(c);
                    }
                }
            }
        }
        match reg.classes_named(crate::prefab::short_type_name(t)) {
            [c] => Some(*c),
            _ => None,
        }
    }

    /// A class's members as O3DE stores them with defaults kept.
    fn defaults(&mut self, reg: &Registry, class: usize) -> Option<Map<String, Json>> {
        self.class_defaults
            .entry(class)
            .or_insert_with(|| {
                let ty = TypeExpr::Class(class);
                let opts = StoreOptions {
                    keep_defaults: true,
                    ..StoreOptions::default()
                };
                match crate::store(reg, &ty, &reg.zero(&ty), &opts).0 {
                    Json::Object(m) => Some(m),
                    _ => None,
                }
            })
            .clone()
    }

    /// Writes in the default values on `path` that `target` leaves out, where a
    /// component's class (and the classes of its members) tell them. True when anything
    /// was written.
    fn fill_defaults(&mut self, reg: &Registry, target: &mut Json, path: &str) -> bool {
        let Some(rest) = path.strip_prefix('/') else {
            return false;
        };
        let tokens: Vec<String> = rest
            .split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        let mut cur = target;
        let mut class: Option<usize> = None;
        let mut wrote = false;
        for t in &tokens {
            if let Some(Json::String(ty)) = cur.get("$type") {
                class = Self::class_of(reg, ty);
            }
            let next_class = class.and_then(|c| {
                reg.classes[c]
                    .fields
                    .iter()
                    .find(|f| f.name == *t)
                    .and_then(|f| match &f.ty {
                        TypeExpr::Class(k) => Some(*k),
                        _ => None,
                    })
            });
            match cur {
                Json::Object(m) => {
                    if !m.contains_key(t.as_str()) {
                        let Some(c) = class else {
                            return wrote;
                        };
                        let Some(d) = self
                            .defaults(reg, c)
                            .and_then(|d| d.get(t.as_str()).cloned())
                        else {
                            return wrote;
                        };
                        m.insert(t.clone(), d);
                        wrote = true;
                    }
                    cur = m.get_mut(t.as_str()).expect("present or inserted");
                }
                Json::Array(a) => {
                    let Some(x) = t.parse::<usize>().ok().and_then(|i| a.get_mut(i)) else {
                        return wrote;
                    };
                    cur = x;
                }
                _ => return wrote,
            }
            class = next_class;
        }
        wrote
    }
}

/// Lexically normalises `base/rel` (`.` and `..` segments resolved); `None` when `..`
/// climbs above the root.
fn join_alias_path(base: &str, rel: &str) -> Option<String> {
    if !rel.contains("..") && !rel.contains("./") && !rel.starts_with('/') {
        return Some(if base.is_empty() {
            rel.to_string()
        } else {
            format!("{base}/{rel}")
        });
    }
    let mut parts: Vec<&str> = if base.is_empty() {
        Vec::new()
    } else {
        base.split('/').collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The entity paths of the flattened level, and the last segments of them (entity
/// aliases), to turn most strings away before building a path.
struct Known {
    paths: HashSet<String>,
    last: HashSet<String>,
}

impl Known {
    fn new(paths: HashSet<String>) -> Known {
        let last = paths
            .iter()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .collect();
        Known { paths, last }
    }

    fn contains(&self, path: &str) -> bool {
        self.paths.contains(path)
    }

    fn may_be(&self, s: &str) -> bool {
        self.last.contains(s.rsplit('/').next().unwrap_or(s))
    }
}

/// Rewrites every string in `v` that resolves (relative to the instance at `base`) to a
/// known entity path; returns how many were rewritten.
fn rewrite_refs(v: &mut Json, base: &str, known: &Known) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Json::String(s) if !s.is_empty() && known.may_be(s) => {
                if let Some(full) = join_alias_path(base, s) {
                    if full != *s && known.contains(&full) {
                        *s = full;
                        n += 1;
                    }
                }
            }
            Json::Array(a) => stack.extend(a.iter_mut()),
            Json::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k != "$type" {
                        stack.push(x);
                    }
                }
            }
            _ => {}
        }
    }
    n
}

/// [`rewrite_refs`] over an entity's members but its `Name` (a name is not a reference,
/// whatever it reads).
fn rewrite_entity_refs(e: &mut Json, base: &str, known: &Known) -> usize {
    match e {
        Json::Object(m) => m
            .iter_mut()
            .filter(|(k, _)| k.as_str() != "Name" && k.as_str() != "Id")
            .map(|(_, v)| rewrite_refs(v, base, known))
            .sum(),
        _ => 0,
    }
}

/// An entity met while walking the expanded level (moved out of it).
struct Met {
    path: String,
    instance: String,
    source: String,
    entity: Json,
}

fn entity_alias(key: &str, e: &Json) -> String {
    match e.get("Id") {
        Some(Json::String(s)) if !s.is_empty() => s.clone(),
        _ => key.to_string(),
    }
}

fn take(m: &mut Map<String, Json>, key: &str) -> Option<Json> {
    m.get_mut(key).map(std::mem::take)
}

/// Moves the entities out of an expanded prefab DOM: its container (unless it is the
/// level's: `base` empty), entities and nested instances, depth first (an explicit
/// stack: nothing here recurses). Returns the number of instances met.
fn collect(level: &mut Map<String, Json>, level_source: &str, out: &mut Vec<Met>) -> usize {
    let mut instances = 0;
    let mut stack: Vec<(Map<String, Json>, String, String)> = Vec::new();
    let mut visit = |m: &mut Map<String, Json>,
                     base: &str,
                     source: &str,
                     stack: &mut Vec<(Map<String, Json>, String, String)>| {
        if !base.is_empty() {
            if let Some(c) = take(m, "ContainerEntity").filter(Json::is_object) {
                out.push(Met {
                    path: format!("{base}/{}", entity_alias("ContainerEntity", &c)),
                    instance: base.to_string(),
                    source: source.to_string(),
                    entity: c,
                });
            }
        }
        if let Some(Json::Object(es)) = take(m, "Entities") {
            for (k, e) in es {
                if e.is_object() {
                    let alias = entity_alias(&k, &e);
                    out.push(Met {
                        path: if base.is_empty() {
                            alias
                        } else {
                            format!("{base}/{alias}")
                        },
                        instance: base.to_string(),
                        source: source.to_string(),
                        entity: e,
                    });
                }
            }
        }
        if let Some(Json::Object(is)) = take(m, "Instances") {
            let start = stack.len();
            for (k, i) in is {
                let Json::Object(i) = i else { continue };
                let path = if base.is_empty() {
                    k
                } else {
                    format!("{base}/{k}")
                };
                let src = match i.get("Source") {
                    Some(Json::String(s)) => s.clone(),
                    _ => String::new(),
                };
                stack.push((i, path, src));
                instances += 1;
            }
            stack[start..].reverse();
        }
    };
    visit(level, "", level_source, &mut stack);
    while let Some((mut dom, base, source)) = stack.pop() {
        visit(&mut dom, &base, &source, &mut stack);
    }
    instances
}

/// Flattens the level in `bytes` (named `source`, its project-relative path: the
/// level's own name in the report), reading nested prefabs from `sources`.
pub fn flatten(
    bytes: &[u8],
    source: &str,
    sources: &mut dyn Sources,
    opts: &FlattenOptions<'_>,
) -> Result<Flattened> {
    let mut x = Expander {
        opts,
        sources,
        templates: HashMap::new(),
        in_progress: Vec::new(),
        bytes_read: 0,
        weight: 0,
        out: Flattened {
            document: Json::Null,
            entities: Vec::new(),
            instances: 0,
            patches_applied: 0,
            skipped: Vec::new(),
            defaults_filled: 0,
            left_out: Vec::new(),
            references_rewritten: 0,
            files: Vec::new(),
        },
        class_defaults: HashMap::new(),
    };
    let mut chain = vec![(String::new(), source.to_string())];
    let level = x.expand_bytes(bytes, source, &mut chain)?;
    let mut out = x.out;
    // The templates are no longer needed.
    drop(x.templates);
    if !crate::prefab::is_prefab(&level) && level.get("Instances").is_none() {
        return Err(Error::msg(format!(
            "{source}: not a prefab (no \"ContainerEntity\", \"Entities\" or \"Instances\")"
        )));
    }
    let Json::Object(mut top) = level else {
        unreachable!("expand_bytes returns objects only")
    };
    let had_entities = top.contains_key("Entities");
    let mut met = Vec::new();
    out.instances = collect(&mut top, source, &mut met);
    let mut known: HashSet<String> = met.iter().map(|m| m.path.clone()).collect();
    // The level's own container.
    let level_container = top
        .get("ContainerEntity")
        .filter(|c| c.is_object())
        .map(|c| entity_alias("ContainerEntity", c));
    if let Some(alias) = &level_container {
        known.insert(alias.clone());
    }
    let known = Known::new(known);
    out.entities.reserve(met.len() + 1);
    if let (Some(alias), Some(c)) = (level_container, top.get_mut("ContainerEntity")) {
        out.references_rewritten += rewrite_entity_refs(c, "", &known);
        out.entities.push(FlatEntity {
            id: entity_id(&opts.root_alias, &alias),
            path: alias,
            instance: String::new(),
            source: source.to_string(),
            name: c.get("Name").and_then(Json::as_str).map(str::to_string),
        });
    }
    let mut entities = Map::with_capacity(met.len());
    for mut m in met {
        out.references_rewritten += rewrite_entity_refs(&mut m.entity, &m.instance, &known);
        if let Some(id) = m.entity.get_mut("Id") {
            *id = Json::String(m.path.clone());
        }
        out.entities.push(FlatEntity {
            id: entity_id(&opts.root_alias, &m.path),
            path: m.path.clone(),
            instance: m.instance,
            source: m.source,
            name: m
                .entity
                .get("Name")
                .and_then(Json::as_str)
                .map(str::to_string),
        });
        entities.insert(m.path, m.entity);
    }
    // The level's members in their order, `Entities` in its place, no `Instances`.
    let mut doc = Map::with_capacity(top.len() + 1);
    let mut entities = Some(Json::Object(entities));
    for (k, v) in top {
        match k.as_str() {
            "Instances" => {}
            "Entities" => {
                doc.insert(k, entities.take().unwrap_or_default());
            }
            _ => {
                doc.insert(k, v);
            }
        }
    }
    if let Some(e) = entities {
        if !had_entities {
            doc.insert("Entities".into(), e);
        }
    }
    out.document = Json::Object(doc);
    Ok(out)
}

/// [`flatten`] of a level file: the project root is `project` or else the nearest
/// folder above the file with a `project.json`; nested prefabs are read under it.
pub fn flatten_file(
    path: &Path,
    project: Option<&Path>,
    opts: &FlattenOptions<'_>,
) -> Result<Flattened> {
    let bytes = std::fs::read(path).map_err(|e| Error::msg(format!("{}: {e}", path.display())))?;
    let mut dir = match project {
        Some(p) => ProjectDir {
            root: p.to_path_buf(),
        },
        None => ProjectDir::find(path).ok_or_else(|| {
            Error::msg(format!(
                "{}: no project.json in any folder above it: give the project root (--project DIR)",
                path.display()
            ))
        })?,
    };
    let name = dir
        .relative(path)
        .unwrap_or_else(|| path.display().to_string());
    flatten(&bytes, &name, &mut dir, opts)
}

impl Flattened {
    /// The entity table as JSON: one object per entity (`path`, `instance`, `source`,
    /// `name`, `id`), for the CLI's `--map`.
    pub fn entities_json(&self) -> Json {
        Json::Array(
            self.entities
                .iter()
                .map(|e| {
                    serde_json::json!({
                        "path": e.path,
                        "instance": e.instance,
                        "source": e.source,
                        "name": e.name,
                        "id": e.id,
                    })
                })
                .collect(),
        )
    }

    /// A summary as JSON (counts, skipped patches, files read), for reports.
    pub fn summary_json(&self) -> Json {
        serde_json::json!({
            "entities": self.entities.len(),
            "instances": self.instances,
            "patches_applied": self.patches_applied,
            "defaults_filled": self.defaults_filled,
            "left_out": self.left_out.iter().map(|(c, i)| serde_json::json!({"instance": c, "index": i})).collect::<Vec<_>>(),
            "skipped": self.skipped.iter().map(|f| serde_json::json!({
                "instance": f.chain, "sources": f.sources, "index": f.index,
                "op": f.op, "path": f.path, "message": f.message,
            })).collect::<Vec<_>>(),
            "references_rewritten": self.references_rewritten,
            "files": self.files,
        })
    }
}
