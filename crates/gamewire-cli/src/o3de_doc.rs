//! O3DE files without a registry: `decode`/`encode`/`bench o3de` keep the document as
//! written (member order, numbers, duplicates; indented as O3DE writes), `inspect`
//! shows what the file says about itself, and `o3de tree` prints a prefab's entities.

use crate::io::{read_input, write_output};
use crate::{Action, CliResult};
use gamewire::o3de::doc::{Document, Layout};
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
    Ok(Document::parse(data)?)
}

/// Runs `decode`, `encode` or `bench` for o3de without a registry: the document goes
/// out as it came in (indented as O3DE writes it, or `--compact`).
pub fn run(
    action: Action,
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
        Action::Decode | Action::Encode => {
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
