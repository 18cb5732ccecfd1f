//! Runs one reader of the mixed payload (bench data) twice, for callgrind's instruction
//! counts per reader: `profile_readers decode|tape|serde|json`. Restrict callgrind to the
//! reader with `--toggle-collect=profile_readers::run` (the one function that reads).
use gamewire_godot::*;
#[path = "../benches/codec.rs"]
#[allow(dead_code)]
mod codec;

/// Reads `bytes` with the named reader; returns something that depends on every value.
#[inline(never)]
fn run(reader: &str, bytes: &[u8]) -> usize {
    let v4 = Version::V4;
    match reader {
        "decode" => {
            let d = decode(bytes, &DecodeOptions::new(v4)).unwrap();
            let n = match &d {
                Value::Array(a) => a.items.len(),
                _ => 0,
            };
            std::mem::forget(d);
            n
        }
        "tape" => tape::Tape::new(bytes, v4).unwrap().len(),
        "serde" => {
            let recs: Vec<codec::Record> = from_bytes(bytes, v4).unwrap();
            let n = recs.len();
            std::mem::forget(recs);
            n
        }
        other => panic!("unknown reader {other}"),
    }
}

fn main() {
    let reader = std::env::args().nth(1).unwrap_or_else(|| "decode".into());
    let v = codec::mixed_payload();
    let bytes = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    drop(v);
    if reader == "json" {
        // JSON of the decoded tree, streamed (the CLI's `decode FILE` path); the decode
        // is outside `run`, so only the writing is counted.
        let d = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap();
        for _ in 0..2 {
            let n = json_run(&d);
            assert!(n > bytes.len());
        }
        return;
    }
    for _ in 0..2 {
        assert!(run(&reader, &bytes) >= 200_000);
    }
}

/// Writes the tree's JSON to a byte buffer; returns its length.
#[inline(never)]
fn json_run(d: &Value) -> usize {
    let mut out = Vec::new();
    json::write_json(&mut out, d, Version::V4, false).unwrap();
    out.len()
}
