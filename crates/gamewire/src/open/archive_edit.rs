//! Writing one entry of an archive back: the archive's bytes with that entry replaced,
//! every other entry and the header kept byte for byte.
//!
//! The rules are the format crates': a KingsIsle `KIWAD` through
//! [`gamewire_kingsisle::wad::replace`] (the entry stored as it was: compressed again
//! when it was, its CRC of the new stored bytes), a Godot pack through
//! [`gamewire_godot::pck::replace`] (the entry's size and MD5 rewritten, the pack's
//! alignment, format, version and flags kept, an encrypted entry or directory encrypted
//! with the key the pack is read with). Both read the result back before giving it:
//! anything but the entry changed is an error, and nothing is written.
//!
//! A front end that opened an entry keeps the archive's [`Fingerprint`] and saves with
//! [`replace_in_file`], which refuses a file changed on disk since; it then writes the
//! bytes atomically (a temporary file renamed over the archive), as every output.

use super::archive::{archive_with, find};
use super::Secret;
use gamewire_core::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The size and SHA-256 of an archive's bytes as they were read: a save over a file
/// changed since is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    len: u64,
    sha256: [u8; 32],
}

impl Fingerprint {
    /// The fingerprint of `data`.
    pub fn of(data: &[u8]) -> Self {
        Fingerprint {
            len: data.len() as u64,
            sha256: Sha256::digest(data).into(),
        }
    }

    /// An error unless `now` is the bytes this fingerprint was taken of.
    pub fn check(&self, now: &[u8]) -> Result<()> {
        if *self == Fingerprint::of(now) {
            return Ok(());
        }
        Err(Error::msg(format!(
            "the archive changed on disk since it was opened ({} bytes then, {} now{}): it is \
             not overwritten; open it again",
            self.len,
            now.len(),
            if self.len == now.len() as u64 {
                ", other contents"
            } else {
                ""
            }
        )))
    }
}

/// The bytes of the archive in `data` (read with `secret`, the key of an encrypted Godot
/// pack) with its entry `name` (as [`find`] finds it, the one an entry is opened as)
/// holding `bytes`; every other entry and the header as they were. An error says why it
/// cannot be done: no such entry, a placeholder, a damaged entry, an archive that cannot
/// be written back exactly, an encrypted entry without the key, a pack embedded in an
/// executable whose size would change.
pub fn replace_entry(
    data: &[u8],
    secret: Option<&Secret>,
    name: &str,
    bytes: &[u8],
) -> Result<Vec<u8>> {
    let a =
        archive_with(data, secret).ok_or_else(|| Error::msg("not an archive gamewire reads"))??;
    let i = find(a.as_ref(), name)?;
    drop(a);
    match crate::archive_kind(data) {
        #[cfg(feature = "kingsisle")]
        Some(crate::ArchiveKind::KingsIsleWad) => {
            let wad = gamewire_kingsisle::wad::Archive::new(data)?;
            gamewire_kingsisle::wad::replace(&wad, i, bytes)
        }
        #[cfg(feature = "godot")]
        Some(crate::ArchiveKind::GodotPack) => {
            let key = super::archive::pack_key(secret)?;
            gamewire_godot::pck::replace(data, key.as_ref(), i, bytes)
        }
        #[allow(unreachable_patterns)]
        _ => Err(Error::msg("not an archive gamewire writes")),
    }
}

/// Reads the archive at `path`, refuses it if it is not the bytes `opened` was taken of,
/// and gives its bytes with entry `name` holding `bytes` ([`replace_entry`]). Nothing is
/// written: the caller writes the result atomically over `path`.
pub fn replace_in_file(
    path: &Path,
    opened: &Fingerprint,
    secret: Option<&Secret>,
    name: &str,
    bytes: &[u8],
) -> Result<Vec<u8>> {
    let now = std::fs::read(path).map_err(|e| Error::io(path.display().to_string(), e))?;
    opened.check(&now)?;
    replace_entry(&now, secret, name, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open::archive::archive_with;

    /// Every entry of `before` but `name` reads back the same from `after`; `name` holds
    /// `new`.
    fn only_changed(before: &[u8], after: &[u8], secret: Option<&Secret>, name: &str, new: &[u8]) {
        let (a, b) = (
            archive_with(before, secret).unwrap().unwrap(),
            archive_with(after, secret).unwrap().unwrap(),
        );
        assert_eq!(a.len(), b.len());
        for i in 0..a.len() {
            assert_eq!(a.name(i), b.name(i));
            let got = b.read(i).unwrap();
            if a.name(i) == name {
                assert_eq!(got.as_deref(), Some(new));
            } else {
                assert_eq!(got, a.read(i).unwrap(), "{}", a.name(i));
            }
        }
    }

    #[cfg(feature = "kingsisle")]
    #[test]
    fn a_wad_entry_is_replaced_by_name() {
        let bytes = include_bytes!("../../../../tests/fixtures/kingsisle/wad/Test.wad");
        let new = b"new text for text2\n".repeat(3);
        let out = replace_entry(bytes, None, "text2.txt", &new).unwrap();
        only_changed(bytes, &out, None, "text2.txt", &new);
        let e = replace_entry(bytes, None, "nope.txt", b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no entry \"nope.txt\""), "{e}");
    }

    #[cfg(feature = "godot")]
    #[test]
    fn a_pack_entry_is_replaced_by_name_with_the_key_it_was_read_with() {
        use gamewire_godot::pck::{Encryption, Key, Pack};
        let bytes = include_bytes!("../../../../tests/fixtures/godot/engine-3.2.3/packer.pck");
        let out = replace_entry(bytes, None, "res://hello.txt", b"hi\n").unwrap();
        only_changed(bytes, &out, None, "hello.txt", b"hi\n");
        let key = [3u8; 32];
        let mut p = Pack::new((4, 6, 0));
        p.add_file("a.txt", b"aaa".to_vec()).unwrap();
        p.add_file("b.txt", b"bbb".to_vec()).unwrap();
        p.encrypt(Encryption {
            key: Key::from_bytes(&key).unwrap(),
            directory: true,
            files: true,
        })
        .unwrap();
        let enc = p.to_bytes();
        let secret = Secret::Key(key.to_vec());
        let out = replace_entry(&enc, Some(&secret), "a.txt", b"a new a").unwrap();
        only_changed(&enc, &out, Some(&secret), "a.txt", b"a new a");
        assert!(replace_entry(&enc, None, "a.txt", b"x").is_err());
    }

    #[cfg(feature = "kingsisle")]
    #[test]
    fn a_file_changed_since_it_was_opened_is_refused() {
        let bytes = include_bytes!("../../../../tests/fixtures/kingsisle/wad/Test.wad");
        let dir = std::env::temp_dir().join(format!("gamewire-edit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.wad");
        std::fs::write(&path, bytes).unwrap();
        let print = Fingerprint::of(bytes);
        replace_in_file(&path, &print, None, "text1.txt", b"x").unwrap();
        let mut other = bytes.to_vec();
        other[20] ^= 1;
        std::fs::write(&path, &other).unwrap();
        let e = replace_in_file(&path, &print, None, "text1.txt", b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("changed on disk"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
