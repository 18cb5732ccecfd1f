//! Godot 3 and 4: bare values and `store_var` frames.

use super::super::settings::{GodotFraming, GodotSettings};
use super::super::{EncodeOptions, OpenOptions, Opened, Resolved, Settings};
use crate::{Evidence, Format, Found, Layout};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_godot::{self as godot, framing, json, DecodeOptions, EncodeOptions as GEnc, Version};
use std::io::Write;

fn version(f: Format) -> Version {
    if f == Format::Godot3 {
        Version::V3
    } else {
        Version::V4
    }
}

fn version_of(s: &Settings) -> Version {
    version(s.format())
}

fn decode_opts(o: &Opened, g: &GodotSettings) -> DecodeOptions {
    DecodeOptions::new(version_of(&o.settings))
        .allow_objects(g.allow_objects || o.opts.allow_objects)
        .max_depth(o.opts.limits.max_depth)
}

pub(super) fn settings(
    data: &[u8],
    found: &Found,
    opts: &OpenOptions,
) -> Result<(Settings, Resolved, Vec<String>)> {
    let v = version(found.format);
    let dopts = DecodeOptions::new(v)
        .allow_objects(opts.allow_objects)
        .max_depth(opts.limits.max_depth);
    let framing = match found.layout {
        Layout::GodotProjectBinary => GodotFraming::ProjectBinary,
        _ if godot::project_binary::sniff(data) => GodotFraming::ProjectBinary,
        Layout::GodotFramed => GodotFraming::StoreVar,
        Layout::GodotBare => GodotFraming::Bare,
        // Named, not probed: the layout that decodes (bare first); when neither does (a
        // damaged save named with --as), the one whose error comes further, so the error
        // shown is the useful one ("frame length of 5004 does not fit ...").
        _ => match godot::decode(data, &dopts) {
            Ok(_) => GodotFraming::Bare,
            Err(bare) => match framing::decode_framed_all(data, &dopts) {
                Ok(_) => GodotFraming::StoreVar,
                Err(framed) if header_at(data, 4, v) && framed.offset() >= bare.offset() => {
                    GodotFraming::StoreVar
                }
                Err(_) => GodotFraming::Bare,
            },
        },
    };
    let g = GodotSettings {
        framing,
        allow_objects: opts.allow_objects,
    };
    let s = match found.format {
        Format::Godot3 => Settings::Godot3(g),
        _ => Settings::Godot4(g),
    };
    Ok((s, Resolved::default(), Vec::new()))
}

fn io(e: serde_json::Error) -> Error {
    Error::msg(format!("cannot write the JSON: {e}"))
}

pub(super) fn write_json(
    o: &Opened,
    g: &GodotSettings,
    w: &mut dyn Write,
    pretty: bool,
) -> Result<()> {
    let v = version_of(&o.settings);
    let opts = decode_opts(o, g);
    match g.framing {
        GodotFraming::Bare => {
            let value = godot::decode(&o.data, &opts)?;
            gamewire_core::json_out::write(w, &json::JsonView::new(&value, v), pretty).map_err(io)
        }
        GodotFraming::StoreVar => {
            let values = framing::decode_framed_all(&o.data, &opts)?;
            let all: Vec<_> = values.iter().map(|x| json::JsonView::new(x, v)).collect();
            gamewire_core::json_out::write(w, &all, pretty).map_err(io)
        }
        GodotFraming::ProjectBinary => {
            let settings = project_settings(o)?;
            let j = godot::project_binary::to_json(&settings)?;
            gamewire_core::json_out::write(w, &j, pretty).map_err(io)
        }
    }
}

/// The settings of a project.binary, read as the header's engine version. Refused
/// when they would not encode back to the same bytes.
fn project_settings(o: &Opened) -> Result<godot::project_binary::Settings> {
    let settings = godot::project_binary::decode(&o.data, Some(version_of(&o.settings)))?;
    if !godot::project_binary::round_trips(&o.data, &settings) {
        return Err(Error::msg(format!(
            "this project.binary read as {} does not encode back to the same bytes; \
             try the other engine version (--as godot3 or godot4)",
            o.settings.format()
        )));
    }
    Ok(settings)
}

pub(super) fn value<'a>(o: &'a Opened, g: &GodotSettings) -> Result<crate::open::Value<'a>> {
    let opts = decode_opts(o, g);
    Ok(match g.framing {
        GodotFraming::Bare => crate::open::Value::Godot(godot::decode(&o.data, &opts)?),
        GodotFraming::StoreVar => {
            crate::open::Value::GodotFrames(framing::decode_framed_all(&o.data, &opts)?)
        }
        GodotFraming::ProjectBinary => crate::open::Value::GodotProjectBinary(project_settings(o)?),
    })
}

pub(super) fn encode_value(
    o: &Opened,
    g: &GodotSettings,
    v: &crate::open::Value<'_>,
) -> Result<Vec<u8>> {
    let eopts = GEnc::new(version_of(&o.settings));
    let mut out = Vec::new();
    match (g.framing, v) {
        (GodotFraming::Bare, crate::open::Value::Godot(x)) => godot::encode_into(x, &eopts, &mut out)?,
        (GodotFraming::StoreVar, crate::open::Value::GodotFrames(xs)) => {
            for x in xs {
                framing::encode_framed_into(x, &eopts, &mut out)?;
            }
        }
        (GodotFraming::ProjectBinary, crate::open::Value::GodotProjectBinary(s)) => {
            let mut s = s.clone();
            s.version = version_of(&o.settings);
            out = godot::project_binary::encode(&s)?;
        }
        _ => {
            return Err(Error::msg(
                "a store_var file holds a list of values (Value::GodotFrames), a bare file one (Value::Godot), a project.binary its settings (Value::GodotProjectBinary)",
            ))
        }
    }
    Ok(out)
}

pub(super) fn inspect(o: &Opened, tree: &mut TreeBuilder) -> Result<()> {
    let godot = match &o.settings {
        Settings::Godot3(g) | Settings::Godot4(g) => Some(g),
        _ => None,
    };
    if godot.is_some_and(|g| g.framing == GodotFraming::ProjectBinary) {
        let settings = project_settings(o)?;
        tree.open("project.binary", "ECFG", Some(settings.entries.len()));
        for (key, value) in &settings.entries {
            godot::inspect::value(value, key, settings.version, tree);
        }
        tree.close();
        return Ok(());
    }
    godot::inspect::fill(&o.data, version_of(&o.settings), tree)
}

pub(super) fn encode(
    g: &GodotSettings,
    v: Version,
    json_text: &[u8],
    opts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let doc = super::parse_json(json_text, opts)?;
    let eopts = GEnc::new(v);
    let mut out = Vec::new();
    match g.framing {
        GodotFraming::Bare => {
            let value = json::from_json(&doc, v)?;
            godot::encode_into(&value, &eopts, &mut out)?;
        }
        GodotFraming::ProjectBinary => {
            let settings = godot::project_binary::from_json(&doc, v)?;
            out = godot::project_binary::encode(&settings)?;
        }
        GodotFraming::StoreVar => {
            let serde_json::Value::Array(items) = doc else {
                return Err(Error::msg(
                    "a store_var file's JSON is an array of its values (one per store_var)",
                ));
            };
            for (i, item) in items.iter().enumerate() {
                let value = json::from_json(item, v).map_err(|e| e.in_index(i))?;
                framing::encode_framed_into(&value, &eopts, &mut out)?;
            }
        }
    }
    Ok(out)
}

/// The most type ids a Variant header may name: Godot 3 has 27 types, Godot 4 has 39.
fn type_count(v: Version) -> u32 {
    match v {
        Version::V3 => 27,
        Version::V4 => 39,
    }
}

/// True when the four bytes at `at` read as a Variant header of `v` (a known type id,
/// no flag bits the version does not use).
fn header_at(data: &[u8], at: usize, v: Version) -> bool {
    let Some(h) = data.get(at..at + 4) else {
        return false;
    };
    let h = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
    (h & 0xFF) < type_count(v) && h < 0x0100_0000 && (h & 0xFF00) == 0
}

/// A truncated or damaged Godot file: the reading whose first header fits and whose
/// error comes furthest into the bytes.
pub(super) fn diagnose(data: &[u8]) -> Option<(Found, Error)> {
    let mut best: Option<(Found, Error)> = None;
    for v in [Version::V3, Version::V4] {
        let opts = DecodeOptions::new(v);
        let format = if v == Version::V3 {
            Format::Godot3
        } else {
            Format::Godot4
        };
        let mut consider = |layout: Layout, err: Error| {
            let found = Found {
                format,
                evidence: Evidence::Content,
                layout,
                records: None,
            };
            let better = match &best {
                None => true,
                Some((_, e)) => err.offset().unwrap_or(0) > e.offset().unwrap_or(0),
            };
            if better {
                best = Some((found, err));
            }
        };
        // store_var: a length, then a header; a length past the end is still a
        // truncated save when the header after it fits.
        if data.len() >= 8 && header_at(data, 4, v) {
            if let Err(e) = framing::decode_framed_all(data, &opts) {
                consider(Layout::GodotFramed, e);
            }
        }
        if header_at(data, 0, v) && data.len() >= 8 {
            if let Err(e) = godot::decode(data, &opts) {
                // A bare reading must get past its first value's header.
                if e.offset().unwrap_or(0) >= 8 {
                    consider(Layout::GodotBare, e);
                }
            }
        }
    }
    best
}
