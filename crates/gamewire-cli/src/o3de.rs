//! The `o3de` commands of the CLI.
//!
//! `decode o3de --schema S.json --type NAME [IN]` loads the JSON (O3DE coercions),
//! prints the stored (canonical) JSON on stdout and the report on stderr; the exit
//! code is 1 when processing halted. `encode o3de` does the same load and prints the
//! canonical JSON, optionally wrapped in the O3DE file envelope.

use crate::io::{read_input, write_json};
use crate::{Action, CliResult};
use gamewire::o3de::{
    self as o3de, envelope::Envelope, LoadOptions, Processing, Registry, StoreOptions, TypeExpr,
    Value,
};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench o3de`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The type registry (JSON); defaults to `o3de-registry.json` beside the input.
    #[arg(long)]
    pub schema: Option<PathBuf>,
    /// The type to load (a type expression such as `MyClass` or `vector<i32>`);
    /// defaults to the envelope's `ClassName`.
    #[arg(long = "type")]
    pub type_name: Option<String>,
    /// Write values even when they equal their defaults.
    #[arg(long)]
    pub keep_defaults: bool,
    /// Clear containers before loading into them.
    #[arg(long)]
    pub clear_containers: bool,
    /// Wrap the output in the O3DE file envelope (`encode` does by default when the
    /// input had one).
    #[arg(long)]
    pub envelope: bool,
    /// Decode/encode with a registry: write O3DE's canonical form (values coerced as
    /// O3DE's store writes them, defaults dropped). By default the typed load checks the
    /// input and reports on stderr, and the input is written back as it was.
    #[arg(long)]
    pub canonical: bool,
    /// Compact output instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// A file alias for `$import` paths, as `NAME=PATH` (`engroot=/o3de` makes
    /// `@engroot@/x.json` read `/o3de/x.json`); repeatable. A relative PATH is taken
    /// from the current folder.
    #[arg(long = "alias", value_name = "NAME=PATH")]
    pub aliases: Vec<String>,
    /// A file or folder `$import` may read besides the importing file's folder and the
    /// aliases (refused otherwise); repeatable.
    #[arg(long = "allow-import", value_name = "PATH")]
    pub allow_import: Vec<PathBuf>,
}

/// Resolves the `$import` directives of `json` (read from the input file, or stdin
/// taken as `./-`), with the `--alias` options; `dups` follows the imported content.
fn resolve_imports(
    args: &Args,
    json: &mut serde_json::Value,
    dups: &mut o3de::Duplicates,
) -> CliResult {
    let mut opts = o3de::import::ImportOptions::default();
    for a in &args.aliases {
        let Some((name, path)) = a.split_once('=') else {
            return Err(format!("--alias expects NAME=PATH, found {a:?}").into());
        };
        let path = std::path::absolute(path).map_err(|e| format!("--alias {a}: {e}"))?;
        opts = opts.alias(name, &path.to_string_lossy());
    }
    for p in &args.allow_import {
        let p =
            std::path::absolute(p).map_err(|e| format!("--allow-import {}: {e}", p.display()))?;
        opts = opts.allow_path(p);
    }
    let doc_path = match &args.input {
        Some(p) if p != Path::new("-") => p.clone(),
        _ => PathBuf::from("-"),
    };
    let r = o3de::import::resolve_imports_keeping_duplicates(
        json,
        dups,
        &doc_path,
        &mut o3de::import::FileImporter,
        &opts,
    );
    if r.report.outcome() == o3de::Outcome::Catastrophic {
        let rep = serde_json::json!({"import": r.report.to_json()});
        eprintln!("{}", serde_json::to_string_pretty(&rep)?);
        return Err("resolving $import failed (see the report above)".into());
    }
    Ok(())
}

/// The registry by the one rule of every front end ([`gamewire::open::o3de_registry`]):
/// `schema`, else `o3de-registry.json` beside `input` (or in its nearest parent folder
/// holding one; the current folder's for stdin), merged over the bundled core types;
/// `None` with neither.
pub fn found_registry(
    schema: Option<&Path>,
    input: Option<&Path>,
) -> CliResult<Option<std::sync::Arc<Registry>>> {
    let file = input.filter(|p| *p != Path::new("-"));
    let found = gamewire::open::o3de_registry(&gamewire::SideFiles::filesystem(), file, schema)?;
    Ok(found.map(|(reg, _)| reg))
}

/// The registry of a typed command: [`found_registry`], else the bundled core types.
pub fn typed_registry(
    schema: Option<&Path>,
    input: Option<&Path>,
) -> CliResult<std::sync::Arc<Registry>> {
    Ok(found_registry(schema, input)?.unwrap_or_else(|| std::sync::Arc::new(Registry::bundled())))
}

fn load_registry(args: &Args) -> CliResult<std::sync::Arc<Registry>> {
    typed_registry(args.schema.as_deref(), args.input.as_deref())
}

/// What [`load_input`] read: the value, its type, the envelope's class name, the load's
/// report and the JSON it was loaded from (imports resolved, envelope removed).
type Loaded = (
    Value,
    TypeExpr,
    Option<String>,
    o3de::Report,
    serde_json::Value,
);

/// Loads the input (see [`Loaded`]).
fn load_input(args: &Args, reg: &Registry, bytes: &[u8]) -> CliResult<Loaded> {
    // Duplicate member names are kept, as O3DE's rapidjson reader keeps them; trailing
    // commas are read where O3DE's reader of the file reads them (settings registry).
    let syntax = o3de::doc::Syntax::of(bytes, input_name(args).as_deref());
    let (mut json, mut dups) = o3de::parse_json_keeping_duplicates_with(bytes, syntax)?;
    resolve_imports(args, &mut json, &mut dups)?;
    let (data, class_name, dups) = match Envelope::from_json(&json)? {
        Some(env) => (
            env.class_data,
            Some(env.class_name),
            dups.rebase("/ClassData"),
        ),
        None => (json, None, dups),
    };
    let type_text = match (&args.type_name, &class_name) {
        (Some(t), _) => t.clone(),
        (None, Some(c)) => c.clone(),
        (None, None) => return Err("--type is required when the input has no envelope".into()),
    };
    let ty = reg.parse_type(&type_text)?;
    let opts = LoadOptions {
        clear_containers: args.clear_containers,
        ..LoadOptions::default()
    };
    let input = data.clone();
    let (v, report) = o3de::load_with_duplicates(reg, &ty, data, &dups, &opts);
    Ok((v, ty, class_name, report, input))
}

/// True when the input is read without a registry: no `--schema` and no `--type`, and
/// either no registry found by the one rule ([`found_registry`]) or one that types
/// nothing in the file ([`gamewire::o3de::typing::typing`]: an envelope of a class it
/// does not know, a file that is neither an envelope nor a prefab).
pub fn is_untyped(args: &Args, bytes: &[u8]) -> bool {
    if args.schema.is_some() || args.type_name.is_some() {
        return false;
    }
    match found_registry(None, args.input.as_deref()) {
        Ok(Some(reg)) => {
            gamewire::o3de::typing::typing(&reg, bytes) == gamewire::o3de::typing::Typing::None
        }
        Ok(None) => true,
        // A registry that does not read is reported by the typed path.
        Err(_) => false,
    }
}

/// The file name of the input, when it is a file.
fn input_name(args: &Args) -> Option<String> {
    args.input
        .as_ref()
        .filter(|p| *p != Path::new("-"))
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
}

/// Runs the registry-free path: the document as written.
fn untyped(action: Action, args: &Args, bytes: &[u8]) -> CliResult {
    if args.envelope {
        return Err("--envelope needs --type (the class name to put in it)".into());
    }
    crate::o3de_doc::run(
        action,
        args.input.as_deref(),
        input_name(args),
        args.compact,
        args.output.as_deref(),
        bytes,
    )
}

/// Runs `decode`, `encode` or `bench` for o3de.
pub fn run(action: Action, args: Args) -> CliResult {
    const WRITES: &[Action] = &[Action::Decode, Action::Encode];
    crate::only_for(
        action,
        &[
            ("--output", args.output.is_some(), WRITES),
            ("--envelope", args.envelope, WRITES),
            ("--canonical", args.canonical, WRITES),
            ("--compact", args.compact, WRITES),
            ("--clear-containers", args.clear_containers, WRITES),
        ],
    )?;
    let bytes = read_input(args.input.as_deref())?;
    if is_untyped(&args, &bytes) {
        return untyped(action, &args, &bytes);
    }
    let reg = load_registry(&args)?;
    let store_opts = StoreOptions {
        keep_defaults: args.keep_defaults,
        ..StoreOptions::default()
    };
    // A prefab has no envelope: its components name their own `$type`, so each is
    // loaded as its class (as `gamewire o3de load` does), not the whole file as one type.
    if args.type_name.is_none()
        && matches!(action, Action::Decode | Action::Encode)
        && gamewire::o3de::recognize::envelope_class_name(&bytes).is_none()
    {
        let mut doc = o3de::parse_json(&bytes)?;
        if o3de::prefab::is_prefab(&doc) {
            if args.envelope {
                return Err("--envelope applies to one class; a prefab has none".into());
            }
            let report = o3de::prefab::load_prefab(&reg, &mut doc, args.canonical);
            let rep = serde_json::json!({ "load": report.to_json() });
            eprintln!("{}", serde_json::to_string_pretty(&rep)?);
            if args.canonical {
                crate::o3de_tools::refuse_lost(&report)?;
            }
            if !args.canonical {
                return untyped(action, &args, &bytes);
            }
            let mut out = o3de::envelope::write_json(&doc);
            out.push(b'\n');
            return crate::io::write_output(args.output.as_deref(), &out);
        }
    }
    match action {
        Action::Decode | Action::Encode if !args.canonical && !args.envelope => {
            // Checked by the typed load, reported, and written back as it was.
            let (_, _, _, report, _) = load_input(&args, &reg, &bytes)?;
            let rep = serde_json::json!({ "load": report.to_json() });
            eprintln!("{}", serde_json::to_string_pretty(&rep)?);
            if report.processing() == Processing::Halted {
                return Err("processing halted (see the report above)".into());
            }
            untyped(action, &args, &bytes)
        }
        Action::Decode | Action::Encode => {
            let (v, ty, class_name, report, input) = load_input(&args, &reg, &bytes)?;
            let (mut out, store_report) = o3de::store(&reg, &ty, &v, &store_opts);
            // What the load did not take goes back as written; what cannot is named
            // and nothing is written.
            let kept = o3de::keep::keep_as_written(&reg, &ty, &input, &mut out, &report.issues);
            out = o3de::keep::canonical_with_unknown_defaults(&reg, &ty, &input, out);
            let listed = |k: &[o3de::keep::KeptMember]| {
                k.iter()
                    .map(|m| serde_json::json!({"path": m.path, "why": m.why}))
                    .collect::<Vec<_>>()
            };
            let wrap = args.envelope || (action == Action::Encode && class_name.is_some());
            if wrap {
                let name = class_name.or(args.type_name.clone()).unwrap_or_default();
                out = Envelope {
                    class_name: name,
                    class_data: out,
                }
                .to_json();
            }
            let rep = serde_json::json!({
                "load": report.to_json(),
                "store": store_report.to_json(),
                "kept_as_written": listed(&kept.kept),
                "lost": listed(&kept.lost),
            });
            eprintln!("{}", serde_json::to_string_pretty(&rep)?);
            if report.processing() == Processing::Halted {
                return Err("processing halted (see the report above)".into());
            }
            if !kept.lost.is_empty() {
                return Err(format!(
                    "the canonical form would lose {} value(s) the typed load did not take \
                     (see \"lost\" above); nothing written",
                    kept.lost.len()
                )
                .into());
            }
            write_json(args.output.as_deref(), &out, !args.compact)
        }
        Action::Bench => {
            let (_, ty, _, _, _) = load_input(&args, &reg, &bytes)?;
            let opts = LoadOptions::default();
            crate::bench::run(
                "o3de",
                &bytes,
                |b| {
                    let json = o3de::parse_json(b)?;
                    let data = match Envelope::from_json(&json)? {
                        Some(env) => env.class_data,
                        None => json,
                    };
                    Ok(o3de::load_owned(&reg, &ty, data, &opts).0)
                },
                |v| {
                    let (j, _) = o3de::store(&reg, &ty, v, &store_opts);
                    Ok(serde_json::to_vec(&j)?)
                },
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/o3de/");

    #[test]
    fn load_input_takes_the_type_from_the_envelope() {
        let args = Args {
            input: Some(PathBuf::from(format!("{SAMPLES}sample-entity.json"))),
            output: None,
            schema: None,
            type_name: None,
            keep_defaults: false,
            clear_containers: false,
            envelope: false,
            canonical: true,
            compact: false,
            aliases: Vec::new(),
            allow_import: Vec::new(),
        };
        let reg = load_registry(&args).unwrap();
        let bytes = std::fs::read(args.input.as_ref().unwrap()).unwrap();
        let (v, ty, class, report, _) = load_input(&args, &reg, &bytes).unwrap();
        assert_eq!(class.as_deref(), Some("SampleEntity"));
        assert_eq!(report.processing(), Processing::Completed);
        let (j, _) = o3de::store(&reg, &ty, &v, &StoreOptions::default());
        assert_eq!(j["Id"], serde_json::json!(523124044));
        // Without an envelope the type is required.
        let err = load_input(&args, &reg, b"{}").err().unwrap();
        assert!(err.to_string().contains("--type"));
    }
    #[test]
    fn without_a_registry_file_the_bundled_core_types_are_used() {
        let dir =
            std::env::temp_dir().join(format!("gamewire-o3de-bundled-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("lock.json");
        std::fs::write(&input, r#"{"Id": "7", "Locked": "true"}"#).unwrap();
        let args = Args {
            input: Some(input),
            output: None,
            schema: None,
            type_name: Some("EditorLockComponent".into()),
            keep_defaults: false,
            clear_containers: false,
            envelope: false,
            canonical: true,
            compact: false,
            aliases: Vec::new(),
            allow_import: Vec::new(),
        };
        let reg = load_registry(&args).unwrap();
        let bytes = std::fs::read(args.input.as_ref().unwrap()).unwrap();
        let (v, ty, _, report, _) = load_input(&args, &reg, &bytes).unwrap();
        assert_eq!(report.processing(), Processing::Completed);
        let (j, _) = o3de::store(&reg, &ty, &v, &StoreOptions::default());
        assert_eq!(j, serde_json::json!({"Id": 7, "Locked": true}));
    }
}
