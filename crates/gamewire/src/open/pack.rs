//! Godot packs (`.pck`) seen through: their entries listed with the format each one
//! is, and an entry opened like a file ([`open_entry`]). The pack layouts live in
//! [`gamewire_godot::pck`]; front ends (`inspect PACK`, `decode PACK --entry NAME`,
//! `convert PACK`, Python's `gamewire.godot.Pack`) render what this module gives.

use super::{open, OpenError, OpenOptions, Opened, SideFiles};
use crate::Detection;
use gamewire_core::{Error, Result};
use gamewire_godot::pck::{Entry, PackInfo, PackReader};
use std::path::Path;

/// True when `data` is a Godot pack: `GDPC` at the start, or an executable whose
/// trailer (`size`, `GDPC`) points at a pack header.
pub fn is_pack(data: &[u8]) -> bool {
    gamewire_godot::pck::locate(data).is_some()
}

/// One entry of a pack, with what gamewire makes of its bytes.
#[derive(Debug, Clone)]
pub struct EntryFormat {
    /// The directory's record.
    pub entry: Entry,
    /// The format gamewire reads it as (`godot4 (project.binary, 8 settings)`), or
    /// `None` when it reads none (extracted as bytes).
    pub format: Option<String>,
    /// Why the entry's bytes cannot be given (encrypted, MD5 mismatch, ...), if so.
    pub error: Option<String>,
}

/// A pack's header and its entries, each with its format.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The header.
    pub info: PackInfo,
    /// The entries, in directory order.
    pub entries: Vec<EntryFormat>,
}

/// Reads a pack's directory and recognises each entry (by magic, name and content,
/// as `decode FILE` does). The MD5 of each entry is checked.
pub fn list(data: &[u8]) -> Result<Listing> {
    let pack = PackReader::parse(data)?;
    let entries = pack
        .entries()
        .iter()
        .map(|e| {
            let (format, error) = match pack.read_checked(e) {
                Ok(bytes) => (entry_format(bytes, e.name()), None),
                Err(err) => (None, Some(err.to_string())),
            };
            EntryFormat {
                entry: e.clone(),
                format,
                error,
            }
        })
        .collect();
    Ok(Listing {
        info: pack.info().clone(),
        entries,
    })
}

/// The format of an entry's bytes, described; `None` when gamewire reads none.
fn entry_format(bytes: &[u8], name: &str) -> Option<String> {
    if bytes.is_empty() {
        return None;
    }
    let file = name.rsplit('/').next();
    match crate::identify(bytes, file) {
        Detection::Found(f) => Some(f.describe()),
        Detection::Ambiguous(fits) => Some(
            fits.iter()
                .map(|f| f.describe())
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        Detection::Json | Detection::Unknown => None,
    }
}

/// A one-line description of a pack: `Godot pack format 3 (engine 4.5.0), 12 entries`.
pub fn describe(info: &PackInfo, entries: usize) -> String {
    let (a, b, c) = info.version;
    let mut s = format!(
        "Godot pack format {} (engine {a}.{b}.{c}), {entries} entries",
        info.format
    );
    if info.embedded {
        s += &format!(", embedded at byte {}", info.start);
    }
    s
}

/// The pack's description and a tree of its entries: each entry's path, the format
/// gamewire reads it as (or `bytes`), its size and MD5 state. Every entry is shown.
pub fn inspect(data: &[u8]) -> Result<(String, Vec<gamewire_core::inspect::Node>)> {
    let l = list(data)?;
    let n = l.entries.len();
    let mut tree = gamewire_core::inspect::TreeBuilder::new(n.max(1));
    tree.open("entries", "GDPC", Some(n));
    for e in &l.entries {
        let ty = e.format.as_deref().unwrap_or("bytes");
        let mut value = format!("{} bytes", e.entry.size);
        if e.entry.has_md5() && e.error.is_none() {
            value += ", MD5 ok";
        }
        if let Some(err) = &e.error {
            value += &format!(", unreadable: {err}");
        }
        tree.leaf(&e.entry.path, ty, &value);
    }
    tree.close();
    Ok((describe(&l.info, n), tree.finish()))
}

/// The bytes of the entry `name` (with or without `res://`), MD5 checked. An unknown
/// name is an error listing a few of the pack's names.
pub fn entry_bytes<'a>(data: &'a [u8], name: &str) -> Result<&'a [u8]> {
    let pack = PackReader::parse(data)?;
    let Some(entry) = pack.find(name) else {
        let some: Vec<&str> = pack.entries().iter().take(8).map(|e| e.name()).collect();
        let more = pack.entries().len().saturating_sub(some.len());
        return Err(Error::msg(format!(
            "the pack has no entry {name:?}; its entries include {}{}",
            some.join(", "),
            if more > 0 {
                format!(" and {more} more (gamewire godot pck list)")
            } else {
                String::new()
            }
        )));
    };
    pack.read_checked(entry)
}

/// Opens the entry `name` of the pack in `data` as [`open`] opens a file named so.
pub fn open_entry(
    data: &[u8],
    name: &str,
    side: &SideFiles,
    opts: &OpenOptions,
) -> std::result::Result<Opened, OpenError> {
    let bytes =
        entry_bytes(data, name).map_err(|error| OpenError::Failed { found: None, error })?;
    let name = name.strip_prefix("res://").unwrap_or(name);
    open(bytes.to_vec(), Some(Path::new(name)), side, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamewire_godot::pck::Pack;

    #[test]
    fn entries_are_listed_with_their_formats_and_opened() {
        let settings = gamewire_godot::project_binary::Settings {
            version: gamewire_godot::Version::V4,
            entries: vec![(
                "application/config/name".into(),
                gamewire_godot::Value::String("x".into()),
            )],
        };
        let mut pack = Pack::new((4, 5, 0));
        pack.add_file(
            "project.binary",
            gamewire_godot::project_binary::encode(&settings).unwrap(),
        )
        .unwrap();
        pack.add_file("icon.png", b"\x89PNG\r\n".to_vec()).unwrap();
        let bytes = pack.to_bytes();
        assert!(is_pack(&bytes));
        let l = list(&bytes).unwrap();
        assert_eq!(
            l.entries[0].format.as_deref(),
            Some("godot4 (project.binary, 1 settings)")
        );
        assert_eq!(l.entries[1].format, None);
        let o = open_entry(
            &bytes,
            "res://project.binary",
            &SideFiles::none(),
            &OpenOptions::default(),
        )
        .unwrap();
        let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
        assert!(json.contains("\"application/config/name\":\"x\""), "{json}");
        let e = entry_bytes(&bytes, "nope").unwrap_err().to_string();
        assert!(
            e.contains("no entry \"nope\"") && e.contains("icon.png"),
            "{e}"
        );
    }
}
