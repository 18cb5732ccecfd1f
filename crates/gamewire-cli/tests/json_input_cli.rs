//! The JSON side of `encode` for every format that reads JSON text through the CLI:
//! repeated keys are errors (unless `--last-key-wins`), integer literals past 64 bits
//! are errors rather than floats, and nesting past the limit names line and column.
#![cfg(all(
    feature = "godot",
    feature = "zeze",
    feature = "resonite",
    feature = "kingsisle"
))]

use std::path::Path;
use std::process::Output;

mod common;
use common::run_with_stdin;

fn kingsisle_types() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples/kingsisle/types.json")
        .display()
        .to_string()
}

/// `encode` arguments of each format and a JSON document it accepts, with `"KEY"` a key
/// that may be repeated and `VALUE` an integer value it holds.
fn cases() -> Vec<(Vec<String>, &'static str)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (s(&["encode", "godot4"]), r#"{"KEY": VALUE}"#),
        (s(&["encode", "godot3"]), r#"{"KEY": VALUE}"#),
        (s(&["encode", "zeze"]), r#"{"1": VALUE}"#),
        (s(&["encode", "resonite"]), r#"{"KEY": VALUE}"#),
        (
            vec![
                "encode".into(),
                "kingsisle".into(),
                "-t".into(),
                kingsisle_types(),
            ],
            r#"{"$class": "class SampleItem", "m_level": VALUE}"#,
        ),
    ]
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn repeated_keys_are_errors_unless_last_key_wins() {
    for (args, doc) in cases() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let once = doc.replace("KEY", "k").replace("VALUE", "7");
        let ok = run_with_stdin(&args, once.as_bytes());
        assert!(ok.status.success(), "{args:?}: {}", stderr(&ok));
        // The key of the document's last member appears twice.
        let (head, tail) = once.rsplit_once('}').unwrap();
        let last_member = head.rsplit_once(", ").map_or(&head[1..], |(_, m)| m);
        let twice = format!("{head},\n {last_member}{tail}}}");
        let out = run_with_stdin(&args, twice.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{args:?} accepted {twice}");
        let err = stderr(&out);
        assert!(
            err.contains("appears twice") && err.contains("line 2"),
            "{args:?}: {err}"
        );
        let mut lenient = args.clone();
        lenient.push("--last-key-wins");
        let out = run_with_stdin(&lenient, twice.as_bytes());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(out.stdout, ok.stdout, "{args:?}");
    }
}

#[test]
fn integers_past_64_bits_are_errors_not_floats() {
    for (args, doc) in cases() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for big in [
            "18446744073709551616",
            "-9223372036854775809",
            "1000000000000000000000000",
        ] {
            let text = doc.replace("KEY", "k").replace("VALUE", big);
            let out = run_with_stdin(&args, text.as_bytes());
            assert_eq!(out.status.code(), Some(1), "{args:?} accepted {text}");
            let err = stderr(&out);
            assert!(
                err.contains("outside the 64-bit range") && err.contains("line 1 column"),
                "{args:?}: {err}"
            );
        }
    }
}

#[test]
fn json_nesting_past_the_limit_names_line_and_column() {
    let text = format!("{{\n\"k\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
    for (args, _) in cases() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_with_stdin(&args, text.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("at line 2 column"), "{args:?}: {err}");
    }
}

#[test]
fn kingsisle_xml_nested_1000_deep_converts_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let types = dir.path().join("types.json");
    std::fs::write(
        &types,
        r#"{"version": 2, "classes": {"1": {"name": "class Node", "bases": ["PropertyClass"],
        "hash": 1, "singleton": false, "properties": {"m_child": {"type": "class Node",
        "id": 0, "offset": 8, "flags": 31, "container": "Static", "dynamic": false,
        "pointer": true, "hash": 77, "enum_options": {}}}}}}"#,
    )
    .unwrap();
    let types = types.display().to_string();
    let depth = 1000;
    let xml = format!(
        "<Objects>{}<Class Name=\"class Node\"></Class>{}</Objects>",
        "<Class Name=\"class Node\"><m_child>".repeat(depth),
        "</m_child></Class>".repeat(depth)
    );
    let json = run_with_stdin(&["decode", "kingsisle", "-t", &types, "-"], xml.as_bytes());
    assert!(json.status.success(), "{}", stderr(&json));
    let back = run_with_stdin(
        &["encode", "kingsisle", "-t", &types, "--xml", "-"],
        &json.stdout,
    );
    assert!(back.status.success(), "{}", stderr(&back));
    let again = run_with_stdin(&["decode", "kingsisle", "-t", &types, "-"], &back.stdout);
    assert_eq!(again.stdout, json.stdout);
}

/// An XML file of several objects decodes (streamed, one document view each) to a JSON
/// array of one document per object, which encodes back to the same XML.
#[test]
fn kingsisle_xml_of_two_objects_decodes_to_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let types = dir.path().join("types.json");
    std::fs::write(
        &types,
        r#"{"version": 2, "classes": {"1": {"name": "class Node", "bases": ["PropertyClass"],
        "hash": 1, "singleton": false, "properties": {"m_child": {"type": "class Node",
        "id": 0, "offset": 8, "flags": 31, "container": "Static", "dynamic": false,
        "pointer": true, "hash": 77, "enum_options": {}}}}}}"#,
    )
    .unwrap();
    let types = types.display().to_string();
    let xml = "<Objects><Class Name=\"class Node\"><m_child><Class Name=\"class Node\"></Class>\
               </m_child></Class><Class Name=\"class Node\"></Class></Objects>";
    let json = run_with_stdin(&["decode", "kingsisle", "-t", &types, "-"], xml.as_bytes());
    assert!(json.status.success(), "{}", stderr(&json));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let docs = v.as_array().expect("an array of documents");
    assert_eq!(docs.len(), 2);
    assert_ne!(
        docs[0], docs[1],
        "the first object holds a child, the second does not"
    );
    let back = run_with_stdin(
        &["encode", "kingsisle", "-t", &types, "--xml", "-"],
        &json.stdout,
    );
    assert!(back.status.success(), "{}", stderr(&back));
    let again = run_with_stdin(&["decode", "kingsisle", "-t", &types, "-"], &back.stdout);
    assert_eq!(again.stdout, json.stdout);
}
