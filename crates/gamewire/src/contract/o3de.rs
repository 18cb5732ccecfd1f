//! O3DE: JSON serialization files, kept as written.

use super::Codec;
use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::Result;
use gamewire_o3de::doc::Document;
use gamewire_o3de::{self as o3de, json, DecodeOptions, EncodeOptions};
use std::io::Write;

/// O3DE JSON files ([`Codec`]): the document as written (member order, number text,
/// repeated names); written back in O3DE's layout.
#[derive(Debug, Clone, Copy, Default)]
pub struct O3de;

impl Codec for O3de {
    const FORMAT: Format = Format::O3de;
    /// A file laid out by hand (comments, its own spacing) comes back in O3DE's layout.
    const EXACT: bool = false;
    type Value<'a> = Document<'a>;
    type DecodeOptions = DecodeOptions;
    type EncodeOptions = EncodeOptions;

    fn decode<'a>(data: &'a [u8], opts: &DecodeOptions) -> Result<Document<'a>> {
        o3de::codec::decode(data, opts)
    }

    fn encode(value: &Document<'_>, opts: &EncodeOptions) -> Result<Vec<u8>> {
        o3de::codec::encode(value, opts)
    }

    fn encode_options(data: &[u8], value: &Document<'_>, _opts: &DecodeOptions) -> EncodeOptions {
        EncodeOptions::like(data, value)
    }

    fn write_json(
        value: &Document<'_>,
        _opts: &DecodeOptions,
        w: &mut dyn Write,
        pretty: bool,
    ) -> Result<()> {
        json::write_json(w, value, pretty)
    }

    fn from_json<'a>(text: &'a [u8], opts: &DecodeOptions) -> Result<Document<'a>> {
        o3de::codec::decode(text, opts)
    }

    fn sniff(data: &[u8], name: Option<&str>) -> bool {
        o3de::sniff(data, name)
    }

    fn inspect(data: &[u8], _opts: &DecodeOptions, tree: &mut TreeBuilder) -> Result<()> {
        o3de::inspect::fill_untyped(data, None, tree)
    }
}
