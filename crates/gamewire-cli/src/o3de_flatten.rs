//! `gamewire o3de flatten` and `o3de tree --flatten`: a level with its nested prefabs
//! expanded as O3DE builds it ([`gamewire::o3de::flatten`]); this module only reads the
//! options and renders.

use crate::io::{write_json, write_output};
use crate::CliResult;
use gamewire::o3de;
use o3de::flatten::{flatten_file, FlattenOptions, Flattened};
use std::path::{Path, PathBuf};

/// Arguments of `gamewire o3de flatten`.
#[derive(clap::Args, Debug)]
pub struct FlattenArgs {
    /// The level (or any prefab) to flatten.
    pub input: PathBuf,
    /// The project root that nested `Source` paths are relative to (default: the
    /// nearest folder above the level holding a `project.json`).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Where to write the flattened level (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// A registry merged over the bundled core types: its classes give the default
    /// values a patch may need where a prefab leaves them out (O3DE patches templates
    /// with their defaults written in).
    #[arg(long)]
    pub schema: Option<PathBuf>,
    /// Skip a patch that fails, as O3DE does (each is listed on stderr), instead of
    /// stopping with an error.
    #[arg(long)]
    pub keep_going: bool,
    /// The alias of the root instance for the entity ids in `--map` (O3DE gives the
    /// root a new `Instance_[…]` alias at each load); default: none, the alias path
    /// alone is hashed.
    #[arg(long, value_name = "ALIAS", default_value = "")]
    pub root_alias: String,
    /// Write the entity table (each entity's path, instance, source prefab, name and
    /// 64-bit id) as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Write compact JSON.
    #[arg(long)]
    pub compact: bool,
    /// Print the summary (counts, patches left out or skipped, files read) on stderr.
    #[arg(short, long)]
    pub verbose: bool,
}

/// Flattens `input` with the registry of the one rule (`schema`, else
/// `o3de-registry.json` beside or above the level, over the bundled core types).
pub fn run_flatten(
    input: &Path,
    project: Option<&Path>,
    schema: Option<&Path>,
    keep_going: bool,
    root_alias: &str,
) -> CliResult<Flattened> {
    let reg = crate::o3de::typed_registry(schema, Some(input))?;
    let opts = FlattenOptions {
        registry: Some(&reg),
        keep_going,
        root_alias: root_alias.to_string(),
        ..FlattenOptions::default()
    };
    flatten_file(input, project, &opts).map_err(|e| format!("{}: {e}", input.display()).into())
}

/// Prints each skipped patch (and the summary when `verbose`) on stderr.
fn report(f: &Flattened, verbose: bool) -> CliResult {
    for s in &f.skipped {
        eprintln!("gamewire: skipped: {s}");
    }
    if verbose {
        let rep = serde_json::json!({ "flatten": f.summary_json() });
        eprintln!("{}", serde_json::to_string_pretty(&rep)?);
    }
    Ok(())
}

/// `gamewire o3de flatten`.
pub fn flatten(a: FlattenArgs) -> CliResult {
    let f = run_flatten(
        &a.input,
        a.project.as_deref(),
        a.schema.as_deref(),
        a.keep_going,
        &a.root_alias,
    )?;
    report(&f, a.verbose)?;
    if let Some(map) = &a.map {
        write_json(Some(map), &f.entities_json(), !a.compact)?;
    }
    if a.compact {
        return write_json(a.output.as_deref(), &f.document, false);
    }
    // O3DE's layout: four spaces, and a final newline.
    let mut out = o3de::envelope::write_json(&f.document);
    out.push(b'\n');
    write_output(a.output.as_deref(), &out)
}

/// `gamewire o3de tree --flatten`: the hierarchy of the flattened level.
pub fn tree(
    file: &Path,
    project: Option<&Path>,
    schema: Option<&Path>,
    keep_going: bool,
) -> CliResult {
    let f = run_flatten(file, project, schema, keep_going, "")?;
    report(&f, false)?;
    let bytes = serde_json::to_vec(&f.document)?;
    let t =
        o3de::prefab::PrefabTree::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    write_output(None, t.render().as_bytes())
}
