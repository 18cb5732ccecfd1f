//! `gamewire inspect DIR` on folders holding special files: named pipes, devices and
//! symbolic-link loops are skipped with a note, every good file is listed, and the run ends.
#![cfg(all(feature = "godot", unix))]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn inspect_skips_fifos_and_link_loops_and_lists_every_good_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two good files around the bad entries (names sort: a, b..., z).
    let int42 = [2u8, 0, 0, 0, 42, 0, 0, 0];
    std::fs::write(d.join("a.godot4.bin"), int42).unwrap();
    std::fs::write(d.join("z.godot4.bin"), int42).unwrap();
    let has_fifo = Command::new("mkfifo")
        .arg(d.join("m-pipe"))
        .status()
        .is_ok_and(|s| s.success());
    std::os::unix::fs::symlink("n-loop", d.join("n-loop")).unwrap();
    std::os::unix::fs::symlink("gone", d.join("o-broken")).unwrap();
    // A device reached through a link (reading /dev/zero would never end).
    std::os::unix::fs::symlink("/dev/zero", d.join("q-zero")).unwrap();
    std::fs::create_dir(d.join("p-sub")).unwrap();
    std::os::unix::fs::symlink("..", d.join("p-sub/up")).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .arg("inspect")
        .arg(d)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("inspect did not finish (stuck on the named pipe?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}\n{err}");
    assert!(text.contains("a.godot4.bin: godot4"), "{text}");
    assert!(text.contains("z.godot4.bin: godot4"), "{text}");
    assert_eq!(text.matches("int = 42").count(), 2, "{text}");
    if has_fifo {
        assert!(text.contains("m-pipe: skipped: a named pipe"), "{text}");
    }
    assert!(text.contains("n-loop: skipped: a symbolic link"), "{text}");
    assert!(
        text.contains("o-broken: skipped: a broken symbolic link"),
        "{text}"
    );
    assert!(text.contains("up: skipped: folder"), "{text}");
    assert!(text.contains("q-zero: skipped: a device"), "{text}");
}

#[test]
fn inspect_reports_an_unreadable_named_path_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("a.godot4.bin");
    std::fs::write(&good, [2u8, 0, 0, 0, 7, 0, 0, 0]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .arg("inspect")
        .arg(dir.path().join("missing.bin"))
        .arg(&good)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("missing.bin: error:"), "{text}");
    assert!(text.contains("int = 7"), "{text}");
}
