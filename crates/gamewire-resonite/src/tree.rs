//! The data tree: root fields, the `Types` table and the slot hierarchy.
//!
//! A saved world or item is one document:
//!
//! | key | holds |
//! |---|---|
//! | `VersionNumber` | the engine version that saved it (string) |
//! | `FeatureFlags` | document of flag name → int32 |
//! | `Types` | array of type names; a component's `Type` is an index into it |
//! | `TypeVersions` | document of type name → int32 version |
//! | `Object` | the root slot |
//! | `Assets` | array of asset components |
//!
//! Older (Neos) files have no `Types` table: a component's `Type` is the type name.
//! Synced members are `{"ID": guid, "Data": value}`; references hold the target's `ID`
//! string; vectors, quaternions and colors are arrays of numbers; enums are their names;
//! URIs are strings starting with `@`.

pub mod typed;

use crate::value::{Document, Value};
use gamewire_core::{Error, Result};
use std::borrow::Cow;
use std::collections::HashMap;
pub use typed::{Prim, Scalar, TreeType, TreeValue};

/// The declared types of a slot's own members (`FrooxEngine.Slot`).
pub fn slot_member_type(name: &str) -> Option<TreeType> {
    Some(match name {
        "Name" | "Tag" => TreeType::String,
        "Active" | "Persistent" => TreeType::Scalar(Prim::Bool),
        "Position" | "Scale" => TreeType::Vector(Prim::Float, 3),
        "Rotation" => TreeType::Quaternion(Prim::Float),
        "OrderOffset" => TreeType::Scalar(Prim::Long),
        "ParentReference" => TreeType::RefId,
        _ => return None,
    })
}

/// Reads member `name` of `doc` typed: as `ty` when given, else by its shape. `Ok(None)`
/// when the member is absent or (without a type) has no value convention; a value that
/// does not fit `ty` is an error whose path names the member (`name.Data[i]`).
pub fn typed_member(
    doc: &Document<'_>,
    name: &str,
    ty: Option<&TreeType>,
) -> Result<Option<TreeValue>> {
    let Some(raw) = doc.get(name) else {
        return Ok(None);
    };
    let paired = matches!(raw, Value::Document(d) if d.get("ID").is_some());
    let Some(v) = member(doc, name) else {
        return Err(Error::msg("expected a Data value beside the member's ID").in_key(name));
    };
    let r = match ty {
        Some(t) => TreeValue::read(v, t).map(Some),
        None => Ok(TreeValue::infer(v)),
    };
    r.map_err(|e| {
        let e = if paired { e.in_key("Data") } else { e };
        e.in_key(name)
    })
}

/// Writes `value` into member `name` of `doc` as Resonite would: into the `Data` of an
/// `{"ID", "Data"}` pair when there is one, else as the member itself (added when absent).
pub fn set_typed_member(doc: &mut Document<'_>, name: &str, value: &TreeValue) {
    let bson = value.to_bson();
    if let Some((_, v)) = doc.entries.to_mut().iter_mut().find(|(k, _)| k == name) {
        if let Value::Document(d) = v {
            if d.get("ID").is_some() {
                match d.entries.to_mut().iter_mut().find(|(k, _)| k == "Data") {
                    Some((_, data)) => *data = bson,
                    None => d.push("Data", bson),
                }
                return;
            }
        }
        *v = bson;
    } else {
        doc.push(name.to_string(), bson);
    }
}

/// A view of a root document as a data tree.
#[derive(Debug, Clone, Copy)]
pub struct DataTree<'d, 'a> {
    /// The root document.
    pub root: &'d Document<'a>,
}

/// A view of one slot document.
#[derive(Debug, Clone, Copy)]
pub struct Slot<'d, 'a> {
    /// The slot's document.
    pub doc: &'d Document<'a>,
}

/// A view of one component (`{"Type": .., "Data": {..}}`).
#[derive(Debug, Clone, Copy)]
pub struct Component<'d, 'a> {
    /// The `Type` value: an index into `Types` or (older files) a type name.
    pub type_value: Option<&'d Value<'a>>,
    /// The `Data` document with the component's members.
    pub data: Option<&'d Document<'a>>,
}

/// The value of a synced member: `doc[name]["Data"]`, or `doc[name]` itself when it is
/// not an `{"ID", "Data"}` pair.
pub fn member<'d, 'a>(doc: &'d Document<'a>, name: &str) -> Option<&'d Value<'a>> {
    let v = doc.get(name)?;
    match v {
        Value::Document(d) if d.get("ID").is_some() => d.get("Data"),
        other => Some(other),
    }
}

/// Numbers of an array (a vector, quaternion or color), when every element is a number.
pub fn numbers(v: &Value<'_>) -> Option<Vec<f64>> {
    v.as_array()?.iter().map(Value::as_f64).collect()
}

impl<'d, 'a> DataTree<'d, 'a> {
    /// Views `root` as a data tree.
    pub fn new(root: &'d Document<'a>) -> Self {
        DataTree { root }
    }

    /// `VersionNumber`.
    pub fn version_number(&self) -> Option<&'d str> {
        self.root.get("VersionNumber")?.as_str()
    }

    /// `FeatureFlags` as (name, value) pairs.
    pub fn feature_flags(&self) -> Vec<(&'d str, i64)> {
        let Some(d) = self.root.get("FeatureFlags").and_then(Value::as_document) else {
            return Vec::new();
        };
        d.entries
            .iter()
            .filter_map(|(k, v)| Some((k.as_ref(), v.as_i64()?)))
            .collect()
    }

    /// The `Types` table (empty for older files without one).
    pub fn types(&self) -> Vec<&'d str> {
        self.root
            .get("Types")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|t| t.as_str().unwrap_or("")).collect())
            .unwrap_or_default()
    }

    /// `TypeVersions` as (type name, version) pairs.
    pub fn type_versions(&self) -> Vec<(&'d str, i64)> {
        let Some(d) = self.root.get("TypeVersions").and_then(Value::as_document) else {
            return Vec::new();
        };
        d.entries
            .iter()
            .filter_map(|(k, v)| Some((k.as_ref(), v.as_i64()?)))
            .collect()
    }

    /// The root slot (`Object`).
    pub fn object(&self) -> Option<Slot<'d, 'a>> {
        self.root
            .get("Object")?
            .as_document()
            .map(|doc| Slot { doc })
    }

    /// The asset components (`Assets`).
    pub fn assets(&self) -> Vec<Component<'d, 'a>> {
        self.root
            .get("Assets")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Component::from_value).collect())
            .unwrap_or_default()
    }

    /// The type name of a component: `Types[index]`, or the name itself in older files.
    /// An index outside the table gives `None`.
    pub fn type_name(&self, c: &Component<'d, 'a>) -> Option<Cow<'d, str>> {
        match c.type_value? {
            Value::String(s) => Some(Cow::Borrowed(s.as_ref())),
            v => {
                let i = usize::try_from(v.as_i64()?).ok()?;
                let t = self.root.get("Types")?.as_array()?.get(i)?.as_str()?;
                Some(Cow::Borrowed(t))
            }
        }
    }

    /// Member `name` of component `c`, typed by the declared type its component type
    /// names (`ValueField<float3>`'s `Value` is a `float3`), or by shape otherwise.
    pub fn typed_member(&self, c: &Component<'d, 'a>, name: &str) -> Result<Option<TreeValue>> {
        let Some(data) = c.data else {
            return Ok(None);
        };
        let ty = self
            .type_name(c)
            .and_then(|t| TreeType::of_member(&t, name));
        typed_member(data, name, ty.as_ref())
    }

    /// Every slot, depth first, with its depth (the root slot is 0). Iterative: any
    /// nesting depth is safe.
    pub fn slots(&self) -> Vec<(usize, Slot<'d, 'a>)> {
        self.slots_to_depth(None)
    }

    /// The slots down to depth `max_depth` (the root slot is 0; `None`: every slot),
    /// depth first, with their depths: a slot at `max_depth` is listed, its children
    /// are not (see [`Slot::descendant_count`] for how many that leaves out).
    /// Iterative: any nesting depth is safe.
    pub fn slots_to_depth(&self, max_depth: Option<usize>) -> Vec<(usize, Slot<'d, 'a>)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, Slot<'d, 'a>)> =
            self.object().map(|s| (0, s)).into_iter().collect();
        while let Some((depth, s)) = stack.pop() {
            out.push((depth, s));
            if max_depth.is_some_and(|m| depth >= m) {
                continue;
            }
            let kids = s.children();
            for k in kids.into_iter().rev() {
                stack.push((depth + 1, k));
            }
        }
        out
    }

    /// Maps every `ID` in the tree (slots, components, members) to what holds it, so
    /// references (strings holding an `ID`) can be resolved.
    pub fn ids(&self) -> HashMap<&'d str, IdOwner> {
        let mut map = HashMap::new();
        for (_, slot) in self.slots() {
            if let Some(id) = slot.id() {
                map.insert(id, IdOwner::Slot);
            }
            for c in slot.components() {
                if let Some(id) = c.id() {
                    map.insert(id, IdOwner::Component);
                }
            }
        }
        for c in self.assets() {
            if let Some(id) = c.id() {
                map.insert(id, IdOwner::Component);
            }
        }
        map
    }
}

/// What an `ID` belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdOwner {
    /// A slot.
    Slot,
    /// A component (in a slot or in `Assets`).
    Component,
}

impl<'d, 'a> Slot<'d, 'a> {
    /// The slot's `ID`.
    pub fn id(&self) -> Option<&'d str> {
        self.doc.get("ID")?.as_str()
    }
    /// `Name`.
    pub fn name(&self) -> Option<&'d str> {
        member(self.doc, "Name")?.as_str()
    }
    /// `Tag`.
    pub fn tag(&self) -> Option<&'d str> {
        member(self.doc, "Tag")?.as_str()
    }
    /// `Active`.
    pub fn active(&self) -> Option<bool> {
        member(self.doc, "Active")?.as_bool()
    }
    /// `Position` (x, y, z).
    pub fn position(&self) -> Option<Vec<f64>> {
        numbers(member(self.doc, "Position")?)
    }
    /// `Rotation` (a quaternion x, y, z, w).
    pub fn rotation(&self) -> Option<Vec<f64>> {
        numbers(member(self.doc, "Rotation")?)
    }
    /// `Scale` (x, y, z).
    pub fn scale(&self) -> Option<Vec<f64>> {
        numbers(member(self.doc, "Scale")?)
    }
    /// `OrderOffset` (an int64 in the engine).
    pub fn order_offset(&self) -> Option<i64> {
        member(self.doc, "OrderOffset")?.as_i64()
    }
    /// `ParentReference`: the `ID` of the parent slot reference.
    pub fn parent_reference(&self) -> Option<&'d str> {
        member(self.doc, "ParentReference")?.as_str()
    }
    /// The components (`Components.Data`).
    pub fn components(&self) -> Vec<Component<'d, 'a>> {
        member(self.doc, "Components")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Component::from_value).collect())
            .unwrap_or_default()
    }
    /// Member `name` typed by the slot's declared member types (or by shape for others).
    pub fn typed(&self, name: &str) -> Result<Option<TreeValue>> {
        typed_member(self.doc, name, slot_member_type(name).as_ref())
    }
    /// How many slots are below this one (children, their children, ...). Iterative.
    pub fn descendant_count(&self) -> usize {
        let mut n = 0;
        let mut stack = self.children();
        while let Some(s) = stack.pop() {
            n += 1;
            stack.extend(s.children());
        }
        n
    }

    /// The child slots (`Children`).
    pub fn children(&self) -> Vec<Slot<'d, 'a>> {
        self.doc
            .get("Children")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_document().map(|doc| Slot { doc }))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl<'d, 'a> Component<'d, 'a> {
    /// Views a `{"Type", "Data"}` document as a component.
    pub fn from_value(v: &'d Value<'a>) -> Option<Self> {
        let d = v.as_document()?;
        Some(Component {
            type_value: d.get("Type"),
            data: d.get("Data").and_then(Value::as_document),
        })
    }
    /// The component's `ID` (in `Data`).
    pub fn id(&self) -> Option<&'d str> {
        self.data?.get("ID")?.as_str()
    }
    /// The member `name` of the component (its `Data` value).
    pub fn member(&self, name: &str) -> Option<&'d Value<'a>> {
        member(self.data?, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth;

    #[test]
    fn sample_tree_resolves_types_and_walks_slots() {
        let root = synth::data_tree(20, 3, 7);
        let t = DataTree::new(&root);
        assert_eq!(t.version_number(), Some("2024.8.5.1346"));
        assert_eq!(t.types().len(), synth::TYPES.len());
        let slots = t.slots();
        assert_eq!(slots.len(), 20);
        let (d0, r) = slots[0];
        assert_eq!((d0, r.name()), (0, Some("Root")));
        assert_eq!(r.rotation(), Some(vec![0.0, 0.0, 0.0, 1.0]));
        assert_eq!(r.order_offset(), Some(0));
        assert_eq!(r.active(), Some(true));
        for (_, s) in &slots {
            for c in s.components() {
                let name = t.type_name(&c).unwrap();
                assert!(synth::TYPES.contains(&name.as_ref()), "{name}");
            }
        }
        // children point at their parent through ParentReference
        let child = r.children()[0];
        assert_eq!(child.parent_reference(), r.id());
        assert_eq!(t.ids().get(r.id().unwrap()), Some(&IdOwner::Slot));
        assert_eq!(t.assets().len(), 3);
    }

    #[test]
    fn slots_stop_at_a_depth_and_count_what_they_leave_out() {
        let root = synth::data_tree(40, 3, 7);
        let t = DataTree::new(&root);
        let all = t.slots();
        assert_eq!(t.slots_to_depth(None).len(), all.len());
        let deepest = all.iter().map(|(d, _)| *d).max().unwrap();
        assert!(deepest >= 2, "the sample nests");
        for max in 0..=deepest {
            let some = t.slots_to_depth(Some(max));
            assert!(some.iter().all(|(d, _)| *d <= max));
            let want = all.iter().filter(|(d, _)| *d <= max).count();
            assert_eq!(some.len(), want, "depth {max}");
            // What is listed plus what the deepest listed slots hide is every slot.
            let hidden: usize = some
                .iter()
                .filter(|(d, _)| *d == max)
                .map(|(_, s)| s.descendant_count())
                .sum();
            assert_eq!(some.len() + hidden, all.len(), "depth {max}");
        }
        assert_eq!(t.slots_to_depth(Some(0)).len(), 1);
        assert_eq!(all[0].1.descendant_count(), all.len() - 1);
    }

    #[test]
    fn neos_type_names_and_bad_indexes() {
        let mut c = Document::new();
        c.push("Type", Value::String("FrooxEngine.Grabbable".into()));
        let v = Value::Document(c);
        let root = Document::new();
        let t = DataTree::new(&root);
        let comp = Component::from_value(&v).unwrap();
        assert_eq!(t.type_name(&comp).as_deref(), Some("FrooxEngine.Grabbable"));
        let mut c = Document::new();
        c.push("Type", Value::Int32(9));
        let v = Value::Document(c);
        assert_eq!(t.type_name(&Component::from_value(&v).unwrap()), None);
    }
}
