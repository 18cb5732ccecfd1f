//! Protocol frames whose bean is a serde type: what generated protocol and Rpc types
//! (see [`crate::gen`]) read and write. The header and body layout are those of
//! [`crate::frame`]; only the bean goes through serde instead of the tree.

use crate::cursor::Cursor;
use crate::frame::{
    read_family_head, read_frame_header, write_family_head, Family, FrameOptions, HEADER_SIZE,
};
use gamewire_core::{Error, Result};
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
    let written = write_family_head(head.family, head.result_code, head.session_id, out)
        .and_then(|()| crate::ser::to_writer(bean, out));
    if let Err(e) = written {
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
    let Some((module_id, protocol_id, end)) = read_frame_header(data, 0, opts.max_frame_size)?
    else {
        return Ok(None);
    };
    let mut c = Cursor::with_base(&data[HEADER_SIZE..end], HEADER_SIZE);
    let (family, result_code, session_id) = read_family_head(&mut c)?;
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
