//! `gamewire o3de ...`: the prefab tree (`o3de tree`, in `o3de_doc.rs`), and O3DE's JSON
//! Patch and JSON Merge Patch on whole files, as `JsonSerialization::ApplyPatch` and
//! `CreatePatch` do them.

use crate::io::{read_input, write_json};
use crate::CliResult;
use gamewire::o3de;
use o3de::patch;
use std::path::PathBuf;

/// O3DE tools.
#[derive(clap::Subcommand, Debug)]
pub enum O3deCmd {
    /// Print a prefab's entity hierarchy: the container, entities under their parents
    /// (name, alias, component types), nested instances (Source, number of patches).
    Tree {
        /// A `.prefab` file (a level or a prefab).
        file: PathBuf,
    },
    /// Apply a patch to a JSON document (JSON Patch, RFC 6902; or `--merge`, RFC 7386).
    Patch(PatchArgs),
    /// Write the patch that turns SOURCE into TARGET (JSON Patch; or `--merge`).
    Diff(DiffArgs),
}

/// Arguments of `gamewire o3de patch`.
#[derive(clap::Args, Debug)]
pub struct PatchArgs {
    /// The document to patch (comments allowed).
    pub target: PathBuf,
    /// The patch (an array of operations; with `--merge`, a merge patch).
    pub patch: PathBuf,
    /// Use JSON Merge Patch (RFC 7386) instead of JSON Patch.
    #[arg(long)]
    pub merge: bool,
    /// Where to write the patched document (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Write compact JSON.
    #[arg(long)]
    pub compact: bool,
}

/// Arguments of `gamewire o3de diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The document before.
    pub source: PathBuf,
    /// The document after.
    pub target: PathBuf,
    /// Write a JSON Merge Patch (RFC 7386) instead of a JSON Patch.
    #[arg(long)]
    pub merge: bool,
    /// Where to write the patch (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Write compact JSON.
    #[arg(long)]
    pub compact: bool,
}

fn read_json(path: &std::path::Path) -> CliResult<serde_json::Value> {
    let bytes = read_input(Some(path))?;
    o3de::parse_json(&bytes).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// Prints the report on stderr; a halted one is an error (exit 1, nothing written).
fn check(what: &str, report: &o3de::Report) -> CliResult {
    let rep = serde_json::json!({ what: report.to_json() });
    eprintln!("{}", serde_json::to_string_pretty(&rep)?);
    if report.processing() == o3de::Processing::Halted
        || report.outcome() == o3de::Outcome::Unsupported
    {
        return Err(format!("{what} failed (see the report above)").into());
    }
    Ok(())
}

/// Runs an O3DE tool.
pub fn tool(cmd: O3deCmd) -> CliResult {
    match cmd {
        O3deCmd::Tree { file } => crate::o3de_doc::tree(&file),
        O3deCmd::Patch(a) => {
            let mut target = read_json(&a.target)?;
            let p = read_json(&a.patch)?;
            let report = if a.merge {
                patch::apply_merge_patch(&mut target, &p)
            } else {
                patch::apply_patch(&mut target, &p)
            };
            check("patch", &report)?;
            write_json(a.output.as_deref(), &target, !a.compact)
        }
        O3deCmd::Diff(a) => {
            let source = read_json(&a.source)?;
            let target = read_json(&a.target)?;
            let (p, report) = if a.merge {
                patch::create_merge_patch(&source, &target)
            } else {
                patch::create_patch(&source, &target)
            };
            check("diff", &report)?;
            write_json(a.output.as_deref(), &p, !a.compact)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gamewire-o3de-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn diff_then_patch_gives_the_target() {
        let source = temp(
            "s.json",
            r#"{"a": 1, "b": [1, 2], /* c */ "c": {"x": true}}"#,
        );
        let target = temp(
            "t.json",
            r#"{"a": 2, "b": [1], "c": {"x": true, "y": "z"}}"#,
        );
        for merge in [false, true] {
            let out = temp(&format!("p{merge}.json"), "");
            tool(O3deCmd::Diff(DiffArgs {
                source: source.clone(),
                target: target.clone(),
                merge,
                output: Some(out.clone()),
                compact: true,
            }))
            .unwrap();
            let patched = temp(&format!("r{merge}.json"), "");
            tool(O3deCmd::Patch(PatchArgs {
                target: source.clone(),
                patch: out,
                merge,
                output: Some(patched.clone()),
                compact: false,
            }))
            .unwrap();
            assert_eq!(read_json(&patched).unwrap(), read_json(&target).unwrap());
        }
    }

    #[test]
    fn a_halting_patch_writes_nothing() {
        let doc = temp("d.json", r#"{"a": 1}"#);
        let bad = temp("bad.json", r#"[{"op": "remove", "path": "/nope"}]"#);
        let out = std::env::temp_dir().join(format!("gamewire-o3de-never-{}", std::process::id()));
        let e = tool(O3deCmd::Patch(PatchArgs {
            target: doc,
            patch: bad,
            merge: false,
            output: Some(out.clone()),
            compact: false,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("patch failed"), "{e}");
        assert!(!out.exists());
        // A merge patch can't write a null: diff says so.
        let s = temp("n1.json", r#"{"a": 1}"#);
        let t = temp("n2.json", r#"{"a": null}"#);
        let e = tool(O3deCmd::Diff(DiffArgs {
            source: s,
            target: t,
            merge: true,
            output: None,
            compact: false,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("diff failed"), "{e}");
    }
}
