//! Reading packs, formats 0 to 4, standalone or embedded at the end of an executable.
//!
//! Every count, offset and size is checked against the input before it is used: a
//! directory claiming more files than the bytes can hold, or an entry past the end, is
//! an error naming the byte offset (and the entry), and memory stays in proportion to
//! the input.

use super::{
    MAGIC, PACK_DIR_ENCRYPTED, PACK_FILE_DELTA, PACK_FILE_ENCRYPTED, PACK_FILE_REMOVAL,
    PACK_REL_FILEBASE,
};
use crate::container::encrypted::{self, Key};
use gamewire_core::{Error, Result};
use md5::{Digest, Md5};
use std::borrow::Cow;

/// What a pack's header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackInfo {
    /// Pack format (0 to 4).
    pub format: u32,
    /// Engine version that wrote it: major, minor, patch.
    pub version: (u32, u32, u32),
    /// Pack flags (format 2 on; 0 before).
    pub flags: u32,
    /// Where the pack starts in the input (0, or its place in an executable).
    pub start: u64,
    /// Where the pack's file data starts in the input (0 for format 1, whose offsets
    /// are absolute).
    pub file_base: u64,
    /// Where the directory (its file count) is in the input.
    pub directory: u64,
    /// True when the pack was found at the end of a larger file (an executable).
    pub embedded: bool,
}

impl PackInfo {
    /// True when the directory is encrypted.
    pub fn directory_encrypted(&self) -> bool {
        self.flags & PACK_DIR_ENCRYPTED != 0
    }
}

/// One file of a pack's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path as stored (zero padding removed): `res://a/b.gd` or `a/b.gd`.
    pub path: String,
    /// Where its bytes are in the input.
    pub offset: u64,
    /// Its size in bytes.
    pub size: u64,
    /// The MD5 the directory gives (zeros when the writer gave none).
    pub md5: [u8; 16],
    /// File flags (`PACK_FILE_*`).
    pub flags: u32,
    /// Where its directory record is: in the input, or, for a pack whose directory is
    /// encrypted, in the decrypted directory (after the file count).
    pub record: u64,
}

impl Entry {
    /// The path without `res://`.
    pub fn name(&self) -> &str {
        self.path.strip_prefix("res://").unwrap_or(&self.path)
    }

    /// True when the entry holds an encrypted stream.
    pub fn encrypted(&self) -> bool {
        self.flags & PACK_FILE_ENCRYPTED != 0
    }

    /// True for a patch pack's removal of the path (no data).
    pub fn removal(&self) -> bool {
        self.flags & PACK_FILE_REMOVAL != 0
    }

    /// True when the data is a binary delta against an earlier pack's file.
    pub fn delta(&self) -> bool {
        self.flags & PACK_FILE_DELTA != 0
    }

    /// True when the directory gives an MD5 (not all zeros).
    pub fn has_md5(&self) -> bool {
        self.md5 != [0; 16]
    }

    /// The MD5 in lower-case hex.
    pub fn md5_hex(&self) -> String {
        self.md5.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// A pack read from bytes: its header and directory; file data is read on demand.
#[derive(Debug, Clone)]
pub struct PackReader<'a> {
    data: &'a [u8],
    info: PackInfo,
    entries: Vec<Entry>,
    key: Option<Key>,
}

/// Bytes of a format 1 directory record besides the path; format 2 on add 4 (flags).
const RECORD_FIXED: u64 = 4 + 8 + 8 + 16;

struct Cursor<'a> {
    data: &'a [u8],
    at: u64,
}

impl Cursor<'_> {
    fn take(&mut self, n: u64, what: &str) -> Result<&[u8]> {
        let len = self.data.len() as u64;
        if n > len.saturating_sub(self.at) {
            return Err(Error::msg_at(
                self.at as usize,
                format!(
                    "pack truncated: {what} needs {n} bytes, {} left",
                    len.saturating_sub(self.at)
                ),
            ));
        }
        let s = &self.data[self.at as usize..(self.at + n) as usize];
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

impl<'a> PackReader<'a> {
    /// Reads the header and directory of the pack in `data`: a pack file (`GDPC` at
    /// the start), or an executable with a pack at its end. An encrypted directory is
    /// refused with a reason (it needs the key: [`PackReader::with_key`]); encrypted
    /// entries are listed and refused when read.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        Self::with_key(data, None)
    }

    /// Reads the pack in `data` as [`PackReader::parse`] does, decrypting with `key`
    /// (the export's 32-byte encryption key) an encrypted directory (`PACK_DIR_ENCRYPTED`)
    /// and, when read, encrypted entries (`PACK_FILE_ENCRYPTED`). As the engine lays them
    /// out, each is an encrypted stream ([`encrypted`], Godot 4's layout without the
    /// `GDEC` magic) where the plain bytes would be: the directory after the file count, an entry at its offset, whose size
    /// and MD5 in the directory are those of the plaintext. A wrong key is an error
    /// saying so.
    pub fn with_key(data: &'a [u8], key: Option<&Key>) -> Result<Self> {
        let (start, embedded) = if data.starts_with(MAGIC) {
            (0u64, false)
        } else if let Some(start) = embedded_start(data)? {
            (start, true)
        } else {
            return Err(Error::msg_at(
                0,
                "not a Godot pack: no GDPC magic at the start or at the end",
            ));
        };
        let mut c = Cursor {
            data,
            at: start + 4,
        };
        let format = c.u32("the pack format")?;
        if !(1..=4).contains(&format) {
            return Err(Error::msg_at(
                (start + 4) as usize,
                format!(
                    "pack format {format} is not one gamewire reads (1 to 4: Godot 3.x to 4.7)"
                ),
            ));
        }
        let version = (
            c.u32("the engine version")?,
            c.u32("the engine version")?,
            c.u32("the engine version")?,
        );
        let (mut flags, mut file_base) = (0, 0);
        if format >= 2 {
            flags = c.u32("the pack flags")?;
            file_base = c.u64("the file base")?;
            if format >= 3 || flags & PACK_REL_FILEBASE != 0 {
                file_base = file_base.checked_add(start).ok_or_else(|| {
                    Error::msg_at((start + 24) as usize, "the file base overflows")
                })?;
            }
        }
        let directory = if format >= 3 {
            let at = c.at;
            let dir = c.u64("the directory offset")?;
            c.take(64, "the reserved header words")?;
            let dir = dir
                .checked_add(start)
                .filter(|&d| d < data.len() as u64)
                .ok_or_else(|| {
                    Error::msg_at(
                        at as usize,
                        format!(
                            "the directory offset {dir} is past the end of the pack ({} bytes)",
                            data.len() as u64 - start
                        ),
                    )
                })?;
            c.at = dir;
            dir
        } else {
            c.take(64, "the reserved header words")?;
            c.at
        };
        let info = PackInfo {
            format,
            version,
            flags,
            start,
            file_base,
            directory,
            embedded,
        };
        let count_at = c.at;
        let count = c.u32("the file count")? as u64;
        let plain_dir;
        let (mut c, dir_base) = if info.directory_encrypted() {
            let Some(key) = key else {
                return Err(Error::msg_at(
                    c.at as usize,
                    format!(
                        "the pack's directory of {count} files is encrypted (PACK_DIR_ENCRYPTED): \
                         give the game's 32-byte export encryption key to read it (gamewire: \
                         --key HEX or the GAMEWIRE_GODOT_KEY environment variable)"
                    ),
                ));
            };
            plain_dir = decrypt_at(data, c.at, key, "the pack's directory")?;
            (
                Cursor {
                    data: &plain_dir,
                    at: 0,
                },
                Some(c.at),
            )
        } else {
            (c, None)
        };
        let in_dir = |e: Error| match dir_base {
            Some(base) => Error::msg_at(
                base as usize,
                format!(
                    "in the decrypted directory at byte {}: {}",
                    c_at(&e),
                    strip_at(&e)
                ),
            ),
            None => e,
        };
        let record = RECORD_FIXED + if format >= 2 { 4 } else { 0 };
        let left = c.data.len() as u64 - c.at;
        if count > left / record {
            return Err(Error::msg_at(
                count_at as usize,
                format!(
                    "the directory claims {count} files; the {left} bytes after it hold at most {}",
                    left / record
                ),
            ));
        }
        let mut entries = Vec::with_capacity(count as usize);
        let mut read_records = || -> Result<()> {
            for i in 0..count {
                let at = c.at;
                let len = c.u32("a path length")? as u64;
                let raw = c.take(len, "a path").map_err(|e| {
                    Error::msg_at(at as usize, format!("entry {i}: {}", strip_at(&e)))
                })?;
                let raw = match raw.iter().position(|&b| b == 0) {
                    Some(n) => &raw[..n],
                    None => raw,
                };
                let path = std::str::from_utf8(raw)
                    .map_err(|_| {
                        Error::msg_at(
                            (at + 4) as usize,
                            format!("entry {i}: the path is not UTF-8"),
                        )
                    })?
                    .to_owned();
                let named =
                    |e: Error| Error::msg_at(c_at(&e), format!("entry {path:?}: {}", strip_at(&e)));
                let ofs = c.u64("the file offset").map_err(named)?;
                let size = c.u64("the file size").map_err(named)?;
                let md5: [u8; 16] = c
                    .take(16, "the MD5")
                    .map_err(named)?
                    .try_into()
                    .expect("16 bytes");
                let fl = if format >= 2 {
                    c.u32("the file flags").map_err(named)?
                } else {
                    0
                };
                let offset = file_base.checked_add(ofs).ok_or_else(|| {
                    Error::msg_at(
                        at as usize,
                        format!("entry {path:?}: the file offset overflows"),
                    )
                })?;
                let removal = fl & PACK_FILE_REMOVAL != 0;
                // An encrypted entry's size is its plaintext's; its encrypted stream is stored.
                let stored = if fl & PACK_FILE_ENCRYPTED != 0 {
                    encrypted_len(size)
                } else {
                    size
                };
                if !removal && (offset > data.len() as u64 || stored > data.len() as u64 - offset) {
                    return Err(Error::msg_at(
                    at as usize,
                    format!(
                        "entry {path:?}: its {stored} stored bytes at offset {offset} run past the end of the input ({} bytes)",
                        data.len()
                    ),
                ));
                }
                entries.push(Entry {
                    path,
                    offset,
                    size,
                    md5,
                    flags: fl,
                    record: at,
                });
            }
            Ok(())
        };
        read_records().map_err(in_dir)?;
        Ok(PackReader {
            data,
            info,
            entries,
            key: key.cloned(),
        })
    }

    /// The header.
    pub fn info(&self) -> &PackInfo {
        &self.info
    }

    /// The directory, in the pack's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry at `name` (with or without `res://`); the last one when a path is
    /// listed twice, as the engine keeps.
    pub fn find(&self, name: &str) -> Option<&Entry> {
        let name = name.strip_prefix("res://").unwrap_or(name);
        self.entries.iter().rev().find(|e| e.name() == name)
    }

    /// The stored bytes of `entry`, unchecked: for an encrypted entry its encrypted
    /// stream.
    pub fn read(&self, entry: &Entry) -> &'a [u8] {
        if entry.removal() {
            return &[];
        }
        let stored = if entry.encrypted() {
            encrypted_len(entry.size)
        } else {
            entry.size
        };
        &self.data[entry.offset as usize..(entry.offset + stored) as usize]
    }

    /// True when the pack was read with a key.
    pub fn has_key(&self) -> bool {
        self.key.is_some()
    }

    /// The content of `entry`: decrypted with the pack's key when it is encrypted, its
    /// MD5 checked where the directory gives one (the plaintext's, for an encrypted
    /// entry). An encrypted entry without a key, a wrong key and a delta patch are
    /// errors saying so.
    pub fn read_content(&self, entry: &Entry) -> Result<Cow<'a, [u8]>> {
        if !entry.encrypted() || entry.removal() {
            return self.read_checked(entry).map(Cow::Borrowed);
        }
        let Some(key) = &self.key else {
            return Err(Error::msg_at(
                entry.offset as usize,
                format!(
                    "entry {:?} is encrypted (PACK_FILE_ENCRYPTED): give the game's 32-byte \
                     export encryption key to read it (gamewire: --key HEX or the \
                     GAMEWIRE_GODOT_KEY environment variable)",
                    entry.path
                ),
            ));
        };
        let plain = decrypt_at(
            self.data,
            entry.offset,
            key,
            &format!("entry {:?}", entry.path),
        )?;
        if plain.len() as u64 != entry.size {
            return Err(Error::msg_at(
                entry.offset as usize,
                format!(
                    "entry {:?}: the directory gives {} bytes, its encrypted stream holds {}",
                    entry.path,
                    entry.size,
                    plain.len()
                ),
            ));
        }
        self.check_md5(entry, &plain)?;
        Ok(Cow::Owned(plain))
    }

    /// The bytes of `entry`, with its MD5 checked where the directory gives one.
    /// Encrypted entries (read them with [`PackReader::read_content`]) and delta
    /// patches are refused: their bytes are not the content.
    pub fn read_checked(&self, entry: &Entry) -> Result<&'a [u8]> {
        if entry.encrypted() && !entry.removal() {
            return Err(Error::msg_at(
                entry.offset as usize,
                format!(
                    "entry {:?} is encrypted (PACK_FILE_ENCRYPTED): reading it needs the game's \
                     export encryption key",
                    entry.path
                ),
            ));
        }
        if entry.delta() {
            return Err(Error::msg_at(
                entry.offset as usize,
                format!(
                    "entry {:?} is a delta patch (PACK_FILE_DELTA) against an earlier pack's file",
                    entry.path
                ),
            ));
        }
        let bytes = self.read(entry);
        self.check_md5(entry, bytes)?;
        Ok(bytes)
    }

    fn check_md5(&self, entry: &Entry, bytes: &[u8]) -> Result<()> {
        if entry.has_md5() && !entry.removal() {
            let got: [u8; 16] = Md5::digest(bytes).into();
            if got != entry.md5 {
                return Err(Error::msg_at(
                    entry.offset as usize,
                    format!(
                        "entry {:?}: MD5 mismatch: the directory gives {}, its {} bytes hash to {}",
                        entry.path,
                        entry.md5_hex(),
                        entry.size,
                        got.iter().map(|b| format!("{b:02x}")).collect::<String>()
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Bytes of the encrypted stream holding `size` bytes of plaintext: a `GDEC` file of
/// Godot 4's layout without its magic (the engine opens pack streams with
/// `p_with_magic` false): MD5, length, IV (40), then the plaintext padded to 16.
pub(super) fn encrypted_len(size: u64) -> u64 {
    size.div_ceil(16).saturating_mul(16).saturating_add(40)
}

/// Decrypts the encrypted stream (no magic) at `at` in `data` with `key`; `what` names
/// it in errors.
pub(super) fn decrypt_at(data: &[u8], at: u64, key: &Key, what: &str) -> Result<Vec<u8>> {
    let head = data
        .get(at as usize..)
        .filter(|h| h.len() >= 40)
        .ok_or_else(|| {
            Error::msg_at(
                at as usize,
                format!("{what} is marked encrypted but the input ends before its stream's header"),
            )
        })?;
    let len = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let total = encrypted_len(len);
    if total > head.len() as u64 {
        return Err(Error::msg_at(
            at as usize + 16,
            format!("{what}: its encrypted stream of {len} bytes runs past the end of the input"),
        ));
    }
    // The stream is a GDEC file without its magic.
    let mut file = Vec::with_capacity(4 + total as usize);
    file.extend_from_slice(encrypted::MAGIC);
    file.extend_from_slice(&head[..total as usize]);
    encrypted::decrypt(&file, key)
        .map(|d| d.plaintext)
        .map_err(|e| {
            Error::msg_at(
                (at as usize + e.offset().unwrap_or(4)).saturating_sub(4),
                format!("{what}: {}", strip_at(&e)),
            )
        })
}

/// The error's offset, or 0.
fn c_at(e: &Error) -> usize {
    e.offset().unwrap_or(0)
}

/// The error's message without the position the caller adds again.
fn strip_at(e: &Error) -> String {
    match e.kind() {
        gamewire_core::ErrorKind::Message(m) => m.clone(),
        k => k.to_string(),
    }
}

/// Where the pack in `data` starts: 0 for a pack file, or the place of a pack embedded
/// at the end of an executable whose trailer points at a `GDPC` header; `None` when
/// `data` holds no pack.
pub fn locate(data: &[u8]) -> Option<u64> {
    if data.starts_with(MAGIC) {
        return Some(0);
    }
    embedded_start(data).ok().flatten()
}

/// The start of a pack embedded at the end of `data` (`... size (8) GDPC`), if any.
fn embedded_start(data: &[u8]) -> Result<Option<u64>> {
    let n = data.len();
    if n < 16 || &data[n - 4..] != MAGIC {
        return Ok(None);
    }
    let size = u64::from_le_bytes(data[n - 12..n - 4].try_into().expect("8 bytes"));
    let start = (n as u64 - 12).checked_sub(size);
    match start {
        Some(s) if data[s as usize..].starts_with(MAGIC) => Ok(Some(s)),
        _ => Err(Error::msg_at(
            n - 12,
            format!(
                "the input ends with GDPC and a pack size of {size}, but no pack header is \
                 {size} bytes before it"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Pack;
    use super::*;

    fn sample(format: u32) -> Vec<u8> {
        sample_v(format, Pack::default_version(format))
    }

    fn sample_v(format: u32, version: (u32, u32, u32)) -> Vec<u8> {
        let mut p = Pack::with_format(format, version).unwrap();
        p.add_file("project.binary", b"ECFG\0\0\0\0".to_vec())
            .unwrap();
        p.add_file("res://a/b.txt", vec![9; 37]).unwrap();
        p.to_bytes()
    }

    #[test]
    fn every_format_reads_back_what_was_written() {
        for f in 1..=4 {
            let bytes = sample(f);
            let r = PackReader::parse(&bytes).unwrap();
            assert_eq!(r.info().format, f);
            let names: Vec<_> = r.entries().iter().map(|e| e.name()).collect();
            assert_eq!(names, ["project.binary", "a/b.txt"]);
            // res:// before the paths up to 4.3 (format 2's default stamp is 4.4).
            assert_eq!(
                r.entries()[0].path.starts_with("res://"),
                f == 1,
                "format {f}"
            );
            assert_eq!(
                r.read_checked(r.find("res://a/b.txt").unwrap()).unwrap(),
                &[9; 37][..]
            );
            for e in r.entries() {
                assert_eq!(e.offset % 16, 0, "format {f}: data aligned");
                assert!(e.has_md5());
            }
        }
    }

    #[test]
    fn embedded_packs_are_found_at_the_end() {
        // (format, engine, offsets absolute in the file): format 1, and format 2 before
        // 4.3 (no PACK_REL_FILEBASE), were written for the pack's place in the executable.
        for (f, v, absolute) in [
            (1, (3, 6, 0), true),
            (2, (4, 2, 0), true),
            (2, (4, 4, 0), false),
            (3, (4, 6, 0), false),
            (4, (4, 7, 0), false),
        ] {
            let pack = sample_v(f, v);
            let mut exe = vec![0x7f; 1000];
            let fixed = if absolute {
                relocate(&pack, f, 1000)
            } else {
                pack.clone()
            };
            exe.extend_from_slice(&fixed);
            exe.extend_from_slice(&(fixed.len() as u64).to_le_bytes());
            exe.extend_from_slice(b"GDPC");
            let r = PackReader::parse(&exe).unwrap();
            assert!(r.info().embedded);
            assert_eq!(r.info().start, 1000);
            let e = r.find("a/b.txt").unwrap();
            assert_eq!(r.read_checked(e).unwrap(), &[9; 37][..], "format {f} {v:?}");
        }
    }

    /// Shifts the absolute offsets of a format 1 or 2 pack by `by`.
    fn relocate(pack: &[u8], format: u32, by: u64) -> Vec<u8> {
        let mut out = pack.to_vec();
        if format == 2 {
            let base = u64::from_le_bytes(out[24..32].try_into().unwrap()) + by;
            out[24..32].copy_from_slice(&base.to_le_bytes());
            return out;
        }
        let r = PackReader::parse(pack).unwrap();
        for e in r.entries() {
            let at = e.record as usize + 4 + align4(&out, e.record as usize);
            let v = u64::from_le_bytes(out[at..at + 8].try_into().unwrap()) + by;
            out[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    fn align4(b: &[u8], at: usize) -> usize {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
    }

    #[test]
    fn damage_is_named() {
        let good = sample(3);
        // Truncation at every byte: an error, never a panic.
        for n in 0..good.len() {
            assert!(PackReader::parse(&good[..n]).is_err(), "cut at {n}");
        }
        // A count the bytes cannot hold.
        let r = PackReader::parse(&good).unwrap();
        let dir = r.info().directory as usize;
        let mut bad = good.clone();
        bad[dir..dir + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = PackReader::parse(&bad).unwrap_err().to_string();
        assert!(e.contains("claims 4294967295 files"), "{e}");
        // An entry past the end names the entry.
        let rec = r.entries()[1].record as usize;
        let size_at = rec + 4 + 8 + 8;
        let mut bad = good.clone();
        bad[size_at..size_at + 8].copy_from_slice(&1_000_000u64.to_le_bytes());
        let e = PackReader::parse(&bad).unwrap_err().to_string();
        assert!(
            e.contains("\"a/b.txt\"") && e.contains("past the end"),
            "{e}"
        );
        // An MD5 mismatch names the entry and both sums.
        let mut bad = good.clone();
        let at = r.entries()[1].offset as usize;
        bad[at] ^= 1;
        let r2 = PackReader::parse(&bad).unwrap();
        let e = r2.read_checked(&r2.entries()[1]).unwrap_err().to_string();
        assert!(e.contains("MD5 mismatch") && e.contains("a/b.txt"), "{e}");
        // Encrypted directories and entries are refused with the reason.
        let mut bad = good.clone();
        bad[20] |= PACK_DIR_ENCRYPTED as u8;
        let e = PackReader::parse(&bad).unwrap_err().to_string();
        assert!(e.contains("encrypted"), "{e}");
        let mut bad = good.clone();
        let flags_at = r.entries()[0].record as usize + 4 + 16 + 8 + 8 + 16;
        bad[flags_at] = PACK_FILE_ENCRYPTED as u8;
        let r3 = PackReader::parse(&bad).unwrap();
        let e = r3.read_checked(&r3.entries()[0]).unwrap_err().to_string();
        assert!(
            e.contains("encrypted") && e.contains("project.binary"),
            "{e}"
        );
    }

    #[test]
    fn encrypted_packs_read_back_with_the_key_and_say_what_they_need() {
        use super::super::Encryption;
        let key = Key::from_hex(&"5a".repeat(32)).unwrap();
        let wrong = Key::from_hex(&"a5".repeat(32)).unwrap();
        let body: Vec<u8> = (0..100u8).collect();
        for f in 2..=4 {
            for (directory, files) in [(true, false), (false, true), (true, true)] {
                let ctx = format!("format {f}, directory {directory}, files {files}");
                let mut p = Pack::with_format(f, Pack::default_version(f)).unwrap();
                p.add_file("project.binary", b"ECFG\0\0\0\0".to_vec())
                    .unwrap();
                p.add_file("a/b.bin", body.clone()).unwrap();
                p.encrypt(Encryption {
                    key: key.clone(),
                    directory,
                    files,
                })
                .unwrap();
                let bytes = p.to_bytes();
                let r = PackReader::with_key(&bytes, Some(&key)).unwrap();
                assert_eq!(r.info().directory_encrypted(), directory, "{ctx}");
                assert_eq!(r.entries()[1].size, 100, "{ctx}: the plaintext size");
                assert_eq!(r.entries()[1].encrypted(), files, "{ctx}");
                assert_eq!(
                    r.read_content(r.find("a/b.bin").unwrap()).unwrap(),
                    &body[..],
                    "{ctx}"
                );
                // Without a key: the error says to give one.
                let e = match PackReader::parse(&bytes) {
                    Err(e) => e.to_string(),
                    Ok(r) => r.read_content(&r.entries()[1]).unwrap_err().to_string(),
                };
                assert!(e.contains("encrypted") && e.contains("--key"), "{ctx}: {e}");
                // A wrong key: an error saying so.
                let e = match PackReader::with_key(&bytes, Some(&wrong)) {
                    Err(e) => e.to_string(),
                    Ok(r) => r.read_content(&r.entries()[1]).unwrap_err().to_string(),
                };
                assert!(e.contains("wrong password or key"), "{ctx}: {e}");
                // A damaged encrypted entry or directory is an error, never garbage.
                let mut bad = bytes.clone();
                let at = if directory {
                    r.info().directory as usize + 4 + 50
                } else {
                    r.entries()[1].offset as usize + 50
                };
                bad[at] ^= 1;
                let ok = PackReader::with_key(&bad, Some(&key))
                    .and_then(|r| r.read_content(&r.entries()[1]).map(|b| b.into_owned()));
                assert!(ok.is_err(), "{ctx}");
            }
        }
        let mut p = Pack::with_format(1, (3, 6, 0)).unwrap();
        assert!(p
            .encrypt(Encryption {
                key,
                directory: true,
                files: false
            })
            .is_err());
    }

    #[test]
    fn every_byte_changed_is_read_or_refused_without_panic() {
        for f in 1..=4 {
            let good = sample(f);
            for at in 0..good.len() {
                for v in [0u8, 0x7f, 0xff] {
                    let mut bad = good.clone();
                    bad[at] = v;
                    if let Ok(r) = PackReader::parse(&bad) {
                        for e in r.entries() {
                            let _ = r.read_checked(e);
                            let stored = if e.encrypted() {
                                encrypted_len(e.size)
                            } else {
                                e.size
                            };
                            assert!(e.removal() || r.read(e).len() as u64 == stored);
                        }
                    }
                }
            }
        }
    }
}
