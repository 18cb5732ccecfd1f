//! `gamewire o3de ...`: the prefab tree (`o3de tree`, in `o3de_doc.rs`), and O3DE's JSON
//! Patch and JSON Merge Patch on whole files, as `JsonSerialization::ApplyPatch` and
//! `CreatePatch` do them.

use crate::io::{read_input, write_json, write_output};
use crate::CliResult;
use gamewire::o3de;
use o3de::doc::{Document, Syntax, MAX_DEPTH};
use o3de::layout::Style;
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
        /// Show the level flattened: every nested prefab expanded with its patches
        /// (as `o3de flatten`), each entity under its alias path.
        #[arg(long)]
        flatten: bool,
        /// With `--flatten`: the project root (default: found from `project.json`).
        #[arg(long, value_name = "DIR", requires = "flatten")]
        project: Option<PathBuf>,
        /// With `--flatten`: a registry merged over the bundled core types, for the
        /// defaults patches need.
        #[arg(long, requires = "flatten")]
        schema: Option<PathBuf>,
        /// With `--flatten`: skip failing patches as O3DE does.
        #[arg(long, requires = "flatten")]
        keep_going: bool,
    },
    /// Flatten a level: every nested prefab instance (`Instances` → `Source`, relative
    /// to the project root) expanded with its `Patches`, every entity in one
    /// `Entities` under its alias path, references rewritten, as O3DE builds the level.
    Flatten(crate::o3de_flatten::FlattenArgs),
    /// Apply a patch to a JSON document (JSON Patch, RFC 6902; or `--merge`, RFC 7386).
    Patch(PatchArgs),
    /// Write the patch that turns SOURCE into TARGET (JSON Patch; or `--merge`).
    Diff(DiffArgs),
    /// Type registries: import the engine's own type dumps.
    #[command(subcommand)]
    Registry(RegistryCmd),
    /// Typed load of a prefab: each component loaded as its registry class (the
    /// bundled core types, merged under `--schema`); the report goes to stderr.
    Load(LoadArgs),
}

/// `gamewire o3de registry ...`
#[derive(clap::Subcommand, Debug)]
pub enum RegistryCmd {
    /// Write a registry from SerializeContextTools `dumpsc` output and/or
    /// SerializationContextExporter class dumps; fields whose types cannot be mapped
    /// are left out and listed on stderr.
    Import(RegistryImportArgs),
}

/// Arguments of `gamewire o3de registry import`.
#[derive(clap::Args, Debug)]
pub struct RegistryImportArgs {
    /// The dumps to read (JSON).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where to write the registry (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Write compact JSON.
    #[arg(long)]
    pub compact: bool,
    /// Print the whole import report (every field left out, with the reason) on stderr
    /// instead of a one-line summary.
    #[arg(long)]
    pub verbose: bool,
    /// Write the whole import report (JSON) to this file; stderr gets the summary line.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// Arguments of `gamewire o3de load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// The prefab (or level) to load.
    pub input: PathBuf,
    /// A registry merged over the bundled core types; by default `o3de-registry.json`
    /// beside the prefab or in a parent folder, else the bundled core types alone (the
    /// rule `decode` and `inspect` follow).
    #[arg(long)]
    pub schema: Option<PathBuf>,
    /// Write O3DE's canonical form of the typed components (defaults dropped, values
    /// as O3DE stores them); without it the output is the input, byte for byte.
    #[arg(long)]
    pub canonical: bool,
    /// Where to write the document (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Write nothing but the report.
    #[arg(long)]
    pub quiet: bool,
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
    /// Print the report on stderr even when the task succeeded without issues (it is
    /// always printed when there are issues or the task failed).
    #[arg(short, long)]
    pub verbose: bool,
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
    /// Print the report on stderr even when the task succeeded without issues (it is
    /// always printed when there are issues or the task failed).
    #[arg(short, long)]
    pub verbose: bool,
}

/// Reads a JSON file as O3DE's reader of its kind does (comments; trailing commas in
/// settings registry files and patches).
fn read_json(path: &std::path::Path) -> CliResult<serde_json::Value> {
    let bytes = read_input(Some(path))?;
    let syntax = Syntax::of(&bytes, file_name(path).as_deref());
    o3de::parse_json_with(&bytes, syntax).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn file_name(path: &std::path::Path) -> Option<String> {
    path.file_name().map(|n| n.to_string_lossy().into_owned())
}

/// `value` written in the layout of `raw`, the file it was read from: its indentation,
/// line endings, comments and trailing commas kept around every member that is still
/// there, and number and string text where the value is unchanged.
fn in_layout_of(raw: &[u8], syntax: Syntax, value: &serde_json::Value) -> CliResult<Vec<u8>> {
    let original = Document::parse_with(raw, MAX_DEPTH, syntax)?;
    let style = Style::detect(raw, &original)?;
    let text = serde_json::to_vec(value)?;
    let doc = Document::parse(&text)?;
    Ok(style.write(&doc))
}

/// Prints the report on stderr when it tells something (issues, a failure) or when
/// `verbose`; a halted one is an error (exit 1, nothing written).
fn check(what: &str, report: &o3de::Report, verbose: bool) -> CliResult {
    if verbose || !report.is_clean() {
        let rep = serde_json::json!({ what: report.to_json() });
        eprintln!("{}", serde_json::to_string_pretty(&rep)?);
    }
    if report.processing() == o3de::Processing::Halted
        || report.outcome() == o3de::Outcome::Unsupported
    {
        return Err(format!("{what} failed (see the report above)").into());
    }
    Ok(())
}

/// A canonical prefab that would lose members (named in the report's `"lost"`) is not
/// written: the exit code says so.
pub fn refuse_lost(report: &o3de::prefab::PrefabReport) -> CliResult {
    if report.lost.is_empty() {
        return Ok(());
    }
    let paths: Vec<&str> = report.lost.iter().map(|l| l.path.as_str()).collect();
    Err(format!(
        "the canonical form would lose {} value(s) the typed load did not take ({}); nothing \
         written",
        paths.len(),
        paths.join(", ")
    )
    .into())
}

/// Runs an O3DE tool.
pub fn tool(cmd: O3deCmd) -> CliResult {
    match cmd {
        O3deCmd::Tree {
            file,
            flatten: false,
            ..
        } => crate::o3de_doc::tree(&file),
        O3deCmd::Tree {
            file,
            project,
            schema,
            keep_going,
            ..
        } => crate::o3de_flatten::tree(&file, project.as_deref(), schema.as_deref(), keep_going),
        O3deCmd::Flatten(a) => crate::o3de_flatten::flatten(a),
        O3deCmd::Registry(RegistryCmd::Import(a)) => {
            let mut inputs = Vec::new();
            for p in &a.inputs {
                inputs.push((p.display().to_string(), read_json(p)?));
            }
            let (reg, report) = o3de::registry_import::import(&inputs)?;
            if let Some(path) = &a.report {
                write_json(
                    Some(path),
                    &serde_json::json!({ "import": report.to_json() }),
                    true,
                )?;
            }
            if a.verbose {
                eprintln!(
                    "{}",
                    serde_json::to_string_pretty(
                        &serde_json::json!({ "import": report.to_json() })
                    )?
                );
            } else {
                let more = if report.unmapped.is_empty() || a.report.is_some() {
                    ""
                } else {
                    " (--verbose or --report FILE lists them)"
                };
                eprintln!("gamewire: {}{more}", report.summary());
            }
            write_json(a.output.as_deref(), &reg, !a.compact)
        }
        O3deCmd::Load(a) => {
            let reg = crate::o3de::typed_registry(a.schema.as_deref(), Some(&a.input))?;
            let bytes = read_input(Some(&a.input))?;
            let mut doc =
                o3de::parse_json(&bytes).map_err(|e| format!("{}: {e}", a.input.display()))?;
            if !o3de::prefab::is_prefab(&doc) {
                return Err(format!(
                    "{}: not a prefab (no \"ContainerEntity\" or \"Entities\")",
                    a.input.display()
                )
                .into());
            }
            let report = o3de::prefab::load_prefab(&reg, &mut doc, a.canonical);
            eprintln!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({ "load": report.to_json() }))?
            );
            if a.canonical {
                refuse_lost(&report)?;
            }
            if a.quiet {
                return Ok(());
            }
            if a.canonical {
                write_output(a.output.as_deref(), &o3de::envelope::write_json(&doc))
            } else {
                write_output(a.output.as_deref(), &bytes)
            }
        }
        O3deCmd::Patch(a) => {
            let raw = read_input(Some(&a.target))?;
            let syntax = Syntax::of(&raw, file_name(&a.target).as_deref());
            let mut target = o3de::parse_json_with(&raw, syntax)
                .map_err(|e| format!("{}: {e}", a.target.display()))?;
            let p = read_json(&a.patch)?;
            let report = if a.merge {
                patch::apply_merge_patch(&mut target, &p)
            } else {
                patch::apply_patch(&mut target, &p)
            };
            check("patch", &report, a.verbose)?;
            if a.compact {
                return write_json(a.output.as_deref(), &target, false);
            }
            // In the input's own layout (indentation, line endings, comments, trailing
            // commas), so that version control shows only what the patch changed.
            let out = in_layout_of(&raw, syntax, &target)
                .map_err(|e| format!("{}: {e}", a.target.display()))?;
            write_output(a.output.as_deref(), &out)
        }
        O3deCmd::Diff(a) => {
            let source = read_json(&a.source)?;
            let target = read_json(&a.target)?;
            let (p, report) = if a.merge {
                patch::create_merge_patch(&source, &target)
            } else {
                patch::create_patch(&source, &target)
            };
            check("diff", &report, a.verbose)?;
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
                verbose: false,
            }))
            .unwrap();
            let patched = temp(&format!("r{merge}.json"), "");
            tool(O3deCmd::Patch(PatchArgs {
                target: source.clone(),
                patch: out,
                merge,
                output: Some(patched.clone()),
                compact: false,
                verbose: false,
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
            verbose: false,
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
            verbose: false,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("diff failed"), "{e}");
    }
    const REAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/o3de/");

    #[test]
    fn load_keeps_the_input_and_writes_the_canonical_form_on_request() {
        let input = PathBuf::from(format!("{REAL}real-typed/mps-Platform_3_wide.prefab"));
        let original = std::fs::read(&input).unwrap();
        let out = temp("kept.prefab", "");
        tool(O3deCmd::Load(LoadArgs {
            input: input.clone(),
            schema: None,
            canonical: false,
            output: Some(out.clone()),
            quiet: false,
        }))
        .unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), original);
        let canon = temp("canon.prefab", "");
        tool(O3deCmd::Load(LoadArgs {
            input,
            schema: None,
            canonical: true,
            output: Some(canon.clone()),
            quiet: false,
        }))
        .unwrap();
        let text = std::fs::read_to_string(&canon).unwrap();
        // O3DE's four-space indentation; the document still holds every entity.
        assert!(
            text.starts_with("{\n    \"ContainerEntity\""),
            "{}",
            &text[..40]
        );
        let doc = read_json(&canon).unwrap();
        assert_eq!(doc["Entities"].as_object().unwrap().len(), 3);
        // A file that is not a prefab is refused with its name.
        let not = temp("plain.json", r#"{"a": 1}"#);
        let e = tool(O3deCmd::Load(LoadArgs {
            input: not,
            schema: None,
            canonical: false,
            output: None,
            quiet: true,
        }))
        .unwrap_err();
        assert!(e.to_string().contains("not a prefab"), "{e}");
    }

    #[test]
    fn a_canonical_prefab_that_would_lose_values_is_refused_naming_them() {
        let mut report = o3de::prefab::PrefabReport::default();
        assert!(refuse_lost(&report).is_ok());
        report.lost.push(o3de::prefab::KeptReport {
            path: "/Entities/E/Components/C/Gone".into(),
            why: "no place".into(),
        });
        let e = refuse_lost(&report).unwrap_err().to_string();
        assert!(
            e.contains("lose 1 value") && e.contains("/Entities/E/Components/C/Gone"),
            "{e}"
        );
    }

    #[test]
    fn registry_import_writes_a_registry_that_loads() {
        let out = temp("imported.json", "");
        tool(O3deCmd::Registry(RegistryCmd::Import(RegistryImportArgs {
            inputs: vec![PathBuf::from(format!(
                "{REAL}real-registry/exporter-ScriptDebug_dumped_classes.json"
            ))],
            output: Some(out.clone()),
            compact: false,
            verbose: false,
            report: None,
        })))
        .unwrap();
        let reg = o3de::Registry::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        assert!(!reg.classes_named("ScriptDebugAgent").is_empty());
        let bad = temp("bad-dump.json", r#"{"something": "else"}"#);
        let e = tool(O3deCmd::Registry(RegistryCmd::Import(RegistryImportArgs {
            inputs: vec![bad],
            output: None,
            compact: true,
            verbose: false,
            report: None,
        })))
        .unwrap_err();
        assert!(e.to_string().contains("bad-dump.json"), "{e}");
    }
}
