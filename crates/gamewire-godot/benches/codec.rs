//! Godot codec benchmarks: a mixed payload like a game's save data (200,000 dictionaries
//! of ints, floats, strings, Vector3 and small arrays, about 38 MB) and a 16 MB packed
//! float array, each beside a plain memcpy of the same bytes.
//!
//! Run: `cargo bench -p gamewire-godot --bench codec`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_godot::*;

/// One record of the mixed payload as a Rust struct, strings borrowed from the input.
#[derive(serde::Deserialize, serde::Serialize)]
#[allow(dead_code)]
pub struct Record<'a> {
    id: i64,
    name: &'a str,
    hp: f64,
    score: i64,
    pos: (f32, f32, f32),
    tags: (i64, i64, &'a str),
    alive: bool,
}

/// The mixed payload: 200,000 records like the engine-side benchmark builds.
pub fn mixed_payload() -> Value {
    let mut records = Vec::with_capacity(200_000);
    for i in 0..200_000i64 {
        let f = i as f64;
        records.push(Value::Dictionary(Dictionary::new(vec![
            ("id".into(), Value::Int(i)),
            (
                "name".into(),
                Value::String(format!("player_{i:06}").into()),
            ),
            ("hp".into(), Value::Float(f * 0.37 + 0.1)),
            ("score".into(), Value::Int(i * 7919 % 100_000)),
            (
                "pos".into(),
                Value::Vector3(Real::F32([f as f32, 0.5, -(f as f32)])),
            ),
            (
                "tags".into(),
                Value::from(vec![
                    Value::Int(i % 3),
                    Value::Int(i % 5),
                    Value::String("ok".into()),
                ]),
            ),
            ("alive".into(), Value::Bool(i % 2 == 0)),
        ])));
    }
    Value::from(records)
}

fn bench(c: &mut Criterion) {
    let v4 = Version::V4;
    let mixed = mixed_payload();
    let bytes = encode(&mixed, &EncodeOptions::new(v4)).unwrap();
    let floats = Value::PackedFloat32Array((0..4_000_000).map(|i| i as f32 * 0.25).collect());
    let float_bytes = encode(&floats, &EncodeOptions::new(v4)).unwrap();

    let mut g = c.benchmark_group("godot");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("mixed/decode", |b| {
        b.iter(|| decode(black_box(&bytes), &DecodeOptions::new(v4)).unwrap())
    });
    g.bench_function("mixed/encode", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(bytes.len());
            encode_into(black_box(&mixed), &EncodeOptions::new(v4), &mut out).unwrap();
            out
        })
    });
    g.bench_function("mixed/tape", |b| {
        b.iter(|| tape::Tape::new(black_box(&bytes), v4).unwrap().len())
    });
    let tree = decode(&bytes, &DecodeOptions::new(v4)).unwrap();
    g.bench_function("mixed/json", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(bytes.len() * 3);
            json::write_json(&mut out, black_box(&tree), v4, false).unwrap();
            out
        })
    });
    g.bench_function("mixed/memcpy", |b| b.iter(|| black_box(&bytes).to_vec()));
    g.bench_function("mixed/serde_decode", |b| {
        b.iter(|| from_bytes::<Vec<Record>>(black_box(&bytes), v4).unwrap())
    });
    g.throughput(Throughput::Bytes(float_bytes.len() as u64));
    g.bench_function("packed_f32/decode", |b| {
        b.iter(|| decode(black_box(&float_bytes), &DecodeOptions::new(v4)).unwrap())
    });
    g.bench_function("packed_f32/encode", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(float_bytes.len());
            encode_into(black_box(&floats), &EncodeOptions::new(v4), &mut out).unwrap();
            out
        })
    });
    g.bench_function("packed_f32/memcpy", |b| {
        b.iter(|| black_box(&float_bytes).to_vec())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
