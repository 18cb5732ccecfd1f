//! Every real save file in tests/fixtures/godot/real (see SOURCES.md there): content
//! detection names the version its name gives, every `store_var` record decodes, the
//! decoded values re-encode to the very same bytes, and one value per file, read by hand
//! from the bytes (and where possible from the game's own script), comes out right.

use gamewire_godot::framing::{decode_framed_all, encode_framed_into};
use gamewire_godot::probe::{probe, Framing, Verdict};
use gamewire_godot::*;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/godot/real")
}

/// The save files in the folder (every file but SOURCES.md and the `project.binary`
/// files, which tests/real_project_binary.rs reads), sorted by name.
fn files() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "SOURCES.md")
        .filter(|p| !p.to_string_lossy().ends_with(".project.binary"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The version the file name gives (`NAME.godot3.save` / `NAME.godot4.save`).
fn version_of(name: &str) -> Version {
    match sniff_version(b"\0", Some(name)) {
        Some(3) => Version::V3,
        Some(4) => Version::V4,
        other => panic!("{name}: the name gives no version ({other:?})"),
    }
}

fn records(name: &str) -> Vec<Value> {
    let bytes = std::fs::read(dir().join(name)).unwrap();
    decode_framed_all(&bytes, &DecodeOptions::new(version_of(name))).unwrap()
}

#[test]
fn the_folder_holds_the_files_sources_md_lists() {
    let sources = std::fs::read_to_string(dir().join("SOURCES.md")).unwrap();
    let files = files();
    assert_eq!(
        files.len(),
        8,
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (name, _) in &files {
        assert!(
            sources.contains(&format!("`{name}`")),
            "{name} not in SOURCES.md"
        );
    }
}

#[test]
fn every_real_file_is_detected_with_its_version_and_framing() {
    for (name, bytes) in files() {
        let version = version_of(&name);
        let Verdict::One { best, same } = probe(&bytes) else {
            panic!("{name}: not recognised: {:?}", probe(&bytes));
        };
        // Files holding only types both versions write alike (ints, floats, bools) read
        // the same under either version: the probe names Godot 4 and lists Godot 3 in
        // `same`. The true version must be the best reading or one of those.
        let right = |r: &probe::Reading| r.version == version && r.framing == Framing::Framed;
        assert!(
            right(&best) || same.iter().any(right),
            "{name}: read as {best:?} (also {same:?})"
        );
        assert_eq!(best.framing, Framing::Framed, "{name}");
    }
}

#[test]
fn every_real_file_decodes_whole_and_re_encodes_byte_exact() {
    for (name, bytes) in files() {
        let version = version_of(&name);
        let values = decode_framed_all(&bytes, &DecodeOptions::new(version))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!values.is_empty(), "{name}");
        let mut again = Vec::new();
        for v in &values {
            encode_framed_into(v, &EncodeOptions::new(version), &mut again).unwrap();
        }
        let first_diff = again.iter().zip(&bytes).position(|(a, b)| a != b);
        assert!(
            again == bytes,
            "{name}: re-encoded {} bytes of {}, first difference at {first_diff:?}",
            again.len(),
            bytes.len()
        );
    }
}

fn dict(v: &Value) -> &Dictionary {
    match v {
        Value::Dictionary(d) => d,
        other => panic!("not a Dictionary: {other:?}"),
    }
}

fn items(v: &Value) -> &[Value] {
    match v {
        Value::Array(a) => &a.items,
        other => panic!("not an Array: {other:?}"),
    }
}

#[test]
fn rogue_like_holds_its_health() {
    let r = records("rogue-like-save_file.godot3.save");
    assert_eq!(r.len(), 1);
    assert_eq!(dict(&r[0]).get("health"), Some(&Value::Int(100)));
}

#[test]
fn retrofps_settings_are_twelve_records() {
    let r = records("retrofps-settings.godot3.save");
    // options.gd stores saved_fps first, then saved_fullscreen, ...
    assert_eq!(r.len(), 12);
    assert_eq!(r[0], Value::Float(240.0));
    assert_eq!(r[1], Value::Bool(true));
    assert_eq!(r[8], Value::Int(1));
}

#[test]
fn restlife_stores_objects_as_instance_ids() {
    let r = records("restlife-savegame.godot4.save");
    assert_eq!(r.len(), 1);
    let d = dict(&r[0]);
    assert_eq!(d.entries.len(), 4);
    // Header 0x00010018 (OBJECT with ENCODE_FLAG_OBJECT_AS_ID), then the u64 id.
    assert_eq!(
        d.get("Player"),
        Some(&Value::Object(Box::new(Object::Id(0x12_4800_07cb))))
    );
}

#[test]
fn just_dino_holds_a_high_score() {
    assert_eq!(records("just-dino-savegame.godot4.save"), [Value::Int(41)]);
}

#[test]
fn bom_reader_holds_a_node_path_and_strings() {
    let r = records("bom-reader-savegame.godot4.save");
    assert_eq!(r.len(), 1);
    let d = dict(&r[0]);
    assert_eq!(d.get("lang_2").and_then(Value::as_str), Some("spa"));
    assert_eq!(
        d.get("filename").and_then(Value::as_str),
        Some("res://main.tscn")
    );
    let Some(Value::NodePath(p)) = d.get("parent") else {
        panic!("parent: {:?}", d.get("parent"));
    };
    assert!(p.same_path(&NodePath::parse("/root")), "{p:?}");
}

#[test]
fn jaws_of_time_attacks_are_five_arrays() {
    let r = records("jaws-of-time-attacks.godot4.save");
    // BattleGeneration.gd: store_var(atk_id) ... store_var(mana_cost), five arrays.
    assert_eq!(r.len(), 5);
    let ints = |v: &Value| -> Vec<i64> {
        items(v)
            .iter()
            .map(|x| match x {
                Value::Int(i) => *i,
                other => panic!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(ints(&r[0]), [0, 3, 2, 1]);
    assert_eq!(ints(&r[1]), [1, 2, 2, -3, 10]);
    assert_eq!(ints(&r[4]), [1, -2, 2, 5, 0]);
}

#[test]
fn blasto_x_keeps_godot3_64_bit_floats() {
    let r = records("blasto-x-save_data.godot3.save");
    assert_eq!(r.len(), 1);
    let d = dict(&r[0]);
    assert_eq!(
        d.get("stage_saved").and_then(Value::as_str),
        Some("defeat vine")
    );
    // Header 0x00010003: a Godot 3 REAL with ENCODE_FLAG_64, the f64 7ce2238520f924c0.
    assert_eq!(
        d.get("musicValue"),
        Some(&Value::Float(-10.486576233511407))
    );
    assert_eq!(d.get("fullscreen"), Some(&Value::Bool(false)));
}

#[test]
fn blasto_x_earlier_save_is_a_godot3_object_id() {
    // Header 0x00010011: Godot 3 OBJECT (17) with ENCODE_FLAG_OBJECT_AS_ID, id 0x78a.
    assert_eq!(
        records("blasto-x-save_data_dat.godot3.save"),
        [Value::Object(Box::new(Object::Id(1930)))]
    );
}
