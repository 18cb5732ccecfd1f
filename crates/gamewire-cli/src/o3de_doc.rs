//! O3DE files without a registry: `decode`/`encode`/`bench o3de` keep the document as
//! written (member order, numbers, duplicates; indented as O3DE writes), `inspect`
//! shows what the file says about itself, and `o3de tree` prints a prefab's entities.

use crate::inspect::{short_str, Tree};
use crate::io::{read_input, write_output};
use crate::o3de::Args;
use crate::{Action, CliResult};
use gamewire::o3de::doc::{Document, Layout, Node};
use gamewire::o3de::recognize::{self, FileKind};
use gamewire::o3de::{infer, prefab::PrefabTree};
use std::path::Path;

/// True when the input is read without a registry: no `--schema` and no `--type`,
/// and either no `o3de-registry.json` beside the input or one that does not know the
/// class named by the input's envelope (a file outside the envelope has no type to
/// load without `--type`).
pub fn is_untyped(args: &Args, bytes: &[u8]) -> bool {
    if args.schema.is_some() || args.type_name.is_some() {
        return false;
    }
    let reg_path = match &args.input {
        Some(i) if i != Path::new("-") => match crate::o3de::registry_for(i) {
            Some(p) => p,
            None => return true,
        },
        _ => return true,
    };
    let Some(class) = recognize::envelope_class_name(bytes) else {
        return true;
    };
    match std::fs::read(&reg_path) {
        // A registry that does not read is reported by the typed path.
        Ok(r) => gamewire::o3de::Registry::from_slice(&r)
            .is_ok_and(|reg| reg.parse_type(&class).is_err()),
        Err(_) => true,
    }
}

/// The file name of the input, when it is a file.
fn input_name(args: &Args) -> Option<String> {
    args.input
        .as_ref()
        .filter(|p| *p != Path::new("-"))
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
}

/// Parses an O3DE file, with a clear error for ObjectStream XML.
pub fn parse<'a>(data: &'a [u8], name: Option<&str>) -> CliResult<Document<'a>> {
    if recognize::recognize(data, name) == Some(FileKind::ObjectStreamXml) {
        return Err(
            "this is O3DE ObjectStream XML (the older serialization), not JSON: \
                    gamewire reads O3DE's JSON serialization only"
                .into(),
        );
    }
    Ok(Document::parse(data)?)
}

/// Runs `decode`, `encode` or `bench` for o3de without a registry: the document goes
/// out as it came in (indented as O3DE writes it, or `--compact`).
pub fn run(action: Action, args: &Args, bytes: &[u8]) -> CliResult {
    if args.envelope {
        return Err("--envelope needs --type (the class name to put in it)".into());
    }
    let name = input_name(args);
    let layout = if args.compact {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    match action {
        Action::Decode | Action::Encode => {
            let doc = parse(bytes, name.as_deref())?;
            write_output(args.output.as_deref(), &doc.write(layout))
        }
        Action::Bench => {
            // decode: parse the document (and drop it); encode: write it again.
            let doc = parse(bytes, name.as_deref())?;
            crate::bench::run(
                "o3de (untyped)",
                bytes,
                |b| {
                    let d = parse(b, name.as_deref())?;
                    std::hint::black_box(&d.root);
                    Ok(())
                },
                |_| Ok(doc.write(layout)),
            )
        }
    }
}

/// Prints what an O3DE file shows without a registry, for `gamewire inspect`: its
/// kind, envelope, `$type` names, UUIDs, entity ids, asset references; for a prefab its
/// entity and instance counts; then the document as a tree.
pub fn inspect(path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let kind = recognize::recognize(data, name.as_deref());
    if kind == Some(FileKind::ObjectStreamXml) {
        tree.note("ObjectStream XML (the older serialization, not JSON): not decoded");
        return Ok(());
    }
    let doc = Document::parse(data)?;
    let kind = match kind {
        Some(FileKind::Serialized) | None => "JsonSerialization file",
        Some(k) => k.description(),
    };
    tree.note(&format!("{kind}, read without a registry"));
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
            .map(|(t, n)| format!("{} x{n}", gamewire::o3de::prefab::short_type_name(t)))
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
fn node_tree(tree: &mut Tree, label: &str, n: &Node<'_>, depth: usize) {
    const MAX_DEPTH: usize = 12;
    match n {
        Node::Object(m) if depth < MAX_DEPTH => {
            let ty = match n.get("$type").and_then(Node::as_str) {
                Some(t) => format!("object {}", gamewire::o3de::prefab::short_type_name(&t)),
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

/// `gamewire o3de tree FILE`: the prefab's hierarchy on stdout.
pub fn tree(file: &Path) -> CliResult {
    let data = read_input(Some(file))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    if recognize::recognize(&data, name.as_deref()) == Some(FileKind::ObjectStreamXml) {
        parse(&data, name.as_deref())?;
    }
    let t = PrefabTree::parse(&data).map_err(|e| format!("{}: {e}", file.display()))?;
    write_output(None, t.render().as_bytes())
}
