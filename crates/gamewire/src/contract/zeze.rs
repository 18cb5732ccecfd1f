//! Zeze: one bean, or protocol frames, as the schema-less tree (field ids, wire types).
//! JSON typed by a solution (field names) is [`crate::open`]'s, with the solution found
//! beside the file.

use super::{parse_json, write_error, Codec};
use crate::Format;
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_zeze::frame::{self, Frame, FrameOptions};
use gamewire_zeze::{self as zeze, json, Bean, EncodeOptions, Options};
use std::io::Write;

/// Zeze beans and protocol frames ([`Codec`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Zeze;

/// How a Zeze file is read: one bean or a stream of frames, and the bean options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ZezeOptions {
    /// Protocol frames (module id, protocol id, size, body) rather than one bean.
    pub frames: bool,
    /// The nesting limit of beans.
    pub options: Options,
}

/// A Zeze file: one bean, or frames.
#[derive(Debug, Clone, PartialEq)]
pub enum ZezeValue {
    /// One bean filling the file.
    Bean(Bean),
    /// Protocol frames, one after another.
    Frames(Vec<Frame>),
}

impl Codec for Zeze {
    const FORMAT: Format = Format::Zeze;
    const EXACT: bool = true;
    type Value<'a> = ZezeValue;
    type DecodeOptions = ZezeOptions;
    type EncodeOptions = EncodeOptions;

    fn decode(data: &[u8], opts: &ZezeOptions) -> Result<ZezeValue> {
        if opts.frames {
            let fopts = FrameOptions {
                bean: opts.options,
                ..FrameOptions::default()
            };
            Ok(ZezeValue::Frames(frame::decode_frames(data, &fopts)?))
        } else {
            Ok(ZezeValue::Bean(zeze::codec::decode(data, &opts.options)?))
        }
    }

    fn encode(value: &ZezeValue, opts: &EncodeOptions) -> Result<Vec<u8>> {
        match value {
            ZezeValue::Bean(b) => zeze::codec::encode(b, opts),
            ZezeValue::Frames(f) => frame::encode_frames(f),
        }
    }

    fn encode_options(_data: &[u8], _value: &ZezeValue, _opts: &ZezeOptions) -> EncodeOptions {
        EncodeOptions::default()
    }

    fn write_json(
        value: &ZezeValue,
        _opts: &ZezeOptions,
        w: &mut dyn Write,
        pretty: bool,
    ) -> Result<()> {
        match value {
            ZezeValue::Bean(b) => json::write_json(w, b, pretty),
            ZezeValue::Frames(frames) => {
                let all: Vec<_> = frames
                    .iter()
                    .map(|f| json::frame_to_json(f, json::bean_to_json))
                    .collect();
                gamewire_core::json_out::write(w, &all, pretty).map_err(write_error)
            }
        }
    }

    fn from_json(text: &[u8], opts: &ZezeOptions) -> Result<ZezeValue> {
        let j = parse_json(text)?;
        if opts.frames {
            let serde_json::Value::Array(items) = j else {
                return Err(Error::msg(
                    "a frame stream's JSON is an array of its frames",
                ));
            };
            let frames = items
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    json::frame_from_json(f, json::bean_from_json).map_err(|e| e.in_index(i))
                })
                .collect::<Result<_>>()?;
            Ok(ZezeValue::Frames(frames))
        } else {
            Ok(ZezeValue::Bean(json::from_json(&j)?))
        }
    }

    fn sniff(data: &[u8], name: Option<&str>) -> bool {
        zeze::sniff(data, name)
    }

    fn inspect(data: &[u8], opts: &ZezeOptions, tree: &mut TreeBuilder) -> Result<()> {
        if opts.frames {
            zeze::inspect::fill_frames(data, None, tree)
        } else {
            zeze::inspect::fill_bean(data, None, tree)
        }
    }
}
