//! Writes `samples/resonite/*` and `tests/fixtures/resonite/item.json` from a small
//! sample data tree: `cargo run -p gamewire-resonite --example make_samples`.

use gamewire_resonite::{encode, json, synth, Compression, EncodeOptions, Value};
use std::borrow::Cow;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut doc = synth::data_tree(12, 3, 1);
    // Values the engine writes that the sample tree does not otherwise show.
    let mut extra = gamewire_resonite::Document::new();
    extra.push("Int64", Value::Int64(1 << 40));
    extra.push("Double", Value::Double(0.25));
    extra.push("DateTime", Value::DateTime(1_700_000_000_000));
    extra.push(
        "Bytes",
        Value::Binary {
            subtype: 0,
            bytes: Cow::Owned(vec![1, 2, 3]),
        },
    );
    doc.push("Extra", Value::Document(extra));
    let j = json::document_to_json(&doc, 1024).unwrap();
    let mut text = serde_json::to_vec_pretty(&j).unwrap();
    text.push(b'\n');
    std::fs::write(root.join("tests/fixtures/resonite/item.json"), text).unwrap();
    let samples = root.join("samples/resonite");
    for (file, c, legacy) in [
        ("item.brson", Compression::Brotli, false),
        ("item.lz4bson", Compression::Lz4, false),
        ("item.7zbson", Compression::Lzma, false),
        ("item.frdt", Compression::None, false),
        ("legacy-item.brson", Compression::Brotli, true),
        ("legacy-item.lz4bson", Compression::Lz4, true),
        ("legacy-item.7zbson", Compression::Lzma, true),
    ] {
        let bytes = encode(
            &doc,
            &EncodeOptions {
                legacy,
                ..EncodeOptions::new(c)
            },
        )
        .unwrap();
        std::fs::write(samples.join(file), bytes).unwrap();
        println!("wrote samples/resonite/{file}");
    }
}
