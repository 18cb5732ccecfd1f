//! Registry import: type information from the engine's own tools, turned into a
//! registry file.
//!
//! Two dumps are read:
//!
//! - **`SerializeContextTools dumpsc`** (`Code/Tools/SerializeContextTools/Dumper.cpp`):
//!   `{"SerializeContext": {"{uuid}": {"Name", "Id", "Version", "IsContainer",
//!   "IsPrimitive", "GenericUuid", "Generics", "Bases": [{"Type", "Uuid"}], "Fields":
//!   [{"Name", "Type", "Uuid", "IsPointer", "Generics", ...}]}}}`. `Id` is the name the
//!   SerializeContext registered (the one `$type` uses); a field's `Uuid` is its
//!   (specialized) type id and `Type` its C++-like name with template arguments.
//! - **the SerializationContextExporter gem's class dump**: `{"classes": [{"name",
//!   "uuid", "isContainer", "typeSize", "members": [{"name", "uuid", "isBaseClass",
//!   "offset", "size"}]}]}`, where containers are classes named by their C++ template
//!   (`AZStd::vector<Foo, allocator>`).
//!
//! Field types are found by type id first (a class of the dump, or one of O3DE's types
//! with their own serializers: scalars, math types, `AZ::EntityId`, `AZStd::any`, read
//! by those serializers even though the dump lists them as classes), then from the C++
//! template name ([`map_cpp_type`]). The exporter's dump does not mark pointers: a
//! member of 8 bytes whose type is bigger is taken as a pointer to it. Every class is
//! written with `"defaults_known": false`, as the dumps hold no defaults (a store then
//! writes every value, see [`crate::registry::Class::defaults_known`]). A field whose type cannot
//! be mapped is left out of the registry and listed in the [`ImportReport`]; nothing is
//! guessed. The result is checked by [`Registry::from_json`] (cycles, sizes) before it
//! is returned.

use crate::registry::Registry;
use crate::types::{builtin, o3de_builtin, o3de_scalar};
use crate::uuid::Uuid;
use gamewire_core::{Error, Result};
use serde_json::{json, Map, Value as Json};
use std::collections::{HashMap, HashSet};

/// `sizeof` a pointer in the engine builds the dumps come from (64-bit).
const POINTER_SIZE: u64 = 8;

/// The most classes one import accepts (all inputs together).
pub const MAX_CLASSES: usize = 500_000;
/// The most fields (and bases) one class may declare.
pub const MAX_FIELDS: usize = 10_000;
/// The deepest template nesting of a C++ type name.
pub const MAX_TYPE_DEPTH: usize = 32;

/// A field whose type could not be mapped to a registry type.
#[derive(Debug, Clone, PartialEq)]
pub struct Unmapped {
    /// The class holding the field.
    pub class: String,
    /// The field (or `<base>` for a base class).
    pub field: String,
    /// The type as the dump wrote it.
    pub cpp_type: String,
    /// Why it could not be mapped.
    pub reason: String,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportReport {
    /// Classes written to the registry.
    pub classes: usize,
    /// Fields written to the registry.
    pub fields: usize,
    /// Entries of the dump not written as classes (containers, primitives), by name.
    pub skipped: usize,
    /// Fields and bases left out because their types could not be mapped.
    pub unmapped: Vec<Unmapped>,
}

impl ImportReport {
    /// One line for a terminal: the counts, and the unmapped fields counted by their
    /// most common types (the full list is [`ImportReport::to_json`]'s).
    pub fn summary(&self) -> String {
        let mut line = format!(
            "imported {} classes with {} fields; {} dump entries skipped (containers, \
             primitives)",
            self.classes, self.fields, self.skipped
        );
        if !self.unmapped.is_empty() {
            let mut by_type: std::collections::BTreeMap<&str, usize> = Default::default();
            for u in &self.unmapped {
                *by_type.entry(u.cpp_type.as_str()).or_default() += 1;
            }
            let mut top: Vec<(&str, usize)> = by_type.into_iter().collect();
            top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let shown: Vec<String> = top
                .iter()
                .take(5)
                .map(|(t, n)| format!("{t} ({n})"))
                .collect();
            line.push_str(&format!(
                "; {} fields or bases left out, their types not mapped: {}{}",
                self.unmapped.len(),
                shown.join(", "),
                if top.len() > 5 {
                    format!(" and {} more types", top.len() - 5)
                } else {
                    String::new()
                }
            ));
        }
        line
    }

    /// The report as JSON (for the CLI).
    pub fn to_json(&self) -> Json {
        json!({
            "classes": self.classes,
            "fields": self.fields,
            "skipped": self.skipped,
            "unmapped": self.unmapped.iter().map(|u| json!({
                "class": u.class, "field": u.field, "type": u.cpp_type, "reason": u.reason,
            })).collect::<Vec<_>>(),
        })
    }
}

fn err(msg: impl Into<String>) -> Error {
    Error::msg(msg)
}

/// One class of a dump, in a shape common to both dumps.
#[derive(Debug, Clone)]
struct DumpClass {
    name: String,
    uuid: Option<Uuid>,
    version: Option<u64>,
    is_container: bool,
    is_primitive: bool,
    /// Base classes: (C++ name, type id).
    bases: Vec<(String, Option<Uuid>)>,
    /// Fields: (name, C++ type name, type id, is pointer).
    fields: Vec<(String, String, Option<Uuid>, bool)>,
    /// `sizeof` the class (the exporter's `typeSize`), when the dump gives it.
    type_size: Option<u64>,
    /// `sizeof` each field, in `fields` order (the exporter's member `size`).
    field_sizes: Vec<Option<u64>>,
}

/// Which dump a JSON document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpKind {
    /// `SerializeContextTools dumpsc`.
    Dumpsc,
    /// The SerializationContextExporter gem's class dump.
    Exporter,
}

/// Which dump `json` is, or `None`.
pub fn dump_kind(json: &Json) -> Option<DumpKind> {
    if json.get("SerializeContext").is_some_and(|v| v.is_object()) {
        Some(DumpKind::Dumpsc)
    } else if json.get("classes").is_some_and(|v| {
        v.as_array().is_some_and(|a| {
            a.iter()
                .all(|c| c.get("members").is_some() || c.get("typeSize").is_some())
        })
    }) {
        Some(DumpKind::Exporter)
    } else {
        None
    }
}

fn str_of<'a>(j: &'a Json, key: &str) -> Option<&'a str> {
    j.get(key).and_then(|v| v.as_str())
}

fn bool_of(j: &Json, key: &str) -> bool {
    j.get(key).and_then(|v| v.as_bool()).unwrap_or(false)
}

fn uuid_of(j: &Json, key: &str) -> Option<Uuid> {
    str_of(j, key).and_then(Uuid::parse)
}

fn read_dumpsc(json: &Json, where_: &str, out: &mut Vec<DumpClass>) -> Result<()> {
    let Some(sc) = json.get("SerializeContext").and_then(|v| v.as_object()) else {
        return Err(err(format!("{where_}: no \"SerializeContext\" object")));
    };
    for (key, node) in sc {
        if out.len() >= MAX_CLASSES {
            return Err(err(format!("{where_}: more than {MAX_CLASSES} classes")));
        }
        let Some(obj) = node.as_object() else {
            return Err(err(format!(
                "{where_}: /SerializeContext/{key} is not an object"
            )));
        };
        let is_container = bool_of(node, "IsContainer") || obj.contains_key("GenericUuid");
        // `Id` is the registered name; a container's `Id` is only its template
        // (`AZStd::vector`), its `Namespace` and `Name` spell the arguments too.
        let full_name = str_of(node, "Name").map(|n| match str_of(node, "Namespace") {
            Some(ns) => format!("{ns}::{n}"),
            None => n.to_string(),
        });
        let name = match (str_of(node, "Id"), full_name) {
            (_, Some(full)) if is_container => full,
            (Some(id), _) => id.to_string(),
            (None, Some(full)) => full,
            (None, None) => {
                return Err(err(format!(
                    "{where_}: /SerializeContext/{key} has no \"Id\" or \"Name\""
                )))
            }
        };
        let name = name.as_str();
        let list = |k: &str| -> Result<&[Json]> {
            match obj.get(k) {
                None => Ok(&[]),
                Some(Json::Array(a)) if a.len() <= MAX_FIELDS => Ok(a),
                Some(Json::Array(a)) => Err(err(format!(
                    "{where_}: class {name}: {} entries in \"{k}\", past the limit of {MAX_FIELDS}",
                    a.len()
                ))),
                Some(_) => Err(err(format!(
                    "{where_}: class {name}: \"{k}\" is not an array"
                ))),
            }
        };
        let bases = list("Bases")?
            .iter()
            .map(|b| {
                (
                    str_of(b, "Type").unwrap_or("").to_string(),
                    uuid_of(b, "Uuid"),
                )
            })
            .collect();
        let mut fields = Vec::new();
        for f in list("Fields")? {
            let fname = str_of(f, "Name")
                .ok_or_else(|| err(format!("{where_}: class {name}: a field has no \"Name\"")))?;
            let ty = str_of(f, "Type").unwrap_or("").to_string();
            fields.push((
                fname.to_string(),
                ty,
                uuid_of(f, "Uuid"),
                bool_of(f, "IsPointer"),
            ));
        }
        out.push(DumpClass {
            name: name.to_string(),
            uuid: Uuid::parse(key),
            version: node.get("Version").and_then(|v| v.as_u64()),
            is_container,
            is_primitive: bool_of(node, "IsPrimitive"),
            bases,
            fields,
            type_size: None,
            field_sizes: Vec::new(),
        });
    }
    Ok(())
}

fn read_exporter(json: &Json, where_: &str, out: &mut Vec<DumpClass>) -> Result<()> {
    let Some(classes) = json.get("classes").and_then(|v| v.as_array()) else {
        return Err(err(format!("{where_}: no \"classes\" array")));
    };
    for (i, c) in classes.iter().enumerate() {
        if out.len() >= MAX_CLASSES {
            return Err(err(format!("{where_}: more than {MAX_CLASSES} classes")));
        }
        let name = str_of(c, "name")
            .ok_or_else(|| err(format!("{where_}: /classes/{i} has no \"name\"")))?;
        let members = match c.get("members") {
            None => &[][..],
            Some(Json::Array(a)) if a.len() <= MAX_FIELDS => a,
            Some(Json::Array(a)) => {
                return Err(err(format!(
                    "{where_}: class {name}: {} members, past the limit of {MAX_FIELDS}",
                    a.len()
                )))
            }
            Some(_) => {
                return Err(err(format!(
                    "{where_}: class {name}: \"members\" is not an array"
                )))
            }
        };
        let mut bases = Vec::new();
        let mut fields = Vec::new();
        let mut field_sizes = Vec::new();
        for m in members {
            let mname = str_of(m, "name")
                .ok_or_else(|| err(format!("{where_}: class {name}: a member has no \"name\"")))?;
            let u = uuid_of(m, "uuid");
            if bool_of(m, "isBaseClass") {
                bases.push((String::new(), u));
            } else {
                fields.push((mname.to_string(), String::new(), u, false));
                field_sizes.push(m.get("size").and_then(|v| v.as_u64()));
            }
        }
        out.push(DumpClass {
            name: name.to_string(),
            uuid: uuid_of(c, "uuid"),
            version: None,
            is_container: bool_of(c, "isContainer"),
            is_primitive: false,
            bases,
            fields,
            type_size: c.get("typeSize").and_then(|v| v.as_u64()),
            field_sizes,
        });
    }
    Ok(())
}

/// Imports the dumps in `inputs` (each `(name for messages, parsed JSON)`) as one
/// registry. Classes met twice (same type id) are taken once.
pub fn import(inputs: &[(String, Json)]) -> Result<(Json, ImportReport)> {
    let mut all = Vec::new();
    for (name, json) in inputs {
        match dump_kind(json) {
            Some(DumpKind::Dumpsc) => read_dumpsc(json, name, &mut all)?,
            Some(DumpKind::Exporter) => read_exporter(json, name, &mut all)?,
            None => {
                return Err(err(format!(
                    "{name}: neither a SerializeContextTools dumpsc file (\"SerializeContext\") nor a SerializationContextExporter dump (\"classes\" with \"members\")"
                )))
            }
        }
    }
    build(all)
}

/// Turns the dump's classes into registry JSON.
fn build(all: Vec<DumpClass>) -> Result<(Json, ImportReport)> {
    let mut report = ImportReport::default();
    // One entry per type id (the first one met).
    let mut seen = HashSet::new();
    let all: Vec<DumpClass> = all
        .into_iter()
        .filter(|c| c.uuid.map_or(true, |u| seen.insert(u)))
        .collect();
    let by_uuid: HashMap<Uuid, usize> = all
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.uuid.map(|u| (u, i)))
        .collect();
    // What becomes a registry class: not a container, not a scalar O3DE knows.
    let is_class = |c: &DumpClass| -> bool {
        !c.is_container
            && !c.is_primitive
            && c.uuid.and_then(|u| o3de_builtin(&u)).is_none()
            && builtin(&c.name).is_none()
            && map_cpp_type(&c.name, &|_| None).is_err()
    };
    let classes: Vec<usize> = (0..all.len()).filter(|&i| is_class(&all[i])).collect();
    let class_set: HashSet<usize> = classes.iter().copied().collect();
    // Class names for C++ names in templates: full name, and the last `::` segment
    // when it is unique.
    let mut by_name: HashMap<String, Option<usize>> = HashMap::new();
    for &i in &classes {
        let n = &all[i].name;
        by_name.insert(n.clone(), Some(i));
        if let Some(short) = n.rsplit("::").next().filter(|s| *s != n) {
            by_name
                .entry(short.to_string())
                .and_modify(|e| {
                    if *e != Some(i) {
                        *e = None
                    }
                })
                .or_insert(Some(i));
        }
    }
    // Names written into the registry: the class name, or `{uuid} name` when two
    // classes share it (the registry then tells them apart by UUID).
    let mut name_count: HashMap<String, usize> = HashMap::new();
    for &i in &classes {
        *name_count
            .entry(all[i].name.to_ascii_lowercase())
            .or_default() += 1;
    }
    let reg_name = |i: usize| -> String {
        let c = &all[i];
        let plain = c
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
        match (c.uuid, name_count.get(&c.name.to_ascii_lowercase())) {
            (Some(u), Some(n)) if *n > 1 || !plain => u.to_string(),
            _ => c.name.clone(),
        }
    };
    let class_ref =
        |name: &str| -> Option<String> { by_name.get(name).copied().flatten().map(reg_name) };
    // A type id to a registry type text, when it names a class or a scalar.
    let by_id = |u: &Uuid| -> Option<std::result::Result<String, String>> {
        if let Some(t) = o3de_builtin(u) {
            return Some(Ok(t.to_string()));
        }
        let &i = by_uuid.get(u)?;
        if class_set.contains(&i) {
            return Some(Ok(reg_name(i)));
        }
        // A container or a primitive of the dump: map its name.
        Some(map_cpp_type(&all[i].name, &class_ref))
    };
    let mut out = Vec::with_capacity(classes.len());
    for &i in &classes {
        let c = &all[i];
        let mut bases = Vec::new();
        for (bname, bu) in &c.bases {
            let found = bu
                .and_then(|u| by_uuid.get(&u).copied())
                .filter(|b| class_set.contains(b))
                .or_else(|| by_name.get(bname.as_str()).copied().flatten());
            match found {
                Some(b) => bases.push(Json::String(reg_name(b))),
                None => report.unmapped.push(Unmapped {
                    class: c.name.clone(),
                    field: "<base>".into(),
                    cpp_type: if bname.is_empty() {
                        bu.map(|u| u.to_string()).unwrap_or_default()
                    } else {
                        bname.clone()
                    },
                    reason: "the base class is not in the dump".into(),
                }),
            }
        }
        let mut fields = Vec::new();
        for (n, (fname, fty, fu, ptr)) in c.fields.iter().enumerate() {
            // The exporter's dump does not say which members are pointers; a member of
            // a pointer's size (8 bytes) whose type is bigger is one (the editor's
            // `GenericComponentWrapper::m_template` is an `AZ::Component*`).
            let target_size = fu
                .as_ref()
                .and_then(|u| by_uuid.get(u))
                .and_then(|&i| all[i].type_size);
            let ptr = *ptr
                || (c.field_sizes.get(n).copied().flatten() == Some(POINTER_SIZE)
                    && target_size.is_some_and(|t| t != POINTER_SIZE));
            let mapped = match fu.as_ref().and_then(by_id) {
                // The dump's own name for the type failed: the field's spelling may not.
                Some(Err(e)) if !fty.is_empty() => map_cpp_type(fty, &class_ref).map_err(|_| e),
                Some(r) => r,
                None if !fty.is_empty() => map_cpp_type(fty, &class_ref),
                None => Err(format!(
                    "type id {} is not in the dump",
                    fu.map(|u| u.to_string()).unwrap_or_default()
                )),
            };
            match mapped {
                Ok(t) => {
                    let t = if ptr && !t.ends_with('*') {
                        format!("{t}*")
                    } else {
                        t
                    };
                    fields.push(json!({"name": fname, "type": t}));
                }
                Err(reason) => report.unmapped.push(Unmapped {
                    class: c.name.clone(),
                    field: fname.clone(),
                    cpp_type: if fty.is_empty() {
                        fu.map(|u| u.to_string()).unwrap_or_default()
                    } else {
                        fty.clone()
                    },
                    reason,
                }),
            }
        }
        report.fields += fields.len();
        let mut o = Map::new();
        o.insert("name".into(), Json::String(c.name.clone()));
        if let Some(u) = c.uuid {
            o.insert("uuid".into(), Json::String(u.to_string()));
        }
        if let Some(v) = c.version {
            o.insert("version".into(), json!(v));
        }
        // The dumps hold no default values: a store writes every value of the class.
        o.insert("defaults_known".into(), Json::Bool(false));
        if !bases.is_empty() {
            o.insert("bases".into(), Json::Array(bases));
        }
        if !fields.is_empty() {
            o.insert("fields".into(), Json::Array(fields));
        }
        out.push(Json::Object(o));
    }
    report.classes = out.len();
    report.skipped = all.len() - out.len();
    let reg = json!({ "classes": out });
    // The registry must load: cycles (a class its own base), sizes, unknown names.
    Registry::from_json(&reg).map_err(|e| err(format!("imported registry: {e}")))?;
    Ok((reg, report))
}

/// A C++ type name from a dump (`AZStd::vector<AZStd::shared_ptr<Foo>, allocator>`)
/// as a registry type (`vector<shared_ptr<Foo>>`). `class_ref` gives the registry name
/// of a class known by its C++ name. An error says what could not be mapped.
pub fn map_cpp_type(
    text: &str,
    class_ref: &dyn Fn(&str) -> Option<String>,
) -> std::result::Result<String, String> {
    let t = parse_cpp(text)?;
    map_node(&t, class_ref, 0)
}

/// A parsed C++ type: a name, template arguments, pointer levels.
#[derive(Debug)]
enum CppArg {
    Type(CppType),
    Number(String),
}

#[derive(Debug)]
struct CppType {
    name: String,
    args: Vec<CppArg>,
    pointer: bool,
}

fn parse_cpp(text: &str) -> std::result::Result<CppType, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let t = parse_cpp_at(b, &mut i, 0).map_err(|e| format!("{e} in '{text}'"))?;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i != b.len() {
        return Err(format!("unexpected text at column {} of '{text}'", i + 1));
    }
    Ok(t)
}

fn parse_cpp_at(b: &[u8], i: &mut usize, depth: usize) -> std::result::Result<CppType, String> {
    if depth > MAX_TYPE_DEPTH {
        return Err(format!("templates nested more than {MAX_TYPE_DEPTH} deep"));
    }
    let skip = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    skip(i);
    // A name: words joined by `::` or spaces (`unsigned int`, `const char`).
    let mut name = String::new();
    loop {
        let st = *i;
        while *i < b.len()
            && (b[*i].is_ascii_alphanumeric() || matches!(b[*i], b'_' | b':' | b'{' | b'}' | b'-'))
        {
            *i += 1;
        }
        if st == *i {
            break;
        }
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(std::str::from_utf8(&b[st..*i]).unwrap_or(""));
        skip(i);
        if !(*i < b.len() && b[*i].is_ascii_alphabetic()) {
            break;
        }
    }
    if name.is_empty() {
        return Err(format!("expected a type name at column {}", *i + 1));
    }
    let mut args = Vec::new();
    if b.get(*i) == Some(&b'<') {
        *i += 1;
        loop {
            skip(i);
            if b.get(*i) == Some(&b'>') {
                *i += 1;
                break;
            }
            if b.get(*i).is_some_and(|c| c.is_ascii_digit() || *c == b'-') {
                let st = *i;
                *i += 1;
                while *i < b.len() && (b[*i].is_ascii_alphanumeric()) {
                    *i += 1;
                }
                args.push(CppArg::Number(
                    String::from_utf8_lossy(&b[st..*i]).into_owned(),
                ));
            } else {
                args.push(CppArg::Type(parse_cpp_at(b, i, depth + 1)?));
            }
            skip(i);
            match b.get(*i) {
                Some(b',') => *i += 1,
                Some(b'>') => {
                    *i += 1;
                    break;
                }
                _ => return Err(format!("expected ',' or '>' at column {}", *i + 1)),
            }
        }
    }
    skip(i);
    let mut pointer = false;
    while matches!(b.get(*i), Some(b'*') | Some(b'&')) {
        pointer = true;
        *i += 1;
        skip(i);
    }
    Ok(CppType {
        name,
        args,
        pointer,
    })
}

/// Template arguments that only choose an allocator, a comparison or a hash.
fn is_policy(t: &CppArg) -> bool {
    let CppArg::Type(t) = t else { return false };
    let n = t
        .name
        .rsplit("::")
        .next()
        .unwrap_or(&t.name)
        .to_ascii_lowercase();
    n.contains("alloc")
        || matches!(
            n.as_str(),
            "less" | "greater" | "hash" | "equal_to" | "char_traits" | "default_delete"
        )
}

fn map_node(
    t: &CppType,
    class_ref: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> std::result::Result<String, String> {
    if depth > MAX_TYPE_DEPTH {
        return Err("nested too deeply".into());
    }
    let s = map_plain(t, class_ref, depth)?;
    Ok(if t.pointer { format!("{s}*") } else { s })
}

fn map_plain(
    t: &CppType,
    class_ref: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> std::result::Result<String, String> {
    let full = t.name.as_str();
    let base = full.rsplit("::").next().unwrap_or(full);
    let args: Vec<&CppArg> = t.args.iter().filter(|a| !is_policy(a)).collect();
    let ty = |k: usize| -> std::result::Result<String, String> {
        match args.get(k) {
            Some(CppArg::Type(a)) => map_node(a, class_ref, depth + 1),
            _ => Err(format!("{full}<...> needs a type as argument {}", k + 1)),
        }
    };
    let num = |k: usize| -> std::result::Result<String, String> {
        match args.get(k) {
            Some(CppArg::Number(n)) => Ok(n
                .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .to_string()),
            _ => Err(format!("{full}<...> needs a number as argument {}", k + 1)),
        }
    };
    if t.args.is_empty() {
        if let Some(b) = builtin(full).or_else(|| cpp_scalar(full)) {
            return Ok(b.to_string());
        }
        if let Some(c) = class_ref(full) {
            return Ok(c);
        }
        if full.starts_with('{') {
            return Err(format!("type id {full} is not a class of the dump"));
        }
        return Err(format!(
            "'{full}' is not a class of the dump nor a known O3DE type"
        ));
    }
    Ok(match base {
        "basic_string" => "string".into(),
        "vector" | "deque" => format!("vector<{}>", ty(0)?),
        "list" | "forward_list" => format!("list<{}>", ty(0)?),
        "fixed_vector" => format!("fixed_vector<{},{}>", ty(0)?, num(1)?),
        "array" => format!("array<{},{}>", ty(0)?, num(1)?),
        "set" => format!("set<{}>", ty(0)?),
        "unordered_set" => format!("unordered_set<{}>", ty(0)?),
        "unordered_multiset" => format!("unordered_multiset<{}>", ty(0)?),
        "map" => format!("map<{},{}>", ty(0)?, ty(1)?),
        "unordered_map" => format!("unordered_map<{},{}>", ty(0)?, ty(1)?),
        "unordered_multimap" => format!("unordered_multimap<{},{}>", ty(0)?, ty(1)?),
        "pair" => format!("pair<{},{}>", ty(0)?, ty(1)?),
        "tuple" => {
            let parts = (0..args.len())
                .map(ty)
                .collect::<std::result::Result<Vec<_>, _>>()?;
            format!("tuple<{}>", parts.join(","))
        }
        "unique_ptr" => format!("unique_ptr<{}>", ty(0)?),
        "shared_ptr" | "intrusive_ptr" => format!("shared_ptr<{}>", ty(0)?),
        "Asset" => match args.first() {
            Some(CppArg::Type(a)) => {
                format!("Asset<{}>", a.name.rsplit("::").next().unwrap_or(&a.name))
            }
            _ => return Err(format!("{full}<...> needs an asset type")),
        },
        _ => {
            return Err(format!(
                "the template {full}<...> has no registry counterpart"
            ))
        }
    })
}

/// C++ spellings of scalar types that [`builtin`] does not take.
fn cpp_scalar(name: &str) -> Option<crate::types::TypeExpr> {
    use crate::types::TypeExpr as T;
    Some(match name {
        "unsigned char" | "AZ::u8" => T::U8,
        "signed char" => T::I8,
        "unsigned short" => T::U16,
        "unsigned int" | "unsigned" => T::U32,
        "long long" | "AZ::s64" => T::I64,
        "unsigned long" | "unsigned long long" => T::U64,
        "AZStd::string" | "AZ::OSString" | "OSString" => T::String,
        // `AZ::Name` is read and written by the string serializer (NameJsonSerializer).
        "AZ::Name" | "Name" => T::String,
        _ => return o3de_scalar(name, None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn maps_containers_and_drops_allocators() {
        let foo = |n: &str| (n == "Foo" || n == "ShapeConfiguration").then(|| n.to_string());
        assert_eq!(
            map_cpp_type(
                "AZStd::vector<AZStd::shared_ptr<ShapeConfiguration>, allocator>",
                &foo
            ),
            Ok("vector<shared_ptr<ShapeConfiguration>>".into())
        );
        assert_eq!(
            map_cpp_type(
                "AZStd::unordered_map<AZStd::basic_string<char, AZStd::char_traits<char>, allocator>, Foo*, AZStd::hash<x>, AZStd::equal_to<x>, allocator>",
                &foo
            ),
            Ok("unordered_map<string,Foo*>".into())
        );
        assert_eq!(
            map_cpp_type("AZStd::array<unsigned char, 4>", &none),
            Ok("array<u8,4>".into())
        );
        assert_eq!(map_cpp_type("AZ::u64", &none), Ok("u64".into()));
        assert!(map_cpp_type("AZStd::variant<int, float>", &none).is_err());
        assert!(map_cpp_type("Unknown", &none)
            .unwrap_err()
            .contains("Unknown"));
        assert!(map_cpp_type("vector<", &none).is_err());
        let deep = "AZStd::vector<".repeat(100) + "int" + &">".repeat(100);
        assert!(map_cpp_type(&deep, &none).is_err());
    }
}
