//! `gamewire godot ...`: Godot-specific tools (resource packs).

use crate::CliResult;
use clap::{Args, Subcommand};
use gamewire::godot::pck::{unsafe_path_reason, Pack, PackReader};
use std::path::{Path, PathBuf};

/// Godot-specific tools.
#[derive(Subcommand)]
pub enum GodotCmd {
    /// Resource packs (.pck, magic GDPC): list, unpack, pack.
    #[command(subcommand)]
    Pck(PckCmd),
}

/// `gamewire godot pck ...`.
#[derive(Subcommand)]
pub enum PckCmd {
    /// List a pack's header and entries (size, MD5, flags, path, and the format
    /// gamewire reads each entry as).
    List(ListArgs),
    /// Extract every entry into a folder, each MD5 checked first; nothing is written
    /// when an entry is damaged, encrypted or its path leaves the folder.
    Unpack(UnpackArgs),
    /// Make a pack of a folder's files.
    Pack(PackArgs),
}

/// `pck list`.
#[derive(Args)]
pub struct ListArgs {
    /// The pack (or an executable with a pack at its end).
    pub pack: PathBuf,
}

/// `pck unpack`.
#[derive(Args)]
pub struct UnpackArgs {
    /// The pack (or an executable with a pack at its end).
    pub pack: PathBuf,
    /// The folder to extract into (created; it must be new or empty).
    /// Default: the pack's name without its extension.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// `pck pack`.
#[derive(Args)]
pub struct PackArgs {
    /// The folder whose files go into the pack (their paths relative to it).
    pub dir: PathBuf,
    /// The pack to write (atomically; an existing file is replaced).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Pack format: 1 (Godot 3), 2 (4.0 to 4.4), 3 (4.5, 4.6), 4 (4.7 on).
    #[arg(long, default_value_t = 3)]
    pub format: u32,
    /// Engine version stamped in the header (X.Y.Z); engines refuse packs newer than
    /// themselves. Default: the last release line writing the format (3.6.0, 4.4.0,
    /// 4.6.0, 4.7.0).
    #[arg(long, value_name = "X.Y.Z")]
    pub engine_version: Option<String>,
}

/// Runs `gamewire godot ...`.
pub fn tool(cmd: GodotCmd) -> CliResult {
    match cmd {
        GodotCmd::Pck(PckCmd::List(a)) => list(a),
        GodotCmd::Pck(PckCmd::Unpack(a)) => unpack(a),
        GodotCmd::Pck(PckCmd::Pack(a)) => pack(a),
    }
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

fn list(a: ListArgs) -> CliResult {
    let data = crate::io::read_input(Some(&a.pack))?;
    let l = gamewire::open::pack::list(&data).map_err(|e| format!("{}: {e}", shown(&a.pack)))?;
    let i = &l.info;
    let mut out = format!(
        "{}: Godot pack format {}, engine {}.{}.{}, flags {:#x}, {} entries{}\n",
        shown(&a.pack),
        i.format,
        i.version.0,
        i.version.1,
        i.version.2,
        i.flags,
        l.entries.len(),
        if i.embedded {
            format!(", embedded at byte {}", i.start)
        } else {
            String::new()
        }
    );
    for e in &l.entries {
        let md5 = if e.entry.has_md5() {
            e.entry.md5_hex()
        } else {
            "-".repeat(32)
        };
        let mut what = e.format.clone().unwrap_or_else(|| "bytes".into());
        if let Some(err) = &e.error {
            what = format!("unreadable: {err}");
        }
        out += &format!(
            "{:>10}  {md5}  {:#x}  {}  [{what}]\n",
            e.entry.size, e.entry.flags, e.entry.path
        );
    }
    crate::io::write_output(None, out.as_bytes())
}

fn unpack(a: UnpackArgs) -> CliResult {
    let data = crate::io::read_input(Some(&a.pack))?;
    let at = |e: gamewire::Error| format!("{}: {e}", shown(&a.pack));
    let pack = PackReader::parse(&data).map_err(at)?;
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| a.pack.with_extension(""));
    if dir == a.pack {
        return Err(format!("{}: name the output folder with -o", shown(&a.pack)).into());
    }
    // Everything is checked before anything is written.
    let mut files = Vec::new();
    for e in pack.entries() {
        if e.removal() {
            continue;
        }
        if let Some(why) = unsafe_path_reason(e.name()) {
            return Err(format!(
                "{}: entry {:?} is not extracted: {why}",
                shown(&a.pack),
                e.path
            )
            .into());
        }
        let bytes = pack.read_checked(e).map_err(at)?;
        let target = dir.join(e.name());
        if files.iter().any(|(t, _)| t == &target) {
            return Err(format!("{}: entry {:?} is listed twice", shown(&a.pack), e.path).into());
        }
        files.push((target, bytes));
    }
    // A fresh or empty folder: every folder below it is made here, so no link left
    // in it can lead a file elsewhere, and no file is replaced.
    if let Ok(mut it) = std::fs::read_dir(&dir) {
        if it.next().is_some() {
            return Err(format!(
                "{} exists and is not empty: unpack into a new folder (-o DIR)",
                dir.display()
            )
            .into());
        }
    } else if std::fs::symlink_metadata(&dir).is_ok() {
        return Err(format!("{} exists and is not a folder", dir.display()).into());
    }
    for (target, bytes) in &files {
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        crate::io::write_file(target, bytes, false)?;
    }
    eprintln!(
        "gamewire: {} entries of {} extracted to {}",
        files.len(),
        shown(&a.pack),
        dir.display()
    );
    Ok(())
}

fn parse_version(text: &str) -> CliResult<(u32, u32, u32)> {
    let parts: Vec<&str> = text.split('.').collect();
    let num = |s: &str| s.parse::<u32>().ok();
    match parts.as_slice() {
        [a, b, c] => {
            if let (Some(a), Some(b), Some(c)) = (num(a), num(b), num(c)) {
                return Ok((a, b, c));
            }
        }
        [a, b] => {
            if let (Some(a), Some(b)) = (num(a), num(b)) {
                return Ok((a, b, 0));
            }
        }
        _ => {}
    }
    Err(format!("--engine-version {text:?} is not X.Y.Z (say 4.5.1)").into())
}

/// The regular files under `dir`, sorted by their relative paths (with `/`).
fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) -> CliResult {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    names.sort_by_key(|e| e.file_name());
    for e in names {
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            return Err(format!("{}: the name is not UTF-8", e.path().display()).into());
        };
        let path = if rel.is_empty() {
            name.to_owned()
        } else {
            format!("{rel}/{name}")
        };
        let ty = e
            .file_type()
            .map_err(|err| format!("{}: {err}", e.path().display()))?;
        if ty.is_dir() {
            walk(&e.path(), &path, out)?;
        } else if ty.is_file() {
            out.push((path, e.path()));
        } else {
            return Err(format!(
                "{}: not a regular file (a link?): not packed",
                e.path().display()
            )
            .into());
        }
    }
    Ok(())
}

fn pack(a: PackArgs) -> CliResult {
    let version = match &a.engine_version {
        Some(v) => parse_version(v)?,
        None => Pack::default_version(a.format),
    };
    let mut pack = Pack::with_format(a.format, version)?;
    let mut files = Vec::new();
    walk(&a.dir, "", &mut files)?;
    for (rel, path) in files {
        let data =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        pack.add_file(&rel, data)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let n = pack.paths().count();
    crate::io::write_file(&a.output, &pack.to_bytes(), true)?;
    eprintln!(
        "gamewire: {n} files packed into {} (format {}, engine {}.{}.{})",
        a.output.display(),
        a.format,
        version.0,
        version.1,
        version.2
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse() {
        assert_eq!(parse_version("4.5.1").unwrap(), (4, 5, 1));
        assert_eq!(parse_version("3.2").unwrap(), (3, 2, 0));
        assert!(parse_version("4.x").is_err());
    }
}
