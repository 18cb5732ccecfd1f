//! A user-set `--max-depth` above what the worker's stack allows is refused with a
//! message (every format's flag, one rule: at most 65,536), and the deepest allowed value
//! decodes nesting that deep without overflowing the stack.
#![cfg(all(feature = "godot", feature = "zeze"))]

use std::path::PathBuf;

mod common;
use common::gamewire;

/// Writes `bytes` to a file of this test's own.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("depth-cli-{name}"));
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A Godot 4 `store_var` array nested `n` deep (each array holds the next).
fn godot_nested(n: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(n * 8);
    for i in 0..n {
        b.extend_from_slice(&28u32.to_le_bytes());
        b.extend_from_slice(&u32::from(i + 1 < n).to_le_bytes());
    }
    b
}

/// A Zeze bean nested `n` deep (field 1 of type bean, over and over).
fn zeze_nested(n: usize) -> Vec<u8> {
    let mut b = vec![0x16; n];
    b.resize(2 * n + 1, 0);
    b
}

/// Asserts a run ended with an exit code (not a signal such as SIGABRT from a stack
/// overflow), and returns the code and standard error.
fn code(out: &std::process::Output) -> (i32, String) {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let c = out
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {:?}\n{stderr}", out.status));
    (c, stderr)
}

#[test]
fn a_max_depth_above_what_the_stack_allows_is_refused_for_every_format() {
    let deep = file("godot-2m.bin", &godot_nested(2_000_000));
    let path = deep.to_str().unwrap();
    for format in ["godot4", "godot3", "zeze", "resonite", "kingsisle"] {
        let out = gamewire(&["decode", format, "--max-depth", "100000000", path]);
        let (c, stderr) = code(&out);
        assert_eq!(c, 2, "{format}: {stderr}");
        assert!(
            stderr.contains("--max-depth 100000000 is above the most this build supports (65536)"),
            "{format}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{format}");
    }
    // The largest supported value is accepted.
    let out = gamewire(&["decode", "godot4", "--max-depth", "65536", path]);
    let (c, stderr) = code(&out);
    assert_eq!(c, 1, "{stderr}");
    assert!(stderr.contains("deep"), "{stderr}");
}

#[test]
fn godot_nesting_at_the_largest_max_depth_decodes() {
    let n = 65_536;
    let f = file("godot-64k.bin", &godot_nested(n));
    let out = gamewire(
        &["decode", "godot4", "--compact", "--max-depth", "65536"]
            .iter()
            .copied()
            .chain([f.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    let (c, stderr) = code(&out);
    assert_eq!(c, 0, "{stderr}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches('[').count(), n);
    // Deeper than allowed: an error, not a crash.
    let f = file("godot-64k1.bin", &godot_nested(n + 2));
    let out = gamewire(&[
        "decode",
        "godot4",
        "--max-depth",
        "65536",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code(&out).0, 1);
}

#[test]
fn zeze_nesting_at_the_largest_max_depth_decodes_and_deeper_is_an_error() {
    let f = file("zeze-64k.bin", &zeze_nested(65_535));
    let out = gamewire(&[
        "decode",
        "zeze",
        "--compact",
        "--max-depth",
        "65536",
        f.to_str().unwrap(),
    ]);
    let (c, stderr) = code(&out);
    assert_eq!(c, 0, "{stderr}");
    let f = file("zeze-2m.bin", &zeze_nested(2_000_000));
    let out = gamewire(&[
        "decode",
        "zeze",
        "--max-depth",
        "65536",
        f.to_str().unwrap(),
    ]);
    let (c, stderr) = code(&out);
    assert_eq!(c, 1, "{stderr}");
    let out = gamewire(&[
        "decode",
        "zeze",
        "--max-depth",
        "100000000",
        f.to_str().unwrap(),
    ]);
    let (c, stderr) = code(&out);
    assert_eq!(c, 2, "{stderr}");
    assert!(
        stderr.contains("above the most this build supports"),
        "{stderr}"
    );
}
