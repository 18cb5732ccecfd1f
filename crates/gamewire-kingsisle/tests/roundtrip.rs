//! Round trips without a peer: random objects over random type lists through bytes
//! (every option combination), JSON and XML object files.

mod common;
use common::{random_lists, random_object, Rng};
use gamewire_kingsisle::{
    bind, decode, encode, json, serializer_flags as sf, xml, Document, Options, Value,
};

#[test]
fn random_objects_round_trip_through_bytes_json_and_xml() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let (_, lists, merged) = random_lists(&mut rng, 6);
    for i in 0..300 {
        let types = &lists[i % lists.len()];
        let root = types.classes()[rng.below(types.len() as u64) as usize].hash;
        let flags = (rng.next() as u32) & 0x1f & !sf::FORBID_DELTA_ENCODE;
        let shallow = rng.chance(50);
        let opts = Options {
            flags,
            property_mask: 7,
            shallow,
            manual_zlib: rng.chance(20),
            ..Options::default()
        };
        let obj = random_object(
            &mut rng,
            root,
            types,
            flags & sf::HUMAN_READABLE_ENUMS != 0,
            shallow,
        );
        let doc = Document {
            root: obj,
            ..Document::default()
        };
        let bytes = encode(&doc, &merged, &opts).unwrap();
        let back = decode(&bytes, &merged, &opts).unwrap();
        assert_eq!(encode(&back, &merged, &opts).unwrap(), bytes, "case {i}");
        // JSON keeps everything.
        let j = json::to_json(&back, &merged).unwrap();
        let from = json::from_json(&j, &merged).unwrap();
        assert_eq!(from, back, "case {i}: JSON");
        // BINd files.
        let file = bind::encode(&back, &merged, &opts).unwrap();
        let d = bind::decode(&file, &merged, &opts).unwrap();
        assert_eq!(
            bind::encode(&d, &merged, &opts).unwrap(),
            file,
            "case {i}: BINd"
        );
        // XML object files keep the values (strings that are not text are refused).
        match xml::write(std::slice::from_ref(&back.root), &merged) {
            Ok(text) => {
                let objs = xml::read(text.as_bytes(), &merged)
                    .unwrap_or_else(|e| panic!("case {i}: {e}\n{text}"));
                assert_eq!(objs, vec![back.root.clone()], "case {i}: XML\n{text}");
            }
            Err(e) => assert!(e.to_string().contains("XML"), "case {i}: {e}"),
        }
    }
}

#[test]
fn truncated_input_never_panics_and_reports_offsets() {
    let mut rng = Rng(77);
    let (_, lists, merged) = random_lists(&mut rng, 3);
    for i in 0..40 {
        let types = &lists[i % lists.len()];
        let root = types.classes()[0].hash;
        let opts = Options {
            flags: 1,
            property_mask: 7,
            shallow: i % 2 == 0,
            ..Options::default()
        };
        let doc = Document {
            root: random_object(&mut rng, root, types, false, opts.shallow),
            ..Document::default()
        };
        let bytes = encode(&doc, &merged, &opts).unwrap();
        for cut in 0..bytes.len() {
            if let Err(e) = decode(&bytes[..cut], &merged, &opts) {
                assert!(
                    e.offset().is_some_and(|o| o <= cut),
                    "case {i} cut {cut}: {e}"
                );
            }
        }
    }
}

#[test]
fn compression_flag_is_used_only_when_it_helps() {
    let mut rng = Rng(5);
    let (_, lists, merged) = random_lists(&mut rng, 1);
    let root = lists[0].classes()[0].hash;
    let opts = Options {
        flags: sf::WITH_COMPRESSION,
        property_mask: 7,
        ..Options::default()
    };
    let doc = Document {
        root: random_object(&mut rng, root, &lists[0], false, true),
        ..Document::default()
    };
    let bytes = encode(&doc, &merged, &opts).unwrap();
    let back = decode(&bytes, &merged, &opts).unwrap();
    let stream = encode(&back, &merged, &Options { flags: 0, ..opts }).unwrap();
    let packed = gamewire_kingsisle::zlib::compress(&stream);
    assert_eq!(bytes[0] != 0, packed.len() + 4 < stream.len());
    assert_eq!(back.root, doc.root);
}

#[test]
fn xml_object_file_shape() {
    let types = gamewire_kingsisle::TypeList::from_files(&[concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/kingsisle/types.json"
    )])
    .unwrap();
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/kingsisle/item.bin"
    ))
    .unwrap();
    let doc = bind::decode(&data, &types, &Options::default()).unwrap();
    let text = xml::write(std::slice::from_ref(&doc.root), &types).unwrap();
    assert!(
        text.contains("<Class Name=\"class SampleItem\">\n    <m_name>Storm Hat</m_name>"),
        "{text}"
    );
    assert!(
        text.contains("<m_tags>hat</m_tags>\n    <m_tags>storm</m_tags>"),
        "{text}"
    );
    assert!(text.contains("<m_color>30,60,200,255</m_color>"), "{text}");
    assert!(text.contains("<m_effects/>"), "{text}");
    let objs = xml::read(text.as_bytes(), &types).unwrap();
    let again = Document {
        root: objs[0].clone(),
        ..doc.clone()
    };
    assert_eq!(
        bind::encode(&again, &types, &Options::default()).unwrap(),
        data
    );
    // Errors point at the element.
    let bad = text.replace("<m_level>50</m_level>", "<m_level>fifty</m_level>");
    let e = xml::read(bad.as_bytes(), &types).unwrap_err();
    assert_eq!(e.path_string(), "$[0].m_level");
    assert_eq!(e.offset(), bad.find("<m_level>"));
    assert!(matches!(
        *objs[0].properties.get(0).unwrap().1,
        Value::String(_)
    ));
}

#[test]
fn unknown_types_and_properties_are_kept_as_raw_bits_when_asked() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle");
    let full = gamewire_kingsisle::TypeList::from_files(&[format!("{dir}/types.json")]).unwrap();
    let data = std::fs::read(format!("{dir}/item.bin")).unwrap();
    // A type list that lacks class SampleEffect and the property m_weight.
    let mut partial = gamewire_kingsisle::TypeList::new();
    for c in full.classes() {
        if c.name != "class SampleEffect" {
            let mut c = c.clone();
            c.properties.retain(|p| p.name != "m_weight");
            partial.insert(c);
        }
    }
    let strict = bind::decode(&data, &partial, &Options::default()).unwrap_err();
    assert!(
        strict.to_string().contains("unknown property hash"),
        "{strict}"
    );
    let opts = Options {
        skip_unknown: true,
        ..Options::default()
    };
    let doc = bind::decode(&data, &partial, &opts).unwrap();
    let raws = doc
        .root
        .properties
        .iter()
        .filter(|(_, v)| matches!(v, Value::Raw(_)))
        .count();
    assert_eq!(raws, 1);
    let effects = doc.root.properties.iter().find_map(|(_, v)| match v {
        Value::List(l) if l.len() == 3 && !matches!(l[0], Value::String(_)) => Some(l),
        _ => None,
    });
    assert!(matches!(&effects.unwrap()[0], Value::Raw(r) if r.type_hash != 0));
    assert_eq!(bind::encode(&doc, &partial, &opts).unwrap(), data);
    let j = json::to_json(&doc, &partial).unwrap();
    assert_eq!(
        bind::encode(&json::from_json(&j, &partial).unwrap(), &partial, &opts).unwrap(),
        data
    );
}

/// A class whose only property is an object of the same class.
fn chain_types() -> (gamewire_kingsisle::TypeList, u32, u32) {
    use gamewire_kingsisle::types::{ClassDef, PropertyDef};
    let mut c = ClassDef::new("class N");
    c.properties
        .push(PropertyDef::new("m_n", "class N", 0, 7, false));
    let (h, p) = (c.hash, c.properties[0].hash);
    let mut types = gamewire_kingsisle::TypeList::new();
    types.insert(c);
    (types, h, p)
}

#[test]
fn deep_nesting_at_default_limits_errors_instead_of_overflowing_the_stack() {
    use gamewire_kingsisle::Object;
    // Runs on a test thread (2 MiB of stack) in a debug build: the stack guard must stop
    // every recursive walk before the depth limit of 1024 would overflow it.
    let (types, h, p) = chain_types();
    let opts = Options {
        shallow: true,
        property_mask: 7,
        ..Options::default()
    };
    let data: Vec<u8> = std::iter::repeat(h.to_le_bytes())
        .take(1500)
        .flatten()
        .collect();
    let e = decode(&data, &types, &opts).unwrap_err();
    assert!(
        e.to_string().contains("nesting") || e.to_string().contains("deeper"),
        "{e}"
    );
    assert!(e.offset().is_some());
    // A document built in code, deeper than the depth limit.
    let mut v = Value::Null;
    for _ in 0..1500 {
        v = Value::Object(Object::new(h, vec![(p, v)]));
    }
    let Value::Object(root) = v else {
        unreachable!()
    };
    let doc = Document {
        root,
        ..Document::default()
    };
    assert!(encode(&doc, &types, &opts).is_err());
    assert!(json::to_json(&doc, &types).is_err());
    assert!(xml::write(std::slice::from_ref(&doc.root), &types).is_err());
    // And JSON text nested that deep.
    let mut j = serde_json::Value::Null;
    for _ in 0..1500 {
        j = serde_json::json!({"$class": "class N", "m_n": j});
    }
    assert!(json::from_json(&j, &types).is_err());
    let text = format!(
        "<Objects>{}{}</Objects>",
        "<Class Name=\"class N\"><m_n>".repeat(1500),
        "</m_n></Class>".repeat(1500)
    );
    assert!(xml::read(text.as_bytes(), &types).is_err());
    // Dropping the 1500-deep values must not overflow either (it recurses with small frames).
    drop(doc);
    drop(j);
}

#[test]
fn typed_structs_read_and_write_the_sample() {
    use gamewire_kingsisle::typed;
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Color {
        r: u8,
        g: u8,
        b: u8,
        a: u8,
    }
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Effect {
        #[serde(rename = "$class")]
        class: String,
        #[serde(rename = "m_effectType")]
        effect_type: u32,
        m_amount: i32,
        m_area: serde_json::Value,
    }
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Item {
        m_name: String,
        #[serde(rename = "m_displayName")]
        display_name: String,
        #[serde(rename = "m_templateID")]
        template_id: u64,
        m_color: Color,
        m_position: serde_json::Value,
        m_rarity: u32,
        m_tags: Vec<String>,
        m_level: u8,
        m_enabled: bool,
        m_weight: f32,
        m_effects: Vec<Option<Effect>>,
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle");
    let types = gamewire_kingsisle::TypeList::from_files(&[format!("{dir}/types.json")]).unwrap();
    let data = std::fs::read(format!("{dir}/item.bin")).unwrap();
    let doc = bind::decode(&data, &types, &Options::default()).unwrap();
    let item: Item = typed::from_document(&doc, &types).unwrap();
    assert_eq!(item.m_name, "Storm Hat");
    assert_eq!(
        item.m_color,
        Color {
            r: 30,
            g: 60,
            b: 200,
            a: 255
        }
    );
    assert_eq!(item.m_effects.len(), 3);
    assert!(item.m_effects[1].is_none());
    assert_eq!(item.m_effects[2].as_ref().unwrap().m_amount, 300);
    let mut back = typed::to_document(&item, "class SampleItem", &types).unwrap();
    back.flags = doc.flags;
    assert_eq!(
        bind::encode(&back, &types, &Options::default()).unwrap(),
        data
    );
}
