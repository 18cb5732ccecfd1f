#![no_main]
use gamewire_o3de::{load, parse_json, serde_json, store, LoadOptions, Registry, StoreOptions};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const REGISTRY: &str = r#"{
  "enums": [{"name": "E", "underlying": "i16", "values": {"A": 1, "B": 2, "N": -8}},
            {"name": "F", "underlying": "u64", "values": {"X": 1, "Y": 6}}],
  "classes": [
    {"name": "Base", "fields": [{"name": "v", "type": "f32", "default": 1.5}]},
    {"name": "Derived", "bases": ["Base"], "fields": [{"name": "e", "type": "E"}, {"name": "f", "type": "F"}]},
    {"name": "Dup", "uuid": "{11111111-1111-1111-1111-111111111111}", "bases": ["Base"]},
    {"name": "Dup", "uuid": "{22222222-2222-2222-2222-222222222222}"},
    {"name": "Root", "fields": [
      {"name": "i", "type": "i32"}, {"name": "u", "type": "u8"}, {"name": "s", "type": "string"},
      {"name": "b", "type": "bool"}, {"name": "id", "type": "Uuid"}, {"name": "c", "type": "Color"},
      {"name": "v", "type": "Vector3"}, {"name": "q", "type": "Quaternion"}, {"name": "t", "type": "Transform"},
      {"name": "m", "type": "Matrix3x4"}, {"name": "list", "type": "vector<Base*>"},
      {"name": "set", "type": "unordered_set<string>"}, {"name": "fixed", "type": "fixed_vector<i64,3>"},
      {"name": "arr", "type": "array<u16,2>"}, {"name": "map", "type": "map<string, Derived>"},
      {"name": "imap", "type": "unordered_map<i32, shared_ptr<Base>>"},
      {"name": "mm", "type": "unordered_multimap<E, string>"}, {"name": "tup", "type": "tuple<i8, pair<bool, f64>>"},
      {"name": "any", "type": "any"}, {"name": "asset", "type": "Asset<A>"}, {"name": "self", "type": "unique_ptr<Root>"}]}
  ]}"#;

fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| Registry::from_json(&serde_json::from_str(REGISTRY).unwrap()).unwrap())
}

/// The same registry with every class's defaults unknown (as `registry import` writes).
fn unknown_defaults() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut j: serde_json::Value = serde_json::from_str(REGISTRY).unwrap();
        for c in j["classes"].as_array_mut().unwrap() {
            c["defaults_known"] = serde_json::Value::Bool(false);
        }
        Registry::from_json(&j).unwrap()
    })
}

fn bundled() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(Registry::bundled)
}

fuzz_target!(|data: &[u8]| {
    // The bytes as a registry file, alone and merged over the bundled core types.
    let _ = Registry::from_slice(data);
    let _ = Registry::from_slice_over_bundled(data);
    // The bytes as a string coerced into scalars (strtoll/strtod/uuid/enum-name rules),
    // and as a $type name.
    let text = serde_json::Value::String(String::from_utf8_lossy(data).into_owned());
    let reg = registry();
    for ty in [
        "i8", "u64", "i64", "f32", "f64", "bool", "Uuid", "E", "F", "string", "Base*", "any",
    ] {
        let ty = reg.parse_type(ty).unwrap();
        let _ = load(reg, &ty, &text, &LoadOptions::default());
    }
    let _ = load(
        reg,
        &reg.parse_type("Base*").unwrap(),
        &serde_json::json!({"$type": text.clone()}),
        &LoadOptions::default(),
    );
    let _ = reg.parse_type(&String::from_utf8_lossy(data));
    let _ = gamewire_o3de::de::from_value::<(i32, u8, f32, bool, String)>(&serde_json::json!([
        text.clone(),
        text.clone(),
        text.clone(),
        text.clone(),
        text
    ]));
    // The bytes as JSON loaded into a rich type, then stored and loaded again.
    let Ok(json) = parse_json(data) else { return };
    // As an engine type dump to import, and as a prefab to load typed.
    let _ = gamewire_o3de::registry_import::import(&[("fuzz".into(), json.clone())]);
    let mut prefab = json.clone();
    let _ = gamewire_o3de::prefab::load_prefab(bundled(), &mut prefab, true);
    // Again keeping duplicate member names (the parse must agree with parse_json).
    let Ok((kept, dups)) = gamewire_o3de::parse_json_keeping_duplicates(data) else {
        panic!("parse_json accepted what parse_json_keeping_duplicates rejected")
    };
    assert_eq!(kept, json);
    // Duplicate records follow merge patches and imports.
    let mut patched_dups = dups.clone();
    patched_dups.merge_patch("", &kept, &json);
    let mut doc = kept.clone();
    let mut doc_dups = dups.clone();
    let mut files = std::collections::HashMap::new();
    files.insert(std::path::PathBuf::from("d/a.json"), json.clone());
    files.insert(
        std::path::PathBuf::from("d/b.json"),
        serde_json::json!({"x": {"$import": "a.json"}, "y": [1, {"$import": {"filename": "b.json"}}]}),
    );
    let _ = gamewire_o3de::import::resolve_imports_keeping_duplicates(
        &mut doc,
        &mut doc_dups,
        "d/main.json".as_ref(),
        &mut gamewire_o3de::import::MemoryImporter(files),
        &Default::default(),
    );
    let _ = gamewire_o3de::load_with_duplicates(
        reg,
        &reg.parse_type("Root").unwrap(),
        doc,
        &doc_dups,
        &LoadOptions::default(),
    );
    // A reporting callback that halts now and then.
    let mut calls = 0u32;
    let mut halt_some = |_: &str, code: gamewire_o3de::ResultCode, _: &str| {
        calls += 1;
        if calls % 7 == 0 {
            gamewire_o3de::ResultCode::new(code.task(), gamewire_o3de::Outcome::Catastrophic)
        } else {
            code
        }
    };
    let (rv, _) = gamewire_o3de::load_with_reporting(
        reg,
        &reg.parse_type("Root").unwrap(),
        kept.clone(),
        &dups,
        &LoadOptions::default(),
        &mut halt_some,
    );
    let _ = gamewire_o3de::store_with_reporting(
        reg,
        &reg.parse_type("Root").unwrap(),
        &rv,
        None,
        &StoreOptions::default(),
        &mut halt_some,
    );
    let _ = gamewire_o3de::load_with_duplicates(
        reg,
        &reg.parse_type("Root").unwrap(),
        kept,
        &dups,
        &LoadOptions::default(),
    );
    // What a load does not take, put back as written; unknown defaults kept out.
    for r in [reg, unknown_defaults()] {
        let ty = r.parse_type("Root").unwrap();
        let (v, rep) = load(r, &ty, &json, &LoadOptions::default());
        let (mut j, _) = store(r, &ty, &v, &StoreOptions::default());
        let _ = gamewire_o3de::keep::keep_as_written(r, &ty, &json, &mut j, &rep.issues);
        let _ = gamewire_o3de::keep::canonical_with_unknown_defaults(r, &ty, &json, j);
    }
    for ty in ["Root", "vector<E>", "map<F, Color>"] {
        let ty = reg.parse_type(ty).unwrap();
        let (v, _) = load(reg, &ty, &json, &LoadOptions::default());
        for keep in [false, true] {
            let (j, _) = store(
                reg,
                &ty,
                &v,
                &StoreOptions {
                    keep_defaults: keep,
                    ..Default::default()
                },
            );
            let _ = load(reg, &ty, &j, &LoadOptions::default());
        }
    }
    let _ = gamewire_o3de::patch::create_patch(&json, &serde_json::json!({"a": [1, {"b": null}]}));
    let _ = gamewire_o3de::patch::create_merge_patch(&serde_json::json!({"a": 1}), &json);
    let mut target = serde_json::json!({"a": [1, 2], "b": {"c": 1}});
    let _ = gamewire_o3de::patch::apply_patch(&mut target, &json);
    let _ = gamewire_o3de::patch::apply_merge_patch(&mut target, &json);
});
