//! gamewire beside `godot-binary-serialization` (crates.io), the other Rust Godot codec,
//! on the same Godot 4 bytes. That crate reads Bool, Int, Float, String, Vector2, Vector3
//! and Dictionary only (no Array), so the payload is built from those: a Dictionary of
//! 50,000 players, each a Dictionary of an id, a name, hit points, a position and a flag
//! (about 6 MB), the shape of a server's state snapshot.
//!
//! Run: `cargo bench -p gamewire-godot --bench peers`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_godot::tape::Tape;
use gamewire_godot::*;
use godot_binary_serialization::decoder::Decoder as PeerDecoder;
use godot_binary_serialization::encoder::Encoder as PeerEncoder;

fn payload() -> Vec<u8> {
    let players = (0..50_000i64)
        .map(|i| {
            let f = i as f64;
            let player = Value::Dictionary(Dictionary::new(vec![
                ("id".into(), Value::Int(i)),
                (
                    "name".into(),
                    Value::String(format!("player_{i:06}").into()),
                ),
                ("hp".into(), Value::Float(f * 0.37 + 0.1)),
                (
                    "pos".into(),
                    Value::Vector3(Real::F32([f as f32, 0.5, -(f as f32)])),
                ),
                ("alive".into(), Value::Bool(i % 2 == 0)),
            ]));
            (Value::String(format!("p{i}").into()), player)
        })
        .collect();
    encode(
        &Value::Dictionary(Dictionary::new(players)),
        &EncodeOptions::new(Version::V4),
    )
    .unwrap()
}

fn peers(c: &mut Criterion) {
    let bytes = payload();
    let opts = DecodeOptions::new(Version::V4);
    // Both read the payload, and the peer's encoding of its own reading is our bytes.
    let peer_value = PeerDecoder::decode_variant(&bytes).expect("the peer reads it");
    assert_eq!(
        PeerEncoder::encode_variant(peer_value.as_ref()).unwrap(),
        bytes
    );
    let ours = decode(&bytes, &opts).unwrap();

    let mut g = c.benchmark_group("godot4 players dictionary");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("decode: gamewire owned Value", |b| {
        b.iter(|| decode(black_box(&bytes), &opts).unwrap())
    });
    g.bench_function("decode: gamewire tape", |b| {
        b.iter(|| Tape::with_options(black_box(&bytes), &opts).unwrap().len())
    });
    g.bench_function("decode: godot-binary-serialization", |b| {
        b.iter(|| PeerDecoder::decode_variant(black_box(&bytes)).unwrap())
    });
    let eopts = EncodeOptions::new(Version::V4);
    g.bench_function("encode: gamewire", |b| {
        b.iter(|| encode(black_box(&ours), &eopts).unwrap())
    });
    g.bench_function("encode: godot-binary-serialization", |b| {
        b.iter(|| PeerEncoder::encode_variant(black_box(peer_value.as_ref())).unwrap())
    });
    g.finish();
}

criterion_group!(benches, peers);
criterion_main!(benches);
