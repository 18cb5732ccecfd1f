//! `gamewire convert`: many files in one process, in parallel, each detected and
//! converted on its own; one bad file is reported and does not stop the others.

use crate::inspect::parse_format;
use crate::CliResult;
use gamewire::open::GodotFraming;
use gamewire::{Format, OpenOptions, Settings, SideFiles};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
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
pub struct ConvertArgs {
    /// Files, folders and glob patterns (`saves/*.dat`, `levels/**/*.prefab`).
    #[arg(required = true)]
    pub inputs: Vec<String>,
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
    /// listed as skipped).
    #[arg(long)]
    pub overwrite: bool,
    /// With `--to native`: read every number as written (see `encode --numbers-as-written`).
    #[arg(long)]
    pub numbers_as_written: bool,
}

/// One input file and the folder its output path is made relative to.
struct Job {
    input: PathBuf,
    base: PathBuf,
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

/// Expands the inputs: files as they are, folders walked (hidden entries skipped),
/// glob patterns matched. Special files inside folders are left out.
fn expand(args: &ConvertArgs) -> CliResult<Vec<Job>> {
    let mut jobs = Vec::new();
    for input in &args.inputs {
        let p = PathBuf::from(input);
        if p.is_dir() {
            walk(&p, &p, args.recursive, &mut jobs)?;
        } else if p.exists() {
            let base = p.parent().map(Path::to_path_buf).unwrap_or_default();
            jobs.push(Job { input: p, base });
        } else if input.contains(['*', '?', '[']) {
            let base = glob_base(input);
            let mut matched = 0;
            for entry in glob::glob(input).map_err(|e| format!("bad pattern {input:?}: {e}"))? {
                let path = entry.map_err(|e| format!("{input}: {e}"))?;
                if path.is_file() {
                    matched += 1;
                    jobs.push(Job {
                        input: path,
                        base: base.clone(),
                    });
                }
            }
            if matched == 0 {
                return Err(format!("no file matches {input:?}").into());
            }
        } else {
            return Err(format!("{input}: no such file or folder").into());
        }
    }
    Ok(jobs)
}

/// The folder part of a glob pattern before its first wildcard.
fn glob_base(pattern: &str) -> PathBuf {
    let first = pattern.find(['*', '?', '[']).unwrap_or(pattern.len());
    let head = &pattern[..first];
    match head.rfind('/') {
        Some(i) => PathBuf::from(&head[..i]),
        None => PathBuf::new(),
    }
}

fn walk(dir: &Path, base: &Path, recursive: bool, jobs: &mut Vec<Job>) -> CliResult {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    for p in entries {
        let Ok(meta) = std::fs::metadata(&p) else {
            continue; // broken link
        };
        if meta.is_dir() {
            if recursive && !std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_symlink()) {
                walk(&p, base, recursive, jobs)?;
            }
        } else if meta.is_file() {
            jobs.push(Job {
                input: p,
                base: base.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Where the output of `job` goes.
fn output_path(job: &Job, args: &ConvertArgs) -> CliResult<PathBuf> {
    let name = job
        .input
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", job.input.display()))?
        .to_string_lossy()
        .into_owned();
    let out_name = match args.to {
        Target::Json => format!("{name}.json"),
        Target::Godot4 if name.contains(".godot3") => name.replacen(".godot3", ".godot4", 1),
        Target::Godot4 if args.out_dir.is_some() => name.clone(),
        Target::Godot4 => match name.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => format!("{stem}.godot4.{ext}"),
            _ => format!("{name}.godot4"),
        },
        Target::Native => match name.strip_suffix(".json") {
            Some(stem) if !stem.is_empty() => stem.to_owned(),
            _ => format!("{name}.bin"),
        },
    };
    Ok(match &args.out_dir {
        None => job.input.with_file_name(out_name),
        Some(dir) => {
            let rel = job
                .input
                .parent()
                .and_then(|p| p.strip_prefix(&job.base).ok())
                .unwrap_or(Path::new(""));
            let folder = dir.join(rel);
            std::fs::create_dir_all(&folder)
                .map_err(|e| format!("cannot make folder {}: {e}", folder.display()))?;
            folder.join(out_name)
        }
    })
}

/// The folders outputs were written to: `--out-dir`, or else the inputs' folders.
fn output_dirs(args: &ConvertArgs, jobs: &[Job]) -> Vec<PathBuf> {
    if let Some(d) = &args.out_dir {
        return vec![d.clone()];
    }
    let mut dirs: Vec<PathBuf> = jobs
        .iter()
        .map(|j| crate::io::parent_dir(&j.input))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The output path of `job`, or `Done::Kept` when it exists and may not be replaced.
fn target(job: &Job, args: &ConvertArgs) -> CliResult<Result<PathBuf, Done>> {
    let out = output_path(job, args)?;
    if !args.overwrite && std::fs::symlink_metadata(&out).is_ok() {
        return Ok(Err(Done::Kept(out)));
    }
    Ok(Ok(out))
}

/// Converts one file, through the library's one way of opening files and writing them
/// back; side files come from `side`, shared by the whole run.
fn convert_one(job: &Job, args: &ConvertArgs, side: &SideFiles) -> CliResult<Done> {
    let name = job
        .input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if is_side_file(&name) {
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
                ..OpenOptions::default()
            };
            let opened = match gamewire::open(data, Some(&job.input), side, &opts) {
                Ok(o) => o,
                // JSON already (an earlier run's output), or a side file.
                Err(e) if e.is_not_engine_file() => return Ok(Done::Skipped),
                Err(e) => return Err(e.to_string().into()),
            };
            let out = match target(job, args)? {
                Ok(out) => out,
                Err(kept) => return Ok(kept),
            };
            crate::auto::write_document(&opened, Some(&out), !args.compact)?;
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
                Settings::Godot3(g) => g.framing == GodotFraming::StoreVar,
                other => {
                    return Err(format!(
                        "not a Godot 3 file (it reads as {}); use --as godot3 if it is",
                        other.describe()
                    )
                    .into())
                }
            };
            let out = gamewire::godot::convert::v3_bytes_to_v4(opened.data(), framed)?;
            let path = match target(job, args)? {
                Ok(p) => p,
                Err(kept) => return Ok(kept),
            };
            crate::io::write_output(Some(&path), &out)?;
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
                ..Default::default()
            };
            let name = output_path(job, args)?
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            let opts = gamewire::open::EncodeOptions {
                output_name: name,
                ..opts
            };
            // The input is checked first (its header against --as); then the output.
            let encoded = gamewire::encode_document(&doc, Some(&job.input), plain, side, &opts)?;
            let out = match target(job, args)? {
                Ok(out) => out,
                Err(kept) => return Ok(kept),
            };
            crate::io::write_output(Some(&out), &encoded.bytes)?;
        }
    }
    Ok(Done::Converted(size))
}

/// Runs `gamewire convert`.
pub fn run(args: ConvertArgs) -> CliResult {
    let jobs = expand(&args)?;
    if jobs.is_empty() {
        return Err("no input file to convert".into());
    }
    // Each worker gets the CLI's deep stack: values nest thousands of levels.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(crate::WORKER_STACK)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} files, {elapsed} elapsed, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let start = Instant::now();
    let bytes = AtomicU64::new(0);
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
                }
                Ok(Done::Skipped) => {
                    skipped.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Done::Kept(out)) => {
                    kept.fetch_add(1, Ordering::Relaxed);
                    let line = format!(
                        "gamewire: skipped {}: {} exists (--overwrite replaces it)",
                        job.input.display(),
                        out.display()
                    );
                    match &bar {
                        Some(b) => b.println(line),
                        None => eprintln!("{line}"),
                    }
                }
                Err(e) => {
                    let msg = e.to_string().replace('\n', " ");
                    let path = job.input.display().to_string();
                    let line = if msg.starts_with(&path) {
                        msg
                    } else {
                        format!("{path}: {msg}")
                    };
                    match &bar {
                        Some(b) => b.println(format!("gamewire: error: {line}")),
                        None => eprintln!("gamewire: error: {line}"),
                    }
                    failures
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(line);
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
    let failed = failures
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .len();
    let secs = start.elapsed().as_secs_f64();
    let mb = bytes.load(Ordering::Relaxed) as f64 / 1e6;
    let skipped = skipped.load(Ordering::Relaxed) as usize;
    let kept = kept.load(Ordering::Relaxed) as usize;
    let kept_note = if kept > 0 {
        format!(", {kept} left as they were (their output exists; --overwrite replaces)")
    } else {
        String::new()
    };
    eprintln!(
        "converted {} files ({mb:.1} MB) in {secs:.2} s; {failed} failed, {skipped} skipped \
         (side files, or not inputs for --to {}){kept_note}",
        jobs.len() - failed - skipped - kept,
        match args.to {
            Target::Json => "json",
            Target::Native => "native",
            Target::Godot4 => "godot4",
        }
    );
    if failed > 0 {
        return Err(format!("{failed} file(s) failed").into());
    }
    Ok(())
}
