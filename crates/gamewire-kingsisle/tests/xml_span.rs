//! Where values are in an XML object file (`gamewire_kingsisle::xml_span`): positions read
//! by hand in tests/fixtures/kingsisle/xml/item.xml (a byte order mark, CRLF line ends,
//! tabs, a non-ASCII character), and every pointer of the file's JSON has text whose
//! value is the JSON's.

use gamewire_kingsisle::json::DocumentJson;
use gamewire_kingsisle::xml_span::{TextSpan, XmlIndex};
use gamewire_kingsisle::{xml, Document, TypeList};
use serde_json::Value as J;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/xml"
    ))
}

fn types() -> TypeList {
    TypeList::from_files(&[dir().join("item.types.json")]).unwrap()
}

fn toks(p: &str) -> Vec<String> {
    p.split('/').skip(1).map(str::to_owned).collect()
}

/// The JSON `gamewire decode` writes for an XML object file: the one object, or an
/// array of them.
fn json_of(data: &[u8], types: &TypeList) -> J {
    let docs: Vec<J> = xml::read(data, types)
        .unwrap()
        .into_iter()
        .map(|root| {
            let doc = Document {
                root,
                ..Document::default()
            };
            serde_json::to_value(DocumentJson {
                doc: &doc,
                types,
                enum_numbers: false,
            })
            .unwrap()
        })
        .collect();
    match <[J; 1]>::try_from(docs) {
        Ok([one]) => one,
        Err(all) => J::Array(all),
    }
}

#[test]
fn values_are_their_text_in_the_file() {
    let data = std::fs::read(dir().join("item.xml")).unwrap();
    let types = types();
    let json = json_of(&data, &types);
    let index = XmlIndex::new(&data).unwrap();
    let at = |p: &str| -> TextSpan {
        assert!(json.pointer(p).is_some(), "{p} is not in {json}");
        index.span(&data, &types, &toks(p)).unwrap()
    };
    let text = |s: &TextSpan| std::str::from_utf8(&data[s.offset..s.offset + s.length]).unwrap();
    // After the byte order mark (3 bytes), the declaration and CRLF: <Objects> at 43,
    // <Class Name="class SampleItem"> at 55, and on line 4 after two tabs <m_name> at 90,
    // its text at 98.
    let s = at("/m_name");
    assert_eq!(
        (s.offset, s.length, s.own, s.line, s.column),
        (98, 9, true, 4, 11)
    );
    assert_eq!(text(&s), "Storm Hat");
    // A wide string with an é (two bytes, one column).
    let s = at("/m_displayName");
    assert_eq!((s.offset, s.length, s.line, s.column), (135, 16, 5, 18));
    assert_eq!(text(&s), "Hat of Storms é");
    // The object is its <Class> element; $class the Name attribute's value, as $hash
    // (not its own).
    let s = at("");
    assert_eq!((s.offset, s.length, s.own), (55, 616, true));
    assert!(text(&s).starts_with("<Class Name=\"class SampleItem\">"));
    assert!(text(&s).ends_with("</Class>"));
    let s = at("/$class");
    assert_eq!(
        (s.offset, s.length, s.own, s.line, s.column),
        (68, 16, true, 3, 15)
    );
    let s = at("/$hash");
    assert_eq!((s.offset, s.length, s.own), (68, 16, false));
    // A Color's g is its second number: "255,128,0,200" at 226.
    let s = at("/m_color");
    assert_eq!((s.offset, text(&s)), (226, "255,128,0,200"));
    let s = at("/m_color/g");
    assert_eq!((s.offset, s.length, s.line, s.column), (230, 3, 7, 16));
    // Numbers with blanks around them: "1.5, -2, 300.25".
    let s = at("/m_position/y");
    assert_eq!((s.offset, text(&s)), (270, "-2"));
    assert_eq!(text(&at("/m_position/z")), "300.25");
    assert_eq!(text(&at("/m_rarity")), "RARITY_EPIC");
    // A list is its elements, first to last; an item its element's text.
    let s = at("/m_tags");
    assert_eq!((s.offset, s.length), (333, 46));
    assert_eq!(text(&at("/m_tags/1")), "storm");
    // A list of objects: the effect's <Class> at 484, the null pointer's element.
    let s = at("/m_effects");
    assert_eq!((s.offset, s.length), (468, 192));
    let s = at("/m_effects/0");
    assert_eq!((s.offset, s.length), (484, 144));
    let s = at("/m_effects/0/m_amount");
    assert_eq!((s.offset, text(&s), s.line, s.column), (569, "-25", 18, 15));
    // "0,0,64,32" at 597: right is the third number.
    let s = at("/m_effects/0/m_area/right");
    assert_eq!((s.offset, text(&s), s.line, s.column), (601, "64", 19, 17));
    let s = at("/m_effects/1");
    assert_eq!((s.offset, text(&s)), (648, "<m_effects/>"));
    for bad in [
        "/m_nope",
        "/m_tags/2",
        "/m_color/q",
        "/m_name/x",
        "/m_effects/0/m_area/right/1",
        "/0",
    ] {
        let e = index.span(&data, &types, &toks(bad)).unwrap_err();
        assert!(
            e.starts_with(&format!("no value at \"{bad}\"")),
            "{bad}: {e}"
        );
    }
}

/// Every pointer of the file's JSON has text inside the file; a scalar's text reads as
/// its JSON value.
#[test]
fn every_value_of_the_file_has_its_text() {
    let data = std::fs::read(dir().join("item.xml")).unwrap();
    let types = types();
    let json = json_of(&data, &types);
    let index = XmlIndex::new(&data).unwrap();
    let mut stack = vec![(String::new(), &json)];
    let mut scalars = 0;
    while let Some((p, v)) = stack.pop() {
        let s = index
            .span(&data, &types, &toks(&p))
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(s.offset + s.length <= data.len(), "{p}");
        let text = std::str::from_utf8(&data[s.offset..s.offset + s.length]).unwrap();
        match v {
            J::Object(m) => stack.extend(m.iter().map(|(k, c)| (format!("{p}/{k}"), c))),
            J::Array(a) => stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c))),
            // `$hash` is given by the class name.
            J::Number(n) if !p.ends_with("$hash") => {
                assert_eq!(text.parse::<f64>().ok(), n.as_f64(), "{p}");
                scalars += 1;
            }
            J::String(t) if !p.ends_with("$class") => {
                assert_eq!(text, t, "{p}");
                scalars += 1;
            }
            J::Bool(b) => {
                assert_eq!(text, b.to_string(), "{p}");
                scalars += 1;
            }
            _ => {}
        }
    }
    assert!(scalars > 15, "{scalars}");
}

/// A file of several objects is an array: the whole is the <Objects> element, each
/// object its <Class>.
#[test]
fn several_objects_are_an_array() {
    let types = types();
    let data = b"<Objects><Class Name=\"class SampleEffect\"><m_amount>1</m_amount></Class>\n\
                 <Class Name=\"class SampleEffect\"><m_amount>22</m_amount></Class></Objects>";
    let json = json_of(data, &types);
    assert_eq!(json.as_array().map(Vec::len), Some(2));
    let index = XmlIndex::new(data).unwrap();
    let s = index.span(data, &types, &[]).unwrap();
    assert_eq!((s.offset, s.length), (0, data.len()));
    let s = index.span(data, &types, &toks("/1/m_amount")).unwrap();
    assert_eq!(&data[s.offset..s.offset + s.length], b"22");
    assert_eq!((s.line, s.column), (2, 44));
    assert!(index.span(data, &types, &toks("/2")).is_err());
    // Not an object file.
    assert!(XmlIndex::new(b"<solution/>").is_err());
    assert!(XmlIndex::new(b"<Objects><Class>").is_err());
}
