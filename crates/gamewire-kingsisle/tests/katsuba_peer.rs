//! Live peer: katsuba's Python binding decodes the katsuba fixtures and what our encoder
//! writes for random objects over random type lists; the values must equal ours, read
//! by each sink of the one walk of the grammar (the owned tree and the view's tape).
//! Skipped with a printed reason when `katsuba` is not importable (required in CI).

use gamewire_core::peers;
use gamewire_kingsisle::view::View;
use gamewire_kingsisle::{
    decode, encode, serializer_flags as sf, Document, Object, Options, PropertyDef, TypeList, Value,
};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{random_object, random_types, Rng};

fn fixtures() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/katsuba"
    ))
}

fn katsuba_present() -> bool {
    peers::available(
        "katsuba",
        peers::python_has(&["katsuba.op"]),
        "python3 cannot import katsuba (pip install katsuba)",
    )
}

struct Case {
    file: PathBuf,
    opts: Options,
}

fn run_katsuba(types: &[&Path], cases: &[Case]) -> Vec<Json> {
    let req = json!({
        "types": types.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
        "cases": cases.iter().map(|c| json!({
            "file": c.file.to_string_lossy(), "flags": c.opts.flags, "mask": c.opts.property_mask,
            "shallow": c.opts.shallow, "manual": c.opts.manual_zlib,
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/katsuba_values.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), req.to_string().as_bytes()).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "katsuba script failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(x: f32) -> Json {
    json!(f64::from(x))
}

/// Our value in the shape the Python script prints katsuba's.
fn canonical(v: &Value, p: &PropertyDef, types: &TypeList) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(x) | Value::Enum(x) => json!(x),
        Value::UInt(x) => json!(x),
        Value::Float(x) => f(*x),
        Value::Double(x) => json!(x),
        Value::String(b) => json!(format!(
            "b:{}",
            b.iter().map(|x| format!("{x:02x}")).collect::<String>()
        )),
        Value::WString(w) => json!(String::from_utf16(w).unwrap()),
        Value::EnumName(n) => json!(p.enum_from_names(n).unwrap()),
        Value::Color([b, g, r, a]) => json!({"r": r, "g": g, "b": b, "a": a}),
        Value::Vec3([x, y, z]) => json!({"x": f(*x), "y": f(*y), "z": f(*z)}),
        Value::Euler([pi, ya, ro]) => json!({"pitch": f(*pi), "yaw": f(*ya), "roll": f(*ro)}),
        Value::Quat([w, x, y, z]) => json!({"w": f(*w), "x": f(*x), "y": f(*y), "z": f(*z)}),
        Value::Matrix(m) => {
            let row = |i: usize| json!([f(m[i]), f(m[i + 1]), f(m[i + 2])]);
            json!({"i": row(0), "j": row(3), "k": row(6)})
        }
        Value::PointInt([x, y]) | Value::SizeInt([x, y]) if matches!(v, Value::PointInt(_)) => {
            json!({"x": x, "y": y})
        }
        Value::SizeInt([w, h]) => json!({"width": w, "height": h}),
        Value::PointInt(_) => unreachable!(),
        Value::PointUChar([x, y]) => json!({"x": x, "y": y}),
        Value::PointUInt([x, y]) => json!({"x": x, "y": y}),
        Value::PointFloat([x, y]) => json!({"x": f(*x), "y": f(*y)}),
        Value::RectInt([l, t, r, b]) => json!({"left": l, "top": t, "right": r, "bottom": b}),
        Value::RectFloat([l, t, r, b]) => {
            json!({"left": f(*l), "top": f(*t), "right": f(*r), "bottom": f(*b)})
        }
        Value::List(_) | Value::Bools(_) | Value::SmallInts(_) | Value::SmallUInts(_) => {
            let items = v.list_items().unwrap_or_default();
            Json::Array(items.iter().map(|x| canonical(x, p, types)).collect())
        }
        Value::Object(o) => canonical_object(o, types),
        Value::Raw(_) => panic!("raw bits have no katsuba equivalent"),
    }
}

fn canonical_object(o: &Object, types: &TypeList) -> Json {
    let class = types.get(o.hash).unwrap();
    let mut m = serde_json::Map::new();
    m.insert("$type".into(), json!(o.hash));
    for (h, v) in &o.properties {
        let (i, _) = class
            .properties
            .iter()
            .enumerate()
            .find(|(_, p)| p.hash == h)
            .unwrap();
        let p = &class.properties[i];
        m.insert(p.name.clone(), canonical(v, p, types));
    }
    Json::Object(m)
}

#[test]
fn fixtures_decode_to_katsubas_values() {
    if !katsuba_present() {
        return;
    }
    let dir = fixtures();
    let types_path = dir.join("types.json");
    let types = TypeList::from_files(&[&types_path]).unwrap();
    let mut cases = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.retain(|p| p.extension().is_some_and(|e| e == "bin"));
    names.sort();
    for p in names {
        let c: Json =
            serde_json::from_slice(&std::fs::read(p.with_extension("config.json")).unwrap())
                .unwrap();
        let opts = Options {
            flags: c["flags"].as_u64().unwrap() as u32,
            property_mask: c["property_mask"].as_u64().unwrap() as u32,
            shallow: c["shallow"].as_bool().unwrap(),
            manual_zlib: c["compress"].as_bool().unwrap(),
            ..Options::default()
        };
        cases.push(Case { file: p, opts });
    }
    assert_eq!(cases.len(), 28);
    let theirs = run_katsuba(&[&types_path], &cases);
    for (c, t) in cases.iter().zip(&theirs) {
        let data = std::fs::read(&c.file).unwrap();
        let doc = decode(&data, &types, &c.opts).unwrap();
        let mut scratch = Vec::new();
        let view = View::decode(&data, &types, &c.opts, &mut scratch).unwrap();
        for (reader, root) in [("owned", doc.root), ("view", view.root().to_object())] {
            let ours = canonical_object(&root, &types);
            assert_eq!(
                t.get("ok"),
                Some(&ours),
                "{} ({reader}): katsuba says {t}",
                c.file.display()
            );
        }
    }
}

#[test]
fn random_objects_we_encode_decode_in_katsuba_to_the_same_values() {
    if !katsuba_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gamewire-kingsisle-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut type_paths = Vec::new();
    let mut lists = Vec::new();
    for t in 0..4 {
        let j = random_types(&mut rng);
        let p = dir.join(format!("types{t}.json"));
        std::fs::write(&p, j.to_string()).unwrap();
        lists.push(TypeList::from_json(j.to_string().as_bytes()).unwrap());
        type_paths.push(p);
    }
    let mut merged = TypeList::new();
    for l in &lists {
        merged.merge(l.clone());
    }
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for i in 0..120 {
        let types = &lists[i % lists.len()];
        let root = &types.classes()[rng.below(types.len() as u64) as usize];
        let mut flags = 0u32;
        for bit in [
            sf::STATEFUL_FLAGS,
            sf::COMPACT_LENGTH_PREFIXES,
            sf::HUMAN_READABLE_ENUMS,
            sf::WITH_COMPRESSION,
        ] {
            if rng.chance(40) {
                flags |= bit;
            }
        }
        let shallow = rng.chance(50);
        let opts = Options {
            flags,
            property_mask: 7,
            shallow,
            manual_zlib: rng.chance(20),
            ..Options::default()
        };
        let obj = random_object(
            &mut rng,
            root.hash,
            types,
            flags & sf::HUMAN_READABLE_ENUMS != 0,
            shallow,
        );
        let doc = Document {
            root: obj,
            ..Document::default()
        };
        let bytes = encode(&doc, &merged, &opts).unwrap();
        // Our own readers (the owned tree and the view) read back the same values.
        let back = decode(&bytes, &merged, &opts).unwrap();
        let mut scratch = Vec::new();
        let view = View::decode(&bytes, &merged, &opts, &mut scratch).unwrap();
        // (Enums may come back as names under flag 4: compare values.)
        for (reader, root) in [("owned", &back.root), ("view", &view.root().to_object())] {
            assert_eq!(
                canonical_object(root, &merged),
                canonical_object(&doc.root, &merged),
                "case {i}: our {reader} decode differs"
            );
        }
        // And what we decoded re-encodes to the same bytes.
        assert_eq!(
            encode(&back, &merged, &opts).unwrap(),
            bytes,
            "case {i}: re-encode differs"
        );
        let file = dir.join(format!("case{i}.bin"));
        std::fs::write(&file, &bytes).unwrap();
        expected.push(canonical_object(&doc.root, &merged));
        cases.push(Case { file, opts });
    }
    let paths: Vec<&Path> = type_paths.iter().map(|p| p.as_path()).collect();
    let theirs = run_katsuba(&paths, &cases);
    for (i, (t, e)) in theirs.iter().zip(&expected).enumerate() {
        assert_eq!(
            t.get("ok"),
            Some(e),
            "case {i} ({:?}): katsuba says {t}",
            cases[i].opts
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
