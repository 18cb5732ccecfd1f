//! `gamewire convert --summary-json FILE`: what one run (or one part of a sharded run)
//! did, as JSON that the parts' summaries can be merged from.

use crate::convert_select::Shard;
use crate::CliResult;
use serde::Serialize;
use std::path::Path;

/// Format version of the summary, raised when a field changes meaning.
pub const SUMMARY_VERSION: u32 = 1;

/// A file that failed, and why.
#[derive(Serialize, Debug, Clone)]
pub struct Failure {
    /// The input's path as the run named it (not UTF-8 bytes shown as U+FFFD).
    pub path: String,
    /// The error, on one line, without the path in front.
    pub reason: String,
}

/// The part of the list a summary covers: `--shard K/N`, or the whole (1/1).
#[derive(Serialize, Debug, Clone, Copy)]
pub struct Part {
    /// Which part, from 1.
    pub k: usize,
    /// How many parts.
    pub n: usize,
}

/// What a `convert` run did; `converted + skipped + kept + failed == files`.
#[derive(Serialize, Debug)]
pub struct Summary {
    /// [`SUMMARY_VERSION`].
    pub summary_version: u32,
    /// The gamewire version that ran.
    pub gamewire: &'static str,
    /// The part of the list this run converted.
    pub shard: Part,
    /// What was written: `json`, `native` or `godot4`.
    pub to: &'static str,
    /// Files in the whole list (every part), after expansion and de-duplication.
    pub files_in_list: usize,
    /// Files in this part.
    pub files: usize,
    /// Files converted.
    pub converted: usize,
    /// Files that are no input for this direction (side files, JSON text with
    /// `--to json`, names without `.json` with `--to native`).
    pub skipped: usize,
    /// Files whose output existed and was left as it was (no `--overwrite`).
    pub kept: usize,
    /// Files that failed.
    pub failed: usize,
    /// Each failure, by path.
    pub failures: Vec<Failure>,
    /// Bytes read from the converted files.
    pub bytes_in: u64,
    /// Bytes written to their outputs.
    pub bytes_out: u64,
    /// Wall time of the whole run (listing and planning included), in seconds.
    pub seconds: f64,
}

impl Summary {
    /// The part a run covers: its `--shard`, or all of it.
    pub fn part(shard: Option<Shard>) -> Part {
        let s = shard.unwrap_or(Shard { k: 1, n: 1 });
        Part { k: s.k, n: s.n }
    }

    /// Writes the summary to `path` atomically (a temporary file renamed over it, so a
    /// reader sees a whole summary or none), replacing an earlier one.
    pub fn write(&self, path: &Path) -> CliResult {
        let mut text = serde_json::to_vec_pretty(self)?;
        text.push(b'\n');
        crate::io::write_file(path, &text, true)
            .map_err(|e| format!("--summary-json {}: {e}", path.display()).into())
    }
}

/// Refuses a `--summary-json` path that cannot be written, before any work is done: its
/// folder must exist.
pub fn check_target(path: &Path) -> CliResult {
    let dir = crate::io::parent_dir(path);
    if !dir.is_dir() {
        return Err(format!(
            "--summary-json {}: its folder {} does not exist",
            path.display(),
            dir.display()
        )
        .into());
    }
    if path.is_dir() {
        return Err(format!("--summary-json {}: is a folder", path.display()).into());
    }
    Ok(())
}
