//! Framing: raw packets (`PacketPeer.put_var`) and length-prefixed values
//! (`StreamPeer.put_var`, `PacketPeerStream`, `FileAccess.store_var`).
//!
//! A framed value is a u32 little-endian byte length followed by that many bytes of
//! Variant. [`FrameDecoder`] reads a stream of framed values fed in pieces of any size,
//! including a value split across reads.

use crate::{decode::decode_prefix_at, encode_into, DecodeOptions, EncodeOptions, Value};
use gamewire_core::{Error, ErrorKind, Result};

/// Encodes `value` with its u32 length prefix (`store_var` / `put_var` on a stream).
pub fn encode_framed(value: &Value, opts: &EncodeOptions) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    encode_framed_into(value, opts, &mut out)?;
    Ok(out)
}

/// Appends `value` with its u32 length prefix to `out`.
pub fn encode_framed_into(value: &Value, opts: &EncodeOptions, out: &mut Vec<u8>) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    encode_into(value, opts, out)?;
    let len = out.len() - start - 4;
    let len = u32::try_from(len)
        .map_err(|_| Error::msg(format!("a framed value of {len} bytes is over 4 GiB")))?;
    out[start..start + 4].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// Decodes one framed value at the start of `data`; returns it and the bytes used
/// (prefix included). The value must fill its frame exactly.
pub fn decode_framed(data: &[u8], opts: &DecodeOptions) -> Result<(Value, usize)> {
    decode_framed_at(data, 0, opts)
}

fn decode_framed_at(data: &[u8], base: usize, opts: &DecodeOptions) -> Result<(Value, usize)> {
    if data.len() < 4 {
        return Err(Error::at(
            base,
            ErrorKind::UnexpectedEof {
                needed: 4 - data.len(),
                remaining: data.len(),
            },
        ));
    }
    let len = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
    let body = &data[4..];
    if len > body.len() {
        return Err(Error::at(
            base,
            ErrorKind::LengthPastEnd {
                what: "frame length",
                declared: len as u64,
                remaining: body.len(),
            },
        ));
    }
    let (value, used) = decode_prefix_at(&body[..len], base + 4, opts)?;
    if used != len {
        return Err(Error::at(
            base + 4 + used,
            ErrorKind::Message(format!(
                "the value ends {} byte(s) before its frame of {len} bytes does",
                len - used
            )),
        ));
    }
    Ok((value, 4 + len))
}

/// Decodes a whole buffer of consecutive framed values (a `store_var` file).
pub fn decode_framed_all(data: &[u8], opts: &DecodeOptions) -> Result<Vec<Value>> {
    let mut values = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let (v, used) =
            decode_framed_at(&data[pos..], pos, opts).map_err(|e| e.in_index(values.len()))?;
        values.push(v);
        pos += used;
    }
    Ok(values)
}

/// Where each frame's value is in a buffer of consecutive framed values (a `store_var`
/// file): the bytes after each length prefix. Only the prefixes are read (each value
/// is checked by whoever reads it); a length past the end is the error
/// [`decode_framed_all`] gives.
pub fn frame_bodies(data: &[u8]) -> Result<Vec<std::ops::Range<usize>>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let rest = &data[pos..];
        if rest.len() < 4 {
            return Err(Error::at(
                pos,
                ErrorKind::UnexpectedEof {
                    needed: 4 - rest.len(),
                    remaining: rest.len(),
                },
            )
            .in_index(out.len()));
        }
        let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        if len > rest.len() - 4 {
            return Err(Error::at(
                pos,
                ErrorKind::LengthPastEnd {
                    what: "frame length",
                    declared: len as u64,
                    remaining: rest.len() - 4,
                },
            )
            .in_index(out.len()));
        }
        out.push(pos + 4..pos + 4 + len);
        pos += 4 + len;
    }
    Ok(out)
}

/// Reads framed values from a byte stream fed in pieces of any size.
///
/// ```
/// use gamewire_godot::{framing::{encode_framed, FrameDecoder}, *};
/// let bytes = encode_framed(&Value::Int(5), &EncodeOptions::new(Version::V4)).unwrap();
/// let mut d = FrameDecoder::new(DecodeOptions::new(Version::V4));
/// d.push(&bytes[..3]);
/// assert!(d.next_value().is_none()); // not whole yet
/// d.push(&bytes[3..]);
/// assert_eq!(d.next_value().unwrap().unwrap(), Value::Int(5));
/// ```
#[derive(Debug)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    start: usize,
    consumed: usize,
    opts: DecodeOptions,
    max_frame: usize,
}

impl FrameDecoder {
    /// A decoder with a 64 MiB frame size limit.
    pub fn new(opts: DecodeOptions) -> Self {
        FrameDecoder {
            buf: Vec::new(),
            start: 0,
            consumed: 0,
            opts,
            max_frame: 64 << 20,
        }
    }

    /// Sets the largest frame accepted (a bigger declared length is an error, before
    /// any of it is buffered).
    pub fn with_max_frame(mut self, max: usize) -> Self {
        self.max_frame = max;
        self
    }

    /// Adds bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes buffered but not yet returned as values.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// The next whole value, `None` when more bytes are needed. Errors carry the offset
    /// in the whole stream. After an error the stream cannot be resynchronised.
    pub fn next_value(&mut self) -> Option<Result<Value>> {
        let data = &self.buf[self.start..];
        if data.len() < 4 {
            return None;
        }
        let len = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
        if len > self.max_frame {
            return Some(Err(Error::at(
                self.consumed,
                ErrorKind::SizeLimit {
                    what: "frame",
                    size: len as u64,
                    limit: self.max_frame as u64,
                },
            )));
        }
        if data.len() < 4 + len {
            return None;
        }
        let result = decode_framed_at(&data[..4 + len], self.consumed, &self.opts);
        self.start += 4 + len;
        self.consumed += 4 + len;
        Some(result.map(|(v, _)| v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Version;

    #[test]
    fn stream_of_frames_split_at_every_byte() {
        let e = EncodeOptions::new(Version::V4);
        let values = vec![
            Value::Int(1),
            Value::String("héllo".into()),
            Value::from(vec![Value::Float(0.5), Value::Nil]),
        ];
        let mut stream = Vec::new();
        for v in &values {
            encode_framed_into(v, &e, &mut stream).unwrap();
        }
        assert_eq!(&stream[..12], &[8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(
            decode_framed_all(&stream, &DecodeOptions::new(Version::V4)).unwrap(),
            values
        );
        for split in 1..stream.len() {
            let mut d = FrameDecoder::new(DecodeOptions::new(Version::V4));
            let mut got = Vec::new();
            for chunk in [&stream[..split], &stream[split..]] {
                d.push(chunk);
                while let Some(v) = d.next_value() {
                    got.push(v.unwrap());
                }
            }
            assert_eq!(got, values, "split at {split}");
            assert_eq!(d.buffered(), 0);
        }
    }

    #[test]
    fn frame_errors_point_into_the_stream() {
        let opts = DecodeOptions::new(Version::V4);
        // Second frame declares 8 bytes but holds an int with a bad type id.
        let mut stream = vec![8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
        stream.extend_from_slice(&[8, 0, 0, 0, 99, 0, 0, 0, 1, 0, 0, 0]);
        let e = decode_framed_all(&stream, &opts).unwrap_err();
        assert_eq!(e.offset(), Some(16));
        // A frame whose value is shorter than the frame.
        let e = decode_framed(&[8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &opts).unwrap_err();
        assert_eq!(e.offset(), Some(8));
        // A frame longer than the data.
        assert!(decode_framed(&[9, 0, 0, 0, 0, 0, 0, 0], &opts).is_err());
        let mut d = FrameDecoder::new(opts).with_max_frame(16);
        d.push(&[0xff, 0xff, 0xff, 0x7f]);
        assert!(d.next_value().unwrap().is_err());
    }
}
