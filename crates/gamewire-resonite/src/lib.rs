//! Resonite/Neos FrDT containers (brson, 7zbson, lz4bson): compression, BSON, the data tree.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// True when `data` (and the file name, when known) looks like this format.
///
/// Used by `gamewire inspect` to pick a decoder. Cheap: looks at a few bytes only.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    let _ = (data, file_name);
    false
}
