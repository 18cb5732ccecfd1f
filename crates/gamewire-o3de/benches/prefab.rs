//! Loads a ~50 MB prefab-like JSON file through the registry, beside serde_json parsing
//! the same bytes into `serde_json::Value` (the floor of the work).
//!
//! Run: `cargo bench -p gamewire-o3de --bench prefab`; `scripts/o3de/bench.sh` prints the ratio.

use criterion::{criterion_group, criterion_main, Criterion};
use gamewire_o3de::{load, load_owned, parse_json, store, LoadOptions, Registry, StoreOptions};
use std::fmt::Write;
use std::time::Duration;

include!("common/prefab_data.rs");

fn bench(c: &mut Criterion) {
    let reg = Registry::from_slice(REGISTRY.as_bytes()).unwrap();
    let ty = reg.parse_type("Prefab").unwrap();
    let size: usize = std::env::var("O3DE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50)
        * 1_000_000;
    let doc = prefab(size);
    let bytes = doc.as_bytes();
    // Sanity: the document loads cleanly.
    let (v, rep) = load(
        &reg,
        &ty,
        &parse_json(bytes).unwrap(),
        &LoadOptions::default(),
    );
    assert_ne!(
        rep.processing(),
        gamewire_o3de::Processing::Halted,
        "{:?}",
        rep.issues.first()
    );
    assert!(rep.issues.is_empty(), "{:?}", rep.issues.first());

    let mut g = c.benchmark_group("o3de_prefab");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    g.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(bytes).unwrap())
    });
    g.bench_function("gamewire_load", |b| {
        b.iter(|| {
            let json = parse_json(bytes).unwrap();
            load_owned(&reg, &ty, json, &LoadOptions::default())
        })
    });
    g.bench_function("gamewire_store", |b| {
        b.iter(|| serde_json::to_vec(&store(&reg, &ty, &v, &StoreOptions::default()).0).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
