//! The layers in front of a serialized object's bit stream, unwrapped once for every
//! reader: the manual zlib framing (when [`Options::manual_zlib`]), the flags word
//! (serializer flag 1) and the zlib marker with its compressed stream (flag 8), in the
//! order the game reads them.

use crate::value::serializer_flags as sf;
use crate::value::KeptZlib;
use crate::{zlib, Options};
use gamewire_core::{Error, ErrorKind, Result};

/// What [`unwrap`] found in front of the bit stream, and where the stream is.
pub(crate) struct Unwrapped {
    /// The serializer flags in effect: the flags word when there is one, else the
    /// options' flags.
    pub flags: u32,
    /// The flags word, when the options' flags say the data starts with one.
    pub flags_word: Option<u32>,
    /// The zlib marker byte, when the flags say there is one.
    pub zlib_marker: Option<u8>,
    /// The bytes holding the stream when they are not the input: inflated from the
    /// manual framing or from the zlib layer.
    pub inflated: Option<Vec<u8>>,
    /// Where the stream starts in the input, or in `inflated` when that is set.
    pub at: usize,
    /// The offset errors report for the stream's first byte (counted in the inflated
    /// bytes when the stream is compressed).
    pub base: usize,
    /// The manual framing's zlib stream, when kept.
    pub manual_zlib: Option<KeptZlib>,
    /// The zlib stream behind the marker, when kept.
    pub flag_zlib: Option<KeptZlib>,
}

impl Unwrapped {
    /// The bit stream, in `data` (the input [`unwrap`] was given) or in the inflated
    /// bytes.
    pub(crate) fn stream<'a>(&'a self, data: &'a [u8]) -> &'a [u8] {
        &self.inflated.as_deref().unwrap_or(data)[self.at..]
    }
}

/// Unwraps the layers of `data` read with `opts`, inflating within the options'
/// decompression limit; `keep_zlib`: keep copies of the zlib streams (a re-encode
/// reuses them when the data is unchanged).
pub(crate) fn unwrap(data: &[u8], opts: &Options, keep_zlib: bool) -> Result<Unwrapped> {
    let mut manual = None;
    let mut manual_zlib = None;
    if opts.manual_zlib {
        let inflated = zlib::unframe(data, 0, opts.limits.decompress_cap(data.len()))?;
        if keep_zlib {
            manual_zlib = Some(KeptZlib {
                size: inflated.len() as u32,
                stream: data[4..].to_vec(),
            });
        }
        manual = Some(inflated);
    }
    let outer: &[u8] = manual.as_deref().unwrap_or(data);
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
    let mut flag_zlib = None;
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
            let inflated = zlib::unframe(&outer[at..], at, cap)?;
            if keep_zlib {
                flag_zlib = Some(KeptZlib {
                    size: inflated.len() as u32,
                    stream: outer[at + 4..].to_vec(),
                });
            }
            return Ok(Unwrapped {
                flags,
                flags_word,
                zlib_marker,
                inflated: Some(inflated),
                at: 0,
                base: 0,
                manual_zlib,
                flag_zlib,
            });
        }
        base = at;
    }
    Ok(Unwrapped {
        flags,
        flags_word,
        zlib_marker,
        inflated: manual,
        at,
        base,
        manual_zlib,
        flag_zlib,
    })
}
