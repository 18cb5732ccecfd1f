//! Resonite/Neos: FrDT containers and headerless legacy files.

use super::{write_error, Codec};
use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::json_text::TextOptions;
use gamewire_core::Result;
use gamewire_resonite::{
    self as resonite, json, Compression, Container, DecodeOptions, Decoded, EncodeOptions, Framing,
};
use std::io::Write;

/// Resonite/Neos data-tree files ([`Codec`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Resonite;

impl Codec for Resonite {
    const FORMAT: Format = Format::Resonite;
    const EXACT: bool = true;
    /// The container read and the document (read into an arena, owned with its
    /// bytes, by `decode`; an owned tree from JSON). A value read from JSON has the
    /// container current Resonite writes (FrDT, Brotli); the encode options say which
    /// one is written.
    type Value<'a> = Decoded;
    type DecodeOptions = DecodeOptions;
    type EncodeOptions = EncodeOptions;

    fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Decoded> {
        resonite::codec::decode(data, opts)
    }

    fn encode(value: &Decoded, opts: &EncodeOptions) -> Result<Vec<u8>> {
        resonite::codec::encode(value.document(), opts)
    }

    fn encode_options(_data: &[u8], value: &Decoded, opts: &DecodeOptions) -> EncodeOptions {
        EncodeOptions {
            max_depth: opts.options.limits.max_depth,
            ..EncodeOptions::like(&value.container)
        }
    }

    fn write_json(
        value: &Decoded,
        _opts: &DecodeOptions,
        w: &mut dyn Write,
        pretty: bool,
    ) -> Result<()> {
        let view = resonite::json_view::DocumentView::new(value.document());
        gamewire_core::json_out::write(w, &view, pretty).map_err(write_error)
    }

    fn from_json(text: &[u8], opts: &DecodeOptions) -> Result<Decoded> {
        let j = json::parse_text_with(text, &TextOptions::new(crate::open::MAX_JSON_DEPTH))?;
        let container = Container {
            compression: Compression::Brotli,
            framing: Framing::FrDT { version: 0 },
        };
        let document = json::from_json(&j, opts.options.limits.max_depth)?;
        Ok(Decoded::new(container, document))
    }

    fn sniff(data: &[u8], name: Option<&str>) -> bool {
        resonite::sniff(data, name)
    }

    fn inspect(data: &[u8], opts: &DecodeOptions, tree: &mut TreeBuilder) -> Result<()> {
        resonite::inspect::fill(data, opts.file_name.as_deref(), tree)
    }
}
