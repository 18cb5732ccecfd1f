//! What a new user met on real files: enum errors and the inspect tree name the enum
//! once and show option names; XML object files are recognised by content; unknown
//! classes in a `BINd` file say how to keep them, and are kept as raw bits when asked.

use gamewire_core::inspect::render_text;
use gamewire_kingsisle::{bind, inspect, json, sniff, xml, Options, TypeList, Value};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle/");

fn types() -> TypeList {
    TypeList::from_files(&[format!("{SAMPLES}types.json")]).unwrap()
}

fn item() -> Vec<u8> {
    std::fs::read(format!("{SAMPLES}item.bin")).unwrap()
}

/// The sample's type list without class SampleEffect (which `m_effects` holds).
fn without_effect() -> TypeList {
    let mut partial = TypeList::new();
    for c in types().classes() {
        if c.name != "class SampleEffect" {
            partial.insert(c.clone());
        }
    }
    partial
}

#[test]
fn a_bad_enum_option_names_the_enum_once() {
    let types = types();
    let doc = bind::decode(&item(), &types, &Options::default()).unwrap();
    let mut j = json::to_json(&doc, &types).unwrap();
    assert_eq!(j["m_rarity"], "RARITY_EPIC");
    j["m_rarity"] = "RARITY_NOPE".into();
    // Read from JSON then written, or refused when read: either way the message names
    // `enum Rarity` once.
    let e = json::from_json(&j, &types)
        .and_then(|d| bind::encode(&d, &types, &Options::default()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("\"RARITY_NOPE\" is no option of enum Rarity"),
        "{e}"
    );
    assert!(!e.contains("enum enum"), "{e}");
    // The XML object file reader says it the same way.
    let text = xml::write(std::slice::from_ref(&doc.root), &types).unwrap();
    let bad = text.replace("<m_rarity>2<", "<m_rarity>RARITY_NOPE<");
    assert_ne!(bad, text);
    let e = xml::read(bad.as_bytes(), &types).unwrap_err().to_string();
    assert!(
        e.contains("is no option of enum Rarity") && !e.contains("enum enum"),
        "{e}"
    );
}

#[test]
fn inspect_shows_the_enum_option_name_and_number() {
    let nodes = inspect::tree(&item(), &types(), "types.json", 8).unwrap();
    let text = render_text(&nodes);
    assert!(
        text.contains("    m_rarity: enum Rarity = \"RARITY_EPIC\" (2)\n"),
        "{text}"
    );
}

#[test]
fn xml_object_files_are_recognised_by_content_and_other_xml_is_not() {
    let types = types();
    let doc = bind::decode(&item(), &types, &Options::default()).unwrap();
    let text = xml::write(std::slice::from_ref(&doc.root), &types).unwrap();
    assert!(sniff(text.as_bytes(), None), "{}", &text[..80]);
    // With a byte order mark, without the declaration, with a comment, empty.
    let bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
    assert!(sniff(&bom, Some("x.xml")));
    let bare = text.split_once("?>").unwrap().1;
    assert!(sniff(bare.as_bytes(), None));
    assert!(sniff(
        b"<!-- exported -->\n<Objects>\n  <Class Name=\"class X\"></Class></Objects>",
        None
    ));
    assert!(sniff(b"<?xml version=\"1.0\"?>\n<Objects/>", None));
    assert!(sniff(b"<Objects></Objects>", None));
    // Other XML: a Zeze solution, an element that only starts like <Objects, a root
    // <Objects> holding something else.
    let zeze = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/zeze-solution.xml"
    ))
    .unwrap();
    assert!(!sniff(&zeze, Some("zeze-solution.xml")));
    assert!(!sniff(
        b"<ObjectsList><Class Name=\"x\"/></ObjectsList>",
        None
    ));
    assert!(!sniff(b"<Objects><Item/></Objects>", None));
    assert!(!sniff(b"<Objects><Classes/></Objects>", None));
    assert!(!sniff(b"", None));
}

#[test]
fn unknown_classes_in_a_bind_file_say_how_to_keep_them_and_are_kept_when_asked() {
    let partial = without_effect();
    let data = item();
    let e = bind::decode(&data, &partial, &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not in the type list"), "{e}");
    assert!(e.contains("--skip-unknown"), "{e}");
    let mut scratch = Vec::new();
    let e =
        gamewire_kingsisle::View::decode_any(&data, &partial, &Options::default(), &mut scratch)
            .err()
            .unwrap()
            .to_string();
    assert!(e.contains("--skip-unknown"), "{e}");
    // Kept: the objects are raw bits, and encoding gives the same bytes, from the
    // document and through JSON.
    let keep = Options {
        skip_unknown: true,
        ..Options::default()
    };
    let doc = bind::decode(&data, &partial, &keep).unwrap();
    // m_effects holds two SampleEffects and a null.
    let effects = doc.root.properties.iter().find_map(|(_, v)| match v {
        Value::List(l) if l.len() == 3 && l.iter().any(|x| matches!(x, Value::Raw(_))) => Some(l),
        _ => None,
    });
    let effects = effects.expect("m_effects kept");
    assert!(matches!(&effects[0], Value::Raw(r) if r.type_hash != 0 && r.bits > 0));
    assert!(matches!(&effects[1], Value::Null));
    assert!(matches!(&effects[2], Value::Raw(r) if r.type_hash != 0));
    assert_eq!(bind::encode(&doc, &partial, &keep).unwrap(), data);
    let j = json::to_json(&doc, &partial).unwrap();
    let again = json::from_json(&j, &partial).unwrap();
    assert_eq!(bind::encode(&again, &partial, &keep).unwrap(), data);
    // inspect shows them with a note instead of failing.
    let text = render_text(&inspect::tree(&data, &partial, "partial.json", 8).unwrap());
    assert!(
        text.contains("2 value(s) of types or properties not in the type list"),
        "{text}"
    );
    assert!(text.contains("[0]: unknown class "), "{text}");
    assert!(text.contains(" bits kept raw"), "{text}");
}

#[test]
fn an_unknown_root_class_is_named() {
    let mut no_root = TypeList::new();
    for c in types().classes() {
        if c.name != "class SampleItem" {
            no_root.insert(c.clone());
        }
    }
    let keep = Options {
        skip_unknown: true,
        ..Options::default()
    };
    let e = bind::decode(&item(), &no_root, &keep)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the root object's type hash 1990245165 (0x76a0bb2d) is not in the type list"),
        "{e}"
    );
    let data = item();
    let mut scratch = Vec::new();
    let e = gamewire_kingsisle::View::decode_any(&data, &no_root, &keep, &mut scratch)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("the root object's type hash 1990245165"), "{e}");
}
