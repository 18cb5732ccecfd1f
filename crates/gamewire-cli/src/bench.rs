//! The `bench` harness: decode and re-encode one input many times, print medians of
//! wall time and, where the system tells it, of on-CPU time.

use crate::CliResult;
use std::time::{Duration, Instant};

/// How long each phase runs at least, and how many runs it makes at least.
const MIN_TIME: Duration = Duration::from_secs(2);
const MIN_RUNS: usize = 5;
const MAX_RUNS: usize = 10_000;

/// Times of one call: the median wall time, and the median on-CPU time of this thread
/// when the system tells it.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Median wall-clock time.
    pub wall: Duration,
    /// Median time this thread ran on a CPU per call (Linux only). On a shared machine
    /// wall time includes waiting for a core; this does not, so side-by-side
    /// comparisons use it. The kernel moves the count at scheduler ticks (a few ms), so
    /// calls under 20 ms are timed in batches (see [`median_time`]).
    pub cpu: Option<Duration>,
}

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`).
pub fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The shortest sample whose on-CPU time the kernel's counter measures well.
const MIN_SAMPLE: Duration = Duration::from_millis(20);

/// Times `f` repeatedly (at least 5 samples and 2 seconds). A call shorter than 20 ms is
/// timed in batches of calls that together take about 20 ms (results dropped inside the
/// batch), and each sample is divided by the batch size, so small inputs get an on-CPU
/// figure too.
pub fn median_time<T>(mut f: impl FnMut() -> CliResult<T>) -> CliResult<Timing> {
    // Calibrate: double the batch until one batch takes 20 ms (the first call is cold
    // and slow, so one call's time would make the batch too small).
    let mut batch: u32 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            drop(f()?);
        }
        if t.elapsed() >= MIN_SAMPLE || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let has_cpu = on_cpu_ns().is_some();
    let start = Instant::now();
    while walls.len() < MIN_RUNS || (start.elapsed() < MIN_TIME && walls.len() < MAX_RUNS) {
        let c0 = if has_cpu { on_cpu_ns() } else { None };
        let t = Instant::now();
        let mut last = None;
        for _ in 0..batch {
            last = Some(f()?);
        }
        walls.push(t.elapsed() / batch);
        // Read before the last result is dropped: like the wall time, the CPU time is
        // the calls' alone.
        if let (Some(a), Some(b)) = (c0, has_cpu.then(on_cpu_ns).flatten()) {
            cpus.push(Duration::from_nanos(b.saturating_sub(a)) / batch);
        }
        drop(last);
    }
    let wall = median(&mut walls);
    let cpu = (cpus.len() == walls.len()).then(|| median(&mut cpus));
    Ok(Timing { wall, cpu })
}

/// A duration in the unit that suits it: `812 ns`, `4.21 µs`, `3.402 ms` (milliseconds
/// from 1 ms up, so scripts that read the figure keep one unit for big inputs).
pub fn human(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns < 1_000 {
        format!("{ns} ns")
    } else if ns < 1_000_000 {
        format!("{:.2} µs", ns as f64 / 1e3)
    } else {
        format!("{:.3} ms", ns as f64 / 1e6)
    }
}

/// Megabytes (10^6 bytes) per second for `bytes` in `time`.
pub fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64().max(1e-12)
}

/// Prints one timing line: `what: median ... MB/s (on-CPU ...)`.
pub fn print_line(what: &str, bytes: usize, t: Timing) {
    let mut line = format!(
        "{what}: median {:>10}  {:>9.1} MB/s",
        human(t.wall),
        mb_per_s(bytes, t.wall)
    );
    if let Some(cpu) = t.cpu {
        line.push_str(&format!(
            "   (on-CPU median {}, {:.1} MB/s)",
            human(cpu),
            mb_per_s(bytes, cpu)
        ));
    }
    println!("{line}");
}

/// Benchmarks a decoder and an encoder on `input` and prints one line for each:
/// the median time per run and the median throughput over the input's size.
pub fn run<T>(
    label: &str,
    input: &[u8],
    mut decode: impl FnMut(&[u8]) -> CliResult<T>,
    mut encode: impl FnMut(&T) -> CliResult<Vec<u8>>,
) -> CliResult {
    crate::io::check_stdout_open()?;
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
    print_line("decode", input.len(), d);
    print_line("encode", encoded.len(), e);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_cpu_time() {
        let mut n = 0u64;
        let t = median_time(|| {
            n += 1;
            // Some work that takes measurable CPU time.
            Ok((0..200_000u64).fold(n, |a, b| a.wrapping_mul(31).wrapping_add(b)))
        })
        .unwrap();
        assert!(n >= MIN_RUNS as u64);
        assert!(t.wall > Duration::ZERO);
        if let Some(cpu) = t.cpu {
            // On-CPU time can't much exceed wall time for one thread.
            assert!(cpu <= t.wall * 3 + Duration::from_millis(5), "{t:?}");
        }
        assert_eq!(mb_per_s(2_000_000, Duration::from_secs(2)), 1.0);
        assert!(
            t.cpu.is_some() || on_cpu_ns().is_none(),
            "short calls are batched"
        );
        assert_eq!(human(Duration::from_nanos(812)), "812 ns");
        assert_eq!(human(Duration::from_nanos(4_210)), "4.21 µs");
        assert_eq!(human(Duration::from_micros(3_402)), "3.402 ms");
        assert_eq!(human(Duration::from_millis(1_250)), "1250.000 ms");
    }
}
