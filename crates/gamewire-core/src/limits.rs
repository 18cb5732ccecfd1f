//! Bounds a decoder applies to untrusted input.

/// Limits applied while decoding untrusted bytes.
///
/// Every format crate takes these (usually inside its own options struct). The defaults
/// follow the engines where they have a limit (Godot stops at a depth of 1024).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of containers accepted.
    pub max_depth: usize,
    /// Absolute ceiling on what one decompressed stream may produce, in bytes.
    pub max_decompressed: u64,
    /// A decompressed stream may also produce at most this many bytes per compressed
    /// byte (past [`Limits::decompress_allowance`]): a bomb stops in proportion to its size.
    pub max_decompress_ratio: u64,
    /// Bytes any stream may expand to whatever its compressed size (so small files with
    /// a high ratio still open); the ratio applies beyond it.
    pub decompress_allowance: u64,
}

impl Limits {
    /// The engine-like defaults: depth 1024; a stream expands to at most 256 times its
    /// compressed size or 64 MiB, whichever is more, and never past 4 GiB.
    pub const DEFAULT: Limits = Limits {
        max_depth: 1024,
        max_decompressed: 4 << 30,
        max_decompress_ratio: 256,
        decompress_allowance: 64 << 20,
    };

    /// The most bytes a stream of `compressed` bytes may decompress to:
    /// `min(max_decompressed, max(decompress_allowance, compressed * max_decompress_ratio))`.
    pub fn decompress_cap(&self, compressed: usize) -> u64 {
        (compressed as u64)
            .saturating_mul(self.max_decompress_ratio)
            .max(self.decompress_allowance)
            .min(self.max_decompressed)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_is_a_multiple_with_a_floor_and_a_ceiling() {
        let l = Limits::DEFAULT;
        assert_eq!(l.decompress_cap(10), 64 << 20);
        assert_eq!(l.decompress_cap(1 << 20), 256 << 20);
        assert_eq!(l.decompress_cap(1 << 30), 4 << 30);
    }
}
