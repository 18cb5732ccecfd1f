//! The `zeze` commands of the CLI.

use crate::inspect::Tree;
use crate::{Action, CliResult};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench zeze`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `decode`, `encode` or `bench` for zeze.
pub fn run(action: Action, args: Args) -> CliResult {
    let _ = (action, args);
    Err("zeze support is not implemented yet".into())
}

/// Prints a zeze file as a tree for `gamewire inspect`.
pub fn inspect(path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let _ = (path, data, tree);
    Err("zeze support is not implemented yet".into())
}
