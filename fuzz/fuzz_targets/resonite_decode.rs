#![no_main]
//! Decodes arbitrary bytes as a Resonite container (with each extension, and none) and
//! as raw BSON; whatever decodes must map to JSON and back to the same BSON.
use gamewire_resonite::tree::{typed_member, DataTree, TreeType, TreeValue};
use gamewire_resonite::{bson_write, decode, json, read_bson, Document, Options};
use libfuzzer_sys::fuzz_target;

const NAMES: [Option<&str>; 5] = [
    None,
    Some("f.7zbson"),
    Some("f.lz4bson"),
    Some("f.brson"),
    Some("f.frdt"),
];

/// Reads every member typed (by its key as a type name, by shape, and through the data-tree
/// view); whatever reads must write back and print without panicking.
fn typed(doc: &Document<'_>) {
    for (k, v) in &doc.entries {
        let _ = TreeValue::infer(v).map(|tv| (tv.to_bson(), tv.to_string()));
        if let Ok(tv) = TreeValue::read(v, &TreeType::parse(k)) {
            let _ = (tv.to_bson(), tv.to_string());
        }
        let _ = typed_member(doc, k, None);
    }
    let t = DataTree::new(doc);
    for (_, s) in t.slots() {
        for m in ["Position", "Rotation", "Name", "OrderOffset"] {
            let _ = s.typed(m);
        }
        for c in s.components() {
            if let Some(d) = c.data {
                for (k, _) in &d.entries {
                    let _ = t.typed_member(&c, k);
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut opts = Options::default();
    opts.limits.max_decompressed = 8 << 20;
    opts.lzma_memlimit = 32 << 20;
    let name = NAMES[data.first().map_or(0, |b| usize::from(*b) % NAMES.len())];
    if let Ok(d) = decode(data, name, &opts) {
        let bson = bson_write::to_vec(d.document(), 1024).expect("decoded documents encode");
        let j = json::document_to_json(d.document(), 1024).expect("decoded documents map to JSON");
        let back = json::document_from_json(&j, 1024).expect("our JSON maps back");
        assert_eq!(bson_write::to_vec(&back, 1024).unwrap(), bson);
    }
    if let Ok(doc) = read_bson(data, &opts) {
        typed(&doc);
        let j = json::document_to_json(&doc, 1024).expect("decoded documents map to JSON");
        let back = json::document_from_json(&j, 1024).expect("our JSON maps back");
        assert_eq!(
            bson_write::to_vec(&back, 1024).unwrap(),
            bson_write::to_vec(&doc, 1024).unwrap()
        );
    }
});
