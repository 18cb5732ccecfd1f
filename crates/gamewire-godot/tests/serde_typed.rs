//! serde: Rust structs straight to and from Variant bytes, identical to encoding the
//! equivalent Value tree.

use gamewire_godot::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Class {
    Knight,
    Mage { mana: u32 },
    Rogue(i64),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    level: u8,
    hp: f64,
    pos: (f32, f32),
    inventory: Vec<String>,
    stats: BTreeMap<String, i64>,
    guild: Option<String>,
    class: Class,
    classes: Vec<Class>,
}

fn sample() -> Player {
    Player {
        name: "Ann".into(),
        level: 12,
        hp: 0.1,
        pos: (1.5, -2.0),
        inventory: vec!["sword".into(), "日本".into()],
        stats: [("str".to_owned(), 5), ("big".to_owned(), 1 << 40)]
            .into_iter()
            .collect(),
        guild: None,
        class: Class::Mage { mana: 30 },
        classes: vec![Class::Knight, Class::Rogue(-1)],
    }
}

fn s(x: &str) -> Value {
    Value::String(x.into())
}

fn dict(entries: Vec<(&str, Value)>) -> Value {
    Value::Dictionary(Dictionary::new(
        entries.into_iter().map(|(k, v)| (s(k), v)).collect(),
    ))
}

#[test]
fn struct_bytes_equal_the_equivalent_value_tree() {
    let expected = dict(vec![
        ("name", s("Ann")),
        ("level", Value::Int(12)),
        ("hp", Value::Float(0.1)),
        (
            "pos",
            Value::from(vec![Value::Float(1.5), Value::Float(-2.0)]),
        ),
        ("inventory", Value::from(vec![s("sword"), s("日本")])),
        (
            "stats",
            dict(vec![("big", Value::Int(1 << 40)), ("str", Value::Int(5))]),
        ),
        ("guild", Value::Nil),
        (
            "class",
            dict(vec![("Mage", dict(vec![("mana", Value::Int(30))]))]),
        ),
        (
            "classes",
            Value::from(vec![s("Knight"), dict(vec![("Rogue", Value::Int(-1))])]),
        ),
    ]);
    for version in [Version::V3, Version::V4] {
        let bytes = to_bytes(&sample(), version).unwrap();
        assert_eq!(
            bytes,
            encode(&expected, &EncodeOptions::new(version)).unwrap()
        );
        assert_eq!(from_bytes::<Player>(&bytes, version).unwrap(), sample());
    }
}

#[test]
fn typed_reads_of_engine_types() {
    // Vector3 reads as a tuple; PackedInt32Array as a Vec; PackedByteArray as bytes.
    let v = dict(vec![
        ("p", Value::Vector3(Real::F32([1.0, 2.0, 3.0]))),
        ("ids", Value::PackedInt32Array(vec![4, 5])),
        ("tag", Value::StringName("x".into())),
        (
            "path",
            Value::NodePath(Box::new(NodePath::parse("/root/a:b"))),
        ),
    ]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct T<'a> {
        p: (f32, f32, f32),
        ids: Vec<i32>,
        tag: &'a str,
        path: String,
    }
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    let t: T = from_bytes(&bytes, Version::V4).unwrap();
    assert_eq!(
        t,
        T {
            p: (1.0, 2.0, 3.0),
            ids: vec![4, 5],
            tag: "x",
            path: "/root/a:b".into()
        }
    );
}

#[test]
fn typed_errors_name_the_field_and_offset() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct T {
        a: Vec<u8>,
    }
    let v = dict(vec![(
        "a",
        Value::from(vec![Value::Int(1), Value::Int(300)]),
    )]);
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    let e = from_bytes::<T>(&bytes, Version::V4).unwrap_err();
    assert!(e.to_string().contains("$.a[1]"), "{e}");
    // Truncated input.
    let e = from_bytes::<T>(&bytes[..bytes.len() - 2], Version::V4).unwrap_err();
    assert!(e.offset().is_some(), "{e}");
}
