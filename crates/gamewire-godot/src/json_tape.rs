//! The lossless JSON mapping ([`crate::json`]) read from a [`Tape`] a level at a time:
//! Arrays and Dictionaries are listed from the tape without decoding their children, and
//! every other value (scalars, math types, packed arrays, Objects) is decoded alone when
//! it is reached. Pointers, keys and values are those of [`crate::json::to_json`] of the
//! whole value (tested against it), and every node knows the bytes it came from.
//!
//! A tagged container's fields other than its children (`"$type"`, `"element_type"`,
//! `"key_type"`, `"value_type"`) are those `to_json` gives for the same container with
//! no children: its header decoded with a count of 0.

use crate::header::*;
use crate::json::{to_json, unique_keys, TYPE_KEY};
use crate::tape::{Tape, ValueRef};
use crate::{decode, Kind, Value, Version};
use gamewire_core::lazy_json::{index_token, Key, LazyJson, Shape};
use serde_json::{Map, Value as Json};
use std::ops::Range;

/// A value of the JSON mapping, read from a tape.
#[derive(Debug, Clone, Copy)]
pub enum Node<'t, 'a> {
    /// A Variant.
    Value(ValueRef<'t, 'a>),
    /// The `"value"` of a typed Array: its items.
    Items(ValueRef<'t, 'a>),
    /// The `"entries"` of a tagged Dictionary: `[key, value]` pairs.
    Pairs(ValueRef<'t, 'a>),
    /// One `[key, value]` pair of a tagged Dictionary.
    Pair(ValueRef<'t, 'a>, ValueRef<'t, 'a>),
    /// A field of a tagged container's header (`"$type"`, `"element_type"`, ...): the
    /// container and the field's position in its tagged object.
    Field(ValueRef<'t, 'a>, usize),
}

/// The root of a tape as JSON.
pub fn root<'t, 'a>(tape: &'t Tape<'a>) -> Node<'t, 'a> {
    Node::Value(tape.root())
}

/// How a container maps to JSON.
enum Form {
    /// A plain JSON array or object.
    Plain,
    /// A tagged object: its fields, the children's field (`"value"`, `"entries"`) empty.
    Tagged(Map<String, Json>),
}

fn version(v: &ValueRef<'_, '_>) -> Version {
    v.tape().options().version
}

/// The tagged object `to_json` gives for `v` with no children.
fn shell(v: &ValueRef<'_, '_>, children: &'static str) -> Map<String, Json> {
    let data = v.tape().input();
    let start = v.range().start;
    let mut head = data[start..v.children_start()].to_vec();
    let n = head.len();
    head[n - 4..].copy_from_slice(&0u32.to_le_bytes());
    let mut empty = decode(&head, v.tape().options()).expect("checked when the tape was built");
    if let Value::Dictionary(d) = &mut empty {
        // An entry whose key is no String makes the mapping tag the Dictionary.
        d.entries.push((Value::Int(0), Value::Nil));
    }
    let mut m = match to_json(&empty, version(v)) {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    m.insert(children.into(), Json::Array(Vec::new()));
    m
}

/// True when `v` is an Array or a Dictionary the mapping gives as a plain JSON array
/// or object (untyped, not empty, and a Dictionary's keys distinct Strings).
pub(crate) fn is_plain(v: &ValueRef<'_, '_>) -> bool {
    matches!(form(v), Some(Form::Plain))
}

/// How the container `v` maps to JSON (`None`: not a container read lazily).
fn form(v: &ValueRef<'_, '_>) -> Option<Form> {
    let kind = v.kind();
    if !matches!(kind, Kind::Array | Kind::Dictionary) || v.is_empty() {
        return None;
    }
    let typed = version(v) == Version::V4 && v.header() & (DICT_KEY_MASK | DICT_VALUE_MASK) != 0;
    if kind == Kind::Array {
        let typed = version(v) == Version::V4 && v.header() & ARRAY_TYPE_MASK != 0;
        return Some(if typed {
            Form::Tagged(shell(v, "value"))
        } else {
            Form::Plain
        });
    }
    let plain = !typed
        && unique_keys(
            v.entries().map(|(k, _)| match k.kind() {
                Kind::String => k.as_str(),
                _ => None,
            }),
            v.len(),
        );
    Some(if plain {
        Form::Plain
    } else {
        Form::Tagged(shell(v, "entries"))
    })
}

impl<'t, 'a> Node<'t, 'a> {
    /// The tagged object's field at `i`, as a node.
    fn tagged_child(v: ValueRef<'t, 'a>, fields: &Map<String, Json>, i: usize) -> Node<'t, 'a> {
        let name = fields.keys().nth(i).map(String::as_str);
        match (name, v.kind()) {
            (Some("value"), Kind::Array) => Node::Items(v),
            (Some("entries"), _) => Node::Pairs(v),
            _ => Node::Field(v, i),
        }
    }
}

impl LazyJson for Node<'_, '_> {
    fn shape(&self) -> Shape {
        match self {
            Node::Value(v) => match form(v) {
                Some(Form::Plain) if v.kind() == Kind::Array => Shape::Array(v.len()),
                Some(Form::Plain) => Shape::Object(v.len()),
                Some(Form::Tagged(fields)) => Shape::Object(fields.len()),
                None => Shape::Json(to_json(&v.to_value(), version(v))),
            },
            Node::Items(v) | Node::Pairs(v) => Shape::Array(v.len()),
            Node::Pair(..) => Shape::Array(2),
            Node::Field(v, i) => {
                let fields = match form(v) {
                    Some(Form::Tagged(f)) => f,
                    _ => Map::new(),
                };
                Shape::Json(fields.values().nth(*i).cloned().unwrap_or(Json::Null))
            }
        }
    }

    fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Self)> {
        match self {
            Node::Value(v) => match form(v) {
                Some(Form::Plain) if v.kind() == Kind::Array => v
                    .items()
                    .enumerate()
                    .skip(offset)
                    .take(limit)
                    .map(|(i, c)| (Key::Index(i), Node::Value(c)))
                    .collect(),
                Some(Form::Plain) => v
                    .entries()
                    .skip(offset)
                    .take(limit)
                    .map(|(k, c)| {
                        (
                            Key::Name(k.as_str().unwrap_or_default().to_owned()),
                            Node::Value(c),
                        )
                    })
                    .collect(),
                Some(Form::Tagged(fields)) => fields
                    .keys()
                    .enumerate()
                    .skip(offset)
                    .take(limit)
                    .map(|(i, k)| (Key::Name(k.clone()), Node::tagged_child(*v, &fields, i)))
                    .collect(),
                None => Vec::new(),
            },
            Node::Items(v) => v
                .items()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, c)| (Key::Index(i), Node::Value(c)))
                .collect(),
            Node::Pairs(v) => v
                .entries()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, (k, c))| (Key::Index(i), Node::Pair(k, c)))
                .collect(),
            Node::Pair(k, c) => [
                (Key::Index(0), Node::Value(*k)),
                (Key::Index(1), Node::Value(*c)),
            ]
            .into_iter()
            .skip(offset)
            .take(limit)
            .collect(),
            Node::Field(..) => Vec::new(),
        }
    }

    fn get(&self, tok: &str) -> Option<Self> {
        match self {
            Node::Value(v) => match form(v)? {
                Form::Plain if v.kind() == Kind::Array => {
                    v.items().nth(index_token(tok)?).map(Node::Value)
                }
                Form::Plain => v
                    .entries()
                    .find(|(k, _)| k.as_str() == Some(tok))
                    .map(|(_, c)| Node::Value(c)),
                Form::Tagged(fields) => {
                    let i = fields.keys().position(|k| k == tok)?;
                    Some(Node::tagged_child(*v, &fields, i))
                }
            },
            Node::Items(v) => v.items().nth(index_token(tok)?).map(Node::Value),
            Node::Pairs(v) => v
                .entries()
                .nth(index_token(tok)?)
                .map(|(k, c)| Node::Pair(k, c)),
            Node::Pair(k, c) => match tok {
                "0" => Some(Node::Value(*k)),
                "1" => Some(Node::Value(*c)),
                _ => None,
            },
            Node::Field(..) => None,
        }
    }

    fn span(&self) -> Option<Range<usize>> {
        Some(match self {
            Node::Value(v) => v.range(),
            Node::Items(v) | Node::Pairs(v) => v.children_start()..v.range().end,
            Node::Pair(k, c) => k.range().start..c.range().end,
            Node::Field(v, _) => v.range().start..v.children_start(),
        })
    }

    fn to_json(&self) -> Json {
        match self {
            Node::Value(v) => to_json(&v.to_value(), version(v)),
            Node::Items(v) => v.items().map(|c| Node::Value(c).to_json()).collect(),
            Node::Pairs(v) => v
                .entries()
                .map(|(k, c)| Node::Pair(k, c).to_json())
                .collect(),
            Node::Pair(k, c) => {
                Json::Array(vec![Node::Value(*k).to_json(), Node::Value(*c).to_json()])
            }
            Node::Field(..) => match self.shape() {
                Shape::Json(j) => j,
                _ => Json::Null,
            },
        }
    }

    fn tag(&self) -> Option<String> {
        match self {
            Node::Value(v) => match form(v)? {
                Form::Tagged(fields) => fields.get(TYPE_KEY)?.as_str().map(str::to_owned),
                Form::Plain => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{encode, Array, ContainerType, Dictionary, EncodeOptions};
    use gamewire_core::lazy_json::Node as Lazy;
    use serde_json::json;

    /// Every pointer of the whole JSON reaches the same value lazily, listings agree
    /// with the JSON, and each Variant's bytes decode to it.
    fn agrees(v: &Value, version: Version) {
        let bytes = encode(v, &EncodeOptions::new(version)).unwrap();
        let tape = Tape::new(&bytes, version).unwrap();
        let whole = to_json(v, version);
        let root = Lazy::of(root(&tape));
        walk(&root, &whole, "");
        assert_eq!(root.to_json(), whole);
        assert_eq!(root.span().unwrap().0, 0..bytes.len());
    }

    fn walk(node: &Lazy<Node<'_, '_>>, j: &Json, p: &str) {
        assert_eq!(&node.to_json(), j, "at {p}");
        let s = node.summary();
        match j {
            Json::Array(a) => {
                assert_eq!(s.count, Some(a.len()), "at {p}");
                let kids = node.children(0, usize::MAX);
                assert_eq!(kids.len(), a.len());
                for (i, (k, c)) in kids.iter().enumerate() {
                    assert_eq!(k, &Key::Index(i));
                    walk(c, &a[i], &format!("{p}/{i}"));
                    assert_eq!(node.child(&i.to_string()).unwrap().to_json(), a[i]);
                }
            }
            Json::Object(m) => {
                assert_eq!(s.count, Some(m.len()), "at {p}");
                assert_eq!(s.tag.as_deref(), m.get("$type").and_then(Json::as_str));
                let kids = node.children(0, usize::MAX);
                let keys: Vec<String> = kids
                    .iter()
                    .map(|(k, _)| match k {
                        Key::Name(n) => n.clone(),
                        Key::Index(i) => i.to_string(),
                    })
                    .collect();
                assert_eq!(keys, m.keys().cloned().collect::<Vec<_>>(), "at {p}");
                for (k, c) in kids {
                    let Key::Name(k) = k else { unreachable!() };
                    walk(&c, &m[&k], &format!("{p}/{}", k));
                }
            }
            other => assert_eq!(s.value.as_ref(), Some(other), "at {p}"),
        }
    }

    #[test]
    fn lazy_json_is_the_mapping() {
        let inner = Value::Dictionary(Dictionary::new(vec![
            (Value::from("hp"), Value::Int(87)),
            (
                Value::from("pos"),
                Value::Vector3(crate::Real::F32([1.0, 2.5, -3.0])),
            ),
            (Value::from("tags"), Value::PackedInt32Array(vec![1, 2])),
        ]));
        let tagged = Value::Dictionary(Dictionary::new(vec![
            (Value::Int(1), Value::from("one")),
            (Value::from("$type"), Value::Nil),
        ]));
        let v = Value::from(vec![
            inner.clone(),
            tagged,
            Value::Float(0.5),
            Value::from(Vec::<Value>::new()),
            Value::PackedStringArray(vec!["a".into(), "b".into()]),
        ]);
        agrees(&v, Version::V4);
        agrees(&v, Version::V3);
        let typed = Value::Array(Array::typed(
            vec![Value::Int(3), Value::Int(4)],
            ContainerType::Builtin(Kind::Int.id(Version::V4).unwrap()),
        ));
        let typed_dict = Value::Dictionary(Dictionary::typed(
            vec![(Value::from("k"), Value::Int(1))],
            ContainerType::Builtin(Kind::String.id(Version::V4).unwrap()),
            ContainerType::Any,
        ));
        agrees(&Value::from(vec![typed, typed_dict, inner]), Version::V4);
    }

    #[test]
    fn spans_are_the_values_bytes() {
        let v = Value::from(vec![Value::from("ab"), Value::Int(7)]);
        let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
        let tape = Tape::new(&bytes, Version::V4).unwrap();
        let r = Lazy::of(root(&tape));
        // Array header (4) and count (4), then the String: header, length, "ab" + pad.
        assert_eq!(r.at("/0").unwrap().span().unwrap(), (8..20, true));
        assert_eq!(r.at("/1").unwrap().span().unwrap(), (20..28, true));
        assert_eq!(&bytes[20..24], &[2, 0, 0, 0]);
        assert_eq!(r.at("/1").unwrap().to_json(), json!(7));
    }
}
