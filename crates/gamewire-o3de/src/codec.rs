//! The one contract every gamewire format crate offers, under the same names:
//! [`DecodeOptions`] and [`EncodeOptions`], [`decode`]`(&[u8], &DecodeOptions)` and
//! [`encode`]`(&Document, &EncodeOptions)`. An O3DE file is JSON text, so its value is
//! the [`Document`] kept as written (member order, number text, duplicates); the root
//! [`crate::decode`] (JSON loaded as a reflected type through a [`crate::Registry`])
//! keeps its signature.
//!
//! ```
//! use gamewire_o3de::{codec, DecodeOptions, EncodeOptions};
//! let text = b"{\n    \"a\": 1.50\n}\n";
//! let doc = codec::decode(text, &DecodeOptions::default()).unwrap();
//! assert_eq!(codec::encode(&doc, &EncodeOptions::default()).unwrap(), text);
//! let one_line = b"{\"a\":1.50}";
//! let doc = codec::decode(one_line, &DecodeOptions::default()).unwrap();
//! let opts = EncodeOptions::like(one_line, &doc);
//! assert_eq!(codec::encode(&doc, &opts).unwrap(), one_line);
//! ```

use crate::doc::{Document, Layout, MAX_DEPTH};
use gamewire_core::Result;

/// How [`decode`] reads a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest nesting accepted (default [`MAX_DEPTH`]).
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_depth: MAX_DEPTH,
        }
    }
}

/// How [`encode`] writes a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// O3DE's indented layout (the default) or no white space.
    pub layout: Layout,
    /// End the text with a line break (`None`: as the document says,
    /// [`Document::final_newline`]).
    pub final_newline: Option<bool>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            layout: Layout::Pretty,
            final_newline: None,
        }
    }
}

impl EncodeOptions {
    /// The options that write `doc`, read from `data`, back as `data` was laid out:
    /// on one line when it was and that is what O3DE's compact writer gives, else in
    /// O3DE's indented layout; with `data`'s final line break.
    pub fn like(data: &[u8], doc: &Document<'_>) -> Self {
        let body = data.strip_suffix(b"\n").unwrap_or(data);
        let mut compact = Vec::with_capacity(body.len());
        let one_line = !body.contains(&b'\n')
            && crate::doc::write_node_to(&doc.root, Layout::Compact, 0, &mut compact).is_ok()
            && compact == body;
        EncodeOptions {
            layout: if one_line {
                Layout::Compact
            } else {
                Layout::Pretty
            },
            final_newline: Some(data.ends_with(b"\n")),
        }
    }
}

/// Parses an O3DE JSON file, kept as written ([`Document::parse_with_depth`]).
pub fn decode<'a>(data: &'a [u8], opts: &DecodeOptions) -> Result<Document<'a>> {
    Document::parse_with_depth(data, opts.max_depth)
}

/// Writes a document as O3DE does in `opts.layout`.
pub fn encode(doc: &Document<'_>, opts: &EncodeOptions) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    crate::doc::write_node(&doc.root, opts.layout, 0, &mut out);
    if opts.final_newline.unwrap_or(doc.final_newline) {
        out.push(b'\n');
    }
    Ok(out)
}

/// The contract's `json` module for O3DE: the file is JSON already, so its JSON is the
/// document's own text.
pub mod json {
    use crate::doc::{Document, Layout};
    use gamewire_core::{Error, Result};

    /// Writes the document's JSON to `w`, streamed: O3DE's indented layout when
    /// `pretty`, else on one line, without the final line break.
    pub fn write_json<W: std::io::Write>(mut w: W, doc: &Document<'_>, pretty: bool) -> Result<()> {
        let layout = if pretty {
            Layout::Pretty
        } else {
            Layout::Compact
        };
        crate::doc::write_node_to(&doc.root, layout, 0, &mut w)
            .map_err(|e| Error::io("cannot write the JSON", e))
    }

    /// The document's JSON as a `serde_json` tree (repeated member names: the first
    /// one, as O3DE reads).
    pub fn to_json(doc: &Document<'_>) -> serde_json::Value {
        doc.root.to_json()
    }

    /// Reads JSON text as a document, kept as written ([`Document::parse`]).
    pub fn from_json(text: &[u8]) -> Result<Document<'_>> {
        Document::parse(text)
    }
}
