//! `gamewire convert`: many files in one process, in parallel, each detected and
//! converted on its own; one bad file is reported and does not stop the others.

use crate::inspect::parse_format;
use crate::CliResult;
use gamewire::open::GodotFraming;
use gamewire::{Format, OpenOptions, Settings, SideFiles};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::io::IsTerminal;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Engine files to JSON (`NAME.EXT` to `NAME.EXT.json`).
    Json,
    /// JSON back to engine files (`NAME.EXT.json` to `NAME.EXT`), in the format and with
    /// the settings `--to json` recorded (or `--as FORMAT` for plain JSON).
    Native,
    /// Godot 3 files (bare values or `store_var` saves) carried over to Godot 4, the way
    /// Godot 4 reads them (`save.dat` to `save.godot4.dat`, or the same name under
    /// `--out-dir`).
    Godot4,
}

/// Options of `gamewire convert`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Where convert writes: only beside each input, or under --out-dir. Every output is \
planned before anything is written, and the run writes nothing when two inputs would \
write the same output (names are kept byte for byte) or, with --overwrite, when an \
output is one of the run's inputs. An output that is a symbolic link is refused, even \
with --overwrite, and nothing is written through a linked folder under --out-dir. \
Folders (with -r or not) and glob patterns follow symbolic links only to files inside \
the folder walked (or the pattern's folder); others are skipped with a note. Names \
found in folders and by patterns are only ever files; name a file starting with `-` \
after `--` (convert -- -save.dat).

Past one machine: --files-from LIST reads the files to convert from LIST (one path a \
line, relative to the current folder; `-` for standard input), with or without inputs \
on the command line. The inputs are expanded (folders walked, patterns matched), each \
path kept once and sorted by its bytes (not by locale); --shard K/N then converts the \
files whose place in that list, counted from 0, is K-1 modulo N, so N runs (a Slurm \
array, Kubernetes jobs, xargs over ssh) given the same inputs convert disjoint parts \
whose union is the whole. Every output is still planned and checked for the whole \
list, so every part refuses a run that one machine would refuse. --summary-json FILE \
writes what the run did (counts, each failure with its reason, bytes in and out, \
wall time, the part), replaced atomically, for merging the parts' results.")]
pub struct ConvertArgs {
    /// Files, folders and glob patterns (`saves/*.dat`, `levels/**/*.prefab`); after
    /// `--`, names starting with `-` too.
    #[arg(required_unless_present = "files_from")]
    pub inputs: Vec<PathBuf>,
    /// Read files to convert from LIST, one path a line (`-`: standard input), relative
    /// to the current folder; blank lines are passed over. Under `--out-dir`, a listed
    /// file's output keeps its folder (`a/b.dat` to `OUT/a/b.dat.json`).
    #[arg(long, value_name = "LIST")]
    pub files_from: Vec<PathBuf>,
    /// Convert only the K-th of N parts of the sorted input list (1 <= K <= N), the
    /// same part on every machine given the same inputs.
    #[arg(long, value_name = "K/N", value_parser = crate::convert_select::parse_shard)]
    pub shard: Option<crate::convert_select::Shard>,
    /// Write a JSON summary of the run to FILE (counts, failures with their reasons,
    /// bytes, wall time, the part), even when files fail.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Walk folders recursively (without it, only the files directly in a folder).
    #[arg(short, long)]
    pub recursive: bool,
    /// What to write.
    #[arg(long, value_enum, default_value = "json")]
    pub to: Target,
    /// Folder for the outputs, mirroring the inputs' folders below the folder or glob
    /// they were found from; none writes each output beside its input.
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Files converted at once (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// Read every input as this format instead of detecting it (with `--to native`:
    /// for plain JSON that does not say its format).
    #[arg(long = "as", value_name = "FORMAT", value_parser = parse_format)]
    pub as_format: Option<Format>,
    /// Write JSON on one line per document instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// No progress bar, even on a terminal.
    #[arg(short, long)]
    pub quiet: bool,
    /// Replace outputs that already exist (by default such a file is left as it is and
    /// listed as skipped); never one of the run's inputs, never a symbolic link.
    #[arg(long)]
    pub overwrite: bool,
    /// With `--to native`: read every number as written (see `encode --numbers-as-written`).
    #[arg(long)]
    pub numbers_as_written: bool,
    /// KingsIsle: the type list to read every file (and archive entry) with, instead of
    /// the `types.json` found beside each.
    #[arg(long, value_name = "FILE")]
    pub types: Option<PathBuf>,
}

/// One input file and the folder its output path is made relative to.
struct Job {
    input: PathBuf,
    base: PathBuf,
}

/// A job with its output path, planned for every job before anything is written.
struct Planned {
    job: Job,
    /// Where its output goes: `None` for a file this direction never converts (a side
    /// file; with `--to native`, a name not ending in `.json`).
    out: Option<PathBuf>,
    /// The folder below `--out-dir` the output goes to (empty without `--out-dir`).
    rel: PathBuf,
}

/// What happened to one file.
enum Done {
    /// Converted, from an input of this many bytes.
    Converted(u64),
    /// Not an input for this direction (JSON text when converting to JSON, a side
    /// file, a non-JSON file when converting to native).
    Skipped,
    /// Its output exists and `--overwrite` was not given: left as it is.
    Kept(PathBuf),
}

/// Side files read for others (and notes), never converted themselves.
fn is_side_file(name: &str) -> bool {
    gamewire::open::side_file_kind(name).is_some() || name.ends_with(".md")
}

/// The file name of `p`, for matching (side files, `.json`), lossy.
fn lossy_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Files found from the command line, and notes on the files left out.
struct Found {
    jobs: Vec<Job>,
    notes: Vec<String>,
}

/// Expands the inputs: files as they are, folders walked (hidden entries skipped),
/// glob patterns matched. Inside folders and glob matches, special files are left out,
/// and so are symbolic links leading out of the folder walked (or the glob's folder),
/// with a note.
fn expand(args: &ConvertArgs) -> CliResult<Found> {
    let mut found = Found {
        jobs: Vec::new(),
        notes: Vec::new(),
    };
    for p in &args.inputs {
        if p.is_dir() {
            let root = canonical(p)?;
            walk(p, p, &root, args.recursive, &mut found)?;
        } else if p.exists() {
            let base = p.parent().map(Path::to_path_buf).unwrap_or_default();
            found.jobs.push(Job {
                input: p.clone(),
                base,
            });
        } else if p.to_string_lossy().contains(['*', '?', '[']) {
            let pattern = p
                .to_str()
                .ok_or_else(|| format!("{}: a pattern must be UTF-8", p.display()))?;
            glob_files(pattern, &mut found)?;
        } else {
            return Err(format!("{}: no such file or folder", p.display()).into());
        }
    }
    Ok(found)
}

/// The real path of `p` (links resolved), or an error naming it.
fn canonical(p: &Path) -> CliResult<PathBuf> {
    std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()).into())
}

/// Adds the files `pattern` matches whose real path (and folder) lies inside the
/// pattern's folder.
fn glob_files(pattern: &str, found: &mut Found) -> CliResult {
    let base = glob_base(pattern);
    let root = match base.as_os_str().is_empty() {
        true => canonical(Path::new("."))?,
        false => canonical(&base)?,
    };
    let mut matched = 0;
    for entry in glob::glob(pattern).map_err(|e| format!("bad pattern {pattern:?}: {e}"))? {
        let path = entry.map_err(|e| format!("{pattern}: {e}"))?;
        if !path.is_file() {
            continue;
        }
        matched += 1;
        let inside = |p: &Path| std::fs::canonicalize(p).is_ok_and(|r| r.starts_with(&root));
        if !inside(&path) || !inside(&crate::io::parent_dir(&path)) {
            found.notes.push(format!(
                "skipped {}: reached through a symbolic link leading out of {} (not followed)",
                path.display(),
                root.display()
            ));
            continue;
        }
        found.jobs.push(Job {
            input: path,
            base: base.clone(),
        });
    }
    if matched == 0 {
        return Err(format!("no file matches {pattern:?}").into());
    }
    Ok(())
}

/// The folder part of a glob pattern before its first wildcard.
fn glob_base(pattern: &str) -> PathBuf {
    let first = pattern.find(['*', '?', '[']).unwrap_or(pattern.len());
    let head = &pattern[..first];
    match head.rfind('/') {
        Some(0) => PathBuf::from("/"),
        Some(i) => PathBuf::from(&head[..i]),
        None => PathBuf::new(),
    }
}

/// Lists the files of `dir` (and, with `recursive`, of its folders), `root` being the
/// real path of the folder named on the command line. Symbolic links are followed only
/// to files inside `root`; links to folders are not walked; each link left out gets a
/// note.
fn walk(dir: &Path, base: &Path, root: &Path, recursive: bool, found: &mut Found) -> CliResult {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !lossy_name(p).starts_with('.'))
        .collect();
    entries.sort();
    for p in entries {
        let Ok(lmeta) = std::fs::symlink_metadata(&p) else {
            continue; // removed meanwhile
        };
        if lmeta.file_type().is_symlink() {
            let (Ok(real), Ok(meta)) = (std::fs::canonicalize(&p), std::fs::metadata(&p)) else {
                found
                    .notes
                    .push(format!("skipped {}: a broken symbolic link", p.display()));
                continue;
            };
            if !real.starts_with(root) {
                found.notes.push(format!(
                    "skipped {}: a symbolic link to {}, outside {} (not followed)",
                    p.display(),
                    real.display(),
                    root.display()
                ));
            } else if meta.is_dir() {
                if recursive {
                    found.notes.push(format!(
                        "skipped {}: a symbolic link to a folder (not walked)",
                        p.display()
                    ));
                }
            } else if meta.is_file() {
                found.jobs.push(Job {
                    input: p,
                    base: base.to_path_buf(),
                });
            }
        } else if lmeta.is_dir() {
            if recursive {
                walk(&p, base, root, recursive, found)?;
            }
        } else if lmeta.is_file() {
            found.jobs.push(Job {
                input: p,
                base: base.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// The output file name for an input named `name`, built from its bytes (never a lossy
/// conversion: two names differing only in bytes that are not UTF-8 stay different).
fn output_name(name: &OsStr, args: &ConvertArgs) -> CliResult<OsString> {
    let name = name_bytes(name)?;
    let find = |needle: &[u8]| name.windows(needle.len()).position(|w| w == needle);
    let out: Vec<u8> = match args.to {
        Target::Json => [name, b".json"].concat(),
        Target::Godot4 => match find(b".godot3") {
            Some(i) => [&name[..i], b".godot4", &name[i + 7..]].concat(),
            None if args.out_dir.is_some() => name.to_vec(),
            None => match name.iter().rposition(|&b| b == b'.') {
                Some(i) if i > 0 => [&name[..i], b".godot4", &name[i..]].concat(),
                _ => [name, b".godot4"].concat(),
            },
        },
        Target::Native => match name.strip_suffix(b".json") {
            Some(stem) if !stem.is_empty() => stem.to_vec(),
            _ => [name, b".bin"].concat(),
        },
    };
    Ok(os_name(out))
}

#[cfg(unix)]
fn name_bytes(name: &OsStr) -> CliResult<&[u8]> {
    use std::os::unix::ffi::OsStrExt;
    Ok(name.as_bytes())
}

#[cfg(unix)]
fn os_name(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

#[cfg(not(unix))]
fn name_bytes(name: &OsStr) -> CliResult<&[u8]> {
    name.to_str()
        .map(str::as_bytes)
        .ok_or_else(|| format!("{}: the file name is not Unicode", name.to_string_lossy()).into())
}

#[cfg(not(unix))]
fn os_name(bytes: Vec<u8>) -> OsString {
    // Only ASCII was added to or cut from a UTF-8 name at ASCII bytes.
    String::from_utf8_lossy(&bytes).into_owned().into()
}

/// Where the output of `job` goes, and the folder below `--out-dir` it goes to; nothing
/// is made or written.
fn output_path(job: &Job, args: &ConvertArgs) -> CliResult<(PathBuf, PathBuf)> {
    let name = job
        .input
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", job.input.display()))?;
    let out_name = output_name(name, args)?;
    Ok(match &args.out_dir {
        None => (job.input.with_file_name(out_name), PathBuf::new()),
        Some(dir) => {
            let below = job
                .input
                .parent()
                .and_then(|p| p.strip_prefix(&job.base).ok())
                .unwrap_or(Path::new(""));
            let mut rel = PathBuf::new();
            for c in below.components() {
                match c {
                    Component::Normal(n) => rel.push(n),
                    Component::CurDir => {}
                    _ => {
                        return Err(format!(
                            "{}: its folder below {} leaves it (..), so it has no place \
                             under --out-dir",
                            job.input.display(),
                            job.base.display()
                        )
                        .into())
                    }
                }
            }
            (dir.join(&rel).join(out_name), rel)
        }
    })
}

/// Makes the folders `rel` below `out_dir`, one at a time, never through a symbolic
/// link: a link (or a file) where a folder should be is an error naming it.
pub(crate) fn make_folders(out_dir: &Path, rel: &Path) -> CliResult {
    let mut dir = out_dir.to_path_buf();
    for c in rel.components() {
        dir.push(c);
        if let Err(e) = std::fs::create_dir(&dir) {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                return Err(format!("cannot make folder {}: {e}", dir.display()).into());
            }
        }
        let meta = std::fs::symlink_metadata(&dir)
            .map_err(|e| format!("cannot make folder {}: {e}", dir.display()))?;
        if meta.file_type().is_symlink() {
            return Err(format!(
                "cannot write into {}: it is a symbolic link, and outputs are never written \
                 through one",
                dir.display()
            )
            .into());
        }
        if !meta.is_dir() {
            return Err(format!("cannot write into {}: it is not a folder", dir.display()).into());
        }
    }
    Ok(())
}

/// What identifies a file: its device and inode (two paths to one file, hard links
/// included, compare equal).
#[cfg(unix)]
type FileId = (u64, u64);

/// What identifies a file: its real path.
#[cfg(not(unix))]
type FileId = PathBuf;

/// The identity of the file at `p` (links followed), if it exists.
#[cfg(unix)]
fn file_id(p: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// The identity of the file at `p` (links followed), if it exists.
#[cfg(not(unix))]
fn file_id(p: &Path) -> Option<FileId> {
    std::fs::canonicalize(p).ok()
}

/// How a planned job takes part in the run, for the checks made before writing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Read by the run (a side file), never converted.
    Side,
    /// Not read for this direction (with `--to native`, a name without `.json`).
    Ignored,
    /// Converted.
    Input,
    /// Converted unless it is JSON text (`--to json` without `--as`), which is skipped.
    UnlessJson,
}

fn role(job: &Job, args: &ConvertArgs) -> Role {
    let name = lossy_name(&job.input);
    if is_side_file(&name) {
        return Role::Side;
    }
    match args.to {
        Target::Native if !name.ends_with(".json") => Role::Ignored,
        Target::Json if args.as_format.is_none() => Role::UnlessJson,
        _ => Role::Input,
    }
}

/// True when the file at `p` is JSON text, which `--to json` skips (the detection
/// `gamewire::open` makes, on the whole file). An unreadable file counts as an input.
fn is_json_text(p: &Path) -> bool {
    std::fs::read(p).is_ok_and(|data| {
        matches!(
            gamewire::identify(&data, Some(&lossy_name(p))),
            gamewire::Detection::Json
        )
    })
}

/// Plans every job's output before anything is written, and refuses the whole run,
/// naming each problem, when two inputs would write the same output (names that differ
/// only in bytes that are not UTF-8, one name in two input folders under one
/// `--out-dir`, `save.bin` and `save.godot3.bin` under `--to godot4`) or, with
/// `--overwrite`, when an output is one of the run's inputs (the same file by device and
/// inode, whatever the path). The same file reached twice for the same output
/// (`convert dir dir/a.dat`) is converted once.
fn plan(jobs: Vec<Job>, args: &ConvertArgs, pool: &rayon::ThreadPool) -> CliResult<Vec<Planned>> {
    let mut problems = Vec::new();
    let mut planned = Vec::new();
    let mut roles = Vec::new();
    for job in jobs {
        let r = role(&job, args);
        let (out, rel) = match r {
            Role::Side | Role::Ignored => (None, PathBuf::new()),
            Role::Input | Role::UnlessJson => match output_path(&job, args) {
                Ok((out, rel)) => (Some(out), rel),
                Err(e) => {
                    problems.push(e.to_string());
                    (None, PathBuf::new())
                }
            },
        };
        roles.push(r);
        planned.push(Planned { job, out, rel });
    }
    let ids: Vec<Option<FileId>> = planned.iter().map(|p| file_id(&p.job.input)).collect();
    // Where each output lands: under --out-dir the path as built (every output starts
    // with the same folder); beside the inputs, the real folder and the name.
    let mut real_dirs: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut key = |out: &Path| -> PathBuf {
        if args.out_dir.is_some() {
            return out.to_path_buf();
        }
        let dir = crate::io::parent_dir(out);
        let real = real_dirs
            .entry(dir)
            .or_insert_with_key(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()));
        real.join(out.file_name().unwrap_or_default())
    };
    let mut by_key: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, p) in planned.iter().enumerate() {
        if let Some(out) = &p.out {
            by_key.entry(key(out)).or_default().push(i);
        }
    }
    // The same file twice with the same output: keep the first.
    let mut dropped = vec![false; planned.len()];
    for idx in by_key.values_mut() {
        let mut seen: Vec<&Option<FileId>> = Vec::new();
        idx.retain(|&i| {
            let dup = ids[i].is_some() && seen.contains(&&ids[i]);
            seen.push(&ids[i]);
            dropped[i] |= dup;
            !dup
        });
    }
    // Outputs onto existing files that are inputs.
    let mut by_id: HashMap<&FileId, Vec<usize>> = HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        if let Some(id) = id {
            by_id.entry(id).or_default().push(i);
        }
    }
    let mut hits: Vec<(usize, usize)> = Vec::new();
    if args.overwrite {
        for (i, p) in planned.iter().enumerate() {
            let Some(out) = p.out.as_ref().filter(|_| !dropped[i]) else {
                continue;
            };
            // A link is refused when written; only a file can be an input.
            if !std::fs::symlink_metadata(out).is_ok_and(|m| m.is_file()) {
                continue;
            }
            if let Some(on) = file_id(out).and_then(|id| by_id.get(&id)) {
                hits.extend(on.iter().map(|&h| (i, h)));
            }
        }
    }
    // JSON text is not converted by --to json: peek at the files whose part decides a
    // problem, in parallel.
    let mut peek: Vec<usize> = hits.iter().flat_map(|&(i, h)| [i, h]).collect();
    for idx in by_key.values().filter(|v| v.len() > 1) {
        peek.extend(idx);
    }
    peek.retain(|&i| roles[i] == Role::UnlessJson);
    peek.sort_unstable();
    peek.dedup();
    let json: HashMap<usize, bool> = pool.install(|| {
        peek.par_iter()
            .map(|&i| (i, is_json_text(&planned[i].job.input)))
            .collect()
    });
    let converted = |i: usize| match roles[i] {
        Role::Input => true,
        Role::UnlessJson => !json.get(&i).copied().unwrap_or(false),
        Role::Side | Role::Ignored => false,
    };
    let read = |i: usize| roles[i] == Role::Side || converted(i);
    for (out, idx) in &by_key {
        let writers: Vec<&Path> = idx
            .iter()
            .filter(|&&i| converted(i))
            .map(|&i| planned[i].job.input.as_path())
            .collect();
        if writers.len() > 1 {
            let names: Vec<String> = writers.iter().map(|p| p.display().to_string()).collect();
            problems.push(format!(
                "{} would each be written to {}: rename one, or convert them in separate runs",
                names.join(", "),
                planned[idx[0]].out.as_deref().unwrap_or(out).display()
            ));
        }
    }
    // One problem per output, naming the first input it would replace.
    let mut named = vec![false; planned.len()];
    for &(i, h) in &hits {
        if !named[i] && converted(i) && read(h) {
            named[i] = true;
            let out = planned[i].out.as_deref().unwrap_or(Path::new(""));
            let other = &planned[h].job.input;
            let what = if i == h {
                "the file itself".to_owned()
            } else if out == other {
                "one of this run's inputs".to_owned()
            } else {
                format!("the same file as the input {}", other.display())
            };
            problems.push(format!(
                "{}: its output {} is {what}; convert never writes onto its inputs, even \
                 with --overwrite",
                planned[i].job.input.display(),
                out.display(),
            ));
        }
    }
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("gamewire: error: {p}");
        }
        return Err(format!(
            "{} problem(s) with the outputs; nothing was written",
            problems.len()
        )
        .into());
    }
    Ok(planned
        .into_iter()
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|(p, _)| p)
        .collect())
}

/// The folders outputs were written to: `--out-dir`, or else the inputs' folders.
fn output_dirs(args: &ConvertArgs, jobs: &[Planned]) -> Vec<PathBuf> {
    if let Some(d) = &args.out_dir {
        return vec![d.clone()];
    }
    let mut dirs: Vec<PathBuf> = jobs
        .iter()
        .map(|j| crate::io::parent_dir(&j.job.input))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Checks the output of `plan` before it is written: `Done::Kept` when it exists and
/// may not be replaced; an error when it is a symbolic link (whatever `--overwrite`
/// says). Makes its folder below `--out-dir`.
fn target<'a>(plan: &'a Planned, args: &ConvertArgs) -> CliResult<Result<&'a Path, Done>> {
    let Some(out) = plan.out.as_deref() else {
        return Ok(Err(Done::Skipped));
    };
    if let Some(dir) = &args.out_dir {
        make_folders(dir, &plan.rel)?;
    }
    match std::fs::symlink_metadata(out) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "cannot write {}: it is a symbolic link, and outputs are never written through \
             one, even with --overwrite",
            out.display()
        )
        .into()),
        Ok(_) if !args.overwrite => Ok(Err(Done::Kept(out.to_path_buf()))),
        _ => Ok(Ok(out)),
    }
}

/// Converts one file, through the library's one way of opening files and writing them
/// back; side files come from `side`, shared by the whole run.
fn convert_one(plan: &Planned, args: &ConvertArgs, side: &SideFiles) -> CliResult<Done> {
    let job = &plan.job;
    let name = lossy_name(&job.input);
    if is_side_file(&name) || plan.out.is_none() {
        return Ok(Done::Skipped);
    }
    let read = || std::fs::read(&job.input).map_err(|e| format!("cannot read: {e}"));
    let size;
    match args.to {
        Target::Json => {
            // Read once: detection and the decoder share the bytes.
            let data = read()?;
            size = data.len() as u64;
            let opts = OpenOptions {
                as_format: args.as_format,
                secret: gamewire::open::Secret::from_env()?,
                types: args.types.clone(),
                ..OpenOptions::default()
            };
            let opened = match gamewire::open(data, Some(&job.input), side, &opts) {
                Ok(o) => o,
                // JSON already (an earlier run's output), or a side file.
                Err(e) if e.is_not_engine_file() => return Ok(Done::Skipped),
                Err(e) => return Err(e.to_string().into()),
            };
            let out = match target(plan, args)? {
                Ok(out) => out,
                Err(kept) => return Ok(kept),
            };
            let mut w = crate::io::Output::create_file(out, args.overwrite)?;
            opened.write_document(&mut w, !args.compact, Some(&crate::io::parent_dir(out)))?;
            w.finish()?;
        }
        Target::Godot4 => {
            let data = read()?;
            size = data.len() as u64;
            if let Some(other) = args.as_format.filter(|f| *f != Format::Godot3) {
                return Err(format!("--to godot4 converts Godot 3 files, not {other}").into());
            }
            let opts = OpenOptions {
                as_format: args.as_format,
                ..OpenOptions::default()
            };
            let opened = gamewire::open(data, Some(&job.input), side, &opts).map_err(|e| {
                format!("not recognised as Godot 3 ({e}); use --as godot3 if it is")
            })?;
            let framed = match opened.settings() {
                Settings::Godot3(g) if g.container.is_some() => {
                    return Err(
                        "an encrypted or compressed Godot 3 file: --to godot4 converts plain \
                         files only (it would not be written back encrypted or compressed)"
                            .into(),
                    )
                }
                Settings::Godot3(g) => g.framing == GodotFraming::StoreVar,
                other => {
                    return Err(format!(
                        "not a Godot 3 file (it reads as {}); use --as godot3 if it is",
                        other.describe()
                    )
                    .into())
                }
            };
            #[cfg(feature = "godot")]
            let out = gamewire::godot::convert::v3_bytes_to_v4(opened.data(), framed)?;
            #[cfg(not(feature = "godot"))]
            let out: Vec<u8> = {
                let _ = framed;
                return Err("this gamewire was built without the godot feature".into());
            };
            let path = match target(plan, args)? {
                Ok(p) => p,
                Err(kept) => return Ok(kept),
            };
            crate::io::write_file(path, &out, args.overwrite)?;
        }
        Target::Native => {
            if !name.ends_with(".json") {
                return Ok(Done::Skipped);
            }
            let text = read()?;
            size = text.len() as u64;
            let doc = gamewire::read_document(&text)?;
            // Plain JSON needs --as FORMAT (a format that needs no side file).
            let plain = match (&doc.settings, args.as_format) {
                (Some(_), _) => None,
                (None, Some(f)) => Some(Settings::plain(f).ok_or_else(|| {
                    format!("plain JSON cannot be written as {f} without a header naming its side files; decode the engine file with `gamewire decode FILE`")
                })?),
                (None, None) => {
                    return Err("this JSON does not say which engine format it is for (no \"$gamewire\" header): give --as FORMAT".into())
                }
            };
            let opts = gamewire::open::EncodeOptions {
                numbers_as_written: args.numbers_as_written,
                expect_format: args.as_format,
                secret: gamewire::open::Secret::from_env()?,
                ..Default::default()
            };
            let name = plan.out.as_deref().map(lossy_name);
            let opts = gamewire::open::EncodeOptions {
                output_name: name,
                ..opts
            };
            // The input is checked first (its header against --as); then the output.
            let encoded = gamewire::encode_document(&doc, Some(&job.input), plain, side, &opts)?;
            let out = match target(plan, args)? {
                Ok(out) => out,
                Err(kept) => return Ok(kept),
            };
            crate::io::write_file(out, &encoded.bytes, args.overwrite)?;
        }
    }
    Ok(Done::Converted(size))
}

/// Runs `gamewire convert`.
pub fn run(args: ConvertArgs) -> CliResult {
    // Archives (KingsIsle .wad, Godot .pck) are converted entry by entry into their own
    // folder.
    let archives: Vec<&PathBuf> = args
        .inputs
        .iter()
        .filter(|p| args.to == Target::Json && crate::convert_archive::is_archive_file(p))
        .collect();
    if !archives.is_empty() {
        if archives.len() != args.inputs.len() {
            return Err("convert archives on their own: give only archives, or no archive".into());
        }
        return crate::convert_archive::run(&archives, &args);
    }
    let started = Instant::now();
    if let Some(path) = &args.summary_json {
        crate::convert_summary::check_target(path)?;
    }
    let listed = crate::convert_select::read_lists(&args.files_from)?;
    let mut found = expand(&args)?;
    for note in &found.notes {
        eprintln!("gamewire: note: {note}");
    }
    found.jobs.extend(listed.into_iter().map(|l| Job {
        input: l.path,
        base: l.base,
    }));
    // One order on every machine, each path once: what --shard splits.
    let all = crate::convert_select::sort_unique(found.jobs, |j| &j.input);
    if all.is_empty() {
        return Err("no input file to convert".into());
    }
    // Each worker gets the CLI's deep stack: values nest thousands of levels.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(crate::WORKER_STACK)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    // Every output is planned, and checked against the inputs and the other outputs,
    // before anything is written.
    let jobs = plan(all, &args, &pool)?;
    let files_in_list = jobs.len();
    let jobs: Vec<Planned> = match args.shard {
        None => jobs,
        Some(shard) => {
            let part: Vec<Planned> = jobs
                .into_iter()
                .enumerate()
                .filter(|(i, _)| shard.takes(*i))
                .map(|(_, j)| j)
                .collect();
            if !args.quiet {
                eprintln!(
                    "gamewire: part {shard}: {} of the {files_in_list} files",
                    part.len()
                );
            }
            part
        }
    };
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make folder {}: {e}", dir.display()))?;
    }
    let bar = progress_bar(jobs.len() as u64, "files", args.quiet);
    let start = Instant::now();
    let bytes = AtomicU64::new(0);
    let bytes_out = AtomicU64::new(0);
    let skipped = AtomicU64::new(0);
    let kept = AtomicU64::new(0);
    let failures = Mutex::new(Vec::new());
    // One resolver for the run: each type list, solution and registry is read and
    // parsed once, whichever thread needs it first.
    let side = SideFiles::filesystem();
    // Each output is written to a temporary file and renamed over its target (a reader
    // sees the old file or the whole new one), without a sync per file: the file
    // systems written to are synced once at the end, before convert reports success.
    crate::io::sync_each(false);
    pool.install(|| {
        jobs.par_iter().for_each(|job| {
            match convert_one(job, &args, &side) {
                Ok(Done::Converted(size)) => {
                    bytes.fetch_add(size, Ordering::Relaxed);
                    let out = job.out.as_deref().and_then(|o| std::fs::metadata(o).ok());
                    bytes_out.fetch_add(out.map_or(0, |m| m.len()), Ordering::Relaxed);
                }
                Ok(Done::Skipped) => {
                    skipped.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Done::Kept(out)) => {
                    kept.fetch_add(1, Ordering::Relaxed);
                    let line = format!(
                        "gamewire: skipped {}: {} exists (--overwrite replaces it)",
                        job.job.input.display(),
                        out.display()
                    );
                    match &bar {
                        Some(b) => b.println(line),
                        None => eprintln!("{line}"),
                    }
                }
                Err(e) => {
                    let msg = e.to_string().replace('\n', " ");
                    let path = job.job.input.display().to_string();
                    let line = if msg.starts_with(&path) {
                        msg.clone()
                    } else {
                        format!("{path}: {msg}")
                    };
                    match &bar {
                        Some(b) => b.println(format!("gamewire: error: {line}")),
                        None => eprintln!("gamewire: error: {line}"),
                    }
                    let reason = match msg.strip_prefix(&path) {
                        Some(rest) => rest.trim_start_matches([':', ' ']).to_owned(),
                        None => msg,
                    };
                    failures
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(crate::convert_summary::Failure { path, reason });
                }
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        })
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    crate::io::sync_each(true);
    crate::io::sync_file_systems(&output_dirs(&args, &jobs))?;
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by(|a, b| a.path.cmp(&b.path));
    let failed = failures.len();
    let secs = start.elapsed().as_secs_f64();
    let mb = bytes.load(Ordering::Relaxed) as f64 / 1e6;
    let skipped = skipped.load(Ordering::Relaxed) as usize;
    let kept = kept.load(Ordering::Relaxed) as usize;
    let kept_note = if kept > 0 {
        format!(", {kept} left as they were (their output exists; --overwrite replaces)")
    } else {
        String::new()
    };
    let to = match args.to {
        Target::Json => "json",
        Target::Native => "native",
        Target::Godot4 => "godot4",
    };
    let converted = jobs.len() - failed - skipped - kept;
    eprintln!(
        "converted {converted} files ({mb:.1} MB) in {secs:.2} s; {failed} failed, {skipped} \
         skipped (side files, or not inputs for --to {to}){kept_note}",
    );
    if let Some(path) = &args.summary_json {
        crate::convert_summary::Summary {
            summary_version: crate::convert_summary::SUMMARY_VERSION,
            gamewire: env!("CARGO_PKG_VERSION"),
            shard: crate::convert_summary::Summary::part(args.shard),
            to,
            files_in_list,
            files: jobs.len(),
            converted,
            skipped,
            kept,
            failed,
            failures,
            bytes_in: bytes.load(Ordering::Relaxed),
            bytes_out: bytes_out.load(Ordering::Relaxed),
            seconds: started.elapsed().as_secs_f64(),
        }
        .write(path)?;
    }
    if failed > 0 {
        return Err(format!("{failed} file(s) failed").into());
    }
    Ok(())
}

/// The progress bar of a run over `len` items (`unit`: "files", "entries"), on a terminal
/// and unless `quiet`.
pub(crate) fn progress_bar(len: u64, unit: &str, quiet: bool) -> Option<indicatif::ProgressBar> {
    (!quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(len);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, {{eta}} left"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    })
}
