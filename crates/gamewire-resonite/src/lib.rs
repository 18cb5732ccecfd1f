//! Resonite/Neos FrDT containers (brson, 7zbson, lz4bson): compression, BSON, the data tree.
//!
//! Resonite (FrooxEngine) and Neos save worlds and items as a *data tree*: one BSON
//! document, compressed, in a small container. This crate reads and writes all of it,
//! following the engine's own serializer (`Elements.Core` `DataTreeConverter`):
//!
//! - [`container`]: the `FrDT` header (magic, i32 version, varint compression) and
//!   legacy headerless files chosen by extension (`.7zbson`, `.lz4bson`, `.brson`) or
//!   sniffing;
//! - [`lz4`] (lz4net's chunk stream, not the LZ4 frame format), [`lzma`] (the SDK's
//!   21-byte header and raw LZMA1) and [`brotli_stream`] (a raw Brotli stream);
//! - [`walk`]: the one reader of the BSON grammar, generic over a [`walk::Sink`]: every
//!   check, limit and error message is there once;
//! - [`value`]: a lossless BSON model (int32, int64 and double kept apart),
//!   [`bson_read`] (the walk into the owned tree, zero-copy; its containers in an
//!   [`arena`] when given one), [`bson_view`] (checked by the walk, then read in place,
//!   no tree) and [`bson_write`];
//! - [`decoded`]: [`Decoded`], what [`decode`] returns: the container, and the document
//!   read into an arena, owned with its bytes;
//! - [`codec`]: the uniform `decode(&[u8], &DecodeOptions)` and
//!   `encode(&Document, &EncodeOptions)` every gamewire format crate offers;
//! - [`json`]: the lossless JSON mapping ([`json::to_json`], [`json::from_json`],
//!   streamed by [`json::write_json`]);
//! - [`tree`]: the data-tree view: root fields, the `Types` table, the slot hierarchy.
//!
//! ```
//! use gamewire_resonite::{decode, encode, Compression, EncodeOptions, Options, Value, Document};
//! let mut doc = Document::new();
//! doc.push("VersionNumber", Value::String("2024.1.1.1".into()));
//! let bytes = encode(&doc, &EncodeOptions::new(Compression::Lz4)).unwrap();
//! assert_eq!(&bytes[..9], b"FrDT\0\0\0\0\x01");
//! let back = decode(&bytes, None, &Options::default()).unwrap();
//! assert_eq!(back.document(), &doc);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arena;
pub mod brotli_stream;
pub mod bson_read;
pub mod bson_view;
pub mod bson_write;
pub mod codec;
pub mod container;
pub mod decoded;
pub mod fields;
pub mod inspect;
pub mod json;
pub mod json_lazy;
pub mod json_view;
pub mod lz4;
pub mod lzma;
#[doc(hidden)]
pub mod splice;
pub mod synth;
pub mod tree;
pub mod value;
pub mod varint;
pub mod walk;

pub use codec::DecodeOptions;
pub use container::{Compression, Container, Framing};
pub use decoded::Decoded;

/// The checked BSON view read in place (no tree), under the name every gamewire format
/// crate gives its borrowed view: the [`bson_view`] module.
pub use crate::bson_view as view;
pub use arena::Arena;
pub use gamewire_core::{Error, Limits, Result};
pub use value::{Document, Seq, Value};

/// Options for decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Depth and decompressed-size limits.
    pub limits: Limits,
    /// The most memory the LZMA decoder may use (mostly its dictionary); default 256 MiB.
    pub lzma_memlimit: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::DEFAULT,
            lzma_memlimit: 256 << 20,
        }
    }
}

/// Options for encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The compression of the payload.
    pub compression: Compression,
    /// Write no FrDT header (as older engine versions did); needs a compression.
    pub legacy: bool,
    /// Brotli quality (the engine uses 9).
    pub brotli_quality: u32,
    /// Brotli window, log2 bytes (the engine uses 16).
    pub brotli_window: u32,
    /// LZ4 chunk size (lz4net's default, 1 MiB).
    pub lz4_chunk_size: usize,
    /// Deepest nesting written.
    pub max_depth: usize,
}

impl EncodeOptions {
    /// The engine's settings for `compression`, with a FrDT header.
    pub fn new(compression: Compression) -> Self {
        EncodeOptions {
            compression,
            legacy: false,
            brotli_quality: brotli_stream::RESONITE_QUALITY,
            brotli_window: brotli_stream::RESONITE_WINDOW,
            lz4_chunk_size: lz4::CHUNK_SIZE,
            max_depth: Limits::DEFAULT.max_depth,
        }
    }
}

impl Default for EncodeOptions {
    /// Brotli with a header: what current Resonite writes for `.brson`.
    fn default() -> Self {
        EncodeOptions::new(Compression::Brotli)
    }
}

/// Decodes a container (or legacy file) into its container and document. `file_name`
/// picks the compression of headerless files by extension; without it they are sniffed.
///
/// The document is read into an [`Arena`] and borrows its text from the BSON bytes
/// ([`read_unpacked_in`]); the [`Decoded`] owns both (decompressed bytes are moved in;
/// a stored file's BSON is copied once). See [`decoded`] for reading and editing it.
pub fn decode(data: &[u8], file_name: Option<&str>, opts: &Options) -> Result<Decoded> {
    let (container, bson) = container::unpack(data, file_name, opts)?;
    Decoded::read(data.len(), container, bson.into_owned(), opts)
}

/// Reads raw (uncompressed) BSON, borrowing from `bson`; every document and array is
/// its own vector ([`read_bson_in`] is faster).
pub fn read_bson<'a>(bson: &'a [u8], opts: &Options) -> Result<Document<'a>> {
    bson_read::read_document(bson, 0, opts.limits.max_depth)
}

/// Reads raw (uncompressed) BSON, borrowing text from `bson` and the entries of
/// documents and items of arrays from `arena` ([`arena`]: one allocation for the whole
/// tree, nothing freed item by item).
pub fn read_bson_in<'a>(
    bson: &'a [u8],
    arena: &'a arena::Arena,
    opts: &Options,
) -> Result<Document<'a>> {
    bson_read::read_document_in(bson, arena, 0, opts.limits.max_depth)
}

/// Reads the BSON that [`container::unpack`] returned from a file of `file_len` bytes,
/// so that error offsets count from the start of the file: stored BSON (compression
/// none) is the file's tail; in decompressed BSON, offsets cannot be file offsets, so
/// the error says that it counts from the start of the decompressed data.
pub fn read_unpacked<'a>(
    file_len: usize,
    container: &Container,
    bson: &'a [u8],
    opts: &Options,
) -> Result<Document<'a>> {
    unpacked_into(file_len, container, bson, opts, walk::Build::new())
}

/// [`read_unpacked`] with the containers in `arena` (see [`read_bson_in`]).
pub fn read_unpacked_in<'a>(
    file_len: usize,
    container: &Container,
    bson: &'a [u8],
    arena: &'a arena::Arena,
    opts: &Options,
) -> Result<Document<'a>> {
    unpacked_into(
        file_len,
        container,
        bson,
        opts,
        walk::Build::in_arena(arena),
    )
}

fn unpacked_into<'a>(
    file_len: usize,
    container: &Container,
    bson: &'a [u8],
    opts: &Options,
    mut build: walk::Build<'a>,
) -> Result<Document<'a>> {
    walk_unpacked(file_len, container, bson, opts, &mut build)?;
    build
        .finish()
        .ok_or_else(|| Error::msg("the BSON walk ended without its root document"))
}

/// [`walk::walk`]s the BSON that [`container::unpack`] returned from a file of
/// `file_len` bytes into `sink`, with the error offsets of [`read_unpacked`].
pub fn walk_unpacked<'a, S: walk::Sink<'a>>(
    file_len: usize,
    container: &Container,
    bson: &'a [u8],
    opts: &Options,
    sink: &mut S,
) -> Result<()> {
    let max_depth = opts.limits.max_depth;
    if container.compression == Compression::None {
        let base = file_len.saturating_sub(bson.len());
        walk::walk(bson, base, max_depth, sink)
    } else {
        walk::walk(bson, 0, max_depth, sink).map_err(|e| {
            Error::msg(format!(
                "in the BSON decompressed from the {} payload (offsets count from its start): {e}",
                container.compression
            ))
        })
    }
}

/// Encodes a document into a container.
pub fn encode(doc: &Document<'_>, opts: &EncodeOptions) -> Result<Vec<u8>> {
    let bson = bson_write::to_vec(doc, opts.max_depth)?;
    container::pack(&bson, opts.compression, opts.legacy, opts)
}

/// True when `data` (and the file name, when known) looks like this format.
///
/// Used by `gamewire inspect` to pick a decoder. Cheap: looks at a few bytes only. Claims
/// the `FrDT` magic; files named `.7zbson`, `.lz4bson`, `.brson` or `.frdt`; and, with
/// no telling name, only a headerless LZMA file whose 21-byte header matches the file's
/// length exactly and whose property byte is the engine's (`0x5d`).
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    if data.starts_with(container::MAGIC) {
        return true;
    }
    if file_name.and_then(Compression::from_file_name).is_some() {
        return true;
    }
    if data.len() >= lzma::HEADER_LEN && data[0] == lzma::RESONITE_PROPS {
        if let Ok(h) = lzma::Header::parse(data, 0) {
            return h.fits_exactly(data.len()) && h.uncompressed >= 5;
        }
    }
    false
}
