//! `BINd` files: the game's persistent object files. `BINd`, then a blob in deep mode
//! with stateful flags (the flags word follows the magic).

use crate::recycle::Recycler;
use crate::value::serializer_flags as sf;
use crate::{Document, Options, TypeList};
use gamewire_core::{Error, Result};

/// The four magic bytes of a `BINd` file.
pub const MAGIC: &[u8; 4] = b"BINd";

/// The options a `BINd` file is read with: `opts` with deep mode and flag 1 forced.
pub fn options(opts: &Options) -> Options {
    Options {
        shallow: false,
        flags: sf::STATEFUL_FLAGS,
        manual_zlib: false,
        ..*opts
    }
}

/// The blob after a `BINd` file's magic (an error when the magic is missing).
pub(crate) fn body(data: &[u8]) -> Result<&[u8]> {
    data.strip_prefix(MAGIC.as_slice()).ok_or_else(|| {
        Error::unexpected_at(
            0,
            "the magic `BINd`",
            format!("{:?}", String::from_utf8_lossy(&data[..data.len().min(4)])),
        )
    })
}

/// Decodes a `BINd` file (magic included).
pub fn decode(data: &[u8], types: &TypeList, opts: &Options) -> Result<Document> {
    // An empty recycler holds nothing and allocates nothing: the plain decode.
    decode_with(data, types, opts, &mut Recycler::with_limit(0))
}

/// Decodes a `BINd` file (magic included) as [`decode`] does, building the tree in the
/// allocations `recycler` kept ([`crate::recycle`]).
pub fn decode_with(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    recycler: &mut Recycler,
) -> Result<Document> {
    let body = body(data)?;
    let mut doc = crate::recycle::decode_with(body, types, &options(opts), recycler)
        .map_err(|e| e.shift_offset(4))?;
    doc.bind = true;
    Ok(doc)
}

/// Encodes a document as a `BINd` file. The flags word is the document's, else `opts.flags | 1`.
pub fn encode(doc: &Document, types: &TypeList, opts: &Options) -> Result<Vec<u8>> {
    let mut o = options(opts);
    o.flags = opts.flags | sf::STATEFUL_FLAGS;
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&crate::encode(doc, types, &o)?);
    Ok(out)
}
