//! The inspect tree of an O3DE JSON file, as [`gamewire_core::inspect`] nodes for every
//! front end: typed by a registry (the envelope's class loaded, with its report), or
//! what the file shows without one.

use crate::doc::{Document, Node};
use crate::recognize::{self, FileKind};
use crate::{infer, prefab::PrefabTree, LoadOptions, Registry, StoreOptions, TypeExpr, Value};
use gamewire_core::inspect::{short_str, TreeBuilder};
use gamewire_core::Result;
use serde_json::Value as Json;

/// Adds the tree of an envelope's `class_data` loaded as `ty` (the class named
/// `class_name`) with `reg`: notes on the class and the load's outcome (its first 8
/// issues), then the value as `ClassData`.
pub fn fill_typed(
    reg: &Registry,
    ty: &TypeExpr,
    class_name: &str,
    class_data: &Json,
    tree: &mut TreeBuilder,
) {
    tree.note(&format!("ClassName: {}", class_name));
    let (v, report) = crate::load(reg, ty, class_data, &LoadOptions::default());
    tree.note(&format!(
        "load: {} / {} ({} issue(s))",
        report.processing().name(),
        report.outcome().name(),
        report.issues.len()
    ));
    for issue in report.issues.iter().take(8) {
        tree.note(&format!(
            "  {} {}: {}",
            issue.path, issue.code, issue.message
        ));
    }
    value_tree(reg, tree, "ClassData", ty, &v);
}

fn type_label(reg: &Registry, ty: &TypeExpr) -> String {
    reg.type_to_string(ty)
}

/// JSON text shortened for display, not quoted again.
fn short_json(j: &serde_json::Value, max: usize) -> String {
    let s = j.to_string();
    let count = s.chars().count();
    if count <= max {
        s
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head}… ({count} chars)")
    }
}

/// Adds a loaded value of type `ty` to the tree under `label`: classes by field name,
/// containers item by item, leaves as the JSON O3DE's store writes for them.
pub fn value_tree(reg: &Registry, tree: &mut TreeBuilder, label: &str, ty: &TypeExpr, v: &Value) {
    let tl = type_label(reg, ty);
    match (ty, v) {
        (TypeExpr::Class(c), Value::Object(fields)) => {
            let class = &reg.classes[*c];
            tree.open(label, &tl, Some(fields.len()));
            for (i, (f, fv)) in class.fields.iter().zip(fields).enumerate() {
                if tree.keep(i, fields.len()) {
                    value_tree(reg, tree, &f.name, &f.ty, fv);
                }
            }
            tree.close();
        }
        (_, Value::Seq(items)) => {
            let et = ty.element().cloned().unwrap_or(TypeExpr::Any);
            tree.open(label, &tl, Some(items.len()));
            for (i, it) in items.iter().enumerate() {
                if tree.keep(i, items.len()) {
                    value_tree(reg, tree, &format!("[{i}]"), &et, it);
                }
            }
            tree.close();
        }
        (
            TypeExpr::Map(k, vt)
            | TypeExpr::UnorderedMap(k, vt)
            | TypeExpr::UnorderedMultimap(k, vt),
            Value::Map(m),
        ) => {
            tree.open(label, &tl, Some(m.len()));
            for (i, (key, val)) in m.iter().enumerate() {
                if tree.keep(i, m.len()) {
                    let (kj, _) = crate::store(reg, k, key, &StoreOptions::default());
                    value_tree(reg, tree, &format!("[{}]", short_json(&kj, 40)), vt, val);
                }
            }
            tree.close();
        }
        (TypeExpr::Pointer(_) | TypeExpr::UniquePtr(_) | TypeExpr::SharedPtr(_), Value::Ptr(p))
        | (TypeExpr::Any, Value::Any(p)) => match p {
            None => tree.leaf(label, &tl, "null"),
            Some(inner) => value_tree(reg, tree, label, &inner.0, &inner.1),
        },
        _ => {
            let keep = StoreOptions {
                keep_defaults: true,
                ..StoreOptions::default()
            };
            let (j, _) = crate::store(reg, ty, v, &keep);
            tree.leaf(label, &tl, &short_json(&j, 80));
        }
    }
}

/// Adds what an O3DE file shows without a registry (`name`: its file name, which helps
/// recognise its kind) to `tree`: its
/// kind, envelope, `$type` names, UUIDs, entity ids, asset references; for a prefab its
/// entity and instance counts; then the document as a tree.
pub fn fill_untyped(data: &[u8], name: Option<&str>, tree: &mut TreeBuilder) -> Result<()> {
    fill_document(data, name, tree, None)
}

/// [`fill_untyped`] for a prefab whose components `reg` types
/// ([`crate::typing::Typing::Prefab`]): the summary of their typed load first (components
/// typed, types unknown, issues, values kept as written), then the document.
pub fn fill_prefab(
    reg: &Registry,
    data: &[u8],
    name: Option<&str>,
    tree: &mut TreeBuilder,
) -> Result<()> {
    let mut json = crate::parse_json(data)?;
    let report = crate::prefab::load_prefab(reg, &mut json, false);
    fill_document(data, name, tree, Some(report.summary()))
}

fn fill_document(
    data: &[u8],
    name: Option<&str>,
    tree: &mut TreeBuilder,
    typed: Option<String>,
) -> Result<()> {
    let kind = recognize::recognize(data, name);
    if kind == Some(FileKind::ObjectStreamXml) {
        tree.note("ObjectStream XML (the older serialization, not JSON): not decoded");
        return Ok(());
    }
    let doc = Document::parse_with(
        data,
        crate::doc::MAX_DEPTH,
        crate::doc::Syntax::of(data, name),
    )?;
    let kind = match kind {
        Some(FileKind::Serialized) | None => "JsonSerialization file",
        Some(k) => k.description(),
    };
    match typed {
        Some(summary) => tree.note(&format!("{kind}: {summary}")),
        None => tree.note(&format!("{kind}, read without a registry")),
    }
    let root = &doc.root;
    if let (Some(t), Some(c)) = (root.get("Type"), root.get("ClassName")) {
        if t.as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("JsonSerialization"))
        {
            let version = match root.get("Version") {
                Some(Node::Number(v)) => format!(" version {v}"),
                _ => String::new(),
            };
            tree.note(&format!(
                "envelope{version}: ClassName {}",
                c.as_str().unwrap_or_default()
            ));
        }
    }
    if let Ok(p) = PrefabTree::from_node(root) {
        tree.note(&format!(
            "prefab: {} entities (+ container), {} nested instances; `gamewire o3de tree` prints the hierarchy",
            p.entities.len(),
            p.instances.len()
        ));
    }
    let s = infer::summarize(root);
    let max = 8;
    if !s.types.is_empty() {
        let shown: Vec<String> = s
            .types
            .iter()
            .take(max)
            .map(|(t, n)| format!("{} x{n}", crate::prefab::short_type_name(t)))
            .collect();
        let more = s.types.len().saturating_sub(max);
        tree.note(&format!(
            "$type names ({}): {}{}",
            s.types.len(),
            shown.join(", "),
            if more > 0 {
                format!(", … {more} more")
            } else {
                String::new()
            }
        ));
    }
    let listed = |items: &[std::borrow::Cow<'_, str>]| {
        let mut text: Vec<&str> = items.iter().take(max).map(|c| &**c).collect();
        let more = items.len().saturating_sub(max);
        let tail = format!("… {more} more");
        if more > 0 {
            text.push(&tail);
        }
        text.join(", ")
    };
    if !s.uuids.is_empty() {
        tree.note(&format!(
            "UUIDs ({} distinct): {}",
            s.uuids.len(),
            listed(&s.uuids)
        ));
    }
    if !s.entity_ids.is_empty() {
        tree.note(&format!(
            "entity ids ({} distinct): {}",
            s.entity_ids.len(),
            listed(&s.entity_ids)
        ));
    }
    if !s.assets.is_empty() {
        tree.note(&format!("asset references: {}", s.assets.len()));
        for a in s.assets.iter().take(max) {
            tree.note(&format!(
                "  {}:{} {}",
                a.guid,
                a.sub_id.as_deref().unwrap_or("-"),
                a.hint.as_deref().unwrap_or("(no hint)")
            ));
        }
        if s.assets.len() > max {
            tree.note(&format!("  … {} more", s.assets.len() - max));
        }
    }
    node_tree(tree, "root", root, 0);
    Ok(())
}

/// The document as a tree, containers elided past the tree's item limit and nesting
/// shown to 12 levels.
fn node_tree(tree: &mut TreeBuilder, label: &str, n: &Node<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    match n {
        Node::Object(m) if depth < MAX_DEPTH => {
            let ty = match n.get("$type").and_then(Node::as_str) {
                Some(t) => format!("object {}", crate::prefab::short_type_name(&t)),
                None => "object".to_string(),
            };
            tree.open(label, &ty, Some(m.len()));
            for (i, (k, v)) in m.iter().enumerate() {
                if tree.keep(i, m.len()) {
                    node_tree(tree, &k.value(), v, depth + 1);
                }
            }
            tree.close();
        }
        Node::Array(a) if depth < MAX_DEPTH => {
            tree.open(label, "array", Some(a.len()));
            for (i, v) in a.iter().enumerate() {
                if tree.keep(i, a.len()) {
                    node_tree(tree, &format!("[{i}]"), v, depth + 1);
                }
            }
            tree.close();
        }
        Node::Object(m) => tree.leaf(
            label,
            "object",
            &format!("({} members, deeper levels not shown)", m.len()),
        ),
        Node::Array(a) => tree.leaf(
            label,
            "array",
            &format!("({} items, deeper levels not shown)", a.len()),
        ),
        Node::String(s) => tree.leaf(label, "string", &short_str(&s.value(), 80)),
        Node::Number(t) => tree.leaf(label, "number", t),
        Node::Bool(b) => tree.leaf(label, "bool", &b.to_string()),
        Node::Null => tree.leaf(label, "null", "null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire_core::inspect::render_text;

    const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/o3de/");

    #[test]
    fn the_sample_entity_typed_by_its_registry() {
        let reg =
            Registry::from_slice(&std::fs::read(format!("{SAMPLES}o3de-registry.json")).unwrap())
                .unwrap();
        let json =
            crate::parse_json(&std::fs::read(format!("{SAMPLES}sample-entity.json")).unwrap())
                .unwrap();
        let env = crate::envelope::Envelope::from_json(&json)
            .unwrap()
            .unwrap();
        let ty = reg.parse_type(&env.class_name).unwrap();
        let mut t = TreeBuilder::new(8);
        fill_typed(&reg, &ty, &env.class_name, &env.class_data, &mut t);
        let text = render_text(&t.finish());
        assert!(text.starts_with("  ClassName: SampleEntity\n"), "{text}");
        assert!(text.contains("ClassData: SampleEntity (6 items)"), "{text}");
        assert!(text.contains("Shadows: ShadowMode = \"Cast\""), "{text}");
    }

    #[test]
    fn without_a_registry_the_document_and_its_summary_are_shown() {
        let data = br#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "X",
            "ClassData": {"$type": "A", "Id": "{0D22C1A5-2C6E-4D5D-8F0F-2B8A6C2E5E3F}", "List": [1, 2, 3]}}"#;
        let mut t = TreeBuilder::new(2);
        fill_untyped(data, Some("x.json"), &mut t).unwrap();
        let nodes = t.finish();
        let text = render_text(&nodes);
        assert!(
            text.contains("  envelope version 1: ClassName X\n"),
            "{text}"
        );
        assert!(text.contains("  $type names (1): A x1\n"), "{text}");
        let root = nodes.last().unwrap();
        assert_eq!((root.label.as_str(), root.count), ("root", Some(4)));
        assert_eq!(root.elided, 2);
        let mut bad = TreeBuilder::new(2);
        assert!(fill_untyped(b"{\"a\": ", Some("x.json"), &mut bad).is_err());
    }
}
