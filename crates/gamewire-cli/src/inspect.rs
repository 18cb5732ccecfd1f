//! `gamewire inspect`: detect each file's format and print a readable tree.

use crate::CliResult;
use gamewire::core::inspect::{render_text, Node};
use gamewire::{Detection, Format};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `gamewire inspect`.
#[derive(clap::Args)]
pub struct InspectArgs {
    /// Files or folders (folders are walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Elide arrays longer than this, showing the first items and a count.
    #[arg(long, default_value_t = 8)]
    pub max_items: usize,
    /// Print one JSON array of every file's entry (path, format, tree or error)
    /// instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read every file as this format instead of detecting it (godot3, godot4,
    /// kingsisle, zeze, resonite, o3de).
    #[arg(long = "as", value_name = "FORMAT", value_parser = parse_format)]
    pub as_format: Option<Format>,
}

/// Parses a format name for `--as`.
pub fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format {s:?}: use one of {}", names.join(", "))
    })
}

/// Lists the files under `paths`, folders walked in name order.
fn collect(paths: &[PathBuf], out: &mut Vec<PathBuf>) -> CliResult {
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot list {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    // Hidden files and the folders' own notes are not samples.
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    !name.starts_with('.') && !name.ends_with(".md")
                })
                .collect();
            entries.sort();
            collect(&entries, out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(())
}

/// What `inspect` found for one file.
#[derive(serde::Serialize)]
struct Entry {
    /// The path as given (`-` for stdin).
    path: String,
    /// `format`, `ambiguous`, `side file`, `json` or `unknown`.
    status: &'static str,
    /// The format and layout (`godot3 (store_var frame, 1 value)`), or what the file is.
    #[serde(skip_serializing_if = "String::is_empty")]
    description: String,
    /// The format's name when one was recognised.
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
    bytes: usize,
    /// The decoded tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<Vec<Node>>,
    /// Why decoding failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Entry {
    /// The header line of the text form.
    fn head(&self) -> String {
        let what = match self.status {
            "ambiguous" => format!(
                "ambiguous, reads equally as {} ({} bytes); decode it with --as",
                self.description, self.bytes
            ),
            "side file" => format!(
                "{}, read for the files beside it ({} bytes)",
                self.description, self.bytes
            ),
            "json" => format!("JSON text, not an engine file ({} bytes)", self.bytes),
            "unknown" => format!("unknown format ({} bytes)", self.bytes),
            _ => format!("{} ({} bytes)", self.description, self.bytes),
        };
        format!("== {}: {what}", self.path)
    }
}

/// Detects and decodes one file's bytes.
fn inspect_one(path: &Path, shown: String, data: &[u8], args: &InspectArgs) -> Entry {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let detection = match args.as_format {
        Some(f) => Detection::Found(gamewire::Found::new(f, gamewire::Evidence::Given)),
        None => gamewire::identify(data, name.as_deref()),
    };
    let mut e = Entry {
        path: shown,
        status: "unknown",
        description: String::new(),
        format: None,
        bytes: data.len(),
        tree: None,
        error: None,
    };
    match detection {
        Detection::Found(found) => {
            e.status = "format";
            e.description = found.describe();
            e.format = Some(found.format.name());
            match render(found.format, path, data, args.max_items) {
                Ok(nodes) => e.tree = Some(nodes),
                Err(err) => e.error = Some(err.to_string()),
            }
        }
        Detection::Ambiguous(fits) => {
            e.status = "ambiguous";
            let names: Vec<String> = fits.iter().map(|f| f.describe()).collect();
            e.description = names.join(" or ");
        }
        Detection::Json | Detection::Unknown => {
            if let Some(what) = name.as_deref().and_then(side_file) {
                e.status = "side file";
                e.description = what.to_owned();
            } else if detection == Detection::Json {
                e.status = "json";
            }
        }
    }
    e
}

/// Runs `inspect`. Files of unknown format are listed as such; a file that fails to
/// decode prints its error, and the command exits 1 at the end if any did. `-` reads
/// stdin; `--json` prints one JSON array of every file's entry instead of text.
pub fn run(args: InspectArgs) -> CliResult {
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    let paths: Vec<PathBuf> = args
        .paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .cloned()
        .collect();
    let mut files = Vec::new();
    collect(&paths, &mut files)?;
    let mut failures = 0;
    let mut entries = Vec::new();
    // Written through a locked stdout with errors returned, so `inspect ... | head` ends
    // quietly instead of panicking on the closed pipe.
    let mut out = std::io::stdout().lock();
    let mut emit = |e: Entry, out: &mut std::io::StdoutLock| -> CliResult {
        if e.error.is_some() {
            failures += 1;
        }
        if args.json {
            entries.push(e);
            return Ok(());
        }
        writeln!(out, "{}", e.head())?;
        if let Some(tree) = &e.tree {
            out.write_all(render_text(tree).as_bytes())?;
        }
        if let Some(err) = &e.error {
            writeln!(out, "   error: {err}")?;
        }
        Ok(())
    };
    if stdin {
        let data = crate::io::read_input(None)?;
        emit(
            inspect_one(Path::new("-"), "-".into(), &data, &args),
            &mut out,
        )?;
    }
    for path in &files {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        emit(
            inspect_one(path, path.display().to_string(), &data, &args),
            &mut out,
        )?;
    }
    if args.json {
        serde_json::to_writer_pretty(&mut out, &entries)?;
        writeln!(out)?;
    }
    if failures > 0 {
        return Err(format!("{failures} file(s) failed to decode").into());
    }
    Ok(())
}

/// What a file that decodes nothing itself is for, by its name: the type lists,
/// registries and solutions that the formats' `inspect` reads beside their files.
fn side_file(name: &str) -> Option<&'static str> {
    #[cfg(feature = "kingsisle")]
    if name == "types.json" || name == "types.xml" || name.ends_with(".types.json") {
        return Some("KingsIsle type list");
    }
    #[cfg(feature = "o3de")]
    if name == crate::o3de::REGISTRY_NAME {
        return Some("O3DE type registry");
    }
    #[cfg(feature = "zeze")]
    if name == crate::zeze::SOLUTION_FILE {
        return Some("Zeze solution");
    }
    let _ = name;
    None
}

fn render(format: Format, path: &Path, data: &[u8], max_items: usize) -> CliResult<Vec<Node>> {
    let mut tree = Tree::new(max_items);
    match format {
        #[cfg(feature = "godot")]
        Format::Godot3 | Format::Godot4 => crate::godot::inspect(format, path, data, &mut tree)?,
        #[cfg(feature = "zeze")]
        Format::Zeze => crate::zeze::inspect(path, data, &mut tree)?,
        #[cfg(feature = "kingsisle")]
        Format::KingsIsle => crate::kingsisle::inspect(path, data, &mut tree)?,
        #[cfg(feature = "resonite")]
        Format::Resonite => crate::resonite::inspect(path, data, &mut tree)?,
        #[cfg(feature = "o3de")]
        Format::O3de => crate::o3de::inspect(path, data, &mut tree)?,
        #[allow(unreachable_patterns)]
        _ => return Err(format!("{format} support is not built in").into()),
    }
    Ok(tree.finish())
}

/// The tree a format fills for `inspect`: gamewire-core's shared builder (one node type
/// for every front end), printed here as text or JSON.
pub use gamewire::core::inspect::TreeBuilder as Tree;

/// Shortens a string for display: quoted, escaped, at most `max` characters.
pub fn short_str(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head:?}… ({count} chars)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_indents_and_elides() {
        let mut t = Tree::new(2);
        t.open("items", "Array", Some(4));
        for i in 0..4 {
            if t.keep(i, 4) {
                t.leaf(&format!("[{i}]"), "int", &i.to_string());
            }
        }
        t.close();
        assert_eq!(
            render_text(&t.finish()),
            "  items: Array (4 items)\n    [0]: int = 0\n    [1]: int = 1\n    … 2 more\n"
        );
        assert_eq!(short_str("abcdef", 3), "\"abc\"… (6 chars)");
    }

    #[test]
    #[cfg(all(feature = "kingsisle", feature = "o3de", feature = "zeze"))]
    fn side_files_are_named() {
        assert_eq!(side_file("types.json"), Some("KingsIsle type list"));
        assert_eq!(side_file("Wizard.types.json"), Some("KingsIsle type list"));
        assert_eq!(side_file("o3de-registry.json"), Some("O3DE type registry"));
        assert_eq!(side_file("zeze-solution.xml"), Some("Zeze solution"));
        assert_eq!(side_file("other.json"), None);
    }
}
