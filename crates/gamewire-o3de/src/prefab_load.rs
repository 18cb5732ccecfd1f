//! Typed load of prefabs (re-exported from [`crate::prefab`]): each component of each entity loaded as the class its
//! `$type` names, with the registry's defaults and O3DE's coercions.
//!
//! A prefab (`.prefab`, levels included) is a prefab DOM: `ContainerEntity`, `Entities`
//! (entity alias to entity), `Instances` (instance alias to `{"Source", "Patches",
//! "LinkId"}`). An entity is `{"Id", "Name", "Components"}` and `Components` maps a
//! component alias to `{"$type": ..., "Id": ..., fields...}`. A component whose type the
//! registry knows is loaded as that class; one it does not know keeps its JSON verbatim
//! and is named in the [`PrefabReport`]; it never fails the file.
//!
//! Entity ids are read and written as the prefab's entity id mapper does
//! ([`prefab_load_options`]: the entity's alias, a string).
//!
//! With `canonical`, each typed component is written back as O3DE's store writes it
//! (values equal to their known defaults left out, coerced values in their stored form);
//! its `$type` stays first, as written. What the load did not take (members no class
//! declares, values it could not read) is put back as written at its place
//! ([`crate::keep`]) and listed in [`PrefabReport::kept`]; anything that could not be is
//! listed in [`PrefabReport::lost`], which a caller must not call complete.

use crate::load::{Loader, TypeFound};
use crate::registry::Registry;
use crate::report::{Issue, Outcome};
use crate::types::TypeExpr;
use crate::{LoadOptions, StoreOptions};
use serde_json::{json, Map, Value as Json};

/// What a typed load of one component found.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentReport {
    /// JSON Pointer to the component.
    pub path: String,
    /// The `$type` as written.
    pub type_name: String,
    /// The overall outcome of the load (`DefaultsUsed`/`PartialDefaults` when fields
    /// were absent and took their defaults).
    pub outcome: Outcome,
    /// Members the canonical form leaves out because they equal their defaults, as
    /// O3DE's store leaves them out (only for classes whose defaults the registry knows).
    pub left_out: Vec<String>,
    /// Members the canonical form writes differently (coerced on load).
    pub rewritten: Vec<String>,
    /// Members and values kept as written (JSON Pointers from the document root): no
    /// registry type describes them, or their load failed.
    pub kept: Vec<String>,
}

/// A member or value kept as written, or one that could not be kept.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptReport {
    /// JSON Pointer from the document root.
    pub path: String,
    /// Why the typed load did not take it.
    pub why: String,
}

/// The report of a typed prefab load.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PrefabReport {
    /// Entities met (the container entity included).
    pub entities: usize,
    /// Components met.
    pub components: usize,
    /// Components loaded as a registry class.
    pub typed: usize,
    /// Components no registry class matched: (JSON Pointer, `$type`), kept verbatim.
    pub unknown: Vec<(String, String)>,
    /// Nested prefab instances met.
    pub instances: usize,
    /// Typed components whose load used defaults or whose canonical form differs.
    pub changed: Vec<ComponentReport>,
    /// Issues the loads reported, with paths from the document root.
    pub issues: Vec<Issue>,
    /// Members and values the canonical form keeps as written (see [`crate::keep`]).
    pub kept: Vec<KeptReport>,
    /// Members and values the canonical form could not keep: lost from it. A canonical
    /// output with any is refused by the CLI.
    pub lost: Vec<KeptReport>,
}

impl PrefabReport {
    /// One line: components typed and unknown, issues (the first one named), members
    /// kept as written and lost.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "typed load of {} of {} components in {} entities",
            self.typed, self.components, self.entities
        );
        let mut types: Vec<&str> = self.unknown.iter().map(|u| u.1.as_str()).collect();
        types.sort_unstable();
        types.dedup();
        if !types.is_empty() {
            line.push_str(&format!(
                "; {} component type(s) the registry does not know ({}{})",
                types.len(),
                types.iter().take(3).copied().collect::<Vec<_>>().join(", "),
                if types.len() > 3 { ", ..." } else { "" }
            ));
        }
        if let Some(first) = self.issues.first() {
            line.push_str(&format!(
                "; {} issue(s), the first at {}: {}",
                self.issues.len(),
                first.path,
                first.message
            ));
        }
        if !self.kept.is_empty() {
            line.push_str(&format!("; {} value(s) kept as written", self.kept.len()));
        }
        if !self.lost.is_empty() {
            line.push_str(&format!("; {} value(s) lost", self.lost.len()));
        }
        line
    }

    /// The report as JSON (for the CLI).
    pub fn to_json(&self) -> Json {
        let mut unknown_types: Vec<&str> = self.unknown.iter().map(|u| u.1.as_str()).collect();
        unknown_types.sort_unstable();
        unknown_types.dedup();
        json!({
            "entities": self.entities,
            "components": self.components,
            "typed": self.typed,
            "instances": self.instances,
            "unknown_types": unknown_types,
            "unknown": self.unknown.iter().map(|(p, t)| json!({"path": p, "type": t})).collect::<Vec<_>>(),
            "changed": self.changed.iter().map(|c| json!({
                "path": c.path,
                "type": c.type_name,
                "outcome": format!("{:?}", c.outcome),
                "left_out_as_default": c.left_out,
                "rewritten": c.rewritten,
                "kept_as_written": c.kept,
            })).collect::<Vec<_>>(),
            "kept_as_written": self.kept.iter().map(|k| json!({"path": k.path, "why": k.why})).collect::<Vec<_>>(),
            "lost": self.lost.iter().map(|k| json!({"path": k.path, "why": k.why})).collect::<Vec<_>>(),
            "issues": self.issues.iter().map(|i| json!({
                "path": i.path, "result": i.code.to_string(), "message": i.message,
            })).collect::<Vec<_>>(),
        })
    }
}

/// A JSON Pointer segment (`~` and `/` escaped).
fn seg(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// True when `json` looks like a prefab DOM.
pub fn is_prefab(json: &Json) -> bool {
    json.get("ContainerEntity").is_some_and(|v| v.is_object())
        || json.get("Entities").is_some_and(|v| v.is_object())
}

/// Loads every component of the prefab `doc` typed; with `canonical`, rewrites the
/// typed components in `doc` in O3DE's canonical form. Nested instance DOMs (with their
/// own entities) are walked too; `Patches` are left as written.
pub fn load_prefab(reg: &Registry, doc: &mut Json, canonical: bool) -> PrefabReport {
    let mut report = PrefabReport::default();
    walk_dom(reg, doc, "", canonical, &mut report, 0);
    report
}

fn walk_dom(
    reg: &Registry,
    dom: &mut Json,
    at: &str,
    canonical: bool,
    report: &mut PrefabReport,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    let Some(m) = dom.as_object_mut() else {
        return;
    };
    if let Some(e) = m.get_mut("ContainerEntity") {
        entity(reg, e, &format!("{at}/ContainerEntity"), canonical, report);
    }
    if let Some(Json::Object(es)) = m.get_mut("Entities") {
        for (k, e) in es.iter_mut() {
            entity(
                reg,
                e,
                &format!("{at}/Entities/{}", seg(k)),
                canonical,
                report,
            );
        }
    }
    if let Some(Json::Object(is)) = m.get_mut("Instances") {
        for (k, inst) in is.iter_mut() {
            report.instances += 1;
            let path = format!("{at}/Instances/{}", seg(k));
            if let Some(ty) = typed_class(reg, "PrefabInstance") {
                let mut head = Map::new();
                if let Some(o) = inst.as_object() {
                    for key in ["Source", "LinkId"] {
                        if let Some(v) = o.get(key) {
                            head.insert(key.into(), v.clone());
                        }
                    }
                }
                let (_, r) = crate::load(reg, &ty, &Json::Object(head), &prefab_load_options());
                push_issues(report, &path, r.issues);
            }
            walk_dom(reg, inst, &path, canonical, report, depth + 1);
        }
    }
}

fn typed_class(reg: &Registry, name: &str) -> Option<TypeExpr> {
    match reg.classes_named(name) {
        [c] => Some(TypeExpr::Class(*c)),
        _ => None,
    }
}

fn push_issues(report: &mut PrefabReport, at: &str, issues: Vec<Issue>) {
    for mut i in issues {
        i.path = format!("{at}{}", i.path);
        report.issues.push(i);
    }
}

fn entity(reg: &Registry, e: &mut Json, at: &str, canonical: bool, report: &mut PrefabReport) {
    report.entities += 1;
    let Some(m) = e.as_object_mut() else {
        return;
    };
    if let Some(ty) = typed_class(reg, "AZ::Entity") {
        let head: Map<String, Json> = m
            .iter()
            .filter(|(k, _)| k.as_str() != "Components")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let (_, r) = crate::load(reg, &ty, &Json::Object(head), &prefab_load_options());
        push_issues(report, at, r.issues);
    }
    let Some(Json::Object(cs)) = m.get_mut("Components") else {
        return;
    };
    for (k, c) in cs.iter_mut() {
        report.components += 1;
        let path = format!("{at}/Components/{}", seg(k));
        component(reg, c, path, canonical, report);
    }
}

fn component(
    reg: &Registry,
    c: &mut Json,
    path: String,
    canonical: bool,
    report: &mut PrefabReport,
) {
    let type_name = match c.get("$type") {
        Some(Json::String(s)) => s.clone(),
        _ => {
            report.unknown.push((path, String::new()));
            return;
        }
    };
    let opts = prefab_load_options();
    let found = Loader::new(reg, &opts).type_from_string(&type_name, None);
    let ty = match found {
        TypeFound::Explicit(t @ TypeExpr::Class(_)) => t,
        _ => {
            report.unknown.push((path, type_name));
            return;
        }
    };
    report.typed += 1;
    let (value, load_report) = crate::load(reg, &ty, c, &opts);
    let outcome = load_report.outcome();
    let store_opts = StoreOptions {
        entity_id_aliases: true,
        ..StoreOptions::default()
    };
    let (mut stored, _) = crate::store(reg, &ty, &value, &store_opts);
    if !stored.is_object() {
        stored = Json::Object(Map::new());
    }
    // What the load did not take goes back as written: nothing is dropped unnamed.
    let kept = crate::keep::keep_as_written(reg, &ty, c, &mut stored, &load_report.issues);
    let stored = crate::keep::canonical_with_unknown_defaults(reg, &ty, c, stored);
    push_issues(report, &path, load_report.issues);
    let TypeExpr::Class(cid) = ty else { return };
    let class = &reg.classes[cid];
    let input = c.as_object().cloned().unwrap_or_default();
    let stored = match stored {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    let mut left_out = Vec::new();
    let mut rewritten = Vec::new();
    for (k, v) in &input {
        if k == "$type" {
            continue;
        }
        let name = class
            .fields
            .iter()
            .find(|f| f.name == *k)
            .or_else(|| class.fields.iter().find(|f| f.name.eq_ignore_ascii_case(k)))
            .map(|f| f.name.as_str())
            .unwrap_or(k);
        match stored.get(name) {
            None => left_out.push(k.clone()),
            Some(s) if !same_json(s, v) || name != k => rewritten.push(k.clone()),
            Some(_) => {}
        }
    }
    let at = |m: &crate::keep::KeptMember| KeptReport {
        path: format!("{path}{}", m.path),
        why: m.why.clone(),
    };
    let kept_members: Vec<KeptReport> = kept.kept.iter().map(at).collect();
    let lost: Vec<KeptReport> = kept.lost.iter().map(at).collect();
    report.kept.extend(kept_members.iter().cloned());
    report.lost.extend(lost.iter().cloned());
    if !left_out.is_empty()
        || !rewritten.is_empty()
        || !kept_members.is_empty()
        || !lost.is_empty()
        || matches!(outcome, Outcome::DefaultsUsed | Outcome::PartialDefaults)
    {
        report.changed.push(ComponentReport {
            path,
            type_name: type_name.clone(),
            outcome,
            left_out,
            rewritten,
            kept: kept_members.into_iter().map(|k| k.path).collect(),
        });
    }
    if canonical {
        let mut out = Map::new();
        out.insert("$type".into(), Json::String(type_name));
        for (k, v) in stored {
            if k != "$type" {
                out.insert(k, v);
            }
        }
        *c = Json::Object(out);
    }
}

/// The options of a prefab's typed loads: entity ids through the prefab's entity id
/// mapper (aliases), as O3DE loads a prefab instance.
pub fn prefab_load_options() -> LoadOptions {
    LoadOptions {
        entity_id_aliases: true,
        ..LoadOptions::default()
    }
}

/// True when `a` and `b` hold the same data: numbers are compared by value (as the
/// same `f32` too, since O3DE versions spell a float's digits differently:
/// `-2.47158432006836` and `-2.4715843200683594` are one `f32`).
fn same_json(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => p == q || (p as f32) == (q as f32),
            _ => x == y,
        },
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| same_json(p, q)))
        }
        _ => a == b,
    }
}
