//! The entity hierarchy of a prefab (or level), read without a registry.
//!
//! A prefab file holds a `ContainerEntity`, an `Entities` object (alias such as
//! `Entity_[1234]` → entity) and an `Instances` object (alias → nested prefab: its
//! `Source` file and the `Patches` applied to it). Each entity has an `Id`, a `Name` and
//! `Components` (alias → component with a `$type`); the parent of an entity is the
//! `Parent Entity` of its transform component (an entity alias or id; `""` for none).
//! A nested instance hangs under the entity its container is parented to, which its
//! patches say (`/ContainerEntity/Components/…/Parent Entity` set to
//! `"../Entity_[…]"`). Older prefabs (2021) give the container an `Entity_[…]` id and
//! may hold a nested instance's whole content: both are read.
//!
//! [`PrefabTree::parse`] reads the tree straight from the bytes (checking the whole
//! file but building only what the tree shows), [`PrefabTree::from_node`] from a parsed
//! [`crate::doc::Document`]; [`PrefabTree::render`] prints it.

use crate::doc::{Node, Parser, Str, MAX_DEPTH};
pub use crate::prefab_load::{
    is_prefab, load_prefab, prefab_load_options, ComponentReport, KeptReport, PrefabReport,
};
use gamewire_core::{Error, Result};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One entity.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity<'a> {
    /// Its alias: the member name in `Entities` (`ContainerEntity` for the container).
    pub alias: Cow<'a, str>,
    /// Its `Id` member, when it is a string.
    pub id: Option<Cow<'a, str>>,
    /// Its `Name`.
    pub name: Option<Cow<'a, str>>,
    /// Its components' type names (`$type` without the `{uuid}` before the name), in
    /// file order; `None` for a component without `$type`.
    pub components: Vec<Option<Cow<'a, str>>>,
    /// The `Parent Entity` of its transform component (`None` when absent or empty).
    pub parent: Option<Cow<'a, str>>,
}

/// One nested prefab instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance<'a> {
    /// Its alias: the member name in `Instances`.
    pub alias: Cow<'a, str>,
    /// The prefab file it instantiates (`Source`).
    pub source: Option<Cow<'a, str>>,
    /// How many patches it applies (the length of `Patches`).
    pub patches: usize,
    /// The entity its container is parented to, from a patch on the container's
    /// `Parent Entity` (`../` taken off).
    pub parent: Option<Cow<'a, str>>,
    /// The instance's own content, when the file holds it (older prefabs).
    pub content: Option<Box<PrefabTree<'a>>>,
}

/// A prefab's entities and instances, with the hierarchy between them.
#[derive(Debug, Clone, PartialEq)]
pub struct PrefabTree<'a> {
    /// The top-level `Source` member (older prefabs name their own file).
    pub source: Option<Cow<'a, str>>,
    /// The container entity.
    pub container: Option<Entity<'a>>,
    /// The entities of `Entities`, in file order.
    pub entities: Vec<Entity<'a>>,
    /// The instances of `Instances`, in file order.
    pub instances: Vec<Instance<'a>>,
}

/// `{27F1E1A1-…} TransformComponent` → `TransformComponent`; a bare `{uuid}` stays.
pub fn short_type_name(t: &str) -> &str {
    match t.strip_prefix('{').and_then(|r| r.split_once('}')) {
        Some((_, rest)) if !rest.trim().is_empty() => rest.trim(),
        _ => t,
    }
}

fn text<'a>(n: Option<&Node<'a>>) -> Option<Cow<'a, str>> {
    n.and_then(Node::as_str)
}

/// [`short_type_name`] of a string that may be borrowed or owned.
fn short_cow(v: Cow<'_, str>) -> Cow<'_, str> {
    match v {
        Cow::Borrowed(b) => Cow::Borrowed(short_type_name(b)),
        Cow::Owned(o) => Cow::Owned(short_type_name(&o).to_string()),
    }
}

/// The value of a string node, else `None` (the node is read either way).
fn string_of<'a>(p: &mut Parser<'a>) -> Result<Option<Cow<'a, str>>> {
    Ok(match p.node()? {
        Node::String(s) => Some(s.value()),
        _ => None,
    })
}

/// How a component held by the editor's `GenericComponentWrapper` is marked after its
/// own type (`SoundEffectComponent (wrapped)`).
pub const WRAPPED: &str = "(wrapped)";

/// Reads one component object from the parser: its `$type` and, for a transform
/// component, its `Parent Entity`.
fn read_component<'a>(
    p: &mut Parser<'a>,
    components: &mut Vec<Option<Cow<'a, str>>>,
    parent: &mut Option<Cow<'a, str>>,
) -> Result<()> {
    if !p.at_object() {
        return p.skip();
    }
    let (mut ty, mut up, mut inner) = (None, None, None);
    p.object_with(|p, name| {
        if name.is("$type") {
            ty = string_of(p)?.map(short_cow);
        } else if name.is("Parent Entity") {
            up = string_of(p)?;
        } else if name.is("m_template") && p.at_object() {
            // The component an editor `GenericComponentWrapper` holds.
            p.object_with(|p, n| {
                if n.is("$type") {
                    inner = string_of(p)?.map(short_cow);
                } else {
                    p.skip()?;
                }
                Ok(())
            })?;
        } else {
            p.skip()?;
        }
        Ok(())
    })?;
    // Most gameplay components in an editor level are wrapped: show the one inside,
    // marked as wrapped.
    if ty.as_deref() == Some("GenericComponentWrapper") {
        if let Some(i) = inner {
            ty = Some(Cow::Owned(format!("{i} {WRAPPED}")));
        }
    }
    if parent.is_none()
        && ty
            .as_deref()
            .is_some_and(|t| t.ends_with("TransformComponent"))
    {
        *parent = up.filter(|u| !u.is_empty());
    }
    components.push(ty);
    Ok(())
}

/// Reads one entity object from the parser.
fn read_entity<'a>(p: &mut Parser<'a>, alias: Option<Cow<'a, str>>) -> Result<Entity<'a>> {
    let (mut id, mut name, mut components, mut parent) = (None, None, Vec::new(), None);
    p.object_with(|p, member| {
        if member.is("Id") {
            id = string_of(p)?;
        } else if member.is("Name") {
            name = string_of(p)?;
        } else if member.is("Components") && p.at_object() {
            p.object_with(|p, _| read_component(p, &mut components, &mut parent))?;
        } else if member.is("Components") && p.at_array() {
            p.array_with(|p| read_component(p, &mut components, &mut parent))?;
        } else {
            p.skip()?;
        }
        Ok(())
    })?;
    Ok(Entity {
        alias: alias.or_else(|| id.clone()).unwrap_or(Cow::Borrowed("?")),
        id,
        name,
        components,
        parent,
    })
}

/// Reads one member of a prefab object (or of an instance holding its content) into
/// `t`; `seen` is set when the member is one of the prefab's own.
fn prefab_member<'a>(
    p: &mut Parser<'a>,
    name: Str<'a>,
    t: &mut PrefabTree<'a>,
    seen: &mut bool,
) -> Result<()> {
    if name.is("ContainerEntity") {
        *seen = true;
        if p.at_object() {
            t.container = Some(read_entity(p, Some(Cow::Borrowed("ContainerEntity")))?);
            return Ok(());
        }
    } else if name.is("Entities") {
        *seen = true;
        if p.at_object() {
            return p.object_with(|p, k| {
                if p.at_object() {
                    t.entities.push(read_entity(p, Some(k.value()))?);
                    Ok(())
                } else {
                    p.skip()
                }
            });
        }
        if p.at_array() {
            return p.array_with(|p| {
                if p.at_object() {
                    t.entities.push(read_entity(p, None)?);
                    Ok(())
                } else {
                    p.skip()
                }
            });
        }
    } else if name.is("Instances") {
        *seen = true;
        if p.at_object() {
            return p.object_with(|p, k| {
                if p.at_object() {
                    t.instances.push(read_instance(p, k.value())?);
                    Ok(())
                } else {
                    p.skip()
                }
            });
        }
    } else if name.is("Source") {
        t.source = string_of(p)?;
        return Ok(());
    }
    p.skip()
}

/// Reads one instance object from the parser.
fn read_instance<'a>(p: &mut Parser<'a>, alias: Cow<'a, str>) -> Result<Instance<'a>> {
    let mut content = PrefabTree {
        source: None,
        container: None,
        entities: Vec::new(),
        instances: Vec::new(),
    };
    let (mut has_content, mut patches, mut parent) = (false, 0, None);
    p.object_with(|p, name| {
        if name.is("Patches") && p.at_array() {
            p.array_with(|p| {
                let n = p.node()?;
                patches += 1;
                if parent.is_none() {
                    parent = patch_parent(&n);
                }
                Ok(())
            })
        } else {
            prefab_member(p, name, &mut content, &mut has_content)
        }
    })?;
    Ok(Instance {
        alias,
        source: content.source.clone(),
        patches,
        parent,
        content: has_content.then(|| Box::new(content)),
    })
}

impl<'a> Entity<'a> {
    /// Reads an entity object stored under `alias`.
    pub fn from_node(alias: Cow<'a, str>, n: &Node<'a>) -> Entity<'a> {
        let mut components = Vec::new();
        let mut parent = None;
        let comps = n.get("Components");
        let list: Box<dyn Iterator<Item = &Node<'a>>> = match comps {
            Some(Node::Object(m)) => Box::new(m.iter().map(|(_, v)| v)),
            Some(Node::Array(a)) => Box::new(a.iter()),
            _ => Box::new(std::iter::empty()),
        };
        for c in list {
            let type_of = |n: Option<&Node<'a>>| match n.and_then(|n| n.get("$type")) {
                Some(Node::String(s)) => Some(short_cow(s.value())),
                _ => None,
            };
            let mut ty = type_of(Some(c));
            // Most gameplay components in an editor level are wrapped: show the one inside.
            if ty.as_deref() == Some("GenericComponentWrapper") {
                if let Some(inner) = type_of(c.get("m_template")) {
                    ty = Some(Cow::Owned(format!("{inner} {WRAPPED}")));
                }
            }
            if parent.is_none()
                && ty
                    .as_deref()
                    .is_some_and(|t| t.ends_with("TransformComponent"))
            {
                parent = text(c.get("Parent Entity")).filter(|p| !p.is_empty());
            }
            components.push(ty);
        }
        Entity {
            alias,
            id: text(n.get("Id")),
            name: text(n.get("Name")),
            components,
            parent,
        }
    }
}

/// The entity a patch parents an instance's container to, if it does.
fn patch_parent<'a>(p: &Node<'a>) -> Option<Cow<'a, str>> {
    let (op, path) = (text(p.get("op"))?, text(p.get("path"))?);
    if !matches!(&*op, "add" | "replace")
        || !path.starts_with("/ContainerEntity/Components/")
        || !path.ends_with("/Parent Entity")
    {
        return None;
    }
    let v = text(p.get("value")).filter(|v| !v.is_empty())?;
    Some(match v {
        Cow::Borrowed(b) => Cow::Borrowed(b.strip_prefix("../").unwrap_or(b)),
        Cow::Owned(o) => Cow::Owned(o.strip_prefix("../").unwrap_or(&o).to_string()),
    })
}

/// The entity the patches parent an instance's container to (the first that does).
fn instance_parent<'a>(patches: &[Node<'a>]) -> Option<Cow<'a, str>> {
    patches.iter().find_map(patch_parent)
}

fn members<'n, 'a>(n: Option<&'n Node<'a>>) -> &'n [(crate::doc::Str<'a>, Node<'a>)] {
    n.and_then(Node::members).unwrap_or(&[])
}

impl<'a> PrefabTree<'a> {
    /// Reads the prefab whose root object is `root`. Fails when the root is not an
    /// object holding `ContainerEntity`, `Entities` or `Instances`.
    pub fn from_node(root: &Node<'a>) -> Result<PrefabTree<'a>> {
        if !matches!(root, Node::Object(_)) {
            return Err(Error::msg(format!(
                "not a prefab: the top level is {}, not an object",
                root.kind()
            )));
        }
        if ["ContainerEntity", "Entities", "Instances"]
            .iter()
            .all(|k| root.get(k).is_none())
        {
            return Err(Error::msg(
                "not a prefab: no ContainerEntity, Entities or Instances at the top level",
            ));
        }
        Ok(Self::read(root))
    }

    /// Reads the prefab in `bytes` (comments allowed), checking the whole JSON text but
    /// building only what the tree shows: much less memory and time than a full
    /// [`crate::doc::Document`] for a big level. Errors give the byte offset; a file
    /// without `ContainerEntity`, `Entities` or `Instances` at the top level is not a
    /// prefab.
    pub fn parse(bytes: &'a [u8]) -> Result<PrefabTree<'a>> {
        let mut p = Parser::new(bytes, MAX_DEPTH)?;
        if !p.at_object() {
            let root = p.node()?;
            return Err(Error::msg(format!(
                "not a prefab: the top level is {}, not an object",
                root.kind()
            )));
        }
        let mut t = PrefabTree {
            source: None,
            container: None,
            entities: Vec::new(),
            instances: Vec::new(),
        };
        let mut seen = false;
        p.object_with(|p, name| prefab_member(p, name, &mut t, &mut seen))?;
        p.finish()?;
        if !seen {
            return Err(Error::msg(
                "not a prefab: no ContainerEntity, Entities or Instances at the top level",
            ));
        }
        Ok(t)
    }

    fn read(root: &Node<'a>) -> PrefabTree<'a> {
        let container = root
            .get("ContainerEntity")
            .filter(|n| matches!(n, Node::Object(_)))
            .map(|n| Entity::from_node(Cow::Borrowed("ContainerEntity"), n));
        let entities = match root.get("Entities") {
            Some(Node::Array(a)) => a
                .iter()
                .map(|e| {
                    let alias = text(e.get("Id")).unwrap_or(Cow::Borrowed("?"));
                    Entity::from_node(alias, e)
                })
                .collect(),
            n => members(n)
                .iter()
                .map(|(k, e)| Entity::from_node(k.value(), e))
                .collect(),
        };
        let instances = members(root.get("Instances"))
            .iter()
            .map(|(k, i)| {
                let patches = i.get("Patches").and_then(Node::elements).unwrap_or(&[]);
                let has_content = i.get("ContainerEntity").is_some() || i.get("Entities").is_some();
                Instance {
                    alias: k.value(),
                    source: text(i.get("Source")),
                    patches: patches.len(),
                    parent: instance_parent(patches),
                    content: has_content.then(|| Box::new(Self::read(i))),
                }
            })
            .collect();
        PrefabTree {
            source: text(root.get("Source")),
            container,
            entities,
            instances,
        }
    }

    /// Prints the hierarchy: the container first, each entity under its parent (name,
    /// alias, component types), each instance under the entity it is parented to
    /// (alias, `Source`, number of patches). Entities whose parent is not in the file
    /// are listed under the container with that parent named; entities caught in a
    /// parent cycle are listed at the end. Two spaces a level up to 32 levels; deeper
    /// lines are indented no further and start with `[depth N] ` (as
    /// [`gamewire_core::inspect::indent`]), so the text stays in proportion to the file.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(64 * (self.entities.len() + 1));
        self.render_into(&mut out, 0);
        out
    }

    fn render_into(&self, out: &mut String, base: usize) {
        // Children of each entity (by index; usize::MAX is the container).
        const TOP: usize = usize::MAX;
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(self.entities.len() * 2);
        for (i, e) in self.entities.iter().enumerate() {
            index.insert(&e.alias, i);
            if let Some(id) = &e.id {
                index.entry(id).or_insert(i);
            }
        }
        let container_ids: Vec<&str> = match &self.container {
            Some(c) => std::iter::once("ContainerEntity")
                .chain(c.id.as_deref())
                .collect(),
            None => Vec::new(),
        };
        let lookup = |p: &Option<Cow<'a, str>>| -> (usize, bool) {
            match p.as_deref() {
                None | Some("") => (TOP, true),
                Some(p) if container_ids.contains(&p) => (TOP, true),
                Some(p) => match index.get(p) {
                    Some(&i) => (i, true),
                    None => (TOP, false),
                },
            }
        };
        let n = self.entities.len();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let mut inst: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let slot = |i: usize| if i == TOP { n } else { i };
        for (i, e) in self.entities.iter().enumerate() {
            let (p, _) = lookup(&e.parent);
            let p = if p == i { TOP } else { p };
            kids[slot(p)].push(i);
        }
        for (i, x) in self.instances.iter().enumerate() {
            inst[slot(lookup(&x.parent).0)].push(i);
        }

        // Two spaces a level, bounded: past 32 levels `[depth N] ` (one rule for every
        // text tree, gamewire_core::inspect::indent).
        let pad = |out: &mut String, d: usize| gamewire_core::inspect::indent(out, d);
        if base == 0 {
            if let Some(s) = &self.source {
                let _ = writeln!(out, "# Source: {s}");
            }
        }
        let top_depth = match &self.container {
            Some(c) => {
                pad(out, base);
                entity_line(out, c, None);
                pad(out, base + 1);
                components_line(out, c);
                base + 1
            }
            None => base,
        };
        let mut seen = vec![false; n];
        // (entity or TOP, depth); an explicit stack, so a long parent chain can't
        // overflow the call stack.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let push_children = |stack: &mut Vec<(usize, usize)>, who: usize, depth: usize| {
            for &k in kids[slot(who)].iter().rev() {
                stack.push((k, depth));
            }
        };
        // Instances of a node are printed after its entity children.
        let print_instances = |out: &mut String, who: usize, depth: usize| {
            for &i in &inst[slot(who)] {
                self.instance_line(out, &self.instances[i], depth);
            }
        };
        push_children(&mut stack, TOP, top_depth);
        // Entries (usize::MAX - 1 - who, depth) mark "print who's instances now".
        let mut pending: Vec<(usize, usize, usize)> = Vec::new(); // (stack len, who, depth)
        loop {
            while let Some(&(len, who, depth)) = pending.last() {
                if stack.len() > len {
                    break;
                }
                pending.pop();
                print_instances(out, who, depth);
            }
            let Some((e, depth)) = stack.pop() else {
                break;
            };
            if seen[e] {
                continue;
            }
            seen[e] = true;
            let ent = &self.entities[e];
            pad(out, depth);
            match (lookup(&ent.parent), ent.parent.as_deref()) {
                ((_, false), Some(p)) => {
                    entity_line(out, ent, Some(format_args!("parent {p} not in this file")))
                }
                _ => entity_line(out, ent, None),
            }
            pad(out, depth + 1);
            components_line(out, ent);
            pending.push((stack.len(), e, depth + 1));
            push_children(&mut stack, e, depth + 1);
        }
        print_instances(out, TOP, top_depth);
        let cycle: Vec<usize> = (0..n).filter(|&i| !seen[i]).collect();
        if !cycle.is_empty() {
            pad(out, base);
            let _ = writeln!(out, "(in a parent cycle: {} entities)", cycle.len());
            for i in cycle {
                pad(out, base + 1);
                let e = &self.entities[i];
                let p = e.parent.as_deref().unwrap_or("");
                entity_line(out, e, Some(format_args!("parent {p}")));
            }
        }
    }

    fn instance_line(&self, out: &mut String, x: &Instance<'a>, depth: usize) {
        gamewire_core::inspect::indent(out, depth);
        let _ = writeln!(
            out,
            "^ {}  Source: {}  ({} patch{})",
            x.alias,
            x.source.as_deref().unwrap_or("(none)"),
            x.patches,
            if x.patches == 1 { "" } else { "es" }
        );
        if let Some(c) = &x.content {
            c.render_into(out, depth + 1);
        }
    }
}

fn entity_line(out: &mut String, e: &Entity<'_>, note: Option<std::fmt::Arguments<'_>>) {
    let _ = write!(
        out,
        "{}  <{}>",
        e.name.as_deref().unwrap_or("(unnamed)"),
        e.alias
    );
    if let Some(id) = &e.id {
        if *id != e.alias {
            let _ = write!(out, " id {id}");
        }
    }
    if let Some(n) = note {
        let _ = write!(out, "  ({n})");
    }
    out.push('\n');
}

fn components_line(out: &mut String, e: &Entity<'_>) {
    out.push_str("= ");
    if e.components.is_empty() {
        out.push_str("(no components)");
    }
    for (i, c) in e.components.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(c.as_deref().unwrap_or("(no $type)"));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Document;

    const PREFAB: &str = r#"{
    "ContainerEntity": {
        "Id": "ContainerEntity",
        "Name": "Level",
        "Components": {
            "Component_[1]": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Id": 1, "Parent Entity": ""},
            "Component_[2]": {"$type": "EditorPrefabComponent", "Id": 2}
        }
    },
    "Entities": {
        "Entity_[20]": {"Id": "Entity_[20]", "Name": "Lamp",
            "Components": {"Component_[5]": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Parent Entity": "Entity_[10]"},
                           "Component_[6]": {"Id": 6}}},
        "Entity_[10]": {"Id": "Entity_[10]", "Name": "Room",
            "Components": {"Component_[3]": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Parent Entity": "ContainerEntity"},
                           "Component_[4]": {"$type": "EditorMeshComponent"}}},
        "Entity_[30]": {"Id": "Entity_[30]", "Name": "Lost",
            "Components": {"Component_[7]": {"$type": "TransformComponent", "Parent Entity": "Entity_[99]"}}},
        "Entity_[40]": {"Id": "Entity_[40]", "Name": "A",
            "Components": {"Component_[8]": {"$type": "TransformComponent", "Parent Entity": "Entity_[50]"}}},
        "Entity_[50]": {"Id": "Entity_[50]", "Name": "B",
            "Components": {"Component_[9]": {"$type": "TransformComponent", "Parent Entity": "Entity_[40]"}}}
    },
    "Instances": {
        "Instance_[7]": {"Source": "Prefabs/Chair.prefab", "Patches": [
            {"op": "replace", "path": "/ContainerEntity/Components/Component_[1]/Parent Entity", "value": "../Entity_[10]"},
            {"op": "replace", "path": "/ContainerEntity/Components/Component_[1]/Transform Data/Translate/0", "value": 1.5}
        ]},
        "Instance_[8]": {"Source": "Prefabs/Sky.prefab"}
    }
}"#;

    #[test]
    fn entities_hang_under_their_parents() {
        let doc = Document::parse(PREFAB.as_bytes()).unwrap();
        let t = PrefabTree::from_node(&doc.root).unwrap();
        assert_eq!(PrefabTree::parse(PREFAB.as_bytes()).unwrap(), t);
        assert_eq!(t.entities.len(), 5);
        assert_eq!(t.entities[0].parent.as_deref(), Some("Entity_[10]"));
        assert_eq!(t.instances[0].parent.as_deref(), Some("Entity_[10]"));
        assert_eq!(t.instances[0].patches, 2);
        assert_eq!(t.instances[1].patches, 0);
        let text = t.render();
        assert_eq!(
            text,
            "Level  <ContainerEntity>
  = TransformComponent, EditorPrefabComponent
  Room  <Entity_[10]>
    = TransformComponent, EditorMeshComponent
    Lamp  <Entity_[20]>
      = TransformComponent, (no $type)
    ^ Instance_[7]  Source: Prefabs/Chair.prefab  (2 patches)
  Lost  <Entity_[30]>  (parent Entity_[99] not in this file)
    = TransformComponent
  ^ Instance_[8]  Source: Prefabs/Sky.prefab  (0 patches)
(in a parent cycle: 2 entities)
  A  <Entity_[40]>  (parent Entity_[50])
  B  <Entity_[50]>  (parent Entity_[40])
"
        );
    }

    #[test]
    fn older_prefabs_with_entity_ids_and_nested_content() {
        let text = r#"{"Source": "Levels/Old.prefab",
          "ContainerEntity": {"Id": "Entity_[1]", "Name": "Level", "Components": {}},
          "Entities": {"Entity_[2]": {"Id": "Entity_[2]", "Name": "Ground",
              "Components": {"C": {"$type": "TransformComponent", "Parent Entity": "Entity_[1]"}}}},
          "Instances": {"Instance_[3]": {"Source": "Prefabs/P.prefab",
              "ContainerEntity": {"Id": "Entity_[4]", "Name": "P", "Components": {}},
              "Entities": {"Entity_[5]": {"Id": "Entity_[5]", "Name": "Inner",
                  "Components": {"C": {"$type": "TransformComponent", "Parent Entity": "Entity_[4]"}}}}}}}"#;
        let doc = Document::parse(text.as_bytes()).unwrap();
        let t = PrefabTree::from_node(&doc.root).unwrap();
        assert_eq!(PrefabTree::parse(text.as_bytes()).unwrap(), t);
        assert_eq!(
            t.render(),
            "# Source: Levels/Old.prefab
Level  <ContainerEntity> id Entity_[1]
  = (no components)
  Ground  <Entity_[2]>
    = TransformComponent
  ^ Instance_[3]  Source: Prefabs/P.prefab  (0 patches)
    P  <ContainerEntity> id Entity_[4]
      = (no components)
      Inner  <Entity_[5]>
        = TransformComponent
"
        );
    }

    #[test]
    fn a_long_parent_chain_and_non_prefabs() {
        // 3 000 entities each the parent of the next: no recursion, every one printed.
        let mut s = String::from(r#"{"ContainerEntity": {"Name": "C"}, "Entities": {"#);
        for i in 0..3_000 {
            let parent = if i == 0 {
                "ContainerEntity".to_string()
            } else {
                format!("Entity_[{}]", i - 1)
            };
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                r#""Entity_[{i}]": {{"Name": "e{i}", "Components": {{"T": {{"$type": "TransformComponent", "Parent Entity": "{parent}"}}}}}}"#
            );
        }
        s.push_str("}}");
        let doc = Document::parse(s.as_bytes()).unwrap();
        let out = PrefabTree::from_node(&doc.root).unwrap().render();
        assert_eq!(out.lines().count(), 2 + 2 * 3_000);
        // Indented two spaces a level up to 32 levels, then the real depth instead.
        assert!(out.contains(&format!("\n{}e30  <Entity_[30]>\n", "  ".repeat(31))));
        assert!(out.contains(&format!(
            "\n{}[depth 3000] e2999  <Entity_[2999]>\n",
            "  ".repeat(32)
        )));
        let widest = out.lines().map(str::len).max().unwrap();
        assert!(widest < 150, "a line of {widest} bytes");
        for bad in ["[1]", r#"{"a": 1}"#, "\"x\""] {
            let doc = Document::parse(bad.as_bytes()).unwrap();
            let e = PrefabTree::from_node(&doc.root).unwrap_err();
            assert!(e.to_string().contains("not a prefab"), "{e}");
            let e = PrefabTree::parse(bad.as_bytes()).unwrap_err();
            assert!(e.to_string().contains("not a prefab"), "{e}");
        }
        // The whole text is checked, not only the parts the tree shows.
        let e = PrefabTree::parse(br#"{"Entities": {}, "Other": [1, 2,]}"#).unwrap_err();
        assert_eq!(e.offset(), Some(31), "{e}");
        assert!(e.to_string().contains("trailing comma"), "{e}");
        let e = PrefabTree::parse(br#"{"Entities": {}} x"#).unwrap_err();
        assert_eq!(e.offset(), Some(17), "{e}");
    }

    #[test]
    fn wrapped_components_show_the_component_inside() {
        let text =
            br#"{"ContainerEntity": {"Id": "ContainerEntity", "Name": "Level", "Components": {}},
            "Entities": {"Entity_[1]": {"Id": "Entity_[1]", "Name": "Coin", "Components": {
                "A": {"$type": "TransformComponent", "Parent Entity": "ContainerEntity"},
                "B": {"$type": "GenericComponentWrapper", "Id": 7,
                      "m_template": {"$type": "NetworkCoinComponent", "Value": 5}},
                "C": {"$type": "GenericComponentWrapper", "Id": 8}}}}}"#;
        let tree = PrefabTree::parse(text).unwrap().render();
        assert!(
            tree.contains(
                "TransformComponent, NetworkCoinComponent (wrapped), GenericComponentWrapper"
            ),
            "{tree}"
        );
    }
}
