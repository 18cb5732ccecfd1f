//! The repository stands alone (issue 23): no file of it points at data outside the
//! repository. The test data once lived in a `shared` folder beside the checkout, which a
//! fresh clone does not have; every fixture is now under `tests/fixtures` (each set with a
//! `SOURCES.md`). This test reads every text file that is tracked (or about to be: untracked
//! but not ignored) and fails, naming file and line, on any path back into that folder.
//!
//! The needles are put together from pieces, so that this file does not match itself and
//! nothing has to be left out.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a path back to the old fixture folder looks like, in the forms that were used:
/// relative to the repository (`..` then `shared`), the folder's own name followed by
/// `fixtures`, and the absolute path on the development machine.
fn needles() -> Vec<String> {
    let shared = "shared";
    vec![
        format!("../{shared}"),
        format!("{shared}/fixtures"),
        format!("/work/{shared}"),
    ]
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root")
}

/// The files git tracks, plus the untracked ones it does not ignore; `None` when git is
/// not there or this is not a git checkout.
fn git_files(root: &Path) -> Option<Vec<PathBuf>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut files: Vec<PathBuf> = out
        .stdout
        .split(|&b| b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| root.join(String::from_utf8_lossy(s).as_ref()))
        .collect();
    files.sort();
    files.dedup();
    Some(files)
}

/// Without git: every file under `root`, leaving out what `.gitignore` leaves out (build
/// output, installed peers, caches).
fn walked_files(root: &Path) -> Vec<PathBuf> {
    const SKIP: &[&str] = &[
        ".git",
        "target",
        "node_modules",
        ".ci-venv",
        "__pycache__",
        "bench-data",
        "logs",
    ];
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for e in entries {
            let e = e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            let kind = e
                .file_type()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if kind.is_dir() {
                let fuzz_output =
                    dir.ends_with("fuzz") && (name == "corpus" || name == "artifacts");
                if !SKIP.contains(&name.as_str()) && !fuzz_output {
                    stack.push(path);
                }
            } else if kind.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `file:line: text` for every line of `bytes` holding a needle. Binary files (a NUL in
/// them) are data, not text, and are left alone.
fn findings(shown: &str, bytes: &[u8], needles: &[String]) -> Vec<String> {
    if bytes.contains(&0) {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .enumerate()
        .filter(|(_, line)| needles.iter().any(|n| line.contains(n.as_str())))
        .map(|(i, line)| format!("{shown}:{}: {}", i + 1, line.trim()))
        .collect()
}

#[test]
fn no_file_points_outside_the_repository() {
    let root = root();
    let (files, how) = match git_files(&root) {
        Some(files) => (files, "git ls-files"),
        None => (walked_files(&root), "a walk of the tree"),
    };
    // An empty or tiny listing would pass without looking at anything.
    assert!(
        files.len() > 100,
        "only {} files found by {how} under {}",
        files.len(),
        root.display()
    );
    let needles = needles();
    let mut bad = Vec::new();
    let mut read = 0;
    for path in &files {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            // Tracked but deleted in the work tree: nothing there to point anywhere.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        read += 1;
        let shown = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        bad.extend(findings(&shown, &bytes, &needles));
    }
    assert!(read > 100, "only {read} files read");
    assert!(
        bad.is_empty(),
        "{} line(s) point outside the repository (fixtures belong in tests/fixtures, \
         with a SOURCES.md):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_check_finds_what_it_looks_for() {
    let needles = needles();
    let text = format!(
        "fine\nread {}/x.tsv here\nand {}/godot\nok\n",
        needles[0], needles[1]
    );
    assert_eq!(
        findings("a.rs", text.as_bytes(), &needles),
        [
            format!("a.rs:2: read {}/x.tsv here", needles[0]),
            format!("a.rs:3: and {}/godot", needles[1]),
        ]
    );
    // Binary data is not read as text.
    let mut data = text.into_bytes();
    data.push(0);
    assert!(findings("b.bin", &data, &needles).is_empty());
    assert!(findings("c.rs", b"tests/fixtures/godot/vectors", &needles).is_empty());
}
