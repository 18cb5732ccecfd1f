//! Property tests: value -> container -> value, and value -> JSON -> value, keep every
//! value and numeric type, for each compression.

use gamewire_resonite::value::{CodeWithScope, Regex};
use gamewire_resonite::{
    bson_write, decode, encode, json, read_bson, Compression, Document, EncodeOptions, Options,
    Value,
};
use proptest::prelude::*;
use std::borrow::Cow;

fn key() -> impl Strategy<Value = String> {
    // no NUL in keys; '$' keys exercise the $entries escape
    "[a-zA-Z$_][a-zA-Z0-9 _.\u{e9}]{0,8}"
}

fn leaf() -> impl Strategy<Value = Value<'static>> {
    prop_oneof![
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        any::<f64>().prop_map(Value::Double),
        any::<u64>().prop_map(|b| Value::Double(f64::from_bits(b))),
        ".{0,12}".prop_map(|s| Value::String(Cow::Owned(s))),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        any::<i64>().prop_map(Value::DateTime),
        (any::<u8>(), proptest::collection::vec(any::<u8>(), 0..20)).prop_map(|(subtype, b)| {
            Value::Binary {
                subtype,
                bytes: Cow::Owned(b),
            }
        }),
        any::<[u8; 12]>().prop_map(Value::ObjectId),
        (any::<u32>(), any::<u32>())
            .prop_map(|(time, increment)| Value::Timestamp { time, increment }),
        any::<[u8; 16]>().prop_map(Value::Decimal128),
        Just(Value::Undefined),
        Just(Value::MinKey),
        Just(Value::MaxKey),
        ("[a-z]{0,4}", "[imx]{0,2}").prop_map(|(p, o)| Value::Regex(Box::new(Regex {
            pattern: p.into(),
            options: o.into()
        }))),
        "[a-z]{0,6}".prop_map(|s| Value::Symbol(s.into())),
        "[a-z]{0,6}".prop_map(|s| Value::JavaScript(s.into())),
    ]
}

fn document_of(
    inner: impl Strategy<Value = Value<'static>>,
) -> impl Strategy<Value = Document<'static>> {
    proptest::collection::vec((key(), inner), 0..6).prop_map(|e| Document {
        entries: e.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect(),
    })
}

fn value() -> impl Strategy<Value = Value<'static>> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            document_of(inner.clone()).prop_map(Value::Document),
            ("[a-z]{0,5}", document_of(inner)).prop_map(|(c, scope)| Value::JavaScriptWithScope(
                Box::new(CodeWithScope {
                    code: c.into(),
                    scope
                })
            )),
        ]
    })
}

fn bytes_of(d: &Document<'_>) -> Vec<u8> {
    bson_write::to_vec(d, 1024).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn bson_and_json_round_trip(doc in document_of(value())) {
        let bson = bytes_of(&doc);
        let back = read_bson(&bson, &Options::default()).unwrap();
        prop_assert_eq!(bytes_of(&back), bson.clone());
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
        prop_assert_eq!(bytes_of(&got.document), bytes_of(&doc));
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
        let back = json::document_to_json(&got.document, 1024).unwrap();
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

/// The text of `j` compact and pretty.
fn texts<T: serde::Serialize>(j: &T) -> (String, String) {
    (
        serde_json::to_string(j).unwrap(),
        serde_json::to_string_pretty(j).unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn the_json_view_writes_the_text_of_document_to_json(doc in document_of(value())) {
        use gamewire_resonite::json_view::{DocumentView, ValueView};
        let tree = json::document_to_json(&doc, 1024).unwrap();
        prop_assert_eq!(texts(&DocumentView::new(&doc)), texts(&tree));
        for (_, v) in &doc.entries {
            prop_assert_eq!(texts(&ValueView::new(v)), texts(&json::value_to_json(v, 1024).unwrap()));
        }
    }
}

#[test]
fn the_json_view_writes_the_text_of_document_to_json_on_every_sample() {
    use gamewire_resonite::json_view::DocumentView;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/resonite");
    let mut n = 0;
    for entry in std::fs::read_dir(root).unwrap() {
        let p = entry.unwrap().path();
        let data = std::fs::read(&p).unwrap();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        let d = decode(&data, Some(&name), &Options::default()).unwrap();
        let tree = json::document_to_json(&d.document, 1024).unwrap();
        assert_eq!(
            texts(&DocumentView::new(&d.document)),
            texts(&tree),
            "{name}"
        );
        n += 1;
    }
    assert_eq!(n, 7);
    // Every escape of the mapping in one document: `$` keys, a repeated key, scope code.
    let mut doc = Document::new();
    doc.push("$x", Value::Null);
    doc.push(
        "$x",
        Value::Array(vec![Value::Double(f64::NAN), Value::Double(-0.0)]),
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
    assert_eq!(texts(&DocumentView::new(&plain)), texts(&tree));
}
