//! KingsIsle: `BINd` files and bare ObjectProperty blobs, read with their type list.
//! (XML object files are read by [`gamewire_kingsisle::xml`] and [`crate::open`].)

use super::{write_error, Codec};
use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::Result;
use gamewire_kingsisle::{self as ki, json, DecodeOptions, Document, EncodeOptions};
use std::io::Write;

/// KingsIsle ObjectProperty files ([`Codec`]); the options carry the type list.
#[derive(Debug, Clone, Copy, Default)]
pub struct KingsIsle;

impl Codec for KingsIsle {
    const FORMAT: Format = Format::KingsIsle;
    const EXACT: bool = true;
    type Value<'a> = Document;
    type DecodeOptions = DecodeOptions;
    type EncodeOptions = EncodeOptions;

    fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Document> {
        ki::codec::decode(data, opts)
    }

    fn encode(value: &Document, opts: &EncodeOptions) -> Result<Vec<u8>> {
        ki::codec::encode(value, opts)
    }

    fn encode_options(_data: &[u8], _value: &Document, opts: &DecodeOptions) -> EncodeOptions {
        EncodeOptions::from(opts)
    }

    fn write_json(
        value: &Document,
        opts: &DecodeOptions,
        w: &mut dyn Write,
        pretty: bool,
    ) -> Result<()> {
        let view = json::DocumentJson {
            doc: value,
            types: &opts.types,
            enum_numbers: false,
        };
        gamewire_core::json_out::write(w, &view, pretty).map_err(write_error)
    }

    fn from_json(text: &[u8], opts: &DecodeOptions) -> Result<Document> {
        json::from_json(&super::parse_json(text)?, &opts.types)
    }

    fn sniff(data: &[u8], name: Option<&str>) -> bool {
        ki::sniff(data, name)
    }

    fn inspect(data: &[u8], opts: &DecodeOptions, tree: &mut TreeBuilder) -> Result<()> {
        ki::inspect::fill(data, &opts.types, "the given type list", tree)
    }
}
