//! The `zeze` commands of the CLI.

use crate::{Action, CliResult};
use gamewire::zeze::frame::{decode_frames, encode_frames, Family, Frame, FrameOptions, Payload};
use gamewire::zeze::json::{bean_from_json, frame_from_json};
use gamewire::zeze::json_view::{BeanView, FrameView};
use gamewire::zeze::schema::Schema;
use gamewire::zeze::schema_view::SchemaView;
use gamewire::zeze::{self as zeze};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench zeze`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The input is a stream of protocol frames (module id, protocol id, size, body).
    #[arg(long)]
    pub frames: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// With --frames: one JSON array of frames instead of JSON Lines (one compact
    /// document per frame, per line). Encoding reads the same form back.
    #[arg(long, requires = "frames")]
    pub array: bool,
    /// Encoding: a key repeated in one JSON object keeps its last value instead of
    /// being an error.
    #[arg(long)]
    pub last_key_wins: bool,
    /// Deepest nesting accepted while decoding.
    #[arg(long, default_value_t = 1024)]
    pub max_depth: usize,
    /// A Zeze solution XML: decode and encode named, typed values. A single bean needs
    /// --bean; frames are typed by --bean, or else by the protocols the solution declares
    /// with ids (argument bean for protocols and requests, result bean for responses).
    #[arg(long)]
    pub schema: Option<PathBuf>,
    /// The bean (full or unique short name) of the input, or of every frame's body.
    #[arg(long, requires = "schema")]
    pub bean: Option<String>,
}

/// `gamewire zeze ...`: tools beside decode and encode.
#[derive(clap::Subcommand)]
pub enum ZezeCmd {
    /// Write Rust serde types for every bean, dynamic variable, protocol and Rpc of a
    /// solution (the same as `gamewire_zeze::gen::gen` in a build.rs).
    Gen {
        /// The solution XML.
        #[arg(long)]
        schema: PathBuf,
        /// Output directory (gets `zeze_gen.rs`) or file.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs a [`ZezeCmd`].
pub fn tool(c: ZezeCmd) -> CliResult {
    match c {
        ZezeCmd::Gen { schema, out } => {
            let path = zeze::gen::gen(&schema, &out)?;
            eprintln!("wrote {}", path.display());
            Ok(())
        }
    }
}

/// The schema (and bean name) given with --schema/--bean.
struct Typed {
    schema: Schema,
    bean: Option<String>,
}

/// Loads a solution and the files it imports (`<import file=..>`, as Zeze's Gen finds
/// them); errors name the file.
fn load_schema(path: &Path) -> CliResult<Schema> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // The loader reads `path` first: hand it the text already read.
    let mut first = Some(text);
    let mut read = |p: &Path| match first.take() {
        Some(t) => Ok(t),
        None => std::fs::read_to_string(p),
    };
    Schema::from_file_with(path, &mut read).map_err(|e| e.to_string().into())
}

/// The error for `--schema` without `--bean` on a single bean: which beans there are,
/// and the one the input's file name suggests.
fn needs_bean(schema: &Schema, input: Option<&Path>) -> String {
    let name = input
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    format!(
        "--schema needs --bean NAME for a single bean; {}",
        schema.beans_hint(name.as_deref())
    )
}

fn typed(a: &Args) -> CliResult<Option<Typed>> {
    let Some(p) = &a.schema else { return Ok(None) };
    let schema = load_schema(p)?;
    let bean = match &a.bean {
        Some(b) => Some(schema.bean(b)?.name.clone()),
        None if !a.frames => return Err(needs_bean(&schema, a.input.as_deref()).into()),
        None => None,
    };
    Ok(Some(Typed { schema, bean }))
}

type J = serde_json::Value;

impl Typed {
    /// The bean type of a frame's body and the protocol's name, when known.
    fn frame_bean(
        &self,
        module: u32,
        protocol: u32,
        family: Option<Family>,
    ) -> (Option<String>, Option<String>) {
        if let Some(b) = &self.bean {
            return (Some(b.clone()), None);
        }
        match self.schema.protocol(module, protocol) {
            Some(p) => {
                let bean = if family == Some(Family::Response) {
                    &p.result
                } else {
                    &p.argument
                };
                (bean.clone(), Some(p.name.clone()))
            }
            None => (None, None),
        }
    }

    /// [`Typed::frame_bean`], borrowed from the schema.
    fn frame_bean_ref(
        &self,
        module: u32,
        protocol: u32,
        family: Option<Family>,
    ) -> (Option<&str>, Option<&str>) {
        if let Some(b) = &self.bean {
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

    /// Checks that a frame's body reads as its bean (the errors `decode` would meet);
    /// `end` is the offset in the stream where the frame (and so its bean) ends.
    fn check_frame(&self, f: &Frame, end: usize, o: &zeze::Options) -> zeze::Result<()> {
        if let Payload::Body(b) = &f.payload {
            if let (Some(n), _) = self.frame_bean(f.module_id, f.protocol_id, Some(b.family)) {
                // The bean written again gives its bytes as they were (Zeze's encoding is
                // canonical), so an offset in them shifts to the stream's.
                let bytes = zeze::encode(&b.bean)?;
                let start = end.saturating_sub(bytes.len());
                SchemaView::new(&self.schema, &n, &bytes, o).map_err(|e| e.shift_offset(start))?;
            }
        }
        Ok(())
    }

    fn frame_from(&self, j: &J) -> zeze::Result<Frame> {
        let id = |k: &str| j.get(k).and_then(J::as_u64).unwrap_or(0) as u32;
        let family = j
            .get("family")
            .and_then(J::as_str)
            .and_then(Family::from_name);
        let (bean, _) = self.frame_bean(id("module"), id("protocol"), family);
        frame_from_json(j, |b| match &bean {
            None => bean_from_json(b),
            Some(n) => zeze::decode(&self.schema.encode(n, b)?, &zeze::Options::default()),
        })
    }
}

/// The frames of a stream as JSON, each written from its tree (typed when a schema
/// names its bean): a JSON array, or one frame at a time.
struct Frames<'a> {
    t: Option<&'a Typed>,
    frames: &'a [Frame],
    opts: zeze::Options,
}

impl<'a> Frames<'a> {
    fn frame(&self, f: &'a Frame) -> FrameView<'a, Body<'a>> {
        let family = match &f.payload {
            Payload::Body(b) => Some(b.family),
            Payload::Raw(_) => None,
        };
        let (bean, name) = match self.t {
            Some(t) => t.frame_bean_ref(f.module_id, f.protocol_id, family),
            None => (None, None),
        };
        let body = Body {
            f,
            typed: self.t.zip(bean),
            opts: self.opts,
        };
        FrameView::new(f, body, name)
    }
}

impl serde::Serialize for Frames<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.frames.iter().map(|f| self.frame(f)))
    }
}

/// A frame's body bean: schema-less, or typed by its bean (checked before writing).
struct Body<'a> {
    f: &'a Frame,
    typed: Option<(&'a Typed, &'a str)>,
    opts: zeze::Options,
}

impl serde::Serialize for Body<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let Payload::Body(b) = &self.f.payload else {
            return s.serialize_unit();
        };
        match self.typed {
            None => BeanView::new(&b.bean).serialize(s),
            Some((t, n)) => {
                let bytes = zeze::encode(&b.bean).map_err(S::Error::custom)?;
                SchemaView::new(&t.schema, n, &bytes, &self.opts)
                    .map_err(S::Error::custom)?
                    .serialize(s)
            }
        }
    }
}

fn opts(a: &Args) -> zeze::Options {
    zeze::Options {
        max_depth: a.max_depth,
    }
}

fn frame_opts(a: &Args) -> FrameOptions {
    FrameOptions {
        bean: opts(a),
        ..FrameOptions::default()
    }
}

/// Encodes JSON (as `decode` writes it) to Zeze bytes.
fn from_json(a: &Args, j: &J) -> CliResult<Vec<u8>> {
    let t = typed(a)?;
    if a.frames {
        let arr = j.as_array().ok_or("expected a JSON array of frames")?;
        let frames = arr
            .iter()
            .enumerate()
            .map(|(i, f)| {
                match &t {
                    None => frame_from_json(f, bean_from_json),
                    Some(t) => t.frame_from(f),
                }
                .map_err(|e| e.in_index(i))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(encode_frames(&frames)?)
    } else if let Some(Typed {
        schema,
        bean: Some(bean),
    }) = &t
    {
        Ok(schema.encode(bean, j)?)
    } else {
        Ok(zeze::encode(&bean_from_json(j)?)?)
    }
}

/// Runs `decode`, `encode` or `bench` for zeze.
pub fn run(action: Action, args: Args) -> CliResult {
    crate::only_for(
        action,
        &[
            ("--last-key-wins", args.last_key_wins, &[Action::Encode]),
            ("--compact", args.compact, &[Action::Decode]),
            ("--array", args.array, &[Action::Decode, Action::Encode]),
            (
                "--output",
                args.output.is_some(),
                &[Action::Decode, Action::Encode],
            ),
        ],
    )?;
    let input = crate::io::read_input(args.input.as_deref())?;
    match action {
        Action::Decode if !args.frames && args.schema.is_none() => {
            // The schema-less tree, streamed: no JSON tree is built (the same text as
            // `bean_to_json`).
            let bean = zeze::decode(&input, &opts(&args))?;
            let view = gamewire::zeze::json_view::BeanView::new(&bean);
            crate::io::write_json(args.output.as_deref(), &view, !args.compact)
        }
        Action::Decode if !args.frames => {
            // Typed by the schema, streamed from the bytes (the same text as
            // `Schema::decode`'s value): the input is checked whole first, then written.
            let t = typed(&args)?;
            let Some(Typed {
                schema,
                bean: Some(bean),
            }) = &t
            else {
                return Err("--schema needs --bean NAME for a single bean".into());
            };
            let view = SchemaView::new(schema, bean, &input, &opts(&args))?;
            crate::io::write_json(args.output.as_deref(), &view, !args.compact)
        }
        Action::Decode => {
            // Frames, one at a time: every frame is checked first (no output on an
            // error), then each is written straight from its decoded tree.
            let t = typed(&args)?;
            let frames = decode_frames(&input, &frame_opts(&args))?;
            if let Some(t) = &t {
                // Each frame is 12 header bytes (the last 4 its body's size), then the body,
                // which ends with the bean: offsets in errors count from the file's start.
                let mut end = 0usize;
                for (i, f) in frames.iter().enumerate() {
                    let size = input
                        .get(end + 8..end + 12)
                        .and_then(|w| <[u8; 4]>::try_from(w).ok())
                        .map_or(0, u32::from_le_bytes);
                    end += 12 + size as usize;
                    t.check_frame(f, end, &opts(&args))
                        .map_err(|e| e.in_index(i))?;
                }
            }
            let views = Frames {
                t: t.as_ref(),
                frames: &frames,
                opts: opts(&args),
            };
            if args.array {
                crate::io::write_json(args.output.as_deref(), &views, !args.compact)
            } else {
                // JSON Lines: one compact document per frame.
                let mut out = crate::io::Output::create(args.output.as_deref())?;
                for f in &frames {
                    out.json(&views.frame(f), false)?;
                }
                out.finish()
            }
        }
        Action::Encode => {
            let j = if args.frames && !args.array {
                J::Array(crate::io::parse_json_stream(&input, args.last_key_wins)?)
            } else {
                crate::io::parse_json(&input, args.last_key_wins)?
            };
            crate::io::write_output(args.output.as_deref(), &from_json(&args, &j)?)
        }
        Action::Bench => {
            let label = if args.frames {
                "zeze frames"
            } else {
                "zeze bean"
            };
            let t = if args.frames { None } else { typed(&args)? };
            if let Some(Typed {
                schema,
                bean: Some(bean),
            }) = t
            {
                let o = opts(&args);
                let label = format!("zeze bean {bean} (schema)");
                crate::bench::run(
                    &label,
                    &input,
                    |d| Ok(schema.decode(&bean, d, &o)?),
                    |j| Ok(schema.encode(&bean, j)?),
                )
            } else if args.frames {
                let o = frame_opts(&args);
                crate::bench::run(
                    label,
                    &input,
                    |d| Ok(decode_frames(d, &o)?),
                    |f| Ok(encode_frames(f)?),
                )
            } else {
                let o = opts(&args);
                crate::bench::run(
                    label,
                    &input,
                    |d| Ok(zeze::decode(d, &o)?),
                    |b| Ok(zeze::encode(b)?),
                )
            }
        }
    }
}
