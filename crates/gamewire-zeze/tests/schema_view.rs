//! `SchemaView` writes the text of `Schema::decode`'s value, and fails with its errors,
//! on the fixture beans, on beans of a solution with every awkward shape (levels, a name
//! declared twice, `_unknown`, repeated map keys, dynamics, conversions), and on random
//! bytes and random mutations of valid beans.

use gamewire_zeze::json::unhex;
use gamewire_zeze::schema::Schema;
use gamewire_zeze::schema_view::SchemaView;
use gamewire_zeze::Options;
use proptest::prelude::*;
use serde_json::{json, Value as J};

mod common;
use common::files::sample_schema;

/// What a decode gives: the compact and pretty text, or the error's text.
fn outcome_tree(
    s: &Schema,
    name: &str,
    bytes: &[u8],
    opts: &Options,
) -> Result<[String; 2], String> {
    let j = s.decode(name, bytes, opts).map_err(|e| e.to_string())?;
    Ok([
        serde_json::to_string(&j).unwrap(),
        serde_json::to_string_pretty(&j).unwrap(),
    ])
}

fn outcome_view(
    s: &Schema,
    name: &str,
    bytes: &[u8],
    opts: &Options,
) -> Result<[String; 2], String> {
    let v = SchemaView::new(s, name, bytes, opts).map_err(|e| e.to_string())?;
    Ok([
        serde_json::to_string(&v).unwrap(),
        serde_json::to_string_pretty(&v).unwrap(),
    ])
}

fn same(s: &Schema, name: &str, bytes: &[u8], opts: &Options) -> bool {
    let (t, v) = (
        outcome_tree(s, name, bytes, opts),
        outcome_view(s, name, bytes, opts),
    );
    assert_eq!(t, v, "{name}: {}", gamewire_zeze::json::hex(bytes));
    t.is_ok()
}

const AWKWARD: &str = r#"<solution name="w">
  <bean name="Base"><variable id="1" name="x" type="int"/><variable id="2" name="b" type="string"/></bean>
  <bean name="Mid" base="Base"><variable id="1" name="m" type="long"/><variable id="3" name="v" type="vector3"/></bean>
  <bean name="Leaf" base="Mid">
    <variable id="1" name="e" type="Empty"/>
    <variable id="2" name="names" type="map[string,Mid]"/>
    <variable id="4" name="ids" type="map[int,float]"/>
    <variable id="5" name="flags" type="map[bool,string]"/>
    <variable id="6" name="pairs" type="map[vector2int,Base]"/>
    <variable id="7" name="d" type="dynamic"><value bean="Base:3"/><value bean="Leaf:4"/></variable>
    <variable id="8" name="ds" type="list[dynamic]"><value bean="Mid:5"/></variable>
    <variable id="9" name="bs" type="list[Base]"/>
    <variable id="10" name="q" type="quaternion"/>
    <variable id="11" name="bin" type="binary"/>
    <variable id="12" name="dec" type="decimal"/>
    <variable id="13" name="ok" type="bool"/>
    <variable id="14" name="f" type="float"/>
    <variable id="15" name="g" type="double"/>
    <variable id="16" name="by" type="byte"/>
    <variable id="17" name="sh" type="short"/>
    <variable id="40" name="far" type="set[long]"/>
  </bean>
  <bean name="Empty"/>
  <bean name="Twice" base="Base"><variable id="1" name="x" type="string"/><variable id="2" name="_unknown" type="Base"/></bean>
  <bean name="Holder"><variable id="1" name="t" type="Twice"/><variable id="2" name="ts" type="list[Twice]"/><variable id="3" name="l" type="Leaf"/></bean>
</solution>"#;

fn awkward() -> Schema {
    Schema::from_xml(AWKWARD).unwrap()
}

fn leaf_json() -> J {
    json!({
        "x": 5, "b": "base", "m": -9, "v": [1.5, 0.0, -2.0],
        "e": {},
        "names": {"a": {"m": 1}, "b": {"b": "x"}},
        "ids": {"3": 1.25, "-7": 0.5},
        "flags": {"true": "t"},
        "pairs": [[[1, 2], {"x": 3}]],
        "d": {"type_id": 4, "value": {"x": 1, "d": {"type_id": 3, "value": {"x": 2}}}},
        "ds": [{"type_id": 5, "value": {"m": 2}}, {"type_id": 99, "value": {"1": 7}}],
        "bs": [{"x": 1}, {}, {"b": "z"}],
        "q": [0.0, 1.0, 0.0, 0.5],
        "bin": "00ff10", "dec": "1.50", "ok": true, "f": 0.1, "g": 1e300,
        "by": -3, "sh": 300, "far": [1, 2, 3]
    })
}

#[test]
fn fixture_beans_write_the_same_text() {
    let s = sample_schema();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/vectors/vectors.json"
    );
    let v: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let names = ["BSimple", "BOuter", "Final", "Final"];
    let mut n = 0;
    for (i, b) in v["beans"].as_array().unwrap().iter().enumerate() {
        let bytes = unhex(b["hex"].as_str().unwrap()).unwrap();
        assert!(same(&s, names[i], &bytes, &Options::default()));
        n += 1;
        // Every bean of the solution reads the empty bean, and each fixture as whatever
        // it is (errors included).
        for name in s.bean_names() {
            same(&s, name, &bytes, &Options::default());
            same(&s, name, &[0], &Options::default());
            same(&s, name, &[1, 1, 0], &Options::default());
        }
    }
    assert_eq!(n, 4);
}

#[test]
fn awkward_beans_write_the_same_text() {
    let s = awkward();
    let leaf = s.encode("Leaf", &leaf_json()).unwrap();
    assert!(same(&s, "Leaf", &leaf, &Options::default()));
    let holder = json!({
        "t": {"b": "q"},
        "ts": [{"b": "a"}, {}, {"b": "u"}],
        "l": leaf_json(),
    });
    let bytes = s.encode("Holder", &holder).unwrap();
    assert!(same(&s, "Holder", &bytes, &Options::default()));
    for name in s.bean_names() {
        same(&s, name, &leaf, &Options::default());
        same(&s, name, &bytes, &Options::default());
    }
    // Depth limits give the same error.
    for d in 0..6 {
        same(&s, "Holder", &bytes, &Options { max_depth: d });
    }
}

#[test]
fn repeated_text_keys_keep_the_first_place_and_the_last_value() {
    let s = awkward();
    // Leaf field 4: ids map[int,float], 3 entries: 1 -> 1.0, 2 -> 2.0, 1 -> 3.0
    // (map header: key type integer 0, value type float 1).
    let mut b = Vec::new();
    // Leaf's own level: tag (delta 4, map 5) = 0x45.
    b.extend([0x45, 0x01, 3]);
    for (k, f) in [(1u8, 1.0f32), (2, 2.0), (1, 3.0)] {
        b.push(k);
        b.extend(f.to_le_bytes());
    }
    b.extend([1, 1, 0]); // Mid level, Base level, end
    assert!(same(&s, "Leaf", &b, &Options::default()));
    let v = SchemaView::new(&s, "Leaf", &b, &Options::default()).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    assert!(text.contains(r#""ids":{"1":3.0,"2":2.0}"#), "{text}");
    // Bool keys: 1 and 2 are both true.
    let mut b = vec![0x55, 0x03, 2, 1, 1, b'a', 2, 1, b'b', 1, 1, 0];
    assert!(same(&s, "Leaf", &b, &Options::default()));
    assert!(
        serde_json::to_string(&SchemaView::new(&s, "Leaf", &b, &Options::default()).unwrap())
            .unwrap()
            .contains(r#""flags":{"true":"b"}"#)
    );
    b[1] = 0x13; // float keys for bool: converted, 2 entries read differently or an error
    same(&s, "Leaf", &b, &Options::default());
    b[1] = 0x73; // a dynamic key: an error, the same one
    same(&s, "Leaf", &b, &Options::default());
}

#[test]
fn the_defaults_budget_stops_both_the_same_way() {
    let vars: String = (1..=40)
        .map(|i| format!(r#"<variable id="{i}" name="v{i}" type="long"/>"#))
        .collect();
    let xml = format!(
        r#"<solution name="s"><bean name="E">{vars}</bean>
           <bean name="H"><variable id="1" name="items" type="list[E]"/></bean></solution>"#
    );
    let s = Schema::from_xml(&xml).unwrap();
    // 4,000 empty beans of 40 defaults: past 4 per byte + 65,536.
    let n: u32 = 4000;
    let rest = n - 15;
    let mut b = vec![0x14, 0xf6, 0x80 | (rest >> 8) as u8, rest as u8];
    b.extend(std::iter::repeat(0).take(n as usize));
    b.push(0);
    let e = outcome_view(&s, "H", &b, &Options::default()).unwrap_err();
    assert!(e.contains("expand past the limit"), "{e}");
    assert!(!same(&s, "H", &b, &Options::default()));
    // 1,000 of them fit.
    let rest = 1000 - 15;
    let mut b = vec![0x14, 0xf6, 0x80 | (rest >> 8) as u8, rest as u8];
    b.extend(std::iter::repeat(0).take(1000));
    b.push(0);
    assert!(same(&s, "H", &b, &Options::default()));
}

fn valid_inputs() -> Vec<(Schema, &'static str, Vec<u8>)> {
    let a = awkward();
    let leaf = a.encode("Leaf", &leaf_json()).unwrap();
    let holder = a
        .encode(
            "Holder",
            &json!({"t": {"b": "s"}, "ts": [{"b": "a"}], "l": leaf_json()}),
        )
        .unwrap();
    let s = sample_schema();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/vectors/vectors.json"
    );
    let v: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let outer = unhex(v["beans"][1]["hex"].as_str().unwrap()).unwrap();
    vec![
        (a.clone(), "Leaf", leaf),
        (a, "Holder", holder),
        (s, "BOuter", outer),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn mutated_beans_give_the_same_text_or_error(
        which in 0usize..3,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..4),
    ) {
        let inputs = valid_inputs();
        let (s, name, mut b) = inputs[which].clone();
        for (at, byte, op) in edits {
            if b.is_empty() { break; }
            let i = at.index(b.len());
            match op {
                0 => b[i] = byte,
                1 => b.truncate(i),
                2 => b.insert(i, byte),
                _ => { b.remove(i); }
            }
        }
        same(&s, name, &b, &Options::default());
        same(&s, name, &b, &Options { max_depth: 3 });
    }

    #[test]
    fn random_bytes_give_the_same_text_or_error(
        b in proptest::collection::vec(any::<u8>(), 0..48),
    ) {
        let a = awkward();
        for name in ["Leaf", "Holder", "Twice", "Empty"] {
            same(&a, name, &b, &Options::default());
        }
        let s = sample_schema();
        for name in s.bean_names() {
            same(&s, name, &b, &Options::default());
        }
    }
}
