//! Resonite-shaped sample data trees, built in code, for tests, samples and benchmarks.
//!
//! The shape follows what FrooxEngine saves: a root with `VersionNumber`, `FeatureFlags`,
//! `Types`, `TypeVersions`, `Object` (the root slot) and `Assets`; slots with their
//! synced members as `{"ID": guid, "Data": value}`; components as `{"Type": index,
//! "Data": {...}}`. Values are deterministic (a simple counter-based generator).

use crate::value::{Document, Value};
use std::borrow::Cow;

/// Component type names used by the sample trees (the `Types` table).
pub const TYPES: [&str; 6] = [
    "[FrooxEngine]FrooxEngine.Grabbable",
    "[FrooxEngine]FrooxEngine.MeshRenderer",
    "[FrooxEngine]FrooxEngine.BoxCollider",
    "[FrooxEngine]FrooxEngine.PBS_Metallic",
    "[FrooxEngine]FrooxEngine.StaticTexture2D",
    "[FrooxEngine]FrooxEngine.ValueField<float3>",
];

struct Gen {
    n: u64,
}

impl Gen {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.n = self.n.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.n;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn guid(&mut self) -> String {
        let a = self.next();
        let b = self.next();
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xffff,
            b >> 48,
            b & 0xffff_ffff_ffff
        )
    }
    fn float(&mut self) -> f64 {
        // a float32 value widened to double, as the engine writes floats
        ((self.next() % 20001) as f32 / 1000.0 - 10.0) as f64
    }
}

macro_rules! field {
    ($g:expr, $v:expr) => {{
        let v = $v;
        make_field($g, v)
    }};
}

fn s(v: impl Into<String>) -> Value<'static> {
    Value::String(Cow::Owned(v.into()))
}

fn make_field(g: &mut Gen, data: Value<'static>) -> Value<'static> {
    let mut d = Document::new();
    d.push("ID", s(g.guid()));
    d.push("Data", data);
    Value::Document(d)
}

fn floats(g: &mut Gen, n: usize) -> Value<'static> {
    Value::Array((0..n).map(|_| Value::Double(g.float())).collect())
}

fn component(g: &mut Gen, ty: i32, slot_refs: &[String]) -> Value<'static> {
    let mut data = Document::new();
    data.push("ID", s(g.guid()));
    data.push("persistent-ID", s(g.guid()));
    data.push("UpdateOrder", field!(g, Value::Int32(0)));
    data.push("Enabled", field!(g, Value::Bool(true)));
    match ty {
        0 => {
            data.push("ReparentOnRelease", field!(g, Value::Bool(true)));
            data.push("Scalable", field!(g, Value::Bool(false)));
        }
        1 => {
            let r = slot_refs.first().cloned().unwrap_or_default();
            data.push("Mesh", field!(g, s(r.clone())));
            let mats = field!(g, Value::Array(vec![field!(g, s(r))].into()));
            data.push("Materials", mats);
            data.push("ShadowCastMode", field!(g, s("On")));
            data.push("SortingOrder", field!(g, Value::Int32(0)));
        }
        2 => {
            data.push("Offset", field!(g, floats(g, 3)));
            data.push("Size", field!(g, floats(g, 3)));
            data.push("Type", field!(g, s("NoCollision")));
        }
        3 => {
            let mut albedo = vec![
                Value::Double(1.0),
                Value::Double(1.0),
                Value::Double(1.0),
                Value::Double(1.0),
            ];
            albedo.push(s("sRGB"));
            data.push("AlbedoColor", field!(g, Value::Array(albedo.into())));
            data.push("Metallic", field!(g, Value::Double(g.float().abs() / 10.0)));
            data.push("BlendMode", field!(g, s("Opaque")));
        }
        4 => {
            data.push(
                "URL",
                field!(
                    g,
                    s(format!("@resdb:///{:016x}{:016x}.webp", g.next(), g.next()))
                ),
            );
            data.push("FilterMode", field!(g, Value::Null));
            data.push("Uncompressed", field!(g, Value::Bool(false)));
        }
        _ => {
            data.push("Value", field!(g, floats(g, 3)));
        }
    }
    let mut c = Document::new();
    c.push("Type", Value::Int32(ty));
    c.push("Data", Value::Document(data));
    Value::Document(c)
}

fn slot(
    g: &mut Gen,
    id: String,
    name: String,
    parent: &str,
    children: Vec<Value<'static>>,
    comps: usize,
) -> Value<'static> {
    let mut d = Document::new();
    d.push("ID", s(id.clone()));
    let mut cs = Vec::new();
    for i in 0..comps {
        let ty = ((g.next() as usize + i) % TYPES.len()) as i32;
        cs.push(component(g, ty, std::slice::from_ref(&id)));
    }
    let comps_field = {
        let mut c = Document::new();
        c.push("ID", s(g.guid()));
        c.push("Data", Value::Array(cs.into()));
        Value::Document(c)
    };
    d.push("Components", comps_field);
    d.push("Name", field!(g, s(name)));
    d.push("Tag", field!(g, Value::Null));
    d.push("Active", field!(g, Value::Bool(true)));
    d.push("Persistent-ID", s(g.guid()));
    d.push("Position", field!(g, floats(g, 3)));
    d.push(
        "Rotation",
        field!(
            g,
            Value::Array(
                vec![
                    Value::Double(0.0),
                    Value::Double(0.0),
                    Value::Double(0.0),
                    Value::Double(1.0)
                ]
                .into()
            )
        ),
    );
    d.push(
        "Scale",
        field!(g, Value::Array(vec![Value::Double(1.0); 3].into())),
    );
    d.push("OrderOffset", field!(g, Value::Int64(0)));
    d.push("ParentReference", s(parent.to_owned()));
    d.push("Children", Value::Array(children.into()));
    Value::Document(d)
}

/// A balanced subtree of `n` slots under a parent with id `parent`.
fn subtree(g: &mut Gen, n: usize, fanout: usize, name: String, parent: &str) -> Value<'static> {
    let id_hint = g.guid();
    let mut children = Vec::new();
    let rest = n - 1;
    if rest > 0 {
        let per = rest.div_ceil(fanout);
        let mut left = rest;
        let mut i = 0;
        while left > 0 {
            let take = per.min(left);
            children.push(subtree(g, take, fanout, format!("{name}/{i}"), &id_hint));
            left -= take;
            i += 1;
        }
    }
    let comps = 1 + (g.next() % 3) as usize;
    slot(g, id_hint, name, parent, children, comps)
}

/// A data tree with about `slots` slots (each with a few components), `fanout` children
/// per slot. Deterministic for a given `seed`.
pub fn data_tree(slots: usize, fanout: usize, seed: u64) -> Document<'static> {
    let mut g = Gen { n: seed };
    let fanout = fanout.max(2);
    let root_parent = g.guid();
    let object = subtree(&mut g, slots.max(1), fanout, "Root".into(), &root_parent);
    let mut root = Document::new();
    root.push("VersionNumber", s("2024.8.5.1346"));
    let mut flags = Document::new();
    for f in [
        "ColorManagement",
        "ResetGUID",
        "ProtoFlux",
        "TEXTURE_QUALITY",
        "TypeManagement",
    ] {
        flags.push(f, Value::Int32(0));
    }
    root.push("FeatureFlags", Value::Document(flags));
    root.push("Types", Value::Array(TYPES.iter().map(|t| s(*t)).collect()));
    let mut versions = Document::new();
    versions.push(TYPES[0], Value::Int32(2));
    versions.push(TYPES[3], Value::Int32(1));
    root.push("TypeVersions", Value::Document(versions));
    root.push("Object", object);
    let assets: Vec<Value<'static>> = (0..3)
        .map(|i| component(&mut g, 3 + (i % 2), &[]))
        .collect();
    root.push("Assets", Value::Array(assets.into()));
    root
}
