//! The one way every front end opens a file and writes it back.
//!
//! ```text
//! bytes + name + SideFiles --open--> Opened { format, settings, JSON, inspect tree }
//! JSON document ($gamewire header = Settings) + SideFiles --encode_document--> bytes
//! ```
//!
//! [`open`] detects the format (or takes the one given), finds and parses the side files
//! the format needs through a [`SideFiles`] resolver (once per run, however many files
//! share them), and works out the [`Settings`] that write the file again as it was:
//! Godot version and framing, KingsIsle file kind and type list, Zeze bean or frames and
//! solution, Resonite container and compression, O3DE layout and registry. The
//! [`Opened`] file writes its lossless JSON (streamed), a whole document with the
//! `"$gamewire"` header ([`Opened::write_document`]) and its inspect tree.
//!
//! [`read_document`] splits a JSON document into its header and the exact text of its
//! data, and [`encode_document`] writes the engine bytes again, with side files found
//! relative to the JSON's folder and checked by content hash, and floats that other JSON
//! tools wrote as integers restored ([`numbers`]). A front end (the CLI, Python, the web
//! page) parses its arguments, calls these, and renders: it holds no format rule.

pub mod archive;
pub mod archive_edit;
pub mod browse;
mod formats;
pub mod numbers;
pub mod settings;
pub mod side;
pub mod spans;
pub mod splice;
pub mod types;
mod value;

#[cfg(feature = "o3de")]
pub use formats::o3de::o3de_registry;
pub use numbers::FloatRecord;
pub use settings::*;
pub use side::{FileSystem, Memory, SideFiles, SideSource};
pub use value::Value;

use crate::{Detection, Evidence, Format, Found};
use gamewire_core::inspect::{Node, TreeBuilder};
use gamewire_core::{Error, Limits, Result};
use std::borrow::Cow;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How [`open`] reads a file.
#[derive(Debug, Clone)]
pub struct OpenOptions {
    /// Read the file as this format instead of detecting it.
    pub as_format: Option<Format>,
    /// Depth and decompression limits.
    pub limits: Limits,
    /// Godot: accept full objects (`bytes_to_var_with_objects`).
    pub allow_objects: bool,
    /// KingsIsle: write enums as numbers even where the type list names them.
    pub enum_numbers: bool,
    /// Godot: the password or key of an encrypted file (`GDEC`).
    pub secret: Option<Secret>,
    /// KingsIsle: read with the type list at this path instead of looking for one
    /// beside the file (`types.json`, `NAME.types.json`).
    pub types: Option<PathBuf>,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            as_format: None,
            limits: Limits::DEFAULT,
            allow_objects: false,
            enum_numbers: false,
            secret: None,
            types: None,
        }
    }
}

/// The secret of an encrypted Godot file: the password given to
/// `open_encrypted_with_pass`, or the 32-byte key given to `open_encrypted`.
#[derive(Clone, PartialEq, Eq)]
pub enum Secret {
    /// A password (the engine's key is the ASCII of its MD5 in hex).
    Password(String),
    /// A 32-byte key.
    Key(Vec<u8>),
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never printed.
        f.write_str(match self {
            Secret::Password(_) => "Password(..)",
            Secret::Key(_) => "Key(..)",
        })
    }
}

impl Secret {
    /// A key written as 64 hex digits.
    pub fn key_hex(hex: &str) -> Result<Secret> {
        let bytes = gamewire_core::hex::from_hex(hex.trim())
            .map_err(|e| Error::msg(format!("the key is not hex: {e}")))?;
        if bytes.len() != 32 {
            return Err(Error::msg(format!(
                "an encryption key is 32 bytes (64 hex digits), not {}",
                bytes.len()
            )));
        }
        Ok(Secret::Key(bytes))
    }

    /// The secret scripts give in the environment: `GAMEWIRE_GODOT_PASSWORD` or
    /// `GAMEWIRE_GODOT_KEY` (64 hex digits); `None` when neither is set.
    pub fn from_env() -> Result<Option<Secret>> {
        if let Some(k) = std::env::var_os("GAMEWIRE_GODOT_KEY") {
            let k = k.to_string_lossy();
            return Secret::key_hex(&k)
                .map(Some)
                .map_err(|e| Error::msg(format!("GAMEWIRE_GODOT_KEY: {e}")));
        }
        Ok(std::env::var("GAMEWIRE_GODOT_PASSWORD")
            .ok()
            .map(Secret::Password))
    }
}

/// Why a file did not open.
#[derive(Debug)]
pub enum OpenError {
    /// The file is JSON text, not an engine file (gamewire's JSON is encoded, not
    /// decoded). `settings` holds the format a `"$gamewire"` header names.
    Json {
        /// The format its header names, when it has one.
        format: Option<Format>,
    },
    /// A side file (type list, solution, registry), read for the files beside it.
    SideFile(&'static str),
    /// The bytes read equally as several formats or layouts: name one.
    Ambiguous(Vec<Found>),
    /// No format fits. When the bytes start like one format but fail further on (a
    /// truncated or damaged file), that format and its error.
    Unknown(Option<Box<(Found, Error)>>),
    /// The format is known, and reading failed (or a side file is missing).
    Failed {
        /// What the file was taken for.
        found: Option<Found>,
        /// The error.
        error: Error,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Json { format: Some(fmt) } => write!(
                f,
                "gamewire JSON of a {fmt} file, not an engine file: encode it back with \
                 `gamewire encode FILE`"
            ),
            OpenError::Json { format: None } => f.write_str(
                "JSON text, not an engine file: encode it with `gamewire encode FORMAT FILE`",
            ),
            OpenError::SideFile(what) => write!(f, "a {what}, read for the files beside it"),
            OpenError::Ambiguous(fits) => {
                let names: Vec<String> = fits.iter().map(Found::describe).collect();
                write!(
                    f,
                    "the bytes read equally as {}; choose with --as FORMAT",
                    names.join(" or ")
                )
            }
            OpenError::Unknown(None) => f.write_str(
                "no format recognised; name one with --as FORMAT or `gamewire decode FORMAT FILE`",
            ),
            OpenError::Unknown(Some(b)) => write!(
                f,
                "no format reads the whole file; it starts like {}, which fails: {}",
                b.0.describe(),
                b.1
            ),
            OpenError::Failed { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for OpenError {}

impl OpenError {
    /// True for files that are not engine files at all (JSON, side files): listed, not
    /// failures.
    pub fn is_not_engine_file(&self) -> bool {
        matches!(self, OpenError::Json { .. } | OpenError::SideFile(_))
    }
}

impl From<Error> for OpenError {
    fn from(error: Error) -> Self {
        OpenError::Failed { found: None, error }
    }
}

/// The side files a format needed, parsed.
#[derive(Default, Clone)]
pub(crate) struct Resolved {
    #[cfg(feature = "kingsisle")]
    pub types: Option<std::sync::Arc<gamewire_kingsisle::TypeList>>,
    #[cfg(feature = "zeze")]
    pub solution: Option<std::sync::Arc<gamewire_zeze::schema::Schema>>,
    #[cfg(feature = "o3de")]
    pub registry: Option<std::sync::Arc<gamewire_o3de::Registry>>,
}

/// A file opened: its format, the settings that write it again, and its content.
pub struct Opened {
    data: Vec<u8>,
    path: Option<PathBuf>,
    found: Found,
    settings: Settings,
    resolved: Resolved,
    // Read by the format modules (none may be built in).
    #[allow(dead_code)]
    opts: OpenOptions,
    notes: Vec<String>,
    /// The compressed file a Godot file was read from (its blocks are written back as
    /// they were while their plaintext is unchanged).
    #[allow(dead_code)]
    original: Option<Vec<u8>>,
}

impl fmt::Debug for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opened")
            .field("found", &self.found)
            .field("settings", &self.settings)
            .finish()
    }
}

/// Recognises side files by name: what they are (`"KingsIsle type list"`), or `None`.
pub fn side_file_kind(name: &str) -> Option<&'static str> {
    #[cfg(feature = "kingsisle")]
    if name == "types.json" || name == "types.xml" || name.ends_with(".types.json") {
        return Some("KingsIsle type list");
    }
    #[cfg(feature = "o3de")]
    if name == formats::o3de::REGISTRY_NAME {
        return Some("O3DE type registry");
    }
    #[cfg(feature = "zeze")]
    if gamewire_zeze::typed_json::SOLUTION_NAMES.contains(&name) {
        return Some("Zeze solution");
    }
    let _ = name;
    None
}

/// Opens `data`, read from `path` (or named so: side files are looked for beside it;
/// `None` for stdin, searched from the current folder), with side files from `side`.
pub fn open(
    data: Vec<u8>,
    path: Option<&Path>,
    side: &SideFiles,
    opts: &OpenOptions,
) -> std::result::Result<Opened, OpenError> {
    let name = path
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    #[cfg(feature = "godot")]
    if gamewire_godot::container::sniff(&data).is_some() {
        return formats::open_godot_container(data, path, name.as_deref(), opts);
    }
    let found = match opts.as_format {
        Some(f) => Found::new(f, Evidence::Given),
        None => match crate::identify(&data, name.as_deref()) {
            Detection::Found(found) => found,
            Detection::Ambiguous(fits) => return Err(OpenError::Ambiguous(fits)),
            Detection::Json | Detection::Unknown => {
                if let Some(what) = name.as_deref().and_then(side_file_kind) {
                    return Err(OpenError::SideFile(what));
                }
                if crate::detect::looks_like_json(&data) {
                    let format = read_document(&data)
                        .ok()
                        .and_then(|d| d.settings.map(|s| s.format()));
                    return Err(OpenError::Json { format });
                }
                return Err(OpenError::Unknown(formats::diagnose(&data).map(Box::new)));
            }
        },
    };
    let fail = |error: Error| OpenError::Failed {
        found: Some(found.clone()),
        error,
    };
    let (settings, resolved, notes) =
        formats::settings(&data, path, name.as_deref(), &found, side, opts).map_err(fail)?;
    Ok(Opened {
        data,
        path: path.map(Path::to_path_buf),
        found,
        settings,
        resolved,
        opts: opts.clone(),
        notes,
        original: None,
    })
}

/// Opens `data` with settings already known (a header's, or a front end's flags):
/// no detection; side files are read at the paths the settings hold (as
/// [`encode_document`] leaves them after finding a header's side files).
pub fn open_with(
    data: Vec<u8>,
    path: Option<&Path>,
    settings: Settings,
    side: &SideFiles,
    opts: &OpenOptions,
) -> Result<Opened> {
    let found = Found::new(settings.format(), Evidence::Given);
    let resolved = formats::resolve(&settings, side)?;
    Ok(Opened {
        data,
        path: path.map(Path::to_path_buf),
        found,
        settings,
        resolved,
        opts: opts.clone(),
        notes: Vec::new(),
        original: None,
    })
}

impl Opened {
    /// The format.
    pub fn format(&self) -> Format {
        self.settings.format()
    }

    /// How the format was recognised, and what is known of its layout.
    pub fn found(&self) -> &Found {
        &self.found
    }

    /// The settings that write the file again as it was read (side files by the paths
    /// they were found at).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The bytes read.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Things worth telling the user that are not errors (an O3DE registry's report, a
    /// layout that writing back will not keep).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The KingsIsle type list the file was read with.
    #[cfg(feature = "kingsisle")]
    pub fn type_list(&self) -> Option<std::sync::Arc<gamewire_kingsisle::TypeList>> {
        self.resolved.types.clone()
    }

    /// The Zeze solution the file was typed with.
    #[cfg(feature = "zeze")]
    pub fn solution(&self) -> Option<std::sync::Arc<gamewire_zeze::schema::Schema>> {
        self.resolved.solution.clone()
    }

    /// The O3DE registry the file was read with (beside it, over the bundled types).
    #[cfg(feature = "o3de")]
    pub fn registry(&self) -> Option<std::sync::Arc<gamewire_o3de::Registry>> {
        self.resolved.registry.clone()
    }

    /// A description for listings: `godot3 (store_var frames)`.
    pub fn describe(&self) -> String {
        self.settings.describe()
    }

    /// Writes the file's lossless JSON (the `"data"` of a document) to `w`, streamed,
    /// pretty or on one line, without a final newline.
    pub fn write_json(&self, w: &mut dyn Write, pretty: bool) -> Result<()> {
        formats::write_json(self, w, pretty)
    }

    /// The file's JSON as bytes ([`Opened::write_json`]).
    pub fn to_json(&self, pretty: bool) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_json(&mut out, pretty)?;
        Ok(out)
    }

    /// The header a document of this file carries, with side files named relative to
    /// `json_dir` (the folder the JSON document goes to; `None`: the current folder).
    pub fn header(&self, json_dir: Option<&Path>) -> Settings {
        let mut s = self.write_settings().into_owned();
        let base = match json_dir {
            Some(d) if !d.as_os_str().is_empty() => std::path::absolute(d).unwrap_or(d.into()),
            _ => std::path::absolute(".").unwrap_or_default(),
        };
        for r in s.side_refs_mut() {
            let p = Path::new(&r.path);
            let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
            if let Some(rel) = side::relative_to(&abs, &base) {
                r.path = rel;
            } else if let Some(n) = p.file_name() {
                r.path = n.to_string_lossy().into_owned();
            }
        }
        s
    }

    /// Writes the whole JSON document: `{"$gamewire": header, "data": ..., "$floats":
    /// ...}` and a newline, streamed. `json_dir` is the folder the document goes to
    /// (side files are named relative to it). On one line unless `pretty`.
    pub fn write_document(
        &self,
        w: &mut dyn Write,
        pretty: bool,
        json_dir: Option<&Path>,
    ) -> Result<()> {
        self.write_document_parts(w, pretty, json_dir).map(|_| ())
    }

    /// [`Opened::write_document`], giving the header's text, where the data stands in
    /// what was written and the text of the float record (if any).
    fn write_document_parts(
        &self,
        w: &mut dyn Write,
        pretty: bool,
        json_dir: Option<&Path>,
    ) -> Result<Written> {
        let header =
            serde_json::to_string(&self.header(json_dir)).map_err(|e| Error::msg(e.to_string()))?;
        let io = |e: std::io::Error| Error::msg(format!("cannot write: {e}"));
        let sep = if pretty { "\n" } else { "" };
        let sp = if pretty { " " } else { "" };
        // The header goes out with the data's first byte: a file that fails to decode
        // leaves nothing written.
        let head = format!("{{\"$gamewire\":{sp}{header},{sep}\"data\":{sp}").into_bytes();
        let data_start = head.len();
        let mut scan = numbers::ScanningWriter {
            inner: Prefixed {
                inner: &mut *w,
                head: Some(head),
                written: 0,
            },
            scan: numbers::FloatScan::new(),
        };
        // The JSON writers write a token at a time: the scan (and the writer under it)
        // take it in blocks.
        let mut blocks = Blocks::new(&mut scan);
        self.write_json(&mut blocks, pretty)?;
        blocks.finish().map_err(io)?;
        let numbers::ScanningWriter { inner, scan } = scan;
        let data = data_start..data_start + inner.written;
        if let Some(head) = inner.head {
            inner.inner.write_all(&head).map_err(io)?;
        }
        let floats = scan.finish();
        let floats = if floats.is_empty() {
            None
        } else {
            let f = serde_json::to_string(&floats).map_err(|e| Error::msg(e.to_string()))?;
            write!(w, ",{sep}\"$floats\":{sp}{f}").map_err(io)?;
            Some(f)
        };
        w.write_all(b"}\n").map_err(io)?;
        Ok(Written {
            header,
            data,
            floats,
        })
    }

    /// The whole JSON document ([`Opened::write_document`]) in memory, and whether it
    /// encodes back to exactly `bytes` (the file as it was read) as `gamewire encode`
    /// encodes it from `json_path`: its header read back into settings, side files
    /// found from the document's folder, floats restored from its record, its data
    /// parsed and encoded by the format. What is not read again is only what
    /// [`read_document`] would find where this document was just written: where its
    /// data starts and ends. What `convert` writes only when exact.
    pub fn write_document_checked(
        &self,
        pretty: bool,
        json_path: &Path,
        bytes: &[u8],
        side: &SideFiles,
        opts: &EncodeOptions,
    ) -> Result<CheckedDocument> {
        let json_dir = json_path.parent().unwrap_or(Path::new(""));
        let mut text = Vec::new();
        let written = self.write_document_parts(&mut text, pretty, Some(json_dir))?;
        let exact = written
            .read_back(&text)
            .and_then(|doc| encode_document(&doc, Some(json_path), None, side, opts))
            .is_ok_and(|e| e.bytes == bytes);
        Ok(CheckedDocument { text, exact })
    }
    /// The file's value in its format crate's model (see [`Value`]), read with the
    /// file's settings.
    pub fn value(&self) -> Result<Value<'_>> {
        formats::value(self)
    }

    /// Writes `value` with this file's settings (framing, container, type list, solution,
    /// layout): the bytes of the file holding it. A value of another format is an error.
    pub fn encode_value(&self, value: &Value<'_>) -> Result<Vec<u8>> {
        formats::encode_value(self, &self.write_settings(), value)
    }

    /// The inspect tree, containers past `max_items` elided.
    pub fn inspect(&self, max_items: usize) -> Result<Vec<Node>> {
        let mut tree = TreeBuilder::new(max_items);
        formats::inspect(self, &mut tree)?;
        Ok(tree.finish())
    }

    /// Encodes JSON (the data of a document, as [`Opened::write_json`] writes it) with
    /// this file's settings: the bytes of the file with the JSON's values.
    pub fn encode_json(&self, json: &[u8], opts: &EncodeOptions) -> Result<Vec<u8>> {
        // An encrypted file is written back with the secret it was opened with.
        let with_secret;
        let opts = if opts.secret.is_none() && self.opts.secret.is_some() {
            with_secret = EncodeOptions {
                secret: self.opts.secret.clone(),
                ..opts.clone()
            };
            &with_secret
        } else {
            opts
        };
        formats::encode(
            &self.write_settings(),
            &self.resolved,
            json,
            self.path.as_deref(),
            opts,
        )
    }

    /// This file with other bytes (the same format, settings and side files): what an
    /// edit of the bytes gives ([`splice`]). The settings are those that write the
    /// file back byte-exact, worked out now.
    pub(crate) fn with_data(&self, data: Vec<u8>) -> Opened {
        Opened {
            data,
            path: self.path.clone(),
            found: self.found.clone(),
            settings: self.write_settings().into_owned(),
            resolved: self.resolved.clone(),
            opts: self.opts.clone(),
            notes: self.notes.clone(),
            original: None,
        }
    }

    /// The settings that write the file back byte-exact: [`Opened::settings`], and for a
    /// compressed Godot file the blocks gamewire's compressor would not give back as they
    /// were (worked out here, on writing, not when the file is opened).
    fn write_settings(&self) -> Cow<'_, Settings> {
        #[cfg(feature = "godot")]
        if let Some(original) = &self.original {
            return Cow::Owned(formats::godot_kept_blocks(
                &self.settings,
                original,
                &self.opts.limits,
            ));
        }
        Cow::Borrowed(&self.settings)
    }
}

/// A writer that puts `head` out before the first bytes written through it, and counts
/// the bytes written after it.
struct Prefixed<'a> {
    inner: &'a mut dyn Write,
    head: Option<Vec<u8>>,
    written: usize,
}

impl Write for Prefixed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(head) = self.head.take() {
            self.inner.write_all(&head)?;
        }
        let n = self.inner.write(buf)?;
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A writer that hands what is written to `inner` in blocks of [`Blocks::SIZE`] bytes
/// (and the rest at [`Blocks::finish`]); nothing is handed on when dropped unfinished.
struct Blocks<'a> {
    inner: &'a mut dyn Write,
    buf: Vec<u8>,
}

impl<'a> Blocks<'a> {
    const SIZE: usize = 64 * 1024;

    fn new(inner: &'a mut dyn Write) -> Self {
        Blocks {
            inner,
            buf: Vec::with_capacity(Self::SIZE),
        }
    }

    /// Hands on what is left.
    fn finish(mut self) -> std::io::Result<()> {
        self.inner.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

impl Write for Blocks<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.buf.len() + buf.len() > Self::SIZE {
            self.inner.write_all(&self.buf)?;
            self.buf.clear();
            if buf.len() >= Self::SIZE {
                self.inner.write_all(buf)?;
                return Ok(buf.len());
            }
        }
        self.buf.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What [`Opened::write_document_parts`] wrote, to read it back as [`read_document`]
/// does without finding the data again.
struct Written {
    header: String,
    data: std::ops::Range<usize>,
    floats: Option<String>,
}

impl Written {
    /// The document in `text` (what was written): the header's settings and the float
    /// record read back from their text as [`read_document`] reads them, and the data's
    /// text where it was written.
    fn read_back<'t>(&self, text: &'t [u8]) -> Result<JsonDocument<'t>> {
        let header: serde_json::Value = serde_json::from_str(&self.header)
            .map_err(|e| Error::msg(format!("a gamewire JSON document: {e}")))?;
        let floats = match &self.floats {
            Some(f) => serde_json::from_str(f)
                .map_err(|e| Error::msg(format!("a gamewire JSON document: {e}")))?,
            None => FloatRecord::default(),
        };
        let data = text
            .get(self.data.clone())
            .ok_or_else(|| Error::msg("the document's data is not where it was written"))?;
        Ok(JsonDocument {
            settings: Some(formats::header_settings(header)?),
            data: Cow::Borrowed(data),
            floats,
        })
    }
}

/// A JSON document written in memory with the verdict of its round trip
/// ([`Opened::write_document_checked`]).
#[derive(Debug, Clone)]
pub struct CheckedDocument {
    /// The whole document, as [`Opened::write_document`] writes it.
    pub text: Vec<u8>,
    /// True when it encodes back to exactly the file's bytes.
    pub exact: bool,
}

/// A JSON document as gamewire writes it: the header (if any), the exact text of the
/// data, and the record of its whole-valued floats.
#[derive(Debug, Clone)]
pub struct JsonDocument<'a> {
    /// The settings the header holds; `None` for plain JSON (the whole text is data).
    pub settings: Option<Settings>,
    /// The text of the data, as written.
    pub data: Cow<'a, [u8]>,
    /// Where the data held floats with whole values.
    pub floats: FloatRecord,
}

/// Splits JSON text into a [`JsonDocument`]: a document with a `"$gamewire"` header
/// (as [`Opened::write_document`] writes it, and as any JSON tool may have reformatted
/// it), or plain JSON (all data). A header in the form older gamewire versions wrote
/// (a list of command-line options) is read for its known options only.
pub fn read_document(text: &[u8]) -> Result<JsonDocument<'_>> {
    // Nesting is checked first without recursion; the split below recurses.
    gamewire_core::json_text::check_text(text, MAX_JSON_DEPTH)
        .map_err(|e| Error::msg(e.to_string()))?;
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(rename = "$gamewire")]
        header: serde_json::Value,
        // Required, and `null` is data (a Godot nil), not its absence.
        #[serde(borrow)]
        data: &'a serde_json::value::RawValue,
        #[serde(rename = "$floats", default)]
        floats: Option<FloatRecord>,
    }
    let trimmed = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let has_header = {
        let t = trimmed.trim_ascii_start();
        t.starts_with(b"{") && {
            let after = t[1..].trim_ascii_start();
            after.starts_with(b"\"$gamewire\"")
        }
    };
    if !has_header {
        return Ok(JsonDocument {
            settings: None,
            data: Cow::Borrowed(text),
            floats: FloatRecord::default(),
        });
    }
    let mut de = serde_json::Deserializer::from_slice(trimmed);
    de.disable_recursion_limit();
    let doc: Doc = serde::Deserialize::deserialize(&mut de)
        .and_then(|d| de.end().map(|()| d))
        .map_err(|e| Error::msg(format!("a gamewire JSON document: {e}")))?;
    let data = doc.data;
    let settings = formats::header_settings(doc.header)?;
    Ok(JsonDocument {
        settings: Some(settings),
        data: Cow::Owned(data.get().as_bytes().to_vec()),
        floats: doc.floats.unwrap_or_default(),
    })
}

/// Deepest JSON nesting accepted on input. Engine formats nest up to 1024 levels, and a
/// tagged value can take up to three JSON levels per engine level.
pub const MAX_JSON_DEPTH: usize = 4096;

/// How [`encode_document`] reads JSON.
#[derive(Debug, Clone, Default)]
pub struct EncodeOptions {
    /// A key repeated in one JSON object keeps its last value instead of being an error.
    pub last_key_wins: bool,
    /// Read numbers as written: no float restored from the `"$floats"` record.
    pub numbers_as_written: bool,
    /// Depth and size limits.
    pub limits: Limits,
    /// The format the caller expects (the CLI's `encode FORMAT`): a header naming
    /// another is an error naming both.
    pub expect_format: Option<Format>,
    /// The name of the file written, when its extension says how (Resonite's
    /// `.brson`/`.7zbson`/`.lz4bson`/`.frdt`): the extension wins over the header, with
    /// a note.
    pub output_name: Option<String>,
    /// Godot: the password or key to encrypt with, when the settings name an encrypted
    /// file.
    pub secret: Option<Secret>,
}

/// What [`encode_document`] wrote.
#[derive(Debug)]
pub struct Encoded {
    /// The engine bytes.
    pub bytes: Vec<u8>,
    /// The settings used (side files at the paths they were read from).
    pub settings: Settings,
    /// Things worth telling the user (a side file that changed since the decode).
    pub notes: Vec<String>,
}

/// Encodes a JSON document back to engine bytes. `json_path` is where the document was
/// read from (side files named by its header are found relative to its folder; `None`:
/// the current folder). A document without a header is written with `settings`
/// (side files at the paths they name); one with a header, with the header's.
pub fn encode_document(
    doc: &JsonDocument<'_>,
    json_path: Option<&Path>,
    settings: Option<Settings>,
    side: &SideFiles,
    opts: &EncodeOptions,
) -> Result<Encoded> {
    let mut notes = Vec::new();
    if let (Some(h), Some(want)) = (&doc.settings, opts.expect_format) {
        if h.format() != want {
            return Err(Error::msg(format!(
                "this JSON's \"$gamewire\" header says it is {}, not {want}: encode it with \
                 `gamewire encode FILE` (or `encode {}`)",
                h.format(),
                h.format()
            )));
        }
    }
    let settings = match (&doc.settings, settings) {
        (Some(h), _) => {
            let (s, n) = formats::locate_side_files(h, json_path, side)?;
            notes.extend(n);
            s
        }
        (None, Some(given)) => given,
        (None, None) => {
            return Err(Error::msg(
                "this JSON does not say which engine format it is for (no \"$gamewire\" \
                 header, as `gamewire decode FILE` writes): name the format, \
                 `gamewire encode FORMAT FILE`",
            ))
        }
    };
    let mut settings = settings;
    if let Some(name) = &opts.output_name {
        notes.extend(formats::fit_output_name(&mut settings, name));
    }
    let data: Cow<[u8]> = if opts.numbers_as_written {
        Cow::Borrowed(&doc.data)
    } else {
        numbers::restore(&doc.data, &doc.floats)?
    };
    let resolved = formats::resolve(&settings, side)?;
    match formats::encode(&settings, &resolved, &data, json_path, opts) {
        Ok(bytes) => Ok(Encoded {
            bytes,
            settings,
            notes,
        }),
        Err(e) if !notes.is_empty() => Err(Error::msg(format!("{e} (note: {})", notes.join("; ")))),
        Err(e) => Err(e),
    }
}
