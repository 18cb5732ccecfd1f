//! The `zeze` commands of the CLI.

use crate::{Action, CliResult};
use gamewire::zeze::frame::{decode_frames, encode_frames, FrameOptions};
use gamewire::zeze::schema::Schema;
use gamewire::zeze::schema_view::SchemaView;
use gamewire::zeze::typed_json::{self, Frames, Typing};
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
    /// Deepest nesting accepted while decoding (at most 65536).
    #[arg(long, default_value_t = 1024, value_parser = crate::limits::max_depth)]
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
    Ok(Schema::from_file(path)?)
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
    /// The library's typing for this schema and bean.
    fn typing(&self) -> Typing<'_> {
        Typing {
            schema: &self.schema,
            bean: self.bean.as_deref(),
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
    Ok(typed_json::encode_json(
        j,
        a.frames,
        t.as_ref().map(Typed::typing),
    )?)
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
            let frames = Frames::decode(&input, t.as_ref().map(Typed::typing), &frame_opts(&args))?;
            if args.array {
                crate::io::write_json(args.output.as_deref(), &frames, !args.compact)
            } else {
                // JSON Lines: one compact document per frame.
                let mut out = crate::io::Output::create(args.output.as_deref())?;
                for f in frames.each() {
                    out.json(&f, false)?;
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
