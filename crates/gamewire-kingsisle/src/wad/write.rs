//! Building an archive: a header, a journal sorted by name, the entries' bytes.

use super::{check_name, crc, Archive, Contents, Entry, STORED_MARK};
use gamewire_core::{Error, Result};
use std::io::Write;

/// Extensions the tools store without compressing (already compressed audio).
const STORED_EXTENSIONS: [&str; 2] = [".mp3", ".ogg"];

/// One entry ready to be written: its journal fields and stored bytes.
#[derive(Debug, Clone)]
pub struct Prepared {
    name: String,
    terminated: bool,
    offset: Option<u32>,
    size: u32,
    compressed_size: u32,
    compressed: u8,
    crc: u32,
    stored: Vec<u8>,
}

/// The zlib level a stream's header names (its `FLEVEL` bits, as zlib sets them: 0
/// for levels 0 and 1, 1 for 2 to 5, 2 for 6, 3 for 7 to 9), as the level that gives
/// them back: 1, 5, 6 or 9.
fn zlib_level(stream: &[u8]) -> u32 {
    match stream.get(1).map(|b| b >> 6) {
        Some(0) => 1,
        Some(1) => 5,
        Some(2) => 6,
        _ => 9,
    }
}

fn u32_size(name: &str, n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::msg(format!(
            "entry {name:?}: {what} of {n} bytes does not fit the journal's 32 bits"
        ))
    })
}

impl Prepared {
    /// `data` stored as it is (`compressed_size` 0xFFFFFFFF, as the tools write it).
    pub fn stored(name: &str, data: Vec<u8>) -> Result<Self> {
        check_name(name)?;
        Ok(Self {
            name: name.to_owned(),
            terminated: true,
            offset: None,
            size: u32_size(name, data.len(), "its size")?,
            compressed_size: STORED_MARK,
            compressed: 0,
            crc: crc(&data),
            stored: data,
        })
    }

    /// `data` as one zlib stream at `level` (0 to 9; the game's archives and wizwad use 9).
    pub fn compressed(name: &str, data: &[u8], level: u32) -> Result<Self> {
        check_name(name)?;
        let size = u32_size(name, data.len(), "its size")?;
        let mut z = flate2::write::ZlibEncoder::new(
            Vec::with_capacity(data.len() / 2 + 64),
            flate2::Compression::new(level.min(9)),
        );
        z.write_all(data).expect("writing to a Vec");
        let stored = z.finish().expect("writing to a Vec");
        Ok(Self {
            name: name.to_owned(),
            terminated: true,
            offset: None,
            size,
            compressed_size: u32_size(name, stored.len(), "its compressed data")?,
            compressed: 1,
            crc: crc(&stored),
            stored,
        })
    }

    /// As the tools pack a folder: compressed at `level`, except names ending in `.mp3`
    /// and `.ogg` (lower case, as the tools compare), which are stored.
    pub fn packed(name: &str, data: Vec<u8>, level: u32) -> Result<Self> {
        // Case-sensitive, as wizwad and katsuba compare.
        if STORED_EXTENSIONS.iter().any(|x| name.ends_with(x)) {
            Self::stored(name, data)
        } else {
            Self::compressed(name, &data, level)
        }
    }

    /// An entry of an archive exactly as it is (journal fields and stored bytes, offset
    /// kept), for writing the archive back unchanged.
    pub fn exact(entry: &Entry<'_>, stored: &[u8]) -> Self {
        Self {
            name: entry.name.to_owned(),
            terminated: entry.terminated,
            offset: Some(entry.offset),
            size: entry.size,
            compressed_size: entry.compressed_size,
            compressed: entry.compressed_byte,
            crc: entry.crc,
            stored: stored.to_vec(),
        }
    }

    /// The entry's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn record_len(&self) -> usize {
        21 + self.name.len() + usize::from(self.terminated)
    }
}

/// Builds a `KIWAD` archive.
///
/// New entries ([`Builder::add`]) are written with the journal sorted by name (byte
/// order, as the game's archives and the tools sort it) and their data in the same order
/// right after the journal. [`Builder::from_archive`] keeps an archive's journal order and
/// offsets, so that writing it gives its bytes back.
#[derive(Debug, Clone)]
pub struct Builder {
    version: u32,
    flags: Option<u8>,
    entries: Vec<Prepared>,
    keep_order: bool,
}

impl Builder {
    /// An empty archive of `version` (1 or 2); `flags` is written from version 2 on (the
    /// tools write 1) and refused for version 1, which has no flags byte.
    pub fn new(version: u32, flags: Option<u8>) -> Result<Self> {
        if !(1..=2).contains(&version) {
            return Err(Error::msg(format!(
                "KIWAD version {version}: gamewire writes versions 1 and 2"
            )));
        }
        let flags = match (version, flags) {
            (1, Some(f)) => {
                return Err(Error::msg(format!(
                    "flags {f}: a version 1 archive has no flags byte (use version 2)"
                )))
            }
            (1, None) => None,
            (_, f) => Some(f.unwrap_or(1)),
        };
        Ok(Self {
            version,
            flags,
            entries: Vec::new(),
            keep_order: false,
        })
    }

    /// A builder that writes `archive` back byte for byte. An archive whose entries'
    /// data do not follow the journal back to back to the end of the file (gaps, bytes
    /// no entry holds, overlapping entries) cannot be rewritten exactly: refused, naming
    /// the byte range.
    pub fn from_archive<D: AsRef<[u8]>>(archive: &Archive<D>) -> Result<Self> {
        let mut ranges: Vec<(u64, u64, &str)> = archive
            .entries()
            .filter(|e| e.stored_size() > 0)
            .map(|e| {
                let s = u64::from(e.offset);
                (s, s + u64::from(e.stored_size()), e.name)
            })
            .collect();
        ranges.sort_unstable();
        let mut at = archive.journal_end() as u64;
        for (s, e, name) in &ranges {
            if *s != at {
                return Err(Error::msg(format!(
                    "the archive cannot be written back byte for byte: entry {name:?} starts \
                     at byte {s}, not at byte {at} where the previous data ends"
                )));
            }
            at = *e;
        }
        let len = archive.bytes().len() as u64;
        if at != len {
            return Err(Error::msg(format!(
                "the archive cannot be written back byte for byte: bytes {at}..{len} belong \
                 to no entry"
            )));
        }
        let h = archive.header();
        Ok(Self {
            version: h.version,
            flags: h.flags,
            entries: archive
                .entries()
                .map(|e| Prepared::exact(&e, archive.stored(&e)))
                .collect(),
            keep_order: true,
        })
    }

    /// Replaces the bytes of entry `index` (in journal order) of a builder made by
    /// [`Builder::from_archive`] with `data`, stored as the entry was: compressed again
    /// (at the level its zlib header names: 9 for the game's and the tools' archives)
    /// when it was compressed, with its compressed flag's byte, its name's NUL and its
    /// `compressed_size` mark for a stored entry (0xFFFFFFFF, or its size) kept; the CRC
    /// is of the new stored bytes. The data after the entry's moves by the difference,
    /// the journal's other records keep every field but their offset; an empty entry at
    /// the same place as an empty edited one moves when it comes after it in the journal.
    pub fn replace(&mut self, index: usize, data: &[u8]) -> Result<()> {
        if !self.keep_order {
            return Err(Error::msg(
                "only an archive's builder (Builder::from_archive) replaces an entry in place",
            ));
        }
        let count = self.entries.len();
        let old = self.entries.get(index).ok_or_else(|| {
            Error::msg(format!("the archive has no entry {index} (it has {count})"))
        })?;
        let name = old.name.clone();
        let mut new = if old.compressed != 0 {
            Prepared::compressed(&name, data, zlib_level(&old.stored))?
        } else {
            let mut p = Prepared::stored(&name, data.to_vec())?;
            if old.compressed_size != STORED_MARK {
                p.compressed_size = if old.compressed_size == old.size {
                    p.size
                } else {
                    old.compressed_size
                };
            }
            p
        };
        new.compressed = old.compressed;
        new.terminated = old.terminated;
        let off = u64::from(old.offset.expect("kept by from_archive"));
        let old_len = old.stored.len() as u64;
        new.offset = old.offset;
        let delta = new.stored.len() as i64 - old_len as i64;
        let old_end = off + old_len;
        for (j, e) in self.entries.iter_mut().enumerate() {
            let at = u64::from(e.offset.expect("kept by from_archive"));
            let empty = e.stored.is_empty();
            let moves =
                j != index && at >= old_end && !(old_len == 0 && at == off && empty && j < index);
            if moves {
                let to = at as i64 + delta;
                e.offset = Some(u32::try_from(to).map_err(|_| {
                    Error::msg(format!(
                        "entry {:?} would start at byte {to}, past the 4 GiB a KIWAD journal                          can address",
                        e.name
                    ))
                })?);
            }
        }
        self.entries[index] = new;
        Ok(())
    }

    /// Adds an entry; a name already added is refused.
    pub fn add(&mut self, entry: Prepared) -> Result<()> {
        if self.keep_order {
            return Err(Error::msg(
                "entries cannot be added to a builder that writes an archive back unchanged",
            ));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no entry was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn order(&mut self) -> Result<()> {
        if self.keep_order {
            return Ok(());
        }
        self.entries
            .sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        if let Some(w) = self.entries.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(Error::msg(format!("entry {:?} is added twice", w[0].name)));
        }
        let journal: usize = self.entries.iter().map(Prepared::record_len).sum::<usize>()
            + 13
            + usize::from(self.flags.is_some());
        let mut at = journal as u64;
        for e in &mut self.entries {
            e.offset = Some(u32::try_from(at).map_err(|_| {
                Error::msg(format!(
                    "entry {:?} would start at byte {at}, past the 4 GiB a KIWAD journal \
                     can address",
                    e.name
                ))
            })?);
            at += e.stored.len() as u64;
        }
        let count = self.entries.len();
        u32::try_from(count)
            .map_err(|_| Error::msg(format!("{count} entries do not fit a KIWAD count")))?;
        Ok(())
    }

    /// Writes the archive to `out`.
    pub fn write_to(mut self, out: &mut impl Write) -> Result<()> {
        self.order()?;
        let io = |e| Error::io("writing the archive", e);
        let mut head = Vec::with_capacity(14 + self.entries.len() * 64);
        head.extend_from_slice(super::MAGIC);
        head.extend_from_slice(&self.version.to_le_bytes());
        head.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        if let Some(f) = self.flags {
            head.push(f);
        }
        for e in &self.entries {
            head.extend_from_slice(&e.offset.expect("ordered").to_le_bytes());
            head.extend_from_slice(&e.size.to_le_bytes());
            head.extend_from_slice(&e.compressed_size.to_le_bytes());
            head.push(e.compressed);
            head.extend_from_slice(&e.crc.to_le_bytes());
            let n = e.name.len() + usize::from(e.terminated);
            head.extend_from_slice(&(n as u32).to_le_bytes());
            head.extend_from_slice(e.name.as_bytes());
            if e.terminated {
                head.push(0);
            }
        }
        out.write_all(&head).map_err(io)?;
        let mut data: Vec<&Prepared> = self.entries.iter().collect();
        data.sort_by_key(|e| e.offset);
        for e in data {
            out.write_all(&e.stored).map_err(io)?;
        }
        Ok(())
    }

    /// The archive's bytes.
    pub fn to_bytes(self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_to(&mut out)?;
        Ok(out)
    }
}

/// The bytes of `archive` with entry `index` (in journal order) holding `data`, written
/// by [`Builder::from_archive`] and [`Builder::replace`]: the header, every other record
/// (but its offset) and every other entry's stored bytes as they were, the entry stored
/// as it was. The entry's old bytes are read first (a CRC mismatch or damaged zlib data is
/// an error; a placeholder holds nothing to replace), and the result is read back before
/// it is returned: every other entry must be as it was and the edited one must read as
/// `data`.
pub fn replace<D: AsRef<[u8]>>(archive: &Archive<D>, index: usize, data: &[u8]) -> Result<Vec<u8>> {
    let e = archive.entry(index).ok_or_else(|| {
        Error::msg(format!(
            "the archive has no entry {index} (it has {})",
            archive.len()
        ))
    })?;
    match archive.read(&e)? {
        Contents::Placeholder => {
            return Err(super::read::entry_err(
                &e,
                "a placeholder (a file the game fetches later): it holds nothing to replace",
            ))
        }
        Contents::Data(old) if *old == *data => return Ok(archive.bytes().to_vec()),
        Contents::Data(_) => {}
    }
    let mut b = Builder::from_archive(archive)?;
    b.replace(index, data)?;
    let out = b.to_bytes()?;
    let bad = |what: String| {
        Err(Error::msg(format!(
            "the rewritten archive does not read back as it should ({what}): not written"
        )))
    };
    let after = Archive::new(out.as_slice())?;
    if after.header() != archive.header() || after.len() != archive.len() {
        return bad("its header changed".into());
    }
    for (j, (x, y)) in archive.entries().zip(after.entries()).enumerate() {
        let same_record = x.name == y.name
            && x.terminated == y.terminated
            && x.compressed_byte == y.compressed_byte;
        let same_data = j == index
            || (x.size == y.size
                && x.compressed_size == y.compressed_size
                && x.crc == y.crc
                && archive.stored(&x) == after.stored(&y));
        if !same_record || !same_data {
            return bad(format!("entry {:?} changed", x.name));
        }
        if j == index && after.read(&y)?.bytes() != Some(data) {
            return bad(format!("entry {:?} does not hold the new bytes", x.name));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_archives_read_back_and_write_back_byte_for_byte() {
        for (version, flags) in [(1, None), (2, None), (2, Some(7))] {
            let mut b = Builder::new(version, flags).unwrap();
            b.add(Prepared::packed("b/text.txt", b"hello hello hello".to_vec(), 9).unwrap())
                .unwrap();
            b.add(Prepared::packed("a.mp3", b"ID3 not compressed".to_vec(), 9).unwrap())
                .unwrap();
            b.add(Prepared::stored("empty", Vec::new()).unwrap())
                .unwrap();
            let bytes = b.to_bytes().unwrap();
            let a = Archive::new(bytes.as_slice()).unwrap();
            assert_eq!(a.header().version, version);
            assert_eq!(
                a.header().flags,
                if version == 2 {
                    Some(flags.unwrap_or(1))
                } else {
                    None
                }
            );
            let names: Vec<&str> = a.entries().map(|e| e.name).collect();
            assert_eq!(names, ["a.mp3", "b/text.txt", "empty"]);
            let mp3 = a.find("a.mp3").unwrap();
            assert!(!mp3.compressed);
            assert_eq!(mp3.compressed_size, STORED_MARK);
            let txt = a.find("b/text.txt").unwrap();
            assert!(txt.compressed);
            assert_eq!(
                a.read(&txt).unwrap(),
                Contents::Data(b"hello hello hello".as_slice().into())
            );
            assert_eq!(&*a.read_named("empty").unwrap(), b"");
            let again = Builder::from_archive(&a).unwrap().to_bytes().unwrap();
            assert_eq!(again, bytes);
        }
    }

    #[test]
    fn flags_need_version_2_and_names_are_checked() {
        assert!(Builder::new(1, Some(1)).is_err());
        assert!(Builder::new(3, None).is_err());
        assert!(Prepared::stored("../x", vec![]).is_err());
        let mut b = Builder::new(1, None).unwrap();
        b.add(Prepared::stored("x", vec![1]).unwrap()).unwrap();
        b.add(Prepared::stored("x", vec![2]).unwrap()).unwrap();
        let e = b.to_bytes().unwrap_err().to_string();
        assert!(e.contains("\"x\" is added twice"), "{e}");
    }
}
