// A big level built from the entities and instances of the real prefabs in
// tests/fixtures/o3de/real (shared by the untyped benches).
//
// Each generated entity is a copy of a real one (its components and values as O3DE saved
// them) under a new alias, parented into a 4-ary hierarchy below the container; every
// 50th entity also gets a nested instance copied from a real one, parented to it by its
// patch. The text is written in O3DE's layout, so the untyped round trip gives it back
// byte for byte.

use gamewire_o3de::doc::{write_node, Document, Layout, Node};

fn fixtures_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de/real")
}

/// Writes a member's value instead of the default writer; returns false to decline.
type Rewrite<'f> = &'f dyn Fn(&mut Vec<u8>, &str, &Node<'_>, usize) -> bool;

fn indent(out: &mut Vec<u8>, level: usize) {
    out.push(b'\n');
    out.resize(out.len() + 4 * level, b' ');
}

/// Writes `n` (an object) at `level` with the string members of `replace` given new
/// values and nested objects passed through `inner` (member name → rewrite).
fn write_object(
    out: &mut Vec<u8>,
    n: &Node<'_>,
    level: usize,
    replace: &dyn Fn(&str) -> Option<String>,
    inner: Rewrite<'_>,
) {
    let members = n.members().unwrap();
    out.push(b'{');
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        indent(out, level + 1);
        out.push(b'"');
        out.extend_from_slice(k.raw().as_bytes());
        out.extend_from_slice(b"\": ");
        let name = k.value();
        if let (Some(new), Node::String(_)) = (replace(&name), v) {
            out.push(b'"');
            out.extend_from_slice(new.as_bytes());
            out.push(b'"');
        } else if !inner(out, &name, v, level + 1) {
            write_node(v, Layout::Pretty, level + 1, out);
        }
    }
    if !members.is_empty() {
        indent(out, level);
    }
    out.push(b'}');
}

/// A level of about `target_bytes` bytes, or of exactly `entities` entities when given.
/// Returns the text and the number of entities.
pub fn real_prefab(target_bytes: usize, entities: Option<usize>) -> (Vec<u8>, usize) {
    let mut sources = Vec::new();
    for e in std::fs::read_dir(fixtures_dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "prefab") {
            sources.push(std::fs::read(&p).unwrap());
        }
    }
    sources.sort();
    let docs: Vec<Document<'_>> = sources.iter().map(|s| Document::parse(s).unwrap()).collect();
    let container = docs
        .iter()
        .find_map(|d| d.root.get("ContainerEntity"))
        .unwrap();
    let mut templates = Vec::new();
    let mut instances = Vec::new();
    for d in &docs {
        if let Some(m) = d.root.get("Entities").and_then(Node::members) {
            templates.extend(m.iter().map(|(_, e)| e));
        }
        if let Some(m) = d.root.get("Instances").and_then(Node::members) {
            instances.extend(m.iter().map(|(_, i)| i));
        }
    }
    let alias = |i: usize| format!("Entity_[{}]", 1_000_000_000 + i);
    let parent = |i: usize| {
        if i < 4 {
            "ContainerEntity".to_string()
        } else {
            alias(i / 4 - 1)
        }
    };
    let mut out = Vec::with_capacity(target_bytes + (1 << 20));
    out.extend_from_slice(b"{\n    \"ContainerEntity\": ");
    write_object(&mut out, container, 1, &|_| None, &|_, _, _, _| false);
    out.extend_from_slice(b",\n    \"Entities\": {");
    let mut n = 0;
    loop {
        let done = match entities {
            Some(e) => n >= e,
            None => out.len() >= target_bytes / 1000 * 995,
        };
        if done {
            break;
        }
        if n > 0 {
            out.push(b',');
        }
        let me = alias(n);
        let up = parent(n);
        out.extend_from_slice(format!("\n        \"{me}\": ").as_bytes());
        let t = templates[n % templates.len()];
        let components = |out: &mut Vec<u8>, name: &str, v: &Node<'_>, level: usize| {
            if name != "Components" || v.members().is_none() {
                return false;
            }
            write_object(out, v, level, &|_| None, &|out, _, c, level| {
                let is_transform = c
                    .get("$type")
                    .and_then(Node::as_str)
                    .is_some_and(|t| t.ends_with("TransformComponent"));
                if !is_transform || c.members().is_none() {
                    return false;
                }
                write_object(
                    out,
                    c,
                    level,
                    &|m| (m == "Parent Entity").then(|| up.clone()),
                    &|_, _, _, _| false,
                );
                true
            });
            true
        };
        write_object(
            &mut out,
            t,
            2,
            &|m| (m == "Id").then(|| me.clone()),
            &components,
        );
        n += 1;
    }
    out.extend_from_slice(b"\n    },\n    \"Instances\": {");
    for (k, i) in (0..n).step_by(50).enumerate() {
        let template = instances[k % instances.len()];
        if k > 0 {
            out.push(b',');
        }
        let target = format!("../{}", alias(i));
        out.extend_from_slice(format!("\n        \"Instance_[{}]\": ", 2_000_000_000 + k).as_bytes());
        write_object(&mut out, template, 2, &|_| None, &|out, name, v, level| {
            if name != "Patches" {
                return false;
            }
            let Some(ps) = v.elements() else { return false };
            out.push(b'[');
            for (j, p) in ps.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                indent(out, level + 1);
                let sets_parent = p
                    .get("path")
                    .and_then(Node::as_str)
                    .is_some_and(|s| s.ends_with("/Parent Entity"));
                write_object(
                    out,
                    p,
                    level + 1,
                    &|m| (sets_parent && m == "value").then(|| target.clone()),
                    &|_, _, _, _| false,
                );
            }
            if !ps.is_empty() {
                indent(out, level);
            }
            out.push(b']');
            true
        });
    }
    out.extend_from_slice(b"\n    }\n}");
    (out, n)
}
