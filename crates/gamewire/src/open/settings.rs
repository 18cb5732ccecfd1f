//! The settings that write a file again as it was read: typed, serde-able, and the
//! `"$gamewire"` header of gamewire's JSON documents.
//!
//! ```json
//! {"$gamewire": {"format": "godot3", "framing": "store_var"},
//! "data": [ ... ]}
//! ```
//!
//! Side files are named by [`SideRef`]: a path relative to the JSON document's folder
//! (so a document moved with its side files still encodes) and the SHA-256 of the
//! content it was decoded with (so a different type list or solution is named as the
//! cause of a failure).

use crate::Format;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A side file a document was decoded with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideRef {
    /// Where it is: relative to the JSON document's folder (with `/`), or, in settings
    /// not yet written to a document, the path it was found at.
    pub path: String,
    /// The SHA-256 of its content, in lower-case hex.
    pub sha256: String,
}

/// How Godot values are laid out in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GodotFraming {
    /// One bare Variant (`var_to_bytes`, `PacketPeer.put_var`): the JSON is the value.
    Bare,
    /// Variants each behind a u32 length (`store_var`, `StreamPeer.put_var`): the JSON
    /// is an array of the values.
    StoreVar,
    /// A `project.binary` (magic `ECFG`): the JSON is an object of the settings,
    /// `"section/name": value`, in file order.
    ProjectBinary,
    /// Not Variants: UTF-8 text inside an encrypted or compressed file (a JSON save, a
    /// story file), whose JSON is the text as one string, written back unchanged.
    Text,
    /// Not Variants and not text: bytes inside an encrypted or compressed file, whose
    /// JSON is their base64, written back unchanged.
    Bytes,
}

/// The cipher of an encrypted Godot file (`GDEC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GodotCipher {
    /// Godot 3's layout: a mode word, AES-256 ECB.
    Aes256Ecb,
    /// Godot 4's layout: an IV, AES-256 CFB-128.
    Aes256Cfb,
}

/// A compressed block whose bytes gamewire's compressor does not reproduce, kept so that
/// the file is written back byte-exact while that block's plaintext is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GodotKeptBlock {
    /// The block's index.
    pub block: usize,
    /// The MD5 of the block's plaintext, lower-case hex.
    pub md5: String,
    /// The block's compressed bytes, base64.
    pub data: String,
}

/// The file a Godot value stream was wrapped in (`FileAccess.open_encrypted*`,
/// `open_compressed`). The password or key is never recorded: it is given again to
/// write the file back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GodotContainer {
    /// `GDEC`: encrypted.
    Encrypted {
        /// Godot 3 (ECB) or Godot 4 (CFB) layout.
        cipher: GodotCipher,
        /// The IV (CFB), 32 hex digits: written back with it, the bytes are the same.
        /// Without one, a fresh random IV.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iv: Option<String>,
    },
    /// `GCPF`: compressed.
    Compressed {
        /// `fastlz`, `deflate`, `zstd` or `gzip`.
        mode: String,
        /// The block size (4096 as the engine writes it).
        block_size: u32,
        /// Blocks kept as they were read (see [`GodotKeptBlock`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        kept: Vec<GodotKeptBlock>,
    },
}

impl GodotContainer {
    /// A short description: `encrypted, AES-256 CFB` or `compressed, zstd`.
    pub fn describe(&self) -> String {
        match self {
            GodotContainer::Encrypted { cipher, .. } => format!(
                "encrypted, AES-256 {}",
                match cipher {
                    GodotCipher::Aes256Ecb => "ECB",
                    GodotCipher::Aes256Cfb => "CFB",
                }
            ),
            GodotContainer::Compressed { mode, .. } => format!("compressed, {mode}"),
        }
    }
}

/// Settings of a Godot 3 or 4 file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GodotSettings {
    /// Bare value or `store_var` frames.
    pub framing: GodotFraming,
    /// Full objects were accepted (`bytes_to_var_with_objects`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_objects: bool,
    /// The encrypted or compressed file the values were in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<GodotContainer>,
}

/// How a KingsIsle file holds its objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KingsIsleFile {
    /// A `BINd` file (the flags word is in the data).
    Bind,
    /// A bare ObjectProperty blob, written with [`KingsIsleSettings::flags`] and the
    /// other serializer options.
    Blob,
    /// An XML object file (`<Objects><Class Name=..>`): one object, or an array of them.
    Xml,
}

/// Settings of a KingsIsle file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingsIsleSettings {
    /// BINd, blob or XML.
    pub file: KingsIsleFile,
    /// The type list.
    pub types: SideRef,
    /// The game whose hashes the type list uses where it gives none.
    #[serde(default = "wizard101")]
    pub game: String,
    /// Serializer flags (blobs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flags: u32,
    /// Property mask (blobs).
    #[serde(default = "default_mask")]
    pub mask: u32,
    /// Shallow mode (blobs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shallow: bool,
    /// Manual zlib framing (blobs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub manual_zlib: bool,
}

/// How Zeze values are laid out in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZezeLayout {
    /// One bean.
    Bean,
    /// Protocol frames: the JSON is an array of frames.
    Frames,
}

/// Settings of a Zeze file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZezeSettings {
    /// One bean or frames.
    pub layout: ZezeLayout,
    /// The solution that typed it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<SideRef>,
    /// The bean (full name) of a typed single bean, or of every frame's body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bean: Option<String>,
}

/// The container of a Resonite file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResoniteContainer {
    /// A `FrDT` header (version, compression) before the payload.
    Frdt,
    /// No header (older files): the compression alone.
    Legacy,
}

/// Settings of a Resonite file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResoniteSettings {
    /// `none`, `lz4`, `lzma` or `brotli`.
    pub compression: String,
    /// FrDT header or none.
    pub container: ResoniteContainer,
}

/// How an O3DE file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum O3deLayout {
    /// Indented, a line per member and element (by [`O3deSettings::indent`]).
    Pretty,
    /// On one line.
    Compact,
}

/// The text of an O3DE file between the tokens of one value, where it differs from the
/// file's layout (`None`: as the layout writes it): `gamewire_o3de::layout::Gaps`, which
/// reads and writes it, written once in `gamewire_core` so that the settings build
/// without the O3DE crate.
pub use gamewire_core::json_gaps::Gaps as O3deGaps;

/// Settings of an O3DE file: its layout, so that it is written back byte for byte, and
/// an edited document in the file's own layout.
///
/// Plain JSON holds an O3DE file's document; the rest of the text is here: the
/// indentation and line ending, and, by JSON Pointer, each gap of text that differs from
/// them (comments, trailing commas, odd spacing) and the number and string forms other
/// JSON tools rewrite. A file O3DE saved needs none of them (`{"layout": "pretty",
/// "final_newline": true}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct O3deSettings {
    /// Indented or on one line.
    pub layout: O3deLayout,
    /// The registry that checked it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<SideRef>,
    /// The file ends with a line break (as the O3DE editor writes it).
    #[serde(default, skip_serializing_if = "is_false")]
    pub final_newline: bool,
    /// One level of indentation when not O3DE's four spaces (two spaces, a tab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indent: Option<String>,
    /// The line ending when not `"\n"` (`"\r\n"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newline: Option<String>,
    /// The gaps of text that differ from the layout, by JSON Pointer of their value
    /// (a repeated member name's N-th occurrence, from the 2nd, ends in `~N`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub gaps: BTreeMap<String, O3deGaps>,
    /// Number and string text (strings with their quotes) jq or `JSON.stringify` write
    /// in another form (`1.0000000`, `"\/"`), by JSON Pointer: written back where the
    /// value there is still the same.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub texts: BTreeMap<String, String>,
}

impl O3deSettings {
    /// O3DE's own layout: indented by four spaces, `\n`, nothing else kept.
    pub fn pretty(final_newline: bool) -> Self {
        O3deSettings {
            layout: O3deLayout::Pretty,
            registry: None,
            final_newline,
            indent: None,
            newline: None,
            gaps: BTreeMap::new(),
            texts: BTreeMap::new(),
        }
    }
}

/// Everything needed to write a file again as it was read, by format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format")]
pub enum Settings {
    /// Godot 3.x Variant binary.
    #[serde(rename = "godot3")]
    Godot3(GodotSettings),
    /// Godot 4.x Variant binary.
    #[serde(rename = "godot4")]
    Godot4(GodotSettings),
    /// KingsIsle ObjectProperty.
    #[serde(rename = "kingsisle")]
    KingsIsle(KingsIsleSettings),
    /// Zeze beans and frames.
    #[serde(rename = "zeze")]
    Zeze(ZezeSettings),
    /// Resonite/Neos containers.
    #[serde(rename = "resonite")]
    Resonite(ResoniteSettings),
    /// O3DE JSON.
    #[serde(rename = "o3de")]
    O3de(O3deSettings),
}

impl Settings {
    /// The format these settings are for.
    pub fn format(&self) -> Format {
        match self {
            Settings::Godot3(_) => Format::Godot3,
            Settings::Godot4(_) => Format::Godot4,
            Settings::KingsIsle(_) => Format::KingsIsle,
            Settings::Zeze(_) => Format::Zeze,
            Settings::Resonite(_) => Format::Resonite,
            Settings::O3de(_) => Format::O3de,
        }
    }

    /// The side files named, mutably (to make their paths relative or absolute).
    pub fn side_refs_mut(&mut self) -> Vec<&mut SideRef> {
        match self {
            Settings::KingsIsle(k) => vec![&mut k.types],
            Settings::Zeze(z) => z.solution.iter_mut().collect(),
            Settings::O3de(o) => o.registry.iter_mut().collect(),
            _ => Vec::new(),
        }
    }

    /// The side files named.
    pub fn side_refs(&self) -> Vec<&SideRef> {
        match self {
            Settings::KingsIsle(k) => vec![&k.types],
            Settings::Zeze(z) => z.solution.iter().collect(),
            Settings::O3de(o) => o.registry.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The default settings for writing plain JSON (no header) in `format`, where the
    /// format needs no side file: Godot bare values, schema-less Zeze beans, Resonite
    /// Brotli with a header (what Resonite writes), O3DE indented. `None` for KingsIsle
    /// (it needs a type list).
    pub fn plain(format: Format) -> Option<Settings> {
        let godot = GodotSettings {
            framing: GodotFraming::Bare,
            allow_objects: false,
            container: None,
        };
        Some(match format {
            Format::Godot3 => Settings::Godot3(godot),
            Format::Godot4 => Settings::Godot4(godot),
            Format::KingsIsle => return None,
            Format::Zeze => Settings::Zeze(ZezeSettings {
                layout: ZezeLayout::Bean,
                solution: None,
                bean: None,
            }),
            Format::Resonite => Settings::Resonite(ResoniteSettings {
                compression: "brotli".into(),
                container: ResoniteContainer::Frdt,
            }),
            Format::O3de => Settings::O3de(O3deSettings::pretty(true)),
        })
    }

    /// A one-line description: `godot3 (store_var frames)`.
    pub fn describe(&self) -> String {
        let f = self.format();
        let what = match self {
            Settings::Godot3(g) | Settings::Godot4(g) => {
                let what = match g.framing {
                    GodotFraming::Bare => "bare value",
                    GodotFraming::StoreVar => "store_var frames",
                    GodotFraming::Text => "text",
                    GodotFraming::Bytes => "bytes",
                    GodotFraming::ProjectBinary => "project.binary settings",
                };
                match &g.container {
                    Some(c) => format!("{what}, {}", c.describe()),
                    None => what.to_owned(),
                }
            }
            Settings::KingsIsle(k) => format!(
                "{}, type list {}",
                match k.file {
                    KingsIsleFile::Bind => "BINd",
                    KingsIsleFile::Blob => "blob",
                    KingsIsleFile::Xml => "XML objects",
                },
                k.types.path
            ),
            Settings::Zeze(z) => {
                let l = match z.layout {
                    ZezeLayout::Bean => "bean",
                    ZezeLayout::Frames => "frames",
                };
                match (&z.solution, &z.bean) {
                    (Some(s), Some(b)) => format!("{l} {b}, solution {}", s.path),
                    (Some(s), None) => format!("{l}, solution {}", s.path),
                    _ => l.to_owned(),
                }
            }
            Settings::Resonite(r) => format!(
                "{}{}",
                r.compression,
                if r.container == ResoniteContainer::Legacy {
                    ", no header"
                } else {
                    ""
                }
            ),
            Settings::O3de(o) => match &o.registry {
                Some(r) => format!("registry {}", r.path),
                None => "document".to_owned(),
            },
        };
        format!("{f} ({what})")
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

fn wizard101() -> String {
    "wizard101".into()
}

fn default_mask() -> u32 {
    24
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_and_write_as_the_header_shows_them() {
        let s = Settings::Godot3(GodotSettings {
            framing: GodotFraming::StoreVar,
            allow_objects: false,
            container: None,
        });
        let j = serde_json::to_string(&s).unwrap();
        assert_eq!(j, r#"{"format":"godot3","framing":"store_var"}"#);
        assert_eq!(serde_json::from_str::<Settings>(&j).unwrap(), s);
        let z: Settings = serde_json::from_str(
            r#"{"format":"zeze","layout":"bean","solution":{"path":"s.xml","sha256":"ab"},"bean":"x.B"}"#,
        )
        .unwrap();
        assert_eq!(z.format(), Format::Zeze);
        assert_eq!(z.side_refs()[0].path, "s.xml");
        assert!(serde_json::from_str::<Settings>(r#"{"format":"nope"}"#).is_err());
        // Unknown members are errors, not ignored (a header is validated settings).
        let e = serde_json::from_str::<Settings>(
            r#"{"format":"godot3","framing":"bare","encode":["-o","x"]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown field"), "{e}");
    }
}
