//! Support for tests that talk to a live peer (an engine or an independent library).
//!
//! A peer test skips with a printed reason when its peer is absent, unless the
//! environment variable `GAMEWIRE_REQUIRE_PEERS=1` is set (as CI does): then a missing
//! peer fails the test.

/// True when `GAMEWIRE_REQUIRE_PEERS` is set to `1`.
pub fn required() -> bool {
    std::env::var("GAMEWIRE_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// Decides whether a peer test runs.
///
/// Returns `true` when the peer is available. When it is not, prints why the test is
/// skipped and returns `false`, or panics (failing the test) when peers are required.
pub fn available(peer: &str, present: bool, why_absent: &str) -> bool {
    if present {
        return true;
    }
    if required() {
        panic!("peer {peer} is required (GAMEWIRE_REQUIRE_PEERS=1) but absent: {why_absent}");
    }
    eprintln!("SKIPPED: peer {peer} absent: {why_absent}");
    false
}

/// True when `python3 -c "import <module>"` succeeds for every module named.
pub fn python_has(modules: &[&str]) -> bool {
    let script = modules
        .iter()
        .map(|m| format!("import {m}"))
        .collect::<Vec<_>>()
        .join("; ");
    std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// True when `program` can be started (looked up on `PATH`).
pub fn program_exists(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
