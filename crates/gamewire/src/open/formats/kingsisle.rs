//! KingsIsle: `BINd` files, bare blobs and XML object files, with their type list.

use super::super::settings::{KingsIsleFile, KingsIsleSettings};
use super::super::side::SideFiles;
use super::super::{EncodeOptions, Opened, Resolved, Settings};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_kingsisle::{self as ki, bind, json, Document, Game, Options, TypeList};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The names a type list beside `name` may have, nearest first: `<name>.types.json`,
/// `<stem>.types.json`, `types.json`, `types.xml`.
pub(in crate::open) fn type_list_names(name: Option<&str>) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(name) = name {
        let stem = name.split('.').next().unwrap_or("");
        names.push(format!("{name}.types.json"));
        if !stem.is_empty() && stem != name {
            names.push(format!("{stem}.types.json"));
        }
    }
    names.push("types.json".into());
    names.push("types.xml".into());
    names
}

/// The type list at `path`, parsed once per run, for `game`.
pub(super) fn types(side: &SideFiles, path: &Path, game: &str) -> Result<Arc<TypeList>> {
    let game = Game::from_name(game)
        .ok_or_else(|| Error::msg(format!("unknown game {game:?}: use wizard101 or pirate101")))?;
    side.parsed(path, game_kind(game), |side, p| {
        let data = side.read(p)?;
        let mut t = TypeList::from_bytes(&data)
            .map_err(|e| Error::msg(format!("type list {}: {e}", p.display())))?;
        // As `TypeList::from_files` does: base-class properties where a dump left them out.
        t.include_bases();
        t.set_game(game);
        Ok(t)
    })
}

fn game_kind(game: Game) -> &'static str {
    if game == Game::Wizard101 {
        "kingsisle types (wizard101)"
    } else {
        "kingsisle types (pirate101)"
    }
}

/// The serializer options of a file with settings `k` (and the limits of `o`).
pub(crate) fn options(k: &KingsIsleSettings, o: Option<&Opened>) -> Options {
    let mut opts = Options {
        flags: k.flags,
        property_mask: k.mask,
        shallow: k.shallow,
        manual_zlib: k.manual_zlib,
        ..Options::default()
    };
    if let Some(o) = o {
        opts.limits = o.opts.limits;
    }
    opts
}

pub(super) fn settings(
    data: &[u8],
    path: Option<&Path>,
    name: Option<&str>,
    side: &SideFiles,
    given: Option<&Path>,
) -> Result<(Settings, Resolved, Vec<String>)> {
    let names = type_list_names(name);
    let found = given
        .map(Path::to_path_buf)
        .or_else(|| side.find(path, &names));
    let found = found.ok_or_else(|| {
        let stem = name.and_then(|n| n.split('.').next()).unwrap_or("FILE");
        Error::msg(format!(
            "a KingsIsle file needs its type list: put {stem}.types.json or types.json \
             beside it (or in a parent folder), or run `gamewire decode kingsisle -t TYPES FILE`"
        ))
    })?;
    let file = if data.starts_with(bind::MAGIC) {
        KingsIsleFile::Bind
    } else if ki::xml::is_xml_text(data) {
        KingsIsleFile::Xml
    } else {
        KingsIsleFile::Blob
    };
    let k = KingsIsleSettings {
        file,
        types: super::side_ref(side, &found)?,
        game: "wizard101".into(),
        flags: 0,
        mask: 24,
        shallow: false,
        manual_zlib: false,
    };
    let resolved = Resolved {
        types: Some(types(side, &found, &k.game)?),
        ..Resolved::default()
    };
    Ok((Settings::KingsIsle(k), resolved, Vec::new()))
}

fn the_types(o: &Opened) -> Result<&TypeList> {
    o.resolved
        .types
        .as_deref()
        .ok_or_else(|| Error::msg("no type list was read"))
}

fn io(e: serde_json::Error) -> Error {
    Error::msg(format!("cannot write the JSON: {e}"))
}

fn documents(o: &Opened, k: &KingsIsleSettings) -> Result<Vec<Document>> {
    let types = the_types(o)?;
    Ok(match k.file {
        KingsIsleFile::Xml => ki::xml::read(&o.data, types)?
            .into_iter()
            .map(|root| Document {
                root,
                ..Document::default()
            })
            .collect(),
        KingsIsleFile::Bind => vec![bind::decode(&o.data, types, &options(k, Some(o)))?],
        KingsIsleFile::Blob => vec![ki::decode(&o.data, types, &options(k, Some(o)))?],
    })
}

pub(super) fn value<'a>(o: &'a Opened, k: &KingsIsleSettings) -> Result<crate::open::Value<'a>> {
    Ok(crate::open::Value::KingsIsle(documents(o, k)?))
}

pub(super) fn encode_value(
    o: &Opened,
    k: &KingsIsleSettings,
    docs: &[Document],
) -> Result<Vec<u8>> {
    let types = the_types(o)?;
    match (k.file, docs) {
        (KingsIsleFile::Xml, _) => {
            let objs: Vec<_> = docs.iter().map(|d| d.root.clone()).collect();
            Ok(ki::xml::write(&objs, types)?.into_bytes())
        }
        (KingsIsleFile::Bind, [doc]) => bind::encode(doc, types, &options(k, None)),
        (KingsIsleFile::Blob, [doc]) => ki::encode(doc, types, &options(k, None)),
        _ => Err(Error::msg("a BINd file or blob holds one document")),
    }
}

pub(super) fn write_json(
    o: &Opened,
    k: &KingsIsleSettings,
    w: &mut dyn Write,
    pretty: bool,
) -> Result<()> {
    let types = the_types(o)?;
    let docs = documents(o, k)?;
    let views: Vec<json::DocumentJson> = docs
        .iter()
        .map(|doc| json::DocumentJson {
            doc,
            types,
            enum_numbers: o.opts.enum_numbers,
        })
        .collect();
    match views.as_slice() {
        [one] => gamewire_core::json_out::write(w, one, pretty).map_err(io),
        all => gamewire_core::json_out::write(w, all, pretty).map_err(io),
    }
}

pub(super) fn inspect(o: &Opened, k: &KingsIsleSettings, tree: &mut TreeBuilder) -> Result<()> {
    let types = the_types(o)?;
    match k.file {
        KingsIsleFile::Xml => {
            let objs = ki::xml::read(&o.data, types)?;
            tree.note(&format!("type list {}; XML object file", k.types.path));
            for (i, obj) in objs.iter().enumerate() {
                ki::inspect::object(tree, &format!("[{i}]"), obj, types);
            }
            Ok(())
        }
        _ => ki::inspect::fill(&o.data, types, &k.types.path, tree),
    }
}

pub(super) fn encode(
    k: &KingsIsleSettings,
    resolved: &Resolved,
    json_text: &[u8],
    opts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let types = resolved
        .types
        .as_deref()
        .ok_or_else(|| Error::msg("no type list was read"))?;
    let j = super::parse_json(json_text, opts)?;
    match k.file {
        KingsIsleFile::Xml => {
            let items: Vec<&serde_json::Value> = match &j {
                serde_json::Value::Array(a) => a.iter().collect(),
                one => vec![one],
            };
            let mut objs = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                objs.push(
                    json::from_json(item, types)
                        .map_err(|e| e.in_index(i))?
                        .root,
                );
            }
            Ok(ki::xml::write(&objs, types)?.into_bytes())
        }
        KingsIsleFile::Bind => {
            let doc = json::from_json(&j, types)?;
            bind::encode(&doc, types, &options(k, None))
        }
        KingsIsleFile::Blob => {
            let doc = json::from_json(&j, types)?;
            if doc.bind {
                bind::encode(&doc, types, &options(k, None))
            } else {
                ki::encode(&doc, types, &options(k, None))
            }
        }
    }
}
