//! The `resonite` commands of the CLI.

use crate::{Action, CliResult};
use gamewire::resonite::tree::{DataTree, TreeValue};
use gamewire::resonite::{
    self as resonite, container, json, Compression, Document, EncodeOptions, Framing, Value,
};
use gamewire_core::json_text::TextOptions;
use std::path::PathBuf;

/// Options of `gamewire decode|encode|bench resonite`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Compression to write (encode): lz4, lzma, brotli or none.
    #[arg(long, value_parser = parse_compression)]
    pub compression: Option<Compression>,
    /// Write a headerless legacy file (encode; needs lz4, lzma or brotli).
    #[arg(long)]
    pub legacy: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// Encoding: a key repeated in one JSON object keeps its last value instead of
    /// being an error.
    #[arg(long)]
    pub last_key_wins: bool,
    /// File name whose extension tells the compression of a headerless input read
    /// from stdin (e.g. `x.7zbson`).
    #[arg(long)]
    pub name: Option<String>,
    /// Deepest nesting accepted (at most 65536).
    #[arg(long, default_value_t = 1024, value_parser = crate::limits::max_depth)]
    pub max_depth: usize,
    /// Decompression limits.
    #[command(flatten)]
    pub decompress: crate::limits::DecompressArgs,
}

fn parse_compression(s: &str) -> Result<Compression, String> {
    Compression::from_name(s)
        .ok_or_else(|| format!("unknown compression {s:?}: use lz4, lzma, brotli or none"))
}

fn opts(a: &Args) -> resonite::Options {
    let mut o = resonite::Options::default();
    o.limits.max_depth = a.max_depth;
    a.decompress.apply(&mut o.limits);
    o
}

fn file_name(a: &Args) -> Option<String> {
    a.name.clone().or_else(|| {
        a.input
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
    })
}

/// The compression to encode with: `--compression`, else the output's extension
/// (`.brson` Brotli, `.7zbson` LZMA, `.lz4bson` LZ4, `.frdt` none), else Brotli (what
/// Resonite writes). A flag that contradicts the extension is an error.
fn encode_compression(args: &Args) -> CliResult<Compression> {
    let by_name = args
        .output
        .as_deref()
        .and_then(|p| p.file_name())
        .and_then(|n| Compression::from_file_name(&n.to_string_lossy()));
    match (args.compression, by_name) {
        (Some(flag), Some(ext)) if flag != ext => Err(format!(
            "--compression {} contradicts the output's extension, which means {}; \
             rename the output or drop the flag",
            flag.name(),
            ext.name()
        )
        .into()),
        (Some(c), _) | (None, Some(c)) => Ok(c),
        (None, None) => Ok(Compression::Brotli),
    }
}

/// Runs `decode`, `encode` or `bench` for resonite.
pub fn run(action: Action, args: Args) -> CliResult {
    crate::only_for(
        action,
        &[
            (
                "--compression",
                args.compression.is_some(),
                &[Action::Encode],
            ),
            ("--legacy", args.legacy, &[Action::Encode]),
            ("--last-key-wins", args.last_key_wins, &[Action::Encode]),
            ("--compact", args.compact, &[Action::Decode]),
            (
                "--output",
                args.output.is_some(),
                &[Action::Decode, Action::Encode],
            ),
        ],
    )?;
    let data = crate::io::read_input(args.input.as_deref())?;
    let o = opts(&args);
    let name = file_name(&args);
    match action {
        Action::Decode => {
            // Streamed from the checked BSON view: neither the owned document nor a JSON
            // tree is built (the same text as `document_to_json`, the same errors as
            // `decode`).
            let file = resonite::bson_view::FileView::open(&data, name.as_deref(), &o)?;
            let view = gamewire::resonite::json_view::DocumentRefView::new(file.root());
            crate::io::write_json(args.output.as_deref(), &view, !args.compact)
        }
        Action::Encode => {
            let j = json::parse_text_with(
                &data,
                &TextOptions::new(args.max_depth).last_key_wins(args.last_key_wins),
            )?;
            let doc = json::document_from_json(&j, args.max_depth)?;
            let eo = EncodeOptions {
                legacy: args.legacy,
                max_depth: args.max_depth,
                ..EncodeOptions::new(encode_compression(&args)?)
            };
            let bytes = resonite::encode(&doc, &eo)?;
            crate::io::write_output(args.output.as_deref(), &bytes)
        }
        Action::Bench => {
            let (c, _) = container::unpack(&data, name.as_deref(), &o)?;
            let legacy = c.framing == Framing::Legacy;
            let eo = EncodeOptions {
                legacy,
                max_depth: args.max_depth,
                ..EncodeOptions::new(c.compression)
            };
            let label = format!(
                "resonite {}{}",
                c.compression,
                if legacy { " (legacy)" } else { "" }
            );
            // decode = unpack + build the whole tree (borrowing from the BSON, its
            // containers in an arena) + drop it; it hands the raw BSON on, and encode =
            // read that BSON + write a container.
            let enc_opts = o;
            crate::bench::run(
                &label,
                &data,
                |d| {
                    let (c, bson) = container::unpack(d, name.as_deref(), &o)?;
                    let arena = resonite::Arena::new();
                    let doc = resonite::read_unpacked_in(d.len(), &c, &bson, &arena, &o)?;
                    std::hint::black_box(doc.len());
                    drop(doc);
                    drop(arena);
                    Ok(bson.into_owned())
                },
                |bson: &Vec<u8>| {
                    let arena = resonite::Arena::new();
                    let doc = resonite::read_bson_in(bson, &arena, &enc_opts)?;
                    Ok(resonite::encode(&doc, &eo)?)
                },
            )
        }
    }
}

/// `gamewire resonite ...` subcommands.
#[derive(clap::Subcommand)]
pub enum ResoniteCmd {
    /// Print the slot hierarchy: each slot (name, ID, transform) with its components'
    /// type names and every member's value, then the assets. For a quick look at a big
    /// file use `--slots` (names and component types only) and/or `--depth N`.
    Tree {
        /// A FrDT container or legacy brson/7zbson/lz4bson file.
        file: PathBuf,
        /// Slots only: one line per slot (name, ID) and one per component type name;
        /// no transforms, no member values.
        #[arg(long)]
        slots: bool,
        /// Show slots down to depth N (the root slot is 0); a slot with deeper slots
        /// below it says how many are left out.
        #[arg(long, value_name = "N")]
        depth: Option<usize>,
    },
}

/// What [`slot_tree`] shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeView {
    /// Slot names and component type names only (no transforms or member values).
    pub slots_only: bool,
    /// The deepest slot depth shown (the root slot is 0); `None`: every slot.
    pub depth: Option<usize>,
}

/// One `name: type value` line per member of `data` (but its `ID`), typed by `read`;
/// members without a value convention show their BSON kind and size.
fn member_lines(
    out: &mut String,
    indent: &str,
    data: &Document<'_>,
    read: &dyn Fn(&str) -> resonite::Result<Option<TreeValue>>,
) {
    use std::fmt::Write as _;
    for (k, v) in &data.entries {
        if k == "ID" {
            continue;
        }
        let text = match read(k) {
            Ok(Some(tv)) => resonite::inspect::clip(tv.to_string(), 100),
            Ok(None) => match resonite::tree::member(data, k) {
                Some(Value::Array(a)) => format!("array ({} items)", a.len()),
                Some(Value::Document(d)) => format!("document ({} entries)", d.len()),
                Some(other) => format!(
                    "{} {}",
                    other.type_name(),
                    resonite::inspect::leaf_text(other)
                ),
                None => resonite::inspect::leaf_text(v),
            },
            Err(e) => format!("error: {e}"),
        };
        let _ = writeln!(out, "{indent}{k}: {text}");
    }
}

/// Writes the slot hierarchy of `doc`: one line per slot (name and ID), its transform
/// typed, its components' type names below it, each with its members typed; with
/// `view.slots_only` no transforms or members, and with `view.depth` no slots below that
/// depth (a line says how many are left out).
pub fn slot_tree(doc: &Document<'_>, view: TreeView) -> String {
    use std::fmt::Write as _;
    let t = DataTree::new(doc);
    let mut out = String::new();
    if let Some(v) = t.version_number() {
        let _ = writeln!(out, "# saved by {v}");
    }
    let slots = t.slots_to_depth(view.depth);
    if slots.is_empty() {
        out.push_str("(no Object slot)\n");
    }
    for (depth, s) in slots {
        // Bounded indentation: past 32 levels `[depth N] ` (gamewire_core's rule).
        let indent = gamewire_core::inspect::indent_text(depth);
        let name = s.name().unwrap_or("(unnamed)");
        let active = if s.active() == Some(false) {
            " [inactive]"
        } else {
            ""
        };
        let _ = writeln!(out, "{indent}{name}{active}  <{}>", s.id().unwrap_or("?"));
        for m in ["Position", "Rotation", "Scale"] {
            if view.slots_only {
                break;
            }
            match s.typed(m) {
                Ok(Some(tv)) => {
                    let _ = writeln!(out, "{indent}  {m}: {tv}");
                }
                Ok(None) => {}
                Err(e) => {
                    let _ = writeln!(out, "{indent}  {m}: error: {e}");
                }
            }
        }
        for c in s.components() {
            let ty =
                t.type_name(&c)
                    .map(|c| c.into_owned())
                    .unwrap_or_else(|| match c.type_value {
                        Some(v) => format!("(unknown type {})", resonite::inspect::leaf_text(v)),
                        None => "(no type)".into(),
                    });
            let _ = writeln!(out, "{indent}  + {ty}");
            if let (Some(data), false) = (c.data, view.slots_only) {
                member_lines(&mut out, &format!("{indent}      "), data, &|k| {
                    t.typed_member(&c, k)
                });
            }
        }
        if view.depth == Some(depth) {
            let below = s.descendant_count();
            if below > 0 {
                let _ = writeln!(
                    out,
                    "{indent}  ... {below} slot(s) below depth {depth} not shown"
                );
            }
        }
    }
    let assets = t.assets();
    if !assets.is_empty() {
        let _ = writeln!(out, "Assets:");
        for c in assets {
            let ty = t
                .type_name(&c)
                .map(|c| c.into_owned())
                .unwrap_or_else(|| "(unknown type)".into());
            let _ = writeln!(out, "  + {ty}");
            if let (Some(data), false) = (c.data, view.slots_only) {
                member_lines(&mut out, "      ", data, &|k| t.typed_member(&c, k));
            }
        }
    }
    out
}

/// Runs a `gamewire resonite` subcommand.
pub fn tool(cmd: ResoniteCmd) -> CliResult {
    match cmd {
        ResoniteCmd::Tree { file, slots, depth } => {
            let data = crate::io::read_input(Some(&file))?;
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
            let o = resonite::Options::default();
            let (c, bson) = container::unpack(&data, name.as_deref(), &o)?;
            let arena = resonite::Arena::new();
            let doc = resonite::read_unpacked_in(data.len(), &c, &bson, &arena, &o)?;
            let view = TreeView {
                slots_only: slots,
                depth,
            };
            crate::io::write_output(None, slot_tree(&doc, view).as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_tree_lists_slots_with_component_types() {
        let doc = resonite::synth::data_tree(4, 3, 1);
        let text = slot_tree(&doc, TreeView::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# saved by 2024.8.5.1346");
        assert!(lines[1].starts_with("Root  <"), "{text}");
        assert!(lines[2].starts_with("  Position: float3 ("), "{text}");
        assert_eq!(lines[3], "  Rotation: floatQ (0, 0, 0, 1)", "{text}");
        assert_eq!(lines[4], "  Scale: float3 (1, 1, 1)", "{text}");
        assert!(
            lines[5].starts_with("  + [FrooxEngine]FrooxEngine."),
            "{text}"
        );
        assert_eq!(
            lines.iter().filter(|l| l.contains("  <")).count(),
            4,
            "{text}"
        );
        assert!(
            text.contains("Assets:\n  + [FrooxEngine]FrooxEngine."),
            "{text}"
        );
    }

    /// A chain of slots 100 deep: two spaces a level up to 32 levels, then the real depth
    /// at the start of the line instead of more spaces.
    #[test]
    fn slot_tree_indentation_is_bounded() {
        let mut doc = resonite::synth::data_tree(1, 2, 1);
        let at = doc.entries.iter().position(|(k, _)| k == "Object").unwrap();
        let Value::Document(leaf) = doc.entries[at].1.clone() else {
            panic!("a slot")
        };
        let mut chain = Value::Document(leaf.clone());
        for _ in 0..100 {
            let mut parent = leaf.clone();
            for (k, v) in parent.entries.to_mut() {
                if k == "Children" {
                    *v = Value::Array(vec![chain.clone()].into());
                }
            }
            chain = Value::Document(parent);
        }
        doc.entries.to_mut()[at].1 = chain;
        let text = slot_tree(&doc, TreeView::default());
        assert!(text.contains("\n  Root  <"), "{text}");
        assert!(
            text.contains(&format!("\n{}Root  <", "  ".repeat(32))),
            "{text}"
        );
        let deep = format!("\n{}[depth 100] Root  <", "  ".repeat(32));
        assert!(text.contains(&deep), "{text}");
        assert!(text.contains(&format!("\n{}[depth 100]   Rotation: ", "  ".repeat(32))));
        let widest = text.lines().map(str::len).max().unwrap();
        assert!(widest < 200, "a line of {widest} bytes");
    }

    #[test]
    fn slot_tree_slots_only_and_to_a_depth() {
        let doc = resonite::synth::data_tree(40, 3, 7);
        let full = slot_tree(&doc, TreeView::default());
        let slots = slot_tree(
            &doc,
            TreeView {
                slots_only: true,
                depth: None,
            },
        );
        // The same slots and component types, without transforms or members.
        let keep = |l: &&str| l.contains("  <") || l.trim_start().starts_with("+ ");
        let full_kept: Vec<&str> = full.lines().filter(keep).collect();
        let slot_lines: Vec<&str> = slots.lines().skip(1).filter(|l| *l != "Assets:").collect();
        assert_eq!(slot_lines, full_kept, "{slots}");
        assert!(slots.lines().count() * 2 < full.lines().count(), "{slots}");
        assert!(!slots.contains("Position:") && !slots.contains("Enabled:"));
        // Down to depth 1: the root and its children, each child saying what it hides.
        let shallow = slot_tree(
            &doc,
            TreeView {
                slots_only: true,
                depth: Some(1),
            },
        );
        let slot_count = |t: &str| t.lines().filter(|l| l.contains("  <")).count();
        assert_eq!(slot_count(&full), 40);
        let shown = slot_count(&shallow);
        assert!(shown > 1 && shown < 40, "{shallow}");
        let hidden: usize = shallow
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("... "))
            .map(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(shown + hidden, 40, "{shallow}");
        assert!(
            shallow.contains("\n    ... ") && shallow.contains(" slot(s) below depth 1 not shown"),
            "{shallow}"
        );
        assert!(
            !shallow
                .lines()
                .any(|l| l.starts_with("    ") && l.contains("  <")),
            "{shallow}"
        );
        // A depth limit keeps members unless --slots is given too.
        let with_members = slot_tree(
            &doc,
            TreeView {
                slots_only: false,
                depth: Some(0),
            },
        );
        assert_eq!(slot_count(&with_members), 1);
        assert!(
            with_members.contains("  Position: float3 ("),
            "{with_members}"
        );
    }

    #[test]
    fn slot_tree_shows_member_values_typed() {
        let doc = resonite::synth::data_tree(12, 3, 7);
        let text = slot_tree(&doc, TreeView::default());
        assert!(
            text.contains("      AlbedoColor: colorX (1, 1, 1, 1, sRGB)\n"),
            "{text}"
        );
        assert!(text.contains("      URL: Uri resdb:///"), "{text}");
        assert!(text.contains("      FilterMode: null\n"), "{text}");
        assert!(text.contains("      Value: float3 ("), "{text}");
        assert!(text.contains("      Enabled: bool true\n"), "{text}");
    }
}
