//! `gamewire o3de load` and `o3de registry import` on every real O3DE prefab, with the
//! bundled core registry and with a registry imported from the engine's own class dump
//! (issue 25, items 3 and 5): a typed load and its `--canonical` form lose no member,
//! entity ids load as O3DE's prefab entity id mapper reads them, what no registry type
//! describes is kept as written and reported as kept, and the import report is one line.
#![cfg(feature = "o3de")]

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::bin;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de")
}

/// The subset of the SerializationContextExporter gem's dump of a running editor that
/// the real prefabs' component types need (see real-registry/SOURCES.md).
fn dump() -> PathBuf {
    fixtures().join("real-registry/exporter-All_dumped_classes-subset.json")
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Every real prefab of the repository.
fn real_prefabs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["real", "real-typed"] {
        for e in std::fs::read_dir(fixtures().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "prefab") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 13, "{out:?}");
    out
}

/// Imports the dump into `dir`/reg.json; returns its path and the import's stderr.
fn import(dir: &Path) -> (PathBuf, String) {
    let reg = dir.join("reg.json");
    let o = bin()
        .args(["o3de", "registry", "import"])
        .arg(dump())
        .arg("-o")
        .arg(&reg)
        .output()
        .unwrap();
    ok(&o);
    (reg, String::from_utf8_lossy(&o.stderr).into_owned())
}

fn read_json(p: &Path) -> Json {
    gamewire::o3de::parse_json(&std::fs::read(p).unwrap()).unwrap()
}

/// Every difference between `a` and `b` (members missing or added, values changed;
/// numbers compared as O3DE's floats, which the editor spells with varying digits).
fn differences(a: &Json, b: &Json, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    None => out.push(format!("{at}/{k} lost")),
                    Some(w) => differences(v, w, &format!("{at}/{k}"), out),
                }
            }
            for k in y.keys() {
                if !x.contains_key(k) {
                    out.push(format!("{at}/{k} added"));
                }
            }
        }
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                differences(v, w, &format!("{at}/{i}"), out);
            }
        }
        (Json::Number(x), Json::Number(y)) => {
            let (p, q) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if p != q && (p as f32) != (q as f32) {
                out.push(format!("{at}: {x} became {y}"));
            }
        }
        _ if a == b => {}
        _ => out.push(format!("{at}: {a} became {b}")),
    }
}

/// `o3de load --canonical` of `prefab`: the output document and the report.
fn canonical(prefab: &Path, schema: Option<&Path>, dir: &Path) -> (Json, Json) {
    let out = dir.join("out.prefab");
    let mut cmd = bin();
    cmd.args(["o3de", "load", "--canonical"]);
    if let Some(s) = schema {
        cmd.arg("--schema").arg(s);
    }
    let o = cmd.arg(prefab).arg("-o").arg(&out).output().unwrap();
    ok(&o);
    let report: Json = serde_json::from_slice(&o.stderr).unwrap();
    (read_json(&out), report)
}

#[test]
fn imported_registry_keeps_the_parent_entity_of_every_child() {
    // The issue: a registry imported from the engine's class dump types "Parent Entity"
    // as AZ::EntityId, which the load refused ("Reading into targets of type 'EntityId'
    // is not supported"), so --canonical dropped it and exited 0.
    let dir = tempfile::tempdir().unwrap();
    let (reg, _) = import(dir.path());
    let prefab = fixtures().join("real/mps-Sound_Effect.prefab");
    let (doc, report) = canonical(&prefab, Some(&reg), dir.path());
    let child =
        &doc["Entities"]["Entity_[627996395636]"]["Components"]["Component_[10879372759749386713]"];
    assert_eq!(child["Parent Entity"], "ContainerEntity", "{child}");
    let container = &doc["ContainerEntity"]["Components"]["Component_[10194278879912893296]"];
    assert_eq!(container["Parent Entity"], "", "{container}");
    let load = &report["load"];
    assert_eq!(load["lost"], serde_json::json!([]));
    for i in load["issues"].as_array().unwrap() {
        let m = i["message"].as_str().unwrap();
        assert!(!m.contains("'EntityId' is not supported"), "{i}");
    }
    // The editor's component wrappers hold their component through a pointer
    // (`AZ::Component* m_template`), which the dump does not mark: kept as written.
    let wrapped = &doc["Entities"]["Entity_[627996395636]"]["Components"]
        ["Component_[4931407726414060251]"]["m_template"];
    assert_eq!(wrapped["$type"], "SoundEffectComponent", "{wrapped}");
}

#[test]
fn canonical_load_loses_no_member_of_any_real_prefab() {
    let dir = tempfile::tempdir().unwrap();
    let (reg, _) = import(dir.path());
    for prefab in real_prefabs() {
        let input = read_json(&prefab);
        for schema in [None, Some(reg.as_path())] {
            let (out, report) = canonical(&prefab, schema, dir.path());
            let mut diffs = Vec::new();
            differences(&input, &out, "", &mut diffs);
            // The editor writes its files canonical: with the bundled registry (defaults
            // known) and with the imported one (defaults unknown, so nothing is left
            // out or added) every member comes back with its value.
            assert!(
                diffs.is_empty(),
                "{} {schema:?}: {diffs:#?}",
                prefab.display()
            );
            assert_eq!(report["load"]["lost"], serde_json::json!([]));
            // A plain typed load writes the input back byte for byte.
            let o = bin()
                .args(["o3de", "load"])
                .args(
                    schema
                        .map(|s| vec![PathBuf::from("--schema"), s.to_path_buf()])
                        .unwrap_or_default(),
                )
                .arg(&prefab)
                .output()
                .unwrap();
            ok(&o);
            assert_eq!(o.stdout, std::fs::read(&prefab).unwrap());
        }
    }
}

#[test]
fn members_no_registry_describes_or_that_fail_are_kept_and_reported_as_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (reg, _) = import(dir.path());
    let mut doc = read_json(&fixtures().join("real/mps-Sound_Effect.prefab"));
    let t = &mut doc["Entities"]["Entity_[627996395636]"]["Components"]
        ["Component_[10879372759749386713]"];
    // A member no class declares, and values the load cannot read (a bool from an
    // array, an entity id as a number inside a prefab).
    let note = serde_json::json!({"text": "kept", "n": [1, 2]});
    t["Editor Note"] = note.clone();
    t["IsStatic"] = serde_json::json!([1, 2]);
    t["Parent Entity"] = serde_json::json!(1234);
    let edited = dir.path().join("edited.prefab");
    std::fs::write(&edited, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    for schema in [None, Some(reg.as_path())] {
        let (out, report) = canonical(&edited, schema, dir.path());
        let o = &out["Entities"]["Entity_[627996395636]"]["Components"]
            ["Component_[10879372759749386713]"];
        assert_eq!(o["Editor Note"], note, "{schema:?}");
        assert_eq!(o["IsStatic"], serde_json::json!([1, 2]), "{schema:?}");
        assert_eq!(o["Parent Entity"], 1234, "{schema:?}");
        let kept: Vec<&str> = report["load"]["kept_as_written"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["path"].as_str().unwrap())
            .collect();
        for m in ["Editor Note", "IsStatic", "Parent Entity"] {
            let p = format!(
                "/Entities/Entity_[627996395636]/Components/Component_[10879372759749386713]/{m}"
            );
            assert!(kept.contains(&p.as_str()), "{schema:?} {m}: {kept:?}");
        }
        // The component's outcome says its load was not a success.
        let changed = report["load"]["changed"].as_array().unwrap();
        let c = changed
            .iter()
            .find(|c| {
                c["path"]
                    .as_str()
                    .unwrap()
                    .ends_with("10879372759749386713]")
            })
            .unwrap();
        assert_ne!(c["outcome"], "Success", "{c}");
    }
}

#[test]
fn registry_import_prints_one_line_and_the_report_file_lists_every_unmapped_field() {
    let dir = tempfile::tempdir().unwrap();
    let reg = dir.path().join("reg.json");
    let report = dir.path().join("report.json");
    let o = bin()
        .args(["o3de", "registry", "import"])
        .arg(dump())
        .arg("-o")
        .arg(&reg)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    let full = read_json(&report);
    let unmapped = full["import"]["unmapped"].as_array().unwrap();
    assert!(!unmapped.is_empty());
    assert!(
        err.contains(&format!("{} fields or bases left out", unmapped.len())),
        "{err}"
    );
    for u in unmapped {
        assert!(u["class"].is_string() && u["reason"].is_string(), "{u}");
    }
    // Entity ids are the built-in serializer's type, the wrapper's template a pointer,
    // and the dump's classes say their defaults are not known.
    let reg = read_json(&reg);
    let class = |name: &str| {
        reg["classes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    let field = |c: &Json, f: &str| {
        c["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == f)
            .unwrap()["type"]
            .clone()
    };
    let wrapper = class("GenericComponentWrapper");
    assert_eq!(field(&wrapper, "m_template"), "AZ::Component*");
    assert_eq!(wrapper["defaults_known"], false);
    let entity = class("AZ::Entity");
    assert_eq!(field(&entity, "Id"), "EntityId");
    assert!(reg["classes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["name"] != "EntityId"));
}

#[test]
fn decode_inspect_and_load_use_the_registry_beside_the_file_the_same_way() {
    // A registry beside the files that reads on its own and knows one gem component;
    // the bundled core types are merged under it for every command.
    let dir = tempfile::tempdir().unwrap();
    let prefab = dir.path().join("laser_pistol.prefab");
    std::fs::copy(
        fixtures().join("real-typed/mps-laser_pistol.prefab"),
        &prefab,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("o3de-registry.json"),
        r#"{"classes": [{"name": "AZ::Render::EditorMeshComponent",
                         "fields": [{"name": "Id", "type": "u64"}]}]}"#,
    )
    .unwrap();
    // An envelope of a class only the bundled types hold, with a value it cannot read.
    let lock = dir.path().join("lock.json");
    std::fs::write(
        &lock,
        r#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "EditorLockComponent",
            "ClassData": {"Id": 7, "Locked": [1]}}"#,
    )
    .unwrap();
    // `o3de load` finds the registry beside the prefab (one more component typed than
    // with the bundled types alone) ...
    let typed = |o: &Output| -> u64 {
        let r: Json = serde_json::from_slice(&o.stderr).unwrap();
        r["load"]["typed"].as_u64().unwrap()
    };
    let load = bin()
        .args(["o3de", "load", "--quiet"])
        .arg(&prefab)
        .output()
        .unwrap();
    ok(&load);
    let bundled_only = bin()
        .args(["o3de", "load", "--quiet"])
        .arg(fixtures().join("real-typed/mps-laser_pistol.prefab"))
        .output()
        .unwrap();
    ok(&bundled_only);
    assert_eq!(typed(&load), typed(&bundled_only) + 1);
    // ... `decode o3de` types the prefab's components with the same registry ...
    let dec = bin()
        .args(["decode", "o3de"])
        .arg(&prefab)
        .output()
        .unwrap();
    ok(&dec);
    assert_eq!(typed(&dec), typed(&load));
    assert_eq!(dec.stdout, std::fs::read(&prefab).unwrap());
    // ... and the envelope's class, which only the bundled types know, is typed by
    // `decode o3de`, `decode FILE` and `inspect` alike.
    let dec = bin().args(["decode", "o3de"]).arg(&lock).output().unwrap();
    ok(&dec);
    let err = String::from_utf8_lossy(&dec.stderr);
    assert!(
        err.contains("\"/Locked\"") && err.contains("Unsupported"),
        "{err}"
    );
    let dec = bin().arg("decode").arg(&lock).output().unwrap();
    ok(&dec);
    let err = String::from_utf8_lossy(&dec.stderr);
    assert!(
        err.contains("/Locked") && err.contains("Unsupported"),
        "{err}"
    );
    let ins = bin().arg("inspect").arg(&lock).output().unwrap();
    ok(&ins);
    let out = String::from_utf8_lossy(&ins.stdout);
    assert!(
        out.contains("o3de-registry.json)") && out.contains("/Locked"),
        "{out}"
    );
    // `inspect` and `decode FILE` of the prefab say what the typed load found.
    let ins = bin().arg("inspect").arg(&prefab).output().unwrap();
    ok(&ins);
    let out = String::from_utf8_lossy(&ins.stdout);
    let line = format!("typed load of {} of 22 components", typed(&load));
    assert!(out.contains(&line), "{out}");
    let dec = bin().arg("decode").arg(&prefab).output().unwrap();
    ok(&dec);
    assert!(String::from_utf8_lossy(&dec.stderr).contains(&line));
}

#[test]
fn decode_canonical_of_one_class_keeps_what_the_load_did_not_take() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("lock.json");
    std::fs::write(
        &lock,
        r#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "EditorLockComponent",
            "ClassData": {"Id": "7", "Locked": [1], "Note": {"by": "hand"}}}"#,
    )
    .unwrap();
    let o = bin()
        .args([
            "decode",
            "o3de",
            "--canonical",
            "--type",
            "EditorLockComponent",
        ])
        .arg(&lock)
        .output()
        .unwrap();
    ok(&o);
    let out: Json = serde_json::from_slice(&o.stdout).unwrap();
    // The id is coerced as O3DE stores it; the rest is kept as written.
    assert_eq!(
        out,
        serde_json::json!({"Id": 7, "Locked": [1], "Note": {"by": "hand"}})
    );
    let rep: Json = serde_json::from_slice(&o.stderr).unwrap();
    let kept: Vec<&str> = rep["kept_as_written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["path"].as_str().unwrap())
        .collect();
    assert_eq!(kept, ["/Locked", "/Note"]);
    assert_eq!(rep["lost"], serde_json::json!([]));
    assert_eq!(rep["load"]["outcome"], "Unsupported");
}

#[test]
fn canonical_decode_of_every_real_envelope_file_loses_no_member() {
    // Pass templates, render pipelines, asset aliases and a Script Canvas graph, typed by
    // the imported registry: their `Name`s, `AZStd::any`s and enums the dump does not
    // hold are kept as written, everything else in its stored form.
    let dir = tempfile::tempdir().unwrap();
    let (reg, _) = import(dir.path());
    let registry = read_json(&reg);
    let known = |class: &str| {
        registry["classes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == class)
    };
    let mut typed = 0;
    for e in std::fs::read_dir(fixtures().join("real")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".md") || name.ends_with(".prefab") {
            continue;
        }
        let Some(class) =
            gamewire::o3de::recognize::envelope_class_name(&std::fs::read(&path).unwrap())
        else {
            continue;
        };
        if !known(&class) {
            continue;
        }
        let out = dir.path().join("out.json");
        let o = bin()
            .args(["decode", "o3de", "--canonical", "--schema"])
            .arg(&reg)
            .arg(&path)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        ok(&o);
        let input = read_json(&path)["ClassData"].clone();
        let mut diffs = Vec::new();
        differences(&input, &read_json(&out), "", &mut diffs);
        assert!(diffs.is_empty(), "{name}: {diffs:#?}");
        let report: Json = serde_json::from_slice(&o.stderr).unwrap();
        assert_eq!(report["lost"], serde_json::json!([]), "{name}");
        typed += 1;
    }
    assert!(typed >= 5, "{typed}");
}
