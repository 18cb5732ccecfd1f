//! KingsIsle `KIWAD` archives (Wizard101's and Pirate101's `Root.wad` and zone archives):
//! list, read and build them.
//!
//! The layout (little-endian; see `docs/FORMATS.md`):
//!
//! ```text
//! "KIWAD"  u32 version  u32 count  [u8 flags, version >= 2]
//! count x { u32 offset  u32 size  u32 compressed_size  u8 compressed  u32 crc
//!           u32 name_length  name bytes (name_length, the last one NUL) }
//! entry data: each entry's stored bytes at its absolute offset
//! ```
//!
//! An entry is stored as it is (`compressed` 0, `compressed_size` 0xFFFFFFFF as the
//! tools write it) or as one zlib stream of `compressed_size` bytes inflating to `size`.
//! The CRC is the game's CRC-32 ([`crc`]) of the *stored* bytes. A placeholder entry (an
//! unpatched file the game downloads later) has stored bytes starting with four zero
//! bytes and a CRC that does not match them: it is read as [`Contents::Placeholder`].
//!
//! - [`Archive`]: the journal over bytes you hold or a memory map ([`Mapped`]); names are
//!   borrowed from the bytes; [`Archive::read`] inflates on demand, checks the CRC and
//!   stops a zlib bomb at the declared size.
//! - [`Builder`]: builds an archive (version 1 or 2 header, the flags byte, each entry
//!   stored or zlib-compressed); [`Builder::from_archive`] writes an archive back byte
//!   for byte; [`replace`] writes it with one entry's bytes replaced, everything else
//!   kept.
//! - [`check_name`]: whether an entry name is safe to write under a folder.

mod map;
mod read;
mod write;

pub use map::Mapped;
pub use read::{Archive, Checked, Contents, Entry, Header};
pub use write::{replace, Builder, Prepared};

use gamewire_core::Result;

/// The archive's first five bytes.
pub const MAGIC: &[u8; 5] = b"KIWAD";

/// The `compressed_size` KingsIsle's and the community's tools write for a stored entry.
pub const STORED_MARK: u32 = u32::MAX;

/// True when `data` starts like a `KIWAD` archive.
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// The CRC-32 of `data` as KIWAD journals hold it: the reflected 0xEDB88320 polynomial
/// with the register starting at 0 and no final inversion (the standard CRC-32 with its
/// start and end inversions undone).
pub fn crc(data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(u32::MAX);
    h.update(data);
    !h.finalize()
}

/// Checks that the entry name `name` is a relative path that stays inside the folder it
/// is written under ([`gamewire_core::files::check_entry_name`]); the error names the
/// entry.
pub fn check_name(name: &str) -> Result<()> {
    gamewire_core::files::check_entry_name(name)
}

/// Matches `name` against a shell pattern: `*` any run of characters except `/`, `**` any
/// run including `/`, `?` one character except `/`; everything else literally.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    fn go(p: &[u8], n: &[u8]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some(b'*') if p.get(1) == Some(&b'*') => {
                // `**/` also matches no folder at all.
                (p.get(2) == Some(&b'/') && go(&p[3..], n))
                    || (0..=n.len()).any(|i| go(&p[2..], &n[i..]))
            }
            Some(b'*') => {
                let rest = &p[1..];
                for i in 0..=n.len() {
                    if go(rest, &n[i..]) {
                        return true;
                    }
                    if n.get(i) == Some(&b'/') {
                        break;
                    }
                }
                false
            }
            Some(b'?') => n.first().is_some_and(|&c| c != b'/') && go(&p[1..], &n[1..]),
            Some(&c) => n.first() == Some(&c) && go(&p[1..], &n[1..]),
        }
    }
    go(pattern.as_bytes(), name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_is_the_register_without_inversions() {
        // The standard CRC-32 of "123456789" is 0xCBF43926; without the start and end
        // inversions the same bytes give 0x2DFD2D88.
        assert_eq!(crc(b"123456789"), 0x2DFD_2D88);
        assert_eq!(crc(b""), 0);
    }

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "a/../../b",
            "..",
            "a\\b",
            "a\0b",
            "C:x",
            "a//b",
            "./a",
        ] {
            let e = check_name(bad).unwrap_err().to_string();
            assert!(e.contains("refused"), "{bad:?}: {e}");
        }
        for good in ["a", "a/b.xml", "x..y/z", "ObjectData/Items/Sword.xml"] {
            check_name(good).unwrap();
        }
    }

    #[test]
    fn globs() {
        assert!(glob_match("*.xml", "a.xml"));
        assert!(!glob_match("*.xml", "d/a.xml"));
        assert!(glob_match("**/*.xml", "d/e/a.xml"));
        assert!(glob_match("**.xml", "d/e/a.xml"));
        assert!(glob_match("d/?.xml", "d/a.xml"));
        assert!(!glob_match("d/?.xml", "d/ab.xml"));
        assert!(glob_match("ObjectData/**", "ObjectData/x/y.xml"));
    }
}
