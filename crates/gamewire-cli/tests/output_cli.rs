//! Where `-o` writes: atomically over regular files, in place into FIFOs and `/dev/stdout`,
//! through symbolic links to their targets; write errors exit 1 naming the destination;
//! pretty JSON of deep values stays in proportion to the input.
#![cfg(all(feature = "godot", unix))]

use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::bin;

/// A Godot 4 value: an array holding an array ... `depth` deep, around an empty one.
fn nested_arrays(depth: usize) -> Vec<u8> {
    let mut b = Vec::new();
    for _ in 0..depth {
        b.extend_from_slice(&28u32.to_le_bytes()); // ARRAY
        b.extend_from_slice(&1u32.to_le_bytes());
    }
    b.extend_from_slice(&28u32.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    b
}

fn write_input(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("in.bin");
    std::fs::write(&p, nested_arrays(3)).unwrap();
    p
}

#[test]
fn output_into_a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = bin()
        .args(["decode", "godot4", "--compact"])
        .arg(&input)
        .arg("-o")
        .arg(&fifo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(reader.join().unwrap(), b"[[[[]]]]\n");
    use std::os::unix::fs::FileTypeExt;
    let ft = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(ft.is_fifo(), "the FIFO was replaced: {ft:?}");
}

#[test]
fn output_to_dev_stdout_and_dash_go_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    for target in ["/dev/stdout", "-"] {
        let out = bin()
            .args(["decode", "godot4", "--compact"])
            .arg(&input)
            .args(["-o", target])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, b"[[[[]]]]\n", "{target}");
    }
}

/// A character device made here (as `/dev/null` is: major 1, minor 3), so that a wrong
/// code path cannot replace the real `/dev/null`: written in place, never replaced.
/// Needs the right to make device nodes (root); skipped otherwise.
#[test]
fn output_into_a_device_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let dev = dir.path().join("null");
    let made = Command::new("mknod")
        .arg(&dev)
        .args(["c", "1", "3"])
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: cannot make a device node here");
        return;
    }
    for target in [dev.clone(), dir.path().join("link-to-null")] {
        if target != dev {
            std::os::unix::fs::symlink("null", &target).unwrap();
        }
        let out = bin()
            .args(["decode", "godot4"])
            .arg(&input)
            .arg("-o")
            .arg(&target)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        use std::os::unix::fs::FileTypeExt;
        let ft = std::fs::symlink_metadata(&dev).unwrap().file_type();
        assert!(ft.is_char_device(), "the device was replaced: {ft:?}");
    }
    // No temporary file left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn output_through_a_symlink_replaces_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let real = dir.path().join("real.json");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let out = bin()
        .args(["decode", "godot4", "--compact"])
        .arg(&input)
        .arg("-o")
        .arg(&link)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), b"[[[[]]]]\n");
    // Nothing else left in the folder (no temporary file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn output_in_a_missing_folder_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let out = bin()
        .args(["decode", "godot4"])
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("nope/out.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the folder") && err.contains("nope"), "{err}");
    assert!(!err.contains(".gamewire-"), "{err}");
}

#[test]
fn a_failing_stdout_exits_1_with_a_message() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path());
    let out = bin()
        .args(["decode", "godot4"])
        .arg(&input)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write stdout"), "{err}");
}

#[test]
fn a_failed_decode_leaves_the_existing_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, [28, 0, 0, 0, 9, 0, 0, 0]).unwrap();
    let target = dir.path().join("out.json");
    std::fs::write(&target, b"precious").unwrap();
    let out = bin()
        .args(["decode", "godot4"])
        .arg(&bad)
        .arg("-o")
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&target).unwrap(), b"precious");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn pretty_json_of_deep_values_stays_in_proportion() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.bin");
    let bytes = nested_arrays(1000);
    std::fs::write(&input, &bytes).unwrap();
    let out = bin()
        .args(["decode", "godot4"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Indenting all 1,000 levels would print about 1 MB of spaces.
    assert!(
        out.stdout.len() < 2 * bytes.len(),
        "{} bytes of JSON for {} bytes",
        out.stdout.len(),
        bytes.len()
    );
    let enc = bin()
        .args(["encode", "godot4", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut enc = enc;
    use std::io::Write as _;
    enc.stdin.take().unwrap().write_all(&out.stdout).unwrap();
    let back = enc.wait_with_output().unwrap();
    assert_eq!(back.stdout, bytes);
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ints.bin");
    // An array of 100,000 ints: far more JSON than a pipe holds.
    let n = 100_000u32;
    let mut b = Vec::new();
    b.extend_from_slice(&28u32.to_le_bytes());
    b.extend_from_slice(&n.to_le_bytes());
    for _ in 0..n {
        b.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
    }
    std::fs::write(&input, b).unwrap();
    let mut child = bin()
        .args(["decode", "godot4"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    drop(child.stdout.take()); // like `| head -c 16`
    let out = child.wait_with_output().unwrap();
    assert_eq!(&head[..4], b"[\n  ");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
