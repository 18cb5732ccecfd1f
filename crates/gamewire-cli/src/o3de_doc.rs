//! O3DE files without a registry: `decode`/`encode`/`bench o3de` keep the document as
//! written (member order, numbers, duplicates; indented as O3DE writes), `inspect`
//! shows what the file says about itself, and `o3de tree` prints a prefab's entities.

use crate::io::{read_input, write_output};
use crate::o3de::Args;
use crate::{Action, CliResult};
use gamewire::o3de::doc::{Document, Layout};
use gamewire::o3de::prefab::PrefabTree;
use gamewire::o3de::recognize::{self, FileKind};
use std::path::Path;

/// True when the input is read without a registry: no `--schema` and no `--type`,
/// and either no `o3de-registry.json` beside the input or one that does not know the
/// class named by the input's envelope (a file outside the envelope has no type to
/// load without `--type`).
pub fn is_untyped(args: &Args, bytes: &[u8]) -> bool {
    if args.schema.is_some() || args.type_name.is_some() {
        return false;
    }
    let reg_path = match &args.input {
        Some(i) if i != Path::new("-") => match crate::o3de::registry_for(i) {
            Some(p) => p,
            None => return true,
        },
        _ => return true,
    };
    let Some(class) = recognize::envelope_class_name(bytes) else {
        return true;
    };
    match std::fs::read(&reg_path) {
        // A registry that does not read is reported by the typed path.
        Ok(r) => gamewire::o3de::Registry::from_slice(&r)
            .is_ok_and(|reg| reg.parse_type(&class).is_err()),
        Err(_) => true,
    }
}

/// The file name of the input, when it is a file.
fn input_name(args: &Args) -> Option<String> {
    args.input
        .as_ref()
        .filter(|p| *p != Path::new("-"))
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
}

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
pub fn run(action: Action, args: &Args, bytes: &[u8]) -> CliResult {
    if args.envelope {
        return Err("--envelope needs --type (the class name to put in it)".into());
    }
    let name = input_name(args);
    let layout = if args.compact {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    match action {
        Action::Decode | Action::Encode => {
            // Streamed: pretty text indents each line by its depth, so it can be far
            // larger than the input.
            let doc = parse(bytes, name.as_deref())?;
            let mut out = crate::io::Output::create(args.output.as_deref())?;
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
