//! Godot resource packs (`.pck`, magic `GDPC`): reading formats 0 to 4 as Godot 2.x to
//! 4.7 write them ([`PackReader`]), and writing formats 1 to 4 ([`Pack`]).
//!
//! The layouts (from the engine's `core/io/file_access_pack.cpp` and the exporter's
//! `_save_pack` of each branch; all numbers little endian; `start` is where `GDPC`
//! is, 0 for a pack file, the pack's place in an executable it is embedded in):
//!
//! | format | engines | header after magic, format, engine major, minor, patch | directory | file offsets |
//! |---|---|---|---|---|
//! | 0, 1 | 2.x, 3.x | 16 reserved words | right after the header | absolute: from the start of the file holding the pack |
//! | 2 | 4.0 to 4.4 | pack flags (4), file base (8), 16 reserved words | right after the header | from the file base; the base is absolute, or from `start` with flag `PACK_REL_FILEBASE` (2, set from 4.3) |
//! | 3 | 4.5, 4.6 | pack flags, file base (8), directory offset (8), 16 reserved words | at the directory offset (from `start`), after the files | from the file base (from `start`) |
//! | 4 | 4.7 on | as 3; with `PACK_SPARSE_BUNDLE` (4) and an encrypted directory the first 32 reserved bytes hold the directory's salt | as 3 | as 3 |
//!
//! The directory is a file count (4), then per file: path length (4; the exporters pad
//! the path with zeros to a multiple of 4 and count the padding, Godot 3's `PCKPacker`
//! does not), the path (UTF-8,
//! `res://` before it up to Godot 4.3, none from 4.4 on; readers take both),
//! offset (8), size (8), MD5 of the stored bytes (16; zeros where the writer did not
//! compute it, as Godot 3's `PCKPacker`), and from format 2 on file flags (4:
//! `PACK_FILE_ENCRYPTED` 1, `PACK_FILE_REMOVAL` 2 for patch packs, `PACK_FILE_DELTA` 4).
//! Pack flag `PACK_DIR_ENCRYPTED` (1) means the directory after the file count is an
//! encrypted stream under the export's 32-byte encryption key: a `GDEC` file
//! ([`crate::container::encrypted`], Godot 4's layout) without its magic, as the engine
//! opens it with `p_with_magic` false (MD5 of the plaintext 16, length 8, IV 16, AES-256
//! CFB of the plaintext padded to 16); an entry with `PACK_FILE_ENCRYPTED` holds such a
//! stream at its offset, and the directory gives the plaintext's size and MD5 (the
//! exporter's `_save_pack_file`). [`PackReader::with_key`] reads both, [`Pack::encrypt`]
//! writes both; without the key they are refused with an error asking for it.
//!
//! [`replace`] puts new bytes in place of one file's, keeping every other byte of the
//! pack (its layout, alignment, other files and their order) and rewriting only the
//! sizes, MD5 and offsets that change.
//!
//! A pack embedded in an executable ends with its size (8) and `GDPC` again: the
//! header is at `end - 12 - size`.
//!
//! ```
//! use gamewire_godot::pck::{Pack, PackReader};
//! let mut pack = Pack::new((4, 6, 0));
//! pack.add_file("res://project.godot", b"config_version=5\n".to_vec()).unwrap();
//! let bytes = pack.to_bytes();
//! let read = PackReader::parse(&bytes).unwrap();
//! assert_eq!(read.entries()[0].name(), "project.godot");
//! assert_eq!(read.read_checked(&read.entries()[0]).unwrap(), b"config_version=5\n");
//! ```

mod edit;
mod read;
mod write;

pub use crate::container::encrypted::Key;
pub use edit::replace;
pub use read::{locate, Entry, PackInfo, PackReader};
pub use write::{Encryption, Pack, PackError, PACK_FORMAT};

/// The magic number at the start (and, embedded, the end) of a pack.
pub const MAGIC: &[u8; 4] = b"GDPC";
/// Pack flag: the directory is encrypted.
pub const PACK_DIR_ENCRYPTED: u32 = 1;
/// Pack flag: the file base is relative to the pack's start.
pub const PACK_REL_FILEBASE: u32 = 1 << 1;
/// Pack flag (format 4): the files are not in the pack but beside it (Android bundles).
pub const PACK_SPARSE_BUNDLE: u32 = 1 << 2;
/// File flag: the file is encrypted.
pub const PACK_FILE_ENCRYPTED: u32 = 1;
/// File flag: a patch pack removes this path.
pub const PACK_FILE_REMOVAL: u32 = 1 << 1;
/// File flag: the file is a binary delta against the same path in an earlier pack.
pub const PACK_FILE_DELTA: u32 = 1 << 2;

/// True when `data` starts with the pack magic.
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// Why a pack path may not be written to a folder: `None` when `name` (a path in the
/// pack, `res://` already removed) is a plain relative path; else the reason. Refused:
/// empty names and parts, `.` and `..` parts, absolute paths, backslashes, NUL, a
/// scheme (`user://`) or a drive (`C:`).
pub fn unsafe_path_reason(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("the path is empty");
    }
    if name.contains('\0') {
        return Some("the path holds a NUL byte");
    }
    if name.contains('\\') {
        return Some("the path holds a backslash");
    }
    if name.starts_with('/') {
        return Some("the path is absolute");
    }
    if name.contains(':') {
        return Some("the path holds a ':' (a scheme or a drive)");
    }
    for part in name.split('/') {
        match part {
            "" => return Some("the path has an empty part (//, or a trailing /)"),
            "." => return Some("the path has a '.' part"),
            ".." => return Some("the path leaves its folder (..)"),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_paths_are_named() {
        for p in [
            "", "../x", "a/../b", "/abs", "a\\b", "a\0b", "C:/x", "user://x", "a//b", "a/", "./a",
        ] {
            assert!(unsafe_path_reason(p).is_some(), "{p:?}");
        }
        for p in ["a", "a/b.c", ".import/x.stex", "a..b/c"] {
            assert_eq!(unsafe_path_reason(p), None, "{p:?}");
        }
    }
}
