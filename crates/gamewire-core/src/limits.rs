//! Bounds a decoder applies to untrusted input.

/// Limits applied while decoding untrusted bytes.
///
/// Every format crate takes these (usually inside its own options struct). The defaults
/// follow the engines where they have a limit (Godot stops at a depth of 1024).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of containers accepted.
    pub max_depth: usize,
    /// Largest output a decompressor may produce, in bytes.
    pub max_decompressed: u64,
}

impl Limits {
    /// The engine-like defaults: depth 1024, 4 GiB of decompressed output.
    pub const DEFAULT: Limits = Limits {
        max_depth: 1024,
        max_decompressed: 4 << 30,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
