//! The `gamewire` binary on real O3DE files with no registry: decode/encode round
//! trips, inspect, `o3de tree`, clear errors.
#![cfg(feature = "o3de")]

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{bin, run_with_stdin};

fn real() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de/real")
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn decode_then_encode_gives_the_prefab_back_byte_for_byte() {
    for name in [
        "mps-2021-SampleBase-level.prefab",
        "mps-HideGemsInGame.scriptcanvas",
        "extras-Controllers.prefab",
    ] {
        let path = real().join(name);
        let original = std::fs::read(&path).unwrap();
        let dec = bin().args(["decode", "o3de"]).arg(&path).output().unwrap();
        ok(&dec);
        assert_eq!(dec.stdout, original, "{name}: decode");
        let enc = run_with_stdin(&["encode", "o3de"], &dec.stdout);
        ok(&enc);
        assert_eq!(enc.stdout, original, "{name}: encode");
        // Compact and back to O3DE's layout: the same bytes again.
        let compact = run_with_stdin(&["decode", "o3de", "--compact"], &original);
        ok(&compact);
        assert!(compact.stdout.len() < original.len(), "{name}");
        let back = run_with_stdin(&["encode", "o3de"], &compact.stdout);
        ok(&back);
        assert_eq!(back.stdout, original, "{name}: compact then pretty");
    }
}

#[test]
fn hand_written_files_keep_their_document_and_their_layout() {
    // A pass with comments and a settings file indented with tabs: the document is
    // plain JSON (members, order and numbers), the comments and white space are kept in
    // the header, and `encode o3de` gives the file back.
    for name in ["mps-PostProcessParent.pass", "mps-editorpreferences.setreg"] {
        let path = real().join(name);
        let original = std::fs::read(&path).unwrap();
        let dec = bin()
            .args(["decode", "o3de", "--compact"])
            .arg(&path)
            .output()
            .unwrap();
        ok(&dec);
        assert!(
            String::from_utf8_lossy(&dec.stderr).contains("\"$gamewire\" header"),
            "{name}: the note says why the output has a header"
        );
        let doc: serde_json::Value = serde_json::from_slice(&dec.stdout).unwrap();
        let b = gamewire::o3de::parse_json(&original).unwrap();
        assert_eq!(doc["data"], b, "{name}");
        assert!(doc["$gamewire"]["gaps"].is_object() || doc["$gamewire"]["indent"].is_string());
        let back = run_with_stdin(&["encode", "o3de"], &dec.stdout);
        ok(&back);
        assert_eq!(back.stdout, original, "{name}");
    }
}

#[test]
fn output_file_is_written_whole_and_errors_name_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.prefab");
    let path = real().join("mps-Sound_Effect.prefab");
    let o = bin()
        .args(["decode", "o3de"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    ok(&o);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&path).unwrap());
    // A broken file: one line naming the byte offset, and the output left alone.
    let o = run_with_stdin(
        &["decode", "o3de", "-o", out.to_str().unwrap()],
        b"{\n    \"Entities\": {\n        \"a\": 1,\n        2\n    }\n}",
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("at byte 44 "), "{err}");
    assert!(err.contains("member name"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&path).unwrap());
    // ObjectStream XML is recognised and refused plainly.
    let o = bin()
        .args(["decode", "o3de"])
        .arg(real().join("extras-no_friction.physxmaterial"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("ObjectStream XML"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn o3de_tree_prints_the_hierarchy() {
    let o = bin()
        .args(["o3de", "tree"])
        .arg(real().join("o3de-ForceRegion_PrefabInstantiates-level.prefab"))
        .output()
        .unwrap();
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Level  <ContainerEntity> id Entity_[1146574390643]"
    );
    assert!(
        lines[1].starts_with("  = EditorInspectorComponent, "),
        "{text}"
    );
    assert_eq!(lines[2], "  SphereRigidBody  <Entity_[556095354126]>");
    assert!(lines[3].contains("EditorColliderComponent, "), "{text}");
    assert!(
        lines[4].starts_with("  ^ Instance_[444426204430]  Source: "),
        "{text}"
    );
    assert!(lines[4].ends_with("(4 patches)"), "{text}");
    // A file that is not a prefab says so.
    let o = bin()
        .args(["o3de", "tree"])
        .arg(real().join("asv-SelectorPass.pass"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a prefab"));
}

#[test]
fn inspect_reads_every_real_file_without_a_registry() {
    let o = bin().arg("inspect").arg(real()).output().unwrap();
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    let files = std::fs::read_dir(real())
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .path()
                .to_string_lossy()
                .ends_with(".md")
        })
        .count();
    assert_eq!(text.matches(": o3de (").count(), files, "{text}");
    assert!(!text.contains("unknown format"), "{text}");
    assert!(!text.contains("error:"), "{text}");
    assert!(
        text.contains("prefab: 1 entities (+ container), 1 nested instances"),
        "{text}"
    );
    assert!(
        text.contains("envelope version 1: ClassName ScriptCanvasData"),
        "{text}"
    );
    assert!(text.contains("asset references: "), "{text}");
    assert!(
        text.contains("UUIDs (1 distinct): {27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}\n"),
        "{text}"
    );
    assert!(
        text.contains("entity ids (2 distinct): ContainerEntity, Entity_[627996395636]\n"),
        "{text}"
    );
    assert!(
        text.contains("ObjectStream XML (the older serialization"),
        "{text}"
    );
    // The README's first command still works on the samples.
    let o = bin()
        .arg("inspect")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples"))
        .output()
        .unwrap();
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("Sound_Effect.prefab: o3de"), "{text}");
    assert!(text.contains("SelectorPass.pass: o3de"), "{text}");
}

#[test]
fn a_registry_beside_the_file_is_used_only_for_classes_it_knows() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de");
    // The prefab's components are checked by the registry (each as its `$type`) and the
    // pass names a class the sample registry does not hold: both are written as read.
    for name in ["Sound_Effect.prefab", "SelectorPass.pass"] {
        let path = samples.join(name);
        let o = bin().args(["decode", "o3de"]).arg(&path).output().unwrap();
        ok(&o);
        assert_eq!(o.stdout, std::fs::read(&path).unwrap(), "{name}");
    }
    // The sample entity's class is in it: typed load, report on stderr.
    let o = bin()
        .args(["decode", "o3de"])
        .arg(samples.join("sample-entity.json"))
        .output()
        .unwrap();
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"load\""));
    // --envelope has no class to write: a prefab has none, a pass needs --type.
    let o = bin()
        .args(["decode", "o3de", "--envelope"])
        .arg(samples.join("Sound_Effect.prefab"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("a prefab has none"));
    let o = bin()
        .args(["decode", "o3de", "--envelope"])
        .arg(samples.join("SelectorPass.pass"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--envelope needs --type"));
}

#[test]
fn the_json_gamewire_writes_for_other_formats_is_not_claimed() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut checked = 0;
    for (format, file) in [
        ("godot3", "godot/save.godot3.bin"),
        ("resonite", "resonite/item.brson"),
        ("resonite", "resonite/legacy-item.lz4bson"),
        ("zeze", "zeze/BSimple.zeze"),
        ("zeze", "zeze/Final.zeze"),
    ] {
        let o = bin()
            .args(["decode", format])
            .arg(samples.join(file))
            .output()
            .unwrap();
        ok(&o);
        for name in [None, Some("out.json")] {
            assert_eq!(gamewire::detect(&o.stdout, name), None, "{file} {name:?}");
        }
        checked += 1;
    }
    // The side files beside the samples, too.
    for file in ["kingsisle/types.json", "o3de/o3de-registry.json"] {
        let data = std::fs::read(samples.join(file)).unwrap();
        assert_eq!(gamewire::detect(&data, None), None, "{file}");
    }
    // And every real O3DE file is claimed by o3de, by name and (for JSON ones with a
    // sign) by content.
    for e in std::fs::read_dir(real()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            continue;
        }
        let data = std::fs::read(&p).unwrap();
        assert_eq!(
            gamewire::detect(&data, Some(&name)),
            Some(gamewire::Format::O3de),
            "{name}"
        );
    }
    assert_eq!(checked, 5);
}

#[test]
fn with_a_registry_decode_keeps_the_input_unless_canonical_is_asked() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de");
    let entity = samples.join("sample-entity.json");
    // The registry beside it knows the class: checked and reported, written as it was.
    let kept = bin()
        .args(["decode", "o3de"])
        .arg(&entity)
        .output()
        .unwrap();
    ok(&kept);
    assert!(String::from_utf8_lossy(&kept.stderr).contains("\"load\""));
    let as_written = bin()
        .args(["decode", "o3de", "--schema", "/dev/null"])
        .arg(&entity)
        .output()
        .unwrap();
    // (a registry that does not read is an error, not a silent fallback)
    assert!(!as_written.status.success());
    let canonical = bin()
        .args(["decode", "o3de", "--canonical"])
        .arg(&entity)
        .output()
        .unwrap();
    ok(&canonical);
    assert_ne!(
        kept.stdout, canonical.stdout,
        "canonical form differs from the input"
    );
    // Decode then encode gives back the file, registry or not: the sample holds
    // comments, which the document's header keeps.
    let back = run_with_stdin(&["encode", "o3de"], &kept.stdout);
    ok(&back);
    assert_eq!(back.stdout, std::fs::read(&entity).unwrap());
    let text = String::from_utf8(kept.stdout).unwrap();
    assert!(
        text.contains("\"0x1F2E3D4C\"") && text.contains("\"$gamewire\"") && text.contains("//"),
        "{text}"
    );
}

#[test]
fn diff_and_patch_are_quiet_on_success_and_report_on_failure_or_verbose() {
    let dir = std::env::temp_dir().join(format!("gamewire-o3de-quiet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("s.json");
    let target = dir.join("t.json");
    let patch = dir.join("p.json");
    std::fs::write(&source, r#"{"a": 1, "b": [1, 2]}"#).unwrap();
    std::fs::write(&target, r#"{"a": 2, "b": [1]}"#).unwrap();
    for merge in [&[][..], &["--merge"][..]] {
        let diff = bin()
            .args(["o3de", "diff"])
            .args(merge)
            .arg(&source)
            .arg(&target)
            .arg("-o")
            .arg(&patch)
            .output()
            .unwrap();
        ok(&diff);
        assert_eq!(String::from_utf8_lossy(&diff.stderr), "", "diff {merge:?}");
        let applied = bin()
            .args(["o3de", "patch"])
            .args(merge)
            .arg(&source)
            .arg(&patch)
            .output()
            .unwrap();
        ok(&applied);
        assert_eq!(
            String::from_utf8_lossy(&applied.stderr),
            "",
            "patch {merge:?}"
        );
        let a = gamewire::o3de::parse_json(&applied.stdout).unwrap();
        let b = gamewire::o3de::parse_json(&std::fs::read(&target).unwrap()).unwrap();
        assert_eq!(a, b);
        // --verbose prints the report of a success.
        let verbose = bin()
            .args(["o3de", "patch", "--verbose"])
            .args(merge)
            .arg(&source)
            .arg(&patch)
            .output()
            .unwrap();
        ok(&verbose);
        let err = String::from_utf8_lossy(&verbose.stderr);
        assert!(
            err.contains("\"patch\"") && err.contains("Completed"),
            "{err}"
        );
    }
    // A failure prints its report and exits 1.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"[{"op": "remove", "path": "/nope"}]"#).unwrap();
    let failed = bin()
        .args(["o3de", "patch"])
        .arg(&source)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("\"patch\"") && err.contains("Halted"), "{err}");
    assert!(failed.stdout.is_empty());
}

/// `o3de tree` of a prefab whose 100,000 entities form one parent chain: every entity
/// printed, the text in proportion to the file (indentation stops at 32 levels and the
/// real depth is written instead), where two spaces a level made about 20 GB.
#[test]
fn o3de_tree_of_a_long_parent_chain_stays_in_proportion() {
    use std::fmt::Write as _;
    let n = 100_000;
    let mut s = String::from(
        r#"{"ContainerEntity": {"Id": "ContainerEntity", "Name": "C"}, "Entities": {"#,
    );
    for i in 0..n {
        let parent = if i == 0 {
            "ContainerEntity".to_string()
        } else {
            format!("Entity_[{}]", i - 1)
        };
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            r#""Entity_[{i}]": {{"Id": "Entity_[{i}]", "Name": "e{i}", "Components": {{"T": {{"$type": "TransformComponent", "Parent Entity": "{parent}"}}}}}}"#
        );
    }
    s.push_str("}}");
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("o3de-chain-100k.prefab");
    std::fs::write(&file, &s).unwrap();
    let o = bin().args(["o3de", "tree"]).arg(&file).output().unwrap();
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 2 + 2 * n);
    assert!(
        text.len() < 2 * s.len(),
        "{} bytes of text for {} bytes of prefab",
        text.len(),
        s.len()
    );
    let last = format!(
        "\n{}[depth {n}] e{}  <Entity_[{}]>\n",
        "  ".repeat(32),
        n - 1,
        n - 1
    );
    assert!(text.contains(&last), "{}", &text[text.len() - 300..]);
}

#[test]
fn patch_writes_o3de_layout_so_only_the_patched_lines_change() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("t.json");
    std::fs::write(
        &target,
        "{\n    \"a\": 1,\n    \"b\": {\n        \"c\": [\n            1,\n            2\n        ]\n    }\n}\n",
    )
    .unwrap();
    let patch = dir.path().join("p.json");
    std::fs::write(&patch, r#"[{"op": "replace", "path": "/a", "value": 5}]"#).unwrap();
    let o = bin()
        .args(["o3de", "patch"])
        .arg(&target)
        .arg(&patch)
        .output()
        .unwrap();
    ok(&o);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "{\n    \"a\": 5,\n    \"b\": {\n        \"c\": [\n            1,\n            2\n        ]\n    }\n}\n"
    );
}

#[test]
fn registry_import_of_a_whole_class_dump_prints_one_line_unless_verbose() {
    let dump = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/o3de/real-registry/exporter-ScriptDebug_dumped_classes.json");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reg.json");
    let o = bin()
        .args(["o3de", "registry", "import"])
        .arg(&dump)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("imported") && err.contains("classes"), "{err}");
    let o = bin()
        .args(["o3de", "registry", "import", "--verbose"])
        .arg(&dump)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"unmapped\""));
    let report = dir.path().join("report.json");
    let o = bin()
        .args(["o3de", "registry", "import"])
        .arg(&dump)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    ok(&o);
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
    let full: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(full["import"]["classes"].as_u64().unwrap() > 0);
}

#[test]
fn decode_with_a_registry_loads_a_prefabs_components_by_their_own_types() {
    let prefab = real().join("mps-2021-Player.prefab");
    let reg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de/o3de-registry.json");
    let o = bin()
        .args(["decode", "o3de", "--schema"])
        .arg(&reg)
        .arg(&prefab)
        .output()
        .unwrap();
    ok(&o);
    // Written back as it was, with the per-component report (no "--type is required").
    assert_eq!(o.stdout, std::fs::read(&prefab).unwrap());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("\"components\": 25") && err.contains("\"typed\""),
        "{err}"
    );
}

fn real_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de/real-levels")
}

#[test]
fn flatten_writes_the_level_with_its_nested_prefabs() {
    let level = real_levels()
        .join("o3de-AutomatedTesting/Levels/Physics/ForceRegion_PrefabInstantiates/ForceRegion_PrefabInstantiates.prefab");
    let dir = std::env::temp_dir().join(format!("gamewire-flatten-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, map) = (dir.join("flat.prefab"), dir.join("map.json"));
    let o = bin()
        .args(["o3de", "flatten"])
        .arg(&level)
        .arg("-o")
        .arg(&out)
        .arg("--map")
        .arg(&map)
        .args(["--root-alias", "Instance_[1]"])
        .output()
        .unwrap();
    ok(&o);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    // O3DE's layout, ending with a newline.
    assert!(
        text.starts_with("{\n    \"ContainerEntity\": {"),
        "{}",
        &text[..60]
    );
    assert!(text.ends_with("}\n"));
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let c = &doc["Entities"]["Instance_[444426204430]/ContainerEntity"];
    assert_eq!(c["Id"], "Instance_[444426204430]/ContainerEntity");
    let t = &c["Components"]["Component_[12139419543189750104]"];
    assert_eq!(t["Parent Entity"], "Entity_[1146574390643]");
    assert_eq!(t["Transform Data"]["Translate"][1], 84.13999938964844);
    let rows: serde_json::Value = serde_json::from_slice(&std::fs::read(&map).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows[3]["path"],
        "Instance_[444426204430]/Entity_[453016139022]"
    );
    assert_eq!(rows[3]["instance"], "Instance_[444426204430]");
    assert_eq!(
        rows[3]["source"],
        "Levels/Physics/ForceRegion_PrefabInstantiates/ForceRegionEntity.prefab"
    );
    assert!(rows[3]["id"].as_u64().is_some());

    // A patch that fails: exit 1, the message names the chain, index and path, and
    // nothing is written.
    let project = dir.join("p");
    std::fs::create_dir_all(project.join("Levels")).unwrap();
    std::fs::write(project.join("project.json"), "{}").unwrap();
    std::fs::write(
        project.join("Child.prefab"),
        r#"{"ContainerEntity": {"Id": "ContainerEntity", "Name": "C"}}"#,
    )
    .unwrap();
    std::fs::write(
        project.join("Levels/L.prefab"),
        r#"{"Instances": {"Instance_[7]": {"Source": "Child.prefab", "Patches": [
            {"op": "remove", "path": "/Entities/Entity_[1]"}]}}}"#,
    )
    .unwrap();
    let never = dir.join("never.prefab");
    let o = bin()
        .args(["o3de", "flatten"])
        .arg(project.join("Levels/L.prefab"))
        .arg("-o")
        .arg(&never)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("instance Instance_[7] (Levels/L.prefab > Child.prefab): patch 0 (remove /Entities/Entity_[1]) failed"),
        "{err}"
    );
    assert!(!never.exists());
    // --keep-going: skipped as O3DE skips it, said on stderr, exit 0.
    let o = bin()
        .args(["o3de", "flatten", "--keep-going"])
        .arg(project.join("Levels/L.prefab"))
        .output()
        .unwrap();
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("skipped: instance Instance_[7]"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn o3de_tree_flatten_shows_nested_entities_under_their_parents() {
    let level = real_levels().join("mps/Levels/SpawningPerfTest/SpawningPerfTest.prefab");
    let o = bin()
        .args(["o3de", "tree", "--flatten"])
        .arg(&level)
        .output()
        .unwrap();
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    // The nested prefab's container under the level entity its patch names, its entity
    // under it, wrapped components by their own type.
    let spawner = text
        .find("  Test Spawner  <Entity_[947961075516]>")
        .expect(&text);
    let nested = text
        .find("    Test_Net_Object  <Instance_[414131786087]/ContainerEntity>")
        .expect(&text);
    let inner = text
        .find("      Test Net Object  <Instance_[414131786087]/Entity_[428599321104]>")
        .expect(&text);
    assert!(spawner < nested && nested < inner, "{text}");
    assert!(text.contains("NetBindComponent (wrapped)"), "{text}");
    assert!(
        !text.contains("^ Instance_"),
        "no unexpanded instances: {text}"
    );
    // Without --flatten the instance is shown as it is written.
    let o = bin().args(["o3de", "tree"]).arg(&level).output().unwrap();
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("^ Instance_[414131786087]  Source: Prefabs/Test_Net_Object.prefab"));
}
