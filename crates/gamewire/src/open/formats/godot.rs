//! Godot 3 and 4: bare values and `store_var` frames.

use super::super::settings::{
    GodotCipher, GodotContainer, GodotFraming, GodotKeptBlock, GodotSettings,
};
use super::super::{EncodeOptions, OpenError, OpenOptions, Opened, Resolved, Secret, Settings};
use crate::{Detection, Evidence, Format, Found, Layout};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_godot::container::{self, compressed, encrypted};
use gamewire_godot::{self as godot, framing, json, DecodeOptions, EncodeOptions as GEnc, Version};
use std::io::Write;
use std::path::Path;

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

pub(super) fn decode_opts(o: &Opened, g: &GodotSettings) -> DecodeOptions {
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
        // (Checked through the tape, which builds no tree and fails as the decoder does.)
        _ => match bare_check(data, &dopts) {
            Ok(()) => GodotFraming::Bare,
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
        container: None,
    };
    let s = match found.format {
        Format::Godot3 => Settings::Godot3(g),
        _ => Settings::Godot4(g),
    };
    Ok((s, Resolved::default(), Vec::new()))
}

/// Checks that `data` is one bare Variant, as [`godot::decode`] would, without building
/// its tree.
fn bare_check(data: &[u8], opts: &DecodeOptions) -> Result<()> {
    if data.len() <= godot::tape::MAX_INPUT {
        godot::tape::Tape::with_options(data, opts).map(|_| ())
    } else {
        godot::decode(data, opts).map(|_| ())
    }
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
        GodotFraming::Text => {
            let text = std::str::from_utf8(&o.data).map_err(|e| {
                Error::msg_at(
                    e.valid_up_to(),
                    "the text inside the container is not UTF-8",
                )
            })?;
            gamewire_core::json_out::write(w, &text, pretty).map_err(io)
        }
        GodotFraming::Bytes => {
            let b64 = gamewire_core::base64::encode(&o.data);
            gamewire_core::json_out::write(w, &b64, pretty).map_err(io)
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
        // Not Variants: the text as a String, the bytes as a PackedByteArray.
        GodotFraming::Text => crate::open::Value::Godot(godot::Value::String(
            String::from_utf8_lossy(&o.data).as_ref().into(),
        )),
        GodotFraming::Bytes => {
            crate::open::Value::Godot(godot::Value::PackedByteArray(o.data.clone()))
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
        (GodotFraming::Text, crate::open::Value::Godot(godot::Value::String(t))) => {
            out.extend_from_slice(t.as_str().as_bytes())
        }
        (GodotFraming::Bytes, crate::open::Value::Godot(godot::Value::PackedByteArray(b))) => {
            out.extend_from_slice(b)
        }
        (GodotFraming::Text | GodotFraming::Bytes, _) => {
            return Err(Error::msg(
                "text inside a container is a String value, bytes a PackedByteArray",
            ))
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
    wrap(g, out, o.opts.secret.as_ref())
}

pub(super) fn inspect(o: &Opened, tree: &mut TreeBuilder) -> Result<()> {
    let g = match &o.settings {
        Settings::Godot3(g) | Settings::Godot4(g) => g,
        _ => return Err(Error::msg("not a Godot file")),
    };
    if let Some(c) = &g.container {
        tree.note(&c.describe());
    }
    match g.framing {
        GodotFraming::Text => {
            let text = String::from_utf8_lossy(&o.data);
            tree.leaf(
                "text",
                "String",
                &gamewire_core::inspect::short_str(&text, 200),
            );
            Ok(())
        }
        GodotFraming::Bytes => {
            tree.leaf(
                "bytes",
                "PackedByteArray",
                &format!("{} bytes", o.data.len()),
            );
            Ok(())
        }
        GodotFraming::ProjectBinary => {
            let settings = project_settings(o)?;
            tree.open("project.binary", "ECFG", Some(settings.entries.len()));
            for (key, value) in &settings.entries {
                godot::inspect::value(value, key, settings.version, tree);
            }
            tree.close();
            Ok(())
        }
        _ => godot::inspect::fill(&o.data, version_of(&o.settings), tree),
    }
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
        GodotFraming::Text => {
            let serde_json::Value::String(t) = doc else {
                return Err(Error::msg("text inside a container is one JSON string"));
            };
            out = t.into_bytes();
        }
        GodotFraming::Bytes => {
            let serde_json::Value::String(t) = doc else {
                return Err(Error::msg(
                    "bytes inside a container are one base64 JSON string",
                ));
            };
            out = gamewire_core::base64::decode(&t)?;
        }
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
    wrap(g, out, opts.secret.as_ref())
}

fn key_of(secret: &Secret) -> Result<encrypted::Key> {
    match secret {
        Secret::Password(p) => Ok(encrypted::Key::from_password(p)),
        Secret::Key(k) => encrypted::Key::from_bytes(k),
    }
}

fn no_secret(what: &str) -> Error {
    Error::msg(format!(
        "{what} is an encrypted Godot file (GDEC): give its password or key \
         (--password TEXT or --key HEX, the GAMEWIRE_GODOT_PASSWORD or GAMEWIRE_GODOT_KEY \
         environment variable, or password=/key= in Python)"
    ))
}

/// The file's bytes from its (edited) plaintext: wrapped in its container as it was
/// read (compressed blocks whose plaintext is unchanged are written as they were).
pub(crate) fn file_bytes(o: &Opened, g: &GodotSettings) -> Result<Vec<u8>> {
    wrap(g, o.data.clone(), o.opts.secret.as_ref())
}

/// Wraps plaintext in the container `g` names (none: as it is).
fn wrap(g: &GodotSettings, plain: Vec<u8>, secret: Option<&Secret>) -> Result<Vec<u8>> {
    match &g.container {
        None => Ok(plain),
        Some(GodotContainer::Encrypted { cipher, iv }) => {
            let key = key_of(secret.ok_or_else(|| no_secret("the file to write"))?)?;
            let layout = match cipher {
                GodotCipher::Aes256Ecb => encrypted::Layout::V3,
                GodotCipher::Aes256Cfb => encrypted::Layout::V4 {
                    iv: match iv {
                        Some(h) => {
                            gamewire_core::hex::from_hex_array::<16>(h).ok_or_else(|| {
                                Error::msg(format!("the IV {h:?} is not 32 hex digits"))
                            })?
                        }
                        None => encrypted::random_iv(),
                    },
                },
            };
            Ok(encrypted::encrypt(&plain, &key, &layout))
        }
        Some(GodotContainer::Compressed {
            mode,
            block_size,
            kept,
        }) => {
            let m = compressed::Mode::from_name(mode).ok_or_else(|| {
                Error::msg(format!(
                    "unknown compression mode {mode:?}: use fastlz, deflate, zstd or gzip"
                ))
            })?;
            let original = |i: usize, plain: &[u8]| -> Option<Vec<u8>> {
                let k = kept.iter().find(|k| k.block == i)?;
                if k.md5 != md5_hex(plain) {
                    return None;
                }
                gamewire_core::base64::decode(&k.data).ok()
            };
            compressed::write(&plain, m, *block_size, &original)
        }
    }
}

fn md5_hex(data: &[u8]) -> String {
    use md5::Digest;
    gamewire_core::hex::to_hex(&md5::Md5::digest(data))
}

/// Opens an encrypted or compressed Godot file: the plaintext inside is read as Godot
/// values (or, when it holds none, as text or bytes), with the container in the
/// settings.
pub(super) fn open_container(
    data: Vec<u8>,
    path: Option<&Path>,
    name: Option<&str>,
    opts: &OpenOptions,
) -> std::result::Result<Opened, OpenError> {
    let fail = |format: Format, error: Error| OpenError::Failed {
        found: Some(Found::new(format, Evidence::Magic)),
        error,
    };
    let mut original = None;
    let (plain, c, hint) = match container::sniff(&data) {
        Some(container::Kind::Encrypted) => {
            let hint = match encrypted::probe_layout(&data) {
                Ok(encrypted::Layout::V3) => Format::Godot3,
                _ => Format::Godot4,
            };
            let secret = opts
                .secret
                .as_ref()
                .ok_or_else(|| fail(hint, no_secret(name.unwrap_or("this"))))?;
            let key = key_of(secret).map_err(|e| fail(hint, e))?;
            let d = encrypted::decrypt(&data, &key).map_err(|e| fail(hint, e))?;
            let c = match d.layout {
                encrypted::Layout::V3 => GodotContainer::Encrypted {
                    cipher: GodotCipher::Aes256Ecb,
                    iv: None,
                },
                encrypted::Layout::V4 { iv } => GodotContainer::Encrypted {
                    cipher: GodotCipher::Aes256Cfb,
                    iv: Some(gamewire_core::hex::to_hex(&iv)),
                },
            };
            (d.plaintext, c, hint)
        }
        _ => {
            let r = compressed::read(&data, &opts.limits).map_err(|e| fail(Format::Godot4, e))?;
            let c = GodotContainer::Compressed {
                mode: r.mode.name().into(),
                block_size: r.block_size,
                kept: Vec::new(),
            };
            original = Some(data);
            (r.plaintext, c, Format::Godot4)
        }
    };
    // What the plaintext is: Godot values (the version named, found, or the
    // container's), else text or bytes.
    let found = match opts.as_format {
        Some(f @ (Format::Godot3 | Format::Godot4)) => Some(Found::new(f, Evidence::Given)),
        Some(f) => {
            return Err(fail(
                hint,
                Error::msg(format!("an encrypted or compressed Godot file is not {f}")),
            ))
        }
        None => match crate::identify(&plain, name) {
            Detection::Found(f) if matches!(f.format, Format::Godot3 | Format::Godot4) => Some(f),
            Detection::Ambiguous(fits) => fits
                .iter()
                .find(|f| f.format == hint)
                .or_else(|| {
                    fits.iter()
                        .find(|f| matches!(f.format, Format::Godot3 | Format::Godot4))
                })
                .cloned(),
            _ => None,
        },
    };
    let (found, mut g) = match found {
        Some(found) => {
            let (s, _, _) = settings(&plain, &found, opts).map_err(|e| fail(found.format, e))?;
            let g = match s {
                Settings::Godot3(g) | Settings::Godot4(g) => g,
                _ => unreachable!("Godot settings"),
            };
            (found, g)
        }
        None => {
            let framing = if std::str::from_utf8(&plain).is_ok() {
                GodotFraming::Text
            } else {
                GodotFraming::Bytes
            };
            let g = GodotSettings {
                framing,
                allow_objects: false,
                container: None,
            };
            (Found::new(hint, Evidence::Magic), g)
        }
    };
    g.container = Some(c);
    let settings = match found.format {
        Format::Godot3 => Settings::Godot3(g),
        _ => Settings::Godot4(g),
    };
    Ok(Opened {
        data: plain,
        path: path.map(Path::to_path_buf),
        found,
        settings,
        resolved: Resolved::default(),
        opts: opts.clone(),
        notes: Vec::new(),
        original,
    })
}

/// `settings` (of a compressed Godot file read from `original`) with the blocks that
/// gamewire's compressor does not give back as they were: each block is compressed again
/// and compared. Settings of anything else come back as they are.
pub(super) fn with_kept_blocks(
    settings: &Settings,
    original: &[u8],
    limits: &gamewire_core::Limits,
) -> Settings {
    let mut s = settings.clone();
    let (Settings::Godot3(g) | Settings::Godot4(g)) = &mut s else {
        return s;
    };
    let Some(GodotContainer::Compressed { kept, .. }) = &mut g.container else {
        return s;
    };
    // The file was read with these bytes already: reading it again cannot fail.
    let Ok(r) = compressed::read(original, limits) else {
        return settings.clone();
    };
    kept.clear();
    for (i, (plain, range)) in compressed::block_plaintexts(&r).zip(&r.blocks).enumerate() {
        let orig = &original[range.clone()];
        if compressed::compress_block(r.mode, plain).ok().as_deref() != Some(orig) {
            kept.push(GodotKeptBlock {
                block: i,
                md5: md5_hex(plain),
                data: gamewire_core::base64::encode(orig),
            });
        }
    }
    s
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
