//! Command-line flags for the decompression limits (`gamewire_core::Limits`), shared by
//! the formats that decompress (Resonite, KingsIsle), and the parser of every
//! `--max-depth` flag ([`max_depth`]).
#![cfg_attr(
    not(any(feature = "resonite", feature = "kingsisle")),
    allow(dead_code)
)]

use gamewire_core::Limits;

/// `--max-decompressed`, `--decompress-ratio`, `--decompress-allowance`.
#[derive(clap::Args, Debug, Clone)]
pub struct DecompressArgs {
    /// Absolute ceiling on one decompressed stream, in bytes.
    #[arg(long, default_value_t = Limits::DEFAULT.max_decompressed)]
    pub max_decompressed: u64,
    /// A stream may expand to this many times its compressed size (or to
    /// --decompress-allowance, whichever is more); past that it is refused as a bomb.
    #[arg(long, default_value_t = Limits::DEFAULT.max_decompress_ratio)]
    pub decompress_ratio: u64,
    /// Bytes any stream may expand to whatever its ratio, in bytes.
    #[arg(long, default_value_t = Limits::DEFAULT.decompress_allowance)]
    pub decompress_allowance: u64,
}

impl DecompressArgs {
    /// Writes these flags into `limits`.
    pub fn apply(&self, limits: &mut Limits) {
        limits.max_decompressed = self.max_decompressed;
        limits.max_decompress_ratio = self.decompress_ratio;
        limits.decompress_allowance = self.decompress_allowance;
    }
}

/// The deepest `--max-depth` this build supports: 4 KiB of the worker thread's stack
/// ([`crate::WORKER_STACK`], 256 MiB) per level, 65,536 levels. The decoders and the
/// JSON writer recurse once per level and need at most about 2.6 KiB a level (an
/// unoptimised build decoding a Godot array nested 65,536 deep); a deeper limit would let
/// a file overflow the stack and abort the process instead of being refused.
pub const MAX_DEPTH: usize = crate::WORKER_STACK / 4096;

/// Parses a `--max-depth` value (the one rule of every such flag): a number of levels,
/// refused with a message when above [`MAX_DEPTH`].
pub fn max_depth(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|e| format!("{s:?} is not a number of levels: {e}"))?;
    if n > MAX_DEPTH {
        return Err(format!(
            "--max-depth {n} is above the most this build supports ({MAX_DEPTH}): \
             deeper nesting would overflow the stack"
        ));
    }
    Ok(n)
}
