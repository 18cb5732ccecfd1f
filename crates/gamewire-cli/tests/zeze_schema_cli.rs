//! `--schema` with a real Zeze solution that imports others (tests/fixtures/zeze/real).
#![cfg(feature = "zeze")]

mod common;
use common::run_with_stdin;

#[test]
fn a_schema_follows_its_imports() {
    // ZezexJava's solution.xml imports ../ZezeJava/solution.zeze.xml, where BTimer is.
    let xml = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/real/ZezeJava/ZezexJava/solution.xml"
    );
    let args = ["--schema", xml, "--bean", "Zeze.Builtin.Timer.BTimer"];
    let enc = run_with_stdin(
        &[&["encode", "zeze"][..], &args].concat(),
        br#"{"TimerName": "ab"}"#,
    );
    assert!(enc.status.success(), "{enc:?}");
    // TimerName: tag 13 (id 1, BYTES), length 2, "ab"; end 00.
    assert_eq!(enc.stdout, [0x13, 0x02, b'a', b'b', 0x00]);
    let dec = run_with_stdin(&[&["decode", "zeze"][..], &args].concat(), &enc.stdout);
    assert!(dec.status.success(), "{dec:?}");
    let j: serde_json::Value = serde_json::from_slice(&dec.stdout).unwrap();
    assert_eq!(j["TimerName"], "ab");
    assert_eq!(j["TimerObj"]["type_id"], 0);
}

#[test]
fn a_missing_import_is_an_error_naming_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("s.xml");
    std::fs::write(
        &xml,
        r#"<solution name="s"><import file="gone.xml"/></solution>"#,
    )
    .unwrap();
    let out = run_with_stdin(
        &[
            "decode",
            "zeze",
            "--schema",
            xml.to_str().unwrap(),
            "--bean",
            "X",
        ],
        &[0],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("s.xml") && err.contains("gone.xml"), "{err}");
}

#[test]
fn schema_without_bean_lists_the_beans_and_suggests_the_files_one() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/zeze/");
    let xml = format!("{root}zeze-solution.xml");
    let out = common::gamewire(&[
        "decode",
        "zeze",
        "--schema",
        &xml,
        &format!("{root}BSimple.zeze"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--schema needs --bean NAME"), "{err}");
    // Every bean of the (small) solution, then the one the file is named after.
    for b in [
        "fixtures.BSimple",
        "fixtures.outer.BOuter",
        "fixtures.Final",
    ] {
        assert!(err.contains(b), "{b} missing: {err}");
    }
    assert!(
        err.contains("the input's name suggests --bean fixtures.BSimple"),
        "{err}"
    );
    // A name that is no bean's: the list, no suggestion.
    let out = run_with_stdin(&["decode", "zeze", "--schema", &xml], b"\x00");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fixtures.BHolder") && !err.contains("suggests"),
        "{err}"
    );
}
