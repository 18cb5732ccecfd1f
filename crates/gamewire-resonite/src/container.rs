//! The FrDT container: magic, version, compression, then the compressed BSON.
//!
//! ```text
//! "FrDT"            4 bytes, ASCII
//! version           i32 little-endian, 0 (a newer version is refused)
//! compression       unsigned LEB128 varint: 0 none, 1 LZ4, 2 LZMA, 3 Brotli
//! payload           the BSON document, compressed as the header says
//! ```
//!
//! Legacy files have no header: the extension says the compression (`.7zbson` LZMA,
//! `.lz4bson` LZ4, `.brson` Brotli). When a header is present and the extension names a
//! compression too, the two must agree (as in the engine's `Load`).

use crate::{brotli_stream, lz4, lzma, varint, Options};
use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;
use std::fmt;

/// The four magic bytes of a FrDT container.
pub const MAGIC: &[u8; 4] = b"FrDT";
/// The newest container version this crate (and the engine) reads and writes.
pub const VERSION: i32 = 0;

/// How the BSON document is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Stored as is (id 0).
    None,
    /// lz4net's chunk stream (id 1), `.lz4bson`.
    Lz4,
    /// LZMA with the SDK's 21-byte header (id 2), `.7zbson`.
    Lzma,
    /// A raw Brotli stream (id 3), `.brson`.
    Brotli,
}

impl Compression {
    /// All compressions, by id.
    pub const ALL: [Compression; 4] = [
        Compression::None,
        Compression::Lz4,
        Compression::Lzma,
        Compression::Brotli,
    ];

    /// The id written in the header.
    pub fn id(self) -> u64 {
        match self {
            Compression::None => 0,
            Compression::Lz4 => 1,
            Compression::Lzma => 2,
            Compression::Brotli => 3,
        }
    }

    /// The compression with header id `id`.
    pub fn from_id(id: u64) -> Option<Compression> {
        Compression::ALL.get(usize::try_from(id).ok()?).copied()
    }

    /// The conventional file extension, without the dot (`frdt` for none, as the engine).
    pub fn extension(self) -> &'static str {
        match self {
            Compression::None => "frdt",
            Compression::Lz4 => "lz4bson",
            Compression::Lzma => "7zbson",
            Compression::Brotli => "brson",
        }
    }

    /// The compression a file name's extension names (case-insensitive), if any.
    pub fn from_file_name(name: &str) -> Option<Compression> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "7zbson" => Some(Compression::Lzma),
            "lz4bson" => Some(Compression::Lz4),
            "brson" => Some(Compression::Brotli),
            "frdt" => Some(Compression::None),
            _ => None,
        }
    }

    /// The name used on the command line and in JSON: `none`, `lz4`, `lzma`, `brotli`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Lz4 => "lz4",
            Compression::Lzma => "lzma",
            Compression::Brotli => "brotli",
        }
    }

    /// The compression named `name` (see [`Compression::name`]).
    pub fn from_name(name: &str) -> Option<Compression> {
        Compression::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a file has the FrDT header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `FrDT`, version, compression.
    FrDT {
        /// The version in the header (0).
        version: i32,
    },
    /// No header (older files): the compression came from the extension or sniffing.
    Legacy,
}

/// What the container around the BSON was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Container {
    /// The compression of the payload.
    pub compression: Compression,
    /// Header or legacy.
    pub framing: Framing,
}

/// A parsed FrDT header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The version (0).
    pub version: i32,
    /// The compression.
    pub compression: Compression,
    /// Bytes the header takes; the payload starts here.
    pub len: usize,
}

/// Reads the FrDT header at the start of `data`: `Ok(None)` when the magic is absent,
/// an error when the magic is there but the rest is truncated, newer than
/// [`VERSION`], or names an unknown compression.
pub fn read_header(data: &[u8]) -> Result<Option<Header>> {
    if data.len() < 4 || &data[..4] != MAGIC {
        return Ok(None);
    }
    let Some(v) = data.get(4..8) else {
        return Err(Error::at(
            data.len(),
            ErrorKind::UnexpectedEof {
                needed: 8 - data.len(),
                remaining: 0,
            },
        ));
    };
    let version = i32::from_le_bytes([v[0], v[1], v[2], v[3]]);
    if version > VERSION {
        return Err(Error::unexpected_at(
            4,
            format!("FrDT version {VERSION} or older"),
            format!("version {version}"),
        ));
    }
    let mut pos = 8;
    let id = varint::read(data, &mut pos, 0, "compression")?;
    let compression = Compression::from_id(id).ok_or_else(|| {
        Error::unexpected_at(
            8,
            "compression 0 (none), 1 (LZ4), 2 (LZMA) or 3 (Brotli)",
            format!("compression {id}"),
        )
    })?;
    Ok(Some(Header {
        version,
        compression,
        len: pos,
    }))
}

/// Writes a FrDT header for `compression`.
pub fn write_header(out: &mut Vec<u8>, compression: Compression) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    varint::write(out, compression.id());
}

/// True when `data` is a whole raw BSON document by its length prefix.
fn looks_like_bson(data: &[u8]) -> bool {
    data.len() >= 5
        && i32::from_le_bytes([data[0], data[1], data[2], data[3]]) as i64 == data.len() as i64
        && data[data.len() - 1] == 0
}

/// True when `data` parses as a chain of lz4net chunk headers that ends exactly at the
/// end of `data` (cheap: reads headers only).
pub fn looks_like_lz4_stream(data: &[u8]) -> bool {
    let mut pos = 0;
    let mut chunks = 0;
    while pos < data.len() {
        let Ok(flags) = varint::read(data, &mut pos, 0, "") else {
            return false;
        };
        if flags > 3 {
            return false;
        }
        let Ok(orig) = varint::read(data, &mut pos, 0, "") else {
            return false;
        };
        let stored = if flags & 1 != 0 {
            match varint::read(data, &mut pos, 0, "") {
                Ok(n) => n,
                Err(_) => return false,
            }
        } else {
            orig
        };
        if orig == 0 || orig > 1 << 31 || stored > orig || stored > (data.len() - pos) as u64 {
            return false;
        }
        pos += stored as usize;
        chunks += 1;
    }
    chunks > 0
}

/// Guesses the compression of a headerless file whose extension says nothing.
fn sniff_legacy(data: &[u8]) -> Option<Compression> {
    if data.len() >= lzma::HEADER_LEN {
        if let Ok(h) = lzma::Header::parse(data, 0) {
            if h.fits_exactly(data.len()) {
                return Some(Compression::Lzma);
            }
        }
    }
    if looks_like_bson(data) {
        return Some(Compression::None);
    }
    if looks_like_lz4_stream(data) {
        return Some(Compression::Lz4);
    }
    None
}

/// Decompresses `payload` (which starts at byte `base` of the file).
pub fn decompress<'a>(
    payload: &'a [u8],
    base: usize,
    compression: Compression,
    opts: &Options,
) -> Result<Cow<'a, [u8]>> {
    // A multiple of the compressed size, with a floor and a ceiling (`Limits`).
    let cap = opts.limits.decompress_cap(payload.len());
    Ok(match compression {
        Compression::None => Cow::Borrowed(payload),
        Compression::Lz4 => Cow::Owned(lz4::decompress(payload, base, cap)?),
        Compression::Lzma => Cow::Owned(lzma::decompress(payload, base, cap, opts.lzma_memlimit)?),
        Compression::Brotli => Cow::Owned(brotli_stream::decompress(payload, base, cap)?),
    })
}

/// Opens a container: reads the header (or, for legacy files, takes the compression
/// from `file_name`'s extension or sniffs it), decompresses, and returns the raw BSON
/// with where it came from. Offsets in errors are file offsets.
pub fn unpack<'a>(
    data: &'a [u8],
    file_name: Option<&str>,
    opts: &Options,
) -> Result<(Container, Cow<'a, [u8]>)> {
    let by_name = file_name.and_then(Compression::from_file_name);
    if let Some(h) = read_header(data)? {
        if let Some(c) = by_name {
            if c != h.compression {
                return Err(Error::unexpected_at(
                    8,
                    format!(
                        "{} compression (as the .{} extension says)",
                        c,
                        c.extension()
                    ),
                    format!("{} compression in the header", h.compression),
                ));
            }
        }
        let bson = decompress(&data[h.len..], h.len, h.compression, opts)?;
        let framing = Framing::FrDT { version: h.version };
        return Ok((
            Container {
                compression: h.compression,
                framing,
            },
            bson,
        ));
    }
    let compression = match by_name {
        Some(c) => c,
        None => match sniff_legacy(data) {
            Some(c) => c,
            None => {
                // Last resort: a Brotli stream that decodes to one whole BSON document.
                // Peek at the length prefix first, so that sniffing costs at most what
                // the document declares (and the limit allows), never a whole bomb.
                let cap = opts.limits.decompress_cap(data.len());
                let declared = brotli_stream::decompress_prefix(data, 0, 4, cap)
                    .ok()
                    .filter(|p| p.len() == 4)
                    .map(|p| i32::from_le_bytes([p[0], p[1], p[2], p[3]]) as i64)
                    .filter(|&n| n >= 5 && n as u64 <= cap);
                let whole = declared.and_then(|n| {
                    // One byte more than declared shows a stream that goes on.
                    brotli_stream::decompress_prefix(data, 0, n as u64 + 1, cap).ok()
                });
                if let Some(out) = whole {
                    if looks_like_bson(&out) {
                        let container = Container {
                            compression: Compression::Brotli,
                            framing: Framing::Legacy,
                        };
                        return Ok((container, Cow::Owned(out)));
                    }
                }
                return Err(Error::unexpected_at(
                    0,
                    "a FrDT header, or a legacy .7zbson/.lz4bson/.brson file",
                    format!(
                        "{} bytes starting {:02x?}",
                        data.len(),
                        &data[..data.len().min(8)]
                    ),
                ));
            }
        },
    };
    let bson = decompress(data, 0, compression, opts)?;
    Ok((
        Container {
            compression,
            framing: Framing::Legacy,
        },
        bson,
    ))
}

/// Compresses raw BSON into a container: with a FrDT header, or headerless (`legacy`,
/// as older engine versions wrote; not possible for [`Compression::None`]).
pub fn pack(
    bson: &[u8],
    compression: Compression,
    legacy: bool,
    opts: &crate::EncodeOptions,
) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bson.len() / 2 + 64);
    if legacy {
        if compression == Compression::None {
            return Err(Error::msg(
                "a legacy (headerless) file needs a compression: lz4, lzma or brotli",
            ));
        }
    } else {
        write_header(&mut out, compression);
    }
    match compression {
        Compression::None => out.extend_from_slice(bson),
        Compression::Lz4 => lz4::compress(bson, opts.lz4_chunk_size, &mut out),
        Compression::Lzma => lzma::compress(bson, &mut out)?,
        Compression::Brotli => {
            brotli_stream::compress(bson, opts.brotli_quality, opts.brotli_window, &mut out)?
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_bytes() {
        let mut out = Vec::new();
        write_header(&mut out, Compression::Brotli);
        assert_eq!(out, b"FrDT\0\0\0\0\x03");
        let h = read_header(&out).unwrap().unwrap();
        assert_eq!(
            (h.version, h.compression, h.len),
            (0, Compression::Brotli, 9)
        );
        assert!(read_header(b"FrDx").unwrap().is_none());
    }

    #[test]
    fn bad_headers() {
        let e = read_header(b"FrDT\x01\0\0\0\x00").unwrap_err();
        assert_eq!(e.offset(), Some(4));
        assert_eq!(
            e.to_string(),
            "at byte 4 (0x4): expected FrDT version 0 or older, found version 1"
        );
        let e = read_header(b"FrDT\0\0\0\0\x04").unwrap_err();
        assert_eq!(e.offset(), Some(8));
        assert!(read_header(b"FrDT\0\0").is_err());
        assert!(read_header(b"FrDT\0\0\0\0").is_err());
    }

    #[test]
    fn extensions_and_header_must_agree() {
        let opts = Options::default();
        let mut file = Vec::new();
        write_header(&mut file, Compression::None);
        file.extend_from_slice(&[5, 0, 0, 0, 0]);
        assert!(unpack(&file, Some("a.FRDT"), &opts).is_ok());
        let e = unpack(&file, Some("a.brson"), &opts).unwrap_err();
        assert_eq!(e.offset(), Some(8));
        let (c, bson) = unpack(&file, None, &opts).unwrap();
        assert_eq!(c.framing, Framing::FrDT { version: 0 });
        assert_eq!(&*bson, &[5, 0, 0, 0, 0]);
    }
}
