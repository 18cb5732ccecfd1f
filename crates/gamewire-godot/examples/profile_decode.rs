//! Decodes (or, with the argument `encode`, encodes) the mixed payload (bench data) a
//! few times; for profilers (callgrind, perf). Restrict callgrind to the codec with
//! `--toggle-collect=gamewire_godot::decode::decode` (or `...::encode::encode_into`).
use gamewire_godot::*;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;
fn main() {
    let encode_mode = std::env::args().nth(1).as_deref() == Some("encode");
    let v = codec::mixed_payload();
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    if encode_mode {
        for _ in 0..2 {
            let mut out = Vec::with_capacity(bytes.len());
            encode_into(&v, &EncodeOptions::new(Version::V4), &mut out).unwrap();
            assert_eq!(out.len(), bytes.len());
        }
        return;
    }
    drop(v);
    for _ in 0..2 {
        let d = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap();
        std::mem::forget(d);
    }
}
