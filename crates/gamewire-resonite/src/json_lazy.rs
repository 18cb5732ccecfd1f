//! The lossless JSON mapping ([`crate::json`]) read from the checked BSON view
//! ([`crate::bson_view`]) a level at a time: documents and arrays are listed in place,
//! every other value is turned into JSON alone when it is reached. Pointers, keys and
//! values are those [`crate::json_view::DocumentRefView`] writes for the whole document
//! (tested against it), and every node knows where its bytes are in the BSON.

use crate::bson_view::{DocumentRef, Element, ValueRef};
use crate::json_view::{is_plain_ref, ValueRefView};
use gamewire_core::lazy_json::{index_token, Key, LazyJson, Shape};
use serde_json::Value as Json;
use std::ops::Range;

/// The member that holds a document's entries as pairs when its keys are not plain.
const ENTRIES: &str = "$entries";

/// A value of the JSON mapping, read from a BSON view; offsets are in the BSON.
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// A value and where its bytes are (its value only, not its key).
    Value(ValueRef<'a>, usize, usize),
    /// The `"$entries"` of a document whose keys are not plain (the document and where
    /// it starts).
    Entries(DocumentRef<'a>, usize),
    /// One `[key, value]` entry of such a document (the element, the document's start).
    Pair(Element<'a>, usize),
    /// The key of such an entry, and where its text is.
    Key(&'a str, usize, usize),
}

/// The root document of a view whose BSON starts at 0.
pub fn root(doc: DocumentRef<'_>) -> Node<'_> {
    Node::Value(ValueRef::Document(doc), 0, doc.as_bytes().len())
}

/// A document's element as a value node (the document at `at`).
fn value_of<'a>(e: &Element<'a>, at: usize) -> Node<'a> {
    Node::Value(e.value, at + e.value_start, at + e.end)
}

impl LazyJson for Node<'_> {
    fn shape(&self) -> Shape {
        match self {
            Node::Value(ValueRef::Document(d), ..) if is_plain_ref(*d) => Shape::Object(d.len()),
            Node::Value(ValueRef::Document(_), ..) => Shape::Object(1),
            Node::Value(ValueRef::Array(a), ..) => Shape::Array(a.len()),
            Node::Entries(d, _) => Shape::Array(d.len()),
            Node::Pair(..) => Shape::Array(2),
            _ => Shape::Json(self.to_json()),
        }
    }

    fn children(&self, offset: usize, limit: usize) -> Vec<(Key, Self)> {
        match *self {
            Node::Value(ValueRef::Document(d), at, _) if is_plain_ref(d) => d
                .elements()
                .skip(offset)
                .take(limit)
                .map(|e| (Key::Name(e.key.to_owned()), value_of(&e, at)))
                .collect(),
            Node::Value(ValueRef::Document(d), at, _) => {
                [(Key::Name(ENTRIES.into()), Node::Entries(d, at))]
                    .into_iter()
                    .skip(offset)
                    .take(limit)
                    .collect()
            }
            Node::Value(ValueRef::Array(a), at, _) => a
                .as_document()
                .elements()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, e)| (Key::Index(i), value_of(&e, at)))
                .collect(),
            Node::Entries(d, at) => d
                .elements()
                .enumerate()
                .skip(offset)
                .take(limit)
                .map(|(i, e)| (Key::Index(i), Node::Pair(e, at)))
                .collect(),
            Node::Pair(e, at) => [
                (
                    Key::Index(0),
                    Node::Key(e.key, at + e.start + 1, at + e.value_start - 1),
                ),
                (Key::Index(1), value_of(&e, at)),
            ]
            .into_iter()
            .skip(offset)
            .take(limit)
            .collect(),
            _ => Vec::new(),
        }
    }

    fn get(&self, tok: &str) -> Option<Self> {
        match *self {
            Node::Value(ValueRef::Document(d), at, _) if is_plain_ref(d) => d
                .elements()
                .find(|e| e.key == tok)
                .map(|e| value_of(&e, at)),
            Node::Value(ValueRef::Document(d), at, _) => {
                (tok == ENTRIES).then_some(Node::Entries(d, at))
            }
            Node::Value(ValueRef::Array(a), at, _) => a
                .as_document()
                .elements()
                .nth(index_token(tok)?)
                .map(|e| value_of(&e, at)),
            Node::Entries(d, at) => d
                .elements()
                .nth(index_token(tok)?)
                .map(|e| Node::Pair(e, at)),
            Node::Pair(..) => {
                let i = index_token(tok)?;
                self.children(i, 1).pop().map(|(_, n)| n)
            }
            _ => None,
        }
    }

    fn span(&self) -> Option<Range<usize>> {
        Some(match *self {
            Node::Value(_, s, e) | Node::Key(_, s, e) => s..e,
            Node::Entries(d, at) => at..at + d.as_bytes().len(),
            Node::Pair(e, at) => at + e.start..at + e.end,
        })
    }

    fn to_json(&self) -> Json {
        match *self {
            Node::Value(v, ..) => serde_json::to_value(ValueRefView(v)).unwrap_or(Json::Null),
            Node::Key(k, ..) => Json::String(k.to_owned()),
            Node::Entries(d, at) => {
                Json::Array(d.elements().map(|e| Node::Pair(e, at).to_json()).collect())
            }
            Node::Pair(e, at) => Json::Array(vec![
                Json::String(e.key.to_owned()),
                value_of(&e, at).to_json(),
            ]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson_view::BsonView;
    use crate::json_view::DocumentRefView;
    use crate::value::{Document, Value};
    use crate::{bson_write, Options};
    use gamewire_core::lazy_json::Node as Lazy;

    fn walk(node: &Lazy<Node<'_>>, j: &Json, p: &str) {
        assert_eq!(&node.to_json(), j, "at {p}");
        let kids = node.children(0, usize::MAX);
        match j {
            Json::Array(a) => {
                assert_eq!(kids.len(), a.len(), "at {p}");
                for (i, (_, c)) in kids.iter().enumerate() {
                    walk(c, &a[i], &format!("{p}/{i}"));
                }
            }
            Json::Object(m) => {
                assert_eq!(kids.len(), m.len(), "at {p}");
                for (k, c) in kids {
                    let Key::Name(k) = k else {
                        panic!("index in an object")
                    };
                    walk(&c, &m[&k], &format!("{p}/{k}"));
                    assert_eq!(node.child(&k).unwrap().to_json(), m[&k]);
                }
            }
            other => assert_eq!(node.summary().value.as_ref(), Some(other), "at {p}"),
        }
    }

    #[test]
    fn lazy_json_is_the_mapping_and_spans_are_the_bytes() {
        let mut slot = Document::new();
        slot.push("ID", Value::String("abc".into()));
        slot.push("n", Value::Int64(5));
        let mut odd = Document::new();
        odd.push("$x", Value::Double(1.5));
        odd.push("$x", Value::Bool(true));
        let mut doc = Document::new();
        doc.push("slot", Value::Document(slot));
        doc.push("odd", Value::Document(odd));
        doc.push(
            "list",
            Value::Array(vec![Value::Int32(1), Value::Null, Value::Double(f64::NAN)].into()),
        );
        let bytes = bson_write::to_vec(&doc, 64).unwrap();
        let view = BsonView::new(&bytes, &Options::default()).unwrap();
        let whole = serde_json::to_value(DocumentRefView::new(view.root())).unwrap();
        let r = Lazy::of(root(view.root()));
        walk(&r, &whole, "");
        // The first element: type 0x03, "slot\0", then the document at byte 10.
        let (s, own) = r.at("/slot").unwrap().span().unwrap();
        assert!(own);
        assert_eq!(s.start, 10);
        assert_eq!(
            u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize,
            s.len()
        );
        // "ID": type byte at 14, key "ID\0", the string's length at 18: 4 ("abc\0").
        let (s, _) = r.at("/slot/ID").unwrap().span().unwrap();
        assert_eq!(s, 18..26);
        assert_eq!(&bytes[22..25], b"abc");
        let (s, _) = r.at("/odd/$entries/1/0").unwrap().span().unwrap();
        assert_eq!(&bytes[s], b"$x");
    }
}
