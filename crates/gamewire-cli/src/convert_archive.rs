//! `gamewire convert ARCHIVE... [--out-dir DIR]`: an archive's entries, in parallel,
//! each ObjectProperty file (`BINd`, XML object file) decoded to JSON (`NAME.json`, which
//! `encode` writes back to the entry's bytes) with the type list given or found beside
//! the archive, and every other entry extracted as it is.

use crate::convert::ConvertArgs;
use crate::CliResult;
use gamewire::open::archive::{self, Archive};
use gamewire::{OpenOptions, SideFiles};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// True when the file at `path` starts like an archive (its magic).
pub fn is_archive_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    archive::is_archive(&head[..n])
}

/// What happened to one entry.
enum Done {
    Decoded(u64),
    Extracted(u64),
    Placeholder,
    Kept,
}

/// Converts each archive: every entry name checked before anything is written; outputs
/// that exist are kept unless `--overwrite`.
pub fn run(paths: &[&PathBuf], args: &ConvertArgs) -> CliResult {
    if args.out_dir.is_none() && paths.len() > 1 {
        return Err(
            "give --out-dir DIR to convert several archives (each goes to DIR/NAME)".into(),
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(crate::WORKER_STACK)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let side = SideFiles::filesystem();
    let mut failed = 0;
    for path in paths {
        failed += pool.install(|| one(path, paths.len() > 1, args, &side))?;
    }
    if failed > 0 {
        return Err(format!("{failed} entries failed").into());
    }
    Ok(())
}

fn one(path: &Path, several: bool, args: &ConvertArgs, side: &SideFiles) -> CliResult<u64> {
    let shown = path.display().to_string();
    let map = gamewire::kingsisle::wad::Mapped::open(path).map_err(|e| format!("{shown}: {e}"))?;
    let a = archive::archive(&map)
        .ok_or_else(|| format!("{shown}: not an archive"))?
        .map_err(|e| format!("{shown}: {e}"))?;
    let a: &dyn Archive = a.as_ref();
    let stem = PathBuf::from(path.file_stem().unwrap_or(path.as_os_str()));
    let dir = match (&args.out_dir, several) {
        (Some(d), false) => d.clone(),
        (Some(d), true) => d.join(stem),
        (None, _) => path.with_extension(""),
    };
    // Every name is checked, and two entries never write one output, before anything
    // is written.
    let mut names: Vec<&str> = Vec::with_capacity(a.len());
    for i in 0..a.len() {
        archive::check_name(a.name(i)).map_err(|e| format!("{shown}: {e}; nothing was written"))?;
        names.push(a.name(i));
    }
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "{shown}: entry {:?} is listed twice; nothing was written",
            w[0]
        )
        .into());
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot make folder {}: {e}", dir.display()))?;
    let types = args.types.clone().or_else(|| {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut names: Vec<String> = Vec::new();
        if let Some(n) = &name {
            names.push(format!("{n}.types.json"));
            if let Some(stem) = n.split('.').next().filter(|s| !s.is_empty() && *s != n) {
                names.push(format!("{stem}.types.json"));
            }
        }
        names.push("types.json".into());
        names.push("types.xml".into());
        side.find(Some(path), &names)
    });
    if types.is_none() && !args.quiet {
        eprintln!(
            "gamewire: note: {shown}: no type list (--types FILE, or types.json beside the \
             archive): ObjectProperty entries are extracted as they are, not decoded"
        );
    }
    let opts = OpenOptions {
        as_format: args.as_format,
        types: types.clone(),
        ..OpenOptions::default()
    };
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(a.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} entries, {elapsed} elapsed, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let start = Instant::now();
    let counts = [
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
    ];
    let bytes = AtomicU64::new(0);
    let failures = Mutex::new(0u64);
    crate::io::sync_each(false);
    (0..a.len()).into_par_iter().for_each(|i| {
        let r = entry(a, i, path, &dir, types.is_some(), &opts, args, side);
        let k = match &r {
            Ok(Done::Decoded(n)) => {
                bytes.fetch_add(*n, Ordering::Relaxed);
                0
            }
            Ok(Done::Extracted(n)) => {
                bytes.fetch_add(*n, Ordering::Relaxed);
                1
            }
            Ok(Done::Placeholder) => 2,
            Ok(Done::Kept) => 3,
            Err(e) => {
                let line = format!(
                    "gamewire: error: {shown}: entry {}: {}",
                    a.name(i),
                    e.to_string().replace('\n', " ")
                );
                match &bar {
                    Some(b) => b.println(line),
                    None => eprintln!("{line}"),
                }
                *failures.lock().unwrap_or_else(|p| p.into_inner()) += 1;
                4
            }
        };
        if k < 4 {
            counts[k].fetch_add(1, Ordering::Relaxed);
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    crate::io::sync_each(true);
    crate::io::sync_file_systems(std::slice::from_ref(&dir))?;
    let failed = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    let [d, x, p, k] = counts.map(AtomicU64::into_inner);
    let kept = if k > 0 {
        format!(", {k} left as they were (their output exists; --overwrite replaces)")
    } else {
        String::new()
    };
    let placeholders = if p > 0 {
        format!(", {p} placeholders skipped")
    } else {
        String::new()
    };
    eprintln!(
        "converted {shown}: {} entries ({:.1} MB) in {:.2} s into {}: {d} decoded to JSON, \
         {x} extracted as they are; {failed} failed{placeholders}{kept}",
        a.len(),
        bytes.load(Ordering::Relaxed) as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(failed)
}

#[allow(clippy::too_many_arguments)]
fn entry(
    a: &dyn Archive,
    i: usize,
    path: &Path,
    dir: &Path,
    decode: bool,
    opts: &OpenOptions,
    args: &ConvertArgs,
    side: &SideFiles,
) -> CliResult<Done> {
    let name = a.name(i);
    let Some(bytes) = a.read(i)? else {
        return Ok(Done::Placeholder);
    };
    let size = bytes.len() as u64;
    let rel = Path::new(name).parent().unwrap_or(Path::new(""));
    crate::convert::make_folders(dir, rel)?;
    let object = decode && archive::is_object_file(&bytes, name);
    let out = if object {
        dir.join(format!("{name}.json"))
    } else {
        dir.join(name)
    };
    if !args.overwrite && std::fs::symlink_metadata(&out).is_ok() {
        return Ok(Done::Kept);
    }
    if object {
        let entry_path = archive::entry_path(Some(path), name);
        let opened = gamewire::open(bytes.into_owned(), Some(&entry_path), side, opts)
            .map_err(|e| e.to_string())?;
        let mut w = crate::io::Output::create_file(&out, args.overwrite)?;
        opened.write_document(&mut w, !args.compact, Some(&crate::io::parent_dir(&out)))?;
        w.finish()?;
        Ok(Done::Decoded(size))
    } else {
        crate::io::write_file(&out, &bytes, args.overwrite)?;
        Ok(Done::Extracted(size))
    }
}
