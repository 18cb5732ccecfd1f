//! JSON of whole Zeze files, schema-less or typed by a solution: one bean, or a stream of
//! protocol frames whose bodies are typed by the bean named for them or by the protocols
//! the solution declares (argument bean for protocols and requests, result bean for
//! responses). Every front end writes and reads Zeze files through these.

use crate::frame::{decode_frames, encode_frames, Family, Frame, FrameOptions, Payload};
use crate::json::{bean_from_json, frame_from_json};
use crate::json_view::{BeanView, FrameView};
use crate::schema::Schema;
use crate::schema_view::SchemaView;
use crate::{Options, Result};
use gamewire_core::Error;
use serde_json::Value as J;

/// A solution and, optionally, the bean every value (or frame body) is.
#[derive(Clone, Copy)]
pub struct Typing<'a> {
    /// The solution.
    pub schema: &'a Schema,
    /// The bean (its full name) of a single bean, or of every frame's body.
    pub bean: Option<&'a str>,
}

impl<'a> Typing<'a> {
    /// The bean type of a frame's body and the protocol's name, when known.
    pub fn frame_bean(
        &self,
        module: u32,
        protocol: u32,
        family: Option<Family>,
    ) -> (Option<&'a str>, Option<&'a str>) {
        if let Some(b) = self.bean {
            return (Some(b), None);
        }
        match self.schema.protocol(module, protocol) {
            Some(p) => {
                let bean = if family == Some(Family::Response) {
                    &p.result
                } else {
                    &p.argument
                };
                (bean.as_deref(), Some(&p.name))
            }
            None => (None, None),
        }
    }

    /// Checks that a frame's body reads as its bean (the errors decoding would meet);
    /// `end` is the offset in the stream where the frame (and so its bean) ends.
    fn check_frame(&self, f: &Frame, end: usize, o: &Options) -> Result<()> {
        if let Payload::Body(b) = &f.payload {
            if let (Some(n), _) = self.frame_bean(f.module_id, f.protocol_id, Some(b.family)) {
                // The bean written again gives its bytes as they were (Zeze's encoding is
                // canonical), so an offset in them shifts to the stream's.
                let bytes = crate::encode(&b.bean)?;
                let start = end.saturating_sub(bytes.len());
                SchemaView::new(self.schema, n, &bytes, o).map_err(|e| e.shift_offset(start))?;
            }
        }
        Ok(())
    }

    fn frame_from(&self, j: &J) -> Result<Frame> {
        let id = |k: &str| j.get(k).and_then(J::as_u64).unwrap_or(0) as u32;
        let family = j
            .get("family")
            .and_then(J::as_str)
            .and_then(Family::from_name);
        let (bean, _) = self.frame_bean(id("module"), id("protocol"), family);
        frame_from_json(j, |b| match bean {
            None => bean_from_json(b),
            Some(n) => crate::decode(&self.schema.encode(n, b)?, &Options::default()),
        })
    }
}

/// The frames of a stream, decoded and checked against their beans, ready to be
/// written as JSON ([`Frames::serialize`] for one array, [`Frames::each`] for one
/// document per frame).
pub struct Frames<'a> {
    typing: Option<Typing<'a>>,
    frames: Vec<Frame>,
    opts: Options,
}

impl<'a> Frames<'a> {
    /// Decodes every frame of `data` and checks each typed body, before anything is
    /// written: an error leaves no output. Error offsets count from the stream's start.
    pub fn decode(data: &[u8], typing: Option<Typing<'a>>, opts: &FrameOptions) -> Result<Self> {
        let frames = decode_frames(data, opts)?;
        if let Some(t) = &typing {
            // Each frame is 12 header bytes (the last 4 its body's size), then the body,
            // which ends with the bean.
            let mut end = 0usize;
            for (i, f) in frames.iter().enumerate() {
                let size = data
                    .get(end + 8..end + 12)
                    .and_then(|w| <[u8; 4]>::try_from(w).ok())
                    .map_or(0, u32::from_le_bytes);
                end += 12 + size as usize;
                t.check_frame(f, end, &opts.bean)
                    .map_err(|e| e.in_index(i))?;
            }
        }
        Ok(Frames {
            typing,
            frames,
            opts: opts.bean,
        })
    }

    /// The frames.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The JSON of one frame.
    pub fn frame<'b>(&'b self, f: &'b Frame) -> FrameView<'b, Body<'b>> {
        let family = match &f.payload {
            Payload::Body(b) => Some(b.family),
            Payload::Raw(_) => None,
        };
        let typing: Option<Typing<'b>> = self.typing;
        let (bean, name) = match &typing {
            Some(t) => t.frame_bean(f.module_id, f.protocol_id, family),
            None => (None, None),
        };
        let body = Body {
            f,
            typed: typing.zip(bean),
            opts: self.opts,
        };
        FrameView::new(f, body, name)
    }

    /// One JSON value per frame, in order.
    pub fn each(&self) -> impl Iterator<Item = FrameView<'_, Body<'_>>> + '_ {
        self.frames.iter().map(move |f| self.frame(f))
    }
}

impl serde::Serialize for Frames<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.frames.iter().map(|f| self.frame(f)))
    }
}

/// A frame's body bean as JSON: schema-less, or typed by its bean.
pub struct Body<'a> {
    f: &'a Frame,
    typed: Option<(Typing<'a>, &'a str)>,
    opts: Options,
}

impl serde::Serialize for Body<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::Error as _;
        let Payload::Body(b) = &self.f.payload else {
            return s.serialize_unit();
        };
        match self.typed {
            None => BeanView::new(&b.bean).serialize(s),
            Some((t, n)) => {
                let bytes = crate::encode(&b.bean).map_err(S::Error::custom)?;
                SchemaView::new(t.schema, n, &bytes, &self.opts)
                    .map_err(S::Error::custom)?
                    .serialize(s)
            }
        }
    }
}

/// Encodes JSON as decoding writes it: an array of frames (`frames`), a bean typed by
/// `typing`'s bean, or a schema-less bean.
pub fn encode_json(j: &J, frames: bool, typing: Option<Typing<'_>>) -> Result<Vec<u8>> {
    if frames {
        let arr = j
            .as_array()
            .ok_or_else(|| Error::msg("expected a JSON array of frames"))?;
        let frames = arr
            .iter()
            .enumerate()
            .map(|(i, f)| {
                match &typing {
                    None => frame_from_json(f, bean_from_json),
                    Some(t) => t.frame_from(f),
                }
                .map_err(|e| e.in_index(i))
            })
            .collect::<Result<Vec<_>>>()?;
        return encode_frames(&frames);
    }
    match typing {
        Some(Typing {
            schema,
            bean: Some(bean),
        }) => schema.encode(bean, j),
        _ => crate::encode(&bean_from_json(j)?),
    }
}

/// The bean a file holds by its name: `NAME.zeze` or `NAME.anything.zeze` holds the
/// solution's bean whose short name is NAME (any case).
pub fn bean_for_file(schema: &Schema, file_name: &str) -> Option<String> {
    let stem = file_name.split('.').next().unwrap_or("");
    schema
        .bean_names()
        .into_iter()
        .find(|n| {
            n.rsplit('.')
                .next()
                .is_some_and(|s| s.eq_ignore_ascii_case(stem))
        })
        .map(str::to_owned)
}

/// The names a solution file beside Zeze data may have, in the order they are looked
/// for.
pub const SOLUTION_NAMES: [&str; 2] = ["zeze-solution.xml", "solution.xml"];

/// True for a file name that says it holds protocol frames (`*.frames.zeze`).
pub fn is_frames_name(file_name: &str) -> bool {
    file_name.to_ascii_lowercase().ends_with(".frames.zeze")
}
