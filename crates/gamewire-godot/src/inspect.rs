//! The inspect tree of a Godot file: a raw Variant, or else a stream of `store_var`
//! frames, as [`gamewire_core::inspect`] nodes for every front end to show.

use crate::{framing, json, DecodeOptions, Object, Value, Version};
use gamewire_core::inspect::{short_str, Node, TreeBuilder};
use gamewire_core::Result;

/// The tree of `data` (objects allowed, as `inspect` shows them), eliding containers
/// past `max_items` children.
pub fn tree(data: &[u8], v: Version, max_items: usize) -> Result<Vec<Node>> {
    let mut t = TreeBuilder::new(max_items);
    fill(data, v, &mut t)?;
    Ok(t.finish())
}

/// Adds the tree of `data` to `tree`: one raw Variant, or else its framed values
/// after a note with their count. The error is the raw decode's when neither reads.
pub fn fill(data: &[u8], v: Version, tree: &mut TreeBuilder) -> Result<()> {
    let opts = DecodeOptions::new(v).allow_objects(true);
    match crate::decode(data, &opts) {
        Ok(value) => {
            self::value(&value, "", v, tree);
            Ok(())
        }
        Err(raw_err) => match framing::decode_framed_all(data, &opts) {
            Ok(values) => {
                tree.note(&format!("{} framed value(s)", values.len()));
                for (i, value) in values.iter().enumerate() {
                    self::value(value, &format!("frame {i}"), v, tree);
                }
                Ok(())
            }
            Err(_) => Err(raw_err),
        },
    }
}

fn floats(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
    format!("({})", parts.join(", "))
}

/// Adds one value (and its children) to the tree under `label`.
pub fn value(value: &Value, label: &str, v: Version, tree: &mut TreeBuilder) {
    let ty = value.kind().name(v);
    match value {
        Value::Nil => tree.leaf(label, ty, "null"),
        Value::Bool(b) => tree.leaf(label, ty, &b.to_string()),
        Value::Int(i) => tree.leaf(label, ty, &i.to_string()),
        Value::Float(f) => tree.leaf(label, ty, &format!("{f:?}")),
        Value::String(s) | Value::StringName(s) => tree.leaf(label, ty, &short_str(s, 60)),
        Value::NodePath(p) => tree.leaf(label, ty, &format!("{:?}", p.to_string())),
        Value::Array(a) => {
            let typed = if a.element_type().is_any() {
                String::new()
            } else {
                format!("[{:?}]", a.element_type())
            };
            tree.open(label, &format!("{ty}{typed}"), Some(a.items.len()));
            for (i, item) in a.items.iter().enumerate() {
                if tree.keep(i, a.items.len()) {
                    self::value(item, &format!("[{i}]"), v, tree);
                }
            }
            tree.close();
        }
        Value::Dictionary(d) => {
            tree.open(label, ty, Some(d.entries.len()));
            for (i, (k, val)) in d.entries.iter().enumerate() {
                if tree.keep(i, d.entries.len()) {
                    let key = match k {
                        Value::String(s) => short_str(s, 40),
                        other => format!(
                            "<{}>",
                            serde_json::to_string(&json::to_json(other, v)).unwrap_or_default()
                        ),
                    };
                    self::value(val, &key, v, tree);
                }
            }
            tree.close();
        }
        Value::Object(o) => match &**o {
            Object::Id(id) => tree.leaf(label, ty, &format!("instance id {id}")),
            Object::Full { class, properties } if class.is_empty() => {
                let _ = properties;
                tree.leaf(label, ty, "null")
            }
            Object::Full { class, properties } => {
                tree.open(label, &format!("{ty} {class}"), Some(properties.len()));
                for (i, (name, val)) in properties.iter().enumerate() {
                    if tree.keep(i, properties.len()) {
                        self::value(val, name, v, tree);
                    }
                }
                tree.close();
            }
        },
        Value::PackedByteArray(b) => {
            let head: Vec<String> = b.iter().take(16).map(|x| x.to_string()).collect();
            let more = if b.len() > 16 {
                format!(", … {} more", b.len() - 16)
            } else {
                String::new()
            };
            tree.leaf(
                label,
                &format!("{ty} ({})", b.len()),
                &format!("[{}{more}]", head.join(", ")),
            )
        }
        other => {
            // Math types and packed arrays: their JSON value, elided when long.
            let j = json::to_json(other, v);
            let inner = j.get("value").cloned().unwrap_or(j.clone());
            let count = inner.as_array().map(Vec::len);
            let text = match (&inner, count) {
                (serde_json::Value::Array(items), Some(n))
                    if n > 8 && other.kind().name(v).contains("Array") =>
                {
                    let head: Vec<String> = items.iter().take(8).map(|x| x.to_string()).collect();
                    format!("[{}, … {} more]", head.join(", "), n - 8)
                }
                _ => inner.to_string(),
            };
            let nums: Option<Vec<f64>> = inner
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_f64()).collect());
            let shown = match nums {
                Some(n) if !other.kind().name(v).contains("Array") => floats(&n),
                _ => text,
            };
            let ty = match count {
                Some(n) if other.kind().name(v).contains("Array") => format!("{ty} ({n})"),
                _ => ty.to_owned(),
            };
            tree.leaf(label, &ty, &shown)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire_core::inspect::render_text;

    #[test]
    fn a_dictionary_and_its_long_array_are_shown_and_elided() {
        let d = crate::Dictionary::new(vec![
            (Value::from("hp"), Value::Int(87)),
            (
                Value::from("bag"),
                Value::Array(crate::Array::new((0..5).map(Value::Int).collect())),
            ),
        ]);
        let bytes = crate::encode(
            &Value::Dictionary(d),
            &crate::EncodeOptions::new(Version::V4),
        )
        .unwrap();
        let nodes = tree(&bytes, Version::V4, 2).unwrap();
        assert_eq!(
            render_text(&nodes),
            "  Dictionary (2 items)\n    \"hp\": int = 87\n    \"bag\": Array (5 items)\n      \
             [0]: int = 0\n      [1]: int = 1\n      … 3 more\n"
        );
        assert_eq!(nodes[0].children[1].elided, 3);
    }

    #[test]
    fn store_var_frames_are_listed_and_garbage_is_an_error() {
        let opts = crate::EncodeOptions::new(Version::V3);
        let mut data = Vec::new();
        for x in [1, 2] {
            let b = crate::encode(&Value::Int(x), &opts).unwrap();
            data.extend_from_slice(&(b.len() as u32).to_le_bytes());
            data.extend_from_slice(&b);
        }
        let text = render_text(&tree(&data, Version::V3, 8).unwrap());
        assert_eq!(
            text,
            "  2 framed value(s)\n  frame 0: int = 1\n  frame 1: int = 2\n"
        );
        assert!(tree(&[0xff; 3], Version::V3, 8).is_err());
    }
}
