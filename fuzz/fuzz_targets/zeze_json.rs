#![no_main]
//! The JSON side of Zeze: arbitrary text read strictly (gamewire_core::json_text), as a
//! schema-less bean and as each bean of the samples' solution: never a panic; whatever
//! encodes decodes, and schema-less beans re-encode to the same bytes.
use gamewire_core::json_text::{parse, TextOptions};
use gamewire_zeze::json::bean_from_json;
use gamewire_zeze::schema::Schema;
use gamewire_zeze::{decode, encode, Options};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static SCHEMA: OnceLock<Schema> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(j) = parse(data, &TextOptions::new(256).last_key_wins(data.len() % 2 == 0)) else {
        return;
    };
    let opts = Options::default();
    if let Ok(bean) = bean_from_json(&j) {
        if let Ok(bytes) = encode(&bean) {
            let back = decode(&bytes, &opts).expect("encoded beans decode");
            assert_eq!(encode(&back).unwrap(), bytes);
        }
    }
    let schema = SCHEMA.get_or_init(|| {
        Schema::from_xml(include_str!("../../samples/zeze/zeze-solution.xml"))
            .expect("sample solution")
    });
    for name in schema.bean_names() {
        if let Ok(bytes) = schema.encode(name, &j) {
            schema
                .decode(name, &bytes, &opts)
                .expect("typed bytes decode");
        }
    }
});
