//! Serializer options.

use crate::types::flags;
use gamewire_core::Limits;

/// How a blob is (de)serialized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Serializer flags (see [`crate::serializer_flags`]). With flag 1 the flags word in
    /// the data replaces these on read.
    pub flags: u32,
    /// A property is written when `property.flags & mask == mask` and it is not deprecated.
    /// Applies to shallow mode.
    pub property_mask: u32,
    /// Shallow mode (properties in id order, no sizes) instead of deep mode.
    pub shallow: bool,
    /// The whole blob is wrapped as `u32 size` + zlib stream.
    pub manual_zlib: bool,
    /// Deep mode: keep unknown types and unknown properties as raw bits instead of failing.
    pub skip_unknown: bool,
    /// Depth and decompression bounds.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flags: 0,
            property_mask: flags::TRANSMIT | flags::PRIVILEGED_TRANSMIT,
            shallow: true,
            manual_zlib: false,
            skip_unknown: false,
            limits: Limits::DEFAULT,
        }
    }
}
