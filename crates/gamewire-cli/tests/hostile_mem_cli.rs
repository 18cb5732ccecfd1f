//! The `gamewire` binary on hostile schemas and bombs: a Zeze solution whose bean holds
//! itself, decompression bombs past the limit flags, `$import` outside the folder.

use std::path::Path;
use std::process::Command;

mod common;
use common::bin;

const SELF_HOLDING: &str = r#"<solution name="s"><module name="m" id="1">
  <bean name="A"><variable id="1" name="b" type="B"/></bean>
  <bean name="B"><variable id="1" name="a" type="A"/></bean>
</module></solution>"#;

#[test]
#[cfg(feature = "zeze")]
fn a_self_holding_bean_is_an_error_naming_the_file_even_on_byte_00() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("zeze-solution.xml");
    std::fs::write(&xml, SELF_HOLDING).unwrap();
    let input = dir.path().join("A.zeze");
    std::fs::write(&input, [0u8]).unwrap();
    let out = bin()
        .args(["decode", "zeze", "--schema"])
        .arg(&xml)
        .args(["--bean", "A"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds itself by value"), "{err}");
    assert!(err.contains("zeze-solution.xml"), "{err}");
    // `inspect` of the folder reports it and does not abort.
    let out = bin().arg("inspect").arg(dir.path()).output().unwrap();
    assert!(out.status.code().is_some(), "killed by a signal: {out:?}");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("holds itself by value"), "{all}");
}

#[test]
#[cfg(feature = "resonite")]
fn the_decompression_flags_bound_a_bomb() {
    use gamewire::resonite::{encode, Compression, Document, EncodeOptions, Value};
    let mut doc = Document::new();
    doc.push("z", Value::String("\u{1}".repeat(8 << 20).into()));
    let o = EncodeOptions {
        brotli_quality: 1,
        ..EncodeOptions::new(Compression::Brotli)
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bomb.brson");
    std::fs::write(&file, encode(&doc, &o).unwrap()).unwrap();
    let run = |extra: &[&str]| {
        bin()
            .args(["decode", "resonite"])
            .args(extra)
            .arg(&file)
            .arg("-o")
            .arg(dir.path().join("out.json"))
            .output()
            .unwrap()
    };
    let out = run(&[
        "--decompress-allowance",
        "1048576",
        "--decompress-ratio",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expands past the limit"), "{err}");
    // The defaults (64 MiB whatever the ratio) open it.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(Path::new(&dir.path().join("out.json")).exists());
}

#[test]
#[cfg(feature = "o3de")]
fn import_outside_the_folder_needs_allow_import() {
    let registry =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de/o3de-registry.json");
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("project");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(top.path().join("outside.json"), "[1, 2]").unwrap();
    let input = dir.join("main.json");
    std::fs::write(&input, r#"{"$import": "../outside.json"}"#).unwrap();
    let run = |extra: &[&std::ffi::OsStr]| {
        bin()
            .args(["decode", "o3de", "--schema"])
            .arg(&registry)
            .args(["--type", "vector<i32>", "--compact", "--canonical"])
            .args(extra)
            .arg(&input)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside the importing file's folder"), "{err}");
    let out = run(&["--allow-import".as_ref(), top.path().as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("[1,2]"),
        "{out:?}"
    );
}

/// Under an address-space limit too small for the worker thread's stack, the binary
/// says so and exits 1 (it panicked, and the panic's report could hang allocating).
#[test]
#[cfg(target_os = "linux")]
fn too_small_an_address_space_is_an_error_not_a_panic() {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 200000 && exec \"$0\" hash string-id x")
        .arg(env!("CARGO_BIN_EXE_gamewire"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start the worker thread") && !err.contains("panicked"),
        "{err}"
    );
}

/// `decode FILE` streams its JSON (header first, with the format's first byte): a file
/// that fails to decode writes nothing at all to stdout, and a good one gives the same
/// document as before.
#[test]
#[cfg(feature = "resonite")]
fn decode_file_that_fails_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // A FrDT header, then a BSON document whose terminator is wrong.
    let bad = dir.path().join("bad.frdt");
    std::fs::write(&bad, b"FrDT\0\0\0\0\0\x05\0\0\0\x01").unwrap();
    let out = bin().arg("decode").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at byte 13"));
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/resonite/item.brson");
    let out = bin().arg("decode").arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("{\"$gamewire\": "), "{text:.80}");
    assert!(text.ends_with("}}\n"), "{text:.80}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["$gamewire"]["format"], "resonite");
    assert!(v["data"].is_object());
}
