//! O3DE JSON serialization of reflected types with O3DE's coercion rules.
//!
//! O3DE (Open 3D Engine) writes reflected C++ objects as JSON through its
//! `JsonSerialization` system: prefabs, settings, asset descriptions. Loading is
//! lenient (strings become numbers, names become enums, `{}` means "default") and
//! every step is reported as a result code. This crate reproduces those rules:
//!
//! - [`Registry`]: the classes and enums (the SerializeContext stand-in), read from JSON;
//!   [`Registry::bundled`] holds the engine's core types, [`registry_import`] reads the
//!   engine's own type dumps.
//! - [`load`]/[`load_onto`]: JSON to a typed [`Value`] with the coercions and a [`Report`].
//! - [`store`]: a [`Value`] back to canonical JSON, defaults left out.
//! - [`envelope`]: the `{"Type": "JsonSerialization", ...}` file wrapper.
//! - [`patch`]: JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386), apply and create.
//! - [`import`]: `$import` directives with cycle detection.
//! - [`de`]: a lenient serde deserializer so plain Rust structs load O3DE-style JSON.
//! - [`recognize`]: which O3DE file a file is, from its name and first bytes.
//! - [`codec`]: the uniform `decode(&[u8], &DecodeOptions)` and
//!   `encode(&Document, &EncodeOptions)` every gamewire format crate offers, over
//!   [`doc::Document`]; [`json`] its JSON text.
//! - [`doc`]: a file kept as written (member order, numbers, duplicates) for the
//!   registry-free round trip; [`infer`] lists what it shows without a registry
//!   (`$type` names, UUIDs, entity ids, asset references); [`prefab`] builds a
//!   prefab's entity tree; [`flatten`] a level with its nested prefabs expanded and
//!   patched, every entity under its alias path, as O3DE builds the level.
//! - [`typing`]: what a registry types in a file (an envelope's class, a prefab's
//!   components), the one rule of every front end; [`keep`]: what a typed load did not
//!   take, put back as written so a canonical form loses nothing.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod city;
pub mod codec;
mod comments;
pub mod compare;
pub mod de;
pub mod doc;
pub mod duplicates;
pub mod envelope;
mod fields;
pub mod flatten;
pub mod import;
pub mod infer;
pub mod inspect;
pub mod keep;
pub mod layout;
pub mod load;
mod math;
pub mod numbers;
pub mod patch;
pub mod prefab;
pub mod prefab_load;
pub mod recognize;
pub mod registry;
pub mod registry_import;
pub mod report;
pub mod store;
pub mod types;
pub mod typing;
pub mod uuid;
pub mod value;

pub use codec::{json, DecodeOptions, EncodeOptions};
pub use comments::{parse_json, parse_json_with, strip_comments, strip_comments_with};

/// A file kept as written, under the name every gamewire format crate gives its
/// borrowed view: the [`doc`] module.
pub use crate::doc as view;
pub use duplicates::{
    parse_json_keeping_duplicates, parse_json_keeping_duplicates_with, Duplicates,
};
pub use registry::Registry;
pub use report::{Issue, Outcome, Processing, Report, Reporting, ResultCode, Task};
/// The JSON crate this one reads and writes (re-exported for callers and the fuzz target).
pub use serde_json;
pub use types::TypeExpr;
pub use uuid::Uuid;
pub use value::{AssetRef, Value};

use serde_json::Value as Json;

/// Options for loading.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Clear containers that already hold elements before loading into them
    /// (O3DE's `m_clearContainers`); off by default, so elements are appended.
    pub clear_containers: bool,
    /// Deepest nesting of values accepted.
    pub max_depth: usize,
    /// Read `AZ::EntityId`s as a prefab's entity id mapper does (O3DE's
    /// `InstanceEntityIdMapper`): an entity id is the entity's alias, a string. Set by
    /// the prefab loads; off, an entity id is `{"id": u64}`.
    pub entity_id_aliases: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            clear_containers: false,
            max_depth: 1024,
            entity_id_aliases: false,
        }
    }
}

/// Options for storing.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Write values even when they equal their defaults (O3DE's `m_keepDefaults`).
    pub keep_defaults: bool,
    /// Deepest nesting of values written.
    pub max_depth: usize,
    /// Write `AZ::EntityId`s as a prefab's entity id mapper does (see
    /// [`LoadOptions::entity_id_aliases`]).
    pub entity_id_aliases: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            keep_defaults: false,
            max_depth: 1024,
            entity_id_aliases: false,
        }
    }
}

/// Loads `json` as a value of `ty`, starting from the type's default instance.
///
/// The JSON is copied first; [`load_owned`] avoids the copy by moving strings out.
/// A `serde_json::Value` holds one member per name, so duplicate member names in the
/// source text are already gone here; [`load_bytes`] (or [`load_with_duplicates`])
/// sees them as O3DE does.
pub fn load(reg: &Registry, ty: &TypeExpr, json: &Json, opts: &LoadOptions) -> (Value, Report) {
    load_owned(reg, ty, json.clone(), opts)
}

/// Loads `json` as a value of `ty`, consuming the JSON (strings are moved, not copied).
pub fn load_owned(
    reg: &Registry,
    ty: &TypeExpr,
    mut json: Json,
    opts: &LoadOptions,
) -> (Value, Report) {
    let mut v = reg.zero(ty);
    let report = load_onto_mut(reg, ty, &mut json, &mut v, opts);
    (v, report)
}

/// Loads `json` onto an existing value `out` of type `ty` (fields absent from the JSON
/// keep their current values), as `JsonSerialization::Load` does.
pub fn load_onto(
    reg: &Registry,
    ty: &TypeExpr,
    json: &Json,
    out: &mut Value,
    opts: &LoadOptions,
) -> Report {
    let mut json = json.clone();
    load_onto_mut(reg, ty, &mut json, out, opts)
}

/// [`load_onto`] that may take strings out of `json` instead of copying them (the
/// JSON is left with empty strings where values were moved).
pub fn load_onto_mut(
    reg: &Registry,
    ty: &TypeExpr,
    json: &mut Json,
    out: &mut Value,
    opts: &LoadOptions,
) -> Report {
    let mut loader = load::Loader::new(reg, opts);
    let r = loader.load(ty, json, out, false);
    loader.finish(r)
}

/// Loads `json` (parsed by [`parse_json_keeping_duplicates`], which gave `dups`) as a
/// value of `ty`: objects with duplicate member names are read member by member in
/// document order, as O3DE (rapidjson) reads them.
pub fn load_with_duplicates(
    reg: &Registry,
    ty: &TypeExpr,
    mut json: Json,
    dups: &Duplicates,
    opts: &LoadOptions,
) -> (Value, Report) {
    let mut v = reg.zero(ty);
    let mut loader = load::Loader::new(reg, opts).with_duplicates(dups);
    let r = loader.load(ty, &mut json, &mut v, false);
    (v, loader.finish(r))
}

/// Parses `bytes` (comments allowed) and loads them as a value of `ty`, seeing duplicate
/// member names as O3DE does.
pub fn load_bytes(
    reg: &Registry,
    ty: &TypeExpr,
    bytes: &[u8],
    opts: &LoadOptions,
) -> gamewire_core::Result<(Value, Report)> {
    let (json, dups) = parse_json_keeping_duplicates(bytes)?;
    Ok(load_with_duplicates(reg, ty, json, &dups, opts))
}

/// [`load_with_duplicates`] with a reporting callback, as O3DE's
/// `JsonDeserializerSettings::m_reporting`: the result of every value loaded (message,
/// code, JSON Pointer) passes through `reporting`, and loading goes on with the code
/// it returns; returning a halting code stops the load there.
pub fn load_with_reporting(
    reg: &Registry,
    ty: &TypeExpr,
    mut json: Json,
    dups: &Duplicates,
    opts: &LoadOptions,
    reporting: &mut Reporting<'_>,
) -> (Value, Report) {
    let cell = std::cell::RefCell::new(reporting);
    let mut v = reg.zero(ty);
    let mut loader = load::Loader::new(reg, opts)
        .with_duplicates(dups)
        .with_reporting(&cell);
    let r = loader.load(ty, &mut json, &mut v, false);
    let report = loader.finish(r);
    (v, report)
}

/// [`store_with_default`] with a reporting callback, as O3DE's
/// `JsonSerializerSettings::m_reporting`: the result of every value stored passes
/// through `reporting`, and storing goes on with the code it returns.
pub fn store_with_reporting(
    reg: &Registry,
    ty: &TypeExpr,
    value: &Value,
    default: Option<&Value>,
    opts: &StoreOptions,
    reporting: &mut Reporting<'_>,
) -> (Json, Report) {
    let cell = std::cell::RefCell::new(reporting);
    let keep = opts.keep_defaults && default.is_none();
    let mut s = store::Storer::new(reg, keep, opts.max_depth)
        .with_entity_id_aliases(opts.entity_id_aliases)
        .with_reporting(&cell);
    let (j, r) = s.store_root(ty, value, default);
    (j, s.finish(r))
}

/// Stores `value` of type `ty` as JSON. Classes and enums are compared against their
/// default instance; values equal to their defaults are left out unless
/// `keep_defaults` is set. A value that is all defaults gives `{}`.
pub fn store(reg: &Registry, ty: &TypeExpr, value: &Value, opts: &StoreOptions) -> (Json, Report) {
    store_with_default(reg, ty, value, None, opts)
}

/// Stores `value` against an explicit `default` value (O3DE's `defaultObject`).
///
/// With `keep_defaults` every value is written even where it equals the default, as
/// O3DE's serializers do when `ShouldKeepDefaults()` is set.
pub fn store_with_default(
    reg: &Registry,
    ty: &TypeExpr,
    value: &Value,
    default: Option<&Value>,
    opts: &StoreOptions,
) -> (Json, Report) {
    let keep = opts.keep_defaults;
    let mut s = store::Storer::new(reg, keep, opts.max_depth)
        .with_entity_id_aliases(opts.entity_id_aliases);
    let (j, r) = s.store_root(ty, value, default);
    (j, s.finish(r))
}

/// Reads JSON bytes (comments allowed) and loads them as `ty`. A file with the O3DE
/// envelope is unwrapped first (its `ClassData` is loaded).
pub fn decode(
    reg: &Registry,
    ty: &TypeExpr,
    bytes: &[u8],
    opts: &LoadOptions,
) -> gamewire_core::Result<(Value, Report)> {
    let (json, dups) = parse_json_keeping_duplicates(bytes)?;
    let (data, dups) = match envelope::Envelope::from_json(&json)? {
        Some(env) => (env.class_data, dups.rebase("/ClassData")),
        None => (json, dups),
    };
    Ok(load_with_duplicates(reg, ty, data, &dups, opts))
}

/// True when `data` (and the file name, when known) looks like an O3DE file: by
/// extension (`.prefab`, `.setreg`, `.material`, ...) or by content (the
/// `JsonSerialization` envelope, a prefab's top-level members, JSON Patch operations);
/// see [`recognize::recognize`]. Plain JSON is left to other formats. Looks at the
/// first [`recognize::PREFIX`] bytes only.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    recognize::recognize(data, file_name).is_some()
}
