//! Decodes a generated 50 MB data tree (LZ4) in a loop, for profiling:
//! `cargo run --release -p gamewire-resonite --example profile_resonite -- [ITERATIONS]`.

use gamewire_resonite::{
    bson_write, container, read_bson, synth, Compression, EncodeOptions, Options,
};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let doc = synth::data_tree(26_000, 8, 42);
    let bson = bson_write::to_vec(&doc, 1024).unwrap();
    drop(doc);
    let file = container::pack(
        &bson,
        Compression::Lz4,
        false,
        &EncodeOptions::new(Compression::Lz4),
    )
    .unwrap();
    let opts = Options::default();
    for _ in 0..n {
        let t = Instant::now();
        let (_, raw) = container::unpack(&file, None, &opts).unwrap();
        let t1 = t.elapsed();
        let doc = read_bson(&raw, &opts).unwrap();
        let t2 = t.elapsed();
        drop(doc);
        let t3 = t.elapsed();
        println!("unpack {:?}  read {:?}  drop {:?}", t1, t2 - t1, t3 - t2);
    }
}
