//! Format detection (sniffing) from a file's first bytes and its name.

use std::fmt;

/// A format gamewire knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Godot 3.x Variant binary.
    Godot3,
    /// Godot 4.x Variant binary.
    Godot4,
    /// KingsIsle ObjectProperty (`BINd` files and raw blobs).
    KingsIsle,
    /// Zeze beans or protocol frames.
    Zeze,
    /// Resonite/Neos FrDT containers and legacy brson/7zbson/lz4bson files.
    Resonite,
    /// O3DE JSON serialization files.
    O3de,
}

impl Format {
    /// Every format, in the order [`identify`] tries them by name.
    pub const ALL: [Format; 6] = [
        Format::Godot3,
        Format::Godot4,
        Format::KingsIsle,
        Format::Zeze,
        Format::Resonite,
        Format::O3de,
    ];

    /// The format named `name` on the command line (see [`Format::name`]).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name used on the command line (`godot3`, `kingsisle`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Format::Godot3 => "godot3",
            Format::Godot4 => "godot4",
            Format::KingsIsle => "kingsisle",
            Format::Zeze => "zeze",
            Format::Resonite => "resonite",
            Format::O3de => "o3de",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Guesses the format of `data`, using `file_name` (when known) for formats whose bytes
/// alone do not say (legacy Resonite files, Zeze `.zeze` files).
///
/// The one-answer form of [`identify`]: `None` when nothing fits, or when several
/// readings fit equally (see [`Detection::Ambiguous`]).
pub fn detect(data: &[u8], file_name: Option<&str>) -> Option<Format> {
    match identify(data, file_name) {
        Detection::Found(found) => Some(found.format),
        _ => None,
    }
}

/// How a format was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// A magic number (`FrDT`, `BINd`) or a structure of the format's own
    /// (O3DE's envelope).
    Magic,
    /// The file name (`.zeze`, `.7zbson`, `NAME.godot4.bin`, ...).
    Name,
    /// The content alone, by trial decoding (Godot Variant bytes, Zeze frames).
    Content,
    /// Named by the user (the CLI's `--as`).
    Given,
}

/// How the values of a file recognised by content are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Not known (recognised by magic number or name).
    Unknown,
    /// One bare Godot Variant (`var_to_bytes`, `PacketPeer.put_var`).
    GodotBare,
    /// Godot Variants each behind a u32 length (`store_var`, `StreamPeer.put_var`).
    GodotFramed,
    /// Zeze protocol frames.
    ZezeFrames,
    /// A Godot `project.binary` (magic `ECFG`).
    GodotProjectBinary,
}

/// One format that fits, with what is known of its layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The format.
    pub format: Format,
    /// How it was recognised.
    pub evidence: Evidence,
    /// The layout, when recognised by content.
    pub layout: Layout,
    /// Values (Godot) or frames (Zeze) in the input, when known.
    pub records: Option<usize>,
}

impl Found {
    /// A format with nothing known of its layout.
    pub fn new(format: Format, evidence: Evidence) -> Self {
        Found {
            format,
            evidence,
            layout: Layout::Unknown,
            records: None,
        }
    }

    /// A short description: `godot4 (store_var frames, 3 values)`.
    pub fn describe(&self) -> String {
        let layout = match (self.layout, self.records) {
            (Layout::Unknown, _) => return self.format.to_string(),
            (Layout::GodotBare, _) => "bare value".to_owned(),
            (Layout::GodotFramed, None) => "store_var frames".to_owned(),
            (Layout::ZezeFrames, None) => "protocol frames".to_owned(),
            (Layout::GodotProjectBinary, Some(n)) => format!("project.binary, {n} settings"),
            (Layout::GodotProjectBinary, None) => "project.binary".to_owned(),
            (Layout::GodotFramed, Some(n)) => {
                let s = if n == 1 { "" } else { "s" };
                format!("store_var frame{s}, {n} value{s}")
            }
            (Layout::ZezeFrames, Some(n)) => {
                let s = if n == 1 { "" } else { "s" };
                format!("protocol frame{s}, {n} frame{s}")
            }
        };
        format!("{} ({layout})", self.format)
    }
}

/// What [`identify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detection {
    /// One format fits.
    Found(Found),
    /// Several fit equally well (tiny Godot values that read alike as Godot 3 and 4, or
    /// as a bare value and a frame): the caller must choose (the CLI's `--as`).
    Ambiguous(Vec<Found>),
    /// JSON text that is no engine's own file format: gamewire's JSON for a format (to
    /// be encoded, not decoded) or any other JSON. Never read as engine bytes.
    Json,
    /// Nothing fits.
    Unknown,
}

/// Recognises the format of `data`, using `file_name` (when known) too.
///
/// Formats with a magic number (`FrDT`, `BINd`, O3DE's envelope) come first, then
/// telling names, and last the content probes: Godot's ([`gamewire_godot::probe::probe`]),
/// which trial-decodes the input as Godot 3 and 4, bare and framed, so a save file
/// named `savegame.dat` is recognised, and Zeze's frame chain
/// ([`gamewire_zeze::frame::probe_frames`]). When more than one fits, the answer is
/// [`Detection::Ambiguous`]. A file is never claimed by a guess when a magic
/// number or a name matches, and JSON text is never read as engine bytes.
///
/// The content probes store nothing per frame and decode a bounded prefix of a framed
/// stream (Godot's first 1,024 frames, Zeze's first 1,024 bodies; the size chain of the
/// rest is counted), so detecting 500 MB of zeros or of tiny frames takes constant
/// memory; a bare Godot value is decoded whole, within the decoder's own bound.
pub fn identify(data: &[u8], file_name: Option<&str>) -> Detection {
    // Godot's encrypted (`GDEC`) and compressed (`GCPF`) files, by magic: Godot 3's
    // encrypted layout says Godot 3; the rest say Godot 4 until the content inside is read.
    #[cfg(feature = "godot")]
    if let Some(kind) = gamewire_godot::container::sniff(data) {
        use gamewire_godot::container::{encrypted, Kind};
        let v3 = kind == Kind::Encrypted
            && matches!(encrypted::probe_layout(data), Ok(encrypted::Layout::V3));
        let format = if v3 { Format::Godot3 } else { Format::Godot4 };
        return Detection::Found(Found::new(format, Evidence::Magic));
    }
    #[cfg(feature = "resonite")]
    if gamewire_resonite::sniff(data, file_name) {
        let ev = if data.starts_with(b"FrDT") {
            Evidence::Magic
        } else {
            Evidence::Name
        };
        return Detection::Found(Found::new(Format::Resonite, ev));
    }
    #[cfg(feature = "kingsisle")]
    if gamewire_kingsisle::sniff(data, file_name) {
        return Detection::Found(Found::new(Format::KingsIsle, Evidence::Magic));
    }
    #[cfg(feature = "o3de")]
    if gamewire_o3de::sniff(data, file_name) {
        return Detection::Found(Found::new(Format::O3de, Evidence::Magic));
    }
    #[cfg(feature = "godot")]
    if gamewire_godot::project_binary::sniff(data) {
        // The magic says project.binary; the values say which engine wrote it.
        let read = gamewire_godot::project_binary::decode(data, None);
        let v3 = matches!(&read, Ok(s) if s.version == gamewire_godot::Version::V3);
        return Detection::Found(Found {
            format: if v3 { Format::Godot3 } else { Format::Godot4 },
            evidence: Evidence::Magic,
            layout: Layout::GodotProjectBinary,
            records: read.ok().map(|s| s.entries.len()),
        });
    }
    #[cfg(feature = "godot")]
    if let Some(v) = gamewire_godot::sniff_version(data, file_name) {
        let format = if v == 3 {
            Format::Godot3
        } else {
            Format::Godot4
        };
        return Detection::Found(Found::new(format, Evidence::Name));
    }
    #[cfg(feature = "zeze")]
    if gamewire_zeze::sniff(data, file_name) {
        return Detection::Found(Found::new(Format::Zeze, Evidence::Name));
    }
    if looks_like_json(data) {
        return Detection::Json;
    }
    let mut fits: Vec<Found> = Vec::new();
    #[cfg(feature = "godot")]
    {
        use gamewire_godot::probe::{probe, Framing, Reading, Verdict};
        let found = |r: &Reading| Found {
            format: match r.version {
                gamewire_godot::Version::V3 => Format::Godot3,
                gamewire_godot::Version::V4 => Format::Godot4,
            },
            evidence: Evidence::Content,
            layout: match r.framing {
                Framing::Raw => Layout::GodotBare,
                Framing::Framed => Layout::GodotFramed,
            },
            records: Some(r.records),
        };
        match probe(data) {
            Verdict::One { best, .. } => fits.push(found(&best)),
            Verdict::Ambiguous(readings) => fits.extend(readings.iter().map(found)),
            Verdict::NotGodot => {}
        }
    }
    #[cfg(feature = "zeze")]
    if let Some(n) = gamewire_zeze::frame::probe_frames(data) {
        fits.push(Found {
            format: Format::Zeze,
            evidence: Evidence::Content,
            layout: Layout::ZezeFrames,
            records: Some(n),
        });
    }
    match fits.len() {
        0 => {}
        1 => return Detection::Found(fits.remove(0)),
        _ => return Detection::Ambiguous(fits),
    }
    let _ = (data, file_name);
    Detection::Unknown
}

/// True when `data` starts, after an optional byte order mark and white space, with
/// `{` or `[` and its first bytes are text (engine bytes hold a zero byte early).
pub(crate) fn looks_like_json(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let start = data.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return false;
    };
    matches!(data[start], b'{' | b'[') && !data[..data.len().min(64)].contains(&0)
}

/// An archive of files that gamewire reads through (its entries listed, decoded, and
/// extracted): see [`crate::open::archive`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    /// A KingsIsle `KIWAD` archive (Wizard101, Pirate101): magic `KIWAD`.
    KingsIsleWad,
}

impl ArchiveKind {
    /// What it is called in listings.
    pub fn name(self) -> &'static str {
        match self {
            ArchiveKind::KingsIsleWad => "KingsIsle KIWAD archive",
        }
    }
}

/// The kind of archive `data` is, by its magic, or `None`.
pub fn archive_kind(data: &[u8]) -> Option<ArchiveKind> {
    #[cfg(feature = "kingsisle")]
    if gamewire_kingsisle::wad::sniff(data) {
        return Some(ArchiveKind::KingsIsleWad);
    }
    let _ = data;
    None
}
