//! O3DE files without a registry: `decode`/`encode`/`bench o3de` keep the document as
//! written (member order, numbers, duplicates; indented as O3DE writes), `inspect`
//! shows what the file says about itself, and `o3de tree` prints a prefab's entities.

use crate::io::{read_input, write_output};
use crate::{Action, CliResult};
use gamewire::o3de::doc::{Document, Layout, Syntax, MAX_DEPTH};
use gamewire::o3de::layout::Style;
use gamewire::o3de::prefab::PrefabTree;
use gamewire::o3de::recognize::{self, FileKind};
use std::path::Path;

/// Parses an O3DE file, with a clear error for ObjectStream XML.
pub fn parse<'a>(data: &'a [u8], name: Option<&str>) -> CliResult<Document<'a>> {
    if recognize::recognize(data, name) == Some(FileKind::ObjectStreamXml) {
        return Err(
            "this is O3DE ObjectStream XML (the older serialization), not JSON: \
                    gamewire reads O3DE's JSON serialization only"
                .into(),
        );
    }
    Ok(Document::parse_with(
        data,
        MAX_DEPTH,
        Syntax::of(data, name),
    )?)
}

/// Runs `decode`, `encode` or `bench` for o3de without a registry: the document goes
/// out as it came in (indented as O3DE writes it, or `--compact`). A file laid out
/// otherwise (comments, trailing commas, its own indentation or line endings, on one
/// line) is decoded to the document `gamewire decode FILE` writes, whose `"$gamewire"`
/// header keeps that layout for `encode o3de`.
pub fn run(
    action: Action,
    input: Option<&Path>,
    name: Option<String>,
    compact: bool,
    output: Option<&Path>,
    bytes: &[u8],
) -> CliResult {
    let layout = if compact {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    match action {
        Action::Decode => {
            let doc = parse(bytes, name.as_deref())?;
            // Whether the file is in O3DE's own layout (its number forms need no
            // header: the plain document keeps them).
            let style = Style::detect_with(bytes, &doc, false)?;
            if style.is_plain() && !style.compact {
                let mut out = crate::io::Output::create(output)?;
                doc.write_to(layout, &mut out)?;
                return out.finish();
            }
            drop(doc);
            let shown = input.map_or_else(|| "-".to_owned(), |p| p.display().to_string());
            eprintln!(
                "gamewire: note: {shown}: not in O3DE's own layout (comments, trailing \
                 commas, indentation, line endings or one line): written with a \
                 \"$gamewire\" header that keeps it, for `gamewire encode o3de`"
            );
            let path = input
                .filter(|p| *p != Path::new("-"))
                .map(Path::to_path_buf)
                .or_else(|| name.as_ref().map(std::path::PathBuf::from));
            let opts = gamewire::OpenOptions {
                as_format: Some(gamewire::Format::O3de),
                ..gamewire::OpenOptions::default()
            };
            let opened = gamewire::open(
                bytes.to_vec(),
                path.as_deref(),
                &gamewire::SideFiles::filesystem(),
                &opts,
            )
            .map_err(|e| crate::auto::open_error(&shown, e))?;
            crate::auto::write_document(&opened, output, !compact)
        }
        Action::Encode => {
            // Streamed: pretty text indents each line by its depth, so it can be far
            // larger than the input.
            let doc = parse(bytes, name.as_deref())?;
            let mut out = crate::io::Output::create(output)?;
            doc.write_to(layout, &mut out)?;
            out.finish()
        }
        Action::Bench => {
            // decode: parse the document (and drop it); encode: write it again.
            let doc = parse(bytes, name.as_deref())?;
            crate::bench::run(
                "o3de (untyped)",
                bytes,
                |b| {
                    let d = parse(b, name.as_deref())?;
                    std::hint::black_box(&d.root);
                    Ok(())
                },
                |_| Ok(doc.write(layout)),
            )
        }
    }
}

/// `gamewire o3de tree FILE`: the prefab's hierarchy on stdout.
pub fn tree(file: &Path) -> CliResult {
    let data = read_input(Some(file))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    if recognize::recognize(&data, name.as_deref()) == Some(FileKind::ObjectStreamXml) {
        parse(&data, name.as_deref())?;
    }
    let t = PrefabTree::parse(&data).map_err(|e| format!("{}: {e}", file.display()))?;
    write_output(None, t.render().as_bytes())
}
