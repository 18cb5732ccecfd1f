//! The engines' own bytes: every vector decodes and re-encodes byte-exact.

use gamewire_godot::*;

fn fixtures(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/godot/vectors/"
    )
    .to_owned()
        + name;
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn vectors(name: &str) -> Vec<(Vec<u8>, String)> {
    fixtures(name)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.splitn(2, '\t');
            let hex = cols.next().unwrap();
            (unhex(hex), cols.next().unwrap_or("").to_owned())
        })
        .collect()
}

#[test]
fn all_godot3_engine_vectors_round_trip_byte_exact() {
    let v = vectors("godot3-engine-vectors.tsv");
    assert_eq!(v.len(), 400);
    let dopts = DecodeOptions::new(Version::V3);
    let eopts = EncodeOptions::new(Version::V3);
    for (i, (bytes, text)) in v.iter().enumerate() {
        let value = decode(bytes, &dopts).unwrap_or_else(|e| panic!("vector {i} ({text}): {e}"));
        let again = encode(&value, &eopts).unwrap_or_else(|e| panic!("vector {i} ({text}): {e}"));
        assert_eq!(&again, bytes, "vector {i}: {text}");
        // And through JSON.
        let json = json::to_json(&value, Version::V3);
        let back =
            json::from_json(&json, Version::V3).unwrap_or_else(|e| panic!("vector {i} json: {e}"));
        assert_eq!(
            encode(&back, &eopts).unwrap(),
            *bytes,
            "vector {i} via JSON: {text}"
        );
        // JSON text too (what the CLI writes and reads).
        let text_json = serde_json::to_string(&json).unwrap();
        let reparsed: serde_json::Value = serde_json::from_str(&text_json).unwrap();
        let back = json::from_json(&reparsed, Version::V3).unwrap();
        assert_eq!(
            encode(&back, &eopts).unwrap(),
            *bytes,
            "vector {i} via JSON text"
        );
    }
}

#[test]
fn godot3_vectors_decode_to_the_values_the_engine_printed() {
    let v = vectors("godot3-engine-vectors.tsv");
    let dopts = DecodeOptions::new(Version::V3);
    // Spot checks against var2str's text.
    let first = decode(&v[0].0, &dopts).unwrap();
    assert_eq!(v[0].1, "[ true ]");
    assert_eq!(first, Value::from(vec![Value::Bool(true)]));
    assert_eq!(v[2].1, "\"0😀😀ééZ😀😀\"");
    assert_eq!(
        decode(&v[2].0, &dopts).unwrap(),
        Value::from("0😀😀ééZ😀😀")
    );
    assert_eq!(v[4].1, "608494584");
    assert_eq!(decode(&v[4].0, &dopts).unwrap(), Value::Int(608494584));
    assert_eq!(v[1].1, "PoolIntArray( -2044961061 )");
    assert_eq!(
        decode(&v[1].0, &dopts).unwrap(),
        Value::PackedInt32Array(vec![-2044961061])
    );
}

#[test]
fn all_godot4_vectors_round_trip_byte_exact() {
    let v = vectors("godot4-vectors.tsv");
    assert!(v.len() >= 15);
    let dopts = DecodeOptions::new(Version::V4);
    let eopts = EncodeOptions::new(Version::V4);
    for (bytes, text) in &v {
        let value = decode(bytes, &dopts).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&encode(&value, &eopts).unwrap(), bytes, "{text}");
        let back = json::from_json(&json::to_json(&value, Version::V4), Version::V4).unwrap();
        assert_eq!(&encode(&back, &eopts).unwrap(), bytes, "{text} via JSON");
    }
}

#[test]
fn godot4_vectors_decode_to_their_described_values() {
    let d = |hex: &str| decode(&unhex(hex), &DecodeOptions::new(Version::V4)).unwrap();
    assert_eq!(
        d("02000100efcdab89674523f1"),
        Value::Int(-1070935975390360081)
    );
    assert_eq!(d("030000000000203e"), Value::Float(0.15625));
    assert_eq!(
        d("03000100555555555555d53f"),
        Value::Float(0.333_333_333_333_333_3)
    );
    let typed = d("1c000100020000000100000002000100efcdab89674523f1");
    let Value::Array(a) = &typed else {
        panic!("{typed:?}")
    };
    assert_eq!(*a.element_type(), ContainerType::Builtin(Kind::Int as u32));
    assert_eq!(a.items, vec![Value::Int(-1070935975390360081)]);
    let dict =
        d("1b00050002000000020000000100000002000100efcdab89674523f102000100efcdab89674523f1");
    let Value::Dictionary(dd) = &dict else {
        panic!()
    };
    assert_eq!(*dd.key_type(), ContainerType::Builtin(2));
    assert_eq!(*dd.value_type(), ContainerType::Builtin(2));
    assert_eq!(d("0600000001000000feffffff"), Value::Vector2i([1, -2]));
    assert_eq!(
        d("150000000200000061620000"),
        Value::StringName("ab".into())
    );
    assert_eq!(
        d("0c0000000000803f000000400000404000008040"),
        Value::Vector4(Box::new(Real::F32([1.0, 2.0, 3.0, 4.0])))
    );
    assert_eq!(
        d("140000000000803f00000000000000000000803f"),
        Value::Color([1.0, 0.0, 0.0, 1.0])
    );
    assert_eq!(
        d("1d0000000300000001020300"),
        Value::PackedByteArray(vec![1, 2, 3])
    );
    assert_eq!(
        d("2200000001000000050000007465737400000000"),
        Value::PackedStringArray(vec!["test".into()])
    );
}
