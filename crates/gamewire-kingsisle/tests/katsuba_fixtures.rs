//! The katsuba fixtures (engine-shaped blobs with their serializer options): every one
//! decodes, re-encodes to the same bytes, and the should-fail ones fail. Each is read by
//! every sink of the one walk of the grammar (the owned tree, the view's tape, the
//! validating walk), which must agree, so the fixtures' expectations hold for all. The
//! owned tree is also built in the allocations of the trees read before it
//! (`recycle::decode_with`, one `Recycler` for every fixture a thread reads).

use gamewire_core::Result;
use gamewire_kingsisle::recycle::{self, Recycler};
use gamewire_kingsisle::view::{OwnedView, View};
use gamewire_kingsisle::{encode, hash, validate, Document, Options, TypeList, Value};
use std::path::PathBuf;

thread_local! {
    /// The trees this thread read so far, taken apart for the next decodes.
    static RECYCLER: std::cell::RefCell<Recycler> = std::cell::RefCell::new(Recycler::new());
}

/// Reads `data` with every reader: the owned decode (also into recycled memory), the
/// view (and its owned form) and the validating walk; asserts they agree (the same
/// document, or the same error at the same byte and bit), and returns the owned decode's
/// result.
fn decode(data: &[u8], types: &TypeList, opts: &Options) -> Result<Document> {
    let owned = gamewire_kingsisle::decode(data, types, opts);
    let reused = RECYCLER.with(|r| recycle::decode_with(data, types, opts, &mut r.borrow_mut()));
    let mut scratch = Vec::new();
    let view = View::decode(data, types, opts, &mut scratch).map(|v| v.to_document());
    let kept = OwnedView::decode_any(data.to_vec(), types, opts).map(|v| v.to_document());
    let checked = validate(data, types, opts);
    let describe = |e: &gamewire_core::Error| (e.to_string(), e.offset(), e.bit());
    match &owned {
        Ok(d) => {
            let mut d = d.clone();
            assert_eq!(format!("{:?}", kept.as_ref().unwrap()), format!("{d:?}"));
            let reused = reused.unwrap();
            assert_eq!(format!("{reused:?}"), format!("{d:?}"));
            RECYCLER.with(|r| r.borrow_mut().recycle(reused));
            (d.manual_zlib, d.flag_zlib) = (None, None);
            assert_eq!(format!("{:?}", view.as_ref().unwrap()), format!("{d:?}"));
            assert!(checked.is_ok(), "{checked:?}");
        }
        Err(e) => {
            let want = describe(e);
            assert_eq!(describe(view.as_ref().unwrap_err()), want);
            assert_eq!(describe(kept.as_ref().unwrap_err()), want);
            assert_eq!(describe(checked.as_ref().unwrap_err()), want);
            assert_eq!(describe(reused.as_ref().unwrap_err()), want);
        }
    }
    owned
}

fn dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/katsuba"
    ))
}

fn types() -> TypeList {
    TypeList::from_files(&[dir().join("types.json")]).unwrap()
}

fn options(config: &std::path::Path) -> Options {
    let c: serde_json::Value = serde_json::from_slice(&std::fs::read(config).unwrap()).unwrap();
    Options {
        flags: c["flags"].as_u64().unwrap() as u32,
        property_mask: c["property_mask"].as_u64().unwrap() as u32,
        shallow: c["shallow"].as_bool().unwrap(),
        manual_zlib: c["compress"].as_bool().unwrap(),
        ..Options::default()
    }
}

fn fixtures(sub: &str) -> Vec<(String, Vec<u8>, Options)> {
    let mut out = Vec::new();
    let d = if sub.is_empty() {
        dir()
    } else {
        dir().join(sub)
    };
    let mut names: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        if p.extension().is_some_and(|e| e == "bin") {
            let cfg = p.with_extension("config.json");
            out.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
                options(&cfg),
            ));
        }
    }
    out
}

#[test]
fn every_fixture_decodes_and_reencodes_byte_exact() {
    let types = types();
    let all = fixtures("");
    assert_eq!(all.len(), 28);
    for (name, data, opts) in all {
        let doc = decode(&data, &types, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = encode(&doc, &types, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, data, "{name} did not re-encode byte-exact");
    }
}

#[test]
fn should_fail_fixtures_fail_with_offsets() {
    let types = types();
    let all = fixtures("should-fail");
    assert_eq!(all.len(), 2);
    for (name, data, opts) in all {
        let e = decode(&data, &types, &opts).expect_err(&name);
        assert!(e.offset().is_some(), "{name}: {e}");
    }
}

#[test]
fn fixture_values_are_exact() {
    let types = types();
    let get = |name: &str| {
        let (_, data, opts) = fixtures("").into_iter().find(|f| f.0 == name).unwrap();
        decode(&data, &types, &opts).unwrap()
    };
    let doc = get("bit-integers-shallow.bin");
    let vals: Vec<_> = doc.root.properties.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(
        vals,
        vec![
            Value::Int(-2),
            Value::UInt(3),
            Value::Int(-4),
            Value::UInt(7),
            Value::Int(-8),
            Value::UInt(15),
            Value::Int(-16),
            Value::UInt(31),
            Value::Int(-32),
            Value::UInt(63),
            Value::Int(-64),
            Value::UInt(127),
            Value::Int(-8388608),
            Value::UInt(16777215),
        ]
    );
    let doc = get("deprecated-shallow.bin");
    // Shallow mode skips the deprecated property; the extra value stays as trailing bytes.
    assert_eq!(doc.root.properties.len(), 2);
    assert_eq!(doc.trailing, 300u32.to_le_bytes());
    let doc = get("all-scalars-deep.bin");
    // Non-zero padding after the bool is remembered (bit 65 + 32 + 32 + ... of the stream).
    assert_eq!(doc.padding.len(), 1);
    assert_eq!(doc.padding[0].1, 0x5f);
    let doc = get("bitflags-string.bin");
    // The wire's "FLAG_B|FLAG_C" is exactly how the encoder writes 2|4, so it is read as
    // that value; JSON names it the same way.
    assert_eq!(*doc.root.properties.get(0).unwrap().1, Value::Enum(6));
    let j = gamewire_kingsisle::json::to_json(&doc, &types).unwrap();
    assert_eq!(
        j.as_object().unwrap().values().nth(2).unwrap(),
        "FLAG_B|FLAG_C",
        "{j}"
    );
    let doc = get("strings-compact.bin");
    assert_eq!(
        *doc.root.properties.get(0).unwrap().1,
        Value::String(b"Short".into())
    );
    assert!(matches!(doc.root.properties.get(1).unwrap().1, Value::WString(w) if w.len() == 200));
}

#[test]
fn type_list_hashes_match_our_hash_functions_and_xml_dump() {
    let json = types();
    for c in json.classes() {
        assert_eq!(hash::string_id(c.name.as_bytes()), c.hash, "{}", c.name);
        for p in &c.properties {
            assert_eq!(
                hash::property_hash(&p.type_name, &p.name),
                p.hash,
                "{}.{}",
                c.name,
                p.name
            );
        }
    }
    let xml = TypeList::from_files(&[dir().join("types.xml")]).unwrap();
    assert_eq!(xml.len(), json.len());
    for c in json.classes() {
        let x = xml
            .get(c.hash)
            .unwrap_or_else(|| panic!("{} missing from XML", c.name));
        assert_eq!(x.name, c.name);
        assert_eq!(x.properties, c.properties, "{}", c.name);
    }
}

#[test]
fn every_fixture_round_trips_through_json_byte_exact() {
    use gamewire_kingsisle::json;
    let types = types();
    for (name, data, opts) in fixtures("") {
        let doc = decode(&data, &types, &opts).unwrap();
        let text = json::to_json_bytes(&doc, &types, true).unwrap();
        let j: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(j, json::to_json(&doc, &types).unwrap(), "{name}");
        let back = json::from_json(&j, &types).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, doc, "{name}: JSON changed the document");
        assert_eq!(encode(&back, &types, &opts).unwrap(), data, "{name}");
    }
}

#[test]
fn json_shape_is_plain() {
    use gamewire_kingsisle::json;
    let types = types();
    let (_, data, opts) = fixtures("")
        .into_iter()
        .find(|f| f.0 == "nested-object.bin")
        .unwrap();
    let doc = decode(&data, &types, &opts).unwrap();
    assert_eq!(
        json::to_json(&doc, &types).unwrap(),
        serde_json::json!({
            "$class": "class Outer", "$hash": 1000834208u32,
            "m_inner": {"$class": "class Inner", "$hash": 1146642873u32, "m_value": 42, "m_name": "nested"},
            "m_count": 1, "$flags": 1
        })
    );
    let (_, data, opts) = fixtures("")
        .into_iter()
        .find(|f| f.0 == "binary-string.bin")
        .unwrap();
    let doc = decode(&data, &types, &opts).unwrap();
    assert_eq!(
        json::to_json(&doc, &types).unwrap()["m_data"],
        serde_json::json!({"$bytes": "000102fffefd8081"})
    );
}

#[test]
fn errors_name_the_property_and_offset() {
    let types = types();
    let (_, data, opts) = fixtures("")
        .into_iter()
        .find(|f| f.0 == "nested-lists.bin")
        .unwrap();
    // Cut inside the second element's name.
    let e = decode(&data[..40], &types, &opts).unwrap_err();
    assert_eq!(e.path_string(), "$.m_elements[1].m_name");
    assert_eq!(e.offset(), Some(37)); // where the 6 bytes of "second" should start
                                      // A deep property whose size field lies.
    let (_, mut data, opts) = fixtures("")
        .into_iter()
        .find(|f| f.0 == "deep-size-boundary.bin")
        .unwrap();
    data[12] = 0x61;
    let e = decode(&data, &types, &opts).unwrap_err();
    assert_eq!(
        (e.offset(), e.bit(), e.path_string().as_str()),
        (Some(12), Some(0), "$.m_first")
    );
    assert!(e.to_string().contains("97 bits"), "{e}");
    // Unknown type hash at the root.
    let e = decode(&[1, 0, 0, 0, 1, 2, 3, 4], &types, &opts).unwrap_err();
    assert_eq!(e.offset(), Some(4));
    assert!(e.to_string().contains("unknown type hash 67305985"), "{e}");
}

#[test]
fn deep_nesting_stops_at_the_depth_limit() {
    // class Outer (shallow): m_inner is an object pointer. Build Outer->Outer->... by
    // pointing m_inner's type at Outer in a private type list.
    let mut types = types();
    let mut outer = types.by_name("class Outer").unwrap().clone();
    outer.properties[0].type_name = "class Outer".into();
    types.insert(outer);
    let hash = 1000834208u32.to_le_bytes();
    let mut data = vec![];
    for _ in 0..5000 {
        data.extend_from_slice(&hash);
    }
    let mut opts = Options {
        shallow: true,
        ..Options::default()
    };
    opts.property_mask = 7;
    opts.limits.max_depth = 64;
    let e = decode(&data, &types, &opts).unwrap_err();
    assert!(
        matches!(e.kind(), gamewire_core::ErrorKind::DepthLimit { limit: 64 }),
        "{e}"
    );
    assert_eq!(e.offset(), Some(64 * 4 + 4));
}

#[test]
fn enums_are_written_by_name_when_the_name_gives_the_value_back() {
    use gamewire_kingsisle::json::{self, DocumentJson};
    let types = types();
    let (_, data, opts) = fixtures("")
        .into_iter()
        .find(|(n, _, _)| n == "bitflags-combined.bin")
        .unwrap();
    let mut doc = decode(&data, &types, &opts).unwrap();
    assert_eq!(*doc.root.properties.get(0).unwrap().1, Value::Enum(5));
    let named = serde_json::to_value(DocumentJson {
        doc: &doc,
        types: &types,
        enum_numbers: false,
    })
    .unwrap();
    let numbers = serde_json::to_value(DocumentJson {
        doc: &doc,
        types: &types,
        enum_numbers: true,
    })
    .unwrap();
    let field = |j: &serde_json::Value| j.as_object().unwrap().values().nth(2).unwrap().clone();
    assert_eq!(field(&named), "FLAG_A|FLAG_C");
    assert_eq!(field(&numbers), 5);
    // Both read back to the same bytes.
    for j in [&named, &numbers] {
        let back = json::from_json(j, &types).unwrap();
        assert_eq!(encode(&back, &types, &opts).unwrap(), data);
    }
    // A bit no option names stays a number, so nothing is lost.
    let mut props = doc.root.properties.into_vec();
    props[0].1 = Value::Enum(5 | 1 << 20);
    doc.root.properties = props.into();
    let j = json::to_json(&doc, &types).unwrap();
    assert_eq!(field(&j), 5 | 1 << 20);
}
