//! Issue 24, items 1 and 2: data never acts as a command, and side files that are not
//! regular files are refused before they are read.
#![cfg(all(feature = "godot", feature = "kingsisle", feature = "zeze"))]

use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;
use common::gamewire;

fn samples(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples")
        .join(p)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn err_of(args: &[&str]) -> String {
    let o = gamewire(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_header_is_validated_settings() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("x.json");
    let out = dir.path().join("x.bin");
    let cases: &[(&str, &str)] = &[
        // An unknown member is an error, not ignored.
        (
            r#"{"$gamewire": {"format": "godot4", "framing": "bare", "allow_import": "/"}, "data": 1}"#,
            "unknown field",
        ),
        // A side file by a name no type list has: not read.
        (
            r#"{"$gamewire": {"format": "kingsisle", "file": "bind", "types": {"path": "../../../../etc/passwd", "sha256": ""}}, "data": {}}"#,
            "no name a type list has",
        ),
        // An older header's options and new settings together.
        (
            r#"{"$gamewire": {"format": "godot4", "framing": "bare", "encode": ["--framed"]}, "data": 1}"#,
            "one or the other",
        ),
        // An older header granting itself an option: refused.
        (
            r#"{"$gamewire": {"format": "o3de", "encode": ["--allow-import", "/"]}, "data": {}}"#,
            "\"--allow-import\"",
        ),
    ];
    for (doc, want) in cases {
        std::fs::write(&json, doc).unwrap();
        let err = err_of(&["encode", s(&json), "-o", s(&out)]);
        assert!(err.contains(want), "{doc}: {err}");
        assert!(!out.exists());
    }
}

/// Runs gamewire with a deadline: a side file that is a pipe must not make it wait.
fn within(args: &[&str], secs: u64) -> std::process::Output {
    let mut child = common::bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
#[cfg(unix)]
fn side_files_that_are_not_regular_files_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    // A type list that is a named pipe.
    std::fs::copy(samples("kingsisle/item.bin"), dir.path().join("item.bin")).unwrap();
    let fifo = dir.path().join("types.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let o = within(&["decode", s(&dir.path().join("item.bin"))], 20);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("not a regular file"),
        "{err}"
    );
    // A solution importing /dev/zero.
    let z = tempfile::tempdir().unwrap();
    std::fs::write(
        z.path().join("zeze-solution.xml"),
        r#"<solution name="s" ModuleIdAllowRanges="1-9"><import file="/dev/zero"/></solution>"#,
    )
    .unwrap();
    std::fs::copy(samples("zeze/BSimple.zeze"), z.path().join("BSimple.zeze")).unwrap();
    let o = within(&["decode", s(&z.path().join("BSimple.zeze"))], 20);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("not a regular file"),
        "{err}"
    );
    // And the same solution named with --schema.
    let o = within(
        &[
            "decode",
            "zeze",
            "--schema",
            s(&z.path().join("zeze-solution.xml")),
            "--bean",
            "x",
            s(&z.path().join("BSimple.zeze")),
        ],
        20,
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a regular file"));
}

#[test]
#[cfg(all(unix, feature = "o3de"))]
fn side_files_named_on_the_command_line_are_checked_alike() {
    let item = samples("kingsisle/item.bin");
    let o = within(&["decode", "kingsisle", "-t", "/dev/zero", s(&item)], 20);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("type list /dev/zero") && err.contains("not a regular file"),
        "{err}"
    );
    let prefab = samples("o3de/sample-entity.json");
    let o = within(&["decode", "o3de", "--schema", "/dev/zero", s(&prefab)], 20);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("registry /dev/zero") && err.contains("not a regular file"),
        "{err}"
    );
}

#[test]
#[cfg(feature = "o3de")]
fn encode_of_an_o3de_document_keeps_imports_as_written_and_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, br#"{"password": "hunter2"}"#).unwrap();
    let json = dir.path().join("x.json");
    std::fs::write(
        &json,
        format!(
            r#"{{"$gamewire": {{"format": "o3de", "layout": "pretty"}}, "data": {{"$import": "{}"}}}}"#,
            secret.display()
        ),
    )
    .unwrap();
    let o = gamewire(&["encode", s(&json)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("\"$import\"") && !out.contains("hunter2"),
        "{out}"
    );
}

#[test]
fn a_million_zeze_inheritance_levels_are_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("deep.zeze");
    let mut data = vec![0x01u8; 1_000_000];
    data.push(0x00);
    std::fs::write(&f, data).unwrap();
    for args in [vec!["decode", s(&f)], vec!["inspect", s(&f)]] {
        let o = within(&args, 60);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(1), "{args:?}: {all}");
        assert!(
            all.contains("deeper than the limit of 1024"),
            "{args:?}: {all}"
        );
    }
}
