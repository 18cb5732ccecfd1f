//! The one contract every gamewire format crate offers, under the same names: options
//! types, [`decode`] and [`encode`] taking `(&[u8], &DecodeOptions)` and
//! `(&Value, &EncodeOptions)`. KingsIsle's root [`crate::decode`] and [`crate::encode`]
//! keep their older signature (data, type list, options); these are the uniform ones,
//! with the type list carried in the options, and `BINd` files told apart by their
//! magic.
//!
//! ```no_run
//! use gamewire_kingsisle::{codec, DecodeOptions, EncodeOptions, TypeList};
//! use std::sync::Arc;
//! let types = Arc::new(TypeList::from_files(&["types.json"]).unwrap());
//! let data = std::fs::read("item.bin").unwrap();
//! let doc = codec::decode(&data, &DecodeOptions::new(types.clone())).unwrap();
//! assert_eq!(codec::encode(&doc, &EncodeOptions::new(types)).unwrap(), data);
//! ```

use crate::{bind, Document, Options, TypeList};
use gamewire_core::Result;
use std::sync::Arc;

/// How [`decode`] reads a file: the type list it needs, and the serializer options.
#[derive(Debug, Clone)]
pub struct DecodeOptions {
    /// The classes the file's objects are read as.
    pub types: Arc<TypeList>,
    /// Serializer flags, property mask, shallow or deep, limits.
    pub options: Options,
}

impl DecodeOptions {
    /// The engine's default options ([`Options::default`]) with `types`.
    pub fn new(types: Arc<TypeList>) -> Self {
        DecodeOptions {
            types,
            options: Options::default(),
        }
    }
}

/// How [`encode`] writes a document: the type list, and the serializer options.
#[derive(Debug, Clone)]
pub struct EncodeOptions {
    /// The classes the document's objects are written as.
    pub types: Arc<TypeList>,
    /// Serializer flags, property mask, shallow or deep.
    pub options: Options,
}

impl EncodeOptions {
    /// The engine's default options ([`Options::default`]) with `types`.
    pub fn new(types: Arc<TypeList>) -> Self {
        EncodeOptions {
            types,
            options: Options::default(),
        }
    }
}

impl From<&DecodeOptions> for EncodeOptions {
    /// Writes back with the type list and options a file was read with.
    fn from(d: &DecodeOptions) -> Self {
        EncodeOptions {
            types: d.types.clone(),
            options: d.options,
        }
    }
}

/// Decodes a `BINd` file (by its magic, [`bind::decode`]) or a bare blob
/// ([`crate::decode`]).
pub fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Document> {
    if data.starts_with(bind::MAGIC) {
        bind::decode(data, &opts.types, &opts.options)
    } else {
        crate::decode(data, &opts.types, &opts.options)
    }
}

/// Encodes a document: as a `BINd` file when it came from one ([`Document::bind`]), else
/// as a bare blob.
pub fn encode(doc: &Document, opts: &EncodeOptions) -> Result<Vec<u8>> {
    if doc.bind {
        bind::encode(doc, &opts.types, &opts.options)
    } else {
        crate::encode(doc, &opts.types, &opts.options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_reads_and_writes_back_through_the_uniform_names() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle/");
        let types = Arc::new(TypeList::from_files(&[format!("{dir}types.json")]).unwrap());
        let data = std::fs::read(format!("{dir}item.bin")).unwrap();
        let opts = DecodeOptions::new(types);
        let doc = decode(&data, &opts).unwrap();
        assert_eq!(doc.bind, data.starts_with(bind::MAGIC));
        assert_eq!(encode(&doc, &EncodeOptions::from(&opts)).unwrap(), data);
        // A blob without the magic is read as a bare blob, not a BINd file.
        if let Some(body) = data.strip_prefix(bind::MAGIC.as_slice()) {
            let mut o = opts.clone();
            o.options = bind::options(&o.options);
            let bare = decode(body, &o).unwrap();
            assert!(!bare.bind);
        }
    }
}
