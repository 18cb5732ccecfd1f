//! O3DE: the document as written, checked by a registry beside it when it knows the
//! file's class.

use super::super::settings::{O3deLayout, O3deSettings};
use super::super::side::SideFiles;
use super::super::{OpenOptions, Opened, Resolved, Settings};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_o3de::doc::{Document, Layout, Syntax, MAX_DEPTH};
use gamewire_o3de::envelope::Envelope;
use gamewire_o3de::layout::Style;
use gamewire_o3de::recognize::{self, FileKind};
use gamewire_o3de::{self as o3de, LoadOptions, Processing, Registry};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The registry file looked for beside an O3DE file and in its parent folders.
pub const REGISTRY_NAME: &str = "o3de-registry.json";

/// The registry an O3DE file is read with, by the one rule of every front end (`decode
/// FILE`, `inspect`, `decode o3de`, `o3de load`): `schema` when given, else
/// `o3de-registry.json` beside `file` or in the nearest parent folder holding one, merged
/// over the bundled core types (a class of the file replaces the bundled class of its
/// name or type id); with the registry's path. `None` when there is neither: the
/// caller that types anyway (`o3de load`) uses [`Registry::bundled`]. What the registry
/// types in the file is [`gamewire_o3de::typing::typing`]'s.
pub fn o3de_registry(
    side: &SideFiles,
    file: Option<&Path>,
    schema: Option<&Path>,
) -> Result<Option<(Arc<Registry>, std::path::PathBuf)>> {
    let path = match schema {
        Some(p) => p.to_path_buf(),
        None => match side.find(file, &[REGISTRY_NAME.to_owned()]) {
            Some(p) => p,
            None => return Ok(None),
        },
    };
    Ok(Some((registry(side, &path)?, path)))
}

/// The registry at `path`, over the bundled core types, parsed once per run.
pub(in crate::open) fn registry(side: &SideFiles, path: &Path) -> Result<Arc<Registry>> {
    side.parsed(path, "o3de registry", |side, p| {
        // Named as what it is: "cannot read registry PATH: not a regular file".
        let data = side.read(p).map_err(|e| {
            match std::error::Error::source(&e).and_then(|s| s.downcast_ref::<std::io::Error>()) {
                Some(io) => Error::io(
                    format!("cannot read registry {}", p.display()),
                    std::io::Error::new(io.kind(), io.to_string()),
                ),
                None => e,
            }
        })?;
        Registry::from_slice_over_bundled(&data)
            .map_err(|e| Error::msg(format!("{}: {e}", p.display())))
    })
}

/// Parses an O3DE file as O3DE's reader of its kind does (trailing commas in settings
/// registry files), with a clear error for ObjectStream XML.
pub(in crate::open) fn parse<'a>(data: &'a [u8], name: Option<&str>) -> Result<Document<'a>> {
    if recognize::recognize(data, name) == Some(FileKind::ObjectStreamXml) {
        return Err(Error::msg(
            "this is O3DE ObjectStream XML (the older serialization), not JSON: gamewire \
             reads O3DE's JSON serialization only",
        ));
    }
    Document::parse_with(data, MAX_DEPTH, Syntax::of(data, name))
}

/// The settings' layout as the O3DE crate reads and writes it.
fn style(s: &O3deSettings) -> Style {
    Style {
        compact: s.layout == O3deLayout::Compact,
        indent: s.indent.clone().unwrap_or_else(|| "    ".to_owned()),
        newline: s.newline.clone().unwrap_or_else(|| "\n".to_owned()),
        final_newline: s.final_newline,
        gaps: s.gaps.clone(),
        texts: s.texts.clone(),
    }
}

/// Records a file's layout in its settings.
fn keep_style(s: &mut O3deSettings, style: Style) {
    s.layout = if style.compact {
        O3deLayout::Compact
    } else {
        O3deLayout::Pretty
    };
    s.final_newline = style.final_newline;
    s.indent = (style.indent != "    " && !style.compact).then_some(style.indent);
    s.newline = (style.newline != "\n").then_some(style.newline);
    s.gaps = style.gaps;
    s.texts = style.texts;
}

pub(in crate::open) fn settings(
    data: &[u8],
    path: Option<&Path>,
    name: Option<&str>,
    side: &SideFiles,
    opts: &OpenOptions,
) -> Result<(Settings, Resolved, Vec<String>)> {
    let _ = opts;
    let mut s = O3deSettings::pretty(data.ends_with(b"\n"));
    let mut resolved = Resolved::default();
    let mut notes = Vec::new();
    // Checked by the registry beside the file (the one rule: `o3de_registry`) when it
    // types the file: an envelope of a class it knows, or a prefab's components.
    if let Some((reg, reg_path)) = o3de_registry(side, path, None)? {
        let typing = o3de::typing::typing(&reg, data);
        if let o3de::typing::Typing::Prefab = typing {
            // The document is written as it was; the check's summary is a note
            // (`o3de load` gives the whole report).
            let mut json = o3de::parse_json(data)?;
            let report = o3de::prefab::load_prefab(&reg, &mut json, false);
            // Said when there is something to tell, as for an envelope's load report.
            if !report.issues.is_empty() || !report.kept.is_empty() || !report.lost.is_empty() {
                notes.push(format!("{}: {}", reg_path.display(), report.summary()));
            }
            resolved.registry = Some(reg.clone());
        }
        if let o3de::typing::Typing::Envelope { class, ty } = typing {
            let (json, dups) = o3de::parse_json_keeping_duplicates(data)?;
            if let Some(env) = Envelope::from_json(&json)? {
                let (_, report) = o3de::load_with_duplicates(
                    &reg,
                    &ty,
                    env.class_data,
                    &dups.rebase("/ClassData"),
                    &LoadOptions::default(),
                );
                if report.processing() == Processing::Halted {
                    return Err(Error::msg(format!(
                        "the registry {} halted loading {class}: {}",
                        reg_path.display(),
                        report.to_json()
                    )));
                }
                if report.outcome() != o3de::Outcome::Success {
                    notes.push(format!("load report: {}", report.to_json()));
                }
            }
            s.registry = Some(super::side_ref(side, &reg_path)?);
            resolved.registry = Some(reg);
        }
    }
    if recognize::recognize(data, name) == Some(FileKind::ObjectStreamXml) {
        // Shown by inspect as what it is; decoding it says why it cannot be.
        return Ok((Settings::O3de(s), resolved, notes));
    }
    // Everything plain JSON does not hold (indentation, line endings, comments,
    // trailing commas, number forms) is kept in the settings, to write it back.
    let doc = parse(data, name)?;
    refuse_wide_integers(&doc)?;
    keep_style(&mut s, Style::detect(data, &doc)?);
    Ok((Settings::O3de(s), resolved, notes))
}

/// A gamewire JSON document holds integers of at most 64 bits (its reader refuses wider
/// ones), so a file with a wider integer literal is refused when it is opened, with its
/// text, rather than decoded to a document that cannot be encoded back.
fn refuse_wide_integers(doc: &Document<'_>) -> Result<()> {
    use gamewire_o3de::doc::Node;
    let mut stack = vec![&doc.root];
    while let Some(n) = stack.pop() {
        match n {
            Node::Number(t) => {
                let integer = !t.contains(['.', 'e', 'E']);
                if integer && t.parse::<i64>().is_err() && t.parse::<u64>().is_err() {
                    let shown: String = t.chars().take(40).collect();
                    return Err(Error::msg(format!(
                        "the integer {shown}{} is outside the 64-bit range a gamewire JSON \
                         document holds (-9223372036854775808 to 18446744073709551615)",
                        if t.len() > 40 { "…" } else { "" }
                    )));
                }
            }
            Node::Array(items) => stack.extend(items.iter()),
            Node::Object(members) => stack.extend(members.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    Ok(())
}

fn layout(s: &O3deSettings, pretty: bool) -> Layout {
    match (s.layout, pretty) {
        (O3deLayout::Pretty, true) => Layout::Pretty,
        _ => Layout::Compact,
    }
}

pub(in crate::open) fn write_json(
    o: &Opened,
    s: &O3deSettings,
    w: &mut dyn Write,
    pretty: bool,
) -> Result<()> {
    let name = o
        .path
        .as_deref()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let mut doc = parse(&o.data, name.as_deref())?;
    // The data alone: the file's final line break is a setting.
    doc.final_newline = false;
    doc.write_to(layout(s, pretty), w)
        .map_err(|e| Error::msg(format!("cannot write the JSON: {e}")))?;
    Ok(())
}

pub(in crate::open) fn value(o: &Opened) -> Result<crate::open::Value<'_>> {
    let name = o
        .path
        .as_deref()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    Ok(crate::open::Value::O3de(parse(&o.data, name.as_deref())?))
}

pub(in crate::open) fn encode_value(s: &O3deSettings, doc: &Document<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    style(s)
        .write_to(&doc.root, &mut out)
        .map_err(|e| Error::msg(format!("cannot write: {e}")))?;
    Ok(out)
}

pub(in crate::open) fn inspect(o: &Opened, tree: &mut TreeBuilder) -> Result<()> {
    let name = o
        .path
        .as_deref()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    if let Some(reg) = o.resolved.registry.as_deref() {
        let json = o3de::parse_json(&o.data)?;
        if let Some(env) = Envelope::from_json(&json).ok().flatten() {
            if let Ok(ty) = reg.parse_type(&env.class_name) {
                o3de::inspect::fill_typed(reg, &ty, &env.class_name, &env.class_data, tree);
                return Ok(());
            }
        }
        if o3de::prefab::is_prefab(&json) {
            return o3de::inspect::fill_prefab(reg, &o.data, name.as_deref(), tree);
        }
    }
    o3de::inspect::fill_untyped(&o.data, name.as_deref(), tree)
}

/// Writes the (possibly edited) document `json_text` in the layout the settings keep:
/// the file it was decoded from, byte for byte, when nothing was edited.
pub(in crate::open) fn encode(s: &O3deSettings, json_text: &[u8]) -> Result<Vec<u8>> {
    let doc = Document::parse_with(json_text, MAX_DEPTH, Syntax::SETTINGS)?;
    let mut out = Vec::with_capacity(json_text.len());
    style(s)
        .write_to(&doc.root, &mut out)
        .map_err(|e| Error::msg(format!("cannot write: {e}")))?;
    Ok(out)
}
