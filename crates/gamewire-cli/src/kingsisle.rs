//! The `kingsisle` commands of the CLI.

use crate::inspect::Tree;
use crate::{Action, CliResult};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench kingsisle`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `decode`, `encode` or `bench` for kingsisle.
pub fn run(action: Action, args: Args) -> CliResult {
    let _ = (action, args);
    Err("kingsisle support is not implemented yet".into())
}

/// Prints a kingsisle file as a tree for `gamewire inspect`.
pub fn inspect(path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let _ = (path, data, tree);
    Err("kingsisle support is not implemented yet".into())
}

/// Options of `gamewire hash`.
#[derive(clap::Args)]
pub struct HashArgs {
    /// Which hash: `string-id` or `djb2`.
    pub kind: String,
    /// The text to hash.
    pub text: String,
}

/// Runs `gamewire hash`.
pub fn hash(args: HashArgs) -> CliResult {
    let _ = args;
    Err("kingsisle hashes are not implemented yet".into())
}
