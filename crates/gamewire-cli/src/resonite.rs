//! The `resonite` commands of the CLI.

use crate::inspect::Tree;
use crate::{Action, CliResult};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench resonite`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `decode`, `encode` or `bench` for resonite.
pub fn run(action: Action, args: Args) -> CliResult {
    let _ = (action, args);
    Err("resonite support is not implemented yet".into())
}

/// Prints a resonite file as a tree for `gamewire inspect`.
pub fn inspect(path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let _ = (path, data, tree);
    Err("resonite support is not implemented yet".into())
}

/// `gamewire resonite ...` subcommands.
#[derive(clap::Subcommand)]
pub enum ResoniteCmd {
    /// Print the slot hierarchy with component type names.
    Tree {
        /// A FrDT container or legacy brson/7zbson/lz4bson file.
        file: PathBuf,
    },
}

/// Runs a `gamewire resonite` subcommand.
pub fn tool(cmd: ResoniteCmd) -> CliResult {
    let _ = cmd;
    Err("resonite tools are not implemented yet".into())
}
