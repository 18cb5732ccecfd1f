//! Protocol frames: `moduleId[4] protocolId[4] size[4]` (little-endian) then `size`
//! bytes of body. The body (Zeze's `Protocol.encode`/`Rpc.encode`) is the family class
//! as a compact int (2 protocol, 1 request, 0 response; bit 0x20 = a result code
//! follows), the result code if flagged, the session id for an Rpc, then the bean.

use crate::cursor::Cursor;
use crate::decode::{read_bean, Options};
use crate::encode::encode_into;
use crate::value::Bean;
use crate::varint::write_long;
use gamewire_core::{Error, ErrorKind, Result};

/// Bytes of the frame header.
pub const HEADER_SIZE: usize = 12;
/// The result-code bit of the family class.
pub const BIT_RESULT_CODE: i64 = 1 << 5;
/// Mask of the family class proper.
pub const FAMILY_MASK: i64 = BIT_RESULT_CODE - 1;

/// Zeze's `FamilyClass`: what kind of message a frame carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// 0: an Rpc response (session id, then the result bean).
    Response,
    /// 1: an Rpc request (session id, then the argument bean).
    Request,
    /// 2: a one-way protocol (the argument bean).
    Protocol,
}

impl Family {
    /// The family class number.
    pub fn code(self) -> i64 {
        match self {
            Family::Response => 0,
            Family::Request => 1,
            Family::Protocol => 2,
        }
    }

    /// The name used in JSON: `response`, `request` or `protocol`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Response => "response",
            Family::Request => "request",
            Family::Protocol => "protocol",
        }
    }

    /// The family named `name` (see [`Family::name`]).
    pub fn from_name(name: &str) -> Option<Family> {
        [Family::Response, Family::Request, Family::Protocol]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

/// A decoded protocol body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// The family class.
    pub family: Family,
    /// The result code, when the result-code bit is set.
    pub result_code: Option<i64>,
    /// The Rpc session id (requests and responses only).
    pub session_id: Option<i64>,
    /// The argument (or result) bean.
    pub bean: Bean,
}

/// What a frame carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// A body in the standard protocol layout.
    Body(Body),
    /// Body bytes that are not in the standard layout (kept as they are).
    Raw(Vec<u8>),
}

/// One protocol frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Module id.
    pub module_id: u32,
    /// Protocol id within the module.
    pub protocol_id: u32,
    /// The body.
    pub payload: Payload,
}

impl Frame {
    /// Zeze's 64-bit type id: `moduleId << 32 | protocolId`.
    pub fn type_id(&self) -> i64 {
        ((self.module_id as i64) << 32) | self.protocol_id as i64
    }
}

/// Options for frame streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameOptions {
    /// Bean decoding options.
    pub bean: Options,
    /// Largest body size accepted (Zeze's `InputBufferMaxProtocolSize`); default 16 MiB.
    pub max_frame_size: u32,
}

impl Default for FrameOptions {
    fn default() -> Self {
        FrameOptions {
            bean: Options::default(),
            max_frame_size: 16 << 20,
        }
    }
}

/// Reads the start of a body: the family class header, then the result code (when the
/// header's bit says so) and the session id (for requests and responses). Returns the
/// family, result code and session id; the cursor is left at the bean.
#[inline]
pub fn read_family_head(c: &mut Cursor<'_>) -> Result<(Family, Option<i64>, Option<i64>)> {
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
    if header & !(FAMILY_MASK | BIT_RESULT_CODE) != 0 {
        return Err(Error::unexpected_at(
            at,
            "a family class header below 64",
            header.to_string(),
        ));
    }
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
    Ok((family, result_code, session_id))
}

/// Decodes a body (the bytes after the 12-byte header). `base` is the body's offset in
/// the stream, for errors.
pub fn decode_body(body: &[u8], base: usize, opts: &Options) -> Result<Body> {
    let mut c = Cursor::with_base(body, base);
    let (family, result_code, session_id) = read_family_head(&mut c)?;
    let bean = read_bean(&mut c, opts, 0)?;
    if !c.is_empty() {
        return Err(Error::at(
            c.offset(),
            ErrorKind::TrailingBytes {
                count: c.remaining(),
            },
        ));
    }
    Ok(Body {
        family,
        result_code,
        session_id,
        bean,
    })
}

/// Appends the start of a body: the family class header (with the result-code bit when
/// `result_code` is given), the result code and the session id. A protocol takes no
/// session id and an Rpc request or response needs one; either mistake is an error
/// (after the header and result code were appended).
#[inline]
pub fn write_family_head(
    family: Family,
    result_code: Option<i64>,
    session_id: Option<i64>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let mut header = family.code();
    if result_code.is_some() {
        header |= BIT_RESULT_CODE;
    }
    write_long(out, header);
    if let Some(rc) = result_code {
        write_long(out, rc);
    }
    match (family, session_id) {
        (Family::Protocol, None) => Ok(()),
        (Family::Protocol, Some(_)) => {
            Err(Error::msg("a protocol (not Rpc) frame has no session id"))
        }
        (_, Some(s)) => {
            write_long(out, s);
            Ok(())
        }
        (_, None) => Err(Error::msg("an Rpc request or response needs a session id")),
    }
}

/// Appends a body's bytes.
pub fn encode_body(b: &Body, out: &mut Vec<u8>) -> Result<()> {
    write_family_head(b.family, b.result_code, b.session_id, out)?;
    encode_into(&b.bean, out)
}

/// Appends a whole frame (header and body).
pub fn encode_frame(f: &Frame, out: &mut Vec<u8>) -> Result<()> {
    out.extend_from_slice(&f.module_id.to_le_bytes());
    out.extend_from_slice(&f.protocol_id.to_le_bytes());
    let size_at = out.len();
    out.extend_from_slice(&[0; 4]);
    match &f.payload {
        Payload::Body(b) => encode_body(b, out)?,
        Payload::Raw(r) => out.extend_from_slice(r),
    }
    let size =
        u32::try_from(out.len() - size_at - 4).map_err(|_| Error::msg("frame body past 4 GiB"))?;
    out[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
    Ok(())
}

/// Encodes frames one after another.
pub fn encode_frames(frames: &[Frame]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        encode_frame(f, &mut out).map_err(|e| e.in_index(i))?;
    }
    Ok(out)
}

/// Reads the 12-byte header at the start of `data` (whose first byte is at stream offset
/// `base`): `Ok(None)` until the whole frame is there, else the module id, the protocol
/// id and the frame's length (header and body). A body past `max_frame_size` is refused
/// from the header alone, with the size field's offset.
#[inline]
pub fn read_frame_header(
    data: &[u8],
    base: usize,
    max_frame_size: u32,
) -> Result<Option<(u32, u32, usize)>> {
    if data.len() < HEADER_SIZE {
        return Ok(None);
    }
    let word = |i: usize| u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    let (module_id, protocol_id, size) = (word(0), word(4), word(8));
    if size > max_frame_size {
        return Err(Error::at(
            base + 8,
            ErrorKind::SizeLimit {
                what: "protocol frame body",
                size: size as u64,
                limit: max_frame_size as u64,
            },
        ));
    }
    let end = HEADER_SIZE + size as usize;
    if data.len() < end {
        return Ok(None);
    }
    Ok(Some((module_id, protocol_id, end)))
}

/// Decodes one frame from the start of `data` (whose first byte is at stream offset
/// `base`): `Ok(None)` when more bytes are needed, else the frame and its length.
/// A body that is not in the standard layout is kept as [`Payload::Raw`].
pub fn decode_frame(
    data: &[u8],
    base: usize,
    opts: &FrameOptions,
) -> Result<Option<(Frame, usize)>> {
    let Some((module_id, protocol_id, end)) = read_frame_header(data, base, opts.max_frame_size)?
    else {
        return Ok(None);
    };
    let body = &data[HEADER_SIZE..end];
    let payload = match decode_body(body, base + HEADER_SIZE, &opts.bean) {
        Ok(b) => Payload::Body(b),
        Err(e) if matches!(e.kind(), ErrorKind::DepthLimit { .. }) => return Err(e),
        Err(_) => Payload::Raw(body.to_vec()),
    };
    Ok(Some((
        Frame {
            module_id,
            protocol_id,
            payload,
        },
        end,
    )))
}

/// Decodes a whole stream of frames; an incomplete last frame is an error.
pub fn decode_frames(data: &[u8], opts: &FrameOptions) -> Result<Vec<Frame>> {
    let mut frames = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        match decode_frame(&data[pos..], pos, opts).map_err(|e| e.in_index(frames.len()))? {
            Some((f, n)) => {
                frames.push(f);
                pos += n;
            }
            None => {
                let rest = data.len() - pos;
                let needed = if rest < HEADER_SIZE {
                    HEADER_SIZE - rest
                } else {
                    HEADER_SIZE
                        + u32::from_le_bytes(data[pos + 8..pos + 12].try_into().unwrap_or([0; 4]))
                            as usize
                        - rest
                };
                return Err(Error::at(
                    data.len(),
                    ErrorKind::UnexpectedEof {
                        needed,
                        remaining: 0,
                    },
                )
                .in_index(frames.len()));
            }
        }
    }
    Ok(frames)
}

/// Reads frames from a byte stream that arrives in pieces (a socket): push what was
/// read, then take every complete frame. A frame split across reads waits for its rest;
/// memory is bounded by one frame plus one read.
#[derive(Debug, Default)]
pub struct FrameReader {
    buf: Vec<u8>,
    start: usize,
    consumed: usize,
    opts: FrameOptions,
}

impl FrameReader {
    /// A reader with these options.
    pub fn new(opts: FrameOptions) -> Self {
        FrameReader {
            opts,
            ..Default::default()
        }
    }

    /// Appends bytes that arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > 4096 && self.start * 2 > self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete frame, or `None` until more bytes arrive.
    pub fn next_frame(&mut self) -> Result<Option<Frame>> {
        match decode_frame(&self.buf[self.start..], self.consumed, &self.opts)? {
            Some((f, n)) => {
                self.start += n;
                self.consumed += n;
                Ok(Some(f))
            }
            None => Ok(None),
        }
    }

    /// Bytes pushed but not yet taken as frames.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.start
    }
}

/// How many bodies [`probe_frames`] decodes: the first 1,024 frames.
pub const PROBE_BODIES: usize = 1024;

/// Recognises a stream of protocol frames by its content: headers whose sizes chain
/// to exactly the end of `data`, and at least half the bodies (of the first
/// [`PROBE_BODIES`]) in Zeze's standard layout (family class, session id, a bean that
/// decodes to its end; a stream may carry other bodies, which decoding keeps raw).
/// Returns the number of frames. Cheap for other data: the size chain is checked before
/// any body is decoded, and nothing is stored per frame (500 MB of zeros chain as 43
/// million empty frames, counted in constant memory, then refused on their first
/// bodies).
pub fn probe_frames(data: &[u8]) -> Option<usize> {
    let frames = frame_bodies(data).try_fold(0usize, |n, b| b.map(|_| n + 1))?;
    if frames == 0 {
        return None;
    }
    let opts = Options::default();
    let sampled = frames.min(PROBE_BODIES);
    let standard = frame_bodies(data)
        .take(sampled)
        .flatten()
        .filter(|&(start, end)| decode_body(&data[start..end], start, &opts).is_ok())
        .count();
    (standard * 2 >= sampled).then_some(frames)
}

/// The body bounds `(start, end)` of each frame of `data` in turn, by the size chain;
/// `None` (and nothing after it) where a header is cut short or a size runs past the end.
fn frame_bodies(data: &[u8]) -> impl Iterator<Item = Option<(usize, usize)>> + '_ {
    let mut pos = 0usize;
    let mut broken = false;
    std::iter::from_fn(move || {
        if broken || pos >= data.len() {
            return None;
        }
        let bounds = data.get(pos..pos + HEADER_SIZE).and_then(|head| {
            let size = u32::from_le_bytes([head[8], head[9], head[10], head[11]]) as usize;
            let end = pos
                .checked_add(HEADER_SIZE + size)
                .filter(|&e| e <= data.len())?;
            Some((pos + HEADER_SIZE, end))
        });
        match bounds {
            Some((_, end)) => pos = end,
            None => broken = true,
        }
        Some(bounds)
    })
}
