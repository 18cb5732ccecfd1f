//! Times one reader of the mixed payload on the CPU (per-thread schedstat, steady under
//! load) and on the wall clock: `time_readers decode|tape|serde|encode [RUNS]` (encode: of the
//! decoded tree, into a buffer of the input's size); prints min and
//! median of each. The allocator is mimalloc, as in the `gamewire` binary, and the
//! result is dropped after the clock stops, as `gamewire bench` does.
use gamewire_godot::*;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;

fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// What a reader made, kept until the clock has stopped.
enum Made<'a> {
    Tree(Value),
    Tape(tape::Tape<'a>),
    Records(Vec<codec::Record<'a>>),
    Bytes(Vec<u8>),
}

impl Made<'_> {
    fn len(&self) -> usize {
        match self {
            Made::Tree(Value::Array(a)) => a.items.len(),
            Made::Tree(_) => 0,
            Made::Tape(t) => t.len(),
            Made::Records(r) => r.len(),
            Made::Bytes(b) => b.len(),
        }
    }
}

#[inline(never)]
fn run<'a>(reader: &str, bytes: &'a [u8], tree: &Value) -> Made<'a> {
    let v4 = Version::V4;
    match reader {
        "encode" => {
            let mut out = Vec::with_capacity(bytes.len());
            encode_into(tree, &EncodeOptions::new(v4), &mut out).unwrap();
            Made::Bytes(out)
        }
        "decode" => Made::Tree(decode(bytes, &DecodeOptions::new(v4)).unwrap()),
        "tape" => Made::Tape(tape::Tape::new(bytes, v4).unwrap()),
        "serde" => Made::Records(from_bytes(bytes, v4).unwrap()),
        other => panic!("unknown reader {other}"),
    }
}

fn main() {
    let reader = std::env::args().nth(1).unwrap_or_else(|| "decode".into());
    let runs: usize = std::env::args().nth(2).map_or(30, |s| s.parse().unwrap());
    let v = codec::mixed_payload();
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    let tree = if reader == "encode" { v } else { Value::Nil };
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        run(&reader, &bytes, &tree);
    }
    for _ in 0..runs {
        let c = cpu_ns();
        let t = Instant::now();
        let made = run(&reader, &bytes, &tree);
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        cpu.push((cpu_ns() - c) as f64 / 1e6);
        assert!(made.len() >= 200_000);
        drop(made);
    }
    cpu.sort_by(f64::total_cmp);
    wall.sort_by(f64::total_cmp);
    println!(
        "{reader}: cpu min {:.1} med {:.1} ms; wall min {:.1} med {:.1} ms",
        cpu[0],
        cpu[runs / 2],
        wall[0],
        wall[runs / 2]
    );
}
