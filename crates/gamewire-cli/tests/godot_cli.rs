//! The `gamewire` binary on Godot data: round trips, one-line errors, atomic output.
#![cfg(feature = "godot")]

use std::path::{Path, PathBuf};
use std::process::Stdio;

mod common;
use common::{bin, run_with_stdin};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/godot")
}

#[test]
fn engine_sample_round_trips_through_json_on_the_command_line() {
    let original = std::fs::read(samples().join("save.godot3.bin")).unwrap();
    let dec = bin()
        .args(["decode", "godot3"])
        .arg(samples().join("save.godot3.bin"))
        .output()
        .unwrap();
    assert!(
        dec.status.success(),
        "{}",
        String::from_utf8_lossy(&dec.stderr)
    );
    let text = String::from_utf8(dec.stdout.clone()).unwrap();
    assert!(text.contains("\"name\": \"Ann\""), "{text}");
    assert!(text.contains("\"$type\": \"Vector3\""), "{text}");
    let enc = run_with_stdin(&["encode", "godot3"], &dec.stdout);
    assert!(
        enc.status.success(),
        "{}",
        String::from_utf8_lossy(&enc.stderr)
    );
    assert_eq!(enc.stdout, original);
}

#[test]
fn framed_stream_round_trips() {
    let original = std::fs::read(samples().join("stream.godot3.bin")).unwrap();
    let dec = bin()
        .args(["decode", "godot3", "--framed", "--compact"])
        .arg(samples().join("stream.godot3.bin"))
        .output()
        .unwrap();
    assert!(dec.status.success());
    assert_eq!(String::from_utf8_lossy(&dec.stdout).lines().count(), 3);
    let enc = run_with_stdin(&["encode", "godot3", "--framed"], &dec.stdout);
    assert_eq!(enc.stdout, original);
}

#[test]
fn bad_input_is_one_line_with_the_offset_and_exit_1() {
    let out = run_with_stdin(
        &["decode", "godot4"],
        &[0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("at byte 4"), "{err}");
    assert!(out.stdout.is_empty());
    // Full objects need --allow-objects.
    let obj = [0x18, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        run_with_stdin(&["decode", "godot4"], &obj).status.code(),
        Some(1)
    );
    assert!(
        run_with_stdin(&["decode", "godot4", "--allow-objects"], &obj)
            .status
            .success()
    );
}

#[test]
fn failed_encode_leaves_no_output_file_and_keeps_an_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let bad = run_with_stdin(
        &["encode", "godot4", "-o", out.to_str().unwrap()],
        b"{\"$type\": \"Vector2i\", \"value\": [1]}",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(!out.exists());
    std::fs::write(&out, b"keep me").unwrap();
    let bad = run_with_stdin(&["encode", "godot4", "-o", out.to_str().unwrap()], b"[1, 2");
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    let good = run_with_stdin(&["encode", "godot4", "-o", out.to_str().unwrap()], b"7");
    assert!(good.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), [2, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary files left"
    );
}

#[test]
fn inspect_shows_types_and_detects_by_name() {
    let out = bin().arg("inspect").arg(samples()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("save.godot3.bin: godot3"), "{text}");
    assert!(text.contains("\"level\": int = 12"), "{text}");
    assert!(text.contains("3 framed value(s)"), "{text}");
}

#[test]
fn values_1024_deep_survive_json_both_ways() {
    // [[[...null...]]] 1024 levels deep: the engine's limit.
    let mut bytes = Vec::new();
    for _ in 0..1024 {
        bytes.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let dec = run_with_stdin(&["decode", "godot4", "--compact"], &bytes);
    assert!(
        dec.status.success(),
        "{}",
        String::from_utf8_lossy(&dec.stderr)
    );
    let enc = run_with_stdin(&["encode", "godot4"], &dec.stdout);
    assert!(
        enc.status.success(),
        "{}",
        String::from_utf8_lossy(&enc.stderr)
    );
    assert_eq!(enc.stdout, bytes);
}

#[test]
fn inspect_into_a_closed_pipe_ends_quietly() {
    let mut child = bin()
        .arg("inspect")
        .arg(samples())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once, like `| head -0`
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}
