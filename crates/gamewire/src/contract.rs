//! The one contract every format offers, as a trait: what a sixth format implements.
//!
//! Each format crate has the same names (`decode(&[u8], &DecodeOptions)`,
//! `encode(&Value, &EncodeOptions)`, `json::{to_json, from_json, write_json}`, a borrowed
//! `view`, `inspect`, `sniff`); [`Codec`] states them once, for a whole file of the
//! format, and a marker type per format implements it: [`Godot3`], [`Godot4`],
//! [`KingsIsle`], [`Zeze`], [`Resonite`], [`O3de`]. Generic code (the sample test of
//! this module, a benchmark, a fuzz target) is then written once for every format.
//!
//! ```
//! # #[cfg(feature = "godot")] {
//! use gamewire::contract::{Codec, Godot3, GodotOptions};
//! let data = [2, 0, 0, 0, 7, 0, 0, 0]; // the int 7
//! let opts = GodotOptions::default();
//! let value = Godot3::decode(&data, &opts).unwrap();
//! let mut json = Vec::new();
//! Godot3::write_json(&value, &opts, &mut json, false).unwrap();
//! assert_eq!(json, b"7");
//! let back = Godot3::from_json(&json, &opts).unwrap();
//! let eo = Godot3::encode_options(&data, &value, &opts);
//! assert_eq!(Godot3::encode(&back, &eo).unwrap(), data);
//! # }
//! ```
//!
//! [`crate::open`] is the layer above: it detects the format, finds side files and works
//! out the settings that a front end would otherwise have to know; the contract is what
//! each format gives it.

use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::json_text::{self, TextOptions};
use gamewire_core::{Error, Result};
use std::io::Write;

#[cfg(feature = "godot")]
mod godot;
#[cfg(feature = "kingsisle")]
mod kingsisle;
#[cfg(feature = "o3de")]
mod o3de;
#[cfg(feature = "resonite")]
mod resonite;
#[cfg(feature = "zeze")]
mod zeze;

#[cfg(feature = "godot")]
pub use godot::{Godot3, Godot4, GodotOptions};
#[cfg(feature = "kingsisle")]
pub use kingsisle::KingsIsle;
#[cfg(feature = "o3de")]
pub use o3de::O3de;
#[cfg(feature = "resonite")]
pub use resonite::Resonite;
#[cfg(feature = "zeze")]
pub use zeze::{Zeze, ZezeOptions, ZezeValue};

/// What every format offers, for a whole file of it.
///
/// The laws every implementation keeps (checked on every sample by this module's test):
///
/// - `encode(decode(data), encode_options(data, ..))` is `data` for every file the
///   engine wrote ([`Codec::EXACT`]; O3DE: every file in O3DE's own layout);
/// - `from_json(write_json(decode(data)))` encodes to the same bytes as `decode(data)`:
///   the JSON is lossless;
/// - `sniff` is cheap (a few bytes and the name) and `inspect` fills the tree every front
///   end shows.
pub trait Codec {
    /// The format.
    const FORMAT: Format;
    /// True when decoding then encoding gives back the bytes of every file the engine
    /// wrote (false for O3DE, whose files may carry a layout of their own).
    const EXACT: bool;
    /// A decoded file; may borrow from the bytes it was read from.
    type Value<'a>;
    /// How a file is read: limits, side files (a type list), the layout.
    type DecodeOptions;
    /// How a value is written: compression, framing, layout, side files.
    type EncodeOptions;

    /// Decodes a whole file.
    fn decode<'a>(data: &'a [u8], opts: &Self::DecodeOptions) -> Result<Self::Value<'a>>;

    /// Encodes a value to the bytes of a file.
    fn encode(value: &Self::Value<'_>, opts: &Self::EncodeOptions) -> Result<Vec<u8>>;

    /// The options that write `value`, decoded from `data` with `opts`, back as `data`
    /// was written (its compression, container, layout).
    fn encode_options(
        data: &[u8],
        value: &Self::Value<'_>,
        opts: &Self::DecodeOptions,
    ) -> Self::EncodeOptions;

    /// Writes the value's lossless JSON to `w`, streamed, pretty or on one line, with no
    /// final newline.
    fn write_json(
        value: &Self::Value<'_>,
        opts: &Self::DecodeOptions,
        w: &mut dyn Write,
        pretty: bool,
    ) -> Result<()>;

    /// Reads a value back from the JSON [`Codec::write_json`] writes.
    fn from_json<'a>(json: &'a [u8], opts: &Self::DecodeOptions) -> Result<Self::Value<'a>>;

    /// True when `data` (and its file name, when known) looks like this format; cheap.
    fn sniff(data: &[u8], name: Option<&str>) -> bool;

    /// Fills the inspect tree of a file.
    fn inspect(data: &[u8], opts: &Self::DecodeOptions, tree: &mut TreeBuilder) -> Result<()>;
}

/// JSON text parsed strictly (nesting up to [`crate::open::MAX_JSON_DEPTH`], integers
/// past 64 bits and repeated keys refused), as the formats' `from_json` read it.
#[allow(dead_code)]
fn parse_json(json: &[u8]) -> Result<serde_json::Value> {
    json_text::parse(json, &TextOptions::new(crate::open::MAX_JSON_DEPTH))
        .map_err(|e| Error::msg(e.to_string()))
}

/// A `serde_json` writing error as a gamewire error (I/O errors keep their source).
#[allow(dead_code)]
fn write_error(e: serde_json::Error) -> Error {
    gamewire_core::json_out::write_error(e)
}
