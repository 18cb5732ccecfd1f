//! The files Godot wraps a `store_var` stream (or any bytes) in: encrypted (`GDEC`,
//! [`encrypted`]) and compressed (`GCPF`, [`compressed`]).
//!
//! [`sniff`] tells them apart by their magic; [`fastlz`] is the FastLZ compressor that
//! writes the engine's bytes.

pub mod compressed;
pub mod encrypted;
pub mod fastlz;

/// What a file was wrapped in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `GDEC`: encrypted.
    Encrypted,
    /// `GCPF`: compressed.
    Compressed,
}

/// The container `data` starts with, by its magic.
pub fn sniff(data: &[u8]) -> Option<Kind> {
    if encrypted::is_encrypted(data) {
        Some(Kind::Encrypted)
    } else if compressed::is_compressed(data) {
        Some(Kind::Compressed)
    } else {
        None
    }
}
