//! `gamewire kingsisle wad ...`: KingsIsle `KIWAD` archives listed, unpacked and packed.

use crate::CliResult;
use clap::{Args, Subcommand};
use gamewire::kingsisle::wad::{self, Archive, Builder, Contents, Mapped, Prepared};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// KingsIsle-specific tools.
#[derive(Subcommand)]
pub enum KingsisleCmd {
    /// KIWAD archives (Wizard101's and Pirate101's .wad): list, unpack, pack.
    #[command(subcommand)]
    Wad(WadCmd),
}

/// `gamewire kingsisle wad ...`.
#[derive(Subcommand)]
pub enum WadCmd {
    /// List the entries, one a line: size, stored size, zlib or stored, CRC, name.
    List(ListArgs),
    /// Extract entries into a folder (all, or those matching the patterns), each CRC
    /// checked and inflated; nothing is written when a name would leave the folder.
    Unpack(UnpackArgs),
    /// Make an archive of a folder's files (sorted by name; zlib-compressed except
    /// .mp3 and .ogg, as the game's tools do).
    Pack(PackArgs),
}

/// `wad list`.
#[derive(Args)]
pub struct ListArgs {
    /// The archive.
    pub archive: PathBuf,
    /// One JSON object a line (JSON Lines): name, offset, size, compressed_size,
    /// compressed, crc.
    #[arg(long)]
    pub json: bool,
}

/// `wad unpack`.
#[derive(Args)]
pub struct UnpackArgs {
    /// The archive.
    pub archive: PathBuf,
    /// Only entries matching these patterns (`*` within a folder, `**` across folders,
    /// `?` one character): `ObjectData/**/*.xml`.
    pub patterns: Vec<String>,
    /// The folder to extract into (created; it must be new or empty). Default: the
    /// archive's name without its extension.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Entries extracted at once (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
}

/// `wad pack`.
#[derive(Args)]
pub struct PackArgs {
    /// The folder whose files go into the archive (their paths relative to it).
    pub dir: PathBuf,
    /// The archive to write (atomically; an existing file is replaced).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The archive version: 1, or 2 (with a flags byte).
    #[arg(long, default_value_t = 2)]
    pub wad_version: u32,
    /// The flags byte of a version 2 archive (the tools write 1).
    #[arg(long)]
    pub flags: Option<u8>,
    /// zlib level, 0 to 9 (the game's archives use 9).
    #[arg(long, default_value_t = 9)]
    pub level: u32,
}

/// Runs `gamewire kingsisle ...`.
pub fn tool(cmd: KingsisleCmd) -> CliResult {
    match cmd {
        KingsisleCmd::Wad(WadCmd::List(a)) => list(a),
        KingsisleCmd::Wad(WadCmd::Unpack(a)) => unpack(a),
        KingsisleCmd::Wad(WadCmd::Pack(a)) => pack(a),
    }
}

fn open(path: &Path) -> CliResult<Archive<Mapped>> {
    let shown = path.display();
    let map = Mapped::open(path).map_err(|e| format!("{shown}: {e}"))?;
    Ok(Archive::new(map).map_err(|e| format!("{shown}: {e}"))?)
}

fn list(a: ListArgs) -> CliResult {
    let archive = open(&a.archive)?;
    let mut out = String::with_capacity(archive.len() * 64);
    for e in archive.entries() {
        if a.json {
            let line = serde_json::json!({
                "name": e.name,
                "offset": e.offset,
                "size": e.size,
                "compressed_size": e.compressed_size,
                "compressed": e.compressed,
                "crc": e.crc,
            });
            out += &line.to_string();
            out.push('\n');
        } else {
            let how = if e.compressed { "zlib  " } else { "stored" };
            out += &format!(
                "{:>10} {:>10} {how} {:08x} {}\n",
                e.size,
                e.stored_size(),
                e.crc,
                e.name
            );
        }
    }
    crate::io::write_output(None, out.as_bytes())
}

fn unpack(a: UnpackArgs) -> CliResult {
    let shown = a.archive.display().to_string();
    let archive = open(&a.archive)?;
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| a.archive.with_extension(""));
    if dir == a.archive {
        return Err(format!("{shown}: name the output folder with -o").into());
    }
    let chosen: Vec<usize> = (0..archive.len())
        .filter(|&i| {
            let name = archive.entry(i).expect("in range").name;
            a.patterns.is_empty() || a.patterns.iter().any(|p| wad::glob_match(p, name))
        })
        .collect();
    // Every name is checked before anything is written.
    let mut names: Vec<&str> = Vec::with_capacity(chosen.len());
    for &i in &chosen {
        let name = archive.entry(i).expect("in range").name;
        wad::check_name(name).map_err(|e| format!("{shown}: {e}; nothing was extracted"))?;
        names.push(name);
    }
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "{shown}: entry {:?} is listed twice; nothing was extracted",
            w[0]
        )
        .into());
    }
    // A fresh or empty folder: every folder below it is made here, so no link left in it
    // can lead a file elsewhere, and no file is replaced.
    if let Ok(mut it) = std::fs::read_dir(&dir) {
        if it.next().is_some() {
            return Err(format!(
                "{}: the folder is not empty; unpack into a new or empty folder",
                dir.display()
            )
            .into());
        }
    }
    let fresh = !dir.exists();
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot make folder {}: {e}", dir.display()))?;
    // Every folder the entries need, made once before any file (a parent sorts before
    // its children), so writing a file is one open, one write of its exact size, and a
    // close.
    if let Err(e) = make_entry_folders(&dir, &names) {
        return Err(undo_unpack(&dir, fresh, e).into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let placeholders = std::sync::atomic::AtomicUsize::new(0);
    // Entries are inflated and written on every worker at once: one worker's inflating
    // overlaps another's writing.
    let result: Result<(), String> = pool.install(|| {
        chosen.par_iter().with_min_len(16).try_for_each(|&i| {
            let e = archive.entry(i).expect("in range");
            let data = match archive.read(&e).map_err(|err| format!("{shown}: {err}"))? {
                Contents::Data(d) => d,
                Contents::Placeholder => {
                    placeholders.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return Ok(());
                }
            };
            write_new(&dir.join(e.name), &data)
        })
    });
    if let Err(e) = result {
        return Err(undo_unpack(&dir, fresh, e).into());
    }
    let ph = placeholders.into_inner();
    eprintln!(
        "gamewire: {shown}: {} entries extracted into {}{}",
        chosen.len() - ph,
        dir.display(),
        if ph > 0 {
            format!(" ({ph} placeholders hold nothing and were skipped)")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Removes what a failed unpack made in `dir` (new when `fresh`, else empty before it
/// began: everything in it was made by the unpack), so that no half-extracted archive is
/// left; gives the error to report.
fn undo_unpack(dir: &Path, fresh: bool, error: String) -> String {
    let removed = if fresh {
        std::fs::remove_dir_all(dir)
    } else {
        std::fs::read_dir(dir).and_then(|items| {
            items.into_iter().try_for_each(|item| {
                let p = item?.path();
                match std::fs::symlink_metadata(&p)?.is_dir() {
                    true => std::fs::remove_dir_all(&p),
                    false => std::fs::remove_file(&p),
                }
            })
        })
    };
    match removed {
        Ok(()) => format!("{error}; nothing was extracted"),
        Err(e) => format!(
            "{error}; the entries extracted before it could not all be removed from {}: {e}",
            dir.display()
        ),
    }
}

/// Makes every folder that the entry `names` (checked, sorted) lie in under `dir`, each
/// once, parents first. A folder that is already there (another entry's, or made by
/// someone else meanwhile) must be a folder and not a link.
fn make_entry_folders(dir: &Path, names: &[&str]) -> Result<(), String> {
    let mut folders: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for name in names {
        let mut end = 0;
        while let Some(k) = name[end..].find('/') {
            end += k;
            folders.insert(&name[..end]);
            end += 1;
        }
    }
    for f in folders {
        let path = dir.join(f);
        match std::fs::create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                crate::convert::make_folders(dir, Path::new(f)).map_err(|e| e.to_string())?;
            }
            Err(e) => return Err(format!("cannot make folder {}: {e}", path.display())),
        }
    }
    Ok(())
}

/// Writes a new file (never an existing one or through a link): one open with
/// `O_CREAT|O_EXCL`, one write of the whole data, no flush or sync.
fn write_new(path: &Path, data: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    f.write_all(data)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The regular files under `dir`, as `/`-separated names relative to it, sorted.
fn walk(dir: &Path) -> CliResult<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for item in rd {
            let item = item.map_err(|e| format!("cannot read {}: {e}", d.display()))?;
            let p = item.path();
            let t = item
                .file_type()
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() {
                let rel = p.strip_prefix(dir).expect("below dir");
                let name = rel
                    .to_str()
                    .ok_or_else(|| format!("{}: the name is not UTF-8", p.display()))?
                    .replace(std::path::MAIN_SEPARATOR, "/");
                out.push((name, p));
            } else {
                eprintln!(
                    "gamewire: note: {} is not a regular file or folder: left out",
                    p.display()
                );
            }
        }
    }
    out.sort();
    Ok(out)
}

fn pack(a: PackArgs) -> CliResult {
    let files = walk(&a.dir)?;
    let mut b = Builder::new(a.wad_version, a.flags)?;
    let prepared: Vec<Result<Prepared, String>> = files
        .par_iter()
        .map(|(name, path)| {
            let data =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Prepared::packed(name, data, a.level).map_err(|e| e.to_string())
        })
        .collect();
    for p in prepared {
        b.add(p?)?;
    }
    let n = b.len();
    let mut out = crate::io::Output::create_file(&a.output, true)?;
    b.write_to(&mut out)?;
    out.finish()?;
    eprintln!(
        "gamewire: {}: {n} entries packed from {}",
        a.output.display(),
        a.dir.display()
    );
    Ok(())
}
