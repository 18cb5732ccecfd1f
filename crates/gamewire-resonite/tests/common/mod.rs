//! Random BSON documents for the property tests (`roundtrip.rs`, `view.rs`), and the
//! helpers both use: a document's bytes, a JSON text compact and pretty, the sample files.
#![allow(dead_code)]

use gamewire_resonite::value::{CodeWithScope, Regex};
use gamewire_resonite::{bson_write, Document, Value};
use proptest::prelude::*;
use std::borrow::Cow;

/// Keys: no NUL; `$` keys exercise the `$entries` escape.
pub fn key() -> impl Strategy<Value = String> {
    "[a-zA-Z$_][a-zA-Z0-9 _.\u{e9}]{0,8}"
}

/// The leaves both tests draw, one of 17 kinds, each as likely: every BSON scalar type but
/// the ones a test adds itself (a plain `f64`, a DBPointer). Weigh it 17 beside a test's
/// own leaves of weight 1 to keep every kind as likely.
pub fn common_leaf() -> impl Strategy<Value = Value<'static>> {
    prop_oneof![
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
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

/// Documents of up to five entries holding `inner`.
pub fn document_of(
    inner: impl Strategy<Value = Value<'static>>,
) -> impl Strategy<Value = Document<'static>> {
    proptest::collection::vec((key(), inner), 0..6).prop_map(|e| Document {
        entries: e.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect(),
    })
}

/// Any value: a `leaf`, or up to four levels of arrays, documents and code with scope.
pub fn value_of(
    leaf: impl Strategy<Value = Value<'static>> + 'static,
) -> impl Strategy<Value = Value<'static>> {
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(|v| Value::Array(v.into())),
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

/// Value equality where a NaN equals a NaN of the same bits (`PartialEq` on `f64` says
/// no), and every type, key and order must match.
pub fn same_values(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Double(x), Value::Double(y)) => x.to_bits() == y.to_bits(),
        (Value::Document(x), Value::Document(y)) => {
            x.len() == y.len()
                && x.entries
                    .iter()
                    .zip(y.entries.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_values(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_values(p, q))
        }
        (Value::JavaScriptWithScope(x), Value::JavaScriptWithScope(y)) => {
            x.code == y.code
                && same_values(
                    &Value::Document(x.scope.clone()),
                    &Value::Document(y.scope.clone()),
                )
        }
        (x, y) => x == y,
    }
}

/// The BSON bytes of `d`.
pub fn bytes_of(d: &Document<'_>) -> Vec<u8> {
    bson_write::to_vec(d, 1024).unwrap()
}

/// The JSON text of `j`, compact and pretty.
pub fn json_texts<T: serde::Serialize>(j: &T) -> (String, String) {
    (
        serde_json::to_string(j).unwrap(),
        serde_json::to_string_pretty(j).unwrap(),
    )
}

/// Every file in `samples/resonite`, by name, sorted.
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/resonite");
    let mut out: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(out.len() >= 7, "the samples are there");
    out
}

/// The document the `bson` crate (an independent reader) reads from `bytes`, walked in
/// full with its raw reader (which keeps repeated keys and every element type apart),
/// in our model; its error text when it refuses them.
pub fn bson_crate(bytes: &[u8]) -> Result<Document<'static>, String> {
    let raw = bson::RawDocument::from_bytes(bytes).map_err(|e| e.to_string())?;
    from_raw_doc(raw)
}

fn from_raw_doc(d: &bson::RawDocument) -> Result<Document<'static>, String> {
    let mut out = Document::new();
    for el in d {
        let (k, v) = el.map_err(|e| e.to_string())?;
        out.push(k.to_owned(), from_raw(v)?);
    }
    Ok(out)
}

fn from_raw(v: bson::RawBsonRef<'_>) -> Result<Value<'static>, String> {
    use bson::RawBsonRef as R;
    Ok(match v {
        R::Double(d) => Value::Double(d),
        R::String(s) => Value::String(Cow::Owned(s.to_owned())),
        R::Document(d) => Value::Document(from_raw_doc(d)?),
        R::Array(a) => Value::Array(
            a.into_iter()
                .map(|x| from_raw(x.map_err(|e| e.to_string())?))
                .collect::<Result<_, _>>()?,
        ),
        R::Boolean(b) => Value::Bool(b),
        R::Null => Value::Null,
        R::RegularExpression(r) => Value::Regex(Box::new(Regex {
            pattern: r.pattern.to_owned().into(),
            options: r.options.to_owned().into(),
        })),
        R::JavaScriptCode(c) => Value::JavaScript(c.to_owned().into()),
        R::JavaScriptCodeWithScope(c) => Value::JavaScriptWithScope(Box::new(CodeWithScope {
            code: c.code.to_owned().into(),
            scope: from_raw_doc(c.scope)?,
        })),
        R::Int32(i) => Value::Int32(i),
        R::Int64(i) => Value::Int64(i),
        R::Timestamp(t) => Value::Timestamp {
            time: t.time,
            increment: t.increment,
        },
        R::Binary(b) => {
            let subtype = u8::from(b.subtype);
            // the crate strips the old binary subtype's inner length; the bytes keep it
            let bytes = if b.subtype == bson::spec::BinarySubtype::BinaryOld {
                let mut x = (b.bytes.len() as i32).to_le_bytes().to_vec();
                x.extend_from_slice(b.bytes);
                x
            } else {
                b.bytes.to_vec()
            };
            Value::Binary {
                subtype,
                bytes: Cow::Owned(bytes),
            }
        }
        R::ObjectId(o) => Value::ObjectId(o.bytes()),
        R::DateTime(t) => Value::DateTime(t.timestamp_millis()),
        R::Symbol(s) => Value::Symbol(s.to_owned().into()),
        R::Decimal128(d) => Value::Decimal128(d.bytes()),
        R::Undefined => Value::Undefined,
        R::MaxKey => Value::MaxKey,
        R::MinKey => Value::MinKey,
        R::DbPointer(_) => {
            // its fields are private: read them from the canonical Extended JSON
            let j = bson::Bson::try_from(v)
                .map_err(|e| e.to_string())?
                .into_canonical_extjson();
            let p = &j["$dbPointer"];
            let ns = p["$ref"].as_str().ok_or("no $ref")?.to_owned();
            let hex = p["$id"]["$oid"].as_str().ok_or("no $oid")?;
            let mut id = [0u8; 12];
            for (i, b) in id.iter_mut().enumerate() {
                *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
            }
            Value::DbPointer(Box::new(gamewire_resonite::value::DbPointer {
                namespace: ns.into(),
                id,
            }))
        }
    })
}
