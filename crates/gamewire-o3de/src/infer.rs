//! What an O3DE file shows without a registry: the `$type` names it uses, the UUIDs
//! it holds, the entity ids it names and its asset references.
//!
//! An asset reference is an object with an `assetId` (`{"guid": "{…}", "subId": n}`)
//! and usually an `assetHint` (the source path), as O3DE's `Asset<T>` serializer
//! writes it. Entity ids are the aliases prefabs use (`Entity_[…]`,
//! `ContainerEntity`) and `{"id": n}` entity id objects.

use crate::doc::Node;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// One asset reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AssetRef<'a> {
    /// `assetId.guid`.
    pub guid: Cow<'a, str>,
    /// `assetId.subId`, as written.
    pub sub_id: Option<Cow<'a, str>>,
    /// `assetHint`.
    pub hint: Option<Cow<'a, str>>,
}

/// What [`summarize`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary<'a> {
    /// Each `$type` value and how often it appears, most frequent first (then by name).
    pub types: Vec<(Cow<'a, str>, usize)>,
    /// The distinct UUIDs (`{8-4-4-4-12}` strings, also those opening a `$type`), in
    /// order of first appearance.
    pub uuids: Vec<Cow<'a, str>>,
    /// The distinct entity ids, in order of first appearance.
    pub entity_ids: Vec<Cow<'a, str>>,
    /// The distinct asset references, in order of first appearance.
    pub assets: Vec<AssetRef<'a>>,
    /// How many values the document holds (objects, arrays and scalars).
    pub values: usize,
}

/// True for a `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}` string (hex digits of any case).
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 38
        && b[0] == b'{'
        && b[37] == b'}'
        && b[1..37].iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_entity_alias(s: &str) -> bool {
    s == "ContainerEntity"
        || s.strip_prefix("Entity_[")
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
}

struct Walk<'a> {
    types: HashMap<Cow<'a, str>, usize>,
    type_order: Vec<Cow<'a, str>>,
    uuids: Vec<Cow<'a, str>>,
    uuid_seen: HashSet<Cow<'a, str>>,
    ids: Vec<Cow<'a, str>>,
    id_seen: HashSet<Cow<'a, str>>,
    assets: Vec<AssetRef<'a>>,
    asset_seen: HashSet<AssetRef<'a>>,
    values: usize,
}

impl<'a> Walk<'a> {
    fn uuid(&mut self, s: Cow<'a, str>) {
        if self.uuid_seen.insert(s.clone()) {
            self.uuids.push(s);
        }
    }

    fn id(&mut self, s: Cow<'a, str>) {
        if self.id_seen.insert(s.clone()) {
            self.ids.push(s);
        }
    }

    fn string(&mut self, s: Cow<'a, str>) {
        if is_uuid(&s) {
            self.uuid(s);
        } else if is_entity_alias(&s) {
            self.id(s);
        } else if let Some(r) = s.strip_prefix("../") {
            if is_entity_alias(r) {
                self.id(Cow::Owned(r.to_string()));
            }
        }
    }

    fn node(&mut self, n: &Node<'a>) {
        self.values += 1;
        match n {
            Node::String(s) => self.string(s.value()),
            Node::Array(a) => a.iter().for_each(|x| self.node(x)),
            Node::Object(m) => {
                for (k, v) in m {
                    let name = k.value();
                    if is_entity_alias(&name) {
                        self.id(name.clone());
                    }
                    match (&*name, v) {
                        ("$type", Node::String(t)) => {
                            let t = t.value();
                            if let Some(u) = t.get(..38).filter(|u| is_uuid(u)) {
                                self.uuid(Cow::Owned(u.to_string()));
                            }
                            match self.types.get_mut(&t) {
                                Some(c) => *c += 1,
                                None => {
                                    self.types.insert(t.clone(), 1);
                                    self.type_order.push(t);
                                }
                            }
                            self.values += 1;
                            continue;
                        }
                        ("assetId", Node::Object(_)) => {
                            if let Some(guid) = v.get("guid").and_then(Node::as_str) {
                                let a = AssetRef {
                                    guid,
                                    sub_id: match v.get("subId") {
                                        Some(Node::Number(t)) => Some(Cow::Borrowed(*t)),
                                        Some(Node::String(s)) => Some(s.value()),
                                        _ => None,
                                    },
                                    hint: n.get("assetHint").and_then(Node::as_str),
                                };
                                if self.asset_seen.insert(a.clone()) {
                                    self.assets.push(a);
                                }
                            }
                        }
                        ("id", Node::Number(t)) if m.len() == 1 => {
                            self.id(Cow::Owned(format!("{{\"id\": {t}}}")));
                        }
                        _ => {}
                    }
                    self.node(v);
                }
            }
            _ => {}
        }
    }
}

/// Walks `root` and lists what it shows (see the module notes).
pub fn summarize<'a>(root: &Node<'a>) -> Summary<'a> {
    let mut w = Walk {
        types: HashMap::new(),
        type_order: Vec::new(),
        uuids: Vec::new(),
        uuid_seen: HashSet::new(),
        ids: Vec::new(),
        id_seen: HashSet::new(),
        assets: Vec::new(),
        asset_seen: HashSet::new(),
        values: 0,
    };
    w.node(root);
    let mut types: Vec<(Cow<'a, str>, usize)> = w
        .type_order
        .into_iter()
        .map(|t| {
            let c = w.types[&t];
            (t, c)
        })
        .collect();
    types.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Summary {
        types,
        uuids: w.uuids,
        entity_ids: w.ids,
        assets: w.assets,
        values: w.values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Document;

    #[test]
    fn finds_types_uuids_ids_and_assets() {
        let text = br#"{
            "ContainerEntity": {"Id": "ContainerEntity", "Components": {
                "Component_[1]": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Parent Entity": ""}}},
            "Entities": {"Entity_[5]": {"Id": "Entity_[5]", "Components": {
                "Component_[2]": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Parent Entity": "ContainerEntity"},
                "Component_[3]": {"$type": "EditorMeshComponent", "Model": {
                    "Asset": {"assetId": {"guid": "{A9FB5E1B-E1E5-5E8E-8A6D-2B07F9A5CCE5}", "subId": 275306041},
                              "assetHint": "objects/cube.fbx.azmodel"},
                    "Again": {"assetId": {"guid": "{A9FB5E1B-E1E5-5E8E-8A6D-2B07F9A5CCE5}", "subId": 275306041},
                              "assetHint": "objects/cube.fbx.azmodel"}},
                    "Target": {"id": 42}, "Other": "../Entity_[9]", "uuid": "{a9fb5e1b-e1e5-5e8e-8a6d-2b07f9a5cce5}"}}}}
        }"#;
        let doc = Document::parse(text).unwrap();
        let s = summarize(&doc.root);
        assert_eq!(
            s.types,
            vec![
                (
                    Cow::from("{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent"),
                    2
                ),
                (Cow::from("EditorMeshComponent"), 1)
            ]
        );
        assert_eq!(
            s.uuids,
            vec![
                "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}",
                "{A9FB5E1B-E1E5-5E8E-8A6D-2B07F9A5CCE5}",
                "{a9fb5e1b-e1e5-5e8e-8a6d-2b07f9a5cce5}"
            ]
        );
        assert_eq!(
            s.entity_ids,
            vec![
                "ContainerEntity",
                "Entity_[5]",
                "{\"id\": 42}",
                "Entity_[9]"
            ]
        );
        assert_eq!(
            s.assets,
            vec![AssetRef {
                guid: "{A9FB5E1B-E1E5-5E8E-8A6D-2B07F9A5CCE5}".into(),
                sub_id: Some("275306041".into()),
                hint: Some("objects/cube.fbx.azmodel".into()),
            }]
        );
        assert!(!is_uuid("{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0"));
        assert!(!is_uuid("{27F1E1A1-8D9D-4C3B-BD3A_AFB9762449C0}"));
        assert!(!is_entity_alias("Entity_[]"));
        assert!(!is_entity_alias("Entity_[12a]"));
    }
}
