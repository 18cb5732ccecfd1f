//! The `kingsisle` commands of the CLI.

use crate::{Action, CliResult};
use gamewire::kingsisle::{self as ki, bind, json, Document, Options, TypeList, View};
use std::path::PathBuf;

/// Options of `gamewire decode|encode|bench kingsisle`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin. Inputs starting with `BINd` are read as `BINd`
    /// files (deep mode, stateful flags) whatever the options say.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Type list files (wiztype JSON v1/v2 or KingsIsle XML dumps), merged in order
    /// (later files win). Repeat the option or separate paths with commas.
    #[arg(short, long = "types", required = true, value_delimiter = ',')]
    pub types: Vec<PathBuf>,
    /// The game whose hashes the type list uses where it gives none (`wizard101`:
    /// class names by string_id; `pirate101`: by djb2). Hashes a list gives (wiztype,
    /// arrtype) are used as given, so a Pirate101 list from arrtype needs no option.
    #[arg(long, value_parser = parse_game, default_value = "wizard101")]
    pub game: ki::Game,
    /// Serializer flags: 1 stateful, 2 compact lengths, 4 enum names, 8 zlib, 16 forbid absence.
    #[arg(short, long, default_value = "0", value_parser = parse_u32)]
    pub flags: u32,
    /// Property mask: a property is serialized when `flags & mask == mask` (shallow mode).
    #[arg(short, long, default_value = "24", value_parser = parse_u32)]
    pub mask: u32,
    /// Shallow mode (no sizes, properties in id order); the default is deep mode.
    #[arg(short, long)]
    pub shallow: bool,
    /// The blob is wrapped in manual zlib framing (u32 size + zlib stream).
    #[arg(short, long)]
    pub zlib: bool,
    /// Deep mode (the default, and `BINd` files): keep objects of classes missing from the
    /// type list, and unknown properties, as raw bits ({"$hash", "$bits", "$raw"} in the
    /// JSON), which encode writes back byte for byte. The root's class must be known.
    #[arg(long)]
    pub skip_unknown: bool,
    /// Encode: write a `BINd` file (also implied by `"$bind": true` in the JSON).
    #[arg(long)]
    pub bind: bool,
    /// Encode: write an XML object file (`<Objects><Class Name=..>`) instead of bytes.
    /// Decoding detects XML object files by their leading `<`.
    #[arg(long, conflicts_with = "bind")]
    pub xml: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// Decode: write enums as numbers even where the type list names their options
    /// (by default `"Red"`, or `"A|B"` for a bit enum, when the name gives back the
    /// same value).
    #[arg(long)]
    pub enum_numbers: bool,
    /// Encoding: a key repeated in one JSON object keeps its last value instead of
    /// being an error.
    #[arg(long)]
    pub last_key_wins: bool,
    /// Bench: time the borrowed view (`kingsisle::View`, no owned tree) as well.
    #[arg(long)]
    pub view: bool,
    /// Bench: decode once (with `--view`, into the view, visiting every value), print
    /// that one decode's time and exit: the first decode of a fresh process.
    #[arg(long)]
    pub once: bool,
    /// Deepest nesting accepted (at most 65536).
    #[arg(long, default_value_t = 1024, value_parser = crate::limits::max_depth)]
    pub max_depth: usize,
    /// Decompression limits (zlib).
    #[command(flatten)]
    pub decompress: crate::limits::DecompressArgs,
}

fn parse_game(s: &str) -> Result<ki::Game, String> {
    ki::Game::from_name(s).ok_or_else(|| format!("unknown game {s:?}: use wizard101 or pirate101"))
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("{s:?} is not a u32: {e}"))
}

fn options(a: &Args) -> Options {
    let mut o = Options {
        flags: a.flags,
        property_mask: a.mask,
        shallow: a.shallow,
        manual_zlib: a.zlib,
        skip_unknown: a.skip_unknown,
        ..Options::default()
    };
    o.limits.max_depth = a.max_depth;
    a.decompress.apply(&mut o.limits);
    o
}

fn decode_any(data: &[u8], types: &TypeList, opts: &Options) -> CliResult<Document> {
    Ok(ki::inspect::decode_any(data, types, opts)?)
}

fn encode_any(
    doc: &Document,
    types: &TypeList,
    opts: &Options,
    force_bind: bool,
) -> CliResult<Vec<u8>> {
    Ok(if doc.bind || force_bind {
        bind::encode(doc, types, opts)?
    } else {
        ki::encode(doc, types, opts)?
    })
}

/// Runs `decode`, `encode` or `bench` for kingsisle.
pub fn run(action: Action, args: Args) -> CliResult {
    crate::only_for(
        action,
        &[
            ("--bind", args.bind, &[Action::Encode]),
            ("--xml", args.xml, &[Action::Encode]),
            ("--last-key-wins", args.last_key_wins, &[Action::Encode]),
            ("--compact", args.compact, &[Action::Decode]),
            ("--view", args.view, &[Action::Bench]),
            ("--once", args.once, &[Action::Bench]),
            ("--enum-numbers", args.enum_numbers, &[Action::Decode]),
            (
                "--output",
                args.output.is_some(),
                &[Action::Decode, Action::Encode],
            ),
        ],
    )?;
    let t0 = std::time::Instant::now();
    let mut types = TypeList::from_files(&args.types)?;
    types.set_game(args.game);
    if args.once {
        println!(
            "type list: {} classes loaded in {:.3} ms",
            types.len(),
            t0.elapsed().as_secs_f64() * 1e3
        );
    }
    let opts = options(&args);
    let input = crate::io::read_input(args.input.as_deref())?;
    match action {
        Action::Decode if ki::xml::is_xml_text(&input) => {
            let objs = ki::xml::read(&input, &types)?;
            drop(input);
            let docs: Vec<Document> = objs
                .into_iter()
                .map(|root| Document {
                    root,
                    ..Document::default()
                })
                .collect();
            // Streamed through the documents' views: no JSON tree is built.
            let views: Vec<json::DocumentJson> = docs
                .iter()
                .map(|doc| json::DocumentJson {
                    doc,
                    types: &types,
                    enum_numbers: args.enum_numbers,
                })
                .collect();
            match views.as_slice() {
                [one] => crate::io::write_json(args.output.as_deref(), one, !args.compact),
                all => crate::io::write_json(args.output.as_deref(), all, !args.compact),
            }
        }
        Action::Encode if args.xml => {
            let j = crate::io::parse_json(&input, args.last_key_wins)?;
            let items = match &j {
                serde_json::Value::Array(a) => a.iter().collect(),
                one => vec![one],
            };
            let mut objs = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                objs.push(
                    json::from_json(item, &types)
                        .map_err(|e| e.in_index(i))?
                        .root,
                );
            }
            let text = ki::xml::write(&objs, &types)?;
            crate::io::write_output(args.output.as_deref(), text.as_bytes())
        }
        Action::Decode => {
            let doc = decode_any(&input, &types, &opts)?;
            drop(input);
            // Streamed: no second copy of a large document in memory.
            crate::io::write_json(
                args.output.as_deref(),
                &json::DocumentJson {
                    doc: &doc,
                    types: &types,
                    enum_numbers: args.enum_numbers,
                },
                !args.compact,
            )
        }
        Action::Encode => {
            let j = crate::io::parse_json(&input, args.last_key_wins)?;
            let doc = json::from_json(&j, &types)?;
            let out = encode_any(&doc, &types, &opts, args.bind)?;
            crate::io::write_output(args.output.as_deref(), &out)
        }
        Action::Bench if args.once => {
            let cpu0 = crate::bench::on_cpu_ns();
            let t0 = std::time::Instant::now();
            if args.view {
                let mut scratch = Vec::new();
                let v = View::decode_any(&input, &types, &opts, &mut scratch)?;
                std::hint::black_box(v.root().visit_all());
            } else {
                drop(decode_any(&input, &types, &opts)?);
            }
            let wall = t0.elapsed().as_secs_f64();
            let cpu = match (cpu0, crate::bench::on_cpu_ns()) {
                (Some(a), Some(b)) => format!(", {:.3} ms CPU", (b - a) as f64 / 1e6),
                _ => String::new(),
            };
            println!(
                "{} once: {:.3} ms wall{cpu}",
                if args.view { "view" } else { "decode" },
                wall * 1e3
            );
            Ok(())
        }
        Action::Bench => {
            // The first decode in a fresh process (no memory reused from earlier runs),
            // as a one-shot conversion meets it.
            let cpu0 = crate::bench::on_cpu_ns();
            let t0 = std::time::Instant::now();
            drop(decode_any(&input, &types, &opts)?);
            let wall = t0.elapsed().as_secs_f64();
            if let (Some(a), Some(b)) = (cpu0, crate::bench::on_cpu_ns()) {
                println!(
                    "decode: first run {:.3} ms wall, {:.3} ms CPU",
                    wall * 1e3,
                    (b - a) as f64 / 1e6
                );
            }
            if args.view {
                let mut scratch = Vec::new();
                let t = crate::bench::median_time(|| {
                    Ok(View::decode_any(&input, &types, &opts, &mut scratch)?.node_count())
                })?;
                crate::bench::print_line("view", input.len(), t);
                let t = crate::bench::median_time(|| {
                    let v = View::decode_any(&input, &types, &opts, &mut scratch)?;
                    Ok(v.root().visit_all())
                })?;
                crate::bench::print_line("view+visit", input.len(), t);
            }
            crate::bench::run(
                "kingsisle",
                &input,
                |d| decode_any(d, &types, &opts),
                |doc| encode_any(doc, &types, &opts, false),
            )?;
            Ok(())
        }
    }
}

/// Options of `gamewire hash`.
#[derive(clap::Args)]
pub struct HashArgs {
    /// Which hash: `string-id` (type names), `djb2` (property names), or
    /// `property-tag` (the tag a property carries in deep mode: TYPE then NAME).
    pub kind: String,
    /// The text to hash (for `property-tag`, the property's type, e.g. `class Inner`).
    pub text: String,
    /// For `property-tag`: the property's name (e.g. `m_inner`).
    pub name: Option<String>,
}

/// Runs `gamewire hash`.
pub fn hash(args: HashArgs) -> CliResult {
    let only_text = |v: u32| -> CliResult<u32> {
        match &args.name {
            Some(extra) => Err(format!(
                "{} hashes one text; {extra:?} is one too many (quote a text with spaces)",
                args.kind
            )
            .into()),
            None => Ok(v),
        }
    };
    let v = match args.kind.as_str() {
        "string-id" | "string_id" | "stringid" => {
            only_text(ki::hash::string_id(args.text.as_bytes()))?
        }
        "djb2" => only_text(ki::hash::djb2(args.text.as_bytes()))?,
        "property-tag" | "property_tag" => match &args.name {
            Some(name) => ki::hash::property_hash(&args.text, name),
            None => {
                return Err("property-tag takes the property's TYPE and NAME: \
                            gamewire hash property-tag \"class Inner\" m_inner"
                    .into())
            }
        },
        other => {
            return Err(
                format!("unknown hash {other:?}: use string-id, djb2 or property-tag").into(),
            )
        }
    };
    crate::io::check_stdout_open()?;
    println!("{v}");
    Ok(())
}
