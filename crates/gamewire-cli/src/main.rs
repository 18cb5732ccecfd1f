//! The `gamewire` command: decode, encode, inspect and benchmark game-engine data.
//!
//! The CLI is thin: it parses arguments, calls a library function, prints. Each format
//! has its own module holding its argument structs and handlers.
// `deny`, not `forbid`: `stdout_at_start` allows its one `#[link_section]`.
// With only some formats enabled, code that serves the others goes unused.
#![cfg_attr(
    not(all(
        feature = "godot",
        feature = "zeze",
        feature = "kingsisle",
        feature = "resonite",
        feature = "o3de"
    )),
    allow(unused, dead_code, unreachable_code)
)]
#![deny(unsafe_code)]

mod auto;
mod bench;
mod convert;
mod convert_archive;
mod inspect;
mod io;
mod limits;
mod secret;
mod stdout_at_start;
mod view;

// `convert`'s input selection (--files-from, --shard) and its --summary-json.
mod convert_select;
mod convert_summary;

#[cfg(feature = "godot")]
mod godot;
#[cfg(feature = "godot")]
mod godot_tools;
#[cfg(feature = "kingsisle")]
mod kingsisle;
#[cfg(feature = "kingsisle")]
mod kingsisle_tools;
#[cfg(feature = "o3de")]
mod o3de;
#[cfg(feature = "o3de")]
mod o3de_doc;
#[cfg(feature = "o3de")]
mod o3de_flatten;
#[cfg(feature = "o3de")]
mod o3de_tools;
#[cfg(feature = "resonite")]
mod resonite;
#[cfg(feature = "zeze")]
mod zeze;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// The binary's allocator: mimalloc (the default `mimalloc` feature). Decoding builds
/// trees of many small values and encoding writes large outputs; glibc's malloc gives
/// such memory back to the kernel on free and faults it in again on the next run, which
/// cost 20-45% of a repeated decode or encode in `gamewire bench` (docs/PERFORMANCE.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Errors reaching `main`: printed as one line, exit code 1.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;
/// A result whose error is printed by `main`.
pub type CliResult<T = ()> = Result<T, CliError>;

#[derive(Parser)]
#[command(
    name = "gamewire",
    version,
    about = "Read, write, inspect and convert game-engine data formats"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decode a file in an engine format to JSON: `decode FILE` detects the format
    /// (and finds its side files), `decode FORMAT [OPTIONS] [FILE]` names it.
    Decode(DecodeCmd),
    /// Encode JSON to bytes in an engine format: `encode FILE.json` reads the format and
    /// settings `decode FILE` recorded, `encode FORMAT [OPTIONS] [FILE]` names them.
    Encode(EncodeCmd),
    /// Convert many files at once, in parallel: engine files to JSON, or JSON back. An
    /// archive (KingsIsle .wad) converts entry by entry: its ObjectProperty files to JSON
    /// (with --types or the types.json beside it), the rest extracted as they are.
    Convert(convert::ConvertArgs),
    /// Detect each file's format and print a readable tree with types.
    Inspect(inspect::InspectArgs),
    /// A local web page to look inside files and edit them (prints its address first).
    View(view::ViewArgs),
    /// Decode and re-encode a file many times; print the median MB/s of each.
    #[command(subcommand)]
    Bench(Codec),
    /// Compute KingsIsle hashes (string-id, djb2, property-tag TYPE NAME).
    #[cfg(feature = "kingsisle")]
    Hash(kingsisle::HashArgs),
    /// Resonite-specific tools (the slot tree).
    #[cfg(feature = "resonite")]
    #[command(subcommand)]
    Resonite(resonite::ResoniteCmd),
    /// O3DE-specific tools (the prefab tree; JSON Patch and Merge Patch: apply and create).
    #[cfg(feature = "o3de")]
    #[command(subcommand)]
    O3de(o3de_tools::O3deCmd),
    /// Godot-specific tools (resource packs: list, unpack, pack).
    #[cfg(feature = "godot")]
    #[command(subcommand)]
    Godot(godot_tools::GodotCmd),
    /// Zeze-specific tools (Rust code generation from a solution).
    #[cfg(feature = "zeze")]
    #[command(subcommand)]
    Zeze(zeze::ZezeCmd),
    /// KingsIsle-specific tools (KIWAD archives: list, unpack, pack).
    #[cfg(feature = "kingsisle")]
    #[command(subcommand, name = "kingsisle")]
    KingsisleTools(kingsisle_tools::KingsisleCmd),
}

/// `decode`: a format subcommand, or a file whose format is detected.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct DecodeCmd {
    #[command(subcommand)]
    codec: Option<Codec>,
    #[command(flatten)]
    auto: auto::DecodeArgs,
}

/// `encode`: a format subcommand, or JSON that says its format.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct EncodeCmd {
    #[command(subcommand)]
    codec: Option<Codec>,
    #[command(flatten)]
    auto: auto::EncodeArgs,
}

/// One subcommand per format; `decode`, `encode` and `bench` each take one.
#[derive(Subcommand)]
enum Codec {
    /// Godot 3.x Variant binary.
    #[cfg(feature = "godot")]
    Godot3(godot::Args),
    /// Godot 4.x Variant binary.
    #[cfg(feature = "godot")]
    Godot4(godot::Args),
    /// Zeze beans and protocol frames.
    #[cfg(feature = "zeze")]
    Zeze(zeze::Args),
    /// KingsIsle ObjectProperty.
    #[cfg(feature = "kingsisle")]
    Kingsisle(kingsisle::Args),
    /// Resonite/Neos FrDT containers.
    #[cfg(feature = "resonite")]
    Resonite(resonite::Args),
    /// O3DE JSON serialization.
    #[cfg(feature = "o3de")]
    O3de(o3de::Args),
}

/// What to do with a [`Codec`] choice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// Bytes to JSON.
    Decode,
    /// JSON to bytes.
    Encode,
    /// Timed round trips.
    Bench,
}

impl Action {
    /// The subcommand's name.
    pub fn name(self) -> &'static str {
        match self {
            Action::Decode => "decode",
            Action::Encode => "encode",
            Action::Bench => "bench",
        }
    }
}

impl Codec {
    /// The format this subcommand is for.
    fn format(&self) -> gamewire::Format {
        use gamewire::Format;
        match self {
            #[cfg(feature = "godot")]
            Codec::Godot3(_) => Format::Godot3,
            #[cfg(feature = "godot")]
            Codec::Godot4(_) => Format::Godot4,
            #[cfg(feature = "zeze")]
            Codec::Zeze(_) => Format::Zeze,
            #[cfg(feature = "kingsisle")]
            Codec::Kingsisle(_) => Format::KingsIsle,
            #[cfg(feature = "resonite")]
            Codec::Resonite(_) => Format::Resonite,
            #[cfg(feature = "o3de")]
            Codec::O3de(_) => Format::O3de,
        }
    }

    /// The input file and the output named.
    fn files(&self) -> (Option<&std::path::Path>, Option<&std::path::Path>) {
        match self {
            #[cfg(feature = "godot")]
            Codec::Godot3(a) | Codec::Godot4(a) => (a.input.as_deref(), a.output.as_deref()),
            #[cfg(feature = "zeze")]
            Codec::Zeze(a) => (a.input.as_deref(), a.output.as_deref()),
            #[cfg(feature = "kingsisle")]
            Codec::Kingsisle(a) => (a.input.as_deref(), a.output.as_deref()),
            #[cfg(feature = "resonite")]
            Codec::Resonite(a) => (a.input.as_deref(), a.output.as_deref()),
            #[cfg(feature = "o3de")]
            Codec::O3de(a) => (a.input.as_deref(), a.output.as_deref()),
        }
    }
}

/// `encode FORMAT [FILE]`: a document with a `"$gamewire"` header is written with the
/// header's settings (its format must be FORMAT); plain JSON goes to the format's
/// encoder with the options given.
fn encode_with_format(codec: Codec) -> CliResult {
    let (input, output) = codec.files();
    let file = input.map_or_else(|| std::path::PathBuf::from("-"), |p| p.to_path_buf());
    let data = io::read_input(Some(&file))?;
    let doc = gamewire::read_document(&data)?;
    if doc.settings.is_some() {
        let args = auto::EncodeArgs {
            file: Some(file.clone()),
            output: output.map(|p| p.to_path_buf()),
            ..auto::EncodeArgs::default()
        };
        return auto::encode_doc(&doc, &file, Some(codec.format()), &args);
    }
    drop(doc);
    io::hold(Some(&file), data);
    run_codec(Action::Encode, codec)
}

fn run_codec(action: Action, codec: Codec) -> CliResult {
    match codec {
        #[cfg(feature = "godot")]
        Codec::Godot3(a) => godot::run(action, 3, a),
        #[cfg(feature = "godot")]
        Codec::Godot4(a) => godot::run(action, 4, a),
        #[cfg(feature = "zeze")]
        Codec::Zeze(a) => zeze::run(action, a),
        #[cfg(feature = "kingsisle")]
        Codec::Kingsisle(a) => kingsisle::run(action, a),
        #[cfg(feature = "resonite")]
        Codec::Resonite(a) => resonite::run(action, a),
        #[cfg(feature = "o3de")]
        Codec::O3de(a) => o3de::run(action, a),
    }
}

/// Options each format's subcommand declares once for decode, encode and bench, and the
/// actions they do not apply to: hidden from those actions' help (and refused there by
/// [`only_for`]).
const NOT_FOR: &[(&str, &[&str], &[&str])] = &[
    // (format, option ids, actions where they do not apply)
    (
        "godot3",
        &["output", "compact", "last_key_wins", "array"],
        &["bench"],
    ),
    (
        "godot4",
        &["output", "compact", "last_key_wins", "array"],
        &["bench"],
    ),
    ("godot3", &["last_key_wins"], &["decode"]),
    ("godot4", &["last_key_wins"], &["decode"]),
    ("godot3", &["compact", "allow_objects"], &["encode"]),
    ("godot4", &["compact", "allow_objects"], &["encode"]),
    (
        "zeze",
        &["output", "compact", "last_key_wins", "array"],
        &["bench"],
    ),
    ("zeze", &["last_key_wins"], &["decode"]),
    ("zeze", &["compact"], &["encode"]),
    (
        "kingsisle",
        &[
            "output",
            "compact",
            "last_key_wins",
            "bind",
            "xml",
            "enum_numbers",
        ],
        &["bench"],
    ),
    (
        "kingsisle",
        &["last_key_wins", "bind", "xml", "view", "once"],
        &["decode"],
    ),
    (
        "kingsisle",
        &["compact", "enum_numbers", "view", "once"],
        &["encode"],
    ),
    (
        "resonite",
        &[
            "output",
            "compact",
            "last_key_wins",
            "compression",
            "legacy",
        ],
        &["bench"],
    ),
    (
        "resonite",
        &["last_key_wins", "compression", "legacy"],
        &["decode"],
    ),
    ("resonite", &["compact"], &["encode"]),
    (
        "o3de",
        &[
            "output",
            "compact",
            "envelope",
            "canonical",
            "clear_containers",
            "keep_defaults",
        ],
        &["bench"],
    ),
];

/// The command line, with each action's help listing only the options it takes.
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for &(format, ids, actions) in NOT_FOR {
        for &action in actions {
            cmd = cmd.mut_subcommand(action, |a| {
                a.mut_subcommand(format, |f| {
                    let present: Vec<String> = f
                        .get_arguments()
                        .map(|x| x.get_id().to_string())
                        .filter(|id| ids.contains(&id.as_str()))
                        .collect();
                    present
                        .iter()
                        .fold(f, |f, id| f.mut_arg(id.as_str(), |x| x.hide(true)))
                })
            });
        }
    }
    cmd
}

/// Stack of the thread that does the work: JSON and engine values nest up to thousands of
/// levels, and parsing them recurses. Only the pages used are ever committed.
pub const WORKER_STACK: usize = 256 << 20;

fn main() {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let worker = match std::thread::Builder::new()
        .name("gamewire".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(cli))
    {
        Ok(w) => w,
        Err(e) => {
            // Under a tight address-space limit (`ulimit -v`): a clear error, not a panic
            // (whose report could itself fail to allocate).
            eprintln!(
                "gamewire: error: cannot start the worker thread with its {} MiB stack \
                 (deep nesting needs it): {e}; raise the address-space limit (ulimit -v)",
                WORKER_STACK >> 20
            );
            std::process::exit(1);
        }
    };
    let result = worker
        .join()
        .unwrap_or_else(|_| Err("internal error (a panic); please report it".into()));
    match result {
        Ok(()) => {}
        Err(e) if io::is_broken_pipe(&*e) => {}
        Err(e) => {
            let line = e.to_string().replace('\n', " ");
            eprintln!("gamewire: error: {line}");
            std::process::exit(1);
        }
    }
}

/// Refuses options given to an action that does not use them: each entry is an option's
/// name, whether it was given, and the actions it belongs to.
pub fn only_for(action: Action, options: &[(&str, bool, &[Action])]) -> CliResult {
    for &(name, given, actions) in options {
        if given && !actions.contains(&action) {
            let of: Vec<&str> = actions.iter().map(|a| a.name()).collect();
            return Err(format!(
                "{name} is an option of {}, not of {}",
                of.join(" and "),
                action.name()
            )
            .into());
        }
    }
    Ok(())
}

fn run(cli: Cli) -> CliResult {
    // The worker's stack is far bigger than the 2 MiB thread KingsIsle's default stack
    // budget is made for: let its documents nest to the depth limit.
    #[cfg(feature = "kingsisle")]
    gamewire::kingsisle::set_stack_budget(WORKER_STACK / 2);
    match cli.command {
        Command::Decode(DecodeCmd { codec: Some(c), .. }) => run_codec(Action::Decode, c),
        Command::Decode(DecodeCmd { codec: None, auto }) => auto::decode(auto),
        Command::Encode(EncodeCmd { codec: Some(c), .. }) => encode_with_format(c),
        Command::Encode(EncodeCmd { codec: None, auto }) => auto::encode(auto),
        Command::Bench(c) => run_codec(Action::Bench, c),
        Command::Inspect(a) => inspect::run(a),
        Command::Convert(a) => convert_select::refuse_archives(&a).and_then(|()| convert::run(a)),
        Command::View(a) => view::run(a),
        #[cfg(feature = "kingsisle")]
        Command::Hash(a) => kingsisle::hash(a),
        #[cfg(feature = "resonite")]
        Command::Resonite(c) => resonite::tool(c),
        #[cfg(feature = "o3de")]
        Command::O3de(c) => o3de_tools::tool(c),
        #[cfg(feature = "zeze")]
        Command::Zeze(c) => zeze::tool(c),
        #[cfg(feature = "godot")]
        Command::Godot(c) => godot_tools::tool(c),
        #[cfg(feature = "kingsisle")]
        Command::KingsisleTools(c) => kingsisle_tools::tool(c),
    }
}
