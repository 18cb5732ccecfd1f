#![no_main]
//! The JSON side of Godot: arbitrary text read strictly (gamewire_core::json_text), mapped
//! to a Variant for 3.x and 4.x and encoded: never a panic; whatever encodes decodes
//! (objects allowed) and re-encodes to the same bytes.
use gamewire_core::json_text::{parse, TextOptions};
use gamewire_godot::{decode, encode, json, DecodeOptions, EncodeOptions, Version};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Nesting kept modest so that each run stays cheap.
    let Ok(j) = parse(data, &TextOptions::new(256).last_key_wins(data.len() % 2 == 0)) else {
        return;
    };
    for v in [Version::V3, Version::V4] {
        let Ok(value) = json::from_json(&j, v) else {
            continue;
        };
        let Ok(bytes) = encode(&value, &EncodeOptions::new(v)) else {
            continue;
        };
        let back = decode(&bytes, &DecodeOptions::new(v).allow_objects(true))
            .expect("encoded bytes decode");
        assert_eq!(encode(&back, &EncodeOptions::new(v)).unwrap(), bytes);
    }
});
