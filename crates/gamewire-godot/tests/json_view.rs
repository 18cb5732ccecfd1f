//! The streamed JSON view writes exactly the text `to_json` gives: on the engines'
//! vectors and on random values of every type.

mod common;

use common::Rng;
use gamewire_godot::json::{to_json, JsonView};
use gamewire_godot::*;

fn same_text(v: &Value, version: Version, what: &str) {
    let tree = serde_json::to_string(&to_json(v, version)).unwrap();
    let streamed = serde_json::to_string(&JsonView::new(v, version)).unwrap();
    assert_eq!(streamed, tree, "{what}");
    let pretty_tree = serde_json::to_string_pretty(&to_json(v, version)).unwrap();
    let pretty = serde_json::to_string_pretty(&JsonView::new(v, version)).unwrap();
    assert_eq!(pretty, pretty_tree, "{what} (pretty)");
}

#[test]
fn the_view_writes_what_to_json_writes() {
    for (file, version) in [
        ("godot3-engine-vectors.tsv", Version::V3),
        ("godot4-vectors.tsv", Version::V4),
    ] {
        let path = format!(
            "{}/../../tests/fixtures/godot/vectors/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let opts = DecodeOptions::new(version).allow_objects(true);
        for (i, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
            let hex = line.split('\t').next().unwrap();
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            if let Ok(v) = decode(&bytes, &opts) {
                same_text(&v, version, &format!("{file} #{i}"));
            }
        }
    }
    let mut rng = Rng::new(0x5eed);
    for round in 0..500 {
        let version = if round % 2 == 0 {
            Version::V3
        } else {
            Version::V4
        };
        let v = rng.value(version, 5);
        same_text(&v, version, &format!("random #{round}"));
    }
    // Objects with repeated property names and typed containers take the pair forms.
    let obj = Value::Object(Box::new(Object::Full {
        class: "Node".into(),
        properties: vec![("a".into(), Value::Int(1)), ("a".into(), Value::Int(2))],
    }));
    same_text(&obj, Version::V4, "repeated properties");
}
