//! What every codec shares: finding a whole frame in the read buffer under a size limit,
//! and the error for a stream that ends inside a frame.

use bytes::BytesMut;
use gamewire_core::{Error, ErrorKind, Result};

/// Where a format keeps its frame length.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Bytes before the body (4 for Godot, 12 for Zeze).
    pub header: usize,
    /// Offset of the u32 little-endian body length within the header.
    pub size_at: usize,
    /// What a frame is called in errors.
    pub what: &'static str,
}

/// Most memory reserved ahead of bytes that have arrived: a frame that announces a large
/// size gets room for it a megabyte at a time, as its bytes come, so a peer that only
/// sends a header costs no more than one read buffer.
const RESERVE_STEP: usize = 1 << 20;

impl Layout {
    /// The body length announced at the start of `buf`, when its header is there.
    fn body_len(&self, buf: &[u8]) -> Option<usize> {
        let b = buf.get(self.size_at..self.size_at + 4)?;
        (buf.len() >= self.header).then(|| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    /// The length of the whole frame at the start of `buf` (header included) once all of
    /// it has arrived; `Ok(None)` until then. A body length over `max` is an error at
    /// `consumed` (the stream offset of `buf[0]`) as soon as the header is in.
    pub fn complete(
        &self,
        buf: &mut BytesMut,
        consumed: usize,
        max: usize,
    ) -> Result<Option<usize>> {
        let Some(body) = self.body_len(buf) else {
            return Ok(None);
        };
        if body > max {
            return Err(Error::at(
                consumed + self.size_at,
                ErrorKind::SizeLimit {
                    what: self.what,
                    size: body as u64,
                    limit: max as u64,
                },
            ));
        }
        let total = self.header + body;
        if buf.len() < total {
            buf.reserve((total - buf.len()).min(RESERVE_STEP));
            return Ok(None);
        }
        Ok(Some(total))
    }

    /// The error for a stream that ended with `buf` (not empty) holding part of a frame.
    pub fn eof(&self, buf: &[u8], consumed: usize) -> Error {
        let needed = match self.body_len(buf) {
            Some(body) => self.header + body - buf.len(),
            None => self.header - buf.len(),
        };
        Error::at(
            consumed + buf.len(),
            ErrorKind::UnexpectedEof {
                needed,
                remaining: 0,
            },
        )
    }

    /// Refuses to send a frame whose body is over `max` (the peer would drop it).
    pub fn check_out(&self, body: usize, max: usize) -> Result<()> {
        if body > max {
            return Err(Error::new(ErrorKind::SizeLimit {
                what: self.what,
                size: body as u64,
                limit: max as u64,
            }));
        }
        Ok(())
    }
}
