//! The `godot3` / `godot4` commands of the CLI.

use crate::{io, Action, CliResult};
use gamewire::godot::{self, framing, json, DecodeOptions, EncodeOptions, Value, Version};
use std::path::PathBuf;

/// Options of `gamewire decode|encode|bench godot3|godot4`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Length-prefixed values (`store_var`, `StreamPeer.put_var`, `PacketPeerStream`):
    /// decoding reads every framed value in the input and prints each as one line of
    /// JSON (JSON Lines); encoding reads JSON documents (one a line, or back to back)
    /// and frames each.
    #[arg(long)]
    pub framed: bool,
    /// With --framed: one JSON array holding every value instead of JSON Lines;
    /// encoding then reads one array and frames each element.
    #[arg(long, requires = "framed")]
    pub array: bool,
    /// Accept full objects (`bytes_to_var_with_objects`).
    #[arg(long)]
    pub allow_objects: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// Encoding: a key repeated in one JSON object keeps its last value instead of
    /// being an error.
    #[arg(long)]
    pub last_key_wins: bool,
    /// Deepest nesting accepted (at most 65536).
    #[arg(long, default_value_t = 1024, value_parser = crate::limits::max_depth)]
    pub max_depth: usize,
    /// Decode and bench: the password or key of an encrypted file.
    #[command(flatten)]
    pub secret: crate::secret::SecretArgs,
}

/// How the library opens an encrypted or compressed file of Godot `major` for these
/// arguments: as that version, with the secret given.
fn container_options(major: u8, args: &Args) -> CliResult<gamewire::OpenOptions> {
    Ok(gamewire::OpenOptions {
        as_format: Some(if major == 3 {
            gamewire::Format::Godot3
        } else {
            gamewire::Format::Godot4
        }),
        allow_objects: args.allow_objects,
        secret: args.secret.secret()?,
        ..gamewire::OpenOptions::default()
    })
}

/// The plaintext of an encrypted or compressed file (the library opens it).
fn plaintext(major: u8, input: Vec<u8>, args: &Args) -> CliResult<Vec<u8>> {
    let opts = container_options(major, args)?;
    let o = gamewire::open(input, None, &gamewire::SideFiles::none(), &opts)
        .map_err(|e| e.to_string())?;
    Ok(o.data().to_vec())
}

/// `bench` of an encrypted or compressed file: opened through the library (decrypted
/// or decompressed, then decoded) and written back (encoded, then encrypted or
/// compressed), as `decode FILE` and `encode FILE.json` do.
fn bench_container(major: u8, input: &[u8], args: &Args) -> CliResult {
    let opts = container_options(major, args)?;
    let side = gamewire::SideFiles::none();
    let open = |b: &[u8]| {
        gamewire::open(b.to_vec(), None, &side, &opts)
            .map_err(|e| crate::CliError::from(e.to_string()))
    };
    let first = open(input)?;
    let label = first.describe();
    let frames = |o: &gamewire::Opened| -> CliResult<Vec<Value>> {
        match o.value()? {
            gamewire::open::Value::GodotFrames(v) => Ok(v),
            gamewire::open::Value::Godot(x) => Ok(vec![x]),
            _ => Err("not Godot values".into()),
        }
    };
    let bare = matches!(first.value()?, gamewire::open::Value::Godot(_));
    // The encode time includes a copy of the values (encode_value takes them by value).
    crate::bench::run(
        &label,
        input,
        |b| frames(&open(b)?),
        |vals: &Vec<Value>| {
            let v = if bare {
                gamewire::open::Value::Godot(vals[0].clone())
            } else {
                gamewire::open::Value::GodotFrames(vals.clone())
            };
            Ok(first.encode_value(&v)?)
        },
    )
}

fn version(v: u8) -> Version {
    Version::from_major(v).expect("the CLI passes 3 or 4")
}

fn decode_opts(args: &Args, v: Version) -> DecodeOptions {
    DecodeOptions::new(v)
        .allow_objects(args.allow_objects)
        .max_depth(args.max_depth)
}

/// True when the library opens `input` as Godot `major` `store_var` frames.
fn is_store_var(major: u8, input: &[u8], args: &Args) -> bool {
    let opts = gamewire::OpenOptions {
        as_format: Some(if major == 3 {
            gamewire::Format::Godot3
        } else {
            gamewire::Format::Godot4
        }),
        allow_objects: args.allow_objects,
        ..gamewire::OpenOptions::default()
    };
    let side = gamewire::SideFiles::none();
    matches!(
        gamewire::open(input.to_vec(), None, &side, &opts).map(|o| o.settings().clone()),
        Ok(gamewire::Settings::Godot3(g) | gamewire::Settings::Godot4(g))
            if g.framing == gamewire::open::GodotFraming::StoreVar
    )
}

/// Runs `decode`, `encode` or `bench` for Godot 3 or 4.
pub fn run(action: Action, major: u8, args: Args) -> CliResult {
    crate::only_for(
        action,
        &[
            (
                "--allow-objects",
                args.allow_objects,
                &[Action::Decode, Action::Bench],
            ),
            ("--compact", args.compact, &[Action::Decode]),
            ("--last-key-wins", args.last_key_wins, &[Action::Encode]),
            (
                "--output",
                args.output.is_some(),
                &[Action::Decode, Action::Encode],
            ),
        ],
    )?;
    let v = version(major);
    let input = io::read_input(args.input.as_deref())?;
    // An encrypted or compressed file: its values are decoded from the plaintext inside
    // (writing one back goes through `encode FILE.json`, whose header names the container).
    let input = if action == Action::Decode && godot::container::sniff(&input).is_some() {
        plaintext(major, input, &args)?
    } else {
        input
    };
    match action {
        Action::Decode => {
            if args.framed {
                let values = framing::decode_framed_all(&input, &decode_opts(&args, v))?;
                drop(input);
                let mut out = io::Output::create(args.output.as_deref())?;
                // Streamed: no JSON tree is built for the values' containers.
                if args.array {
                    let all: Vec<_> = values.iter().map(|x| json::JsonView::new(x, v)).collect();
                    out.json(&all, !args.compact)?;
                } else {
                    // JSON Lines: one compact document per value.
                    for value in &values {
                        out.json(&json::JsonView::new(value, v), false)?;
                    }
                }
                out.finish()
            } else {
                let value = godot::decode(&input, &decode_opts(&args, v))?;
                drop(input);
                // Streamed: no JSON tree is built for the value's containers.
                io::write_json(
                    args.output.as_deref(),
                    &json::JsonView::new(&value, v),
                    !args.compact,
                )
            }
        }
        Action::Encode => {
            let eopts = EncodeOptions::new(v);
            let mut out = Vec::new();
            let docs = if args.array {
                match io::parse_json(&input, args.last_key_wins)? {
                    serde_json::Value::Array(items) => items,
                    _ => return Err("--array expects one JSON array of values".into()),
                }
            } else {
                io::parse_json_stream(&input, args.last_key_wins)?
            };
            if docs.len() > 1 && !args.framed {
                return Err(
                    "the input holds more than one JSON document; use --framed to encode a stream"
                        .into(),
                );
            }
            for (i, doc) in docs.iter().enumerate() {
                let value =
                    json::from_json(doc, v).map_err(|e| format!("JSON document {}: {e}", i + 1))?;
                if args.framed {
                    framing::encode_framed_into(&value, &eopts, &mut out)?;
                } else {
                    godot::encode_into(&value, &eopts, &mut out)?;
                }
            }
            io::write_output(args.output.as_deref(), &out)
        }
        Action::Bench => {
            if gamewire::godot::container::sniff(&input).is_some() {
                return bench_container(major, &input, &args);
            }
            // A store_var save is benchmarked as one, whether or not --framed was given:
            // the library says how the file is laid out, as `decode FILE` does.
            let mut args = args;
            if !args.framed {
                args.framed = is_store_var(major, &input, &args);
            }
            let dopts = decode_opts(&args, v);
            let eopts = EncodeOptions::new(v);
            let label = format!("godot{major}{}", if args.framed { " framed" } else { "" });
            if args.framed {
                crate::bench::run(
                    &label,
                    &input,
                    |b| Ok(framing::decode_framed_all(b, &dopts)?),
                    |vals: &Vec<Value>| {
                        let mut out = Vec::with_capacity(input.len());
                        for val in vals {
                            framing::encode_framed_into(val, &eopts, &mut out)?;
                        }
                        Ok(out)
                    },
                )
            } else {
                crate::bench::run(
                    &label,
                    &input,
                    |b| Ok(godot::decode(b, &dopts)?),
                    |val| {
                        let mut out = Vec::with_capacity(input.len());
                        godot::encode_into(val, &eopts, &mut out)?;
                        Ok(out)
                    },
                )?;
                // The borrowed reading: every value checked and indexed, navigable,
                // strings borrowed from the input (gamewire_godot::tape).
                let t = crate::bench::median_time(|| {
                    Ok(godot::tape::Tape::with_options(&input, &dopts)?)
                })?;
                crate::bench::print_line("decode to tape", input.len(), t);
                Ok(())
            }
        }
    }
}
