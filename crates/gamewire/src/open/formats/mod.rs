//! Each format's part of [`super::open`]: settings found from the bytes and the side
//! files, JSON written, inspect trees, and encoding with settings.

#[cfg(feature = "godot")]
mod godot;
#[cfg(feature = "kingsisle")]
pub(super) mod kingsisle;
#[cfg(feature = "o3de")]
pub(super) mod o3de;
#[cfg(feature = "resonite")]
mod resonite;
#[cfg(feature = "zeze")]
mod zeze;

use super::side::{normalize, SideFiles};
use super::{EncodeOptions, OpenOptions, Opened, Resolved, Settings, SideRef};
use crate::{Format, Found};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A format that is not built in.
#[allow(dead_code)]
fn not_built(f: Format) -> Error {
    Error::msg(format!("{f} support is not built into this gamewire"))
}

/// Opens an encrypted or compressed Godot file (the plaintext read as Godot values).
#[cfg(feature = "godot")]
pub(super) fn open_godot_container(
    data: Vec<u8>,
    path: Option<&Path>,
    name: Option<&str>,
    opts: &OpenOptions,
) -> std::result::Result<super::Opened, super::OpenError> {
    godot::open_container(data, path, name, opts)
}

/// A Godot file's bytes from its (edited) plaintext, wrapped in its container.
#[cfg(feature = "godot")]
pub(super) fn godot_file_bytes(o: &Opened, g: &super::settings::GodotSettings) -> Result<Vec<u8>> {
    godot::file_bytes(o, g)
}

/// `settings` with the blocks of the compressed file `original` that gamewire's
/// compressor does not give back as they were.
#[cfg(feature = "godot")]
pub(super) fn godot_kept_blocks(
    settings: &Settings,
    original: &[u8],
    limits: &gamewire_core::Limits,
) -> Settings {
    godot::with_kept_blocks(settings, original, limits)
}

/// The options Godot values of `o` are read with.
#[cfg(feature = "godot")]
pub(super) fn godot_decode_options(
    o: &Opened,
    g: &super::GodotSettings,
) -> gamewire_godot::DecodeOptions {
    godot::decode_opts(o, g)
}

/// The settings of a file recognised as `found`.
pub(super) fn settings(
    data: &[u8],
    path: Option<&Path>,
    name: Option<&str>,
    found: &Found,
    side: &SideFiles,
    opts: &OpenOptions,
) -> Result<(Settings, Resolved, Vec<String>)> {
    match found.format {
        #[cfg(feature = "godot")]
        Format::Godot3 | Format::Godot4 => godot::settings(data, found, opts),
        #[cfg(feature = "kingsisle")]
        Format::KingsIsle => kingsisle::settings(data, path, name, side, opts.types.as_deref()),
        #[cfg(feature = "zeze")]
        Format::Zeze => zeze::settings(found, path, name, side),
        #[cfg(feature = "resonite")]
        Format::Resonite => resonite::settings(data, name, opts),
        #[cfg(feature = "o3de")]
        Format::O3de => o3de::settings(data, path, name, side, opts),
        #[allow(unreachable_patterns)]
        f => {
            let _ = (data, path, name, side, opts);
            Err(not_built(f))
        }
    }
}

/// Parses the side files `settings` name (at the paths they hold).
pub(super) fn resolve(settings: &Settings, side: &SideFiles) -> Result<Resolved> {
    #[allow(unused_mut)]
    let mut r = Resolved::default();
    match settings {
        #[cfg(feature = "kingsisle")]
        Settings::KingsIsle(k) => {
            r.types = Some(kingsisle::types(side, Path::new(&k.types.path), &k.game)?);
        }
        #[cfg(feature = "zeze")]
        Settings::Zeze(z) => {
            if let Some(s) = &z.solution {
                r.solution = Some(zeze::solution(side, Path::new(&s.path))?);
            }
        }
        #[cfg(feature = "o3de")]
        Settings::O3de(o) => {
            if let Some(s) = &o.registry {
                r.registry = Some(o3de::registry(side, Path::new(&s.path))?);
            }
        }
        _ => {}
    }
    let _ = side;
    Ok(r)
}

/// Writes the opened file's JSON.
pub(super) fn write_json(o: &Opened, w: &mut dyn Write, pretty: bool) -> Result<()> {
    match &o.settings {
        #[cfg(feature = "godot")]
        Settings::Godot3(g) | Settings::Godot4(g) => godot::write_json(o, g, w, pretty),
        #[cfg(feature = "kingsisle")]
        Settings::KingsIsle(k) => kingsisle::write_json(o, k, w, pretty),
        #[cfg(feature = "zeze")]
        Settings::Zeze(z) => zeze::write_json(o, z, w, pretty),
        #[cfg(feature = "resonite")]
        Settings::Resonite(_) => resonite::write_json(o, w, pretty),
        #[cfg(feature = "o3de")]
        Settings::O3de(s) => o3de::write_json(o, s, w, pretty),
        #[allow(unreachable_patterns)]
        s => {
            let _ = (w, pretty);
            Err(not_built(s.format()))
        }
    }
}

/// The opened file's value.
pub(super) fn value(o: &Opened) -> Result<super::Value<'_>> {
    match &o.settings {
        #[cfg(feature = "godot")]
        Settings::Godot3(g) | Settings::Godot4(g) => godot::value(o, g),
        #[cfg(feature = "kingsisle")]
        Settings::KingsIsle(k) => kingsisle::value(o, k),
        #[cfg(feature = "zeze")]
        Settings::Zeze(z) => zeze::value(o, z),
        #[cfg(feature = "resonite")]
        Settings::Resonite(_) => resonite::value(o),
        #[cfg(feature = "o3de")]
        Settings::O3de(_) => o3de::value(o),
        #[allow(unreachable_patterns)]
        s => Err(not_built(s.format())),
    }
}

/// Writes a value with the opened file's settings.
pub(super) fn encode_value(
    o: &Opened,
    settings: &Settings,
    v: &super::Value<'_>,
) -> Result<Vec<u8>> {
    #[allow(unused_imports)]
    use super::Value as V;
    match (settings, v) {
        #[cfg(feature = "godot")]
        (
            Settings::Godot3(g) | Settings::Godot4(g),
            V::Godot(_) | V::GodotFrames(_) | V::GodotProjectBinary(_),
        ) => godot::encode_value(o, g, v),
        #[cfg(feature = "kingsisle")]
        (Settings::KingsIsle(k), V::KingsIsle(docs)) => kingsisle::encode_value(o, k, docs),
        #[cfg(feature = "zeze")]
        (Settings::Zeze(z), V::Zeze(_) | V::ZezeTyped(_) | V::ZezeFrames(_)) => {
            zeze::encode_value(o, z, v)
        }
        #[cfg(feature = "resonite")]
        (Settings::Resonite(r), V::Resonite(d)) => resonite::encode_value(r, d.document()),
        #[cfg(feature = "o3de")]
        (Settings::O3de(s), V::O3de(doc)) => o3de::encode_value(s, doc),
        (s, _) => Err(Error::msg(format!(
            "this value is not a {} value; write it with its own file's settings",
            s.format()
        ))),
    }
}

/// Fills the inspect tree of the opened file.
pub(super) fn inspect(o: &Opened, tree: &mut TreeBuilder) -> Result<()> {
    match &o.settings {
        #[cfg(feature = "godot")]
        Settings::Godot3(_) | Settings::Godot4(_) => godot::inspect(o, tree),
        #[cfg(feature = "kingsisle")]
        Settings::KingsIsle(k) => kingsisle::inspect(o, k, tree),
        #[cfg(feature = "zeze")]
        Settings::Zeze(z) => zeze::inspect(o, z, tree),
        #[cfg(feature = "resonite")]
        Settings::Resonite(_) => resonite::inspect(o, tree),
        #[cfg(feature = "o3de")]
        Settings::O3de(_) => o3de::inspect(o, tree),
        #[allow(unreachable_patterns)]
        s => {
            let _ = tree;
            Err(not_built(s.format()))
        }
    }
}

/// Encodes the JSON text of a file's data with its settings.
pub(super) fn encode(
    settings: &Settings,
    resolved: &Resolved,
    json: &[u8],
    json_path: Option<&Path>,
    opts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let _ = (resolved, json_path);
    match settings {
        #[cfg(feature = "godot")]
        Settings::Godot3(g) => godot::encode(g, gamewire_godot::Version::V3, json, opts),
        #[cfg(feature = "godot")]
        Settings::Godot4(g) => godot::encode(g, gamewire_godot::Version::V4, json, opts),
        #[cfg(feature = "kingsisle")]
        Settings::KingsIsle(k) => kingsisle::encode(k, resolved, json, opts),
        #[cfg(feature = "zeze")]
        Settings::Zeze(z) => zeze::encode(z, resolved, json, opts),
        #[cfg(feature = "resonite")]
        Settings::Resonite(r) => resonite::encode(r, json, opts),
        #[cfg(feature = "o3de")]
        Settings::O3de(s) => o3de::encode(s, json),
        #[allow(unreachable_patterns)]
        s => {
            let _ = (json, opts);
            Err(not_built(s.format()))
        }
    }
}

/// Parses JSON text strictly (integers past 64 bits and repeated keys are errors,
/// named by line and column).
#[allow(dead_code)]
pub(super) fn parse_json(json: &[u8], opts: &EncodeOptions) -> Result<serde_json::Value> {
    gamewire_core::json_text::parse(
        json,
        &gamewire_core::json_text::TextOptions::new(super::MAX_JSON_DEPTH)
            .last_key_wins(opts.last_key_wins),
    )
    .map_err(|e| Error::msg(e.to_string()))
}

/// Settings from a `"$gamewire"` header: the typed form, or the list of command-line
/// options older versions wrote (only the options that name settings are read; side
/// files are then looked for by name).
pub(super) fn header_settings(h: serde_json::Value) -> Result<Settings> {
    if h.get("encode").is_some() {
        return legacy_header(&h);
    }
    serde_json::from_value(h).map_err(|e| Error::msg(format!("the \"$gamewire\" header: {e}")))
}

fn legacy_header(h: &serde_json::Value) -> Result<Settings> {
    use super::settings::*;
    if let Some(extra) = h
        .as_object()
        .and_then(|o| o.keys().find(|k| *k != "format" && *k != "encode"))
    {
        return Err(Error::msg(format!(
            "the \"$gamewire\" header holds both an older \"encode\" list and {extra:?}: \
             one or the other"
        )));
    }
    let format = h
        .get("format")
        .and_then(|f| f.as_str())
        .and_then(Format::from_name)
        .ok_or_else(|| Error::msg("the \"$gamewire\" header names no format gamewire knows"))?;
    let args: Vec<&str> = h
        .get("encode")
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    let mut framed = false;
    let mut frames = false;
    let mut legacy = false;
    let mut types = None;
    let mut solution = None;
    let mut bean = None;
    let mut compression = None;
    let mut it = args.iter();
    // Only the file's name of a side file: an old header's absolute path is not trusted
    // to choose what is read; the file is looked for beside the JSON instead.
    let side = |p: &str| SideRef {
        path: Path::new(p)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        sha256: String::new(),
    };
    while let Some(a) = it.next() {
        let mut value = || {
            it.next().copied().ok_or_else(|| {
                Error::msg(format!("the old \"$gamewire\" header's {a} has no value"))
            })
        };
        match *a {
            "--framed" => framed = true,
            "--array" => {}
            "--frames" => frames = true,
            "--legacy" => legacy = true,
            "-t" | "--types" => types = Some(side(value()?)),
            "--schema" => solution = Some(side(value()?)),
            "--bean" => bean = Some(value()?.to_owned()),
            "--compression" => compression = Some(value()?.to_owned()),
            other => {
                return Err(Error::msg(format!(
                    "the old \"$gamewire\" header holds {other:?}, which is no setting \
                     gamewire reads from a header; decode the engine file again"
                )))
            }
        }
    }
    let godot = GodotSettings {
        framing: if framed {
            GodotFraming::StoreVar
        } else {
            GodotFraming::Bare
        },
        allow_objects: false,
        container: None,
    };
    Ok(match format {
        Format::Godot3 => Settings::Godot3(godot),
        Format::Godot4 => Settings::Godot4(godot),
        Format::KingsIsle => Settings::KingsIsle(KingsIsleSettings {
            file: KingsIsleFile::Bind,
            types: types.ok_or_else(|| Error::msg("the old header names no type list"))?,
            game: "wizard101".into(),
            flags: 0,
            mask: 24,
            shallow: false,
            manual_zlib: false,
        }),
        Format::Zeze => Settings::Zeze(ZezeSettings {
            layout: if frames {
                ZezeLayout::Frames
            } else {
                ZezeLayout::Bean
            },
            solution,
            bean,
        }),
        Format::Resonite => Settings::Resonite(ResoniteSettings {
            compression: compression.unwrap_or_else(|| "brotli".into()),
            container: if legacy {
                ResoniteContainer::Legacy
            } else {
                ResoniteContainer::Frdt
            },
        }),
        Format::O3de => Settings::O3de(O3deSettings::pretty(false)),
    })
}

/// Finds the side files a header names: relative to the JSON's folder, else relative
/// to the current folder (a document written to stdout names them from there), else by
/// name beside the JSON and in its parent folders. A file whose content differs from the one
/// decoded with is used, with a note (which a failure repeats as its likely cause).
pub(super) fn locate_side_files(
    header: &Settings,
    json_path: Option<&Path>,
    side: &SideFiles,
) -> Result<(Settings, Vec<String>)> {
    let mut s = header.clone();
    let mut notes = Vec::new();
    let base = side.start_dir(json_path);
    let kind = side_kind_of(header);
    for r in s.side_refs_mut() {
        let named = Path::new(&r.path);
        if named.is_absolute() || r.path.is_empty() {
            return Err(Error::msg(format!(
                "the \"$gamewire\" header names the side file {:?} by an absolute path; \
                 headers name side files relative to the JSON's folder",
                r.path
            )));
        }
        // A header names only files the format reads as side files (by name), so a
        // document cannot make gamewire read another file as a type list.
        let file_name = named
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !kind.1(&file_name) {
            return Err(Error::msg(format!(
                "the \"$gamewire\" header names {:?} as its {}, which is no name a {} has \
                 ({})",
                r.path, kind.0, kind.0, kind.2
            )));
        }
        let at = normalize(&base.join(named));
        // A document written to stdout names side files from the current folder.
        let from_here = normalize(&side.start_dir(None).join(named));
        let found: Option<PathBuf> = if side.exists(&at) {
            Some(at.clone())
        } else if side.exists(&from_here) {
            Some(from_here)
        } else {
            let file_name = named
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            side.find(json_path, &[file_name])
        };
        let Some(found) = found else {
            return Err(Error::msg(format!(
                "the side file {} that the \"$gamewire\" header names is not at {} (nor \
                 beside the JSON or in a parent folder): keep it beside the JSON as it \
                 was when decoded",
                r.path,
                at.display()
            )));
        };
        if !r.sha256.is_empty() {
            let now = side.sha256(&found)?;
            if now != r.sha256 {
                notes.push(format!(
                    "{} is not the file this JSON was decoded with (its content changed: \
                     SHA-256 {} where the header records {})",
                    found.display(),
                    &now[..12.min(now.len())],
                    &r.sha256[..12.min(r.sha256.len())]
                ));
            }
        }
        r.path = found.to_string_lossy().into_owned();
    }
    Ok((s, notes))
}

/// Settings fitted to the name of the file written, where the format reads its name
/// (Resonite: the extension names the compression); a note says what changed.
pub(super) fn fit_output_name(settings: &mut Settings, name: &str) -> Option<String> {
    match settings {
        #[cfg(feature = "resonite")]
        Settings::Resonite(r) => {
            let by_name = gamewire_resonite::Compression::from_file_name(name)?;
            if by_name.name() == r.compression {
                return None;
            }
            let was = std::mem::replace(&mut r.compression, by_name.name().to_owned());
            Some(format!(
                "writing {} compression, as the output's name {name} says (the JSON was \
                 decoded from a {was} file)",
                r.compression
            ))
        }
        _ => {
            let _ = name;
            None
        }
    }
}

/// What side file a header's settings name: its kind, the test on its file name, and
/// the names it may have.
fn side_kind_of(s: &Settings) -> (&'static str, fn(&str) -> bool, &'static str) {
    match s {
        Settings::KingsIsle(_) => (
            "type list",
            |n| n.ends_with("types.json") || n.ends_with("types.xml"),
            "types.json, types.xml or NAME.types.json",
        ),
        Settings::Zeze(_) => ("solution", |n| n.ends_with(".xml"), "an .xml file"),
        Settings::O3de(_) => (
            "registry",
            |n| n == "o3de-registry.json",
            "o3de-registry.json",
        ),
        _ => ("side file", |_| false, "none"),
    }
}

/// A side file found at `path`, by reference: its path and content hash.
#[allow(dead_code)]
pub(super) fn side_ref(side: &SideFiles, path: &Path) -> Result<SideRef> {
    Ok(SideRef {
        path: path.to_string_lossy().into_owned(),
        sha256: side.sha256(path)?,
    })
}

/// For bytes no format reads whole: the format they most likely are and its error (a
/// truncated or damaged save), when their first bytes fit one.
pub(super) fn diagnose(data: &[u8]) -> Option<(Found, Error)> {
    #[cfg(feature = "godot")]
    if let Some(d) = godot::diagnose(data) {
        return Some(d);
    }
    let _ = data;
    None
}
