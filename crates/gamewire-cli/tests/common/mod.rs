//! Running the `gamewire` binary from the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `gamewire` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamewire"))
}

/// Runs `gamewire args` and waits for it.
pub fn gamewire(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Runs `gamewire args` in the repository's root folder (for paths such as `samples/...`).
pub fn gamewire_in_repo(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .unwrap()
}

/// Runs `gamewire args` with `stdin` as its standard input.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}
