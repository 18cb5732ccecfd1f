//! Hostile `$import`s and JSON Patches: confinement to the importing file's folder,
//! bounds on count, depth and total size, cycles, special files, and patch bombs.

use gamewire_o3de::import::{
    resolve_imports, resolve_imports_with, FileImporter, ImportOptions, MemoryImporter,
};
use gamewire_o3de::patch::apply_patch;
use gamewire_o3de::Outcome;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

fn files(list: Vec<(String, Json)>) -> MemoryImporter {
    MemoryImporter(
        list.into_iter()
            .map(|(p, j)| (PathBuf::from(p), j))
            .collect(),
    )
}

fn message(r: &gamewire_o3de::import::ImportResult) -> String {
    r.report
        .issues
        .iter()
        .map(|i| i.message.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn paths_outside_the_folder_are_refused() {
    for name in [
        "/etc/passwd",
        "../../x.json",
        "sub/../../x.json",
        "/dev/zero",
    ] {
        let mut imp = files(vec![
            ("/etc/passwd".into(), json!({})),
            ("x.json".into(), json!({})),
            ("/dev/zero".into(), json!({})),
        ]);
        let mut doc = json!({"v": {"$import": name}});
        let r = resolve_imports(&mut doc, "proj/dir/main.json".as_ref(), &mut imp);
        assert_eq!(r.report.outcome(), Outcome::Catastrophic, "{name}");
        let m = message(&r);
        assert!(
            m.contains("outside the importing file's folder"),
            "{name}: {m}"
        );
        assert!(m.contains("--allow-import"), "{m}");
        assert!(r.imported.is_empty(), "{name}: nothing read");
    }
    // Below the folder is fine, and --allow-import opens a path.
    let mut imp = files(vec![
        ("proj/dir/sub/a.json".into(), json!({"a": 1})),
        ("/etc/passwd".into(), json!({"root": 0})),
    ]);
    let mut doc = json!({"v": {"$import": "sub/a.json"}});
    let r = resolve_imports(&mut doc, "proj/dir/main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Success, "{}", message(&r));
    let opts = ImportOptions::default().allow_path("/etc");
    let mut doc = json!({"v": {"$import": "/etc/passwd"}});
    let r = resolve_imports_with(&mut doc, "proj/dir/main.json".as_ref(), &mut imp, &opts);
    assert_eq!(r.report.outcome(), Outcome::Success, "{}", message(&r));
    assert_eq!(doc, json!({"v": {"root": 0}}));
}

#[test]
fn an_alias_may_not_climb_out_with_dotdot() {
    let opts = ImportOptions::default().alias("engroot", "/engine");
    let mut imp = files(vec![("/etc/x.json".into(), json!({}))]);
    let mut doc = json!({"v": {"$import": "@engroot@/../etc/x.json"}});
    let r = resolve_imports_with(&mut doc, "main.json".as_ref(), &mut imp, &opts);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(message(&r).contains("outside"), "{}", message(&r));
}

#[test]
fn fan_out_stops_quickly_at_the_size_limit() {
    // f0 imports f1 twice, f1 imports f2 twice ... 25 levels: 2^25 copies of f25.
    let mut list = Vec::new();
    for i in 0..25 {
        let next = format!("f{}.json", i + 1);
        list.push((
            format!("f{i}.json"),
            json!({"a": {"$import": next}, "b": {"$import": next}, "pad": [1, 2, 3, 4]}),
        ));
    }
    list.push(("f25.json".into(), json!({"leaf": [1, 2, 3, 4, 5, 6, 7, 8]})));
    let mut imp = files(list);
    let mut doc = json!({"$import": "f0.json"});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    let m = message(&r);
    assert!(
        m.contains("expand past the limit") || m.contains("imports in all"),
        "{m}"
    );
    // Each file was read once and the work stopped at the limit.
    assert!(r.imported.len() <= 10_000, "{}", r.imported.len());
    // A modest fan-out (2^6 copies) resolves.
    let mut list = Vec::new();
    for i in 0..6 {
        let next = format!("g{}.json", i + 1);
        list.push((
            format!("g{i}.json"),
            json!({"a": {"$import": next}, "b": {"$import": next}}),
        ));
    }
    list.push(("g6.json".into(), json!(7)));
    let mut doc = json!({"$import": "g0.json"});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut files(list));
    assert_eq!(r.report.outcome(), Outcome::Success, "{}", message(&r));
    assert_eq!(doc["a"]["b"]["a"]["b"]["a"]["b"], 7);
}

#[test]
fn long_chains_and_many_imports_are_bounded() {
    let mut list = Vec::new();
    for i in 0..100 {
        list.push((
            format!("c{i}.json"),
            json!({"n": {"$import": format!("c{}.json", i + 1)}}),
        ));
    }
    list.push(("c100.json".into(), json!(1)));
    let mut doc = json!({"$import": "c0.json"});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut files(list));
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(message(&r).contains("files deep"), "{}", message(&r));

    let opts = ImportOptions {
        max_imports: 10,
        ..ImportOptions::default()
    };
    let items: Vec<Json> = (0..20).map(|_| json!({"$import": "one.json"})).collect();
    let mut doc = Json::Array(items);
    let mut imp = files(vec![("one.json".into(), json!(1))]);
    let r = resolve_imports_with(&mut doc, "main.json".as_ref(), &mut imp, &opts);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(
        message(&r).contains("more than 10 imports"),
        "{}",
        message(&r)
    );
}

#[test]
fn a_cycle_names_the_file() {
    let mut imp = files(vec![
        ("a.json".into(), json!({"x": {"$import": "b.json"}})),
        ("b.json".into(), json!({"y": {"$import": "a.json"}})),
    ]);
    let mut doc = json!({"$import": "a.json"});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(
        message(&r).contains("'a.json' was already imported"),
        "{}",
        message(&r)
    );
}

#[test]
fn special_files_are_not_read() {
    let dir = std::env::temp_dir().join(format!("gamewire-o3de-special-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    // A folder named like a file, and (allowed explicitly) a device.
    let mut doc = json!({"v": {"$import": "sub"}});
    let r = resolve_imports(&mut doc, &dir.join("main.json"), &mut FileImporter);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(
        message(&r).contains("not a regular file"),
        "{}",
        message(&r)
    );
    let opts = ImportOptions::default().allow_path("/dev");
    let mut doc = json!({"v": {"$import": "/dev/zero"}});
    let r = resolve_imports_with(&mut doc, &dir.join("main.json"), &mut FileImporter, &opts);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(
        message(&r).contains("not a regular file"),
        "{}",
        message(&r)
    );
    // A named pipe in the folder: opening it would wait for a writer forever.
    #[cfg(unix)]
    {
        let fifo = dir.join("pipe.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let mut doc = json!({"v": {"$import": "pipe.json"}});
            let r = resolve_imports(&mut doc, &dir.join("main.json"), &mut FileImporter);
            assert_eq!(r.report.outcome(), Outcome::Catastrophic);
            assert!(
                message(&r).contains("not a regular file"),
                "{}",
                message(&r)
            );
        } else {
            println!("skipped the FIFO case: mkfifo is not available");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_patch_of_self_copies_stops_at_the_growth_limit() {
    // 40 operations each copying the whole array into itself: 2^40 values.
    let ops: Vec<Json> = (0..40)
        .map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"}))
        .collect();
    let patch = Json::Array(ops);
    assert!(serde_json::to_string(&patch).unwrap().len() < 2200);
    let mut doc = json!({"a": [1, 2, 3, 4]});
    let r = apply_patch(&mut doc, &patch);
    assert_eq!(r.outcome(), Outcome::Catastrophic);
    let m: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
    assert!(m.iter().any(|m| m.contains("past the limit")), "{m:?}");
    // A handful of copies is ordinary.
    let ops: Vec<Json> = (0..4)
        .map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"}))
        .collect();
    let mut doc = json!({"a": [1]});
    let r = apply_patch(&mut doc, &Json::Array(ops));
    assert_eq!(r.outcome(), Outcome::Success);
    assert_eq!(doc["a"][1], json!([1]));
}

#[test]
#[cfg(unix)]
fn a_symbolic_link_out_of_the_folder_is_refused() {
    let top = std::env::temp_dir().join(format!("gamewire-o3de-link-{}", std::process::id()));
    let dir = top.join("project");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(top.join("secret.json"), "[1]").unwrap();
    let _ = std::fs::remove_file(dir.join("link.json"));
    std::os::unix::fs::symlink(top.join("secret.json"), dir.join("link.json")).unwrap();
    std::fs::write(dir.join("real.json"), "[2]").unwrap();
    let mut doc = json!({"a": {"$import": "link.json"}});
    let r = resolve_imports(&mut doc, &dir.join("main.json"), &mut FileImporter);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(message(&r).contains("outside"), "{}", message(&r));
    let mut doc = json!({"a": {"$import": "real.json"}});
    let r = resolve_imports(&mut doc, &dir.join("main.json"), &mut FileImporter);
    assert_eq!(r.report.outcome(), Outcome::Success, "{}", message(&r));
    assert_eq!(doc, json!({"a": [2]}));
    std::fs::remove_dir_all(&top).ok();
}

#[test]
fn copies_of_a_long_string_count_its_bytes() {
    // One 1 MiB string, copied 1,000 times by a 60 KB patch: 1 GiB of text, which a
    // count of values alone (1,000 values) lets through.
    let big = "x".repeat(1 << 20);
    let ops: Vec<Json> = (0..1000)
        .map(|_| json!({"op": "copy", "from": "/s", "path": "/a/-"}))
        .collect();
    let mut doc = json!({"s": big, "a": []});
    let r = apply_patch(&mut doc, &Json::Array(ops));
    assert_eq!(r.outcome(), Outcome::Catastrophic);
    let m: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
    assert!(m.iter().any(|m| m.contains("past the limit")), "{m:?}");
    // The document grew by at most twice what came in plus 4 MiB (about 7 copies).
    let text = serde_json::to_string(&doc).unwrap().len();
    assert!(text < 10 << 20, "document grew to {text} bytes");
    // A copy or two of the same string is ordinary.
    let ops: Vec<Json> = (0..2)
        .map(|_| json!({"op": "copy", "from": "/s", "path": "/a/-"}))
        .collect();
    let mut doc = json!({"s": "x".repeat(1 << 20), "a": []});
    let r = apply_patch(&mut doc, &Json::Array(ops));
    assert_eq!(r.outcome(), Outcome::Success);
    assert_eq!(doc["a"].as_array().unwrap().len(), 2);
}

#[test]
fn imports_of_a_long_string_count_its_bytes() {
    // One file of a 4 MiB string imported 1,000 times: 4 GiB of text from 4 MiB read.
    let big = json!({"s": "y".repeat(4 << 20)});
    let mut imp = files(vec![("big.json".into(), big)]);
    let members: serde_json::Map<String, Json> = (0..1000)
        .map(|i| (format!("k{i}"), json!({"$import": "big.json"})))
        .collect();
    let mut doc = Json::Object(members);
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    let m = message(&r);
    assert!(m.contains("expand past the limit"), "{m}");
    // A few imports of it are fine.
    let mut imp = files(vec![("big.json".into(), json!({"s": "y".repeat(4 << 20)}))]);
    let mut doc = json!({"a": {"$import": "big.json"}, "b": {"$import": "big.json"}});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Success, "{}", message(&r));
}
