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
