//! The `godot` commands of the CLI.

use crate::inspect::Tree;
use crate::{Action, CliResult};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench godot`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `decode`, `encode` or `bench` for godot.
pub fn run(action: Action, version: u8, args: Args) -> CliResult {
    let _ = (action, version, args);
    Err("godot support is not implemented yet".into())
}

/// Prints a godot file as a tree for `gamewire inspect`.
pub fn inspect(format: gamewire::Format, path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let _ = (format, path, data, tree);
    Err("godot support is not implemented yet".into())
}
