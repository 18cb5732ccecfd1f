//! Input and output for the CLI: stdin/stdout or files, written atomically.

use crate::CliResult;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Reads the whole input: the file at `path`, or stdin when `path` is `None` or `-`.
pub fn read_input(path: Option<&Path>) -> CliResult<Vec<u8>> {
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()).into())
        }
        _ => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(buf)
        }
    }
}

/// Writes `bytes` to `path` atomically (a temporary file in the same folder, then a
/// rename), or to stdout when `path` is `None` or `-`. A failed run never leaves a
/// half-written or clobbered file.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> CliResult {
    match path {
        Some(p) if p != Path::new("-") => write_atomic(p, bytes),
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()?;
            Ok(())
        }
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> CliResult {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    // A temporary file is private (0600); give the output the permissions of the file it
    // replaces, or the usual ones for a new file.
    let perms = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => default_permissions(),
    };
    tmp.as_file()
        .set_permissions(perms)
        .map_err(|e| format!("cannot set the permissions of {}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("cannot replace {}: {}", path.display(), e.error))?;
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

#[cfg(not(unix))]
fn default_permissions() -> std::fs::Permissions {
    let mut p = tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.permissions())
        .expect("a temporary file");
    p.set_readonly(false);
    p
}

/// Serialises a JSON value, pretty (indented) or compact, with a final newline.
pub fn json_bytes(value: &serde_json::Value, pretty: bool) -> CliResult<Vec<u8>> {
    let mut out = if pretty {
        serde_json::to_vec_pretty(value)?
    } else {
        serde_json::to_vec(value)?
    };
    out.push(b'\n');
    Ok(out)
}

/// Deepest JSON nesting accepted on input. Engine formats nest up to 1024 levels, and a
/// tagged value can take up to three JSON levels per engine level.
pub const MAX_JSON_DEPTH: usize = 4096;

/// The deepest nesting of `[` and `{` in JSON text (outside strings), found without
/// recursion, so that parsing can be allowed past serde_json's default of 128 levels
/// without letting hostile input exhaust the stack.
pub fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_str = true,
                b'[' | b'{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    max
}

/// Parses a stream of JSON documents (one or more, separated by white space), naming the
/// document, line and column of a syntax error. Nesting up to [`MAX_JSON_DEPTH`].
pub fn parse_json_stream(bytes: &[u8]) -> CliResult<Vec<serde_json::Value>> {
    let depth = json_depth(bytes);
    if depth > MAX_JSON_DEPTH {
        return Err(format!(
            "invalid JSON input: nested {depth} levels deep, past the limit of {MAX_JSON_DEPTH}"
        )
        .into());
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let mut docs = Vec::new();
    loop {
        // Skip white space between documents; stop at the end.
        match serde::Deserialize::deserialize(&mut de) {
            Ok(v) => docs.push(v),
            Err(e) if e.is_eof() && !docs.is_empty() => break,
            Err(e) if e.is_eof() => return Err("the input holds no JSON document".into()),
            Err(e) => {
                return Err(format!("invalid JSON input (document {}): {e}", docs.len() + 1).into())
            }
        }
        if de.end().is_ok() {
            break;
        }
    }
    Ok(docs)
}

/// Parses one JSON document, naming the line and column of a syntax error.
#[allow(dead_code)] // not every format's build uses it
pub fn parse_json(bytes: &[u8]) -> CliResult<serde_json::Value> {
    let mut docs = parse_json_stream(bytes)?;
    if docs.len() > 1 {
        return Err(format!(
            "the input holds {} JSON documents where one was expected",
            docs.len()
        )
        .into());
    }
    Ok(docs.remove(0))
}

/// True when the error is a closed stdout pipe (`gamewire ... | head`): not a failure.
pub fn is_broken_pipe(e: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.bin");
        std::fs::write(&p, b"old contents").unwrap();
        write_output(Some(&p), b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let fresh = dir.path().join("fresh.bin");
            write_output(Some(&fresh), b"x").unwrap();
            assert_eq!(
                std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
                0o644
            );
        }
        // No temporary files left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn json_streams_and_deep_nesting() {
        let docs = parse_json_stream(b" 1 [2] {\"a\": \"]\"}\n").unwrap();
        assert_eq!(docs.len(), 3);
        let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
        assert_eq!(json_depth(deep.as_bytes()), 3000);
        // Deep parsing recurses: give it the stack the CLI's worker thread has.
        let parsed = std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(move || parse_json(deep.as_bytes()).map(std::mem::forget).is_ok())
            .unwrap()
            .join()
            .unwrap();
        assert!(parsed);
        let too_deep = "[".repeat(100_000);
        assert!(parse_json(too_deep.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("levels deep"));
        assert!(parse_json(b"[1, 2").is_err());
        assert!(parse_json(b"  ").is_err());
        assert!(parse_json(b"1 2").is_err());
    }

    #[test]
    fn failed_write_leaves_no_file() {
        let p = Path::new("/nonexistent-dir-gamewire/out.bin");
        assert!(write_output(Some(p), b"x").is_err());
        assert!(!p.exists());
    }
}
