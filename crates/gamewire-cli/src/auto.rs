//! `gamewire decode FILE` and `gamewire encode FILE.json` with no format named: the
//! library opens the file ([`gamewire::open`]) and writes it back
//! ([`gamewire::encode_document`]); this module parses the arguments and prints.

use crate::inspect::parse_format;
use crate::CliResult;
use gamewire::open::{EncodeOptions, JsonDocument, OpenError};
use gamewire::{Format, OpenOptions, SideFiles};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode FILE` (no format named).
#[derive(clap::Args, Debug, Default)]
pub struct DecodeArgs {
    /// The file to decode (`-` reads stdin); its format is detected from its content
    /// and name, and its side files are found beside it.
    pub file: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Read the file as this format instead of detecting it.
    #[arg(long = "as", value_name = "FORMAT", value_parser = parse_format)]
    pub as_format: Option<Format>,
    /// The file name to detect by when reading stdin (`x.7zbson`, `BUser.zeze`); side
    /// files are then looked for in the current folder.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Print the JSON document on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// Godot: accept full objects (`bytes_to_var_with_objects`).
    #[arg(long)]
    pub allow_objects: bool,
    /// Godot: the password or key of an encrypted file.
    #[command(flatten)]
    pub secret: crate::secret::SecretArgs,
    /// An archive (a Godot `.pck`, a KingsIsle `.wad`): decode this entry of it
    /// (`project.binary`, `res://save.dat`, `ObjectData/Item.xml`).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// KingsIsle: the type list to read with, instead of the `types.json` found beside
    /// the file (or the archive).
    #[arg(long, value_name = "FILE")]
    pub types: Option<PathBuf>,
}

/// The path a file is read from and named by: `None` for stdin (`-`), or the name
/// `--name` gives it.
fn input_path(file: &Path, name: Option<&str>) -> Option<PathBuf> {
    if file == Path::new("-") {
        name.map(PathBuf::from)
    } else {
        Some(file.to_path_buf())
    }
}

/// Prefixes an open error with the file it is about.
pub fn open_error(shown: &str, e: OpenError) -> crate::CliError {
    format!("{shown}: {e}").into()
}

/// Runs `gamewire decode FILE`.
pub fn decode(args: DecodeArgs) -> CliResult {
    let Some(file) = args.file.clone() else {
        return Err(
            "name a file to decode (its format is detected; `-` reads stdin), or a format: \
             gamewire decode FORMAT [FILE]"
                .into(),
        );
    };
    let data = crate::io::read_input(Some(&file))?;
    let path = input_path(&file, args.name.as_deref());
    let side = SideFiles::filesystem();
    let opts = OpenOptions {
        as_format: args.as_format,
        allow_objects: args.allow_objects,
        secret: args.secret.secret()?,
        types: args.types.clone(),
        ..OpenOptions::default()
    };
    let shown = file.display().to_string();
    let pack = args.as_format.is_none() && gamewire::open::pack::is_pack(&data);
    let archive = args.as_format.is_none() && gamewire::open::archive::is_archive(&data);
    let opened = match &args.entry {
        Some(entry) if pack => {
            let shown = format!("{shown} entry {entry}");
            gamewire::open::pack::open_entry(&data, entry, &SideFiles::none(), &opts)
                .map_err(|e| open_error(&shown, e))?
        }
        Some(entry) if archive => {
            let shown = format!("{shown} entry {entry}");
            gamewire::open::archive::open_entry(&data, path.as_deref(), entry, &side, &opts)
                .map_err(|e| open_error(&shown, e))?
        }
        Some(_) => {
            return Err(format!(
                "{shown}: --entry NAME decodes an entry of an archive, and this is no archive"
            )
            .into())
        }
        None if pack => {
            return Err(format!(
                "{shown}: a Godot pack: name the entry to decode with --entry NAME \
                 (gamewire godot pck list {shown} lists them), or convert it whole with \
                 gamewire convert {shown} --out-dir DIR"
            )
            .into())
        }
        None if archive => {
            return Err(format!(
                "{shown}: an archive: name the entry to decode with --entry NAME (gamewire \
                 inspect {shown} lists them), or convert it whole with gamewire convert \
                 {shown} --out-dir DIR"
            )
            .into())
        }
        None => gamewire::open(data, path.as_deref(), &side, &opts)
            .map_err(|e| open_error(&shown, e))?,
    };
    for n in opened.notes() {
        eprintln!("gamewire: note: {shown}: {n}");
    }
    write_document(&opened, args.output.as_deref(), !args.compact)
        .map_err(|e| format!("{shown}: {e}").into())
}

/// Writes `opened` as a JSON document to `output` (stdout for `None`), side files named
/// relative to the output's folder (the current folder for stdout).
pub fn write_document(opened: &gamewire::Opened, output: Option<&Path>, pretty: bool) -> CliResult {
    let json_dir = output
        .filter(|p| *p != Path::new("-"))
        .map(crate::io::parent_dir);
    let mut out = crate::io::Output::create(output)?;
    opened.write_document(&mut out, pretty, json_dir.as_deref())?;
    out.finish()
}

/// Options of `gamewire encode FILE` (no format named).
#[derive(clap::Args, Debug, Default)]
pub struct EncodeArgs {
    /// JSON written by `gamewire decode FILE` (its `"$gamewire"` header says its format
    /// and how to write it; side files are found relative to its folder); `-` reads stdin.
    pub file: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Read every number as written: do not turn integers back into the floats the
    /// document's `"$floats"` record says they were (JSON tools such as jq 1.6 and
    /// `JSON.stringify` write `1.0` as `1`).
    #[arg(long)]
    pub numbers_as_written: bool,
    /// A key repeated in one JSON object keeps its last value instead of being an error.
    #[arg(long)]
    pub last_key_wins: bool,
    /// Godot: the password or key to encrypt with, when the header names an encrypted
    /// file.
    #[command(flatten)]
    pub secret: crate::secret::SecretArgs,
}

/// Runs `gamewire encode FILE`.
pub fn encode(args: EncodeArgs) -> CliResult {
    let file = args.file.clone().unwrap_or_else(|| PathBuf::from("-"));
    let input = crate::io::read_input(Some(&file))?;
    let doc = gamewire::read_document(&input)?;
    encode_doc(&doc, &file, None, &args)
}

/// Encodes a document read from `file` (`-`: stdin), expecting `format` when given
/// (`encode FORMAT FILE` of a document with a header), and writes the bytes.
pub fn encode_doc(
    doc: &JsonDocument<'_>,
    file: &Path,
    format: Option<Format>,
    args: &EncodeArgs,
) -> CliResult {
    let json_path = (file != Path::new("-")).then_some(file);
    let side = SideFiles::filesystem();
    let opts = EncodeOptions {
        numbers_as_written: args.numbers_as_written,
        last_key_wins: args.last_key_wins,
        expect_format: format,
        output_name: args
            .output
            .as_deref()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned()),
        secret: args.secret.secret()?,
        ..EncodeOptions::default()
    };
    let encoded = gamewire::encode_document(doc, json_path, None, &side, &opts)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    for n in &encoded.notes {
        eprintln!("gamewire: note: {n}");
    }
    crate::io::write_output(args.output.as_deref(), &encoded.bytes)
}
