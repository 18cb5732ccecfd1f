//! The inspect tree of a KingsIsle ObjectProperty file (plain or `BINd`), as
//! [`gamewire_core::inspect`] nodes for every front end to show.

use crate::view::{Item, ObjectRef, View};
use crate::{bind, json, Document, Object, Options, PropertyDef, TypeList, Value};
use gamewire_core::inspect::{short_str, Node, TreeBuilder};
use gamewire_core::Result;

/// Decodes `data` (a `BINd` file or a bare object) with `types`.
pub fn decode_any(data: &[u8], types: &TypeList, opts: &Options) -> Result<Document> {
    if data.starts_with(bind::MAGIC) {
        bind::decode(data, types, opts)
    } else {
        crate::decode(data, types, opts)
    }
}

/// The tree of `data` decoded with `types` (named `types_source` in the first note),
/// eliding lists past `max_items` items.
pub fn tree(
    data: &[u8],
    types: &TypeList,
    types_source: &str,
    max_items: usize,
) -> Result<Vec<Node>> {
    let mut t = TreeBuilder::new(max_items);
    fill(data, types, types_source, &mut t)?;
    Ok(t.finish())
}

/// Adds the tree of `data` to `tree`: a note naming the type list, the flags word and
/// the trailing bytes, then the root object. Objects and properties the type list lacks
/// (deep mode) are shown as raw bits, with a note counting them; enums show their
/// option's name and number. Read through the borrowed view (no owned tree).
pub fn fill(
    data: &[u8],
    types: &TypeList,
    types_source: &str,
    tree: &mut TreeBuilder,
) -> Result<()> {
    // Unknown types and properties (deep mode) are kept as raw bits, so a file can be
    // looked at with an incomplete type list; a note counts them.
    let opts = Options {
        skip_unknown: true,
        ..Options::default()
    };
    let mut scratch = Vec::new();
    let view = View::decode_any(data, types, &opts, &mut scratch)?;
    tree.note(&format!(
        "type list {types_source}; flags word {}; {} trailing byte(s)",
        view.flags().map_or("none".into(), |f| f.to_string()),
        view.trailing().len()
    ));
    let raws = view.raw_count();
    if raws > 0 {
        tree.note(&format!(
            "{raws} value(s) of types or properties not in the type list, shown as raw bits"
        ));
    }
    view_object(tree, "root", view.root(), types);
    Ok(())
}

/// Adds an object of a view and its properties to the tree under `label` (as
/// [`object`] does for an owned one).
fn view_object(tree: &mut TreeBuilder, label: &str, o: ObjectRef<'_, '_, '_>, types: &TypeList) {
    let props: Vec<_> = o.properties().collect();
    tree.open(label, &o.class().name, Some(props.len()));
    for p in props {
        match p.def {
            Some(d) => view_value(tree, &d.name, p.value, Some(d), types),
            None => view_value(tree, &format!("#{}", p.tag), p.value, None, types),
        }
    }
    tree.close();
}

/// Adds a value of a view to the tree under `label` (as [`value`] does for an owned one).
fn view_value(
    tree: &mut TreeBuilder,
    label: &str,
    v: Item<'_, '_, '_>,
    p: Option<&PropertyDef>,
    types: &TypeList,
) {
    match v {
        Item::Object(o) => view_object(tree, label, o, types),
        Item::List(l) => {
            let ty = p.map_or("?", |p| p.type_name.as_str());
            let n = l.len();
            tree.open(label, &format!("list of {ty}"), Some(n));
            for (i, item) in l.iter().enumerate() {
                if tree.keep(i, n) {
                    view_value(tree, &format!("[{i}]"), item, p, types);
                }
            }
            tree.close();
        }
        leaf => value(tree, label, &leaf.to_value(), p, types),
    }
}

/// Adds an object and its properties to the tree under `label`.
pub fn object(tree: &mut TreeBuilder, label: &str, o: &Object, types: &TypeList) {
    let class = types.get(o.hash);
    let name = class.map_or_else(|| format!("unknown class {}", o.hash), |c| c.name.clone());
    tree.open(label, &name, Some(o.properties.len()));
    for (h, v) in &o.properties {
        match class.and_then(|c| c.properties.iter().find(|p| p.hash == h)) {
            Some(p) => value(tree, &p.name, v, Some(p), types),
            None => value(tree, &format!("#{h}"), v, None, types),
        }
    }
    tree.close();
}

/// Adds a property's value to the tree under `label` (`p`: its definition, when known).
pub fn value(
    tree: &mut TreeBuilder,
    label: &str,
    v: &Value,
    p: Option<&PropertyDef>,
    types: &TypeList,
) {
    let ty = p.map_or("?", |p| p.type_name.as_str());
    match v {
        Value::List(_) | Value::Bools(_) | Value::SmallInts(_) | Value::SmallUInts(_) => {
            let items = v.list_items().unwrap_or_default();
            tree.open(label, &format!("list of {ty}"), Some(items.len()));
            for (i, item) in items.iter().enumerate() {
                if tree.keep(i, items.len()) {
                    value(tree, &format!("[{i}]"), item, p, types);
                }
            }
            tree.close();
        }
        Value::Object(o) => object(tree, label, o, types),
        Value::String(b) => tree.leaf(label, ty, &short_str(&String::from_utf8_lossy(b), 60)),
        Value::WString(w) => tree.leaf(label, ty, &short_str(&String::from_utf16_lossy(w), 60)),
        // The option's name, as decode writes it, and its number.
        Value::Enum(x) => match p.and_then(|p| p.enum_to_names(*x)) {
            Some(name) => tree.leaf(label, ty, &format!("{name:?} ({x})")),
            None => tree.leaf(label, ty, &x.to_string()),
        },
        Value::EnumName(name) => match p.and_then(|p| p.enum_from_names(name).ok()) {
            Some(x) => tree.leaf(label, ty, &format!("{name:?} ({x})")),
            None => tree.leaf(label, ty, &format!("{name:?}")),
        },
        Value::Raw(r) if r.type_hash != 0 => tree.leaf(
            label,
            &format!("unknown class {} (0x{:08x})", r.type_hash, r.type_hash),
            &format!("{} bits kept raw", r.bits),
        ),
        Value::Raw(r) => tree.leaf(label, ty, &format!("{} bits kept raw", r.bits)),
        other => tree.leaf(
            label,
            ty,
            &json::value_to_json(other, types).map_or_else(|e| e.to_string(), |j| j.to_string()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire_core::inspect::render_text;

    const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle/");

    #[test]
    fn the_sample_item_shows_its_class_and_named_properties() {
        let types = TypeList::from_files(&[format!("{SAMPLES}types.json")]).unwrap();
        let data = std::fs::read(format!("{SAMPLES}item.bin")).unwrap();
        let nodes = tree(&data, &types, "types.json", 8).unwrap();
        let text = render_text(&nodes);
        assert!(
            text.starts_with("  type list types.json; flags word "),
            "{text}"
        );
        let root = &nodes[1];
        assert_eq!(root.label, "root");
        assert_eq!(root.ty, "class SampleItem");
        assert_eq!(root.count, Some(11));
        assert!(
            text.contains("    m_name: std::string = \"Storm Hat\"\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "    m_tags: list of std::string (3 items)\n      [0]: std::string = \"hat\"\n"
            ),
            "{text}"
        );
        // Lists past max_items are elided.
        let short = tree(&data, &types, "types.json", 1).unwrap();
        let tags = short[1]
            .children
            .iter()
            .find(|c| c.label == "m_tags")
            .unwrap();
        assert_eq!((tags.children.len(), tags.elided), (1, 2));
    }
}
