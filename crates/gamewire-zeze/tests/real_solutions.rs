//! Loads the real solution files of Zeze's repository (tests/fixtures/zeze/real, see its
//! README) and round-trips a bean of each through the schema codec.

use gamewire_zeze::schema::{Schema, Type};
use gamewire_zeze::Options;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};

mod common;
use common::files::read_solution;

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

fn load(rel: &str) -> gamewire_core::Result<Schema> {
    Schema::from_file_with(&root().join(rel), &mut read_solution)
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
            // The streamed view writes the same text.
            let view =
                gamewire_zeze::schema_view::SchemaView::new(&s, name, &bytes, &Options::default())
                    .unwrap_or_else(|e| panic!("{rel}: view {name}: {e}"));
            assert_eq!(
                serde_json::to_string_pretty(&view).unwrap(),
                serde_json::to_string_pretty(&back).unwrap(),
                "{rel}: {name}: the view's text"
            );
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

fn var<'a>(s: &'a Schema, bean: &str, name: &str) -> &'a Type {
    let b = s.bean(bean).unwrap_or_else(|e| panic!("{bean}: {e}"));
    &b.vars
        .iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("{bean} has no {name}"))
        .ty
}

#[test]
fn implicit_dynamic_type_ids_match_zeze_generated_java() {
    // <value bean="BSimpleTimer"/> without an id: Gen uses the bean's TypeId, which is
    // FixedHash.Hash64 of its full name. The values are the constants Gen wrote into
    // ZezeJava/ZezeJava/src/main/java/Zeze/Builtin/Timer/BTimer.java and BSimpleTimer.java
    // (DynamicTypeId_TimerObj_..., TYPEID) at the fixtures' commit.
    let s = load("ZezeJava/ZezeJava/solution.zeze.xml").unwrap();
    let Type::Dynamic(ids) = var(&s, "Zeze.Builtin.Timer.BTimer", "TimerObj") else {
        panic!("TimerObj is not a dynamic")
    };
    let mut ids = ids.clone();
    ids.sort();
    assert_eq!(
        ids,
        vec![
            (
                -6_995_089_347_718_168_392,
                "Zeze.Builtin.Timer.BCronTimer".to_owned()
            ),
            (
                1_832_177_636_612_857_692,
                "Zeze.Builtin.Timer.BSimpleTimer".to_owned()
            ),
        ]
    );
    assert_eq!(
        gamewire_zeze::hash::hash64("Zeze.Builtin.Timer.BTimer"),
        -3_755_541_261_968_580_150
    );
    // A dynamic value round-trips under its implicit id.
    let v = json!({"TimerObj": {"type_id": 1_832_177_636_612_857_692_i64, "value": {}}});
    let bytes = s.encode("Zeze.Builtin.Timer.BTimer", &v).unwrap();
    let back = s
        .decode("Zeze.Builtin.Timer.BTimer", &bytes, &Options::default())
        .unwrap();
    assert_eq!(back["TimerObj"]["bean"], "Zeze.Builtin.Timer.BSimpleTimer");
}

#[test]
fn dynamic_base_holds_the_base_and_every_derived_bean() {
    // confcs: `map[int, dynamic:Base]` with no <value>s; Final derives from Derive, which
    // derives from Base. Explicit ids (`Base:1`) are kept where given.
    let s = load("confcs/solution.xml").unwrap();
    let m = "demo.Module1.Module11";
    let Type::Map(_, v) = var(&s, &format!("{m}.Dynamic"), "dynMap") else {
        panic!("dynMap is not a map")
    };
    let Type::Dynamic(ids) = &**v else {
        panic!("dynMap's value is not a dynamic")
    };
    let hash = gamewire_zeze::hash::hash64;
    let names = ["Base", "Derive", "Final"].map(|n| format!("{m}.{n}"));
    let mut want: Vec<(i64, String)> = names.iter().map(|n| (hash(n), n.clone())).collect();
    let mut got = ids.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    let Type::Dynamic(ids) = var(&s, &format!("{m}.Dynamic"), "dyn") else {
        panic!("dyn is not a dynamic")
    };
    assert_eq!(
        ids,
        &names
            .iter()
            .enumerate()
            .map(|(i, n)| (i as i64 + 1, n.clone()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn real_beans_match_zeze_bytes() {
    // tests/fixtures/zeze/vectors/vectors.json ("Final extends Derive extends Base", bytes
    // from Zeze's Java ByteBuffer) describes exactly confcs's Module11 Base/Derive/Final:
    // Final{finalInt=3, Derive{deriveInt=2, Base{baseInt=1}}} = 10 03 01 10 02 01 10 01 00.
    let s = load("confcs/solution.xml").unwrap();
    let fin = "demo.Module1.Module11.Final";
    let v = json!({"finalInt": 3, "deriveInt": 2, "baseInt": 1});
    let want = [0x10, 0x03, 0x01, 0x10, 0x02, 0x01, 0x10, 0x01, 0x00];
    assert_eq!(s.encode(fin, &v).unwrap(), want);
    assert_eq!(s.decode(fin, &want, &Options::default()).unwrap(), v);
    assert_eq!(s.encode(fin, &json!({})).unwrap(), [0x01, 0x01, 0x00]);
    // Held in `dyn` (id 1, dynamic) under its special type id 3: tag 0x17 (id 1,
    // DYNAMIC = 7), type id 3 as a long (0x03), Final's bytes, then the end 0x00.
    let d = json!({"dyn": {"type_id": 3, "value": v}});
    let mut want_d = vec![0x17, 0x03];
    want_d.extend_from_slice(&want);
    want_d.push(0x00);
    let dyn_bean = "demo.Module1.Module11.Dynamic";
    assert_eq!(s.encode(dyn_bean, &d).unwrap(), want_d);
    let back = s.decode(dyn_bean, &want_d, &Options::default()).unwrap();
    assert_eq!(back["dyn"]["bean"], fin);
    assert_eq!(back["dyn"]["value"], v);
    // sortedmap[int, int] (ZezeJavaTest BValue.sortedmap1, id 47) is written as a map:
    // tag f0 20 (id 47 = 15 + 32, MAP = 5 -> f5 20), header 00 01 (int, int; 1 pair), 01 02.
    let t = load("ZezeJava/ZezeJavaTest/solution.xml").unwrap();
    let bytes = t
        .encode("demo.Module1.BValue", &json!({"sortedmap1": {"1": 2}}))
        .unwrap();
    assert_eq!(bytes, [0xf5, 0x20, 0x00, 0x01, 0x01, 0x02, 0x00]);
}

#[test]
fn mutual_imports_load_once_and_resolve_both_ways() {
    // zege's solution.linkd.xml imports solution.xml, which imports it back; the linkd
    // module's Rpc names a bean of solution.xml, and solution.xml's beans use Zeze's.
    let s = load("projects/zege/Server/solution.linkd.xml").unwrap();
    let p = s
        .protocol(
            10000,
            gamewire_zeze::hash::hash32("Zege.Linkd.ChallengeMe") as u32,
        )
        .expect("Zege.Linkd.ChallengeMe");
    assert_eq!(p.argument.as_deref(), Some("Zege.User.BAccount"));
    s.bean("Zege.Linkd.BChallengeArgument").unwrap();
    s.bean("Zeze.Builtin.Timer.BTimer").unwrap();
    let other = load("projects/zege/Server/solution.xml").unwrap();
    assert_eq!(other.bean_names(), s.bean_names());
}

/// The Rust generator accepts every real solution and writes a struct for each of its
/// beans (that the code builds is tests/gen_crate.rs).
#[test]
fn the_generator_writes_every_real_solution() {
    for rel in SOLUTIONS {
        let schema = load(rel).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let code = gamewire_zeze::gen::generate(&schema).unwrap_or_else(|e| panic!("{rel}: {e}"));
        for name in schema.bean_names() {
            let short = name.rsplit('.').next().unwrap();
            assert!(
                code.contains(short),
                "{rel}: bean {name} missing from the generated code"
            );
        }
    }
}
