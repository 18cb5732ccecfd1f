//! `gamewire inspect`: detect each file's format and print a readable tree.

use crate::CliResult;
use gamewire::{Detection, Format};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `gamewire inspect`.
#[derive(clap::Args)]
pub struct InspectArgs {
    /// Files or folders (folders are walked recursively).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Elide arrays longer than this, showing the first items and a count.
    #[arg(long, default_value_t = 8)]
    pub max_items: usize,
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

/// Runs `inspect`. Files of unknown format are listed as such; a file that fails to
/// decode prints its error, and the command exits 1 at the end if any did.
pub fn run(args: InspectArgs) -> CliResult {
    let mut files = Vec::new();
    collect(&args.paths, &mut files)?;
    let mut failures = 0;
    // Written through a locked stdout with errors returned, so `inspect ... | head` ends
    // quietly instead of panicking on the closed pipe.
    let mut out = std::io::stdout().lock();
    for path in &files {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let detection = match args.as_format {
            Some(f) => Detection::Found(gamewire::Found::new(f, gamewire::Evidence::Given)),
            None => gamewire::identify(&data, name.as_deref()),
        };
        let found = match &detection {
            Detection::Found(found) => Some(found.clone()),
            Detection::Ambiguous(fits) => {
                let names: Vec<String> = fits.iter().map(|f| f.describe()).collect();
                writeln!(
                    out,
                    "== {}: ambiguous, reads equally as {} ({} bytes); decode it with --as",
                    path.display(),
                    names.join(" or "),
                    data.len()
                )?;
                continue;
            }
            Detection::Json | Detection::Unknown => None,
        };
        match found {
            None => match name.as_deref().and_then(side_file) {
                Some(what) => writeln!(
                    out,
                    "== {}: {what}, read for the files beside it ({} bytes)",
                    path.display(),
                    data.len()
                )?,
                None if detection == Detection::Json => writeln!(
                    out,
                    "== {}: JSON text, not an engine file ({} bytes)",
                    path.display(),
                    data.len()
                )?,
                None => writeln!(
                    out,
                    "== {}: unknown format ({} bytes)",
                    path.display(),
                    data.len()
                )?,
            },
            Some(found) => {
                let format = found.format;
                writeln!(
                    out,
                    "== {}: {} ({} bytes)",
                    path.display(),
                    found.describe(),
                    data.len()
                )?;
                match render(format, path, &data, args.max_items) {
                    Ok(text) => out.write_all(text.as_bytes())?,
                    Err(e) => {
                        failures += 1;
                        writeln!(out, "   error: {e}")?;
                    }
                }
            }
        }
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

fn render(format: Format, path: &Path, data: &[u8], max_items: usize) -> CliResult<String> {
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

/// An indented tree printer shared by the formats' `inspect`.
///
/// Each line is `label: Type = value` or, for containers, `label: Type (n items)`
/// followed by indented children. Containers longer than `max_items` show their first
/// items and a `… n more` line ([`Tree::keep`] says which children to print).
pub struct Tree {
    out: String,
    depth: usize,
    max_items: usize,
}

impl Tree {
    /// An empty tree eliding containers past `max_items` children.
    pub fn new(max_items: usize) -> Self {
        Tree {
            out: String::new(),
            depth: 1,
            max_items,
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// A leaf line: `label: ty = value` (label may be empty).
    pub fn leaf(&mut self, label: &str, ty: &str, value: &str) {
        self.indent();
        if !label.is_empty() {
            let _ = write!(self.out, "{label}: ");
        }
        let _ = writeln!(self.out, "{ty} = {value}");
    }

    /// Opens a container line `label: ty (count items)`; children follow until [`Tree::close`].
    pub fn open(&mut self, label: &str, ty: &str, count: Option<usize>) {
        self.indent();
        if !label.is_empty() {
            let _ = write!(self.out, "{label}: ");
        }
        match count {
            Some(n) => {
                let _ = writeln!(self.out, "{ty} ({n} item{})", if n == 1 { "" } else { "s" });
            }
            None => {
                let _ = writeln!(self.out, "{ty}");
            }
        }
        self.depth += 1;
    }

    /// Closes the container opened last.
    pub fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// True when child `index` of a container of `count` children is printed; at the
    /// first elided child, prints the `… n more` line.
    pub fn keep(&mut self, index: usize, count: usize) -> bool {
        if count <= self.max_items || index < self.max_items {
            return true;
        }
        if index == self.max_items {
            self.indent();
            let _ = writeln!(self.out, "… {} more", count - self.max_items);
        }
        false
    }

    /// A free text line at the current depth.
    #[allow(dead_code)] // not every format's build uses it
    pub fn note(&mut self, text: &str) {
        self.indent();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// The printed tree.
    pub fn finish(self) -> String {
        self.out
    }
}

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
            t.finish(),
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
