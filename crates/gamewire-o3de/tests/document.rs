//! The registry-free document against an independent reader (serde_json through
//! `parse_json`): random JSON texts, with comments and random white space, read to the
//! same values, write back to the same document, and every prefix of them is a clean
//! error, never a panic.

use gamewire_o3de::doc::{Document, Layout};
use gamewire_o3de::infer::summarize;
use gamewire_o3de::prefab::PrefabTree;
use gamewire_o3de::recognize::recognize;
use proptest::prelude::*;

/// A JSON text built from random pieces: numbers in many spellings, escaped strings,
/// nested arrays and objects (repeated names allowed), comments and white space.
fn json_text() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|i| i.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:?}")),
        Just("-0".to_string()),
        Just("1.0000000".to_string()),
        Just("-3.9142520427703859".to_string()),
        Just("1E+2".to_string()),
        Just("2e-3".to_string()),
        Just("123456789012345678901234567890".to_string()),
    ];
    let string = prop_oneof![
        "[a-zA-Z _\\[\\]{}:,]{0,12}".prop_map(|s| format!("\"{s}\"")),
        Just(r#""\u00e9\n\t\/\\\"""#.to_string()),
        Just(r#""\ud83d\ude00 é""#.to_string()),
        Just(r#""Entity_[12]""#.to_string()),
        Just(r#""{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0} TransformComponent""#.to_string()),
    ];
    let leaf = prop_oneof![
        number,
        string.clone(),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
    ];
    let ws = prop_oneof![
        Just(""),
        Just(" "),
        Just("\n    "),
        Just("\t"),
        Just(" /* c */ "),
        Just(" // line\n"),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        let ws = ws.clone();
        prop_oneof![
            prop::collection::vec((inner.clone(), ws.clone()), 0..6).prop_map(|items| {
                let body: Vec<String> = items
                    .into_iter()
                    .map(|(v, w)| format!("{w}{v}{w}"))
                    .collect();
                format!("[{}]", body.join(","))
            }),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("\"a\"".to_string()),
                        Just("\"$type\"".to_string()),
                        "\"[a-z]{1,4}\""
                    ],
                    inner,
                    ws
                ),
                0..6
            )
            .prop_map(|members| {
                let body: Vec<String> = members
                    .into_iter()
                    .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}"))
                    .collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn reads_like_serde_json_and_writes_the_same_document(text in json_text()) {
        let bytes = text.as_bytes();
        let reference = gamewire_o3de::parse_json(bytes);
        let doc = Document::parse(bytes);
        match (&reference, &doc) {
            (Ok(r), Ok(d)) => prop_assert_eq!(&d.root.to_json(), r),
            (Err(_), Err(_)) => {}
            // serde_json stops at 128 levels; the generated texts stay below.
            _ => prop_assert!(false, "disagree on {text:?}: {reference:?} / {doc:?}"),
        }
        let Ok(doc) = doc else { return Ok(()) };
        for layout in [Layout::Pretty, Layout::Compact] {
            let out = doc.write(layout);
            let again = Document::parse(&out).unwrap();
            prop_assert_eq!(&again.root, &doc.root);
            // Written once in O3DE's layout, the text is a fixed point.
            if layout == Layout::Pretty {
                prop_assert_eq!(again.write(layout), out);
            }
        }
        // The readers of the tree take anything without panicking.
        let _ = summarize(&doc.root);
        if let Ok(t) = PrefabTree::from_node(&doc.root) {
            let _ = t.render();
        }
        let _ = recognize(bytes, Some("x.prefab"));
        let _ = recognize(bytes, None);
    }

    #[test]
    fn every_prefix_is_a_clean_error_or_the_same_value(text in json_text(), cut in 0usize..1000) {
        let bytes = text.as_bytes();
        let cut = cut.min(bytes.len());
        let prefix = &bytes[..cut];
        if let Err(e) = Document::parse(prefix) {
            prop_assert!(e.offset().is_some_and(|o| o <= prefix.len()), "{e}");
        }
        let _ = recognize(prefix, None);
    }
}

#[test]
fn a_prefab_of_many_entities_writes_back_exactly() {
    // Built in memory at modest size: 2 000 entities in O3DE's layout.
    let mut text = String::from("{\n    \"ContainerEntity\": {\n        \"Id\": \"ContainerEntity\",\n        \"Name\": \"Level\"\n    },\n    \"Entities\": {");
    for i in 0..2000 {
        if i > 0 {
            text.push(',');
        }
        let parent = if i == 0 {
            "ContainerEntity".to_string()
        } else {
            format!("Entity_[{}]", i / 3)
        };
        text.push_str(&format!(
            "\n        \"Entity_[{i}]\": {{\n            \"Id\": \"Entity_[{i}]\",\n            \"Name\": \"e{i}\",\n            \"Components\": {{\n                \"Component_[{i}]\": {{\n                    \"$type\": \"{{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}} TransformComponent\",\n                    \"Id\": 1{i},\n                    \"Parent Entity\": \"{parent}\",\n                    \"Transform Data\": {{\n                        \"Translate\": [\n                            {i}.5,\n                            -0.0,\n                            1e{}\n                        ]\n                    }}\n                }}\n            }}\n        }}",
            i % 30
        ));
    }
    text.push_str("\n    }\n}\n");
    let doc = Document::parse(text.as_bytes()).unwrap();
    assert_eq!(doc.write(Layout::Pretty), text.as_bytes());
    let tree = PrefabTree::from_node(&doc.root).unwrap();
    assert_eq!(tree.entities.len(), 2000);
    let out = tree.render();
    assert_eq!(out.lines().count(), 2 + 2 * 2000);
    assert!(!out.contains("not in this file"));
}
