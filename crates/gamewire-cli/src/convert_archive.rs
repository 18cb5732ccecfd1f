//! `gamewire convert ARCHIVE... [--out-dir DIR]`: an archive's entries (a KingsIsle
//! `KIWAD`, a Godot pack, any [`Archive`]), in parallel, each entry gamewire reads
//! decoded to JSON (`NAME.json`; a KingsIsle ObjectProperty file with the type list given
//! or found beside the archive, a Godot `project.binary` or Variant file) and every
//! other entry extracted as it is.
//!
//! What it guarantees: every entry name is checked (no `..`, absolute path, backslash,
//! NUL; no name twice) and every entry read and checked (CRC, MD5, decryption) before
//! anything is written, so a damaged or hostile archive writes nothing; a `NAME.json`
//! is written only when it encodes back to the entry's exact bytes (else the entry is
//! extracted as it is, with a note); existing outputs are kept unless `--overwrite`.

use crate::convert::ConvertArgs;
use crate::CliResult;
use gamewire::open::archive::{self, Archive};
use gamewire::{OpenOptions, SideFiles};
use rayon::prelude::*;
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
    /// Extracted as it is: its JSON would not encode back to its bytes.
    NotExact(u64),
}

/// The archive file's bytes: mapped where gamewire maps archives, else read.
fn load(path: &Path) -> gamewire::Result<Box<dyn AsRef<[u8]> + Send + Sync>> {
    #[cfg(feature = "kingsisle")]
    {
        Ok(Box::new(gamewire::kingsisle::wad::Mapped::open(path)?))
    }
    #[cfg(not(feature = "kingsisle"))]
    {
        std::fs::read(path)
            .map(|v| Box::new(v) as Box<dyn AsRef<[u8]> + Send + Sync>)
            .map_err(|e| gamewire::Error::io(path.display().to_string(), e))
    }
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
    let map = load(path).map_err(|e| format!("{shown}: {e}"))?;
    let secret = gamewire::open::Secret::from_env()?;
    let a = archive::archive_with((*map).as_ref(), secret.as_ref())
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
    // Every entry's bytes are checked (CRC, MD5, inflated, decrypted) before anything
    // is written: a damaged archive writes nothing.
    let damaged: Vec<String> = (0..a.len())
        .into_par_iter()
        .filter_map(|i| {
            a.read(i)
                .err()
                .map(|e| format!("entry {:?}: {e}", a.name(i)))
        })
        .collect();
    if let Some(first) = damaged.first() {
        return Err(format!(
            "{shown}: {} damaged entries, the first: {first}; nothing was written",
            damaged.len()
        )
        .into());
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot make folder {}: {e}", dir.display()))?;
    let types = args
        .types
        .clone()
        .or_else(|| archive::type_list(side, path));
    if types.is_none() && !args.quiet {
        eprintln!(
            "gamewire: note: {shown}: no type list (--types FILE, or types.json beside the \
             archive): ObjectProperty entries are extracted as they are, not decoded"
        );
    }
    let opts = OpenOptions {
        as_format: args.as_format,
        types: types.clone(),
        secret: secret.clone(),
        ..OpenOptions::default()
    };
    let bar = crate::convert::progress_bar(a.len() as u64, "entries", args.quiet);
    let start = Instant::now();
    let counts = [
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
    ];
    let bytes = AtomicU64::new(0);
    let failures = Mutex::new(0u64);
    crate::io::sync_each(false);
    (0..a.len()).into_par_iter().for_each(|i| {
        let r = entry(a, i, path, &dir, &opts, args, side);
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
            Ok(Done::NotExact(n)) => {
                bytes.fetch_add(*n, Ordering::Relaxed);
                let line = format!(
                    "gamewire: note: {shown}: entry {}: extracted as it is: its JSON would \
                     not encode back to the same bytes",
                    a.name(i)
                );
                match &bar {
                    Some(b) => b.println(line),
                    None => eprintln!("{line}"),
                }
                1
            }
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
                5
            }
        };
        if k < 5 {
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
    let [d, x, p, k, _] = counts.map(AtomicU64::into_inner);
    let kept = if k > 0 {
        format!(", {k} left as they were (their output exists; --overwrite replaces)")
    } else {
        String::new()
    };
    let placeholders = if p > 0 {
        format!(", {p} placeholders (nothing to extract) skipped")
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

fn entry(
    a: &dyn Archive,
    i: usize,
    path: &Path,
    dir: &Path,
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
    let json_out = dir.join(format!("{name}.json"));
    let raw_out = dir.join(name);
    // An entry gamewire reads is decoded (in memory first: it is written only when it
    // encodes back to the same bytes).
    let decoded = if archive::entry_format(&bytes, name).is_some() {
        let entry_path = archive::entry_path(Some(path), name);
        match gamewire::open(bytes.to_vec(), Some(&entry_path), side, opts) {
            Ok(opened) => {
                // Encoded back as `gamewire encode` would encode the JSON file.
                let enc = gamewire::open::EncodeOptions {
                    secret: opts.secret.clone(),
                    ..gamewire::open::EncodeOptions::default()
                };
                let c =
                    opened.write_document_checked(!args.compact, &json_out, &bytes, side, &enc)?;
                Some((c.exact, c.text))
            }
            Err(_) => None,
        }
    } else {
        None
    };
    let out = match &decoded {
        Some((true, _)) => &json_out,
        _ => &raw_out,
    };
    if !args.overwrite && std::fs::symlink_metadata(out).is_ok() {
        return Ok(Done::Kept);
    }
    match decoded {
        Some((true, doc)) => {
            crate::io::write_file(out, &doc, args.overwrite)?;
            Ok(Done::Decoded(size))
        }
        Some((false, _)) => {
            crate::io::write_file(out, &bytes, args.overwrite)?;
            Ok(Done::NotExact(size))
        }
        None => {
            crate::io::write_file(out, &bytes, args.overwrite)?;
            Ok(Done::Extracted(size))
        }
    }
}
