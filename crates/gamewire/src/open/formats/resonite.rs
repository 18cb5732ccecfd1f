//! Resonite/Neos: FrDT containers and headerless legacy files.

use super::super::settings::{ResoniteContainer, ResoniteSettings};
use super::super::{EncodeOptions, OpenOptions, Opened, Resolved, Settings};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::json_text::TextOptions;
use gamewire_core::{Error, Result};
use gamewire_resonite::{self as resonite, container, Compression};
use std::io::Write;

fn read_opts(limits: gamewire_core::Limits) -> resonite::Options {
    resonite::Options {
        limits,
        ..resonite::Options::default()
    }
}

pub(super) fn settings(
    data: &[u8],
    name: Option<&str>,
    opts: &OpenOptions,
) -> Result<(Settings, Resolved, Vec<String>)> {
    let (compression, container) = match container::read_header(data)? {
        Some(h) => (h.compression, ResoniteContainer::Frdt),
        None => {
            let (c, _) = container::unpack(data, name, &read_opts(opts.limits))?;
            let framing = if c.framing == container::Framing::Legacy {
                ResoniteContainer::Legacy
            } else {
                ResoniteContainer::Frdt
            };
            (c.compression, framing)
        }
    };
    let s = ResoniteSettings {
        compression: compression.name().into(),
        container,
    };
    Ok((Settings::Resonite(s), Resolved::default(), Vec::new()))
}

fn name_of(o: &Opened) -> Option<String> {
    o.path
        .as_deref()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
}

pub(super) fn write_json(o: &Opened, w: &mut dyn Write, pretty: bool) -> Result<()> {
    // Streamed from the checked BSON view: neither the owned document nor a JSON tree
    // is built.
    let name = name_of(o);
    let file =
        resonite::bson_view::FileView::open(&o.data, name.as_deref(), &read_opts(o.opts.limits))?;
    let view = resonite::json_view::DocumentRefView::new(file.root());
    gamewire_core::json_out::write(w, &view, pretty)
        .map_err(|e| Error::msg(format!("cannot write the JSON: {e}")))
}

pub(super) fn value(o: &Opened) -> Result<crate::open::Value<'_>> {
    let name = name_of(o);
    let d = resonite::decode(&o.data, name.as_deref(), &read_opts(o.opts.limits))?;
    Ok(crate::open::Value::Resonite(d))
}

pub(super) fn encode_value(r: &ResoniteSettings, doc: &resonite::Document<'_>) -> Result<Vec<u8>> {
    let eo = resonite::EncodeOptions {
        legacy: r.container == ResoniteContainer::Legacy,
        ..resonite::EncodeOptions::new(compression(r)?)
    };
    resonite::encode(doc, &eo)
}

pub(super) fn inspect(o: &Opened, tree: &mut TreeBuilder) -> Result<()> {
    resonite::inspect::fill(&o.data, name_of(o).as_deref(), tree)
}

/// The compression named in settings.
pub(super) fn compression(r: &ResoniteSettings) -> Result<Compression> {
    Compression::from_name(&r.compression).ok_or_else(|| {
        Error::msg(format!(
            "unknown compression {:?}: use lz4, lzma, brotli or none",
            r.compression
        ))
    })
}

pub(super) fn encode(
    r: &ResoniteSettings,
    json_text: &[u8],
    opts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let max_depth = opts.limits.max_depth;
    let j = resonite::json::parse_text_with(
        json_text,
        &TextOptions::new(super::super::MAX_JSON_DEPTH).last_key_wins(opts.last_key_wins),
    )?;
    let doc = resonite::json::document_from_json(&j, max_depth)?;
    let eo = resonite::EncodeOptions {
        legacy: r.container == ResoniteContainer::Legacy,
        max_depth,
        ..resonite::EncodeOptions::new(compression(r)?)
    };
    resonite::encode(&doc, &eo)
}
