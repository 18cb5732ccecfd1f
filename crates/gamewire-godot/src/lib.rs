//! Godot Variant binary serialization (3.x and 4.x): model, codec, JSON mapping, serde.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Guesses whether `data` is a Godot Variant and of which major version (3 or 4).
pub fn sniff_version(data: &[u8], file_name: Option<&str>) -> Option<u8> {
    let _ = (data, file_name);
    None
}
