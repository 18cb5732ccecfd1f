//! Godot Variant binary serialization (3.x and 4.x): model, codec, JSON mapping, serde.
//!
//! The format behind `var_to_bytes`/`bytes_to_var` (`var2bytes` in 3.x),
//! `FileAccess.store_var`/`get_var` and `PacketPeer.put_var`/`get_var`, byte-exact with
//! the engine's `core/io/marshalls.cpp`.
//!
//! ```
//! use gamewire_godot::{decode, encode, DecodeOptions, EncodeOptions, Value, Version};
//! let bytes = encode(&Value::Int(7), &EncodeOptions::new(Version::V4)).unwrap();
//! assert_eq!(bytes, [2, 0, 0, 0, 7, 0, 0, 0]);
//! assert_eq!(decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap(), Value::Int(7));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod components;
pub mod container;
pub mod convert;
mod de;
mod decode;
mod encode;
pub mod framing;
mod header;
pub mod inspect;
pub mod json;
pub mod json_tape;
mod kind;
pub mod pck;
pub mod probe;
pub mod project_binary;
mod ser;
pub mod splice;
pub mod tape;
mod value;
mod walk;

pub use de::from_bytes;
pub use decode::{decode, decode_prefix, DecodeOptions};
pub use encode::{encode, encode_into, EncodeOptions};
pub use kind::{Kind, Version};
pub use ser::{to_bytes, to_writer};
pub use value::{Array, ContainerType, Dictionary, GString, NodePath, Object, Real, Reals, Value};

/// The borrowed view of Variant bytes, under the name every gamewire format crate gives
/// it (the one contract: `decode`, `encode`, `json`, `view`, `inspect`, `sniff`): the
/// [`tape`] module.
pub use crate::tape as view;

/// True when `data` (and the file name, when known) looks like Godot Variant bytes: the
/// contract's name for [`sniff_version`]`(..).is_some()`.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    sniff_version(data, file_name).is_some()
}

/// Says from the file name whether `data` is a Godot Variant and of which major version
/// (3 or 4): `NAME.godot3`, `NAME.godot4` (optionally followed by another extension such
/// as `.bin`), or `.gd3var` / `.gd4var`. Text (JSON written by gamewire, say) is never
/// claimed. [`probe::probe`] recognises Variant bytes by their content instead.
pub fn sniff_version(data: &[u8], file_name: Option<&str>) -> Option<u8> {
    if looks_like_text(data) {
        // gamewire's own JSON (`save.godot4.json`) or any other text: never Variant bytes.
        return None;
    }
    if let Some(name) = file_name {
        let lower = name.to_ascii_lowercase();
        for (tag, v) in [
            (".godot3", 3),
            (".godot4", 4),
            (".gd3var", 3),
            (".gd4var", 4),
        ] {
            if lower.ends_with(tag) || lower.contains(&format!("{tag}.")) {
                return Some(v);
            }
        }
    }
    let _ = data;
    None
}

/// True when `data` starts (after white space) like JSON text. Variant headers and
/// frame lengths under 16 MiB always hold a zero byte among their first four, text never.
fn looks_like_text(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let first = data.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'{' | b'[' | b'"')) && !data.iter().take(4).any(|&b| b == 0)
}
