#![no_main]
//! The JSON side of KingsIsle: arbitrary text read strictly (gamewire_core::json_text)
//! over the samples' type list, encoded as ObjectProperty, as a BINd file and as XML:
//! never a panic; whatever encodes decodes again.
use gamewire_core::json_text::{parse, TextOptions};
use gamewire_kingsisle::{bind, decode, encode, json, xml, Options, TypeList};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn types() -> &'static TypeList {
    static T: OnceLock<TypeList> = OnceLock::new();
    T.get_or_init(|| {
        TypeList::from_json(include_bytes!("../../samples/kingsisle/types.json"))
            .expect("sample type list")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(j) = parse(data, &TextOptions::new(256).last_key_wins(data.len() % 2 == 0)) else {
        return;
    };
    let types = types();
    let Ok(doc) = json::from_json(&j, types) else {
        return;
    };
    let opts = Options::default();
    if let Ok(bytes) = encode(&doc, types, &opts) {
        decode(&bytes, types, &opts).expect("encoded bytes decode");
    }
    if let Ok(bytes) = bind::encode(&doc, types, &opts) {
        bind::decode(&bytes, types, &opts).expect("encoded BINd decodes");
    }
    if let Ok(text) = xml::write(std::slice::from_ref(&doc.root), types) {
        xml::read(text.as_bytes(), types).expect("written XML reads");
    }
});
