//! `gamewire convert PACK [--out-dir DIR]`: a Godot pack's entries, each decoded to
//! JSON where gamewire reads its format (`NAME.json`, which `encode` writes back to the
//! entry's bytes) and extracted as it is otherwise.

use crate::convert::ConvertArgs;
use crate::CliResult;
use gamewire::godot::pck::{unsafe_path_reason, PackReader};
use gamewire::{OpenOptions, SideFiles};
use std::path::{Path, PathBuf};

/// True when the file at `path` starts with the pack magic.
pub fn is_pack_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == gamewire::godot::pck::MAGIC
}

/// Converts the pack at `path`: every entry checked (MD5, path) before anything is
/// written; existing outputs are kept unless `--overwrite`.
pub fn run(path: &Path, args: &ConvertArgs) -> CliResult {
    let data = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let shown = path.display().to_string();
    let pack = PackReader::parse(&data).map_err(|e| format!("{shown}: {e}"))?;
    let dir = args
        .out_dir
        .clone()
        .unwrap_or_else(|| path.with_extension(""));
    let opts = OpenOptions {
        as_format: args.as_format,
        ..OpenOptions::default()
    };
    // Plan: (output path, JSON document or raw bytes).
    let mut outputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut decoded = 0;
    for e in pack.entries() {
        if e.removal() {
            continue;
        }
        if let Some(why) = unsafe_path_reason(e.name()) {
            return Err(format!("{shown}: entry {:?} is not written: {why}", e.path).into());
        }
        let bytes = pack
            .read_checked(e)
            .map_err(|err| format!("{shown}: {err}"))?;
        let target = dir.join(e.name());
        let file = Path::new(e.name());
        match gamewire::open(bytes.to_vec(), Some(file), &SideFiles::none(), &opts) {
            Ok(opened) => {
                let mut json = Vec::new();
                let json_path = PathBuf::from(format!("{}.json", target.display()));
                let json_dir = crate::io::parent_dir(&json_path);
                opened
                    .write_document(&mut json, !args.compact, Some(&json_dir))
                    .map_err(|err| format!("{shown}: entry {:?}: {err}", e.path))?;
                outputs.push((json_path, json));
                decoded += 1;
            }
            Err(_) => outputs.push((target, bytes.to_vec())),
        }
    }
    let mut written = 0;
    let mut kept = 0;
    for (out, bytes) in &outputs {
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make folder {}: {e}", parent.display()))?;
        }
        if !args.overwrite && std::fs::symlink_metadata(out).is_ok() {
            kept += 1;
            continue;
        }
        crate::io::write_file(out, bytes, args.overwrite)?;
        written += 1;
    }
    if !args.quiet {
        eprintln!(
            "gamewire: {shown}: {} entries: {decoded} decoded to JSON, {} extracted as they are, into {}{}",
            outputs.len(),
            outputs.len() - decoded,
            dir.display(),
            if kept > 0 {
                format!(" ({kept} existing outputs kept; --overwrite replaces them; {written} written)")
            } else {
                String::new()
            }
        );
    }
    Ok(())
}
