//! Builds the Python package with maturin and runs its pytest suite (tests/python).
//!
//! Skipped with a printed reason when `python3` lacks maturin or pytest; required under
//! `GAMEWIRE_REQUIRE_PEERS=1`. The build reuses the workspace target directory.

use gamewire_core::peers;
use std::path::{Path, PathBuf};
use std::process::Command;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pytest_suite_passes() {
    let have = peers::python_has(&["maturin", "pytest"]);
    if !peers::available(
        "python3 with maturin and pytest",
        have,
        "pip install maturin pytest",
    ) {
        return;
    }
    let dir = crate_dir();
    let root = dir.join("../..");
    let target = root.join("target");
    let tmp = tempfile::tempdir().expect("temp dir");
    let wheels = tmp.path().join("wheels");
    let site = tmp.path().join("site");
    run(
        Command::new("python3")
            .args([
                "-m",
                "maturin",
                "build",
                "--quiet",
                "--interpreter",
                "python3",
                "-o",
            ])
            .arg(&wheels)
            .arg("-m")
            .arg(dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target),
        "maturin build",
    );
    // The CLI, for the test that runs every sample through the library, the CLI and
    // Python (tests/python/test_one_library.py).
    run(
        Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "gamewire-cli",
                "--bin",
                "gamewire",
            ])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&root),
        "cargo build gamewire-cli",
    );
    let gamewire_bin = target.join("debug").join("gamewire");
    let wheel = std::fs::read_dir(&wheels)
        .expect("wheel dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("maturin wrote a wheel");
    run(
        Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "--no-deps", "--target"])
            .arg(&site)
            .arg(&wheel),
        "pip install wheel",
    );
    run(
        Command::new("python3")
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(dir.join("tests/python"))
            .env("PYTHONPATH", prepend(&site))
            .env("GAMEWIRE_BIN", &gamewire_bin)
            .current_dir(tmp.path()),
        "pytest",
    );
}

fn prepend(p: &Path) -> std::ffi::OsString {
    let mut v = p.as_os_str().to_owned();
    if let Some(old) = std::env::var_os("PYTHONPATH") {
        v.push(":");
        v.push(old);
    }
    v
}
