//! Real `project.binary` files from public repositories (tests/fixtures/godot/real,
//! SOURCES.md): decoded as the engine that wrote them, byte-exact back, values read by
//! hand.

use gamewire_godot::project_binary::{decode, encode, to_json};
use gamewire_godot::{Value, Version};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/godot/real/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn get<'a>(s: &'a gamewire_godot::project_binary::Settings, key: &str) -> &'a Value {
    &s.entries.iter().find(|(k, _)| k == key).unwrap().1
}

#[test]
fn real_project_binaries_round_trip() {
    for (file, name, count) in [
        ("cell-game.project.binary", "Cell Game", 8),
        ("game-template.project.binary", "Game Template", 0),
    ] {
        let bytes = fixture(file);
        let s = decode(&bytes, None).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(s.version, Version::V4, "{file}");
        assert_eq!(encode(&s).unwrap(), bytes, "{file}: not byte-exact");
        assert_eq!(
            get(&s, "application/config/name"),
            &Value::String(name.into()),
            "{file}"
        );
        if count > 0 {
            assert_eq!(s.entries.len(), count, "{file}");
        }
        let Value::PackedStringArray(features) = get(&s, "application/config/features") else {
            panic!("{file}: features not a PackedStringArray");
        };
        assert!(
            features.iter().any(|f| f == "Mobile"),
            "{file}: {features:?}"
        );
        let json = to_json(&s).unwrap();
        assert_eq!(
            gamewire_godot::project_binary::from_json(&json, Version::V4).unwrap(),
            s
        );
    }
}

#[test]
fn sources_md_names_them() {
    let path = format!(
        "{}/../../tests/fixtures/godot/real/SOURCES.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let sources = std::fs::read_to_string(path).unwrap();
    for name in ["cell-game.project.binary", "game-template.project.binary"] {
        assert!(sources.contains(&format!("`{name}`")), "{name}");
    }
}

#[test]
fn input_map_events_are_objects() {
    let s = decode(&fixture("game-template.project.binary"), None).unwrap();
    let Value::Dictionary(d) = get(&s, "input/ui_escape") else {
        panic!("input/ui_escape is not a Dictionary");
    };
    let json = serde_json::to_string(&gamewire_godot::json::to_json(
        &Value::Dictionary(d.clone()),
        Version::V4,
    ))
    .unwrap();
    assert!(json.contains("InputEventKey"), "{json}");
}
