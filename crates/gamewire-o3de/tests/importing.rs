//! `$import` resolution, after O3DE's `TestCases_Importing.cpp`: imported objects and
//! arrays, nested imports, the directive's patch, cycles, and missing files.

use gamewire_o3de::import::{resolve_imports, MemoryImporter};
use gamewire_o3de::Outcome;
use serde_json::json;
use std::path::PathBuf;

fn files(list: &[(&str, serde_json::Value)]) -> MemoryImporter {
    MemoryImporter(
        list.iter()
            .map(|(p, j)| (PathBuf::from(p), j.clone()))
            .collect(),
    )
}

#[test]
fn imports_object_and_array() {
    let mut imp = files(&[
        ("dir/obj.json", json!({"field_1": "value_1", "field_2": 2})),
        ("dir/arr.json", json!([1, 2, 3])),
    ]);
    let mut doc =
        json!({"name": "x", "object": {"$import": "obj.json"}, "list": [{"$import": "arr.json"}]});
    let r = resolve_imports(&mut doc, "dir/main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Success);
    assert_eq!(
        doc,
        json!({"name": "x", "object": {"field_1": "value_1", "field_2": 2}, "list": [[1, 2, 3]]})
    );
    assert_eq!(
        r.imported,
        vec![PathBuf::from("dir/obj.json"), PathBuf::from("dir/arr.json")]
    );
}

#[test]
fn nested_imports_and_patch() {
    let mut imp = files(&[
        (
            "a/outer.json",
            json!({"inner": {"$import": "sub/inner.json"}, "keep": true}),
        ),
        ("a/sub/inner.json", json!({"x": 1, "y": {"z": 2}})),
    ]);
    let mut doc = json!({"root": {"$import": {"filename": "a/outer.json", "patch": {"keep": null, "extra": 5}}}});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Success);
    assert_eq!(
        doc,
        json!({"root": {"inner": {"x": 1, "y": {"z": 2}}, "extra": 5}})
    );
    assert_eq!(r.imported.len(), 2);
}

#[test]
fn cycles_and_missing_files_are_catastrophic() {
    let mut imp = files(&[
        ("one.json", json!({"next": {"$import": "two.json"}})),
        ("two.json", json!({"back": {"$import": "./one.json"}})),
    ]);
    let mut doc = json!({"start": {"$import": "one.json"}});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert!(
        r.report.issues[0].message.contains("cyclic"),
        "{:?}",
        r.report.issues
    );

    let mut doc = json!({"self": {"$import": "main.json"}});
    let r = resolve_imports(
        &mut doc,
        "main.json".as_ref(),
        &mut files(&[("main.json", json!({}))]),
    );
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);

    let mut doc = json!({"a": [{"$import": "missing.json"}]});
    let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut files(&[]));
    assert_eq!(r.report.outcome(), Outcome::Catastrophic);
    assert_eq!(r.report.issues[0].path, "/a/0");
}

fn o3de_test_files() -> MemoryImporter {
    // TestCases_Importing.cpp's object.json and array.json.
    files(&[
        (
            "object.json",
            json!({"field_1": "value_1", "field_2": "value_2", "field_3": "value_3"}),
        ),
        (
            "array.json",
            json!([{"element_1": "value_1"}, {"element_2": "value_2"}, {"element_3": "value_3"}]),
        ),
    ])
}

#[test]
fn import_load_store_ports() {
    use gamewire_o3de::import::restore_imports;
    // ImportSimpleObjectLoadStoreTest, ImportSimpleArrayLoadStoreTest and a patched
    // import: load resolves, store gives the original input back.
    let cases = [
        (
            json!({"name": "simple_object_import", "object": {"$import": "object.json"}}),
            json!({"name": "simple_object_import", "object": {"field_1": "value_1", "field_2": "value_2", "field_3": "value_3"}}),
        ),
        (
            json!({"name": "simple_array_import", "object": {"$import": "array.json"}}),
            json!({"name": "simple_array_import", "object": [{"element_1": "value_1"}, {"element_2": "value_2"}, {"element_3": "value_3"}]}),
        ),
        (
            json!({"name": "patched", "object": {"$import": {"filename": "object.json", "patch": {"field_2": "patched", "field_3": null}}}}),
            json!({"name": "patched", "object": {"field_1": "value_1", "field_2": "patched"}}),
        ),
    ];
    for (input, expected) in cases {
        let mut imp = o3de_test_files();
        let mut doc = input.clone();
        let r = resolve_imports(&mut doc, "main.json".as_ref(), &mut imp);
        assert_eq!(r.report.outcome(), Outcome::Success);
        assert_eq!(doc, expected);
        let rr = restore_imports(&mut doc, &r.directives, &mut imp);
        assert_eq!(rr.outcome(), Outcome::Success, "{:?}", rr.issues);
        assert_eq!(doc, input);
    }
}

#[test]
fn alias_paths() {
    // LocalFileIO::ReplaceAlias (called by JsonImportResolver before joining the name to
    // the importing file's folder): a name starting with an alias key, compared without
    // regard to case, has the key replaced by the alias path as plain text; an absolute
    // result replaces the folder; an unknown alias is left as written, so the import
    // fails to read (Catastrophic, "Failed to import file").
    use gamewire_o3de::import::{resolve_imports_with, ImportOptions};
    let opts = ImportOptions::default()
        .alias("engroot", "/engine")
        .alias("@projectroot@", "proj");
    let imp = || {
        files(&[
            ("/engine/a.json", json!({"from": "engine"})),
            ("/engine-x.json", json!({"from": "concat"})),
            ("dir/proj/b.json", json!({"from": "project"})),
            (
                "/engine/nested.json",
                json!({"inner": {"$import": "@engroot@/a.json"}}),
            ),
        ])
    };
    let cases: &[(&str, Outcome, serde_json::Value, &str)] = &[
        (
            "@engroot@/a.json",
            Outcome::Success,
            json!({"from": "engine"}),
            "/engine/a.json",
        ),
        (
            "@ENGROOT@/a.json",
            Outcome::Success,
            json!({"from": "engine"}),
            "/engine/a.json",
        ),
        (
            "@EngRoot@-x.json",
            Outcome::Success,
            json!({"from": "concat"}),
            "/engine-x.json",
        ),
        (
            "@projectroot@/b.json",
            Outcome::Success,
            json!({"from": "project"}),
            "proj/b.json",
        ),
        (
            "@engroot@/nested.json",
            Outcome::Success,
            json!({"inner": {"from": "engine"}}),
            "/engine/nested.json",
        ),
        (
            "@gemroot@/a.json",
            Outcome::Catastrophic,
            json!({"$import": "@gemroot@/a.json"}),
            "",
        ),
        (
            "engroot/a.json",
            Outcome::Catastrophic,
            json!({"$import": "engroot/a.json"}),
            "",
        ),
    ];
    for (name, outcome, value, filename) in cases {
        let mut doc = json!({"v": {"$import": name}});
        let r = resolve_imports_with(&mut doc, "dir/main.json".as_ref(), &mut imp(), &opts);
        assert_eq!(r.report.outcome(), *outcome, "{name}: {:?}", r.report);
        assert_eq!(doc["v"], *value, "{name}");
        if *outcome == Outcome::Catastrophic {
            let msg = &r.report.issues[0].message;
            assert!(msg.starts_with("Failed to import file \"dir/"), "{msg}");
            assert_eq!(r.report.issues[0].path, "/v");
        } else {
            // The directive records the name with the alias replaced, as O3DE does.
            assert_eq!(r.directives[0].filename, *filename, "{name}");
        }
    }
    // Restoring: the nested alias import inside the file resolves with the same options,
    // and the directive is written back with the replaced name.
    use gamewire_o3de::import::restore_imports_with;
    let mut doc = json!({"v": {"$import": "@engroot@/nested.json"}});
    let mut files = imp();
    let r = resolve_imports_with(&mut doc, "dir/main.json".as_ref(), &mut files, &opts);
    let rr = restore_imports_with(&mut doc, &r.directives, &mut files, &opts);
    assert!(rr.issues.is_empty(), "{rr:?}");
    let written = &doc["v"]["$import"];
    let name = written.as_str().or(written["filename"].as_str());
    assert_eq!(name, Some("/engine/nested.json"), "{doc}");
    // Without the alias, the nested import inside the file cannot be read.
    let mut doc2 = json!({"v": {"inner": {"from": "engine"}}});
    let rr = gamewire_o3de::import::restore_imports(&mut doc2, &r.directives, &mut files);
    assert!(
        rr.issues[0]
            .message
            .starts_with("Failed to import file \"/engine/@engroot@/a.json\""),
        "{rr:?}"
    );
    assert_eq!(opts.replace_alias("@engroot@"), "/engine");
    assert_eq!(opts.replace_alias("x/@engroot@/a"), "x/@engroot@/a");
}

/// Imported files are read keeping duplicate member names, as rapidjson keeps them: a
/// multimap given as an object takes the values of every member of a repeated key
/// (`UnorderedMultiMapSerializer`), also when the object came from an `$import`, and a
/// merge patch on the directive changes the first member of the name (`FindMember`).
#[test]
fn duplicate_names_in_imported_files() {
    use gamewire_o3de::import::{resolve_imports_keeping_duplicates, FileImporter, ImportOptions};
    use gamewire_o3de::{
        load_with_duplicates, parse_json_keeping_duplicates, store, LoadOptions, Registry,
        StoreOptions,
    };
    let dir = std::env::temp_dir().join(format!("gamewire-o3de-dups-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/m.json"), br#"{"a": [1], "b": [2], "a": [5]}"#).unwrap();
    std::fs::write(
        dir.join("sub/outer.json"),
        br#"{"x": {"$import": "m.json"}}"#,
    )
    .unwrap();
    let reg = Registry::from_json(&json!({})).unwrap();
    let mm = "unordered_multimap<string,i32>";
    let nested = "map<string,unordered_multimap<string,i32>>";
    let cases: &[(&str, &str, serde_json::Value)] = &[
        (
            mm,
            r#"{"$import": "sub/m.json"}"#,
            json!({"a": [1, 5], "b": [2]}),
        ),
        // Nested: the imported file imports another; pointers follow.
        (
            nested,
            r#"{"$import": "sub/outer.json"}"#,
            json!({"x": {"a": [1, 5], "b": [2]}}),
        ),
        (
            nested,
            r#"{"y": {"$import": "sub/m.json"}}"#,
            json!({"y": {"a": [1, 5], "b": [2]}}),
        ),
        // The patch replaces the first "a"; the second stays.
        (
            mm,
            r#"{"$import": {"filename": "sub/m.json", "patch": {"a": [9]}}}"#,
            json!({"a": [5, 9], "b": [2]}),
        ),
        // The patch removes the first "a": the second is all that is left.
        (
            mm,
            r#"{"$import": {"filename": "sub/m.json", "patch": {"a": null}}}"#,
            json!({"a": [5], "b": [2]}),
        ),
        // A directive given twice: the first one is used.
        (
            mm,
            r#"{"$import": "sub/m.json", "$import": "sub/none.json"}"#,
            json!({"a": [1, 5], "b": [2]}),
        ),
    ];
    for (ty, text, stored) in cases {
        let ty = reg.parse_type(ty).unwrap();
        let (mut doc, mut dups) = parse_json_keeping_duplicates(text.as_bytes()).unwrap();
        let r = resolve_imports_keeping_duplicates(
            &mut doc,
            &mut dups,
            &dir.join("main.json"),
            &mut FileImporter,
            &ImportOptions::default(),
        );
        assert_eq!(
            r.report.outcome(),
            Outcome::Success,
            "{text}: {:?}",
            r.report
        );
        let (v, rep) = load_with_duplicates(&reg, &ty, doc, &dups, &LoadOptions::default());
        assert_eq!(rep.outcome(), Outcome::Success, "{text}: {rep:?}");
        assert_eq!(
            &store(&reg, &ty, &v, &StoreOptions::default()).0,
            stored,
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
