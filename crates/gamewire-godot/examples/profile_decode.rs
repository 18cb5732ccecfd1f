//! Decodes (or, with the argument `encode`, encodes) the mixed payload (bench data) a
//! few times; for profilers (callgrind, perf). Restrict callgrind to the codec with
//! `--toggle-collect=gamewire_godot::decode::decode` (or `...::encode::encode_into`).
use gamewire_godot::*;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;
fn main() {
    // `profile_decode file PATH 3|4`: decode the Variant in PATH instead, 5 times.
    if std::env::args().nth(1).as_deref() == Some("file") {
        let path = std::env::args().nth(2).expect("a file");
        let version = match std::env::args().nth(3).as_deref() {
            Some("3") => Version::V3,
            _ => Version::V4,
        };
        let bytes = std::fs::read(path).unwrap();
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let d = decode(&bytes, &DecodeOptions::new(version)).unwrap();
            eprintln!("decode {:?}", t.elapsed());
            drop(d);
        }
        return;
    }
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
