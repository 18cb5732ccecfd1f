//! Reading an archive: the header and journal checked once, entries read on demand.

use super::{crc, MAGIC};
use crate::zlib;
use gamewire_core::{Error, ErrorKind, Limits, Result};
use std::borrow::Cow;

/// The bytes a journal record takes besides its name.
const RECORD: usize = 21;

/// The archive header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The format version (1 or 2 in the game's archives; others are read alike).
    pub version: u32,
    /// The flags byte, present from version 2 on (the tools write 1).
    pub flags: Option<u8>,
}

impl Header {
    /// The header's size in bytes, magic included.
    pub fn len(&self) -> usize {
        MAGIC.len() + 8 + usize::from(self.flags.is_some())
    }

    /// Always false: a header has its magic.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// One journal record, as read.
#[derive(Debug, Clone, Copy)]
struct Record {
    at: usize,
    name: (usize, usize),
    terminated: bool,
    offset: u32,
    size: u32,
    compressed_size: u32,
    compressed: u8,
    crc: u32,
}

/// One entry of an archive, its name borrowed from the archive's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The entry's name (a `/`-separated path), without the journal's NUL.
    pub name: &'a str,
    /// Where its stored bytes start, from the start of the archive.
    pub offset: u32,
    /// Its size, inflated.
    pub size: u32,
    /// The journal's `compressed_size` field as written (0xFFFFFFFF for most stored
    /// entries).
    pub compressed_size: u32,
    /// Whether it is stored as a zlib stream.
    pub compressed: bool,
    /// The journal's CRC of the stored bytes.
    pub crc: u32,
    /// Where its journal record starts.
    pub record_offset: usize,
    /// Whether the journal's name ends with a NUL (every tool writes one).
    pub terminated: bool,
    /// The compressed flag's byte as written (0 or 1 from every tool).
    pub compressed_byte: u8,
}

impl Entry<'_> {
    /// The number of bytes stored in the archive for this entry.
    pub fn stored_size(&self) -> u32 {
        if self.compressed {
            self.compressed_size
        } else {
            self.size
        }
    }
}

/// What an entry holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contents<'a> {
    /// The entry's bytes: borrowed from the archive when stored, inflated when compressed.
    Data(Cow<'a, [u8]>),
    /// A placeholder: its stored bytes start with four zero bytes and do not match its
    /// CRC (an unpatched file the game fetches later). It holds nothing to extract.
    Placeholder,
}

impl<'a> Contents<'a> {
    /// The bytes, or `None` for a placeholder.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Contents::Data(d) => Some(d),
            Contents::Placeholder => None,
        }
    }

    /// The bytes owned, or `None` for a placeholder.
    pub fn into_bytes(self) -> Option<Cow<'a, [u8]>> {
        match self {
            Contents::Data(d) => Some(d),
            Contents::Placeholder => None,
        }
    }
}

/// What an entry's stored bytes are once checked ([`Archive::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked<'a> {
    /// Stored as they are: the entry's bytes.
    Stored(&'a [u8]),
    /// A zlib stream, its declared size within the limits: inflate it with
    /// [`Archive::inflate_into`].
    Zlib(&'a [u8]),
    /// A placeholder ([`Contents::Placeholder`]).
    Placeholder,
}

/// A `KIWAD` archive over bytes `D` (a `Vec<u8>`, a `&[u8]`, a [`super::Mapped`] file).
///
/// [`Archive::new`] checks the header and every journal record (names UTF-8, stored
/// bytes after the journal and inside the file) before anything is allocated in
/// proportion to the count; entries are read on demand.
#[derive(Debug)]
pub struct Archive<D> {
    data: D,
    header: Header,
    journal_end: usize,
    records: Vec<Record>,
}

fn u32_at(data: &[u8], at: usize, what: &str) -> Result<u32> {
    match data.get(at..at + 4) {
        Some(b) => Ok(u32::from_le_bytes(b.try_into().expect("4 bytes"))),
        None => Err(Error::at(
            at,
            ErrorKind::UnexpectedEof {
                needed: 4,
                remaining: data.len().saturating_sub(at),
            },
        )
        .in_key(what.to_owned())),
    }
}

impl<D: AsRef<[u8]>> Archive<D> {
    /// Reads the header and journal of the archive in `data`.
    pub fn new(data: D) -> Result<Self> {
        let bytes = data.as_ref();
        if !bytes.starts_with(MAGIC) {
            return Err(Error::at(
                0,
                ErrorKind::Unexpected {
                    expected: "the KIWAD magic".into(),
                    found: format!("{:02x?}", &bytes[..bytes.len().min(5)]),
                },
            ));
        }
        let version = u32_at(bytes, 5, "version")?;
        let count = u32_at(bytes, 9, "count")? as usize;
        let mut at = 13;
        let flags = if version >= 2 {
            let f = *bytes.get(at).ok_or_else(|| {
                Error::at(
                    at,
                    ErrorKind::UnexpectedEof {
                        needed: 1,
                        remaining: 0,
                    },
                )
            })?;
            at += 1;
            Some(f)
        } else {
            None
        };
        // Each record takes at least 21 bytes and a name byte: a count the file cannot
        // hold is refused before anything is allocated for it.
        let room = bytes.len() - at;
        if count > room / (RECORD + 1) {
            return Err(Error::msg_at(
                9,
                format!(
                    "the journal claims {count} entries, but the {room} bytes after the header \
                     hold at most {} records",
                    room / (RECORD + 1)
                ),
            ));
        }
        let mut records = Vec::with_capacity(count);
        for i in 0..count {
            let start = at;
            let fixed = bytes.get(at..at + RECORD).ok_or_else(|| {
                Error::msg_at(
                    at,
                    format!("entry {i}: its journal record runs past the end of the file"),
                )
            })?;
            let word = |k: usize| u32::from_le_bytes(fixed[k..k + 4].try_into().expect("4"));
            let (offset, size, compressed_size) = (word(0), word(4), word(8));
            let compressed = fixed[12];
            let crc = word(13);
            let name_len = word(17) as usize;
            at += RECORD;
            let raw = bytes
                .get(at..)
                .and_then(|r| r.get(..name_len))
                .ok_or_else(|| {
                    Error::msg_at(
                        at,
                        format!(
                            "entry {i}: its name of {name_len} bytes runs past the end of the file"
                        ),
                    )
                })?;
            let terminated = raw.last() == Some(&0);
            let text = if terminated {
                &raw[..raw.len() - 1]
            } else {
                raw
            };
            if let Err(e) = std::str::from_utf8(text) {
                return Err(Error::msg_at(
                    at + e.valid_up_to(),
                    format!(
                        "entry {i}: its name is not UTF-8 ({:?})",
                        String::from_utf8_lossy(text)
                    ),
                ));
            }
            records.push(Record {
                at: start,
                name: (at, text.len()),
                terminated,
                offset,
                size,
                compressed_size,
                compressed,
                crc,
            });
            at += name_len;
        }
        let journal_end = at;
        let archive = Self {
            data,
            header: Header { version, flags },
            journal_end,
            records,
        };
        archive.check_ranges()?;
        Ok(archive)
    }

    fn check_ranges(&self) -> Result<()> {
        let len = self.data.as_ref().len() as u64;
        for e in self.entries() {
            let stored = u64::from(e.stored_size());
            let start = u64::from(e.offset);
            if stored == 0 {
                if start > len {
                    return Err(entry_err(&e, "its offset is past the end of the file"));
                }
                continue;
            }
            if start < self.journal_end as u64 {
                return Err(entry_err(
                    &e,
                    &format!(
                        "its data at byte {start} overlaps the journal (which ends at byte {})",
                        self.journal_end
                    ),
                ));
            }
            if start + stored > len {
                return Err(entry_err(
                    &e,
                    &format!(
                        "its {stored} stored bytes at byte {start} run past the end of the \
                         file ({len} bytes)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// Where the journal ends (and entry data may start).
    pub fn journal_end(&self) -> usize {
        self.journal_end
    }

    /// The archive's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when the archive holds no entries.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The `i`th entry in journal order.
    pub fn entry(&self, i: usize) -> Option<Entry<'_>> {
        let r = self.records.get(i)?;
        let bytes = self.data.as_ref();
        let name = std::str::from_utf8(&bytes[r.name.0..r.name.0 + r.name.1])
            .expect("checked when the journal was read");
        Some(Entry {
            name,
            offset: r.offset,
            size: r.size,
            compressed_size: r.compressed_size,
            compressed: r.compressed != 0,
            crc: r.crc,
            record_offset: r.at,
            terminated: r.terminated,
            compressed_byte: r.compressed,
        })
    }

    /// The entries in journal order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry<'_>> + '_ {
        (0..self.records.len()).map(|i| self.entry(i).expect("in range"))
    }

    /// The first entry named `name`.
    pub fn find(&self, name: &str) -> Option<Entry<'_>> {
        self.entries().find(|e| e.name == name)
    }

    /// The bytes stored for `entry` (compressed or not), unchecked.
    pub fn stored(&self, entry: &Entry<'_>) -> &[u8] {
        let start = entry.offset as usize;
        &self.data.as_ref()[start..start + entry.stored_size() as usize]
    }

    /// What `entry` holds: its CRC checked, inflated when compressed (to exactly its
    /// declared size: more is an error), or [`Contents::Placeholder`]. Errors name the
    /// entry. The declared size is bounded by [`Limits::DEFAULT`] (at most 256 times the
    /// stored size past 64 MiB): [`Archive::read_with`] takes other limits.
    pub fn read(&self, entry: &Entry<'_>) -> Result<Contents<'_>> {
        self.read_with(entry, &Limits::DEFAULT)
    }

    /// [`Archive::read`] with `limits` bounding what a compressed entry may inflate to.
    pub fn read_with(&self, entry: &Entry<'_>, limits: &Limits) -> Result<Contents<'_>> {
        match self.check(entry, limits)? {
            Checked::Placeholder => Ok(Contents::Placeholder),
            Checked::Stored(d) => Ok(Contents::Data(Cow::Borrowed(d))),
            Checked::Zlib(stream) => {
                zlib::inflate_exact(stream, entry.size as usize, entry.offset as usize)
                    .map(|d| Contents::Data(Cow::Owned(d)))
                    .map_err(|e| entry_err(entry, &format!("its zlib data: {e}")))
            }
        }
    }

    /// Everything [`Archive::read_with`] checks before inflating: the CRC of the stored
    /// bytes (a placeholder found), and a compressed entry's declared size against
    /// `limits`. A [`Checked::Zlib`] entry is then inflated with
    /// [`Archive::inflate_into`] into a buffer the caller makes of exactly `entry.size`
    /// bytes (a Python `bytes`, say, so that the bytes are not copied again).
    pub fn check(&self, entry: &Entry<'_>, limits: &Limits) -> Result<Checked<'_>> {
        let stored = self.stored(entry);
        let actual = crc(stored);
        if actual != entry.crc {
            if stored.len() >= 4 && stored[..4] == [0; 4] {
                return Ok(Checked::Placeholder);
            }
            return Err(entry_err(
                entry,
                &format!(
                    "CRC mismatch: the journal says {:08x}, its stored bytes give {actual:08x}",
                    entry.crc
                ),
            ));
        }
        if !entry.compressed {
            return Ok(Checked::Stored(stored));
        }
        let cap = limits.decompress_cap(stored.len());
        if u64::from(entry.size) > cap {
            return Err(entry_err(
                entry,
                &format!(
                    "it declares {} inflated bytes from {} stored, past the limit of {cap}",
                    entry.size,
                    stored.len()
                ),
            ));
        }
        Ok(Checked::Zlib(stored))
    }

    /// Inflates the zlib `stream` of `entry` (from [`Archive::check`]) into `out`, which
    /// must be exactly `entry.size` bytes long and is filled exactly: more or less
    /// output, or a damaged stream, is an error naming the entry.
    pub fn inflate_into(&self, entry: &Entry<'_>, stream: &[u8], out: &mut [u8]) -> Result<()> {
        if out.len() != entry.size as usize {
            return Err(entry_err(
                entry,
                &format!(
                    "a buffer of {} bytes was given for its {} inflated bytes",
                    out.len(),
                    entry.size
                ),
            ));
        }
        zlib::inflate_into(stream, out, entry.offset as usize)
            .map_err(|e| entry_err(entry, &format!("its zlib data: {e}")))
    }

    /// The bytes of the entry named `name` ([`Archive::read`]); a placeholder or a name
    /// the archive lacks is an error.
    pub fn read_named(&self, name: &str) -> Result<Cow<'_, [u8]>> {
        let e = self
            .find(name)
            .ok_or_else(|| Error::msg(format!("the archive has no entry {name:?}")))?;
        match self.read(&e)? {
            Contents::Data(d) => Ok(d),
            Contents::Placeholder => Err(entry_err(
                &e,
                "a placeholder (its data starts with four zero bytes and does not match its \
                 CRC): it holds nothing to read",
            )),
        }
    }

    /// Gives back the bytes.
    pub fn into_inner(self) -> D {
        self.data
    }
}

/// An error naming the entry, at its journal record.
pub(crate) fn entry_err(e: &Entry<'_>, what: &str) -> Error {
    Error::msg_at(e.record_offset, format!("entry {:?}: {what}", e.name))
}
