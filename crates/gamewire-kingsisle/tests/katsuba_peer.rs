//! Live peer: katsuba's Python binding decodes the katsuba fixtures and what our encoder
//! writes for random objects over random type lists; the values must equal ours.
//! Skipped with a printed reason when `katsuba` is not importable (required in CI).

use gamewire_core::peers;
use gamewire_kingsisle::types::flags as pf;
use gamewire_kingsisle::{
    decode, encode, serializer_flags as sf, Document, Object, Options, PropertyDef, TypeList, Value,
};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixtures() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/kingsisle/katsuba"
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
        Value::List(items) => Json::Array(items.iter().map(|x| canonical(x, p, types)).collect()),
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
            .find(|(_, p)| p.hash == *h)
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
        let ours = canonical_object(&doc.root, &types);
        assert_eq!(
            t.get("ok"),
            Some(&ours),
            "{}: katsuba says {t}",
            c.file.display()
        );
    }
}

// ---- random type lists and objects ---------------------------------------------------

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn f32(&mut self) -> f32 {
        loop {
            let x = f32::from_bits(self.next() as u32);
            if x.is_finite() {
                return x;
            }
        }
    }
}

const SIMPLE: &[&str] = &[
    "bool",
    "char",
    "unsigned char",
    "short",
    "unsigned short",
    "wchar_t",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "float",
    "double",
    "unsigned __int64",
    "gid",
    "bi2",
    "bui2",
    "bi3",
    "bui3",
    "bi4",
    "bui4",
    "bi5",
    "bui5",
    "bi6",
    "bui6",
    "bi7",
    "bui7",
    "s24",
    "u24",
    "std::string",
    "std::wstring",
    "class Color",
    "class Vector3D",
    "class Euler",
    "class Quaternion",
    "class Matrix3x3",
    "class Point<int>",
    "class Point<float>",
    "class Size<int>",
    "class Rect<int>",
    "class Rect<float>",
];

fn random_types(rng: &mut Rng) -> Json {
    let n = 2 + rng.below(4) as usize;
    let names: Vec<String> = (0..n)
        .map(|i| format!("class Rand{}_{i}", rng.below(1000)))
        .collect();
    let mut classes = serde_json::Map::new();
    for (ci, name) in names.iter().enumerate() {
        let mut props = serde_json::Map::new();
        for id in 0..(1 + rng.below(7)) {
            let pname = format!("m_p{id}");
            let (ty, mut fl, opts) = match rng.below(10) {
                0 if ci + 1 < n => (
                    names[ci + 1 + rng.below((n - ci - 1) as u64) as usize].clone(),
                    7,
                    json!({}),
                ),
                1 => (
                    "enum Kind".to_string(),
                    7 | pf::ENUM,
                    json!({"A": 0, "B": "1", "C": 2, "D": 7}),
                ),
                2 => (
                    "Flags".to_string(),
                    7 | pf::BITS,
                    json!({"X": 1, "Y": 2, "Z": "8"}),
                ),
                _ => (
                    SIMPLE[rng.below(SIMPLE.len() as u64) as usize].to_string(),
                    7,
                    json!({}),
                ),
            };
            if rng.chance(15) {
                fl |= pf::DELTA_ENCODE;
            }
            if rng.chance(8) {
                fl |= pf::DEPRECATED;
            }
            if rng.chance(10) {
                fl &= !4;
            }
            let hash = gamewire_kingsisle::hash::property_hash(&ty, &pname);
            props.insert(
                pname,
                json!({"type": ty, "id": id, "offset": 0, "flags": fl, "container": "Vector",
                       "dynamic": rng.chance(25), "pointer": false, "hash": hash, "enum_options": opts}),
            );
        }
        let hash = gamewire_kingsisle::hash::string_id(name.as_bytes());
        classes.insert(hash.to_string(), json!({"name": name, "bases": [], "hash": hash, "singleton": false, "properties": props}));
    }
    json!({"version": 2, "classes": classes})
}

fn random_single(
    rng: &mut Rng,
    p: &PropertyDef,
    types: &TypeList,
    human_enums: bool,
    shallow: bool,
) -> Value {
    use gamewire_kingsisle::Kind as K;
    match p.kind {
        K::Bool => Value::Bool(rng.chance(50)),
        K::I8 => Value::Int(rng.next() as i8 as i64),
        K::I16 => Value::Int(rng.next() as i16 as i64),
        K::I32 => Value::Int(rng.next() as i32 as i64),
        K::I64 => Value::Int(rng.next() as i64),
        K::U8 => Value::UInt(rng.next() as u8 as u64),
        K::U16 => Value::UInt(rng.next() as u16 as u64),
        K::U32 => Value::UInt(rng.next() as u32 as u64),
        K::U64 => Value::UInt(rng.next()),
        K::F32 => Value::Float(rng.f32()),
        K::F64 => Value::Double(f64::from(rng.f32()) * 3.5),
        K::SBits(n) => Value::Int(((rng.next() << (64 - n)) as i64) >> (64 - n)),
        K::UBits(n) => Value::UInt(rng.next() >> (64 - n)),
        K::Str => {
            let big = rng.chance(10);
            let n = rng.below(if big { 300 } else { 12 });
            Value::String((0..n).map(|_| rng.next() as u8).collect())
        }
        K::WStr => {
            let big = rng.chance(10);
            let n = rng.below(if big { 200 } else { 10 });
            let s: String = (0..n)
                .map(|_| char::from_u32(rng.below(0x1_0000) as u32).unwrap_or('é'))
                .collect();
            let s = if rng.chance(20) { s + "😀" } else { s };
            Value::WString(s.encode_utf16().collect())
        }
        K::Enum => {
            let bits = p.flags & pf::BITS != 0;
            let v = if bits {
                p.enum_options
                    .iter()
                    .filter(|_| rng.chance(50))
                    .fold(0, |a, (_, v)| a | v)
            } else {
                p.enum_options[rng.below(p.enum_options.len() as u64) as usize].1
            };
            if human_enums && rng.chance(50) {
                Value::EnumName(p.enum_to_names(v).unwrap())
            } else {
                Value::Enum(v)
            }
        }
        K::Color => Value::Color((rng.next() as u32).to_le_bytes()),
        K::Vec3 => Value::Vec3([rng.f32(), rng.f32(), rng.f32()]),
        K::Euler => Value::Euler([rng.f32(), rng.f32(), rng.f32()]),
        K::Quat => Value::Quat([rng.f32(), rng.f32(), rng.f32(), rng.f32()]),
        K::Matrix => Value::Matrix(Box::new(std::array::from_fn(|_| rng.f32()))),
        K::PointInt => Value::PointInt([rng.next() as i32, rng.next() as i32]),
        K::PointUChar => Value::PointUChar([rng.next() as u8, rng.next() as u8]),
        K::PointUInt => Value::PointUInt([rng.next() as u32, rng.next() as u32]),
        K::PointFloat => Value::PointFloat([rng.f32(), rng.f32()]),
        K::SizeInt => Value::SizeInt([rng.next() as i32, rng.next() as i32]),
        K::RectInt => Value::RectInt(std::array::from_fn(|_| rng.next() as i32)),
        K::RectFloat => Value::RectFloat(std::array::from_fn(|_| rng.f32())),
        K::Object => {
            if rng.chance(15) {
                Value::Null
            } else {
                let c = types.by_name(&p.type_name).unwrap();
                Value::Object(Box::new(random_object(
                    rng,
                    c.hash,
                    types,
                    human_enums,
                    shallow,
                )))
            }
        }
    }
}

fn random_object(
    rng: &mut Rng,
    hash: u32,
    types: &TypeList,
    human_enums: bool,
    shallow: bool,
) -> Object {
    let class = types.get(hash).unwrap();
    let mut o = Object {
        hash,
        properties: Vec::new(),
    };
    for p in &class.properties {
        if p.flags & pf::DEPRECATED != 0
            || (shallow && p.flags & 7 != 7)
            || (p.flags & pf::DELTA_ENCODE != 0 && rng.chance(40))
        {
            continue;
        }
        let v = if p.dynamic {
            let big = rng.chance(5);
            let n = rng.below(if big { 140 } else { 4 });
            Value::List(
                (0..n)
                    .map(|_| random_single(rng, p, types, human_enums, shallow))
                    .collect(),
            )
        } else {
            random_single(rng, p, types, human_enums, shallow)
        };
        o.properties.push((p.hash, v));
    }
    o
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
        // Our own decoder reads back the same values.
        let back = decode(&bytes, &merged, &opts).unwrap();
        // (Enums may come back as names under flag 4: compare values.)
        assert_eq!(
            canonical_object(&back.root, &merged),
            canonical_object(&doc.root, &merged),
            "case {i}: our decode differs"
        );
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
