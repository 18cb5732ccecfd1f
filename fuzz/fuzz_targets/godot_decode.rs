#![no_main]
//! Godot Variant decoding of arbitrary bytes, both versions, with objects allowed:
//! never a panic; whatever decodes re-encodes and decodes to the same value, also via JSON.
use gamewire_godot::{decode, encode, json, DecodeOptions, EncodeOptions, Version};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for version in [Version::V3, Version::V4] {
        let opts = DecodeOptions::new(version).allow_objects(true);
        if let Ok(value) = decode(data, &opts) {
            let bytes = encode(&value, &EncodeOptions::new(version)).expect("a decoded value encodes");
            let again = decode(&bytes, &opts).expect("our own bytes decode");
            // NaN != NaN: compare through the bytes instead of the values.
            assert_eq!(encode(&again, &EncodeOptions::new(version)).unwrap(), bytes);
            let j = json::to_json(&value, version);
            let back = json::from_json(&j, version).expect("our JSON reads back");
            assert_eq!(encode(&back, &EncodeOptions::new(version)).unwrap(), bytes);
        }
        let _ = gamewire_godot::framing::decode_framed_all(data, &opts);
        let _ = gamewire_godot::from_bytes::<serde_json::Value>(data, version);
    }
});
