//! Interleaved timing of the same 50 MB prefab-like document: serde_json parsing into
//! `serde_json::Value` (the floor) and gamewire's registry load, alternated round by
//! round so that load from other processes hits both alike. Prints the medians and the
//! median of the per-round ratios.
//!
//! Run: `cargo bench -p gamewire-o3de --bench prefab_ratio` (`O3DE_BENCH_MB`, `O3DE_BENCH_ROUNDS`).

use gamewire_o3de::{load_bytes, load_owned, parse_json, LoadOptions, Registry};
use std::fmt::Write;
use std::time::Instant;

include!("common/prefab_data.rs");

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let mb: usize = std::env::var("O3DE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let rounds: usize = std::env::var("O3DE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let reg = Registry::from_slice(REGISTRY.as_bytes()).unwrap();
    let ty = reg.parse_type("Prefab").unwrap();
    let doc = prefab(mb * 1_000_000);
    let bytes = doc.as_bytes();
    let (mut floor, mut ours, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut dup_times, mut dup_ratios) = (Vec::new(), Vec::new());
    for round in 0..rounds + 1 {
        let t = Instant::now();
        let v = serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
        drop(v);
        let f = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let json = parse_json(bytes).unwrap();
        let (v, rep) = load_owned(&reg, &ty, json, &LoadOptions::default());
        drop(v);
        let o = t.elapsed().as_secs_f64();
        assert!(rep.issues.is_empty());
        // The duplicate-keeping path (`load_bytes`, used by the CLI).
        let t = Instant::now();
        let (v, rep) = load_bytes(&reg, &ty, bytes, &LoadOptions::default()).unwrap();
        drop(v);
        let d = t.elapsed().as_secs_f64();
        assert!(rep.issues.is_empty());
        if round > 0 {
            dup_times.push(d);
            dup_ratios.push(d / f);
            // Round 0 warms up.
            floor.push(f);
            ours.push(o);
            ratios.push(o / f);
        }
    }
    println!(
        "o3de prefab {} bytes, {} rounds: serde_json::Value median {:.1} ms ({:.1} MB/s); gamewire load median {:.1} ms ({:.1} MB/s); median ratio {:.2}x",
        bytes.len(),
        rounds,
        median(&mut floor) * 1e3,
        bytes.len() as f64 / 1e6 / median(&mut floor.clone()),
        median(&mut ours) * 1e3,
        bytes.len() as f64 / 1e6 / median(&mut ours.clone()),
        median(&mut ratios)
    );
    println!(
        "o3de prefab load_bytes (keeps duplicate names): median {:.1} ms, median ratio {:.2}x",
        median(&mut dup_times) * 1e3,
        median(&mut dup_ratios)
    );
}
