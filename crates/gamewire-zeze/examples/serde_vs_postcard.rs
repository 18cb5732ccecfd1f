//! Zeze serde decode against postcard on the bench's records, side by side in one
//! process: `serde_vs_postcard [ROUNDS=15] [N=1000000]`.
//!
//! Each round decodes the same records once with each codec (owned `String`s, then
//! borrowed `&str`s), the order of the two codecs swapped every round so neither always
//! runs first on a freshly freed heap; each timing includes dropping the result, as
//! criterion's does. Prints every round, then per row the two medians, the ratio of the
//! medians (zeze / postcard: under 1 means zeze is faster) and the median of the
//! per-round ratios and the number of rounds zeze was faster in, with the load average
//! before and after.

use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;

include!("../benches/common/records.rs");

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let n: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let batch = records(n);
    let zeze = gamewire_zeze::to_bytes(&batch).unwrap();
    let post = postcard::to_allocvec(&batch).unwrap();
    drop(batch);
    println!(
        "{n} records: zeze {} bytes, postcard {} bytes; load {}",
        zeze.len(),
        post.len(),
        load()
    );
    // One untimed pass of each, so both start from a heap that has held the output.
    time_pair(&zeze, &post, false);
    let mut rows: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for r in 0..rounds {
        let swap = r % 2 == 1;
        let (owned, borrowed) = time_pair(&zeze, &post, swap);
        println!(
            "round {r:2} ({} first): owned zeze {:7.1} ms postcard {:7.1} ms | borrowed zeze {:7.1} ms postcard {:7.1} ms",
            if swap { "postcard" } else { "zeze" },
            owned.0,
            owned.1,
            borrowed.0,
            borrowed.1
        );
        rows[0].push(owned);
        rows[1].push(borrowed);
    }
    for (name, row) in ["owned String", "borrowed &str"].iter().zip(&rows) {
        let z = median(row.iter().map(|p| p.0).collect());
        let p = median(row.iter().map(|p| p.1).collect());
        let per_round = median(row.iter().map(|p| p.0 / p.1).collect());
        let faster = row.iter().filter(|p| p.0 < p.1).count();
        println!(
            "{name}: zeze median {z:.1} ms, postcard median {p:.1} ms, ratio of medians {:.3}x, median per-round ratio {per_round:.3}x, zeze faster in {faster} of {} rounds",
            z / p,
            row.len()
        );
    }
    println!("load after: {}", load());
}

/// One round: (zeze, postcard) milliseconds for the owned and the borrowed records.
fn time_pair(zeze: &[u8], post: &[u8], postcard_first: bool) -> ((f64, f64), (f64, f64)) {
    let owned = pair(
        || {
            gamewire_zeze::from_bytes::<Batch>(black_box(zeze))
                .unwrap()
                .recs
                .len()
        },
        || {
            postcard::from_bytes::<Batch>(black_box(post))
                .unwrap()
                .recs
                .len()
        },
        postcard_first,
    );
    let borrowed = pair(
        || {
            gamewire_zeze::from_bytes::<BatchRef>(black_box(zeze))
                .unwrap()
                .recs
                .len()
        },
        || {
            postcard::from_bytes::<BatchRef>(black_box(post))
                .unwrap()
                .recs
                .len()
        },
        postcard_first,
    );
    (owned, borrowed)
}

/// Times `zeze` and `postcard` (each decodes, counts and drops its records), in that
/// order or, with `swap`, the other way round; returns (zeze, postcard) milliseconds.
fn pair(zeze: impl FnOnce() -> usize, postcard: impl FnOnce() -> usize, swap: bool) -> (f64, f64) {
    if swap {
        let p = time(postcard);
        (time(zeze), p)
    } else {
        let z = time(zeze);
        (z, time(postcard))
    }
}

/// Milliseconds `f` takes, including dropping what it built (it returns only a count).
fn time(f: impl FnOnce() -> usize) -> f64 {
    let t = Instant::now();
    black_box(f());
    t.elapsed().as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// The 1-minute load average (Linux), or "?".
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}
