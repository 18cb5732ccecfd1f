//! Times one reader of the mixed payload on the CPU (per-thread schedstat) and on the
//! wall clock: `time_readers decode|tape|serde [RUNS]`; prints min and median of each.
use gamewire_godot::*;
use std::time::Instant;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;

fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}

#[inline(never)]
fn run(reader: &str, bytes: &[u8]) -> usize {
    let v4 = Version::V4;
    match reader {
        "decode" => match decode(bytes, &DecodeOptions::new(v4)).unwrap() {
            Value::Array(a) => a.items.len(),
            _ => 0,
        },
        "tape" => tape::Tape::new(bytes, v4).unwrap().len(),
        "serde" => from_bytes::<Vec<codec::Record>>(bytes, v4).unwrap().len(),
        other => panic!("unknown reader {other}"),
    }
}

fn main() {
    let reader = std::env::args().nth(1).unwrap_or_else(|| "decode".into());
    let runs: usize = std::env::args().nth(2).map_or(30, |s| s.parse().unwrap());
    let v = codec::mixed_payload();
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    drop(v);
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        run(&reader, &bytes);
    }
    for _ in 0..runs {
        let c = cpu_ns();
        let t = Instant::now();
        assert!(run(&reader, &bytes) >= 200_000);
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        cpu.push((cpu_ns() - c) as f64 / 1e6);
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
