#![no_main]
//! The registry-free O3DE path on any bytes: recognition, the document kept as
//! written (it must agree with `parse_json` and write back the same document), its
//! summary and the prefab tree.
use gamewire_o3de::doc::{Document, Layout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gamewire_o3de::recognize::recognize(data, None);
    let _ = gamewire_o3de::recognize::recognize(data, Some("x.prefab"));
    let _ = gamewire_o3de::recognize::envelope_class_name(data);
    let Ok(doc) = Document::parse(data) else {
        return;
    };
    if let Ok(reference) = gamewire_o3de::parse_json(data) {
        assert_eq!(doc.root.to_json(), reference);
    }
    for layout in [Layout::Pretty, Layout::Compact] {
        let out = doc.write(layout);
        assert_eq!(Document::parse(&out).unwrap().root, doc.root);
    }
    let _ = gamewire_o3de::infer::summarize(&doc.root);
    if let Ok(t) = gamewire_o3de::prefab::PrefabTree::from_node(&doc.root) {
        let _ = t.render();
    }
});
