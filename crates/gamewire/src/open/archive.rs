//! Archives seen through: their entries listed with the format each one is, and an
//! entry opened like a file ([`open_entry`]).
//!
//! Every archive format plugs in as an [`Archive`] (entries with a name, a size and their
//! bytes); the front ends (`inspect ARCHIVE`, `decode ARCHIVE --entry NAME`,
//! `convert ARCHIVE`, `gamewire godot pck list`, Python's `gamewire.kingsisle.Wad` and
//! `gamewire.godot.Pack`) render what this module gives. The layouts live in the format
//! crates: KingsIsle's `KIWAD` in [`gamewire_kingsisle::wad`], Godot's packs (`GDPC`,
//! encrypted ones read with the export key) in [`gamewire_godot::pck`].

use super::{open, OpenError, OpenOptions, Opened, Secret, SideFiles};
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
    /// The bytes of entry `i`, checked (CRC, MD5, size), inflated and decrypted; `None`
    /// when the entry holds nothing to extract (a KIWAD placeholder, a patch pack's
    /// removal).
    fn read(&self, i: usize) -> Result<Option<Cow<'_, [u8]>>>;
    /// What a successful [`Archive::read`] of entry `i` checked (`MD5`), for listings;
    /// `None` when nothing is named.
    fn checked(&self, i: usize) -> Option<&'static str> {
        let _ = i;
        None
    }
    /// Where entry `i`'s bytes (as [`Archive::read`] gives them) lie in the archive:
    /// at a byte of it when stored as they are, else in data inflated or decrypted.
    fn placement(&self, i: usize) -> Placement;
}

/// Where an entry's bytes lie in its archive ([`Archive::placement`]): what an offset
/// in the entry is in the archive file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Stored as they are, from this byte of the archive file: an offset in the entry
    /// is this plus it in the archive.
    Stored(u64),
    /// Stored zlib-compressed: offsets count in the inflated data.
    Compressed,
    /// Stored encrypted: offsets count in the decrypted data.
    Encrypted,
}

impl Placement {
    /// The offset in the archive file of byte `offset` of the entry, where the entry is
    /// stored as it is.
    pub fn in_archive(&self, offset: u64) -> Option<u64> {
        match self {
            Placement::Stored(at) => at.checked_add(offset),
            Placement::Compressed | Placement::Encrypted => None,
        }
    }

    /// What an offset in the entry `name` counts in, for people.
    pub fn describe(&self, name: &str) -> String {
        match self {
            Placement::Stored(at) => format!(
                "the entry {name:?} (stored as it is from byte {at} of the archive: \
                 add {at} for the offset in the archive file)"
            ),
            Placement::Compressed => format!(
                "the inflated data of the entry {name:?} (it is stored zlib-compressed \
                 in the archive)"
            ),
            Placement::Encrypted => format!(
                "the decrypted data of the entry {name:?} (it is stored encrypted in the \
                 archive)"
            ),
        }
    }
}

/// A Godot pack (`GDPC`) as an [`Archive`]: entry names without `res://`, every read
/// MD5-checked and, with the key, decrypted.
#[cfg(feature = "godot")]
pub struct Pack<'a>(pub gamewire_godot::pck::PackReader<'a>);

#[cfg(feature = "godot")]
impl Pack<'_> {
    /// A one-line description of a pack: `Godot pack format 3 (engine 4.5.0), 12 entries`.
    pub fn describe_info(info: &gamewire_godot::pck::PackInfo, entries: usize) -> String {
        let (a, b, c) = info.version;
        let mut s = format!(
            "Godot pack format {} (engine {a}.{b}.{c}), {entries} entries",
            info.format
        );
        if info.directory_encrypted() {
            s += ", directory encrypted";
        }
        if info.embedded {
            s += &format!(", embedded at byte {}", info.start);
        }
        s
    }
}

#[cfg(feature = "godot")]
impl Archive for Pack<'_> {
    fn describe(&self) -> String {
        Self::describe_info(self.0.info(), self.0.entries().len())
    }
    fn len(&self) -> usize {
        self.0.entries().len()
    }
    fn name(&self, i: usize) -> &str {
        self.0.entries().get(i).map(|e| e.name()).unwrap_or("")
    }
    fn size(&self, i: usize) -> u64 {
        self.0.entries().get(i).map(|e| e.size).unwrap_or(0)
    }
    fn storage(&self, i: usize) -> String {
        let Some(e) = self.0.entries().get(i) else {
            return String::new();
        };
        let mut s = Vec::new();
        if e.encrypted() {
            s.push("encrypted");
        }
        if e.removal() {
            s.push("removed by this patch");
        }
        if e.delta() {
            s.push("delta patch");
        }
        if !e.has_md5() {
            s.push("no MD5");
        }
        s.join(", ")
    }
    fn read(&self, i: usize) -> Result<Option<Cow<'_, [u8]>>> {
        let e = self
            .0
            .entries()
            .get(i)
            .ok_or_else(|| Error::msg(format!("no entry {i}")))?;
        if e.removal() {
            return Ok(None);
        }
        self.0.read_content(e).map(Some)
    }
    fn checked(&self, i: usize) -> Option<&'static str> {
        self.0
            .entries()
            .get(i)
            .filter(|e| e.has_md5())
            .map(|_| "MD5")
    }
    fn placement(&self, i: usize) -> Placement {
        match self.0.entries().get(i) {
            Some(e) if !e.encrypted() => Placement::Stored(e.offset),
            _ => Placement::Encrypted,
        }
    }
}

/// The pack key a secret gives: a 32-byte key as it is, a password as the engine
/// derives a key from it.
#[cfg(feature = "godot")]
pub fn pack_key(secret: Option<&Secret>) -> Result<Option<gamewire_godot::pck::Key>> {
    use gamewire_godot::pck::Key;
    Ok(match secret {
        None => None,
        Some(Secret::Key(k)) => Some(Key::from_bytes(k)?),
        Some(Secret::Password(p)) => Some(Key::from_password(p)),
    })
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
    fn placement(&self, i: usize) -> Placement {
        match self.0.entry(i) {
            Some(e) if !e.compressed => Placement::Stored(u64::from(e.offset)),
            _ => Placement::Compressed,
        }
    }
}

/// True when `data` starts like an archive gamewire reads through.
pub fn is_archive(data: &[u8]) -> bool {
    crate::archive_kind(data).is_some()
}

/// The archive in `data`, or `None` when `data` is no archive gamewire knows.
pub fn archive(data: &[u8]) -> Option<Result<Box<dyn Archive + '_>>> {
    archive_with(data, None)
}

/// The KingsIsle type list for the ObjectProperty entries of the archive at `path`: the
/// one rule of a file's type list (`NAME.types.json`, `STEM.types.json`, `types.json`,
/// `types.xml`, beside the archive or in a parent folder), for the archive's name.
/// `None` when there is none (or without KingsIsle support).
pub fn type_list(side: &SideFiles, path: &Path) -> Option<PathBuf> {
    #[cfg(feature = "kingsisle")]
    {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        side.find(
            Some(path),
            &super::formats::kingsisle::type_list_names(name.as_deref()),
        )
    }
    #[cfg(not(feature = "kingsisle"))]
    {
        let _ = (side, path);
        None
    }
}

/// The archive in `data` read with `secret` (the key of an encrypted Godot pack), or
/// `None` when `data` is no archive gamewire knows.
pub fn archive_with<'a>(
    data: &'a [u8],
    secret: Option<&Secret>,
) -> Option<Result<Box<dyn Archive + 'a>>> {
    let _ = secret;
    match crate::archive_kind(data)? {
        #[cfg(feature = "kingsisle")]
        crate::ArchiveKind::KingsIsleWad => {
            Some(wad::Archive::new(data).map(|a| Box::new(Wad(a)) as Box<dyn Archive>))
        }
        #[cfg(feature = "godot")]
        crate::ArchiveKind::GodotPack => Some((|| {
            let key = pack_key(secret)?;
            let r = gamewire_godot::pck::PackReader::with_key(data, key.as_ref())?;
            Ok(Box::new(Pack(r)) as Box<dyn Archive>)
        })()),
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
    // A Godot path may be given as `res://NAME`.
    if let Some(bare) = name.strip_prefix("res://") {
        if let Some(i) = (0..a.len()).rev().find(|&i| a.name(i) == bare) {
            return Ok(i);
        }
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
    /// What reading it checked (`MD5`), when it was read and something was.
    pub checked: Option<&'static str>,
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
                checked: error.is_none().then(|| a.checked(i)).flatten(),
                placeholder,
                error,
            }
        })
        .collect()
}

/// The archive's description and a tree of its entries: each entry's name, the format
/// gamewire reads it as (or `bytes`), its size and how it is stored.
pub fn inspect(data: &[u8], secret: Option<&Secret>) -> Result<(String, Vec<Node>)> {
    let a =
        archive_with(data, secret).ok_or_else(|| Error::msg("not an archive gamewire reads"))??;
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
        let mut value = format!("{} bytes", e.size);
        if !e.storage.is_empty() {
            value += &format!(", {}", e.storage);
        }
        if let Some(c) = e.checked {
            value += &format!(", {c} ok");
        }
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

/// Where the bytes of the entry `name` of the archive in `data` (read with `secret`)
/// lie in it ([`Placement`]).
pub fn placement(data: &[u8], name: &str, secret: Option<&Secret>) -> Result<Placement> {
    let a =
        archive_with(data, secret).ok_or_else(|| Error::msg("not an archive gamewire reads"))??;
    let i = find(a.as_ref(), name)?;
    Ok(a.placement(i))
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
    let a = archive_with(data, opts.secret.as_ref())
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
        assert_eq!(a.placement(0), Placement::Compressed);
        // A stored entry's bytes are the archive's from its offset.
        let mut b = Builder::new(2, None).unwrap();
        b.add(Prepared::stored("s.txt", b"stored text".to_vec()).unwrap())
            .unwrap();
        let stored = b.to_bytes().unwrap();
        let Placement::Stored(at) = placement(&stored, "s.txt", None).unwrap() else {
            panic!("a stored entry is placed");
        };
        assert_eq!(&stored[at as usize..][..11], b"stored text");
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

#[cfg(all(test, feature = "godot"))]
mod pack_tests {
    use super::*;
    use gamewire_godot::pck::{Encryption, Key, Pack as Writer};

    fn sample(encryption: Option<Encryption>) -> Vec<u8> {
        let settings = gamewire_godot::project_binary::Settings {
            version: gamewire_godot::Version::V4,
            entries: vec![(
                "application/config/name".into(),
                gamewire_godot::Value::String("x".into()),
            )],
        };
        let mut pack = Writer::new((4, 5, 0));
        pack.add_file(
            "project.binary",
            gamewire_godot::project_binary::encode(&settings).unwrap(),
        )
        .unwrap();
        pack.add_file("icon.png", b"\x89PNG\r\n".to_vec()).unwrap();
        if let Some(e) = encryption {
            pack.encrypt(e).unwrap();
        }
        pack.to_bytes()
    }

    #[test]
    fn pack_entries_are_listed_with_their_formats_and_opened() {
        let bytes = sample(None);
        assert!(is_archive(&bytes));
        assert_eq!(
            crate::archive_kind(&bytes),
            Some(crate::ArchiveKind::GodotPack)
        );
        let a = archive(&bytes).unwrap().unwrap();
        assert_eq!(
            a.describe(),
            "Godot pack format 3 (engine 4.5.0), 2 entries"
        );
        let l = list(a.as_ref());
        assert_eq!(
            l[0].format.as_deref(),
            Some("godot4 (project.binary, 1 settings)")
        );
        assert_eq!(l[0].checked, Some("MD5"));
        assert_eq!(l[1].name, "icon.png");
        assert_eq!(l[1].format, None);
        let Placement::Stored(at) = a.placement(1) else {
            panic!("an unencrypted entry is placed");
        };
        assert_eq!(&bytes[at as usize..][..6], b"\x89PNG\r\n");
        assert_eq!(Placement::Stored(at).in_archive(2), Some(at + 2));
        // Both spellings of a path find the entry.
        assert_eq!(find(a.as_ref(), "res://icon.png").unwrap(), 1);
        assert_eq!(find(a.as_ref(), "icon.png").unwrap(), 1);
        let o = open_entry(
            &bytes,
            None,
            "res://project.binary",
            &SideFiles::none(),
            &OpenOptions::default(),
        )
        .unwrap();
        let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
        assert!(json.contains("\"application/config/name\":\"x\""), "{json}");
        let e = find(a.as_ref(), "nope").unwrap_err().to_string();
        assert!(
            e.contains("no entry \"nope\"") && e.contains("icon.png"),
            "{e}"
        );
    }

    #[test]
    fn encrypted_packs_open_with_the_key_only() {
        let key = [7u8; 32];
        let bytes = sample(Some(Encryption {
            key: Key::from_bytes(&key).unwrap(),
            directory: true,
            files: true,
        }));
        let e = archive(&bytes).unwrap().err().unwrap().to_string();
        assert!(e.contains("encrypted") && e.contains("key"), "{e}");
        let secret = Secret::Key(key.to_vec());
        let (desc, tree) = inspect(&bytes, Some(&secret)).unwrap();
        assert!(desc.contains("directory encrypted"), "{desc}");
        assert!(!tree.is_empty());
        assert_eq!(
            placement(&bytes, "icon.png", Some(&secret)).unwrap(),
            Placement::Encrypted
        );
        let opts = OpenOptions {
            secret: Some(secret),
            ..OpenOptions::default()
        };
        let o = open_entry(&bytes, None, "project.binary", &SideFiles::none(), &opts).unwrap();
        assert!(String::from_utf8(o.to_json(false).unwrap())
            .unwrap()
            .contains("\"x\""));
        let wrong = OpenOptions {
            secret: Some(Secret::Key(vec![8; 32])),
            ..OpenOptions::default()
        };
        let e = open_entry(&bytes, None, "project.binary", &SideFiles::none(), &wrong)
            .err()
            .unwrap();
        assert!(format!("{e:?}").contains("wrong password or key"), "{e:?}");
    }
}
