//! Flattening a level of 100 nested instances and 10,000 entities (target: under a
//! second). The generated project: 10 group prefabs, each holding 100 entities and 9
//! instances of leaf prefabs (10 leaf prefabs of 100 entities each); the level holds the
//! 10 groups. 100 instances in all (10 groups, 90 leaves), 10,000 entities plus their
//! 100 containers. Entities have the shape editor entities have (ten components: a
//! transform with its parent, mesh asset, inspector order, sort order, a wrapped
//! component); every instance has the patches the editor writes when it places one
//! (parent and position of its container) and an override inside an entity, and the
//! level's patches also reach into the groups' leaves (`/Instances/…/Entities/…`).
//!
//! Each round runs `flatten_file` on the files (read, parse, expand, patch, flatten,
//! references rewritten) and, timed apart, writes the flattened level as O3DE's JSON
//! layout. Prints the medians.
//!
//! Run: `scripts/o3de/bench-flatten.sh`, or `cargo bench -p gamewire-o3de --bench flatten`
//! (`O3DE_BENCH_ROUNDS` (11), `O3DE_BENCH_KEEP=DIR` to write the project there and keep it).

use gamewire_o3de::flatten::{flatten_file, FlattenOptions};
use gamewire_o3de::serde_json::{json, Map, Value as Json};
use std::path::Path;
use std::time::Instant;

const TRANSFORM: &str = "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent";

fn entity(seed: u64, k: usize, parent: &str, children: &[String]) -> Json {
    let c = |i: u64| seed * 1000 + k as u64 * 10 + i;
    let comp = |i: u64| format!("Component_[{}]", c(i));
    let mut m = Map::new();
    m.insert(
        comp(0),
        json!({"$type": TRANSFORM, "Id": c(0), "Parent Entity": parent,
        "Transform Data": {"Translate": [k as f64 * 1.5, 2.25, 0.0], "Rotate": [0.0, 0.0, 90.0]}}),
    );
    m.insert(comp(1), json!({"$type": "EditorInspectorComponent", "Id": c(1),
        "ComponentOrderEntryArray": [{"ComponentId": c(0)}, {"ComponentId": c(2), "SortIndex": 1}]}));
    m.insert(comp(2), json!({"$type": "AZ::Render::EditorMeshComponent", "Id": c(2),
        "Controller": {"Configuration": {"ModelAsset": {"assetId": {"guid": "{1B06015D-D440-53C8-8C66-DC910D55D768}", "subId": 282189580},
            "assetHint": "objects/props/crate.azmodel"}}}}));
    m.insert(
        comp(3),
        json!({"$type": "EditorVisibilityComponent", "Id": c(3)}),
    );
    m.insert(comp(4), json!({"$type": "EditorLockComponent", "Id": c(4)}));
    m.insert(
        comp(5),
        json!({"$type": "EditorEntitySortComponent", "Id": c(5), "Child Entity Order": children}),
    );
    m.insert(
        comp(6),
        json!({"$type": "GenericComponentWrapper", "Id": c(6),
        "m_template": {"$type": "NetBindComponent", "Target": parent}}),
    );
    m.insert(
        comp(7),
        json!({"$type": "EditorOnlyEntityComponent", "Id": c(7)}),
    );
    m.insert(
        comp(8),
        json!({"$type": "EditorPendingCompositionComponent", "Id": c(8)}),
    );
    m.insert(
        comp(9),
        json!({"$type": "EditorDisabledCompositionComponent", "Id": c(9)}),
    );
    json!({"Id": format!("Entity_[{seed}{k:04}]"), "Name": format!("Entity {k}"), "Components": m})
}

/// A prefab of `n` entities (the first ten under the container, the others under
/// them), with `instances` (alias → value).
fn prefab(seed: u64, name: &str, n: usize, instances: Map<String, Json>) -> Json {
    let alias = |k: usize| format!("Entity_[{seed}{k:04}]");
    let mut entities = Map::new();
    for k in 0..n {
        let parent = if k < 10 {
            "ContainerEntity".to_string()
        } else {
            alias(k % 10)
        };
        let children: Vec<String> = if k < 10 {
            (k + 10..n).step_by(10).map(alias).collect()
        } else {
            Vec::new()
        };
        entities.insert(alias(k), entity(seed, k, &parent, &children));
    }
    let container = json!({"Id": "ContainerEntity", "Name": name, "Components": {
        "Component_[1]": {"$type": TRANSFORM, "Id": 1, "Parent Entity": ""},
        "Component_[2]": {"$type": "EditorPrefabComponent", "Id": 2},
    }});
    let mut p = json!({"ContainerEntity": container, "Entities": entities});
    if !instances.is_empty() {
        p["Instances"] = Json::Object(instances);
    }
    p
}

/// The patches the editor writes for a placed instance, plus an override inside its
/// entity number `k` (of the prefab made with `seed`).
fn placement(parent: &str, i: usize, seed: u64, k: usize) -> Vec<Json> {
    let entity_alias = format!("Entity_[{seed}{k:04}]");
    let comp = format!("Component_[{}]", seed * 1000 + k as u64 * 10 + 2);
    vec![
        json!({"op": "replace", "path": "/ContainerEntity/Components/Component_[1]/Parent Entity", "value": format!("../{parent}")}),
        json!({"op": "add", "path": "/ContainerEntity/Components/Component_[1]/Transform Data", "value": {"Translate": [i as f64 * 10.0, 0.0, 0.0]}}),
        json!({"op": "replace", "path": format!("/Entities/{entity_alias}/Components/{comp}/Controller/Configuration/ModelAsset/assetHint"), "value": "objects/props/barrel.azmodel"}),
    ]
}

fn write_project(dir: &Path) -> usize {
    std::fs::create_dir_all(dir.join("Prefabs")).unwrap();
    std::fs::create_dir_all(dir.join("Levels/Bench")).unwrap();
    std::fs::write(dir.join("project.json"), r#"{"project_name": "Bench"}"#).unwrap();
    let mut bytes = 0;
    let mut put = |rel: &str, v: &Json| {
        let text = gamewire_o3de::envelope::write_json(v);
        bytes += text.len();
        std::fs::write(dir.join(rel), text).unwrap();
    };
    for l in 0..10u64 {
        put(
            &format!("Prefabs/Leaf{l}.prefab"),
            &prefab(100 + l, &format!("Leaf{l}"), 100, Map::new()),
        );
    }
    let mut level_instances = Map::new();
    for g in 0..10u64 {
        let seed = 200 + g;
        let mut inst = Map::new();
        for j in 0..9usize {
            let leaf = (g as usize + j) % 10;
            let leaf_seed = 100 + leaf as u64;
            let patches = placement(&format!("Entity_[{seed}{j:04}]"), j, leaf_seed, j + 1);
            inst.insert(
                format!("Instance_[{seed}{j}]"),
                json!({"Source": format!("Prefabs/Leaf{leaf}.prefab"), "Patches": patches}),
            );
        }
        put(
            &format!("Prefabs/Group{g}.prefab"),
            &prefab(seed, &format!("Group{g}"), 100, inst),
        );
        let mut patches = placement("Entity_[9000000]", g as usize, seed, 5);
        // Overrides reaching into the group's leaves.
        for j in 0..3usize {
            let leaf_seed = 100 + ((g as usize + j) % 10) as u64;
            patches.push(json!({"op": "replace",
                "path": format!("/Instances/Instance_[{seed}{j}]/Entities/Entity_[{leaf_seed}0007]/Name"),
                "value": format!("Overridden {g}/{j}")}));
        }
        level_instances.insert(
            format!("Instance_[9{g}]"),
            json!({"Source": format!("Prefabs/Group{g}.prefab"), "Patches": patches}),
        );
    }
    let mut level = prefab(900, "Level", 1, Map::new());
    level["Entities"] = json!({"Entity_[9000000]": entity(900, 0, "ContainerEntity", &[])});
    level["Instances"] = Json::Object(level_instances);
    put("Levels/Bench/Bench.prefab", &level);
    bytes
}

/// CPU time (user + system) of this process so far, in seconds, from /proc/self/stat
/// (clock ticks of 10 ms): what a round costs however loaded the machine is.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name.
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let rounds: usize = std::env::var("O3DE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let keep = std::env::var("O3DE_BENCH_KEEP").ok();
    let dir = match &keep {
        Some(d) => Path::new(d).to_path_buf(),
        None => std::env::temp_dir().join(format!("gamewire-flatten-bench-{}", std::process::id())),
    };
    let bytes = write_project(&dir);
    let level = dir.join("Levels/Bench/Bench.prefab");
    let opts = FlattenOptions::default();
    let f = flatten_file(&level, None, &opts).unwrap();
    assert_eq!(f.instances, 100);
    assert_eq!(f.entities.len(), 1 + 1 + 100 * 100 + 100);
    assert!(f.skipped.is_empty());
    let out = gamewire_o3de::envelope::write_json(&f.document);
    println!(
        "flatten: 21 prefab files, {bytes} bytes; {} instances, {} entities, {} patches applied; flattened level {} bytes",
        f.instances,
        f.entities.len(),
        f.patches_applied,
        out.len()
    );
    drop(f);
    let before = load_average();
    let (mut flat, mut flat_cpu, mut write) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let (t, c) = (Instant::now(), cpu_seconds());
        let f = flatten_file(&level, None, &opts).unwrap();
        flat.push(t.elapsed().as_secs_f64());
        flat_cpu.push(cpu_seconds() - c);
        let t = Instant::now();
        let out = gamewire_o3de::envelope::write_json(&f.document);
        write.push(t.elapsed().as_secs_f64());
        std::hint::black_box(out);
        drop(f);
    }
    if rounds > 0 {
        println!(
            "flatten (read, expand, patch, flatten): median {:.3} s wall, {:.2} s CPU; \
             writing the flattened level: median {:.3} s wall ({rounds} rounds; load average {before} before, {} after)",
            median(&mut flat),
            median(&mut flat_cpu),
            median(&mut write),
            load_average()
        );
    }
    if keep.is_none() {
        std::fs::remove_dir_all(&dir).unwrap();
    } else {
        println!("project kept in {}", dir.display());
    }
}
