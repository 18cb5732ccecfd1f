//! The inspect tree of a Resonite/Neos file: its container, the data tree's version,
//! then the BSON document, as [`gamewire_core::inspect`] nodes for every front end.

use crate::bson_view::{DocumentRef, FileView, ValueRef};
use crate::container::{Container, Framing};
use crate::tree::TreeValue;
use crate::{json, Document, Options, Result, Value};
use gamewire_core::inspect::{short_str, Node, TreeBuilder};

/// The tree of `data` (`name`, the file name, helps tell legacy files apart), eliding
/// containers past `max_items` children.
pub fn tree(data: &[u8], name: Option<&str>, max_items: usize) -> Result<Vec<Node>> {
    let mut t = TreeBuilder::new(max_items);
    fill(data, name, &mut t)?;
    Ok(t.finish())
}

/// Adds the tree of `data` to `tree`: a note on the container and the BSON's size, a
/// note on the data tree's version, types and slots when it has one, then the root
/// document.
///
/// Read through the borrowed [`bson_view`](crate::bson_view): no owned tree is built,
/// and only what is shown is visited past the check.
pub fn fill(data: &[u8], name: Option<&str>, tree: &mut TreeBuilder) -> Result<()> {
    let o = Options::default();
    let file = FileView::open(data, name, &o)?;
    tree.note(&format!(
        "{}; {} bytes of BSON",
        container_line(file.container()),
        file.bson().len()
    ));
    let root = file.root();
    if let Some(v) = root.get("VersionNumber").and_then(|v| v.as_str()) {
        let types = root
            .get("Types")
            .and_then(|t| t.as_array())
            .map_or(0, |a| a.len());
        tree.note(&format!(
            "data tree saved by {v}: {types} types, {} slots",
            slot_count(root)
        ));
    }
    add_document_ref(tree, "root", root, 0);
    Ok(())
}

/// The number of slots from `Object` down through `Children`, as
/// [`DataTree::slots`](crate::tree::DataTree::slots) counts them.
fn slot_count(root: DocumentRef<'_>) -> usize {
    let mut stack: Vec<DocumentRef<'_>> = root
        .get("Object")
        .and_then(|o| o.as_document())
        .into_iter()
        .collect();
    let mut n = 0;
    while let Some(s) = stack.pop() {
        n += 1;
        if let Some(children) = s.get("Children").and_then(|c| c.as_array()) {
            stack.extend(children.iter().filter_map(|c| c.as_document()));
        }
    }
    n
}

/// The container's line of the tree: framing, version and compression.
pub fn container_line(c: &Container) -> String {
    match c.framing {
        Framing::FrDT { version } => {
            format!("FrDT version {version}, {} compression", c.compression)
        }
        Framing::Legacy => format!("legacy (no header), {} compression", c.compression),
    }
}

/// `s` cut to `max` characters (with `…`).
pub fn clip(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// A BSON leaf value as text (strings quoted and shortened; empty for null-likes).
pub fn leaf_text(v: &Value<'_>) -> String {
    match v {
        Value::String(s) => short_str(s, 60),
        Value::Double(d) => format!("{d:?}"),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null | Value::Undefined | Value::MinKey | Value::MaxKey => String::new(),
        Value::DateTime(ms) => format!("{ms} ms"),
        Value::Binary { subtype, bytes } => format!("{} bytes, subtype {subtype}", bytes.len()),
        other => match json::value_to_json(other, 64) {
            Ok(j) => short_str(&j.to_string(), 60),
            Err(e) => e.to_string(),
        },
    }
}

/// Adds a BSON value to the tree under `label`; a synced member `{ID, Data}` whose
/// data has a value convention is shown typed. Levels past 12 are summarised.
pub fn add_value(tree: &mut TreeBuilder, label: &str, v: &Value<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    match v {
        // a synced member `{"ID", "Data"}` whose Data has a value convention: typed
        Value::Document(d) if d.len() == 2 && d.get("ID").is_some() => {
            match d.get("Data").and_then(TreeValue::infer) {
                Some(tv) => {
                    let text = tv.to_string();
                    let shown = text.split_once(' ').map_or("", |(_, r)| r);
                    tree.leaf(label, &tv.type_name(), &clip(shown.to_string(), 80));
                }
                None => add_document(tree, label, d, depth),
            }
        }
        Value::Document(d) => add_document(tree, label, d, depth),
        Value::Array(a) => {
            if depth >= MAX_DEPTH {
                tree.leaf(
                    label,
                    "array",
                    &format!("({} items, deeper levels not shown)", a.len()),
                );
                return;
            }
            tree.open(label, "array", Some(a.len()));
            for (i, x) in a.iter().enumerate() {
                if tree.keep(i, a.len()) {
                    add_value(tree, &format!("[{i}]"), x, depth + 1);
                }
            }
            tree.close();
        }
        other => tree.leaf(label, other.type_name(), &leaf_text(other)),
    }
}

/// Adds a BSON document to the tree under `label` (see [`add_value`]).
pub fn add_document(tree: &mut TreeBuilder, label: &str, d: &Document<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    if depth >= MAX_DEPTH {
        tree.leaf(
            label,
            "document",
            &format!("({} entries, deeper levels not shown)", d.len()),
        );
        return;
    }
    tree.open(label, "document", Some(d.len()));
    for (i, (k, x)) in d.entries.iter().enumerate() {
        if tree.keep(i, d.len()) {
            add_value(tree, k, x, depth + 1);
        }
    }
    tree.close();
}

/// A viewed leaf as [`leaf_text`] writes it.
fn leaf_text_ref(v: ValueRef<'_>) -> String {
    match v.to_value() {
        Ok(v) => leaf_text(&v),
        Err(e) => e.to_string(),
    }
}

/// [`add_value`] for a viewed value: the same nodes.
pub fn add_value_ref(tree: &mut TreeBuilder, label: &str, v: ValueRef<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    match v {
        ValueRef::Document(d) => {
            // a synced member `{"ID", "Data"}` whose Data has a value convention: typed
            let mut it = d.iter();
            let two = match (it.next(), it.next(), it.next()) {
                (Some(a), Some(b), None) if a.0 == "ID" || b.0 == "ID" => Some([a, b]),
                _ => None,
            };
            if let Some(two) = two {
                let data = two
                    .iter()
                    .find(|(k, _)| *k == "Data")
                    .and_then(|(_, x)| x.to_value().ok());
                if let Some(tv) = data.as_ref().and_then(TreeValue::infer) {
                    let text = tv.to_string();
                    let shown = text.split_once(' ').map_or("", |(_, r)| r);
                    tree.leaf(label, &tv.type_name(), &clip(shown.to_string(), 80));
                    return;
                }
            }
            add_document_ref(tree, label, d, depth)
        }
        ValueRef::Array(a) => {
            let len = a.len();
            if depth >= MAX_DEPTH {
                tree.leaf(
                    label,
                    "array",
                    &format!("({len} items, deeper levels not shown)"),
                );
                return;
            }
            tree.open(label, "array", Some(len));
            for (i, x) in a.iter().enumerate() {
                if tree.keep(i, len) {
                    add_value_ref(tree, &format!("[{i}]"), x, depth + 1);
                }
            }
            tree.close();
        }
        other => tree.leaf(label, other.type_name(), &leaf_text_ref(other)),
    }
}

/// [`add_document`] for a viewed document: the same nodes.
pub fn add_document_ref(tree: &mut TreeBuilder, label: &str, d: DocumentRef<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    let len = d.len();
    if depth >= MAX_DEPTH {
        tree.leaf(
            label,
            "document",
            &format!("({len} entries, deeper levels not shown)"),
        );
        return;
    }
    tree.open(label, "document", Some(len));
    for (i, (k, x)) in d.iter().enumerate() {
        if tree.keep(i, len) {
            add_value_ref(tree, k, x, depth + 1);
        }
    }
    tree.close();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::DataTree;
    use gamewire_core::inspect::render_text;

    #[test]
    fn a_data_tree_shows_its_container_version_and_typed_members() {
        let doc = crate::synth::data_tree(4, 3, 1);
        let bytes = crate::encode(&doc, &crate::EncodeOptions::default()).unwrap();
        let nodes = tree(&bytes, Some("x.brson"), 3).unwrap();
        let text = render_text(&nodes);
        assert!(text.starts_with("  FrDT version 0, "), "{text}");
        assert!(
            text.contains("  data tree saved by 2024.8.5.1346: "),
            "{text}"
        );
        let root = nodes.last().unwrap();
        assert_eq!(
            (root.label.as_str(), root.ty.as_str()),
            ("root", "document")
        );
        assert_eq!(root.count, Some(doc.len()));
        assert_eq!(root.elided, doc.len() - 3);
    }

    #[test]
    fn a_file_shows_as_the_document_it_was_made_from() {
        // The documents are built in memory, never read from bytes: the expected nodes
        // come from the document itself, the shown ones from the file through the view.
        for (slots, seed) in [(40, 3), (3, 9)] {
            let doc = crate::synth::data_tree(slots, 6, seed);
            for c in [crate::Compression::None, crate::Compression::Lz4] {
                let data = crate::encode(&doc, &crate::EncodeOptions::new(c)).unwrap();
                for max in [2, 5, 1000] {
                    let mut shown = TreeBuilder::new(max);
                    fill(&data, None, &mut shown).unwrap();
                    let shown = shown.finish();
                    let mut expected = TreeBuilder::new(max);
                    add_document(&mut expected, "root", &doc, 0);
                    assert_eq!(
                        shown.last(),
                        expected.finish().last(),
                        "{slots} slots, {c}, {max} items"
                    );
                    let t = DataTree::new(&doc);
                    let note = format!(
                        "data tree saved by {}: {} types, {} slots",
                        t.version_number().unwrap(),
                        t.types().len(),
                        t.slots().len()
                    );
                    assert_eq!(shown[1].note.as_deref(), Some(note.as_str()));
                }
                // Errors are decode's.
                for cut in [0, 5, 9, data.len() / 2] {
                    let mut t = TreeBuilder::new(9);
                    assert_eq!(
                        fill(&data[..cut], None, &mut t).unwrap_err().to_string(),
                        crate::decode(&data[..cut], None, &Options::default())
                            .unwrap_err()
                            .to_string()
                    );
                }
            }
        }
    }

    #[test]
    fn synced_members_of_the_sample_item_are_typed() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../samples/resonite/item.brson"
        );
        let data = std::fs::read(path).unwrap();
        let text = render_text(&tree(&data, Some("item.brson"), 100).unwrap());
        assert!(
            text.starts_with("  FrDT version 0, brotli compression; "),
            "{text}"
        );
        assert!(
            text.contains("Value: float3 = (4.0030003, 4.023, 5.177)\n"),
            "{text}"
        );
    }
}
