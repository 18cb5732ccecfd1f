//! Decoding a 50 MB+ data tree in each compression, side by side with the bare floor:
//! the decompressor alone plus a raw walk of the BSON with the `bson` crate.
//!
//! `cargo bench -p gamewire-resonite --bench decode` (results: docs/PERFORMANCE.md).

use bson::RawDocument;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_resonite::{
    brotli_stream, bson_write, container, lz4, lzma, read_bson, read_bson_in, synth, Arena,
    Compression, EncodeOptions, Options,
};
use std::time::{Duration, Instant};

#[path = "common/bson_walk.rs"]
mod bson_walk;
use bson_walk::raw_walk;

fn tree_bson() -> Vec<u8> {
    let mut slots = 26_000;
    loop {
        let doc = synth::data_tree(slots, 8, 42);
        let bson = bson_write::to_vec(&doc, 1024).unwrap();
        if bson.len() >= 50_000_000 {
            return bson;
        }
        slots = slots * 50_000_000 / bson.len() + 100;
    }
}

fn bench(c: &mut Criterion) {
    let bson = tree_bson();
    let opts = Options::default();
    let cap = opts.limits.max_decompressed;
    eprintln!("data tree: {} bytes of BSON", bson.len());
    for comp in [
        Compression::None,
        Compression::Lz4,
        Compression::Brotli,
        Compression::Lzma,
    ] {
        let file = container::pack(&bson, comp, false, &EncodeOptions::new(comp)).unwrap();
        let header = container::read_header(&file).unwrap().unwrap().len;
        let payload = &file[header..];
        eprintln!("{comp}: {} bytes compressed", file.len());
        let mut g = c.benchmark_group(format!("resonite-{comp}"));
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8));
        // MB/s over the decompressed BSON, the same for every compression
        g.throughput(Throughput::Bytes(bson.len() as u64));
        g.bench_function("floor: decompress + bson raw walk", |b| {
            b.iter(|| {
                let raw: std::borrow::Cow<[u8]> = match comp {
                    Compression::None => std::borrow::Cow::Borrowed(payload),
                    Compression::Lz4 => lz4::decompress(payload, header, cap).unwrap().into(),
                    Compression::Lzma => lzma::decompress(payload, header, cap, opts.lzma_memlimit)
                        .unwrap()
                        .into(),
                    Compression::Brotli => brotli_stream::decompress(payload, header, cap)
                        .unwrap()
                        .into(),
                };
                black_box(raw_walk(RawDocument::from_bytes(&raw).unwrap()))
            })
        });
        g.bench_function("gamewire: unpack + read_bson (tree)", |b| {
            b.iter(|| {
                let (_, raw) = container::unpack(&file, None, &opts).unwrap();
                let doc = read_bson(&raw, &opts).unwrap();
                black_box(doc.len())
            })
        });
        g.bench_function("gamewire: unpack + read_bson_in (tree in an arena)", |b| {
            b.iter(|| {
                let (_, raw) = container::unpack(&file, None, &opts).unwrap();
                let arena = Arena::new();
                let doc = read_bson_in(&raw, &arena, &opts).unwrap();
                black_box(doc.len())
            })
        });
        g.bench_function("gamewire: same, tree drop not timed", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t = Instant::now();
                    let (_, raw) = container::unpack(&file, None, &opts).unwrap();
                    let doc = read_bson(&raw, &opts).unwrap();
                    total += t.elapsed();
                    black_box(&doc);
                }
                total
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
