//! The layers in front of a serialized object's bit stream, after any manual zlib
//! framing: the flags word (serializer flag 1) and the zlib marker with its compressed
//! stream (flag 8). Read alike by the owned decoder and the borrowed view.

use crate::value::serializer_flags as sf;
use crate::{zlib, Options};
use gamewire_core::{Error, ErrorKind, Result};

/// What [`read`] found in front of the bit stream.
pub(crate) struct Layers {
    /// The serializer flags in effect: the flags word when there is one, else the
    /// options' flags.
    pub flags: u32,
    /// The flags word, when the options' flags say the data starts with one.
    pub flags_word: Option<u32>,
    /// The zlib marker byte, when the flags say there is one.
    pub zlib_marker: Option<u8>,
    /// Where the bit stream (or, when compressed, the zlib layer's size field) starts.
    pub at: usize,
    /// The offset errors report for the stream's first byte (0 when inflated).
    pub base: usize,
    /// The stream inflated from the zlib layer, when the marker is not 0.
    pub inflated: Option<Vec<u8>>,
}

/// Reads the flags word and the zlib marker (inflating what follows a non-zero
/// marker, within the options' decompression limit) from the start of `outer`.
pub(crate) fn read(outer: &[u8], opts: &Options) -> Result<Layers> {
    let mut at = 0usize;
    let mut flags = opts.flags;
    let mut flags_word = None;
    if flags & sf::STATEFUL_FLAGS != 0 {
        let w = outer.get(0..4).ok_or_else(|| {
            Error::at(
                0,
                ErrorKind::UnexpectedEof {
                    needed: 4 - outer.len(),
                    remaining: outer.len(),
                },
            )
        })?;
        let word = u32::from_le_bytes(w.try_into().expect("4 bytes"));
        flags_word = Some(word);
        flags = word;
        at = 4;
    }
    let mut zlib_marker = None;
    let mut inflated = None;
    let mut base = at;
    if flags & sf::WITH_COMPRESSION != 0 {
        let marker = *outer.get(at).ok_or_else(|| {
            Error::at(
                at,
                ErrorKind::UnexpectedEof {
                    needed: 1,
                    remaining: 0,
                },
            )
        })?;
        zlib_marker = Some(marker);
        at += 1;
        if marker != 0 {
            let cap = opts.limits.decompress_cap(outer.len() - at);
            inflated = Some(zlib::unframe(&outer[at..], at, cap)?);
            base = 0;
        } else {
            base = at;
        }
    }
    Ok(Layers {
        flags,
        flags_word,
        zlib_marker,
        at,
        base,
        inflated,
    })
}
