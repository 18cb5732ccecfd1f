//! Real O3DE files from public O3DE projects (tests/fixtures/o3de/real, sources in its
//! SOURCES.md): recognition, the registry-free round trip, the prefab tree, and what
//! the summary finds.

use gamewire_o3de::doc::{Document, Layout, Node, Syntax, MAX_DEPTH};
use gamewire_o3de::infer::summarize;
use gamewire_o3de::layout::Style;
use gamewire_o3de::prefab::PrefabTree;
use gamewire_o3de::recognize::{kind_from_name, recognize, FileKind};
use std::path::{Path, PathBuf};

fn real_files() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/o3de/real");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .map(|p: PathBuf| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn ext(name: &str) -> &str {
    name.rsplit_once('.').unwrap().1
}

#[test]
fn there_are_twenty_or_more_of_many_kinds() {
    let files = real_files();
    assert!(files.len() >= 20, "{} files", files.len());
    for e in [
        "prefab",
        "setreg",
        "material",
        "materialtype",
        "azasset",
        "pass",
        "scriptcanvas",
    ] {
        assert!(
            files.iter().any(|(n, _)| ext(n) == e),
            "no .{e} file among the fixtures"
        );
    }
}

#[test]
fn every_file_is_recognised_by_name_and_json_ones_by_content_too() {
    for (name, data) in real_files() {
        let kind = recognize(&data, Some(&name));
        assert!(kind.is_some(), "{name} not recognised");
        if data.starts_with(b"<ObjectStream") {
            assert_eq!(kind, Some(FileKind::ObjectStreamXml), "{name}");
            continue;
        }
        assert_eq!(kind, kind_from_name(&name), "{name}");
        // Without its name: prefabs by their members, enveloped files by the envelope;
        // settings and materials have no sign of their own and stay unknown.
        let anonymous = recognize(&data, None);
        let text = String::from_utf8_lossy(&data);
        match ext(&name) {
            "prefab" => assert_eq!(anonymous, Some(FileKind::Prefab), "{name}"),
            _ if text.contains("\"JsonSerialization\"") => {
                assert_eq!(anonymous, Some(FileKind::Serialized), "{name}")
            }
            _ => assert_eq!(anonymous, None, "{name}"),
        }
        // Renamed to .json, the content still decides.
        assert_eq!(recognize(&data, Some("renamed.json")), anonymous, "{name}");
    }
}

/// Files O3DE's own tools save (the editor, the material editor, Script Canvas):
/// indented by its PrettyWriter, so they come back byte for byte.
fn saved_by_o3de(name: &str) -> bool {
    matches!(ext(name), "prefab" | "scriptcanvas" | "material")
}

#[test]
fn untyped_round_trip_gives_the_same_document_and_the_same_bytes_when_o3de_wrote_them() {
    let mut identical = 0;
    for (name, data) in real_files() {
        if data.starts_with(b"<ObjectStream") {
            continue;
        }
        let syntax = Syntax::of(&data, Some(&name));
        let doc = Document::parse_with(&data, MAX_DEPTH, syntax)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let pretty = doc.write(Layout::Pretty);
        if pretty == data {
            identical += 1;
        } else {
            assert!(!saved_by_o3de(&name), "{name} not byte-identical");
        }
        // The same document: same members in the same order, same number and string
        // text (what the parser keeps), in both layouts.
        for layout in [Layout::Pretty, Layout::Compact] {
            let text = doc.write(layout);
            let again = Document::parse(&text).unwrap();
            assert_eq!(again.root, doc.root, "{name} {layout:?}");
            // An independent reader sees the same values too.
            assert_eq!(
                gamewire_o3de::parse_json(&text).unwrap(),
                gamewire_o3de::parse_json_with(&data, syntax).unwrap(),
                "{name}"
            );
        }
    }
    assert!(identical >= 15, "{identical} byte-identical files");
}

#[test]
fn every_file_keeps_its_layout_byte_for_byte() {
    let mut kept = 0;
    for (name, data) in real_files() {
        if data.starts_with(b"<ObjectStream") {
            continue;
        }
        let syntax = Syntax::of(&data, Some(&name));
        let doc = Document::parse_with(&data, MAX_DEPTH, syntax).unwrap();
        let style = Style::detect(&data, &doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(style.write(&doc), data, "{name}");
        // O3DE's own files need nothing beyond the document; hand-written ones keep
        // their comments, trailing commas, tabs and CRLF.
        if saved_by_o3de(&name) {
            assert!(style.gaps.is_empty(), "{name}: {:?}", style.gaps);
        } else if !style.is_plain() {
            kept += 1;
        }
    }
    assert!(kept >= 8, "{kept} files with a layout of their own");
}

#[test]
fn trailing_commas_are_read_where_o3de_reads_them() {
    // The settings registry file of O3DE's project template: a trailing comma before a
    // closing brace, which the settings registry accepts.
    for name in [
        "o3de-template-quality.setreg",
        "o3de-terrain-system_materials.setreg",
    ] {
        let data = fixture(name);
        assert_eq!(Syntax::of(&data, Some(name)), Syntax::SETTINGS);
        let doc = Document::parse_with(&data, MAX_DEPTH, Syntax::SETTINGS).unwrap();
        let style = Style::detect(&data, &doc).unwrap();
        assert!(style.gaps.values().any(|g| g.trailing_comma), "{name}");
        // An asset reader (comments only) refuses it, naming the comma.
        let e = Document::parse(&data).unwrap_err();
        assert!(e.to_string().contains("trailing comma"), "{name}: {e}");
        assert_eq!(data[e.offset().unwrap()], b',', "{name}");
        assert!(gamewire_o3de::parse_json(&data).is_err());
        let v = gamewire_o3de::parse_json_with(&data, Syntax::SETTINGS).unwrap();
        assert!(v["O3DE"].is_object(), "{name}");
    }
    let v =
        gamewire_o3de::parse_json_with(&fixture("o3de-template-quality.setreg"), Syntax::SETTINGS)
            .unwrap();
    assert_eq!(
        v["O3DE"]["Quality"]["Groups"]["q_graphics"]["Settings"]["q_shadows"],
        serde_json::json!([0, 1, 2, 3])
    );
}

#[test]
fn crlf_two_spaces_and_tabs_are_detected() {
    let data = fixture("o3de-viewport-crlf.setreg");
    let doc = Document::parse_with(&data, MAX_DEPTH, Syntax::SETTINGS).unwrap();
    let s = Style::detect(&data, &doc).unwrap();
    assert_eq!((s.indent.as_str(), s.newline.as_str()), ("  ", "\r\n"));
    assert!(
        s.gaps.is_empty() && s.texts.is_empty() && s.final_newline,
        "{s:?}"
    );
    let data = fixture("o3de-mobile-Forward-crlf.pass");
    let doc = Document::parse(&data).unwrap();
    let s = Style::detect(&data, &doc).unwrap();
    assert_eq!(s.newline, "\r\n");
    let data = fixture("o3de-asset_browser_excludes-tabs.setreg");
    let doc = Document::parse(&data).unwrap();
    let s = Style::detect(&data, &doc).unwrap();
    assert_eq!(s.indent, "    ");
    // The one line indented with tabs is kept as it is.
    assert_eq!(s.gaps.len(), 1, "{s:?}");
    assert!(s
        .gaps
        .values()
        .next()
        .unwrap()
        .before
        .as_ref()
        .unwrap()
        .contains('\t'));
}

#[test]
fn numbers_keep_the_digits_o3de_wrote() {
    // rapidjson writes 17 significant digits where a shortest round trip needs 16:
    // -3.9142520427703859 would come back as -3.914252042770386 through an f64.
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/o3de/real/mps-2021-SampleBase-level.prefab"),
    )
    .unwrap();
    let text = String::from_utf8(data.clone()).unwrap();
    assert!(text.contains("-3.9142520427703859"));
    let out = Document::parse(&data).unwrap().write(Layout::Compact);
    assert!(String::from_utf8(out)
        .unwrap()
        .contains("-3.9142520427703859"));
    let through_f64 = serde_json::to_string(&gamewire_o3de::parse_json(&data).unwrap()).unwrap();
    assert!(!through_f64.contains("-3.9142520427703859"));
}

/// Counts the entities of a prefab independently of the tree: members of `Entities`.
fn entity_count(root: &Node<'_>) -> usize {
    root.get("Entities")
        .and_then(Node::members)
        .map_or(0, |m| m.len())
}

#[test]
fn every_prefab_gives_a_tree_with_each_entity_once() {
    let mut prefabs = 0;
    for (name, data) in real_files() {
        if ext(&name) != "prefab" {
            continue;
        }
        prefabs += 1;
        let doc = Document::parse(&data).unwrap();
        let tree = PrefabTree::from_node(&doc.root).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Read straight from the bytes, the same tree.
        assert_eq!(PrefabTree::parse(&data).unwrap(), tree, "{name}");
        assert_eq!(tree.entities.len(), entity_count(&doc.root), "{name}");
        let text = tree.render();
        for e in &tree.entities {
            let tag = format!("  <{}>", e.alias);
            assert_eq!(text.matches(&tag).count(), 1, "{name}: {tag}\n{text}");
        }
        assert!(!text.contains("parent cycle"), "{name}\n{text}");
        assert!(!text.contains("not in this file"), "{name}\n{text}");
        assert!(text.contains("<ContainerEntity>"), "{name}\n{text}");
    }
    assert!(prefabs >= 8);
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/o3de/real")
            .join(name),
    )
    .unwrap()
}

#[test]
fn the_2021_level_and_the_engine_test_level() {
    // 2021: the container's id is Entity_[…], entities name it as their parent, and the
    // Player instance is parented to it by a patch ("../Entity_[356758116574]").
    let data = fixture("mps-2021-SampleBase-level.prefab");
    let doc = Document::parse(&data).unwrap();
    let t = PrefabTree::from_node(&doc.root).unwrap();
    assert_eq!(
        t.source.as_deref(),
        Some("Levels/SampleBase/SampleBase.prefab")
    );
    assert_eq!(t.instances.len(), 1);
    assert_eq!(
        t.instances[0].source.as_deref(),
        Some("Prefabs/Player.prefab")
    );
    assert_eq!(t.instances[0].patches, 4);
    assert_eq!(
        t.instances[0].parent.as_deref(),
        Some("Entity_[356758116574]")
    );
    let text = t.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# Source: Levels/SampleBase/SampleBase.prefab");
    assert_eq!(
        lines[1],
        "Level  <ContainerEntity> id Entity_[356758116574]"
    );
    assert!(
        text.contains("\n  Ground and Sky  <Entity_[412839637138]>\n"),
        "{text}"
    );
    assert!(text.contains("AZ::Render::EditorMeshComponent"), "{text}");
    assert!(
        text.ends_with(
            "  ^ Instance_[1488107002186]  Source: Prefabs/Player.prefab  (4 patches)\n"
        ),
        "{text}"
    );

    let data = fixture("o3de-ForceRegion_PrefabInstantiates-level.prefab");
    let doc = Document::parse(&data).unwrap();
    let text = PrefabTree::from_node(&doc.root).unwrap().render();
    assert_eq!(
        text.lines().nth(2),
        Some("  SphereRigidBody  <Entity_[556095354126]>"),
        "{text}"
    );
    assert!(text.contains(
        "\n  ^ Instance_[444426204430]  Source: Levels/Physics/ForceRegion_PrefabInstantiates/ForceRegionEntity.prefab  (4 patches)\n"
    ));
}

#[test]
fn summaries_of_real_files() {
    // A level with a mesh: its model and material are asset references with hints.
    let data = fixture("mps-2021-SampleBase-level.prefab");
    let doc = Document::parse(&data).unwrap();
    let s = summarize(&doc.root);
    assert!(!s.assets.is_empty());
    assert!(
        s.assets
            .iter()
            .all(|a| gamewire_o3de::infer::is_uuid(&a.guid)),
        "{:?}",
        s.assets
    );
    assert!(s.assets.iter().any(|a| a.hint.is_some()), "{:?}", s.assets);
    assert!(s
        .types
        .iter()
        .any(|(t, _)| t == "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent"));
    assert!(s
        .uuids
        .iter()
        .any(|u| u == "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}"));
    assert!(s.entity_ids.iter().any(|e| e == "Entity_[356758116574]"));
    // A Script Canvas graph in the envelope: its types and entity id objects.
    let data = fixture("mps-HideGemsInGame.scriptcanvas");
    let doc = Document::parse(&data).unwrap();
    assert_eq!(
        doc.root.get("ClassName").and_then(Node::as_str).as_deref(),
        Some("ScriptCanvasData")
    );
    let s = summarize(&doc.root);
    assert!(s.types.len() > 5, "{:?}", s.types);
    assert!(
        s.entity_ids.iter().any(|e| e.starts_with("{\"id\": ")),
        "{:?}",
        s.entity_ids
    );
}
