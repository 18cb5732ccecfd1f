//! `gamewire decode FILE` with no format: detect the format, find the side files the
//! format needs, and run that format's decoder with the options the file calls for.

use crate::inspect::parse_format;
use crate::CliResult;
use gamewire::{Detection, Evidence, Format, Found, Layout};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Options of `gamewire decode FILE` (no format named).
#[derive(clap::Args, Debug, Default)]
pub struct DecodeArgs {
    /// The file to decode; its format is detected from its content and name.
    pub file: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Read the file as this format instead of detecting it.
    #[arg(long = "as", value_name = "FORMAT", value_parser = parse_format)]
    pub as_format: Option<Format>,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
}

/// The side file a format reads beside its data: in the file's folder, then in each
/// parent folder in turn. The first of `names` found in the nearest folder wins.
pub fn find_side_file(path: &Path, names: &[String]) -> Option<PathBuf> {
    let start = path.parent().filter(|p| !p.as_os_str().is_empty());
    let start = start
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let start = std::fs::canonicalize(&start).unwrap_or(start);
    start
        .ancestors()
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// The arguments the format's own subcommand takes for this file, side files included.
fn format_args(path: &Path, found: &Found, data: &[u8]) -> CliResult<Vec<OsString>> {
    let mut args: Vec<OsString> = vec![found.format.name().into()];
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.split('.').next().unwrap_or("").to_owned();
    match found.format {
        Format::Godot3 | Format::Godot4 => {
            let framed = match found.layout {
                Layout::GodotFramed => true,
                Layout::GodotBare => false,
                // Named, not probed: the layout that decodes (bare first).
                _ => godot_framed(found.format, data),
            };
            if framed {
                args.push("--framed".into());
            }
        }
        Format::KingsIsle => {
            let types = crate::kingsisle::find_types(path).ok_or_else(|| {
                format!(
                    "{}: a KingsIsle file needs its type list: put {stem}.types.json or \
                     types.json beside it (or in a parent folder), or run \
                     `gamewire decode kingsisle -t TYPES FILE`",
                    path.display()
                )
            })?;
            args.push("-t".into());
            args.push(types.into());
        }
        Format::Zeze => {
            let names = ["zeze-solution.xml".to_owned(), "solution.xml".to_owned()];
            let frames = found.layout == Layout::ZezeFrames || name.ends_with(".frames.zeze");
            if frames {
                args.push("--frames".into());
            }
            if let Some(solution) = find_side_file(path, &names) {
                // A bean file holds the bean its name names (`BUser.zeze`); frames are
                // typed by the whole solution.
                let bean = if frames {
                    None
                } else {
                    crate::zeze::bean_for_file(&crate::zeze::read_solution(&solution)?, &name)
                };
                if frames || bean.is_some() {
                    args.push("--schema".into());
                    args.push(solution.into());
                }
                if let Some(bean) = bean {
                    args.push("--bean".into());
                    args.push(bean.into());
                }
            }
        }
        Format::Resonite | Format::O3de => {}
    }
    Ok(args)
}

/// For a Godot file recognised by name: true when it reads as `store_var` frames and
/// not as one bare value.
fn godot_framed(format: Format, data: &[u8]) -> bool {
    use gamewire::godot::{decode, framing, DecodeOptions, Version};
    let v = if format == Format::Godot3 {
        Version::V3
    } else {
        Version::V4
    };
    let opts = DecodeOptions::new(v);
    decode(data, &opts).is_err() && framing::decode_framed_all(data, &opts).is_ok()
}

/// Runs `gamewire decode FILE`.
pub fn decode(args: DecodeArgs) -> CliResult {
    let Some(path) = args.file.clone() else {
        return Err(
            "name a file to decode (its format is detected), or a format: \
             gamewire decode FORMAT [FILE]"
                .into(),
        );
    };
    let data = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let found = match args.as_format {
        Some(f) => Found::new(f, Evidence::Given),
        None => match gamewire::identify(&data, name.as_deref()) {
            Detection::Found(found) => found,
            Detection::Ambiguous(fits) => {
                let names: Vec<String> = fits.iter().map(Found::describe).collect();
                return Err(format!(
                    "{}: the bytes read equally as {}; choose with --as FORMAT",
                    path.display(),
                    names.join(" or ")
                )
                .into());
            }
            Detection::Json => {
                return Err(format!(
                    "{} is JSON text, not an engine file: encode it with \
                     `gamewire encode FORMAT {}`",
                    path.display(),
                    path.display()
                )
                .into())
            }
            Detection::Unknown => {
                return Err(format!(
                    "{}: no format recognised; name one with --as FORMAT or \
                     `gamewire decode FORMAT FILE`",
                    path.display()
                )
                .into())
            }
        },
    };
    let mut argv: Vec<OsString> = vec!["gamewire".into(), "decode".into()];
    argv.extend(format_args(&path, &found, &data)?);
    drop(data);
    argv.push(path.into());
    if let Some(out) = args.output {
        argv.push("-o".into());
        argv.push(out.into());
    }
    if args.compact {
        argv.push("--compact".into());
    }
    crate::run_argv(argv)
}
