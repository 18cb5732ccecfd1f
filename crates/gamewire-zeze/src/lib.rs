//! Zeze ByteBuffer beans and protocol frames: model, codec, JSON mapping, serde.
//!
//! Byte-exact with Zeze's Java `ByteBuffer` (`Zeze/Serialize/ByteBuffer.java`) and the
//! bean layout its generator writes:
//!
//! - [`varint`]: the compact signed and unsigned integers, tags, list and map headers;
//! - [`Bean`] / [`Value`]: the schema-less tree (field id -> value typed by the wire),
//!   decoded by [`decode`] and written back by [`encode`] to the same bytes;
//! - [`codec`]: the uniform `decode(&[u8], &DecodeOptions)` and
//!   `encode(&Bean, &EncodeOptions)` every gamewire format crate offers;
//! - [`json`]: the lossless JSON mapping of that tree ([`json::to_json`],
//!   [`json::from_json`], streamed by [`json::write_json`]);
//! - [`schema`]: Zeze's solution XML, and named, typed decoding and encoding;
//! - [`frame`]: protocol frames (module id, protocol id, size, body) and a stream reader;
//! - [`span`]: where the bytes of the value at a JSON Pointer of the schema-less JSON are;
//! - [`view`]: a borrowed view of a bean's bytes (fields by id, strings borrowed, nested
//!   values navigable) without building the tree;
//! - [`ser`] / [`de`]: serde for Rust structs, straight to and from bean bytes;
//! - [`gen`]: Rust structs generated from a solution, for a `build.rs` or the CLI.
// One item may use `unsafe`: `ascii::short_ascii`, where a benchmark proves the need
// (see its module); everything else is refused by the lint.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod ascii;
pub mod codec;
pub mod cursor;
pub mod de;
mod decode;
mod encode;
pub mod fields;
pub mod frame;
pub mod frame_typed;
pub mod gen;
pub mod hash;
pub mod inspect;
pub mod json;
pub mod json_view;
pub mod schema;
pub mod schema_view;
pub mod ser;
pub mod span;
pub mod typed_json;
pub mod types;
mod value;
pub mod varint;
pub mod view;
pub mod walk;

pub use codec::{DecodeOptions, EncodeOptions};
pub use de::{from_bytes, from_bytes_with};
pub use decode::{
    decode, read_bean, read_tag_delta, read_value, skip_bean, skip_value, wire_type, Options,
};
pub use encode::{encode, encode_into, write_value};
pub use gamewire_core::{Error, ErrorKind, Result};
pub use ser::{to_bytes, to_writer};
pub use value::{Bean, Field, Value, WireType};
pub use view::{view, BeanView, ValueView};

/// True when `data` (and the file name, when known) looks like this format.
///
/// Zeze bytes have no magic number, so only the file name decides: `*.zeze` files are
/// beans or frame streams. Used by `gamewire inspect` to pick a decoder.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    let _ = data;
    file_name.is_some_and(|n| n.to_ascii_lowercase().ends_with(".zeze"))
}
