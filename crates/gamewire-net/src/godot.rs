//! Godot's stream framing: `StreamPeer.put_var` and `PacketPeerStream.put_var` (both
//! engine versions) write a u32 little-endian byte length, then the Variant
//! (`var2bytes` / `var_to_bytes`). The value must fill its frame exactly.
//!
//! Godot 3's `PacketPeerStream` buffers at most 2^16 bytes per direction by default
//! (`network/limits/packet_peer_stream/max_buffer_po2`): a peer on that engine cannot
//! take a bigger frame whatever limit is set here.

use crate::framing::Layout;
use crate::DEFAULT_MAX_FRAME;
use bytes::{Buf, BytesMut};
use gamewire_core::Result;
use gamewire_godot::{DecodeOptions, EncodeOptions, Value, Version};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;
use tokio_util::codec::{Decoder, Encoder};

const LAYOUT: Layout = Layout {
    header: 4,
    size_at: 0,
    what: "framed Godot value",
};

/// Keeps an encoding scratch buffer from holding on to a huge value's memory.
const SCRATCH_KEEP: usize = 1 << 20;

/// Framed Godot values as owned [`Value`]s.
///
/// ```
/// use bytes::BytesMut;
/// use gamewire_godot::{Value, Version};
/// use tokio_util::codec::Decoder;
/// let mut codec = gamewire_net::GodotCodec::new(Version::V4).with_max_frame(16);
/// let mut wire = BytesMut::from(&[100u8, 0, 0, 0][..]); // announces 100 bytes
/// let err = codec.decode(&mut wire).unwrap_err();
/// assert!(err.to_string().contains("limit of 16"), "{err}");
/// ```
#[derive(Debug, Clone)]
pub struct GodotCodec {
    decode: DecodeOptions,
    encode: EncodeOptions,
    max_frame: usize,
    consumed: usize,
    scratch: Vec<u8>,
}

impl GodotCodec {
    /// A codec for wire `version` with default options and a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new(version: Version) -> Self {
        GodotCodec::with_options(DecodeOptions::new(version), EncodeOptions::new(version))
    }

    /// A codec with these options (objects, depth limit).
    pub fn with_options(decode: DecodeOptions, encode: EncodeOptions) -> Self {
        GodotCodec {
            decode,
            encode,
            max_frame: DEFAULT_MAX_FRAME,
            consumed: 0,
            scratch: Vec::new(),
        }
    }

    /// Sets the largest value accepted or sent, in bytes after the length prefix.
    pub fn with_max_frame(mut self, max: usize) -> Self {
        self.max_frame = max;
        self
    }

    /// Stream bytes taken as whole frames so far.
    pub fn consumed(&self) -> usize {
        self.consumed
    }
}

impl Decoder for GodotCodec {
    type Item = Value;
    type Error = gamewire_core::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Value>> {
        let Some(total) = LAYOUT.complete(buf, self.consumed, self.max_frame)? else {
            return Ok(None);
        };
        let base = self.consumed + 4;
        let value =
            gamewire_godot::decode(&buf[4..total], &self.decode).map_err(|e| e.shift_offset(base));
        buf.advance(total);
        self.consumed += total;
        value.map(Some)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Value>> {
        match self.decode(buf)? {
            Some(v) => Ok(Some(v)),
            None if buf.is_empty() => Ok(None),
            None => Err(LAYOUT.eof(buf, self.consumed)),
        }
    }
}

/// Writes `body` (a scratch buffer holding 4 placeholder bytes, then the Variant) as
/// one frame.
fn put_frame(scratch: &mut Vec<u8>, max: usize, dst: &mut BytesMut) -> Result<()> {
    let body = scratch.len() - 4;
    let checked = LAYOUT.check_out(body, max);
    if checked.is_ok() {
        scratch[..4].copy_from_slice(&(body as u32).to_le_bytes());
        dst.extend_from_slice(scratch);
    }
    if scratch.capacity() > SCRATCH_KEEP {
        *scratch = Vec::new();
    }
    checked
}

impl Encoder<&Value> for GodotCodec {
    type Error = gamewire_core::Error;

    fn encode(&mut self, value: &Value, dst: &mut BytesMut) -> Result<()> {
        self.scratch.clear();
        self.scratch.extend_from_slice(&[0; 4]);
        gamewire_godot::encode_into(value, &self.encode, &mut self.scratch)?;
        put_frame(&mut self.scratch, self.max_frame, dst)
    }
}

impl Encoder<Value> for GodotCodec {
    type Error = gamewire_core::Error;

    fn encode(&mut self, value: Value, dst: &mut BytesMut) -> Result<()> {
        Encoder::<&Value>::encode(self, &value, dst)
    }
}

/// Framed Godot values as serde types: decodes into `T`, encodes anything
/// [`Serialize`] (see [`gamewire_godot::to_bytes`] for the mapping).
///
/// ```
/// use bytes::BytesMut;
/// use gamewire_godot::Version;
/// use tokio_util::codec::{Decoder, Encoder};
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Move { x: i32, y: i32 }
/// let mut codec = gamewire_net::GodotSerdeCodec::<Move>::new(Version::V4);
/// let mut wire = BytesMut::new();
/// codec.encode(&Move { x: 1, y: -2 }, &mut wire).unwrap();
/// assert_eq!(codec.decode(&mut wire).unwrap(), Some(Move { x: 1, y: -2 }));
/// ```
#[derive(Debug)]
pub struct GodotSerdeCodec<T> {
    version: Version,
    max_frame: usize,
    consumed: usize,
    scratch: Vec<u8>,
    item: PhantomData<fn() -> T>,
}

impl<T> Clone for GodotSerdeCodec<T> {
    fn clone(&self) -> Self {
        GodotSerdeCodec {
            version: self.version,
            max_frame: self.max_frame,
            consumed: self.consumed,
            scratch: Vec::new(),
            item: PhantomData,
        }
    }
}

impl<T> GodotSerdeCodec<T> {
    /// A codec for wire `version` with a [`DEFAULT_MAX_FRAME`] limit.
    pub fn new(version: Version) -> Self {
        GodotSerdeCodec {
            version,
            max_frame: DEFAULT_MAX_FRAME,
            consumed: 0,
            scratch: Vec::new(),
            item: PhantomData,
        }
    }

    /// Sets the largest value accepted or sent, in bytes after the length prefix.
    pub fn with_max_frame(mut self, max: usize) -> Self {
        self.max_frame = max;
        self
    }

    /// Stream bytes taken as whole frames so far.
    pub fn consumed(&self) -> usize {
        self.consumed
    }
}

impl<T: DeserializeOwned> Decoder for GodotSerdeCodec<T> {
    type Item = T;
    type Error = gamewire_core::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<T>> {
        let Some(total) = LAYOUT.complete(buf, self.consumed, self.max_frame)? else {
            return Ok(None);
        };
        let base = self.consumed + 4;
        let value = gamewire_godot::from_bytes::<T>(&buf[4..total], self.version)
            .map_err(|e| e.shift_offset(base));
        buf.advance(total);
        self.consumed += total;
        value.map(Some)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<T>> {
        match self.decode(buf)? {
            Some(v) => Ok(Some(v)),
            None if buf.is_empty() => Ok(None),
            None => Err(LAYOUT.eof(buf, self.consumed)),
        }
    }
}

impl<T, U: Serialize> Encoder<U> for GodotSerdeCodec<T> {
    type Error = gamewire_core::Error;

    fn encode(&mut self, value: U, dst: &mut BytesMut) -> Result<()> {
        self.scratch.clear();
        self.scratch.extend_from_slice(&[0; 4]);
        gamewire_godot::to_writer(&value, self.version, &mut self.scratch)?;
        put_frame(&mut self.scratch, self.max_frame, dst)
    }
}
