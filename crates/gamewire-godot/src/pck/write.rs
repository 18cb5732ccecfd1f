//! Writing packs, formats 1 to 4, laid out as the engines' exporters lay them out.

use super::{MAGIC, PACK_DIR_ENCRYPTED, PACK_FILE_ENCRYPTED, PACK_REL_FILEBASE};
use crate::container::encrypted::{self, Key, Layout};
use md5::{Digest, Md5};
use std::borrow::Cow;

/// The pack format [`Pack::new`] writes (Godot 4.5 and 4.6; 4.7 reads it too).
pub const PACK_FORMAT: u32 = 3;
/// Alignment of the file base and of each file's data, as the engine's exporter uses.
const ALIGNMENT: usize = 16;

/// Why a file cannot go into a pack, or a pack cannot be written.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PackError {
    /// The path is empty, leaves the pack (`..`), or is not a `res://` or relative path.
    #[error("pack path {0:?} is not a path inside the project (res://NAME or NAME, no ..)")]
    BadPath(String),
    /// Two files with the same path.
    #[error("pack path {0:?} added twice")]
    Duplicate(String),
    /// Encryption asked of a format without pack flags (format 1, Godot 3).
    #[error("pack format {0} has no encryption flags: encrypted packs are format 2 on (Godot 4)")]
    NoEncryption(u32),
    /// A pack format gamewire does not write.
    #[error("pack format {0} is not one gamewire writes (1: Godot 3, 2: 4.0 to 4.4, 3: 4.5 and 4.6, 4: 4.7 on)")]
    BadFormat(u32),
}

/// A resource pack being built: files in the order added.
#[derive(Debug, Clone)]
pub struct Pack {
    format: u32,
    version: (u32, u32, u32),
    files: Vec<(String, Vec<u8>)>,
    encryption: Option<Encryption>,
}

/// What of a pack is encrypted, and with which key.
#[derive(Debug, Clone)]
pub struct Encryption {
    /// The export's 32-byte key.
    pub key: Key,
    /// Encrypt the directory (`PACK_DIR_ENCRYPTED`).
    pub directory: bool,
    /// Encrypt every file (`PACK_FILE_ENCRYPTED`).
    pub files: bool,
}

impl Pack {
    /// An empty pack of format 3 stamped with engine version `(major, minor, patch)`.
    /// The engine refuses a pack whose version is newer than its own.
    pub fn new(version: (u32, u32, u32)) -> Self {
        Pack {
            format: PACK_FORMAT,
            version,
            files: Vec::new(),
            encryption: None,
        }
    }

    /// An empty pack of `format` (1 to 4) stamped with engine `version`.
    pub fn with_format(format: u32, version: (u32, u32, u32)) -> Result<Self, PackError> {
        if !(1..=4).contains(&format) {
            return Err(PackError::BadFormat(format));
        }
        Ok(Pack {
            format,
            version,
            files: Vec::new(),
            encryption: None,
        })
    }

    /// Encrypts the directory and/or the files as the engine's exporter does with an
    /// encryption key: each as an encrypted stream (Godot 4's `GDEC` layout without the
    /// magic, a fresh IV each)
    /// where the plain bytes would be; the directory keeps the plaintext's size and
    /// MD5. Format 1 has no flags to say so: an error.
    pub fn encrypt(&mut self, encryption: Encryption) -> Result<(), PackError> {
        if self.format < 2 {
            return Err(PackError::NoEncryption(self.format));
        }
        self.encryption = Some(encryption);
        Ok(())
    }

    /// The engine version a pack of `format` is stamped with when none is named: the
    /// release line writing that format last (3.6.0, 4.4.0, 4.6.0, 4.7.0).
    pub fn default_version(format: u32) -> (u32, u32, u32) {
        match format {
            1 => (3, 6, 0),
            2 => (4, 4, 0),
            3 => (4, 6, 0),
            _ => (4, 7, 0),
        }
    }

    /// The pack format.
    pub fn format(&self) -> u32 {
        self.format
    }

    /// Adds a file at `path` (`res://dir/name.gd` or `dir/name.gd`).
    pub fn add_file(&mut self, path: &str, data: Vec<u8>) -> Result<(), PackError> {
        let rel = path.strip_prefix("res://").unwrap_or(path);
        if super::unsafe_path_reason(rel).is_some() {
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

    /// The path as the directory stores it: `res://` before it as engines before 4.4
    /// wrote it.
    fn stored_path(&self, rel: &str) -> String {
        if self.version < (4, 4, 0) {
            format!("res://{rel}")
        } else {
            rel.to_owned()
        }
    }

    /// The bytes stored for each file: itself, or its encrypted stream.
    fn stored(&self) -> Vec<Cow<'_, [u8]>> {
        self.files
            .iter()
            .map(|(_, d)| match &self.encryption {
                Some(e) if e.files => Cow::Owned(stream(d, &e.key)),
                _ => Cow::Borrowed(d.as_slice()),
            })
            .collect()
    }

    /// The directory as stored: the count, then the records (encrypted when asked);
    /// offsets are `add` plus the file's place after the file base.
    fn directory(&self, stored: &[Cow<'_, [u8]>], add: u64) -> Vec<u8> {
        let file_flags = match &self.encryption {
            Some(e) if e.files => PACK_FILE_ENCRYPTED,
            _ => 0,
        };
        let mut rec = Vec::new();
        let mut offset = 0u64;
        for ((path, data), s) in self.files.iter().zip(stored) {
            let path = self.stored_path(path);
            let padded = align(path.len(), 4);
            rec.extend_from_slice(&(padded as u32).to_le_bytes());
            rec.extend_from_slice(path.as_bytes());
            rec.resize(rec.len() + padded - path.len(), 0);
            rec.extend_from_slice(&(add + offset).to_le_bytes());
            rec.extend_from_slice(&(data.len() as u64).to_le_bytes());
            rec.extend_from_slice(&Md5::digest(data));
            if self.format >= 2 {
                rec.extend_from_slice(&file_flags.to_le_bytes());
            }
            offset += align(s.len(), ALIGNMENT) as u64;
        }
        let mut out = (self.files.len() as u32).to_le_bytes().to_vec();
        match &self.encryption {
            Some(e) if e.directory => out.extend_from_slice(&stream(&rec, &e.key)),
            _ => out.extend_from_slice(&rec),
        }
        out
    }

    /// The pack's bytes. Each file's MD5 is computed, as the engines' exporters do.
    pub fn to_bytes(&self) -> Vec<u8> {
        let stored = self.stored();
        let data_len: usize = stored.iter().map(|d| align(d.len(), ALIGNMENT)).sum();
        // The directory's length does not depend on the offsets in it.
        let dir_len = self.directory(&stored, 0).len();
        let mut out = Vec::with_capacity(128 + dir_len + data_len);
        out.extend_from_slice(MAGIC);
        for word in [self.format, self.version.0, self.version.1, self.version.2] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        let dir_flag = match &self.encryption {
            Some(e) if e.directory => PACK_DIR_ENCRYPTED,
            _ => 0,
        };
        match self.format {
            1 => {
                out.resize(out.len() + 64, 0); // reserved
                let base = align(out.len() + dir_len, ALIGNMENT);
                out.extend_from_slice(&self.directory(&stored, base as u64));
                out.resize(base, 0);
                write_data(&mut out, &stored);
            }
            2 => {
                // From 4.3 the exporter writes the file base relative to the pack.
                let rel = if self.version >= (4, 3, 0) {
                    PACK_REL_FILEBASE
                } else {
                    0
                };
                out.extend_from_slice(&(rel | dir_flag).to_le_bytes());
                let base_at = out.len();
                out.extend_from_slice(&0u64.to_le_bytes());
                out.resize(out.len() + 64, 0); // reserved
                let base = align(out.len() + dir_len, ALIGNMENT);
                out[base_at..base_at + 8].copy_from_slice(&(base as u64).to_le_bytes());
                out.extend_from_slice(&self.directory(&stored, 0));
                out.resize(base, 0);
                write_data(&mut out, &stored);
            }
            _ => {
                out.extend_from_slice(&(PACK_REL_FILEBASE | dir_flag).to_le_bytes());
                let base_at = out.len();
                out.extend_from_slice(&0u64.to_le_bytes());
                let dir_at = out.len();
                out.extend_from_slice(&0u64.to_le_bytes());
                out.resize(out.len() + 64, 0); // reserved
                let base = align(out.len(), ALIGNMENT);
                out.resize(base, 0);
                out[base_at..base_at + 8].copy_from_slice(&(base as u64).to_le_bytes());
                write_data(&mut out, &stored);
                let dir = out.len() as u64;
                out[dir_at..dir_at + 8].copy_from_slice(&dir.to_le_bytes());
                out.extend_from_slice(&self.directory(&stored, 0));
            }
        }
        out
    }
}

/// `plain` encrypted as the engine stores it in a pack: a `GDEC` file of Godot 4's
/// layout (fresh IV) without its magic.
pub(super) fn stream(plain: &[u8], key: &Key) -> Vec<u8> {
    let iv = encrypted::random_iv();
    encrypted::encrypt(plain, key, &Layout::V4 { iv }).split_off(encrypted::MAGIC.len())
}

fn write_data(out: &mut Vec<u8>, stored: &[Cow<'_, [u8]>]) {
    for data in stored {
        out.extend_from_slice(data);
        out.resize(align(out.len(), ALIGNMENT), 0);
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
