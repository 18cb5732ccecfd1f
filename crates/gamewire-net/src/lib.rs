//! tokio codecs for game network streams: Godot framed Variants and Zeze protocol frames.
//!
//! Each codec is a [`tokio_util::codec::Decoder`] and [`tokio_util::codec::Encoder`], so
//! `tokio_util::codec::Framed::new(tcp_stream, codec)` turns a socket into a stream and a
//! sink of values:
//!
//! - [`godot`]: `PacketPeerStream` / `StreamPeer.put_var` framing (a u32 little-endian
//!   byte length, then the Variant), Godot 3.x and 4.x, as owned
//!   [`gamewire_godot::Value`]s ([`GodotCodec`]) or as serde types ([`GodotSerdeCodec`]);
//! - [`zeze`]: Zeze protocol frames (`moduleId[4] protocolId[4] size[4]` then the body)
//!   as tree values ([`ZezeCodec`]), typed by a solution ([`ZezeSchemaCodec`]), as serde
//!   beans such as generated types ([`ZezeTypedCodec`]), or as whole raw frames for a
//!   generated type's `read_frame` ([`ZezeRawCodec`]).
//!
//! Every decoder takes bytes in pieces of any size and several frames in one read, refuses
//! a frame whose declared size is over its limit as soon as the length is read (before
//! any of it is buffered, so the connection can be dropped unread), and reports end of
//! stream in the middle of a frame as an [`ErrorKind::UnexpectedEof`]. Errors carry the
//! byte offset in the whole stream. After an error the stream cannot be resynchronised:
//! drop the connection (`Framed` ends the stream after yielding the error).
//!
//! ```
//! use bytes::BytesMut;
//! use gamewire_godot::{Value, Version};
//! use gamewire_net::GodotCodec;
//! use tokio_util::codec::{Decoder, Encoder};
//! let mut codec = GodotCodec::new(Version::V3);
//! let mut wire = BytesMut::new();
//! codec.encode(&Value::Int(7), &mut wire).unwrap();
//! assert_eq!(&wire[..], [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]);
//! assert_eq!(codec.decode(&mut wire).unwrap(), Some(Value::Int(7)));
//! ```
//!
//! A server built on the codecs accepts its connections with [`serve::accept_loop`]: an
//! `accept` that fails (out of file descriptors under `ulimit -n`, a client that reset
//! before it was accepted) is logged and retried after a short back-off, where
//! `listener.accept().await?` would end the server for every client. The example echo
//! servers (`examples/godot-echo.rs`, `examples/zeze-echo.rs`) show the whole of it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod framing;
pub mod godot;
pub mod serve;
pub mod zeze;

pub use gamewire_core::{Error, ErrorKind, Result};
pub use godot::{GodotCodec, GodotSerdeCodec};
pub use zeze::{RawFrame, SchemaFrame, ZezeCodec, ZezeRawCodec, ZezeSchemaCodec, ZezeTypedCodec};

/// The default largest frame (the bytes after the length prefix or header): 16 MiB,
/// Zeze's default `InputBufferMaxProtocolSize`.
pub const DEFAULT_MAX_FRAME: usize = 16 << 20;
