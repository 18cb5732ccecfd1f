//! The `bench` harness: decode and re-encode one input many times, print medians.

use crate::CliResult;
use std::time::{Duration, Instant};

/// How long each phase runs at least, and how many runs it makes at least.
const MIN_TIME: Duration = Duration::from_secs(2);
const MIN_RUNS: usize = 5;
const MAX_RUNS: usize = 10_000;

/// Times `f` repeatedly; returns the median duration of one call.
pub fn median_time<T>(mut f: impl FnMut() -> CliResult<T>) -> CliResult<Duration> {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < MIN_RUNS || (start.elapsed() < MIN_TIME && times.len() < MAX_RUNS) {
        let t = Instant::now();
        let out = f()?;
        times.push(t.elapsed());
        drop(out);
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// Megabytes (10^6 bytes) per second for `bytes` in `time`.
pub fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64().max(1e-12)
}

/// Benchmarks a decoder and an encoder on `input` and prints one line for each:
/// the median time per run and the median throughput over the input's size.
pub fn run<T>(
    label: &str,
    input: &[u8],
    mut decode: impl FnMut(&[u8]) -> CliResult<T>,
    mut encode: impl FnMut(&T) -> CliResult<Vec<u8>>,
) -> CliResult {
    let value = decode(input)?;
    let encoded = encode(&value)?;
    let same = if encoded == input {
        "identical"
    } else {
        "different"
    };
    let d = median_time(|| decode(input))?;
    let e = median_time(|| encode(&value))?;
    println!(
        "{label}: {} bytes in, {} bytes re-encoded ({same} bytes)",
        input.len(),
        encoded.len()
    );
    println!(
        "decode: median {:>10.3} ms  {:>9.1} MB/s",
        d.as_secs_f64() * 1e3,
        mb_per_s(input.len(), d)
    );
    println!(
        "encode: median {:>10.3} ms  {:>9.1} MB/s",
        e.as_secs_f64() * 1e3,
        mb_per_s(encoded.len(), e)
    );
    Ok(())
}
