//! `flatten`: levels with nested prefabs expanded as O3DE's loader expands them, on real
//! levels from public O3DE projects and on synthetic prefabs for each rule.

use gamewire_o3de::flatten::{
    entity_id, flatten, flatten_file, FlattenOptions, Flattened, ProjectDir, SEED_KEY,
};
use gamewire_o3de::serde_json::{json, Value as Json};
use gamewire_o3de::Registry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn real_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de/real-levels")
}

fn entity<'a>(f: &'a Flattened, path: &str) -> &'a Json {
    f.document["Entities"]
        .get(path)
        .unwrap_or_else(|| panic!("no entity {path} in {:?}", f.entities))
}

fn parent_of(e: &Json) -> Option<&str> {
    e["Components"]
        .as_object()?
        .values()
        .find(|c| {
            c["$type"]
                .as_str()
                .is_some_and(|t| t.ends_with("TransformComponent"))
        })?
        .get("Parent Entity")?
        .as_str()
}

fn transform(e: &Json) -> &Json {
    e["Components"]
        .as_object()
        .unwrap()
        .values()
        .find(|c| {
            c["$type"]
                .as_str()
                .is_some_and(|t| t.ends_with("TransformComponent"))
        })
        .unwrap()
}

#[test]
fn multiplayersample_spawning_perf_test() {
    let root = real_levels().join("mps");
    let level = root.join("Levels/SpawningPerfTest/SpawningPerfTest.prefab");
    // The project root is found from project.json above the level.
    let f = flatten_file(&level, None, &FlattenOptions::default()).unwrap();
    assert_eq!(
        f.files,
        [
            "Levels/SpawningPerfTest/SpawningPerfTest.prefab",
            "Prefabs/Test_Net_Object.prefab"
        ]
    );
    assert_eq!(f.instances, 1);
    assert_eq!(f.patches_applied, 1);
    assert!(f.skipped.is_empty());
    // Every entity of the level and of the nested prefab, the nested ones under their
    // alias path, each Id its path.
    let level_json: Json = gamewire_o3de::parse_json(&std::fs::read(&level).unwrap()).unwrap();
    let nested: Json = gamewire_o3de::parse_json(
        &std::fs::read(root.join("Prefabs/Test_Net_Object.prefab")).unwrap(),
    )
    .unwrap();
    let (alias, _) = level_json["Instances"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    let own = level_json["Entities"].as_object().unwrap().len();
    let inner = nested["Entities"].as_object().unwrap().len();
    let ents = f.document["Entities"].as_object().unwrap();
    assert_eq!(ents.len(), own + inner + 1);
    assert!(f.document.get("Instances").is_none());
    for (k, e) in ents {
        assert_eq!(e["Id"].as_str(), Some(k.as_str()));
    }
    // The nested container hangs under the level entity its patch names (`../Entity_[…]`
    // resolved from the instance to the level).
    let container = entity(&f, &format!("{alias}/ContainerEntity"));
    let patch_value = level_json["Instances"][alias]["Patches"][0]["value"]
        .as_str()
        .unwrap();
    let target = patch_value.strip_prefix("../").unwrap();
    assert_eq!(parent_of(container), Some(target));
    assert!(ents.contains_key(target));
    // The nested prefab's entities hang under its container, by path.
    for (k, e) in nested["Entities"].as_object().unwrap() {
        let flat = entity(&f, &format!("{alias}/{k}"));
        let p = parent_of(e).unwrap();
        assert_eq!(parent_of(flat), Some(format!("{alias}/{p}").as_str()));
        assert_eq!(flat["Name"], e["Name"]);
    }
    // The entity table: one row per entity, ids as O3DE hashes the paths.
    assert_eq!(f.entities.len(), ents.len() + 1);
    // The level's container keeps its id (this 2021-era level gives it an entity alias).
    assert_eq!(
        f.entities[0].path,
        level_json["ContainerEntity"]["Id"].as_str().unwrap()
    );
    let row = f
        .entities
        .iter()
        .find(|r| r.path == format!("{alias}/ContainerEntity"))
        .unwrap();
    assert_eq!(row.instance, *alias);
    assert_eq!(row.source, "Prefabs/Test_Net_Object.prefab");
    assert_eq!(row.id, entity_id("", &row.path));
    let mut ids: Vec<u64> = f.entities.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), f.entities.len(), "ids are unique");
}

#[test]
fn automated_testing_force_region_needs_the_transform_defaults() {
    // The level moves the nested prefab's container with patches on
    // `Transform Data/Translate/N`, which ForceRegionEntity.prefab leaves out (it holds
    // its defaults): O3DE patches the template with its defaults written back in.
    let root = real_levels().join("o3de-AutomatedTesting");
    let level = root.join(
        "Levels/Physics/ForceRegion_PrefabInstantiates/ForceRegion_PrefabInstantiates.prefab",
    );
    let e = flatten_file(&level, Some(&root), &FlattenOptions::default()).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("instance Instance_[444426204430]")
            && msg.contains("patch 1 (replace /ContainerEntity/Components/Component_[12139419543189750104]/Transform Data/Translate/0)"),
        "{msg}"
    );
    assert!(msg.contains("ForceRegionEntity.prefab"), "{msg}");

    let reg = Registry::bundled();
    let opts = FlattenOptions {
        registry: Some(&reg),
        ..FlattenOptions::default()
    };
    let f = flatten_file(&level, None, &opts).unwrap();
    assert_eq!(f.patches_applied, 4);
    assert_eq!(
        f.defaults_filled, 1,
        "the first patch writes the defaults in"
    );
    let c = entity(&f, "Instance_[444426204430]/ContainerEntity");
    let t = transform(c);
    assert_eq!(
        t["Transform Data"]["Translate"],
        json!([64.0, 84.13999938964844, 45.0])
    );
    assert_eq!(t["Parent Entity"], "Entity_[1146574390643]");
    // The other defaults of the transform data are O3DE's (rotation 0, scale 1).
    assert_eq!(t["Transform Data"]["Rotate"], json!([0.0, 0.0, 0.0]));
    assert_eq!(t["Transform Data"]["UniformScale"], json!(1.0));
    // keep_going: O3DE's own behaviour without the defaults: the failing patches are
    // skipped, the others apply.
    let opts = FlattenOptions {
        keep_going: true,
        ..FlattenOptions::default()
    };
    let f = flatten_file(&level, Some(&root), &opts).unwrap();
    assert_eq!(f.patches_applied, 1);
    assert_eq!(
        f.skipped.iter().map(|s| s.index).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(f
        .skipped
        .iter()
        .all(|s| s.chain == "Instance_[444426204430]"));
}

/// A project in memory.
fn project(files: &[(&str, Json)]) -> HashMap<String, Vec<u8>> {
    files
        .iter()
        .map(|(k, v)| (k.to_string(), gamewire_o3de::serde_json::to_vec(v).unwrap()))
        .collect()
}

fn ent(alias: &str, name: &str, parent: &str, extra: Json) -> Json {
    let mut comps = json!({
        "T": {"$type": "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent", "Id": 1, "Parent Entity": parent},
    });
    if let (Some(c), Json::Object(x)) = (comps.as_object_mut(), extra) {
        c.extend(x);
    }
    json!({"Id": alias, "Name": name, "Components": comps})
}

fn container(name: &str) -> Json {
    ent("ContainerEntity", name, "", json!({}))
}

fn run(
    files: &HashMap<String, Vec<u8>>,
    level: &str,
    opts: &FlattenOptions<'_>,
) -> gamewire_core::Result<Flattened> {
    let mut src = files.clone();
    let bytes = files[level].clone();
    flatten(&bytes, level, &mut src, opts)
}

#[test]
fn patches_remove_replace_and_add_through_two_levels() {
    let files = project(&[
        (
            "Prefabs/Leaf.prefab",
            json!({
                "ContainerEntity": container("Leaf"),
                "Entities": {
                    "Entity_[1]": ent("Entity_[1]", "Bulb", "ContainerEntity", json!({"M": {"$type": "MeshComponent", "Target": "Entity_[2]", "Color": [1, 0, 0]}})),
                    "Entity_[2]": ent("Entity_[2]", "Socket", "ContainerEntity", json!({})),
                    "Entity_[3]": ent("Entity_[3]", "Spare", "ContainerEntity", json!({})),
                }
            }),
        ),
        (
            "Prefabs/Lamp.prefab",
            json!({
                "ContainerEntity": container("Lamp"),
                "Entities": {"Entity_[10]": ent("Entity_[10]", "Pole", "ContainerEntity", json!({}))},
                "Instances": {"Instance_[20]": {"Source": "Prefabs/Leaf.prefab", "Patches": [
                    {"op": "replace", "path": "/ContainerEntity/Components/T/Parent Entity", "value": "../Entity_[10]"},
                    {"op": "remove", "path": "/Entities/Entity_[3]"},
                ]}}
            }),
        ),
        (
            "Levels/L/L.prefab",
            json!({
                "ContainerEntity": container("Level"),
                "Entities": {"Entity_[100]": ent("Entity_[100]", "Street", "ContainerEntity",
                    json!({"S": {"$type": "ScriptComponent", "Watch": "Instance_[200]/Instance_[20]/Entity_[1]"}}))},
                "Instances": {
                    "Instance_[200]": {"Source": "Prefabs/Lamp.prefab", "Patches": [
                        {"op": "replace", "path": "/ContainerEntity/Components/T/Parent Entity", "value": "../Entity_[100]"},
                        // An override reaching into the nested-nested prefab.
                        {"op": "replace", "path": "/Instances/Instance_[20]/Entities/Entity_[1]/Components/M/Color/0", "value": 0},
                        {"op": "add", "path": "/Instances/Instance_[20]/Entities/Entity_[1]/Components/M/Glow", "value": 2.5},
                        {"op": "add", "path": "/Entities/Entity_[11]", "value": ent("Entity_[11]", "Added", "Entity_[10]", json!({}))},
                    ]},
                    "Instance_[300]": {"Source": "Prefabs/Lamp.prefab"},
                }
            }),
        ),
    ]);
    let f = run(&files, "Levels/L/L.prefab", &FlattenOptions::default()).unwrap();
    assert_eq!(f.instances, 4, "two lamps, each with its leaf");
    // The lamp's own patches apply once, to its template; the level's four to one lamp.
    assert_eq!(f.patches_applied, 2 + 4);
    let ents = f.document["Entities"].as_object().unwrap();
    let keys: Vec<&str> = ents.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "Entity_[100]",
            "Instance_[200]/ContainerEntity",
            "Instance_[200]/Entity_[10]",
            "Instance_[200]/Entity_[11]",
            "Instance_[200]/Instance_[20]/ContainerEntity",
            "Instance_[200]/Instance_[20]/Entity_[1]",
            "Instance_[200]/Instance_[20]/Entity_[2]",
            "Instance_[300]/ContainerEntity",
            "Instance_[300]/Entity_[10]",
            "Instance_[300]/Instance_[20]/ContainerEntity",
            "Instance_[300]/Instance_[20]/Entity_[1]",
            "Instance_[300]/Instance_[20]/Entity_[2]",
        ],
        "removed Entity_[3] is gone from both lamps, added Entity_[11] in one"
    );
    // Replace and add reached the patched lamp's leaf only.
    let bulb = entity(&f, "Instance_[200]/Instance_[20]/Entity_[1]");
    assert_eq!(bulb["Components"]["M"]["Color"], json!([0, 0, 0]));
    assert_eq!(bulb["Components"]["M"]["Glow"], json!(2.5));
    let other = entity(&f, "Instance_[300]/Instance_[20]/Entity_[1]");
    assert_eq!(other["Components"]["M"]["Color"], json!([1, 0, 0]));
    assert!(other["Components"]["M"].get("Glow").is_none());
    // References resolve to paths from the root: within the instance, up (`../`), down.
    assert_eq!(
        bulb["Components"]["M"]["Target"],
        "Instance_[200]/Instance_[20]/Entity_[2]"
    );
    assert_eq!(
        parent_of(entity(&f, "Instance_[200]/Instance_[20]/ContainerEntity")),
        Some("Instance_[200]/Entity_[10]")
    );
    assert_eq!(
        parent_of(entity(&f, "Instance_[200]/ContainerEntity")),
        Some("Entity_[100]")
    );
    assert_eq!(
        parent_of(entity(&f, "Instance_[200]/Entity_[11]")),
        Some("Instance_[200]/Entity_[10]")
    );
    assert_eq!(
        parent_of(entity(&f, "Instance_[300]/ContainerEntity")),
        Some("")
    );
    assert_eq!(
        entity(&f, "Entity_[100]")["Components"]["S"]["Watch"],
        "Instance_[200]/Instance_[20]/Entity_[1]"
    );
    // Names are never taken for references.
    assert_eq!(entity(&f, "Instance_[200]/Entity_[10]")["Name"], "Pole");
    // The table names each entity's instance and source; ids are the hashed paths.
    let row = f
        .entities
        .iter()
        .find(|r| r.path == "Instance_[300]/Instance_[20]/Entity_[2]")
        .unwrap();
    assert_eq!(row.instance, "Instance_[300]/Instance_[20]");
    assert_eq!(row.source, "Prefabs/Leaf.prefab");
    assert_eq!(row.name.as_deref(), Some("Socket"));
    let opts = FlattenOptions {
        root_alias: "Instance_[9]".into(),
        ..FlattenOptions::default()
    };
    let g = run(&files, "Levels/L/L.prefab", &opts).unwrap();
    let row9 = g.entities.iter().find(|r| r.path == row.path).unwrap();
    assert_eq!(row9.id, entity_id("Instance_[9]", &row.path));
    assert_eq!(
        entity_id("Instance_[9]", "Entity_[1]"),
        entity_id("", "Instance_[9]/Entity_[1]")
    );
    assert_ne!(row9.id, row.id);
    assert_eq!(SEED_KEY, 5_915_587_277);
}

#[test]
fn the_last_patch_of_a_path_counts_and_none_on_the_root_or_without_a_path() {
    let files = project(&[
        (
            "P.prefab",
            json!({"ContainerEntity": container("P"), "Entities": {"Entity_[1]": ent("Entity_[1]", "A", "ContainerEntity", json!({}))}}),
        ),
        (
            "L.prefab",
            json!({"ContainerEntity": container("L"), "Instances": {"Instance_[1]": {"Source": "P.prefab", "Patches": [
                {"op": "replace", "path": "/Entities/Entity_[1]/Name", "value": "first"},
                {"op": "replace", "path": "", "value": {}},
                {"op": "replace", "path": "/Entities/Entity_[1]/Name", "value": "second"},
                {"op": "remove"},
                "not a patch",
            ]}}}),
        ),
    ]);
    let f = run(&files, "L.prefab", &FlattenOptions::default()).unwrap();
    assert_eq!(entity(&f, "Instance_[1]/Entity_[1]")["Name"], "second");
    assert_eq!(f.patches_applied, 1);
    // Left out: the earlier patch of the path, the root path, no path, not an object.
    let left: Vec<usize> = f.left_out.iter().map(|l| l.1).collect();
    assert_eq!(left, [0, 1, 3, 4]);
    assert!(f.left_out.iter().all(|l| l.0 == "Instance_[1]"));
}

#[test]
fn a_failing_patch_names_the_alias_chain_index_and_path() {
    let files = project(&[
        (
            "Inner.prefab",
            json!({"ContainerEntity": container("Inner"), "Entities": {}}),
        ),
        (
            "Mid.prefab",
            json!({"ContainerEntity": container("Mid"), "Instances": {"Instance_[B]": {"Source": "Inner.prefab", "Patches": [
                {"op": "add", "path": "/Entities/Entity_[9]", "value": ent("Entity_[9]", "ok", "ContainerEntity", json!({}))},
                {"op": "replace", "path": "/Entities/Entity_[404]/Name", "value": "x"},
            ]}}}),
        ),
        (
            "L.prefab",
            json!({"ContainerEntity": container("L"), "Instances": {"Instance_[A]": {"Source": "Mid.prefab"}}}),
        ),
    ]);
    let e = run(&files, "L.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "instance Instance_[A]/Instance_[B] (L.prefab > Mid.prefab > Inner.prefab): patch 1 \
         (replace /Entities/Entity_[404]/Name) failed: The target for \"replace\" operation doesn't exist."
    );
    let opts = FlattenOptions {
        keep_going: true,
        ..FlattenOptions::default()
    };
    let f = run(&files, "L.prefab", &opts).unwrap();
    assert_eq!(f.skipped.len(), 1);
    assert_eq!(f.skipped[0].index, 1);
    assert_eq!(f.skipped[0].path, "/Entities/Entity_[404]/Name");
    assert!(f.document["Entities"]
        .get("Instance_[A]/Instance_[B]/Entity_[9]")
        .is_some());
    // A patch that is not an operation at all is named too.
    let files = project(&[
        ("P.prefab", json!({"ContainerEntity": container("P")})),
        (
            "L.prefab",
            json!({"Instances": {"Instance_[1]": {"Source": "P.prefab", "Patches": [{"op": "frobnicate", "path": "/x"}]}}}),
        ),
    ]);
    let e = run(&files, "L.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("instance Instance_[1]")
            && e.contains("patch 0 (frobnicate /x)")
            && e.contains("Unknown operation"),
        "{e}"
    );
}

#[test]
fn missing_sources_and_cycles_are_errors_naming_the_chain() {
    let files = project(&[
        (
            "A.prefab",
            json!({"ContainerEntity": container("A"), "Instances": {"Instance_[1]": {"Source": "B.prefab"}}}),
        ),
        (
            "B.prefab",
            json!({"ContainerEntity": container("B"), "Instances": {"Instance_[2]": {"Source": "Gone.prefab"}}}),
        ),
        (
            "C.prefab",
            json!({"ContainerEntity": container("C"), "Instances": {"Instance_[3]": {"Source": "D.prefab"}}}),
        ),
        (
            "D.prefab",
            json!({"ContainerEntity": container("D"), "Instances": {"Instance_[4]": {"Source": "C.prefab"}}}),
        ),
        (
            "E.prefab",
            json!({"ContainerEntity": container("E"), "Instances": {"Instance_[5]": {"Patches": []}}}),
        ),
    ]);
    let e = run(&files, "A.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "instance Instance_[1]/Instance_[2] (A.prefab > B.prefab > Gone.prefab): missing source: Gone.prefab: no such prefab"
    );
    let e = run(&files, "C.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "instance Instance_[3]/Instance_[4] (C.prefab > D.prefab > C.prefab): a cycle of prefabs: C.prefab instances itself"
    );
    // Spelled differently, the same file is the same template, and the same cycle.
    let files2 = project(&[
        (
            "Prefabs/A.prefab",
            json!({"Instances": {"Instance_[1]": {"Source": "x/../Prefabs/./B.prefab"}}}),
        ),
        (
            "Prefabs/B.prefab",
            json!({"Instances": {"Instance_[2]": {"Source": "Prefabs\\A.prefab"}}}),
        ),
    ]);
    let e = run(&files2, "Prefabs/A.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a cycle of prefabs: Prefabs/A.prefab instances itself"),
        "{e}"
    );
    let e = run(&files, "E.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("instance Instance_[5]") && e.contains("no \"Source\""),
        "{e}"
    );
    // On disk: a source outside the project is refused, not read.
    let dir = std::env::temp_dir().join(format!("gamewire-flatten-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("Levels")).unwrap();
    std::fs::write(dir.join("project.json"), "{}").unwrap();
    std::fs::write(
        dir.join("Levels/L.prefab"),
        gamewire_o3de::serde_json::to_vec(
            &json!({"Instances": {"Instance_[1]": {"Source": "../../etc/passwd"}}}),
        )
        .unwrap(),
    )
    .unwrap();
    let e = flatten_file(
        &dir.join("Levels/L.prefab"),
        None,
        &FlattenOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not a path inside the project"), "{e}");
    // A `Source` that differs in case from the file (written on Windows) is found.
    std::fs::create_dir_all(dir.join("Prefabs")).unwrap();
    std::fs::write(
        dir.join("Prefabs/Crate.prefab"),
        r#"{"ContainerEntity": {"Id": "ContainerEntity", "Name": "Crate"}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("Levels/L.prefab"),
        r#"{"Instances": {"Instance_[1]": {"Source": "prefabs/crate.PREFAB"}}}"#,
    )
    .unwrap();
    let f = flatten_file(
        &dir.join("Levels/L.prefab"),
        None,
        &FlattenOptions::default(),
    )
    .unwrap();
    assert_eq!(entity(&f, "Instance_[1]/ContainerEntity")["Name"], "Crate");
    assert_eq!(
        ProjectDir::find(&dir.join("Levels/L.prefab"))
            .unwrap()
            .relative(&dir.join("Levels/L.prefab"))
            .as_deref(),
        Some("Levels/L.prefab")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn depth_and_size_are_bounded() {
    // A chain of 70 prefabs each instancing the next: past 64 levels (1024 / 16).
    let mut files = Vec::new();
    for i in 0..70 {
        files.push((
            format!("P{i}.prefab"),
            json!({"ContainerEntity": container("P"), "Instances": {"Instance_[x]": {"Source": format!("P{}.prefab", i + 1)}}}),
        ));
    }
    files.push((
        "P70.prefab".into(),
        json!({"ContainerEntity": container("End")}),
    ));
    let refs: Vec<(&str, Json)> = files.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let p = project(&refs);
    let e = run(&p, "P0.prefab", &FlattenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("instances nest deeper than 64 levels"), "{e}");
    let opts = FlattenOptions {
        limits: gamewire_core::Limits {
            max_depth: 2048,
            ..gamewire_core::Limits::DEFAULT
        },
        ..FlattenOptions::default()
    };
    let f = run(&p, "P0.prefab", &opts).unwrap();
    assert_eq!(f.instances, 70);
    assert!(f.document["Entities"]
        .get(format!("{}ContainerEntity", "Instance_[x]/".repeat(70)))
        .is_some());
    // Doubling: each prefab instances the next twice; 2^20 copies of a small prefab
    // would be far more than the files hold.
    let mut files = Vec::new();
    for i in 0..20 {
        files.push((
            format!("D{i}.prefab"),
            json!({"Instances": {"Instance_[a]": {"Source": format!("D{}.prefab", i + 1)}, "Instance_[b]": {"Source": format!("D{}.prefab", i + 1)}}}),
        ));
    }
    files.push((
        "D20.prefab".into(),
        json!({"ContainerEntity": container(&"x".repeat(1000))}),
    ));
    let refs: Vec<(&str, Json)> = files.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let p = project(&refs);
    let limits = gamewire_core::Limits {
        decompress_allowance: 1 << 20,
        ..gamewire_core::Limits::DEFAULT
    };
    let opts = FlattenOptions {
        limits,
        ..FlattenOptions::default()
    };
    let e = run(&p, "D0.prefab", &opts).unwrap_err().to_string();
    assert!(e.contains("passes the limit of"), "{e}");
    // Patches that copy a subtree onto itself double it each time: 40 of them stop at
    // the bound, after a few doublings, instead of building 2^40 copies.
    let copies: Vec<Json> = (0..40)
        .map(|i| json!({"op": "copy", "from": "/Entities", "path": format!("/Entities/Entity_[c{i}]")}))
        .collect();
    let p = project(&[
        (
            "P.prefab",
            json!({"ContainerEntity": container("P"), "Entities": {"Entity_[1]": ent("Entity_[1]", &"n".repeat(100), "", json!({}))}}),
        ),
        (
            "L.prefab",
            json!({"Instances": {"Instance_[1]": {"Source": "P.prefab", "Patches": copies}}}),
        ),
    ]);
    let e = run(&p, "L.prefab", &opts).unwrap_err().to_string();
    assert!(
        e.contains("instance Instance_[1]") && e.contains("passes the limit of"),
        "{e}"
    );
}

#[test]
fn multiplayersample_2021_level_in_the_first_prefab_format() {
    // May 2021: containers with `Entity_[…]` ids, a `Cached World Transform Parent`, and
    // the level holding no content of its instance but its patches (`add` of the
    // container's `Transform Data`).
    let level = real_levels().join("mps-2021/Levels/SampleBase/SampleBase.prefab");
    let f = flatten_file(&level, None, &FlattenOptions::default()).unwrap();
    assert_eq!(
        f.files,
        [
            "Levels/SampleBase/SampleBase.prefab",
            "Prefabs/Player.prefab"
        ]
    );
    assert_eq!(f.patches_applied, 4);
    let c = entity(&f, "Instance_[1488107002186]/Entity_[1419387525450]");
    assert_eq!(c["Name"], "Player");
    let t = transform(c);
    // `../Entity_[…]` (the level's container) resolved from the instance to the level.
    assert_eq!(t["Parent Entity"], "Entity_[356758116574]");
    assert_eq!(t["Cached World Transform Parent"], "Entity_[356758116574]");
    assert_eq!(
        t["Transform Data"]["Translate"][1],
        json!(-299.07098388671875)
    );
    let inner = entity(&f, "Instance_[1488107002186]/Entity_[1423682492746]");
    assert_eq!(
        parent_of(inner),
        Some("Instance_[1488107002186]/Entity_[1419387525450]")
    );
    assert_eq!(f.entities[0].path, "Entity_[356758116574]");
    assert_eq!(f.entities.len(), 5);
}
