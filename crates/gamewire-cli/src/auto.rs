//! `gamewire decode FILE` with no format: detect the format, find the side files the
//! format needs, and run that format's decoder with the options the file calls for.

use crate::inspect::parse_format;
use crate::CliResult;
use gamewire::{Detection, Evidence, Format, Found, Layout};
use std::ffi::OsString;
use std::io::Write;
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

/// The arguments the format's own `decode` subcommand takes for this file, side files
/// included, and the options its `encode` needs to write the same bytes again.
fn format_args(path: &Path, found: &Found, data: &[u8]) -> CliResult<(Vec<OsString>, Vec<String>)> {
    let mut args: Vec<OsString> = vec![found.format.name().into()];
    let mut again: Vec<String> = Vec::new();
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
                args.push("--array".into());
                again.extend(["--framed".into(), "--array".into()]);
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
            again.extend(["-t".into(), types.display().to_string()]);
            args.push("-t".into());
            args.push(types.into());
        }
        Format::Zeze => {
            let names = ["zeze-solution.xml".to_owned(), "solution.xml".to_owned()];
            let frames = found.layout == Layout::ZezeFrames || name.ends_with(".frames.zeze");
            if frames {
                args.push("--frames".into());
                args.push("--array".into());
                again.extend(["--frames".into(), "--array".into()]);
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
                    again.extend(["--schema".into(), solution.display().to_string()]);
                    args.push("--schema".into());
                    args.push(solution.into());
                }
                if let Some(bean) = bean {
                    again.extend(["--bean".into(), bean.clone()]);
                    args.push("--bean".into());
                    args.push(bean.into());
                }
            }
        }
        Format::Resonite => {
            use gamewire::resonite::container;
            let c = match container::read_header(data)? {
                Some(h) => container::Container {
                    compression: h.compression,
                    framing: container::Framing::FrDT { version: h.version },
                },
                None => {
                    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                    let opts = gamewire::resonite::Options::default();
                    container::unpack(data, name.as_deref(), &opts)?.0
                }
            };
            again.extend(["--compression".into(), c.compression.name().into()]);
            if c.framing == container::Framing::Legacy {
                again.push("--legacy".into());
            }
        }
        Format::O3de => {}
    }
    Ok((args, again))
}

/// For a Godot file (of `format`, Godot 3 or 4): true when it reads as `store_var` frames
/// and not as one bare value.
pub(crate) fn godot_framed(format: Format, data: &[u8]) -> bool {
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
    decode_data(args, path, data)
}

/// [`decode`] of the file at `path`, already read as `data`.
pub fn decode_data(args: DecodeArgs, path: PathBuf, data: Vec<u8>) -> CliResult {
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
    let (decode_args, encode_args) = format_args(&path, &found, &data)?;
    // The format's decoder is handed the bytes already read and writes to memory; its
    // JSON goes under "data", after a header saying how to write the file again.
    let capture = PathBuf::from(format!("<memory:{}>", path.display()));
    let mut argv: Vec<OsString> = vec!["gamewire".into(), "decode".into()];
    argv.extend(decode_args);
    argv.push(path.clone().into());
    argv.push("-o".into());
    argv.push(capture.clone().into());
    if args.compact {
        argv.push("--compact".into());
    }
    let header = serde_json::json!({
        "format": found.format.name(),
        "encode": encode_args,
    });
    let head = format!("{{\"$gamewire\": {header},\n\"data\": ").into_bytes();
    let out = Wrapped {
        out: crate::io::Output::create(args.output.as_deref())?,
        head: Some(head),
        blanks: Vec::new(),
    };
    let (res, mut out) = crate::io::relayed(&path, data, &capture, out, || crate::run_argv(argv));
    res?;
    if let Some(head) = out.head.take() {
        out.out.write_all(&head)?;
    }
    out.out.write_all(b"}\n")?;
    out.out.finish()
}

/// The JSON of `decode FILE` on its way out: the header goes first, with the first byte
/// of the format's JSON (so a decoder that fails before writing leaves nothing written),
/// and white space at the end of the format's JSON is held back, so that the closing
/// brace follows its last value. Nothing is collected whole.
struct Wrapped {
    out: crate::io::Output,
    head: Option<Vec<u8>>,
    blanks: Vec<u8>,
}

impl Write for Wrapped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match buf.iter().rposition(|b| !b.is_ascii_whitespace()) {
            None => self.blanks.extend_from_slice(buf),
            Some(last) => {
                if let Some(head) = self.head.take() {
                    self.out.write_all(&head)?;
                }
                self.out.write_all(&self.blanks)?;
                self.blanks.clear();
                self.out.write_all(&buf[..=last])?;
                self.blanks.extend_from_slice(&buf[last + 1..]);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Options of `gamewire encode FILE` (no format named).
#[derive(clap::Args, Debug, Default)]
pub struct EncodeArgs {
    /// JSON written by `gamewire decode FILE` (it says its format and how to write it).
    pub file: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Splits JSON written by [`decode`] into its header and the exact text of its data.
pub fn split_document(text: &[u8]) -> CliResult<(serde_json::Value, Vec<u8>)> {
    let j: serde_json::Value = crate::io::parse_json(text, false)?;
    let header = j
        .get("$gamewire")
        .cloned()
        .ok_or("this JSON does not say which engine format it is for (no \"$gamewire\" header, as `gamewire decode FILE` writes): name the format, `gamewire encode FORMAT FILE`")?;
    // The data's own text when the layout is as written (exact numbers and order), else
    // the data as parsed.
    let marker = b"\n\"data\": ";
    let exact = text
        .windows(marker.len())
        .position(|w| w == marker)
        .and_then(|at| {
            let rest = &text[at + marker.len()..];
            let end = rest.trim_ascii_end().strip_suffix(b"}")?;
            Some(end.to_vec())
        });
    let data = match exact {
        Some(d) => d,
        None => serde_json::to_vec(j.get("data").ok_or("the \"data\" member is missing")?)?,
    };
    Ok((header, data))
}

/// Runs `gamewire encode FILE`: the format and options come from the JSON's header.
pub fn encode(args: EncodeArgs) -> CliResult {
    let input = crate::io::read_input(args.file.as_deref())?;
    let (header, data) = split_document(&input)?;
    let format = header
        .get("format")
        .and_then(|f| f.as_str())
        .and_then(Format::from_name)
        .ok_or("the \"$gamewire\" header names no format gamewire knows")?;
    let options: Vec<String> = header
        .get("encode")
        .and_then(|o| o.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    // The output's extension may choose (Resonite compression): an explicit header
    // option and the extension must agree, which the format's encoder checks.
    let tmp = tempfile::NamedTempFile::new().map_err(|e| format!("temporary file: {e}"))?;
    std::fs::write(tmp.path(), &data).map_err(|e| format!("temporary file: {e}"))?;
    let mut argv: Vec<OsString> = vec!["gamewire".into(), "encode".into(), format.name().into()];
    argv.extend(options.into_iter().map(OsString::from));
    argv.push(tmp.path().into());
    if let Some(out) = args.output {
        argv.push("-o".into());
        argv.push(out.into());
    }
    crate::run_argv(argv)
}
