//! Times the owned decode (`bind::decode`: the tree built; dropped after the clock
//! stops, as katsuba's scripts `del` their value untimed) of a `BINd` file:
//! `owned_decode FILE.bin TYPES.json [RUNS=7]` prints the first call in this process and
//! the median of RUNS further calls, wall and on-CPU time (the thread's schedstat);
//! `owned_decode FILE.bin TYPES.json once` only the first call. Then the median of RUNS
//! calls of `bind::decode_with` with a `Recycler` that each tree is given back to after
//! the clock stops (instead of being dropped). For
//! `scripts/kingsisle/owned-vs-katsuba.sh`, which runs katsuba on the same file.
use gamewire_kingsisle::recycle::Recycler;
use gamewire_kingsisle::{bind, Document, Options, TypeList};
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (Linux), if known.
fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// One decode: (wall, CPU) in milliseconds; the tree is dropped untimed.
fn once(data: &[u8], types: &TypeList) -> (f64, f64) {
    timed(|| bind::decode(data, types, &Options::default()), drop)
}

/// One decode into `r`'s allocations; the tree is given back to `r` untimed.
fn recycled(data: &[u8], types: &TypeList, r: &mut Recycler) -> (f64, f64) {
    let mut tree = None;
    let t = timed(
        || bind::decode_with(data, types, &Options::default(), r),
        |d| tree = Some(d),
    );
    r.recycle(tree.expect("a tree"));
    t
}

/// Times `decode`, then hands its tree to `done` untimed: (wall, CPU) in milliseconds.
fn timed(
    decode: impl FnOnce() -> gamewire_core::Result<Document>,
    done: impl FnOnce(Document),
) -> (f64, f64) {
    let (c0, t0) = (on_cpu_ns(), Instant::now());
    let doc = std::hint::black_box(decode().expect("decode"));
    let wall = t0.elapsed().as_secs_f64() * 1e3;
    let cpu = match (c0, on_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e6,
        _ => f64::NAN,
    };
    done(doc);
    (wall, cpu)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let data = std::fs::read(&args[0]).expect("the BINd file");
    let types = TypeList::from_files(&[&args[1]]).expect("the type list");
    let (w, c) = once(&data, &types);
    println!("owned once: {w:.3} ms wall, {c:.3} ms CPU");
    if args.get(2).map(String::as_str) == Some("once") {
        return;
    }
    let runs: usize = args.get(2).map_or(7, |s| s.parse().expect("RUNS"));
    let (walls, cpus): (Vec<f64>, Vec<f64>) = (0..runs).map(|_| once(&data, &types)).unzip();
    println!(
        "owned steady: median {:.3} ms wall, {:.3} ms CPU ({runs} runs)",
        median(walls),
        median(cpus)
    );
    let mut r = Recycler::new();
    recycled(&data, &types, &mut r);
    let (walls, cpus): (Vec<f64>, Vec<f64>) =
        (0..runs).map(|_| recycled(&data, &types, &mut r)).unzip();
    println!(
        "recycled steady: median {:.3} ms wall, {:.3} ms CPU ({runs} runs, {} MB kept)",
        median(walls),
        median(cpus),
        r.kept_bytes() >> 20
    );
}
