//! Hostile registries: sizes that multiply, defaults that would grow exponentially,
//! classes that inherit themselves. Each is a clear error naming the type, found before
//! anything big is built.

use gamewire_o3de::{serde_json, Registry};
use serde_json::json;

#[test]
fn nested_fixed_arrays_whose_sizes_multiply_are_refused() {
    let reg = json!({"classes": [{"name": "Bomb",
        "fields": [{"name": "cells", "type": "array<array<array<u8,2000>,2000>,2000>"}]}]});
    let e = Registry::from_json(&reg).unwrap_err().to_string();
    assert!(e.contains("Bomb") && e.contains("cells"), "{e}");
    assert!(e.contains("array<array<u8,2000>,2000>"), "{e}");
    // A type given on its own (the CLI's --type) is checked the same way.
    let e = Registry::default()
        .parse_type("array<array<array<u8,2000>,2000>,2000>")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("array<array<u8,2000>,2000> would hold 4000000 values"),
        "{e}"
    );
    // Arrays of a modest product are fine.
    assert!(Registry::default()
        .parse_type("array<array<u8,100>,100>")
        .is_ok());
}

/// `levels` classes, each holding `fanout` fields of the next one.
fn chain(levels: usize, fanout: usize) -> serde_json::Value {
    let classes: Vec<_> = (0..levels)
        .map(|l| {
            let fields: Vec<_> = (0..fanout)
                .map(|f| {
                    let ty = if l + 1 == levels {
                        "u8".to_string()
                    } else {
                        format!("L{}", l + 1)
                    };
                    json!({"name": format!("f{f}"), "type": ty})
                })
                .collect();
            json!({"name": format!("L{l}"), "fields": fields})
        })
        .collect();
    json!({ "classes": classes })
}

#[test]
fn exponential_defaults_are_an_error_not_a_build() {
    // 8 fields of the next class, 10 levels deep: 8^10 values if built.
    let e = Registry::from_json(&chain(10, 8)).unwrap_err().to_string();
    assert!(e.contains("past the limit"), "{e}");
    assert!(e.contains("class L"), "{e}");
    // A wide but modest registry builds, each default once.
    let reg = Registry::from_json(&chain(6, 8)).unwrap();
    assert_eq!(reg.classes.len(), 6);
}

#[test]
fn classes_inheriting_or_holding_themselves_are_errors() {
    for reg in [
        json!({"classes": [{"name": "A", "bases": ["A"]}]}),
        json!({"classes": [{"name": "A", "bases": ["B"]}, {"name": "B", "bases": ["A"]}]}),
        json!({"classes": [{"name": "A", "fields": [{"name": "x", "type": "B"}]},
                           {"name": "B", "fields": [{"name": "y", "type": "array<A,2>"}]}]}),
    ] {
        let e = Registry::from_json(&reg).unwrap_err().to_string();
        assert!(e.contains("contains or inherits itself"), "{e}");
    }
    // Through a pointer or a container it is legitimate.
    let ok = json!({"classes": [{"name": "Node", "fields": [
        {"name": "next", "type": "Node*"}, {"name": "kids", "type": "vector<Node>"}]}]});
    assert!(Registry::from_json(&ok).is_ok());
}

#[test]
fn malformed_registries_are_errors() {
    for bad in [
        &b"{"[..],
        br#"{"classes": 5}"#,
        br#"{"classes": [{"fields": []}]}"#,
        br#"{"classes": [{"name": "A", "fields": [{"name": "x", "type": "vector<"}]}]}"#,
    ] {
        assert!(Registry::from_slice(bad).is_err());
        assert!(Registry::from_slice_over_bundled(bad).is_err());
    }
}
