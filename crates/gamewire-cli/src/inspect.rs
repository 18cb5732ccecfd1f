//! `gamewire inspect`: detect each file's format and print a readable tree.

use crate::CliResult;
use gamewire::Format;
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
}

/// One entry of the walk: a file to inspect, or something skipped with the reason.
enum Entry {
    File(PathBuf),
    Skipped(PathBuf, String),
    /// A folder or file that could not be read: listed, and the run exits 1.
    Unreadable(PathBuf, String),
}

/// What a special file is, for the note saying why it was skipped.
fn special_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a named pipe";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    let _ = ft;
    "not a regular file"
}

/// Lists the files under `paths`, folders walked in name order. Paths named on the
/// command line are read whatever they are (`inspect /dev/stdin` works); inside folders,
/// named pipes, devices and sockets are skipped with a note (reading a pipe would wait
/// forever), as are broken symbolic links, symbolic-link loops and folders already
/// walked (a link to a parent folder).
fn collect(paths: &[PathBuf], top: bool, seen: &mut Vec<PathBuf>, out: &mut Vec<Entry>) {
    for p in paths {
        let meta = match std::fs::metadata(p) {
            Ok(m) => m,
            Err(e) => {
                let is_link = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_symlink());
                if is_link && !top {
                    let why = if e.kind() == std::io::ErrorKind::NotFound {
                        "a broken symbolic link".to_owned()
                    } else {
                        format!("a symbolic link that cannot be followed ({e})")
                    };
                    out.push(Entry::Skipped(p.clone(), why));
                } else {
                    out.push(Entry::Unreadable(p.clone(), e.to_string()));
                }
                continue;
            }
        };
        if meta.is_dir() {
            let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if seen.contains(&real) {
                out.push(Entry::Skipped(
                    p.clone(),
                    format!(
                        "folder {} already listed (a symbolic-link loop)",
                        real.display()
                    ),
                ));
                continue;
            }
            seen.push(real);
            let listing = match std::fs::read_dir(p) {
                Ok(l) => l,
                Err(e) => {
                    out.push(Entry::Unreadable(p.clone(), format!("cannot list: {e}")));
                    continue;
                }
            };
            let mut entries: Vec<PathBuf> = listing
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
            collect(&entries, false, seen, out);
            seen.pop();
        } else if meta.is_file() || top {
            out.push(Entry::File(p.clone()));
        } else {
            out.push(Entry::Skipped(
                p.clone(),
                format!("{}, not read", special_kind(&meta.file_type())),
            ));
        }
    }
}

/// Runs `inspect`. Files of unknown format are listed as such; special files inside
/// folders are skipped with a note; a file that fails to read or decode prints its
/// error, and the command exits 1 at the end if any did.
pub fn run(args: InspectArgs) -> CliResult {
    let mut files = Vec::new();
    collect(&args.paths, true, &mut Vec::new(), &mut files);
    let mut failures = 0;
    // Written through a locked stdout with errors returned, so `inspect ... | head` ends
    // quietly instead of panicking on the closed pipe.
    let mut out = std::io::stdout().lock();
    for entry in &files {
        let path = match entry {
            Entry::File(p) => p,
            Entry::Skipped(p, why) => {
                writeln!(out, "== {}: skipped: {why}", p.display())?;
                continue;
            }
            Entry::Unreadable(p, why) => {
                failures += 1;
                writeln!(out, "== {}: error: {why}", p.display())?;
                continue;
            }
        };
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(e) => {
                failures += 1;
                writeln!(out, "== {}: error: cannot read: {e}", path.display())?;
                continue;
            }
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        match gamewire::detect(&data, name.as_deref()) {
            None => match name.as_deref().and_then(side_file) {
                Some(what) => writeln!(
                    out,
                    "== {}: {what}, read for the files beside it ({} bytes)",
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
            Some(format) => {
                writeln!(
                    out,
                    "== {}: {format} ({} bytes)",
                    path.display(),
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
        return Err(format!("{failures} file(s) failed to read or decode").into());
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
