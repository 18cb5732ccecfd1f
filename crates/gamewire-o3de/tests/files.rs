//! The sample file in samples/o3de: sniffing, the envelope, comments, and the exact
//! canonical JSON of the loaded value.

use gamewire_o3de::{
    decode, envelope::Envelope, parse_json, sniff, store, LoadOptions, Outcome, Registry,
    StoreOptions,
};
use serde_json::json;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/o3de/");

#[test]
fn sniff_claims_only_envelopes() {
    assert!(sniff(
        br#"{"Type": "JsonSerialization", "Version": 1}"#,
        None
    ));
    assert!(sniff(
        b"\xEF\xBB\xBF\n {\n  \"Type\" :\"JsonSerialization\"",
        Some("x.json")
    ));
    assert!(!sniff(br#"{"Type": "Other", "Version": 1}"#, None));
    assert!(!sniff(br#"{"classes": []}"#, Some("o3de-registry.json")));
    assert!(!sniff(b"[1, 2]", None));
    assert!(!sniff(b"FrDT\x00\x00", None));
    let registry = std::fs::read(format!("{SAMPLES}o3de-registry.json")).unwrap();
    assert!(!sniff(&registry, Some("o3de-registry.json")));
}

#[test]
fn sample_entity_decodes_to_canonical_json() {
    let reg = Registry::from_slice(&std::fs::read(format!("{SAMPLES}o3de-registry.json")).unwrap())
        .unwrap();
    let bytes = std::fs::read(format!("{SAMPLES}sample-entity.json")).unwrap();
    assert!(sniff(&bytes, Some("sample-entity.json")));
    let env = Envelope::from_json(&parse_json(&bytes).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(env.class_name, "SampleEntity");
    let ty = reg.parse_type(&env.class_name).unwrap();
    let (v, rep) = decode(&reg, &ty, &bytes, &LoadOptions::default()).unwrap();
    assert_eq!(rep.outcome(), Outcome::PartialDefaults);
    assert!(rep.issues.is_empty(), "{:?}", rep.issues);
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(
        j,
        json!({
            "Id": 523124044,
            "Name": "Crate",
            "Layers": ["Runtime", "Editor"],
            "Components": {
                "Component_[1001]": {
                    "$type": "TransformComponent",
                    "Id": 1001,
                    "Transform Data": {"Translation": [1.0, 2.0, 3.5]}
                },
                "Component_[1002]": {
                    "$type": "MeshComponent",
                    "Id": 1002,
                    "Model": {"assetId": {"guid": "{3E4B1A08-6F6B-5C2D-9A6B-2C9C7A3E1D10}", "subId": 268435456},
                              "assetHint": "objects/crate.azmodel"},
                    "Shadows": "Cast",
                    "Tint": [1.0, 0.501960813999176, 0.0]
                }
            },
            "Tags": ["breakable", "crate", "wooden"],
            "Origin": [4.0, 0.0, 1.5]
        })
    );
    // Syntax errors carry the byte offset.
    let err = decode(&reg, &ty, b"{\n  \"Id\": }", &LoadOptions::default()).unwrap_err();
    assert_eq!(err.offset(), Some(10));
}
