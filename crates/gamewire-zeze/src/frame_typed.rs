//! Protocol frames whose bean is a serde type: what generated protocol and Rpc types
//! (see [`crate::gen`]) read and write. The header and body layout are those of
//! [`crate::frame`]; only the bean goes through serde instead of the tree.

use crate::cursor::Cursor;
use crate::frame::{Family, FrameOptions, BIT_RESULT_CODE, FAMILY_MASK, HEADER_SIZE};
use crate::varint::write_long;
use gamewire_core::{Error, ErrorKind, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Everything a frame carries besides its bean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHead {
    /// Module id.
    pub module_id: u32,
    /// Protocol id within the module.
    pub protocol_id: u32,
    /// Protocol, Rpc request or Rpc response.
    pub family: Family,
    /// The result code, written when present.
    pub result_code: Option<i64>,
    /// The Rpc session id (requests and responses only).
    pub session_id: Option<i64>,
}

/// Appends one whole frame: `head`, then `bean` encoded through serde.
pub fn write<T: Serialize + ?Sized>(head: &FrameHead, bean: &T, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&head.module_id.to_le_bytes());
    out.extend_from_slice(&head.protocol_id.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    let mut header = head.family.code();
    if head.result_code.is_some() {
        header |= BIT_RESULT_CODE;
    }
    write_long(out, header);
    if let Some(rc) = head.result_code {
        write_long(out, rc);
    }
    match (head.family, head.session_id) {
        (Family::Protocol, None) => {}
        (Family::Protocol, Some(_)) => {
            out.truncate(start);
            return Err(Error::msg("a protocol (not Rpc) frame has no session id"));
        }
        (_, Some(s)) => write_long(out, s),
        (_, None) => {
            out.truncate(start);
            return Err(Error::msg("an Rpc request or response needs a session id"));
        }
    }
    if let Err(e) = crate::ser::to_writer(bean, out) {
        out.truncate(start);
        return Err(e);
    }
    let size = match u32::try_from(out.len() - start - HEADER_SIZE) {
        Ok(s) => s,
        Err(_) => {
            out.truncate(start);
            return Err(Error::msg("frame body past 4 GiB"));
        }
    };
    out[start + 8..start + 12].copy_from_slice(&size.to_le_bytes());
    Ok(())
}

/// Reads one frame from the start of `data`: `Ok(None)` when more bytes are needed,
/// else its head, its bean and the frame's length. A body past `opts.max_frame_size` is
/// refused from the header alone; errors carry offsets from the start of `data`.
pub fn read<T: DeserializeOwned>(
    data: &[u8],
    opts: &FrameOptions,
) -> Result<Option<(FrameHead, T, usize)>> {
    if data.len() < HEADER_SIZE {
        return Ok(None);
    }
    let word = |i: usize| u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    let (module_id, protocol_id, size) = (word(0), word(4), word(8));
    if size > opts.max_frame_size {
        return Err(Error::at(
            8,
            ErrorKind::SizeLimit {
                what: "protocol frame body",
                size: size as u64,
                limit: opts.max_frame_size as u64,
            },
        ));
    }
    let end = HEADER_SIZE + size as usize;
    if data.len() < end {
        return Ok(None);
    }
    let mut c = Cursor::with_base(&data[HEADER_SIZE..end], HEADER_SIZE);
    let at = c.offset();
    let header = c.long()?;
    let family = match header & FAMILY_MASK {
        0 => Family::Response,
        1 => Family::Request,
        2 => Family::Protocol,
        x => {
            return Err(Error::unexpected_at(
                at,
                "family class 0, 1 or 2",
                format!("family class {x}"),
            ))
        }
    };
    let result_code = if header & BIT_RESULT_CODE != 0 {
        Some(c.long()?)
    } else {
        None
    };
    let session_id = if family == Family::Protocol {
        None
    } else {
        Some(c.long()?)
    };
    let bean_at = c.offset();
    let bean = crate::de::from_bytes_with(&data[bean_at..end], &opts.bean)
        .map_err(|e| e.shift_offset(bean_at))?;
    let head = FrameHead {
        module_id,
        protocol_id,
        family,
        result_code,
        session_id,
    };
    Ok(Some((head, bean, end)))
}
