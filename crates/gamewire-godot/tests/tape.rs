//! The tape and the owned tree are two sinks of the one walker of the grammar
//! (`walk.rs`). These tests check the tape's own part, its navigation, against the
//! engines' bytes (every value on the tape re-encodes to the bytes it stands on) and
//! against the owned tree on random and damaged input (same values, same errors); the
//! walker itself is checked against the engines in `engine_vectors.rs`,
//! `godot4_engine_vectors.rs` and the live engine tests.

mod common;

use common::Rng;
use gamewire_godot::tape::{Tape, ValueRef};
use gamewire_godot::*;

fn vectors(name: &str) -> Vec<Vec<u8>> {
    let path = format!(
        "{}/../../tests/fixtures/godot/vectors/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let hex = l.split('\t').next().unwrap();
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect()
}

/// Walks the tape beside the owned value: every child reached through the tape's
/// navigation, every scalar read through its accessor.
fn check(r: ValueRef<'_, '_>, v: &Value, path: &str) {
    assert_eq!(r.kind(), v.kind(), "{path}");
    match v {
        Value::Array(a) => {
            assert_eq!(r.len(), a.items.len(), "{path}");
            let items: Vec<_> = r.items().collect();
            assert_eq!(items.len(), a.items.len(), "{path}");
            for (i, (ri, vi)) in items.into_iter().zip(&a.items).enumerate() {
                check(ri, vi, &format!("{path}[{i}]"));
            }
        }
        Value::Dictionary(d) => {
            assert_eq!(r.len(), d.entries.len(), "{path}");
            let entries: Vec<_> = r.entries().collect();
            assert_eq!(entries.len(), d.entries.len(), "{path}");
            for (i, ((rk, rv), (k, v))) in entries.into_iter().zip(&d.entries).enumerate() {
                check(rk, k, &format!("{path}<key {i}>"));
                check(rv, v, &format!("{path}.{i}"));
                if let Value::String(s) = k {
                    let got = r.get(s).expect("key found");
                    let want = d.entries.iter().rev().find(|(k2, _)| k2 == k).unwrap();
                    assert_eq!(format!("{:?}", got.to_value()), format!("{:?}", want.1));
                }
            }
        }
        Value::Object(o) => {
            if let Object::Full { properties, .. } = &**o {
                let entries: Vec<_> = r.entries().collect();
                assert_eq!(entries.len(), properties.len(), "{path}");
                for ((rk, rv), (name, value)) in entries.into_iter().zip(properties) {
                    assert_eq!(rk.as_str(), Some(name.as_str()), "{path}");
                    check(rv, value, &format!("{path}.{name}"));
                }
            }
        }
        Value::PackedStringArray(ss) => {
            let items: Vec<_> = r.items().map(|x| x.as_str().unwrap().to_owned()).collect();
            let want: Vec<_> = ss.iter().map(|s| s.to_string()).collect();
            assert_eq!(items, want, "{path}");
        }
        Value::Int(i) => assert_eq!(r.as_int(), Some(*i), "{path}"),
        Value::Bool(b) => assert_eq!(r.as_bool(), Some(*b), "{path}"),
        Value::Float(f) => assert_eq!(r.as_float().map(f64::to_bits), Some(f.to_bits()), "{path}"),
        Value::String(s) | Value::StringName(s) => assert_eq!(r.as_str(), Some(s.as_str())),
        _ => {}
    }
    // Any part converts to the owned value it stands for (Debug: NaN equals NaN).
    assert_eq!(format!("{:?}", r.to_value()), format!("{v:?}"), "{path}");
}

/// The tape and the owned decoder agree on `bytes`: both succeed and match, or both
/// fail with the same error.
fn agree(bytes: &[u8], opts: &DecodeOptions, what: &str) {
    match (decode(bytes, opts), Tape::with_options(bytes, opts)) {
        (Ok(v), Ok(t)) => check(t.root(), &v, what),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{what}"),
        (a, b) => panic!(
            "{what}: decoder {:?}, tape {:?}",
            a.map(|_| ()),
            b.map(|_| ())
        ),
    }
}

/// Every value reachable on the tape of `bytes`, re-encoded, is exactly the engine's
/// bytes where the tape says it starts (its header, then what [`ValueRef::payload`]
/// borrows): the tape's entries stand on the engine's own bytes, with no decoder
/// output compared.
fn stands_on(r: ValueRef<'_, '_>, version: Version, path: &str) {
    let v = r.to_value();
    let again = encode(&v, &EncodeOptions::new(version)).unwrap();
    assert!(
        r.payload().starts_with(&again[4..]),
        "{path}: {v:?} is not the bytes under it"
    );
    // Array items and Dictionary keys and values have headers of their own (Object
    // property names and packed strings do not, and are not values on the wire).
    if matches!(r.kind(), Kind::Array | Kind::Dictionary) {
        for (i, c) in r.children().enumerate() {
            stands_on(c, version, &format!("{path}/{i}"));
        }
    }
}

#[test]
fn every_value_on_the_tape_stands_on_the_engines_bytes() {
    for (file, version) in [
        ("godot3-engine-vectors.tsv", Version::V3),
        ("godot4-vectors.tsv", Version::V4),
    ] {
        let opts = DecodeOptions::new(version).allow_objects(true);
        for (i, bytes) in vectors(file).iter().enumerate() {
            let tape = Tape::with_options(bytes, &opts).unwrap();
            let root = tape.root();
            assert_eq!(
                encode(&root.to_value(), &EncodeOptions::new(version)).unwrap(),
                *bytes,
                "{file} #{i}"
            );
            stands_on(root, version, &format!("{file} #{i}"));
        }
    }
}

#[test]
fn the_engines_vectors_read_alike() {
    for (file, version) in [
        ("godot3-engine-vectors.tsv", Version::V3),
        ("godot4-vectors.tsv", Version::V4),
    ] {
        for allow in [false, true] {
            let opts = DecodeOptions::new(version).allow_objects(allow);
            for (i, bytes) in vectors(file).iter().enumerate() {
                agree(bytes, &opts, &format!("{file} #{i}"));
            }
        }
    }
}

#[test]
fn random_values_and_every_damage_to_them_read_alike() {
    let mut rng = Rng::new(0x7a9e);
    for round in 0..600 {
        let version = if round % 2 == 0 {
            Version::V3
        } else {
            Version::V4
        };
        let opts = DecodeOptions::new(version).allow_objects(true);
        let v = rng.value(version, 4);
        let bytes = encode(&v, &EncodeOptions::new(version)).unwrap();
        agree(&bytes, &opts, &format!("round {round}"));
        // Cut short, grown, and with a byte changed.
        let cut = rng.below(bytes.len() as u64) as usize;
        agree(&bytes[..cut], &opts, &format!("round {round} cut at {cut}"));
        let mut longer = bytes.clone();
        longer.push(0);
        agree(&longer, &opts, &format!("round {round} + 1 byte"));
        for _ in 0..4 {
            let mut bad = bytes.clone();
            let at = rng.below(bad.len() as u64) as usize;
            bad[at] = rng.next() as u8;
            agree(&bad, &opts, &format!("round {round} byte {at} changed"));
        }
    }
}

#[test]
fn depth_limits_and_objects_read_alike() {
    // 3 nested Arrays: refused at depth 2 by both, accepted at 3.
    let nested = [28u32, 1, 28, 1, 28, 0];
    let bytes: Vec<u8> = nested.iter().flat_map(|x| x.to_le_bytes()).collect();
    for depth in 0..4 {
        agree(
            &bytes,
            &DecodeOptions::new(Version::V4).max_depth(depth),
            "nesting",
        );
    }
    // A full object: refused unless allowed, by both.
    let obj = Value::Object(Box::new(Object::Full {
        class: "Node".into(),
        properties: vec![("name".into(), Value::from("hero"))],
    }));
    let bytes = encode(&obj, &EncodeOptions::new(Version::V4)).unwrap();
    for allow in [false, true] {
        agree(
            &bytes,
            &DecodeOptions::new(Version::V4).allow_objects(allow),
            "object",
        );
    }
}
