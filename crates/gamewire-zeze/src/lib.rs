//! Zeze ByteBuffer beans and protocol frames: model, codec, JSON mapping, serde.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// True when `data` (and the file name, when known) looks like this format.
///
/// Used by `gamewire inspect` to pick a decoder. Cheap: looks at a few bytes only.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    let _ = (data, file_name);
    false
}
