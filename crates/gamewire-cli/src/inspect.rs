//! `gamewire inspect`: detect each file's format and print a readable tree.

use crate::CliResult;
use gamewire::core::inspect::{render_text, Node};
use gamewire::open::OpenError;
use gamewire::{Format, SideFiles};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `gamewire inspect`.
#[derive(clap::Args)]
pub struct InspectArgs {
    /// Files or folders (folders are walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Elide containers (arrays, lists, dictionaries, maps, objects) longer than this,
    /// showing the first items and a count.
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
    /// Godot: the password or key of encrypted files.
    #[command(flatten)]
    pub secret: crate::secret::SecretArgs,
}

/// Parses a format name for `--as`.
pub fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format {s:?}: use one of {}", names.join(", "))
    })
}

/// One entry of the walk: a file to inspect, or something skipped with the reason.
enum Walked {
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
fn collect(paths: &[PathBuf], top: bool, seen: &mut Vec<PathBuf>, out: &mut Vec<Walked>) {
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
                    out.push(Walked::Skipped(p.clone(), why));
                } else {
                    out.push(Walked::Unreadable(p.clone(), e.to_string()));
                }
                continue;
            }
        };
        if meta.is_dir() {
            let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if seen.contains(&real) {
                out.push(Walked::Skipped(
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
                    out.push(Walked::Unreadable(p.clone(), format!("cannot list: {e}")));
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
            out.push(Walked::File(p.clone()));
        } else {
            out.push(Walked::Skipped(
                p.clone(),
                format!("{}, not read", special_kind(&meta.file_type())),
            ));
        }
    }
}

/// What `inspect` found for one file.
#[derive(serde::Serialize)]
struct Entry {
    /// The path as given (`-` for stdin).
    path: String,
    /// `format`, `ambiguous`, `side file`, `json`, `unknown`, `skipped` (a special
    /// file inside a folder) or `error` (a path that cannot be read).
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
            "json" if !self.description.is_empty() => format!(
                "{} ({} bytes); `gamewire encode FILE` writes it back",
                self.description, self.bytes
            ),
            "json" => format!("JSON text, not an engine file ({} bytes)", self.bytes),
            "unknown" => format!("unknown format ({} bytes)", self.bytes),
            "skipped" => format!("skipped: {}", self.description),
            "error" => format!("error: {}", self.error.as_deref().unwrap_or("")),
            _ => format!("{} ({} bytes)", self.description, self.bytes),
        };
        format!("== {}: {what}", self.path)
    }
}

/// Detects and decodes one file's bytes (through the library's one way of opening
/// files, as `decode FILE` does).
fn inspect_one(
    path: &Path,
    shown: String,
    data: Vec<u8>,
    args: &InspectArgs,
    side: &SideFiles,
) -> Entry {
    let mut e = Entry {
        path: shown,
        status: "unknown",
        description: String::new(),
        format: None,
        bytes: data.len(),
        tree: None,
        error: None,
    };
    let opts = gamewire::OpenOptions {
        as_format: args.as_format,
        secret: args.secret.secret().ok().flatten(),
        ..gamewire::OpenOptions::default()
    };
    let named = (path != Path::new("-")).then_some(path);
    if args.as_format.is_none() && gamewire::open::pack::is_pack(&data) {
        // A Godot pack: its entries, each with the format gamewire reads it as.
        e.status = "format";
        match gamewire::open::pack::inspect(&data) {
            Ok((description, nodes)) => {
                e.description = description;
                e.tree = Some(nodes);
            }
            Err(err) => {
                e.description = "Godot pack (damaged)".into();
                e.error = Some(err.to_string());
            }
        }
        return e;
    }
    if args.as_format.is_none() && gamewire::open::archive::is_archive(&data) {
        // An archive: its entries, each with the format gamewire reads it as.
        e.status = "format";
        match gamewire::open::archive::inspect(&data) {
            Ok((description, nodes)) => {
                e.description = description;
                e.tree = Some(nodes);
            }
            Err(err) => {
                e.description = "archive (damaged)".into();
                e.error = Some(err.to_string());
            }
        }
        return e;
    }
    match gamewire::open(data, named, side, &opts) {
        Ok(opened) => {
            e.status = "format";
            e.description = describe(&opened);
            e.format = Some(opened.format().name());
            match opened.inspect(args.max_items) {
                Ok(nodes) => e.tree = Some(nodes),
                Err(err) => e.error = Some(err.to_string()),
            }
        }
        Err(OpenError::Ambiguous(fits)) => {
            e.status = "ambiguous";
            let names: Vec<String> = fits.iter().map(|f| f.describe()).collect();
            e.description = names.join(" or ");
        }
        Err(OpenError::SideFile(what)) => {
            e.status = "side file";
            e.description = what.to_owned();
        }
        Err(OpenError::Json { format }) => {
            e.status = "json";
            if let Some(f) = format {
                e.description = format!("gamewire JSON of a {f} file");
                e.format = Some(f.name());
            }
        }
        Err(OpenError::Unknown(None)) => {}
        Err(OpenError::Unknown(Some(b))) => {
            // A damaged file: the format it most likely is, and where it fails.
            e.status = "format";
            e.description = format!("{} (damaged)", b.0.describe());
            e.format = Some(b.0.format.name());
            e.error = Some(b.1.to_string());
        }
        Err(OpenError::Failed { found, error }) => {
            e.status = "format";
            if let Some(f) = found {
                e.description = f.describe();
                e.format = Some(f.format.name());
            }
            e.error = Some(error.to_string());
        }
    }
    e
}

/// The header line's description of an opened file: how it was recognised (with the
/// records found by content) and its settings.
fn describe(o: &gamewire::Opened) -> String {
    let found = o.found();
    match found.layout {
        // Side files named from the current folder, as the header of a document written
        // to stdout names them.
        gamewire::Layout::Unknown => o.header(None).describe(),
        _ => found.describe(),
    }
}

/// Runs `inspect`. Files of unknown format are listed as such; special files inside
/// folders are skipped with a note; a file that fails to read or decode prints its
/// error, and the command exits 1 at the end if any did. `-` reads stdin; `--json`
/// prints one JSON array of every file's entry instead of text.
pub fn run(args: InspectArgs) -> CliResult {
    crate::io::check_stdout_open()?;
    let stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    let paths: Vec<PathBuf> = args
        .paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .cloned()
        .collect();
    let mut files = Vec::new();
    collect(&paths, true, &mut Vec::new(), &mut files);
    let mut failures = 0;
    // Written through a locked stdout with errors returned, so `inspect ... | head` ends
    // quietly instead of panicking on the closed pipe. With `--json`, each entry is
    // written as it is made (one JSON array, as `serde_json` pretty-prints it), so only
    // one file's tree is held at a time.
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut json_out = serde_json::Serializer::pretty(stdout.lock());
    let mut json = match args.json {
        true => Some(serde::Serializer::serialize_seq(&mut json_out, None)?),
        false => None,
    };
    let mut emit = |e: Entry, out: &mut std::io::StdoutLock| -> CliResult {
        if e.error.is_some() {
            failures += 1;
        }
        if let Some(seq) = &mut json {
            serde::ser::SerializeSeq::serialize_element(seq, &e)?;
            return Ok(());
        }
        writeln!(out, "{}", e.head())?;
        if let Some(tree) = &e.tree {
            out.write_all(render_text(tree).as_bytes())?;
        }
        match &e.error {
            Some(err) if e.status != "error" => writeln!(out, "   error: {err}")?,
            _ => {}
        }
        Ok(())
    };
    // One resolver for the run: a type list or solution shared by many files is read
    // and parsed once.
    let side = SideFiles::filesystem();
    if stdin {
        let data = crate::io::read_input(None)?;
        emit(
            inspect_one(Path::new("-"), "-".into(), data, &args, &side),
            &mut out,
        )?;
    }
    for walked in &files {
        let (path, problem) = match walked {
            Walked::File(p) => match std::fs::read(p) {
                Ok(data) => {
                    emit(
                        inspect_one(p, p.display().to_string(), data, &args, &side),
                        &mut out,
                    )?;
                    continue;
                }
                Err(e) => (p, Err(format!("cannot read: {e}"))),
            },
            Walked::Skipped(p, why) => (p, Ok(why.clone())),
            Walked::Unreadable(p, why) => (p, Err(why.clone())),
        };
        let mut e = Entry {
            path: path.display().to_string(),
            status: "skipped",
            description: String::new(),
            format: None,
            bytes: 0,
            tree: None,
            error: None,
        };
        match problem {
            Ok(why) => e.description = why,
            Err(why) => {
                e.status = "error";
                e.error = Some(why);
            }
        }
        emit(e, &mut out)?;
    }
    if let Some(seq) = json {
        serde::ser::SerializeSeq::end(seq)?;
        writeln!(out)?;
    }
    out.flush()?;
    if failures > 0 {
        return Err(format!("{failures} file(s) failed to read or decode").into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire::core::inspect::TreeBuilder as Tree;

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
        assert_eq!(
            gamewire::core::inspect::short_str("abcdef", 3),
            "\"abc\"… (6 chars)"
        );
    }
}
