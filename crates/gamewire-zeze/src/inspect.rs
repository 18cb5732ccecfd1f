//! The inspect tree of Zeze data (one bean, or a stream of protocol frames), as
//! [`gamewire_core::inspect`] nodes for every front end to show; with a solution's
//! schema, beans show their fields by name.
//!
//! A bean read with a schema is walked by [`SchemaView`] straight into the tree
//! ([`add_serialize`]): the defaults of absent variables are shown as they are reached
//! and never built, so the memory is the view's and the tree's (at most
//! [`gamewire_core::inspect::MAX_NODES`] nodes), not the decoded value's.

use crate::frame::{decode_frames, Family, FrameOptions, Payload};
use crate::json::hex;
use crate::schema::Schema;
use crate::schema_view::SchemaView;
use crate::{Bean, Options, Result, Value};
use gamewire_core::inspect::{add_serialize, short_str, Node, TreeBuilder};

/// The tree of one bean: typed as `typed`'s bean of its schema when given, else by
/// field ids. Containers past `max_items` are elided.
pub fn bean_tree(
    data: &[u8],
    typed: Option<(&Schema, &str)>,
    max_items: usize,
) -> Result<Vec<Node>> {
    let mut t = TreeBuilder::new(max_items);
    fill_bean(data, typed, &mut t)?;
    Ok(t.finish())
}

/// Adds one bean's tree under the label `bean` (see [`bean_tree`]).
pub fn fill_bean(
    data: &[u8],
    typed: Option<(&Schema, &str)>,
    tree: &mut TreeBuilder,
) -> Result<()> {
    match typed {
        Some((schema, name)) => {
            let view = SchemaView::new(schema, name, data, &Options::default())?;
            add_serialize("bean", name, &view, tree)?;
        }
        None => {
            let b = crate::decode(data, &Options::default())?;
            add_bean("bean", "bean", &b, tree);
        }
    }
    Ok(())
}

/// The tree of a frame stream: each frame's module, protocol and body; with `schema`,
/// bodies of protocols it declares show their argument (or, for a response, result)
/// bean by field name.
pub fn frames_tree(data: &[u8], schema: Option<&Schema>, max_items: usize) -> Result<Vec<Node>> {
    let mut t = TreeBuilder::new(max_items);
    fill_frames(data, schema, &mut t)?;
    Ok(t.finish())
}

/// Adds a frame stream's tree under the label `frames` (see [`frames_tree`]).
pub fn fill_frames(data: &[u8], schema: Option<&Schema>, tree: &mut TreeBuilder) -> Result<()> {
    let frames = decode_frames(data, &FrameOptions::default())?;
    tree.open("frames", "zeze frame stream", Some(frames.len()));
    for (i, f) in frames.iter().enumerate() {
        if !tree.keep(i, frames.len()) {
            continue;
        }
        let head = format!("[{i}] module {} protocol {}", f.module_id, f.protocol_id);
        match &f.payload {
            Payload::Body(b) => {
                let mut ty = b.family.name().to_string();
                if let Some(s) = b.session_id {
                    ty.push_str(&format!(" session {s}"));
                }
                if let Some(rc) = b.result_code {
                    ty.push_str(&format!(" result code {rc}"));
                }
                let known = schema.and_then(|s| {
                    let p = s.protocol(f.module_id, f.protocol_id)?;
                    let bean = if b.family == Family::Response {
                        &p.result
                    } else {
                        &p.argument
                    };
                    Some((s, bean.clone()?, p.name.clone()))
                });
                match known {
                    Some((s, name, proto)) => {
                        let body = crate::encode(&b.bean)?;
                        let view = SchemaView::new(s, &name, &body, &Options::default())?;
                        add_serialize(
                            &format!("{head} {proto}"),
                            &format!("{ty}: {name}"),
                            &view,
                            tree,
                        )?;
                    }
                    None => add_bean(&head, &ty, &b.bean, tree),
                }
            }
            Payload::Raw(r) => tree.leaf(&head, "raw body", &format!("{} bytes", r.len())),
        }
    }
    tree.close();
    Ok(())
}

/// Adds a bean (type `ty`) and its fields, by field id, to the tree under `label`.
pub fn add_bean(label: &str, ty: &str, b: &Bean, tree: &mut TreeBuilder) {
    tree.open(label, ty, Some(b.fields.len()));
    for (i, f) in b.fields.iter().enumerate() {
        if tree.keep(i, b.fields.len()) {
            add_value(&f.id.to_string(), &f.value, tree);
        }
    }
    if let Some(base) = &b.base {
        add_bean("base", "bean level", base, tree);
    }
    tree.close();
}

/// Adds a bean's field value to the tree under `label`.
pub fn add_value(label: &str, v: &Value, tree: &mut TreeBuilder) {
    match v {
        Value::Integer(i) => tree.leaf(label, "integer", &i.to_string()),
        Value::Float(f) => tree.leaf(label, "float", &format!("{f:?}")),
        Value::Double(d) => tree.leaf(label, "double", &format!("{d:?}")),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => tree.leaf(label, "bytes", &short_str(s, 60)),
            Err(_) => tree.leaf(
                label,
                "bytes",
                &format!("0x{} ({} bytes)", hex(&b[..b.len().min(32)]), b.len()),
            ),
        },
        Value::Vector2(a) => tree.leaf(label, "vector2", &f32s(a)),
        Value::Vector3(a) => tree.leaf(label, "vector3", &f32s(a)),
        Value::Vector4(a) => tree.leaf(label, "vector4", &f32s(a)),
        Value::Vector2Int(a) => tree.leaf(label, "vector2int", &i64s(a)),
        Value::Vector3Int(a) => tree.leaf(label, "vector3int", &i64s(a)),
        Value::List { elem, items } => {
            tree.open(label, &format!("list<{elem}>"), Some(items.len()));
            for (i, it) in items.iter().enumerate() {
                if tree.keep(i, items.len()) {
                    add_value(&format!("[{i}]"), it, tree);
                }
            }
            tree.close();
        }
        Value::Map {
            key,
            value,
            entries,
        } => {
            tree.open(label, &format!("map<{key}, {value}>"), Some(entries.len()));
            for (i, (k, v)) in entries.iter().enumerate() {
                if tree.keep(i, entries.len()) {
                    add_value(&format!("key[{i}]"), k, tree);
                    add_value(&format!("value[{i}]"), v, tree);
                }
            }
            tree.close();
        }
        Value::Bean(b) => add_bean(label, "bean", b, tree),
        Value::Dynamic { type_id, bean } => {
            add_bean(label, &format!("dynamic (type id {type_id})"), bean, tree)
        }
    }
}

fn f32s(a: &[f32]) -> String {
    let parts: Vec<String> = a.iter().map(|x| format!("{x:?}")).collect();
    format!("({})", parts.join(", "))
}

fn i64s(a: &[i64]) -> String {
    let parts: Vec<String> = a.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire_core::inspect::render_text;

    #[test]
    fn a_bean_shows_its_fields_by_id_and_elides_long_lists() {
        let json = serde_json::json!({"1": 42, "2": {"list": "int", "items": [1, 2, 3]}});
        let b = crate::json::bean_from_json(&json).unwrap();
        let data = crate::encode(&b).unwrap();
        let nodes = bean_tree(&data, None, 2).unwrap();
        assert_eq!(
            render_text(&nodes),
            "  bean: bean (2 items)\n    1: integer = 42\n    2: list<int> (3 items)\n      \
             [0]: integer = 1\n      [1]: integer = 2\n      … 1 more\n"
        );
    }

    #[test]
    fn frames_name_their_protocols_with_the_sample_solution() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/zeze/");
        let data = std::fs::read(format!("{dir}session.frames.zeze")).unwrap();
        let xml = std::fs::read_to_string(format!("{dir}zeze-solution.xml")).unwrap();
        let schema = Schema::from_xml(&xml).unwrap();
        let plain = render_text(&frames_tree(&data, None, 8).unwrap());
        let typed = render_text(&frames_tree(&data, Some(&schema), 8).unwrap());
        assert!(
            plain.starts_with("  frames: zeze frame stream ("),
            "{plain}"
        );
        assert!(
            plain.contains("    [0] module 1 protocol 100: protocol ("),
            "{plain}"
        );
        // With the schema: the protocol's name, the argument bean of a request and the
        // result bean of a response, fields by name.
        assert!(typed.contains(
            "    [1] module 1 protocol 200 fixtures.outer.Outer: request session 5: \
             fixtures.outer.BOuter (8 items)\n      inner: object (2 items)\n        x: integer = 5\n"
        ), "{typed}");
        assert!(
            typed.contains(
                "    [2] module 1 protocol 200 fixtures.outer.Outer: response session 5 \
             result code 7: fixtures.outer.BInner (2 items)\n"
            ),
            "{typed}"
        );
    }
}
