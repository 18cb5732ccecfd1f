//! Times what the front ends do with a big Resonite file: `gamewire::open` then
//! `Opened::value` (the document, through `gamewire_resonite::decode`), and the Rust half
//! of Python's `gamewire.resonite.decode` (`decode`, then the document to a JSON tree
//! with `json::document_to_json`), each its result dropped.
//!
//! ```text
//! cargo run --release -p gamewire --example resonite_open -- make FILE SLOTS COMPRESSION
//! cargo run --release -p gamewire --example resonite_open -- MODE FILE RUNS
//! ```
//!
//! `make` writes `synth::data_tree(SLOTS, 8, 7)` in a FrDT container (`none`, `lz4`,
//! `lzma` or `brotli`; `open` checks the extension against the header: name the file
//! `.frdt` for none, else `.lz4bson`, `.7zbson` or `.brson`); MODE is `open` (`gamewire::open` + `value`) or `python` (decode +
//! JSON tree). Prints the median, minimum and maximum of RUNS calls (after one warm-up)
//! and the minor page faults per call (from `/proc/self/stat`, steady under load).

use gamewire::open::{OpenOptions, SideFiles};
use gamewire::resonite::{self, synth, Compression, EncodeOptions};
use std::path::Path;
use std::time::Instant;

/// Minor page faults of this process so far (field 10 of `/proc/self/stat`).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name (in parentheses): state is field 3, minflt field 10.
    let rest = stat.rsplit(')').next().unwrap_or("");
    rest.split_whitespace()
        .nth(7)
        .and_then(|f| f.parse().ok())
        .unwrap_or(0)
}

fn once(mode: &str, data: &[u8], path: &Path) -> usize {
    match mode {
        "open" => {
            let side = SideFiles::none();
            let o = gamewire::open(data.to_vec(), Some(path), &side, &OpenOptions::default())
                .unwrap_or_else(|e| panic!("{e}"));
            let v = o.value().unwrap();
            std::hint::black_box(&v);
            1
        }
        "python" => {
            let o = resonite::Options::default();
            let d = resonite::decode(data, None, &o).unwrap();
            let j = resonite::json::document_to_json(d.document(), o.limits.max_depth).unwrap();
            usize::from(j.is_object())
        }
        other => panic!("unknown mode {other}: open or python"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, file) = (args[0].as_str(), Path::new(&args[1]));
    if mode == "make" {
        let slots = args[2].parse().expect("SLOTS");
        let c = Compression::from_name(&args[3]).expect("none, lz4, lzma or brotli");
        let doc = synth::data_tree(slots, 8, 7);
        std::fs::write(
            file,
            resonite::encode(&doc, &EncodeOptions::new(c)).unwrap(),
        )
        .unwrap();
        return;
    }
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let data = std::fs::read(file).unwrap();
    std::hint::black_box(once(mode, &data, file));
    let mut times = Vec::with_capacity(runs);
    let faults = minor_faults();
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(once(mode, std::hint::black_box(&data), file));
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let faults = (minor_faults() - faults) / runs as u64;
    times.sort_by(f64::total_cmp);
    println!(
        "{mode} {}: {} bytes, median {:.1} ms (min {:.1}, max {:.1}, {runs} runs), {faults} minor faults per call",
        file.display(),
        data.len(),
        times[runs / 2],
        times[0],
        times[runs - 1]
    );
}
