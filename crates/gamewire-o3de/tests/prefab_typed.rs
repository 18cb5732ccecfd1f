//! Typed load of real prefabs with the bundled registry of the engine's core types.

use gamewire_o3de::prefab::load_prefab;
use gamewire_o3de::{serde_json, Outcome, Registry};
use serde_json::{json, Value as Json};
use std::path::PathBuf;

fn real(name: &str) -> Json {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/o3de/real-typed")
        .join(name);
    gamewire_o3de::parse_json(&std::fs::read(p).unwrap()).unwrap()
}

const REAL: [&str; 4] = [
    "mps-laser_pistol.prefab",
    "mps-Platform_3_wide.prefab",
    "mps-Sound_Effect.prefab",
    "mps-SpawningPerfTest.prefab",
];

const CORE: [&str; 10] = [
    "TransformComponent",
    "EditorEntitySortComponent",
    "EditorInspectorComponent",
    "EditorLockComponent",
    "EditorVisibilityComponent",
    "EditorOnlyEntityComponent",
    "EditorPendingCompositionComponent",
    "EditorDisabledCompositionComponent",
    "EditorEntityIconComponent",
    "EditorPrefabComponent",
];

#[test]
fn bundled_registry_loads_and_holds_the_core_types() {
    let reg = Registry::from_json(&Registry::bundled_json()).unwrap();
    for name in CORE
        .iter()
        .chain(&["AZ::Entity", "SelectionComponent", "EditorTransform"])
    {
        assert_eq!(reg.classes_named(name).len(), 1, "{name}");
    }
    let t = &reg.classes[reg.classes_named("TransformComponent")[0]];
    assert_eq!(t.uuid.to_string(), "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}");
    assert_eq!(t.version, Some(10));
    assert_eq!(t.fields[0].name, "Id");
}

#[test]
fn real_prefabs_load_with_every_core_component_typed() {
    let reg = Registry::bundled();
    for name in REAL {
        let original = real(name);
        let mut doc = original.clone();
        let rep = load_prefab(&reg, &mut doc, false);
        // The default output keeps the input as it was.
        assert_eq!(doc, original, "{name}");
        assert!(rep.entities >= 2, "{name}");
        assert_eq!(rep.typed + rep.unknown.len(), rep.components, "{name}");
        // Every component of a core type is typed; the others are named, not failed.
        for (path, ty) in &rep.unknown {
            assert!(
                !CORE.iter().any(|c| ty.ends_with(c)),
                "{name}: {path} {ty} not typed"
            );
        }
        assert!(
            !rep.unknown.is_empty(),
            "{name}: gem components are unknown to the core registry"
        );
        // Nothing the core registry types is refused.
        for i in &rep.issues {
            assert_ne!(i.code.outcome(), Outcome::Unsupported, "{name}: {i:?}");
            assert_ne!(i.code.outcome(), Outcome::TypeMismatch, "{name}: {i:?}");
        }
        // Real files written by the editor are already canonical for the core types
        // (defaults dropped by O3DE's store), apart from fields the store writes.
        let mut canon = original.clone();
        let rep2 = load_prefab(&reg, &mut canon, true);
        assert_eq!(rep2.typed, rep.typed);
        let mut again = canon.clone();
        load_prefab(&reg, &mut again, true);
        assert_eq!(again, canon, "{name}: canonical form is stable");
    }
}

#[test]
fn spawning_level_counts_instances_and_keeps_patches() {
    let reg = Registry::bundled();
    let mut doc = real("mps-SpawningPerfTest.prefab");
    let before = doc["Instances"].clone();
    let rep = load_prefab(&reg, &mut doc, true);
    assert_eq!(rep.instances, 1);
    assert_eq!(doc["Instances"], before);
}

#[test]
fn canonical_drops_defaults_coerces_and_keeps_unknown_members() {
    let reg = Registry::bundled();
    let mut doc = real("mps-laser_pistol.prefab");
    let comps = doc["Entities"]["Entity_[39836628510367]"]["Components"]
        .as_object_mut()
        .unwrap();
    let t = comps
        .values_mut()
        .find(|c| c["$type"].as_str().unwrap().ends_with("TransformComponent"))
        .unwrap();
    t["IsStatic"] = json!("false");
    t["Transform Data"] = json!({"Translate": [1, "2", 3], "UniformScale": 1.0, "Locked": 1});
    t["Editor Only Note"] = json!({"kept": true});
    let lock = comps
        .values_mut()
        .find(|c| c["$type"] == "EditorLockComponent")
        .unwrap();
    lock["Locked"] = json!("true");
    let mesh_before = comps
        .values()
        .find(|c| c["$type"] == "AZ::Render::EditorMeshComponent")
        .unwrap()
        .clone();

    let rep = load_prefab(&reg, &mut doc, true);
    let comps = doc["Entities"]["Entity_[39836628510367]"]["Components"]
        .as_object()
        .unwrap();
    let t = comps
        .values()
        .find(|c| c["$type"].as_str().unwrap().ends_with("TransformComponent"))
        .unwrap();
    let keys: Vec<&str> = t.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "$type",
            "Id",
            "Parent Entity",
            "Transform Data",
            "Editor Only Note"
        ]
    );
    assert_eq!(
        t["Transform Data"],
        json!({"Translate": [1.0, 2.0, 3.0], "Locked": true})
    );
    let lock = comps
        .values()
        .find(|c| c["$type"] == "EditorLockComponent")
        .unwrap();
    assert_eq!(lock["Locked"], json!(true));
    // Unknown components stay exactly as written.
    let mesh = comps
        .values()
        .find(|c| c["$type"] == "AZ::Render::EditorMeshComponent")
        .unwrap();
    assert_eq!(*mesh, mesh_before);
    // The report says what was left out as default and what was rewritten.
    let tr = rep
        .changed
        .iter()
        .find(|c| c.type_name.ends_with("TransformComponent") && c.path.contains("39836628510367"))
        .unwrap();
    assert_eq!(tr.left_out, ["IsStatic"]);
    assert_eq!(tr.rewritten, ["Transform Data"]);
    let lr = rep
        .changed
        .iter()
        .find(|c| c.type_name == "EditorLockComponent" && c.path.contains("39836628510367"))
        .unwrap();
    assert_eq!(lr.rewritten, ["Locked"]);
    // Absent fields took their defaults, and the report says so.
    assert!(rep.changed.iter().any(
        |c| c.type_name == "EditorVisibilityComponent" && c.outcome == Outcome::PartialDefaults
    ));
    assert!(rep
        .unknown
        .iter()
        .any(|(_, t)| t == "AZ::Render::EditorMeshComponent"));
}

#[test]
fn a_user_registry_merges_over_the_bundled_one() {
    let user = br#"{"classes": [
        {"name": "EditorLockComponent", "bases": ["EditorComponentBase"],
         "fields": [{"name": "Locked", "type": "bool", "default": true}]},
        {"name": "AZ::Render::EditorMeshComponent", "bases": ["EditorComponentBase"],
         "fields": [{"name": "Controller", "type": "any"}]}
    ]}"#;
    let reg = Registry::from_slice_over_bundled(user).unwrap();
    assert_eq!(reg.classes_named("EditorLockComponent").len(), 1);
    assert_eq!(reg.classes_named("TransformComponent").len(), 1);
    let mut doc = real("mps-laser_pistol.prefab");
    let rep = load_prefab(&reg, &mut doc, false);
    assert!(rep
        .unknown
        .iter()
        .all(|(_, t)| t != "AZ::Render::EditorMeshComponent"));
    // The user's default (locked) now differs from what the file leaves out.
    let lock = rep
        .changed
        .iter()
        .find(|c| c.type_name == "EditorLockComponent")
        .unwrap();
    assert_eq!(lock.outcome, Outcome::PartialDefaults);
    assert!(lock.left_out.is_empty());
}

#[test]
fn math_type_ids_name_the_built_in_math_types() {
    let reg = Registry::bundled();
    let ty = reg.parse_type("any").unwrap();
    let (v, rep) = gamewire_o3de::load(
        &reg,
        &ty,
        &json!({"$type": "{8379EB7D-01FA-4538-B64B-A6543B4BE73D} Vector3", "Value": [1, 2, 3]}),
        &Default::default(),
    );
    assert_eq!(rep.outcome(), Outcome::Success, "{rep:?}");
    match v {
        gamewire_o3de::Value::Any(Some(b)) => {
            assert_eq!(b.0, gamewire_o3de::TypeExpr::Vector3);
            assert_eq!(b.1, gamewire_o3de::Value::Math(vec![1.0, 2.0, 3.0].into()));
        }
        other => panic!("{other:?}"),
    }
    let a = &reg.classes[reg.classes_named("AssetId")[0]];
    assert_eq!(a.uuid.to_string(), "{652ED536-3402-439B-AEBE-4A5DBC554085}");
}

#[test]
fn the_game_transform_component_is_bundled_too() {
    let reg = Registry::from_json(&Registry::bundled_json()).unwrap();
    let i = reg.classes_named("AzFramework::TransformComponent");
    assert_eq!(i.len(), 1);
    let t = &reg.classes[i[0]];
    assert_eq!(t.uuid.to_string(), "{22B10178-39B6-4C12-BB37-77DB45FDD3B6}");
    assert_eq!(t.version, Some(5));
    let names: Vec<&str> = t.fields.iter().map(|f| f.name.as_str()).collect();
    for f in [
        "Parent",
        "Transform",
        "LocalTransform",
        "ParentActivationTransformMode",
        "IsStatic",
    ] {
        assert!(names.contains(&f), "{f} in {names:?}");
    }
}
