#![no_main]
//! The JSON side of Resonite: arbitrary text read strictly (json::parse_text_with), mapped
//! to a document and encoded uncompressed: never a panic; whatever encodes decodes to a
//! document that encodes to the same bytes.
use gamewire_resonite::json::{self, TextOptions};
use gamewire_resonite::{decode, encode, Compression, EncodeOptions, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = TextOptions::new(256).last_key_wins(data.len() % 2 == 0);
    let Ok(j) = json::parse_text_with(data, &opts) else {
        return;
    };
    let Ok(doc) = json::document_from_json(&j, 256) else {
        return;
    };
    let eo = EncodeOptions::new(Compression::None);
    let Ok(bytes) = encode(&doc, &eo) else {
        return;
    };
    let back = decode(&bytes, None, &Options::default()).expect("encoded documents decode");
    assert_eq!(encode(back.document(), &eo).unwrap(), bytes);
});
