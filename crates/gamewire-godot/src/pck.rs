//! A writer of Godot resource packs (`.pck`), pack format 3, as Godot 4.5 and later
//! read with `--main-pack FILE` or `ProjectSettings.load_resource_pack`.
//!
//! The layout (from the engine's `core/io/file_access_pack.cpp`; all numbers little
//! endian):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `GDPC` |
//! | 4 | pack format (3) |
//! | 4 × 3 | engine major, minor, patch |
//! | 4 | pack flags: `PACK_REL_FILEBASE` (2), offsets relative to the pack's start |
//! | 8 | file base: where file data starts |
//! | 8 | directory offset |
//! | 4 × 16 | reserved (zero) |
//! | … | file data, each file padded to 16 bytes |
//! | 4 | file count, then per file: path length (padded to 4), the path (UTF-8, no `res://`, zero padded), offset from the file base (8), size (8), MD5 (16), file flags (4) |
//!
//! The MD5 field is written as zeros: the engine does not check it when it loads a pack
//! (Godot 3's `PCKPacker` wrote zeros there too). Files are stored unencrypted.
//!
//! ```
//! use gamewire_godot::pck::Pack;
//! let mut pack = Pack::new((4, 6, 0));
//! pack.add_file("res://project.godot", b"config_version=5\n".to_vec()).unwrap();
//! let bytes = pack.to_bytes();
//! assert_eq!(&bytes[..4], b"GDPC");
//! ```

/// The pack format this module writes.
pub const PACK_FORMAT: u32 = 3;
/// Pack flag: file offsets are relative to the file base, which is relative to the pack.
const PACK_REL_FILEBASE: u32 = 1 << 1;
/// Alignment of the file base and of each file's data, as the engine's exporter uses.
const ALIGNMENT: usize = 16;
/// Size of the header: magic, format, version (3), flags, file base, directory offset,
/// 16 reserved words.
const HEADER_LEN: usize = 4 * 6 + 8 + 8 + 16 * 4;

/// Why a file cannot go into a pack.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PackError {
    /// The path is empty, leaves the pack (`..`), or is not a `res://` or relative path.
    #[error("pack path {0:?} is not a path inside the project (res://NAME or NAME, no ..)")]
    BadPath(String),
    /// Two files with the same path.
    #[error("pack path {0:?} added twice")]
    Duplicate(String),
}

/// A resource pack being built: files in the order added.
#[derive(Debug, Clone)]
pub struct Pack {
    version: (u32, u32, u32),
    files: Vec<(String, Vec<u8>)>,
}

impl Pack {
    /// An empty pack stamped with engine version `(major, minor, patch)`. The engine
    /// refuses a pack whose major version is newer than its own.
    pub fn new(version: (u32, u32, u32)) -> Self {
        Pack {
            version,
            files: Vec::new(),
        }
    }

    /// Adds a file at `path` (`res://dir/name.gd` or `dir/name.gd`).
    pub fn add_file(&mut self, path: &str, data: Vec<u8>) -> Result<(), PackError> {
        let rel = path.strip_prefix("res://").unwrap_or(path);
        let bad = rel.is_empty()
            || rel.contains("://")
            || rel.starts_with('/')
            || rel.contains('\\')
            || rel
                .split('/')
                .any(|part| part.is_empty() || part == "." || part == "..");
        if bad {
            return Err(PackError::BadPath(path.to_owned()));
        }
        if self.files.iter().any(|(p, _)| p == rel) {
            return Err(PackError::Duplicate(path.to_owned()));
        }
        self.files.push((rel.to_owned(), data));
        Ok(())
    }

    /// The paths of the files added, without `res://`, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(p, _)| p.as_str())
    }

    /// The pack's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let file_base = align(HEADER_LEN, ALIGNMENT);
        let mut out = Vec::with_capacity(
            file_base
                + self
                    .files
                    .iter()
                    .map(|(p, d)| align(d.len(), ALIGNMENT) + p.len() + 44)
                    .sum::<usize>(),
        );
        out.extend_from_slice(b"GDPC");
        for word in [
            PACK_FORMAT,
            self.version.0,
            self.version.1,
            self.version.2,
            PACK_REL_FILEBASE,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&(file_base as u64).to_le_bytes());
        let dir_offset_at = out.len();
        out.extend_from_slice(&0u64.to_le_bytes()); // directory offset, set below
        out.resize(file_base, 0); // reserved words and padding
        let mut offsets = Vec::with_capacity(self.files.len());
        for (_, data) in &self.files {
            offsets.push((out.len() - file_base) as u64);
            out.extend_from_slice(data);
            out.resize(align(out.len(), ALIGNMENT), 0);
        }
        let dir_offset = out.len() as u64;
        out[dir_offset_at..dir_offset_at + 8].copy_from_slice(&dir_offset.to_le_bytes());
        out.extend_from_slice(&(self.files.len() as u32).to_le_bytes());
        for ((path, data), offset) in self.files.iter().zip(offsets) {
            let padded = align(path.len(), 4);
            out.extend_from_slice(&(padded as u32).to_le_bytes());
            out.extend_from_slice(path.as_bytes());
            out.resize(out.len() + padded - path.len(), 0);
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(&(data.len() as u64).to_le_bytes());
            out.extend_from_slice(&[0; 16]); // MD5: not checked by the engine on load
            out.extend_from_slice(&0u32.to_le_bytes()); // file flags: plain
        }
        out
    }
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }
    fn u64_at(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
    }

    #[test]
    fn layout_reads_back_as_the_engine_reads_it() {
        let mut pack = Pack::new((4, 6, 0));
        pack.add_file("res://project.godot", b"config_version=5\n".to_vec())
            .unwrap();
        pack.add_file("dir/a.gd", vec![7; 33]).unwrap();
        let b = pack.to_bytes();
        assert_eq!(&b[..4], b"GDPC");
        assert_eq!(
            [u32_at(&b, 4), u32_at(&b, 8), u32_at(&b, 12), u32_at(&b, 16)],
            [3, 4, 6, 0]
        );
        assert_eq!(u32_at(&b, 20), PACK_REL_FILEBASE);
        let file_base = u64_at(&b, 24) as usize;
        assert_eq!(file_base, 0x70, "as the engine's own exports");
        let mut at = u64_at(&b, 32) as usize;
        assert_eq!(u32_at(&b, at), 2);
        at += 4;
        let mut seen = Vec::new();
        for _ in 0..2 {
            let len = u32_at(&b, at) as usize;
            assert_eq!(len % 4, 0);
            let path = std::str::from_utf8(&b[at + 4..at + 4 + len])
                .unwrap()
                .trim_end_matches('\0')
                .to_owned();
            at += 4 + len;
            let ofs = file_base + u64_at(&b, at) as usize;
            let size = u64_at(&b, at + 8) as usize;
            assert_eq!(ofs % ALIGNMENT, 0);
            seen.push((path, b[ofs..ofs + size].to_vec()));
            at += 8 + 8 + 16 + 4;
        }
        assert_eq!(at, b.len());
        assert_eq!(
            seen,
            [
                ("project.godot".to_owned(), b"config_version=5\n".to_vec()),
                ("dir/a.gd".to_owned(), vec![7; 33])
            ]
        );
    }

    #[test]
    fn bad_paths_are_refused() {
        let mut pack = Pack::new((4, 6, 0));
        for p in ["", "res://", "../x", "a/../b", "/abs", "user://x", "a//b"] {
            assert_eq!(
                pack.add_file(p, vec![]),
                Err(PackError::BadPath(p.into())),
                "{p}"
            );
        }
        pack.add_file("a", vec![]).unwrap();
        assert_eq!(
            pack.add_file("res://a", vec![]),
            Err(PackError::Duplicate("res://a".into()))
        );
    }
}
