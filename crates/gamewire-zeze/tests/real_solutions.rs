//! Loads the real solution files of Zeze's repository (tests/fixtures/zeze/real, see its
//! README) and round-trips a bean of each through the schema codec.

use gamewire_zeze::schema::{Schema, Type};
use gamewire_zeze::Options;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};

/// The 15 solution files Zeze's repository holds (imports are followed by the loader).
const SOLUTIONS: [&str; 15] = [
    "ZezeJava/ZezeJava/solution.zeze.xml",
    "ZezeJava/ZezeJavaTest/solution.xml",
    "ZezeJava/ZezexJava/solution.xml",
    "ZezeJava/ZezexJava/solution.client.xml",
    "ZezeJava/ZezexJava/solution.hot.xml",
    "ZezeJava/ZezexJava/solution.linkd.xml",
    "confcs/solution.xml",
    "projects/MetaGame/solution.xml",
    "projects/MetaGame/solution.linkd.xml",
    "projects/MetaGame/solution.server.xml",
    "projects/test_luaclient/solution.xml",
    "projects/zege/Server/solution.xml",
    "projects/zege/Server/solution.linkd.xml",
    "projects/zezeboot/protocol/solution.zeze.xml",
    "python/solution.xml",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/zeze/real")
}

/// Reads a solution file; zege's import of `../../zeze/ZezeJava/ZezeJava/...` (a Zeze
/// checkout beside zege) is served from `ZezeJava/ZezeJava/...` of the same repository.
fn read(p: &Path) -> std::io::Result<String> {
    let s = p.to_string_lossy().replace('\\', "/");
    if let Some(i) = s.find("/projects/zeze/ZezeJava/") {
        let moved = format!("{}{}", &s[..i + 1], &s[i + "/projects/zeze/".len()..]);
        return std::fs::read_to_string(moved);
    }
    std::fs::read_to_string(p)
}

fn load(rel: &str) -> gamewire_core::Result<Schema> {
    Schema::from_file_with(&root().join(rel), &mut read)
}

#[test]
fn every_real_solution_loads() {
    let mut failed = Vec::new();
    for rel in SOLUTIONS {
        match load(rel) {
            Ok(s) => println!("{rel}: {} beans", s.bean_names().len()),
            Err(e) => {
                println!("{rel}: FAILED: {e}");
                failed.push(format!("{rel}: {e}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "solutions that fail to load:\n{}",
        failed.join("\n")
    );
}

/// A value of `ty` with nothing at its default (beans nested deeper than `depth` allows,
/// or already on the path, take their default: the decode of an empty bean).
fn sample(s: &Schema, ty: &Type, depth: usize, path: &mut Vec<String>) -> J {
    match ty {
        Type::Bool => J::Bool(true),
        Type::Byte | Type::Short | Type::Int | Type::Long => json!(7),
        Type::Float | Type::Double => json!(1.5),
        Type::String => json!("s"),
        Type::Decimal => json!("1.5"),
        Type::Binary => json!("0a0b"),
        Type::List(e) | Type::Set(e) => json!([sample(s, e, depth, path)]),
        Type::Map(k, v) => {
            let kj = sample(s, k, depth, path);
            let vj = sample(s, v, depth, path);
            // Strings, integers and bools key a JSON object; other keys pair up.
            let text = matches!(
                **k,
                Type::String
                    | Type::Decimal
                    | Type::Byte
                    | Type::Short
                    | Type::Int
                    | Type::Long
                    | Type::Bool
            );
            match kj {
                J::String(t) if text => json!({ t: vj }),
                J::Number(n) if text => json!({ n.to_string(): vj }),
                J::Bool(b) if text => json!({ b.to_string(): vj }),
                other => json!([[other, vj]]),
            }
        }
        Type::Bean(n) => bean_sample(s, n, depth, path),
        Type::Dynamic(ids) => match ids.first() {
            Some((id, n)) => json!({
                "type_id": id,
                "bean": n,
                "value": bean_sample(s, n, depth, path),
            }),
            // A dynamic that names no bean: a bean the schema does not know.
            None => json!({ "type_id": 5, "value": {} }),
        },
        Type::Vector2 => json!([1.5, 2.5]),
        Type::Vector3 => json!([1.5, 2.5, 3.5]),
        Type::Vector4 | Type::Quaternion => json!([1.5, 2.5, 3.5, 4.5]),
        Type::Vector2Int => json!([1, -2]),
        Type::Vector3Int => json!([1, -2, 3]),
    }
}

fn bean_sample(s: &Schema, name: &str, depth: usize, path: &mut Vec<String>) -> J {
    let levels = s.levels(name).unwrap();
    if depth == 0 || path.iter().any(|p| p == name) {
        // Zeze's bytes for an empty bean: a 1 between levels, a 0 at the end.
        let mut empty = vec![1u8; levels.len() - 1];
        empty.push(0);
        return s.decode(name, &empty, &Options::default()).unwrap();
    }
    path.push(name.to_owned());
    let mut o = serde_json::Map::new();
    for l in &levels {
        for v in &l.vars {
            o.insert(v.name.clone(), sample(s, &v.ty, depth - 1, path));
        }
    }
    path.pop();
    J::Object(o)
}

#[test]
fn every_bean_of_every_real_solution_round_trips() {
    let mut total = 0;
    for rel in SOLUTIONS {
        let s = load(rel).unwrap_or_else(|e| panic!("{rel}: {e}"));
        for name in s.bean_names() {
            let v = bean_sample(&s, name, 3, &mut Vec::new());
            let bytes = s
                .encode(name, &v)
                .unwrap_or_else(|e| panic!("{rel}: encode {name}: {e}\n{v}"));
            let back = s
                .decode(name, &bytes, &Options::default())
                .unwrap_or_else(|e| panic!("{rel}: decode {name}: {e}"));
            assert_eq!(back, v, "{rel}: {name} did not round-trip");
            assert_eq!(s.encode(name, &back).unwrap(), bytes, "{rel}: {name}");
            // A variable other than a bean with no variables (an external) is non-default.
            let holds = |n: &str| s.levels(n).unwrap().iter().any(|l| !l.vars.is_empty());
            let has_vars = s.levels(name).unwrap().iter().any(|l| {
                l.vars
                    .iter()
                    .any(|v| !matches!(&v.ty, Type::Bean(n) if !holds(n)))
            });
            assert!(
                !has_vars || bytes.len() > s.levels(name).unwrap().len(),
                "{rel}: {name}: a bean with variables encoded as all defaults"
            );
            total += 1;
        }
    }
    println!("{total} beans round-tripped");
    assert!(total > 1500);
}
