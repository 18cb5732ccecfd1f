//! `gamewire view`: a local web page to look inside files and edit them.
//!
//! A thin front end over the library, like the CLI's `decode FILE` and `encode
//! FILE.json`: the server lists the files under the paths given with the format the
//! library detects, opens one through [`gamewire::open`] into the same JSON document
//! `decode FILE` writes, serves it one level at a time, applies the page's edits (JSON
//! Patch) to a working copy, and saves through [`gamewire::encode_document`] with the
//! settings the file was read with, written atomically. The page (plain HTML, CSS and a
//! JavaScript module, built into the binary) renders.
//!
//! Safe by default ([`guard`]): bound to 127.0.0.1, every request carries a random
//! token, the `Host` header must be loopback, paths stay inside the roots, and only
//! files the page opened are written.

mod api;
mod doc;
mod guard;
mod lazy;
mod typed;

use crate::CliResult;
use std::path::PathBuf;

/// Options of `gamewire view`.
#[derive(clap::Args, Debug)]
pub struct ViewArgs {
    /// Files and folders to serve (folders are walked); none serves the current folder.
    pub paths: Vec<PathBuf>,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Only print the address; do not open a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// The address to listen on instead of 127.0.0.1 (anyone who can reach it and has
    /// the token can read and write the files served).
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
}

/// Runs `gamewire view`.
pub fn run(args: ViewArgs) -> CliResult {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let roots = guard::Roots::new(&paths)?;
    let token = guard::new_token()?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Documents nest up to 4096 JSON levels; parsing and dropping them recurses.
        .thread_stack_size(64 << 20)
        .enable_all()
        .build()?;
    rt.block_on(api::serve(args, roots, token))
}

/// Tries to open `url` in the user's browser; failure is ignored (the address is
/// printed).
pub fn open_browser(url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let _ = cmd
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}
