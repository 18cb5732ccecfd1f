//! The registry-free path on a ~50 MB level built from real entity shapes
//! (`common/real_prefab.rs`): serde_json parsing the bytes into `serde_json::Value`
//! (the floor), gamewire's untyped decode (parse the document as written, and write it
//! back), and the prefab tree (`PrefabTree::parse` + render), alternated round by round so
//! that load from other processes hits all alike. Prints the medians and the medians
//! of the per-round ratios.
//!
//! Run: `scripts/o3de/bench-untyped.sh`, or `cargo bench -p gamewire-o3de --bench untyped`
//! (`O3DE_BENCH_MB` (50), `O3DE_BENCH_ENTITIES` (a count instead of a size),
//! `O3DE_BENCH_ROUNDS` (11; 0 only builds and checks the level), `O3DE_BENCH_WRITE=FILE` to
//! save the generated level).

use gamewire_o3de::layout::Style;
use gamewire_o3de::prefab::PrefabTree;
use std::time::Instant;

include!("common/real_prefab.rs");

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn env(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let mb = env("O3DE_BENCH_MB").unwrap_or(50);
    let rounds = env("O3DE_BENCH_ROUNDS").unwrap_or(11);
    let (bytes, entities) = real_prefab(mb * 1_000_000, env("O3DE_BENCH_ENTITIES"));
    if let Ok(path) = std::env::var("O3DE_BENCH_WRITE") {
        std::fs::write(&path, &bytes).unwrap();
        println!("wrote {path}");
    }
    // The generated text is in O3DE's layout: the untyped round trip is exact.
    let doc = Document::parse(&bytes).unwrap();
    assert!(doc.write(Layout::Pretty) == bytes);
    let lines = PrefabTree::from_node(&doc.root)
        .unwrap()
        .render()
        .lines()
        .count();
    let style = Style::detect(&bytes, &doc).unwrap();
    println!(
        "kept layout: {} gaps, {} texts, {} bytes of header settings",
        style.gaps.len(),
        style.texts.len(),
        serde_json::to_string(&style).unwrap().len()
    );
    drop(style);
    drop(doc);
    println!(
        "o3de level from real entity shapes: {} bytes, {entities} entities, {lines} tree lines; load average before: {}",
        bytes.len(),
        load_average()
    );
    if rounds == 0 {
        return;
    }
    let names = [
        "serde_json::Value",
        "untyped parse",
        "untyped decode (parse + write)",
        "o3de tree (PrefabTree::parse + render)",
        "decode o3de (parse + layout check + write)",
        "kept layout (parse + Style::detect + write)",
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for round in 0..rounds + 1 {
        let mut t = [0.0f64; 6];
        let s = Instant::now();
        let v = serde_json::from_slice::<serde_json::Value>(&bytes).unwrap();
        drop(v);
        t[0] = s.elapsed().as_secs_f64();
        let s = Instant::now();
        let d = Document::parse(&bytes).unwrap();
        drop(d);
        t[1] = s.elapsed().as_secs_f64();
        let s = Instant::now();
        let d = Document::parse(&bytes).unwrap();
        let out = d.write(Layout::Pretty);
        drop(d);
        drop(out);
        t[2] = s.elapsed().as_secs_f64();
        let s = Instant::now();
        let text = PrefabTree::parse(&bytes).unwrap().render();
        drop(text);
        t[3] = s.elapsed().as_secs_f64();
        // What `gamewire decode o3de` does: is the file in O3DE's layout (no texts
        // looked for), then the document written.
        let s = Instant::now();
        let d = Document::parse(&bytes).unwrap();
        assert!(Style::detect_with(&bytes, &d, false).unwrap().is_plain());
        let out = d.write(Layout::Pretty);
        drop(d);
        drop(out);
        t[4] = s.elapsed().as_secs_f64();
        // What `gamewire decode FILE` does since the layout is kept: the document, the
        // layout detected (checked by writing the file again), the file written back.
        let s = Instant::now();
        let d = Document::parse(&bytes).unwrap();
        let style = Style::detect(&bytes, &d).unwrap();
        let out = style.write(&d);
        drop(d);
        drop(out);
        t[5] = s.elapsed().as_secs_f64();
        if round > 0 {
            // Round 0 warms up.
            for i in 0..6 {
                times[i].push(t[i]);
                ratios[i].push(t[i] / t[0]);
            }
        }
    }
    println!("{rounds} rounds (medians; ratio = median of per-round ratios to serde_json):");
    for i in 0..names.len() {
        let m = median(&mut times[i]);
        println!(
            "  {:<38} {:>8.1} ms  {:>7.1} MB/s  ratio {:.2}x",
            names[i],
            m * 1e3,
            bytes.len() as f64 / 1e6 / m,
            median(&mut ratios[i])
        );
    }
    println!("load average after: {}", load_average());
}
