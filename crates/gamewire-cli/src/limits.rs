//! Command-line flags for the decompression limits (`gamewire_core::Limits`), shared by
//! the formats that decompress (Resonite, KingsIsle).

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
