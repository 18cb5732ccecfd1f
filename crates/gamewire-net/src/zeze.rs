//! Zeze protocol frames: `moduleId[4] protocolId[4] size[4]` (little-endian), then `size`
//! bytes of body (family class, result code if flagged, Rpc session id, bean); see
//! [`gamewire_zeze::frame`]. Four views of the same stream:
//!
//! - [`ZezeCodec`]: [`Frame`]s with schema-less bean trees (any protocol, byte-exact);
//! - [`ZezeSchemaCodec`]: [`SchemaFrame`]s, beans as JSON named and typed by a solution;
//! - [`ZezeTypedCodec`]: one serde bean type, such as a generated protocol's argument;
//! - [`ZezeRawCodec`]: whole frames as bytes, to dispatch on the ids and hand the bytes
//!   to a generated type's `read_frame` / `read_request` / `read_response`.

use crate::framing::Layout;
use crate::DEFAULT_MAX_FRAME;
use bytes::{Buf, BytesMut};
use gamewire_core::{Error, ErrorKind, Result};
use gamewire_zeze::cursor::Cursor;
use gamewire_zeze::frame::{decode_frame, encode_frame, Family, Frame, FrameOptions, HEADER_SIZE};
use gamewire_zeze::frame_typed::FrameHead;
use gamewire_zeze::schema::Schema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;
use std::sync::Arc;
use tokio_util::codec::{Decoder, Encoder};

const LAYOUT: Layout = Layout {
    header: HEADER_SIZE,
    size_at: 8,
    what: "protocol frame body",
};

/// Keeps an encoding scratch buffer from holding on to a huge frame's memory.
const SCRATCH_KEEP: usize = 1 << 20;

/// Frame options with the body limit set to `max` (clamped to u32).
fn options_with_max(mut opts: FrameOptions, max: usize) -> FrameOptions {
    opts.max_frame_size = u32::try_from(max).unwrap_or(u32::MAX);
    opts
}

/// What each Zeze codec keeps: options, the limit and the stream position.
#[derive(Debug, Clone)]
struct State {
    opts: FrameOptions,
    consumed: usize,
    scratch: Vec<u8>,
}

impl State {
    fn new() -> Self {
        State {
            opts: options_with_max(FrameOptions::default(), DEFAULT_MAX_FRAME),
            consumed: 0,
            scratch: Vec::new(),
        }
    }

    fn max(&self) -> usize {
        self.opts.max_frame_size as usize
    }

    /// Takes the next whole frame from `buf` and hands its bytes (header included) and
    /// its stream offset to `read`.
    fn next<T>(
        &mut self,
        buf: &mut BytesMut,
        read: impl FnOnce(&[u8], usize, &FrameOptions) -> Result<T>,
    ) -> Result<Option<T>> {
        let Some(total) = LAYOUT.complete(buf, self.consumed, self.max())? else {
            return Ok(None);
        };
        let item = read(&buf[..total], self.consumed, &self.opts);
        buf.advance(total);
        self.consumed += total;
        item.map(Some)
    }

    fn eof<T>(&mut self, item: Option<T>, buf: &BytesMut) -> Result<Option<T>> {
        match item {
            Some(v) => Ok(Some(v)),
            None if buf.is_empty() => Ok(None),
            None => Err(LAYOUT.eof(buf, self.consumed)),
        }
    }

    /// Writes the frame `write` appended to the scratch buffer, within the limit.
    fn put(
        &mut self,
        dst: &mut BytesMut,
        write: impl FnOnce(&mut Vec<u8>) -> Result<()>,
    ) -> Result<()> {
        self.scratch.clear();
        let written = write(&mut self.scratch).and_then(|()| {
            LAYOUT.check_out(self.scratch.len().saturating_sub(HEADER_SIZE), self.max())
        });
        if written.is_ok() {
            dst.extend_from_slice(&self.scratch);
        }
        if self.scratch.capacity() > SCRATCH_KEEP {
            self.scratch = Vec::new();
        }
        written
    }
}

macro_rules! common_methods {
    () => {
        /// Sets the largest frame body accepted or sent (at most `u32::MAX`).
        pub fn with_max_frame(mut self, max: usize) -> Self {
            self.state.opts = options_with_max(self.state.opts, max);
            self
        }

        /// Sets the bean decoding options (depth limit); the frame limit is kept.
        pub fn with_bean_options(mut self, bean: gamewire_zeze::Options) -> Self {
            self.state.opts.bean = bean;
            self
        }

        /// Stream bytes taken as whole frames so far.
        pub fn consumed(&self) -> usize {
            self.state.consumed
        }
    };
}

/// Zeze frames as [`Frame`]s: any protocol, beans as schema-less trees that write back
/// to the same bytes. A body not in the standard layout is kept as
/// [`gamewire_zeze::frame::Payload::Raw`].
#[derive(Debug, Clone)]
pub struct ZezeCodec {
    state: State,
}

impl Default for ZezeCodec {
    fn default() -> Self {
        ZezeCodec::new()
    }
}

impl ZezeCodec {
    /// A codec with a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new() -> Self {
        ZezeCodec {
            state: State::new(),
        }
    }

    common_methods!();
}

impl Decoder for ZezeCodec {
    type Item = Frame;
    type Error = Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>> {
        self.state.next(buf, |data, base, opts| {
            decode_frame(data, base, opts)?
                .map(|(f, _)| f)
                .ok_or_else(|| Error::msg_at(base, "incomplete frame"))
        })
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>> {
        let item = self.decode(buf)?;
        self.state.eof(item, buf)
    }
}

impl Encoder<&Frame> for ZezeCodec {
    type Error = Error;

    fn encode(&mut self, frame: &Frame, dst: &mut BytesMut) -> Result<()> {
        self.state.put(dst, |out| encode_frame(frame, out))
    }
}

impl Encoder<Frame> for ZezeCodec {
    type Error = Error;

    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<()> {
        Encoder::<&Frame>::encode(self, &frame, dst)
    }
}

/// One whole frame as it came: its ids and its bytes, header included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFrame {
    /// Module id.
    pub module_id: u32,
    /// Protocol id within the module.
    pub protocol_id: u32,
    /// The frame's bytes from its module id to the end of its body.
    pub bytes: BytesMut,
}

impl RawFrame {
    /// The body (the bytes after the 12-byte header).
    pub fn body(&self) -> &[u8] {
        &self.bytes[HEADER_SIZE..]
    }
}

/// Zeze frames as [`RawFrame`]s, split but not decoded. A server that speaks many
/// protocols dispatches on the ids and decodes each with its generated type:
///
/// ```ignore
/// let raw = frames.next().await.unwrap()?;
/// if (raw.module_id, raw.protocol_id) == (Simple::MODULE_ID, Simple::PROTOCOL_ID) {
///     let (simple, head, _) = Simple::read_frame(&raw.bytes, &opts)?.unwrap();
/// }
/// ```
#[derive(Debug, Clone)]
pub struct ZezeRawCodec {
    state: State,
}

impl Default for ZezeRawCodec {
    fn default() -> Self {
        ZezeRawCodec::new()
    }
}

impl ZezeRawCodec {
    /// A codec with a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new() -> Self {
        ZezeRawCodec {
            state: State::new(),
        }
    }

    common_methods!();
}

impl Decoder for ZezeRawCodec {
    type Item = RawFrame;
    type Error = Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<RawFrame>> {
        let Some(total) = LAYOUT.complete(buf, self.state.consumed, self.state.max())? else {
            return Ok(None);
        };
        let bytes = buf.split_to(total);
        self.state.consumed += total;
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Ok(Some(RawFrame {
            module_id: word(0),
            protocol_id: word(4),
            bytes,
        }))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<RawFrame>> {
        let item = self.decode(buf)?;
        self.state.eof(item, buf)
    }
}

impl Encoder<&RawFrame> for ZezeRawCodec {
    type Error = Error;

    /// Writes the frame's bytes as they are, after checking that its header's size
    /// matches its body and the limit.
    fn encode(&mut self, frame: &RawFrame, dst: &mut BytesMut) -> Result<()> {
        let b = &frame.bytes;
        if b.len() < HEADER_SIZE
            || u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize != b.len() - HEADER_SIZE
        {
            return Err(Error::msg(
                "a raw frame's header size does not match its body",
            ));
        }
        LAYOUT.check_out(b.len() - HEADER_SIZE, self.state.max())?;
        dst.extend_from_slice(b);
        Ok(())
    }
}

impl Encoder<RawFrame> for ZezeRawCodec {
    type Error = Error;

    fn encode(&mut self, frame: RawFrame, dst: &mut BytesMut) -> Result<()> {
        Encoder::<&RawFrame>::encode(self, &frame, dst)
    }
}

/// Reads the body's family class, result code and session id; returns the head and the
/// cursor at the bean.
fn read_head<'a>(frame: &'a [u8], base: usize) -> Result<(FrameHead, Cursor<'a>)> {
    let word = |i: usize| u32::from_le_bytes([frame[i], frame[i + 1], frame[i + 2], frame[i + 3]]);
    let mut c = Cursor::with_base(&frame[HEADER_SIZE..], base + HEADER_SIZE);
    let (family, result_code, session_id) = gamewire_zeze::frame::read_family_head(&mut c)?;
    let head = FrameHead {
        module_id: word(0),
        protocol_id: word(4),
        family,
        result_code,
        session_id,
    };
    Ok((head, c))
}

/// Appends the 12-byte header (size to be patched) and the body's head.
fn write_head(head: &FrameHead, out: &mut Vec<u8>) -> Result<()> {
    out.extend_from_slice(&head.module_id.to_le_bytes());
    out.extend_from_slice(&head.protocol_id.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    gamewire_zeze::frame::write_family_head(head.family, head.result_code, head.session_id, out)
}

/// Patches the size of the frame that starts at `out[0]`.
fn patch_size(out: &mut [u8]) -> Result<()> {
    let size =
        u32::try_from(out.len() - HEADER_SIZE).map_err(|_| Error::msg("frame body past 4 GiB"))?;
    out[8..12].copy_from_slice(&size.to_le_bytes());
    Ok(())
}

/// A frame decoded through a solution: its head, the protocol's full name and the bean
/// as JSON keyed by variable names (see [`Schema::decode`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaFrame {
    /// Ids, family, result code and session id.
    pub head: FrameHead,
    /// The protocol's or Rpc's full name in the solution.
    pub protocol: String,
    /// The argument bean (protocols and Rpc requests) or the result bean (responses).
    pub bean: serde_json::Value,
}

/// Zeze frames typed by a solution ([`Schema`]): each frame's ids name a protocol or Rpc
/// of the solution, whose argument or result bean is decoded by name. A frame of a
/// protocol the solution does not declare is an error.
#[derive(Debug, Clone)]
pub struct ZezeSchemaCodec {
    schema: Arc<Schema>,
    state: State,
}

impl ZezeSchemaCodec {
    /// A codec for the protocols of `schema` with a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new(schema: Arc<Schema>) -> Self {
        ZezeSchemaCodec {
            schema,
            state: State::new(),
        }
    }

    common_methods!();
}

/// The protocol's full name and the name of the bean its `family` frames carry.
fn bean_of(schema: &Schema, head: &FrameHead, at: usize) -> Result<(String, String)> {
    let p = schema
        .protocol(head.module_id, head.protocol_id)
        .ok_or_else(|| {
            Error::msg_at(
                at,
                format!(
                    "no protocol with module id {} and protocol id {} in the solution",
                    head.module_id, head.protocol_id
                ),
            )
        })?;
    let bean = match head.family {
        Family::Response => p.result.as_ref(),
        Family::Request | Family::Protocol => p.argument.as_ref(),
    };
    let bean = bean.ok_or_else(|| {
        Error::msg_at(
            at,
            format!("{} has no bean for a {}", p.name, head.family.name()),
        )
    })?;
    Ok((p.name.clone(), bean.clone()))
}

impl Decoder for ZezeSchemaCodec {
    type Item = SchemaFrame;
    type Error = Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<SchemaFrame>> {
        let schema = &self.schema;
        self.state.next(buf, |data, base, opts| {
            let (head, mut c) = read_head(data, base)?;
            let (protocol, bean_name) = bean_of(schema, &head, base)?;
            let bean = schema.read_bean(&mut c, &bean_name, &opts.bean, 0)?;
            if !c.is_empty() {
                return Err(Error::at(
                    c.offset(),
                    ErrorKind::TrailingBytes {
                        count: c.remaining(),
                    },
                ));
            }
            Ok(SchemaFrame {
                head,
                protocol,
                bean,
            })
        })
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<SchemaFrame>> {
        let item = self.decode(buf)?;
        self.state.eof(item, buf)
    }
}

impl Encoder<&SchemaFrame> for ZezeSchemaCodec {
    type Error = Error;

    /// Writes the frame; the bean is the one the head's protocol and family name
    /// ([`SchemaFrame::protocol`] is not consulted).
    fn encode(&mut self, frame: &SchemaFrame, dst: &mut BytesMut) -> Result<()> {
        let (_, bean_name) = bean_of(&self.schema, &frame.head, 0)?;
        let bean = self.schema.encode(&bean_name, &frame.bean)?;
        self.state.put(dst, |out| {
            write_head(&frame.head, out)?;
            out.extend_from_slice(&bean);
            patch_size(out)
        })
    }
}

impl Encoder<SchemaFrame> for ZezeSchemaCodec {
    type Error = Error;

    fn encode(&mut self, frame: SchemaFrame, dst: &mut BytesMut) -> Result<()> {
        Encoder::<&SchemaFrame>::encode(self, &frame, dst)
    }
}

/// Zeze frames whose bean is the serde type `T` (a generated bean, or any struct with
/// `#[serde(rename = "name#ID")]` fields): items are `(FrameHead, T)`. Encodes
/// `(FrameHead, U)` for any `U: Serialize`, such as `&T`.
#[derive(Debug)]
pub struct ZezeTypedCodec<T> {
    state: State,
    item: PhantomData<fn() -> T>,
}

impl<T> Clone for ZezeTypedCodec<T> {
    fn clone(&self) -> Self {
        ZezeTypedCodec {
            state: self.state.clone(),
            item: PhantomData,
        }
    }
}

impl<T> Default for ZezeTypedCodec<T> {
    fn default() -> Self {
        ZezeTypedCodec::new()
    }
}

impl<T> ZezeTypedCodec<T> {
    /// A codec with a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new() -> Self {
        ZezeTypedCodec {
            state: State::new(),
            item: PhantomData,
        }
    }

    common_methods!();
}

impl<T: DeserializeOwned> Decoder for ZezeTypedCodec<T> {
    type Item = (FrameHead, T);
    type Error = Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<(FrameHead, T)>> {
        self.state.next(buf, |data, base, opts| {
            let (head, bean, _) = gamewire_zeze::frame_typed::read::<T>(data, opts)
                .map_err(|e| e.shift_offset(base))?
                .ok_or_else(|| Error::msg_at(base, "incomplete frame"))?;
            Ok((head, bean))
        })
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<(FrameHead, T)>> {
        let item = self.decode(buf)?;
        self.state.eof(item, buf)
    }
}

impl<T, U: Serialize> Encoder<(FrameHead, U)> for ZezeTypedCodec<T> {
    type Error = Error;

    fn encode(&mut self, (head, bean): (FrameHead, U), dst: &mut BytesMut) -> Result<()> {
        self.state.put(dst, |out| {
            gamewire_zeze::frame_typed::write(&head, &bean, out)
        })
    }
}
