//! Godot 3 and 4: one bare Variant, or `store_var` frames.

use super::{parse_json, write_error, Codec};
use crate::open::GodotFraming;
use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Limits, Result};
use gamewire_godot::{self as godot, framing, json, Version};
use std::io::Write;

/// Godot 3.x Variant bytes ([`Codec`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Godot3;

/// Godot 4.x Variant bytes ([`Codec`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Godot4;

/// How a Godot file is read and written: one bare value or `store_var` frames, full
/// objects or not, and limits.
#[derive(Debug, Clone)]
pub struct GodotOptions {
    /// One bare value, or values each behind a length (`store_var`).
    pub framing: GodotFraming,
    /// Accept full objects (`bytes_to_var_with_objects`).
    pub allow_objects: bool,
    /// Depth limit.
    pub limits: Limits,
}

impl Default for GodotOptions {
    fn default() -> Self {
        GodotOptions {
            framing: GodotFraming::Bare,
            allow_objects: false,
            limits: Limits::DEFAULT,
        }
    }
}

fn decode_options(v: Version, o: &GodotOptions) -> godot::DecodeOptions {
    godot::DecodeOptions::new(v)
        .allow_objects(o.allow_objects)
        .max_depth(o.limits.max_depth)
}

/// project.binary is a list of settings, not Variant values: the contract's Godot
/// codec does not take it.
fn project_binary_elsewhere() -> Error {
    Error::msg("a project.binary is read by gamewire::open or gamewire_godot::project_binary, not the Variant contract")
}

fn decode(v: Version, data: &[u8], o: &GodotOptions) -> Result<Vec<godot::Value>> {
    let opts = decode_options(v, o);
    match o.framing {
        GodotFraming::Bare => Ok(vec![godot::decode(data, &opts)?]),
        GodotFraming::StoreVar => framing::decode_framed_all(data, &opts),
        GodotFraming::Text | GodotFraming::Bytes => Err(not_variants()),
        GodotFraming::ProjectBinary => Err(project_binary_elsewhere()),
    }
}

fn encode(v: Version, values: &[godot::Value], f: GodotFraming) -> Result<Vec<u8>> {
    let opts = godot::EncodeOptions::new(v);
    let mut out = Vec::new();
    match (f, values) {
        (GodotFraming::Bare, [one]) => godot::encode_into(one, &opts, &mut out)?,
        (GodotFraming::Bare, _) => {
            return Err(Error::msg(format!(
                "a bare Godot file holds one value, not {}",
                values.len()
            )))
        }
        (GodotFraming::ProjectBinary, _) => return Err(project_binary_elsewhere()),
        (GodotFraming::StoreVar, all) => {
            for value in all {
                framing::encode_framed_into(value, &opts, &mut out)?;
            }
        }
        (GodotFraming::Text | GodotFraming::Bytes, _) => return Err(not_variants()),
    }
    Ok(out)
}

fn write_json(
    v: Version,
    values: &[godot::Value],
    o: &GodotOptions,
    w: &mut dyn Write,
    pretty: bool,
) -> Result<()> {
    match (o.framing, values) {
        (GodotFraming::Bare, [one]) => {
            gamewire_core::json_out::write(w, &json::JsonView::new(one, v), pretty)
        }
        _ => {
            let all: Vec<_> = values.iter().map(|x| json::JsonView::new(x, v)).collect();
            gamewire_core::json_out::write(w, &all, pretty)
        }
    }
    .map_err(write_error)
}

/// Text and bytes framings hold no Variants (they are for files inside containers).
fn not_variants() -> Error {
    Error::msg("text or bytes inside a Godot container hold no Variant values: open the file")
}

fn from_json(v: Version, text: &[u8], o: &GodotOptions) -> Result<Vec<godot::Value>> {
    let j = parse_json(text)?;
    match o.framing {
        GodotFraming::Text | GodotFraming::Bytes => Err(not_variants()),
        GodotFraming::Bare => Ok(vec![json::from_json(&j, v)?]),
        GodotFraming::ProjectBinary => Err(project_binary_elsewhere()),
        GodotFraming::StoreVar => {
            let serde_json::Value::Array(items) = j else {
                return Err(Error::msg(
                    "a store_var file's JSON is an array of its values (one per store_var)",
                ));
            };
            items
                .iter()
                .enumerate()
                .map(|(i, item)| json::from_json(item, v).map_err(|e| e.in_index(i)))
                .collect()
        }
    }
}

macro_rules! godot_codec {
    ($marker:ident, $format:expr, $version:expr, $major:expr) => {
        impl Codec for $marker {
            const FORMAT: Format = $format;
            const EXACT: bool = true;
            /// The file's values: one for a bare file, one per `store_var` frame.
            type Value<'a> = Vec<godot::Value>;
            type DecodeOptions = GodotOptions;
            type EncodeOptions = GodotFraming;

            fn decode(data: &[u8], opts: &GodotOptions) -> Result<Vec<godot::Value>> {
                decode($version, data, opts)
            }

            fn encode(value: &Vec<godot::Value>, opts: &GodotFraming) -> Result<Vec<u8>> {
                encode($version, value, *opts)
            }

            fn encode_options(
                _data: &[u8],
                _value: &Vec<godot::Value>,
                opts: &GodotOptions,
            ) -> GodotFraming {
                opts.framing
            }

            fn write_json(
                value: &Vec<godot::Value>,
                opts: &GodotOptions,
                w: &mut dyn Write,
                pretty: bool,
            ) -> Result<()> {
                write_json($version, value, opts, w, pretty)
            }

            fn from_json(json: &[u8], opts: &GodotOptions) -> Result<Vec<godot::Value>> {
                from_json($version, json, opts)
            }

            fn sniff(data: &[u8], name: Option<&str>) -> bool {
                godot::sniff_version(data, name) == Some($major)
            }

            fn inspect(data: &[u8], _opts: &GodotOptions, tree: &mut TreeBuilder) -> Result<()> {
                godot::inspect::fill(data, $version, tree)
            }
        }
    };
}

godot_codec!(Godot3, Format::Godot3, Version::V3, 3);
godot_codec!(Godot4, Format::Godot4, Version::V4, 4);
