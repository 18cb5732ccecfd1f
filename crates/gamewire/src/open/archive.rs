//! Archives seen through: their entries listed with the format each one is, and an
//! entry opened like a file ([`open_entry`]).
//!
//! Every archive format plugs in as an [`Archive`] (entries with a name, a size and their
//! bytes); the front ends (`inspect ARCHIVE`, `decode ARCHIVE --entry NAME`,
//! `convert ARCHIVE`, Python's `gamewire.kingsisle.Wad`) render what this module gives.
//! The layouts live in the format crates: KingsIsle's `KIWAD` in
//! [`gamewire_kingsisle::wad`].

use super::{open, OpenError, OpenOptions, Opened, SideFiles};
use crate::{Detection, Format};
use gamewire_core::inspect::{Node, TreeBuilder};
use gamewire_core::{Error, Result};
#[cfg(feature = "kingsisle")]
use gamewire_kingsisle::wad;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// An archive's entries: names, sizes and bytes. Formats implement it; the functions of
/// this module work on any.
pub trait Archive: Send + Sync {
    /// A one-line description: `KingsIsle KIWAD version 2 (flags 0x1), 12 entries`.
    fn describe(&self) -> String;
    /// The number of entries.
    fn len(&self) -> usize;
    /// True when it holds no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The name of entry `i` (a `/`-separated path).
    fn name(&self, i: usize) -> &str;
    /// The size of entry `i`'s bytes.
    fn size(&self, i: usize) -> u64;
    /// How entry `i` is stored (`zlib 1,234 bytes`, `stored`), for listings.
    fn storage(&self, i: usize) -> String;
    /// The bytes of entry `i`, checked (CRC, MD5, size) and inflated; `None` when the
    /// entry holds nothing to extract (a KIWAD placeholder).
    fn read(&self, i: usize) -> Result<Option<Cow<'_, [u8]>>>;
}

/// A `KIWAD` archive as an [`Archive`].
#[cfg(feature = "kingsisle")]
pub struct Wad<D>(pub wad::Archive<D>);

#[cfg(feature = "kingsisle")]
impl<D: AsRef<[u8]> + Send + Sync> Archive for Wad<D> {
    fn describe(&self) -> String {
        let h = self.0.header();
        let flags = h
            .flags
            .map(|f| format!(" (flags {f:#x})"))
            .unwrap_or_default();
        format!(
            "KingsIsle KIWAD version {}{flags}, {} entries",
            h.version,
            self.0.len()
        )
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn name(&self, i: usize) -> &str {
        self.0.entry(i).map(|e| e.name).unwrap_or("")
    }
    fn size(&self, i: usize) -> u64 {
        self.0.entry(i).map(|e| u64::from(e.size)).unwrap_or(0)
    }
    fn storage(&self, i: usize) -> String {
        match self.0.entry(i) {
            Some(e) if e.compressed => format!("zlib {} bytes", e.compressed_size),
            Some(_) => "stored".into(),
            None => String::new(),
        }
    }
    fn read(&self, i: usize) -> Result<Option<Cow<'_, [u8]>>> {
        let e = self
            .0
            .entry(i)
            .ok_or_else(|| Error::msg(format!("no entry {i}")))?;
        Ok(self.0.read(&e)?.into_bytes())
    }
}

/// True when `data` starts like an archive gamewire reads through.
pub fn is_archive(data: &[u8]) -> bool {
    crate::archive_kind(data).is_some()
}

/// The archive in `data`, or `None` when `data` is no archive gamewire knows.
pub fn archive(data: &[u8]) -> Option<Result<Box<dyn Archive + '_>>> {
    match crate::archive_kind(data)? {
        #[cfg(feature = "kingsisle")]
        crate::ArchiveKind::KingsIsleWad => {
            Some(wad::Archive::new(data).map(|a| Box::new(Wad(a)) as Box<dyn Archive>))
        }
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// Checks that an entry name is safe to write under a folder (relative, no `..`, no
/// backslash, no NUL, ...): an error naming the entry otherwise.
pub fn check_name(name: &str) -> Result<()> {
    gamewire_core::files::check_entry_name(name)
}

/// The index of the entry `name` in `a`; an unknown name is an error listing a few of
/// the archive's names.
pub fn find(a: &dyn Archive, name: &str) -> Result<usize> {
    if let Some(i) = (0..a.len()).find(|&i| a.name(i) == name) {
        return Ok(i);
    }
    let some: Vec<&str> = (0..a.len().min(8)).map(|i| a.name(i)).collect();
    let more = a.len().saturating_sub(some.len());
    Err(Error::msg(format!(
        "the archive has no entry {name:?}; its entries include {}{}",
        some.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )))
}

/// The format of an entry's bytes, described (`kingsisle`, `godot4 (bare value)`);
/// `None` when gamewire reads none.
pub fn entry_format(bytes: &[u8], name: &str) -> Option<String> {
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

/// True when the entry's bytes are an ObjectProperty file (`BINd` or an XML object file)
/// that `convert` decodes to JSON.
pub fn is_object_file(bytes: &[u8], name: &str) -> bool {
    matches!(
        crate::identify(bytes, name.rsplit('/').next()),
        Detection::Found(f) if f.format == Format::KingsIsle
    )
}

/// One entry of an archive with what gamewire makes of its bytes.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The entry's name.
    pub name: String,
    /// Its size.
    pub size: u64,
    /// How it is stored.
    pub storage: String,
    /// The format gamewire reads it as, or `None` (extracted as bytes).
    pub format: Option<String>,
    /// True for an entry that holds nothing (a KIWAD placeholder).
    pub placeholder: bool,
    /// Why its bytes cannot be given (CRC mismatch, damaged zlib data), if so.
    pub error: Option<String>,
}

/// Every entry of `a`, read and recognised (by magic, name and content, as `decode FILE`
/// does).
pub fn list(a: &dyn Archive) -> Vec<Listed> {
    (0..a.len())
        .map(|i| {
            let (format, placeholder, error) = match a.read(i) {
                Ok(Some(bytes)) => (entry_format(&bytes, a.name(i)), false, None),
                Ok(None) => (None, true, None),
                Err(e) => (None, false, Some(e.to_string())),
            };
            Listed {
                name: a.name(i).to_owned(),
                size: a.size(i),
                storage: a.storage(i),
                format,
                placeholder,
                error,
            }
        })
        .collect()
}

/// The archive's description and a tree of its entries: each entry's name, the format
/// gamewire reads it as (or `bytes`), its size and how it is stored.
pub fn inspect(data: &[u8]) -> Result<(String, Vec<Node>)> {
    let a = archive(data).ok_or_else(|| Error::msg("not an archive gamewire reads"))??;
    let l = list(a.as_ref());
    let n = l.len();
    let mut tree = TreeBuilder::new(n.max(1));
    tree.open("entries", "archive", Some(n));
    for e in &l {
        let ty = if e.placeholder {
            "placeholder"
        } else {
            e.format.as_deref().unwrap_or("bytes")
        };
        let mut value = format!("{} bytes, {}", e.size, e.storage);
        if let Some(err) = &e.error {
            value += &format!(", unreadable: {err}");
        }
        tree.leaf(&e.name, ty, &value);
    }
    tree.close();
    Ok((a.describe(), tree.finish()))
}

/// The path an entry is opened as: the entry's name under the archive's folder, so that
/// side files (a type list) are found beside the archive or in the archive's own folders.
pub fn entry_path(archive_path: Option<&Path>, name: &str) -> PathBuf {
    let dir = archive_path
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    dir.join(name)
}

/// Opens entry `i` of `a` (read from `archive_path`) as [`open`] opens a file of that
/// name beside the archive. A placeholder is an error naming it.
pub fn open_index(
    a: &dyn Archive,
    i: usize,
    archive_path: Option<&Path>,
    side: &SideFiles,
    opts: &OpenOptions,
) -> std::result::Result<Opened, OpenError> {
    let name = a.name(i);
    let bytes = a
        .read(i)
        .map_err(|error| OpenError::Failed { found: None, error })?
        .ok_or_else(|| OpenError::Failed {
            found: None,
            error: Error::msg(format!(
                "entry {name:?} is a placeholder: it holds nothing to decode"
            )),
        })?;
    let path = entry_path(archive_path, name);
    open(bytes.into_owned(), Some(&path), side, opts)
}

/// Opens the entry `name` of the archive in `data` as [`open`] opens a file named so
/// beside the archive at `archive_path`.
pub fn open_entry(
    data: &[u8],
    archive_path: Option<&Path>,
    name: &str,
    side: &SideFiles,
    opts: &OpenOptions,
) -> std::result::Result<Opened, OpenError> {
    let fail = |error| OpenError::Failed { found: None, error };
    let a = archive(data)
        .ok_or_else(|| fail(Error::msg("not an archive gamewire reads")))?
        .map_err(fail)?;
    let i = find(a.as_ref(), name).map_err(fail)?;
    open_index(a.as_ref(), i, archive_path, side, opts)
}

#[cfg(all(test, feature = "kingsisle"))]
mod tests {
    use super::*;
    use crate::open::Memory;
    use gamewire_kingsisle::wad::{Builder, Prepared};

    #[test]
    fn entries_are_listed_with_their_formats_and_opened() {
        let mut b = Builder::new(2, None).unwrap();
        b.add(Prepared::packed("a.txt", b"just text".to_vec(), 9).unwrap())
            .unwrap();
        let bytes = b.to_bytes().unwrap();
        assert!(is_archive(&bytes));
        let a = archive(&bytes).unwrap().unwrap();
        assert!(a.describe().starts_with("KingsIsle KIWAD version 2"));
        let l = list(a.as_ref());
        assert_eq!(l[0].name, "a.txt");
        assert_eq!(l[0].format, None);
        let e = find(a.as_ref(), "nope").unwrap_err().to_string();
        assert!(
            e.contains("no entry \"nope\"") && e.contains("a.txt"),
            "{e}"
        );
        // An ObjectProperty entry opens as the same file would, with the type list
        // beside the archive.
        let item = include_bytes!("../../../../samples/kingsisle/item.bin");
        let types = include_bytes!("../../../../samples/kingsisle/types.json");
        let mut b = Builder::new(1, None).unwrap();
        b.add(Prepared::packed("ObjectData/item.bin", item.to_vec(), 9).unwrap())
            .unwrap();
        let bytes = b.to_bytes().unwrap();
        let a = archive(&bytes).unwrap().unwrap();
        assert!(is_object_file(&a.read(0).unwrap().unwrap(), a.name(0)));
        assert_eq!(list(a.as_ref())[0].format.as_deref(), Some("kingsisle"));
        let mut m = Memory::new();
        m.insert("/d/types.json", types.to_vec());
        let side = SideFiles::memory(m);
        let o = open_entry(
            &bytes,
            Some(Path::new("/d/x.wad")),
            "ObjectData/item.bin",
            &side,
            &OpenOptions::default(),
        )
        .unwrap();
        let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
        assert!(json.contains("Storm Hat"), "{json}");
        let none = open_entry(
            &bytes,
            Some(Path::new("/elsewhere/x.wad")),
            "ObjectData/item.bin",
            &side,
            &OpenOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(none.contains("type list"), "{none}");
    }
}
