//! The one contract every gamewire format crate offers, under the same names:
//! [`DecodeOptions`] and [`EncodeOptions`], [`decode`]`(&[u8], &DecodeOptions)` and
//! [`encode`]`(&Document, &EncodeOptions)`. The root [`crate::decode`] keeps its older
//! signature (data, file name, options): here the file name, which picks the
//! compression of headerless legacy files, is in the options. The root
//! [`crate::encode`] already has the uniform shape and is re-exported.
//!
//! ```
//! use gamewire_resonite::{codec, Compression, DecodeOptions, Document, EncodeOptions, Value};
//! let mut doc = Document::new();
//! doc.push("VersionNumber", Value::String("2024.1.1.1".into()));
//! let bytes = codec::encode(&doc, &EncodeOptions::new(Compression::Lz4)).unwrap();
//! let back = codec::decode(&bytes, &DecodeOptions::default()).unwrap();
//! assert_eq!(back.document(), &doc);
//! assert_eq!(codec::encode(back.document(), &EncodeOptions::like(&back.container)).unwrap(), bytes);
//! ```

use crate::{Container, Decoded, Framing, Options};
use gamewire_core::Result;

pub use crate::{encode, EncodeOptions};

/// How [`decode`] reads a file: limits, and the file's name (its extension says the
/// compression of a headerless legacy file; without it, legacy files are sniffed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Depth, size and LZMA memory limits.
    pub options: Options,
    /// The file's name (`item.7zbson`), when known.
    pub file_name: Option<String>,
}

impl DecodeOptions {
    /// Default limits, and the file's name.
    pub fn named(file_name: impl Into<String>) -> Self {
        DecodeOptions {
            options: Options::default(),
            file_name: Some(file_name.into()),
        }
    }
}

/// Decodes a container (or legacy file) into its container and document, which the
/// [`Decoded`] owns ([`crate::decode`]: read into an arena).
pub fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Decoded> {
    crate::decode(data, opts.file_name.as_deref(), &opts.options)
}

impl EncodeOptions {
    /// The engine's settings that write a document back in `container`: its compression,
    /// with a header or (legacy) without.
    pub fn like(container: &Container) -> Self {
        EncodeOptions {
            legacy: container.framing == Framing::Legacy,
            ..EncodeOptions::new(container.compression)
        }
    }
}
