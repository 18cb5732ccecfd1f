//! Property tests: value -> container -> value, and value -> JSON -> value, keep every
//! value and numeric type, for each compression.

use gamewire_resonite::value::CodeWithScope;
use gamewire_resonite::{
    decode, encode, json, read_bson, read_bson_in, Arena, Compression, Document, EncodeOptions,
    Options, Value,
};
use proptest::prelude::*;

mod common;
use common::{
    bson_crate, bytes_of, common_leaf, document_of, json_texts, same_values, samples, value_of,
};

/// Any value, plain `f64`s among the leaves.
fn value() -> impl Strategy<Value = Value<'static>> {
    value_of(prop_oneof![
        17 => common_leaf(),
        1 => any::<f64>().prop_map(Value::Double),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn bson_and_json_round_trip(doc in document_of(value())) {
        let bson = bytes_of(&doc);
        // what we write, an independent reader (the `bson` crate) reads as the document
        // (it refuses old-subtype binary whose inner length disagrees, which we keep)
        match bson_crate(&bson) {
            Ok(theirs) => {
                prop_assert!(bytes_of(&theirs) == bson, "the bson crate reads another document");
                prop_assert!(same_values(&Value::Document(theirs), &Value::Document(doc.clone())));
            }
            Err(e) => prop_assert!(e.contains("old binary subtype"), "{}", e),
        }
        let back = read_bson(&bson, &Options::default()).unwrap();
        prop_assert_eq!(bytes_of(&back), bson.clone());
        // into an arena: the same tree
        let arena = Arena::new();
        let in_arena = read_bson_in(&bson, &arena, &Options::default()).unwrap();
        prop_assert!(same_values(&Value::Document(in_arena), &Value::Document(back.clone())));
        let j = json::document_to_json(&back, 1024).unwrap();
        // through text, as the CLI does
        let text = serde_json::to_string(&j).unwrap();
        let j2: serde_json::Value = serde_json::from_str(&text).unwrap();
        let from = json::document_from_json(&j2, 1024).unwrap();
        prop_assert_eq!(bytes_of(&from), bson);
    }

    #[test]
    fn containers_round_trip(doc in document_of(value()), c in 0usize..4, legacy in any::<bool>()) {
        let compression = Compression::ALL[c];
        let legacy = legacy && compression != Compression::None;
        let opts = EncodeOptions { legacy, ..EncodeOptions::new(compression) };
        let file = encode(&doc, &opts).unwrap();
        let name = format!("x.{}", compression.extension());
        let got = decode(&file, Some(&name), &Options::default()).unwrap();
        prop_assert_eq!(got.container.compression, compression);
        prop_assert_eq!(bytes_of(got.document()), bytes_of(&doc));
    }
}

#[test]
fn json_keeps_numeric_types_through_each_compression() {
    let text = r#"{"i32": 5, "i64": {"$numberLong": "5"}, "f": 5.0, "big": 3000000000,
        "neg0": -0.0, "inf": {"$numberDouble": "-Infinity"}, "d": {"$date": {"$numberLong": "1"}},
        "b": {"$binary": {"base64": "AAEC", "subType": "04"}}, "n": null,
        "esc": {"$entries": [["$type", 1], ["a", 2]]}}"#;
    let j: serde_json::Value = serde_json::from_str(text).unwrap();
    let doc = json::document_from_json(&j, 1024).unwrap();
    assert_eq!(doc.get("i32"), Some(&Value::Int32(5)));
    assert_eq!(doc.get("i64"), Some(&Value::Int64(5)));
    assert_eq!(doc.get("f"), Some(&Value::Double(5.0)));
    assert_eq!(doc.get("big"), Some(&Value::Int64(3_000_000_000)));
    for c in Compression::ALL {
        let file = encode(&doc, &EncodeOptions::new(c)).unwrap();
        let got = decode(&file, None, &Options::default()).unwrap();
        let back = json::document_to_json(got.document(), 1024).unwrap();
        let expected = serde_json::json!({
            "i32": 5, "i64": {"$numberLong": "5"}, "f": 5.0, "big": {"$numberLong": "3000000000"},
            "neg0": -0.0, "inf": {"$numberDouble": "-Infinity"}, "d": {"$date": {"$numberLong": "1"}},
            "b": {"$binary": {"base64": "AAEC", "subType": "04"}}, "n": null,
            "esc": {"$entries": [["$type", 1], ["a", 2]]}
        });
        assert_eq!(back, expected, "{c}");
        assert_eq!(serde_json::to_string(&back["f"]).unwrap(), "5.0");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn the_json_view_writes_the_text_of_document_to_json(doc in document_of(value())) {
        use gamewire_resonite::json_view::{DocumentView, ValueView};
        let tree = json::document_to_json(&doc, 1024).unwrap();
        prop_assert_eq!(json_texts(&DocumentView::new(&doc)), json_texts(&tree));
        for (_, v) in &doc.entries {
            prop_assert_eq!(json_texts(&ValueView::new(v)), json_texts(&json::value_to_json(v, 1024).unwrap()));
        }
    }
}

#[test]
fn the_json_view_writes_the_text_of_document_to_json_on_every_sample() {
    use gamewire_resonite::json_view::DocumentView;
    let samples = samples();
    assert_eq!(samples.len(), 7);
    for (name, data) in &samples {
        let d = decode(data, Some(name), &Options::default()).unwrap();
        let tree = json::document_to_json(d.document(), 1024).unwrap();
        assert_eq!(
            json_texts(&DocumentView::new(d.document())),
            json_texts(&tree),
            "{name}"
        );
    }
    // Every escape of the mapping in one document: `$` keys, a repeated key, scope code.
    let mut doc = Document::new();
    doc.push("$x", Value::Null);
    doc.push(
        "$x",
        Value::Array(vec![Value::Double(f64::NAN), Value::Double(-0.0)].into()),
    );
    let mut plain = Document::new();
    plain.push("a", Value::Document(doc.clone()));
    plain.push(
        "s",
        Value::JavaScriptWithScope(Box::new(CodeWithScope {
            code: "f".into(),
            scope: doc,
        })),
    );
    let tree = json::document_to_json(&plain, 1024).unwrap();
    assert_eq!(json_texts(&DocumentView::new(&plain)), json_texts(&tree));
}
