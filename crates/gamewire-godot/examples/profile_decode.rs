//! Decodes the mixed payload (bench data) a few times; for profilers (callgrind, perf).
use gamewire_godot::*;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;
fn main() {
    let v = codec::mixed_payload();
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    drop(v);
    for _ in 0..2 {
        let d = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap();
        std::mem::forget(d);
    }
}
