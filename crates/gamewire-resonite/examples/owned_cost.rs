//! Where the owned decode's time goes, beside the `bson` crate's raw walk of the same
//! BSON, in one process, the readers interleaved round by round (medians):
//!
//! `cargo run --profile bench -p gamewire-resonite --example owned_cost -- [SLOTS] [ROUNDS]`
//!
//! prints, per round's median, the `bson` crate's `RawDocument` walk, the owned decode
//! built and dropped (`read_bson`), the build alone and the drop alone, the owned decode
//! into an arena (`read_bson_in`: arena made, tree built, both dropped), and the view's
//! check; and the memory the arena took. `SLOTS` (5,000, about 9.5 MB of BSON as in
//! `benches/peers.rs`) sizes the tree.

use bson::RawDocument;
use gamewire_resonite::bson_view::BsonView;
use gamewire_resonite::{bson_write, read_bson, read_bson_in, synth, Arena, Options};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../benches/common/bson_walk.rs"]
mod bson_walk;
use bson_walk::raw_walk;

/// Entries of documents and items of arrays in `doc`, at every depth.
fn count(doc: &gamewire_resonite::Document<'_>) -> usize {
    fn value(v: &gamewire_resonite::Value<'_>) -> usize {
        match v {
            gamewire_resonite::Value::Document(d) => count(d),
            gamewire_resonite::Value::Array(a) => a.len() + a.iter().map(value).sum::<usize>(),
            _ => 0,
        }
    }
    doc.len() + doc.entries.iter().map(|(_, v)| value(v)).sum::<usize>()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let mut args = std::env::args().skip(1);
    let slots: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let bson = bson_write::to_vec(&synth::data_tree(slots, 8, 7), 1024).unwrap();
    let opts = Options::default();
    let (mut raw, mut owned, mut build, mut drop_, mut in_arena, mut check) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(raw_walk(RawDocument::from_bytes(black_box(&bson)).unwrap()));
        raw.push(t.elapsed());

        let t = Instant::now();
        black_box(read_bson(black_box(&bson), &opts).unwrap().len());
        owned.push(t.elapsed());

        let t = Instant::now();
        let doc = read_bson(black_box(&bson), &opts).unwrap();
        let t1 = t.elapsed();
        drop(black_box(doc));
        build.push(t1);
        drop_.push(t.elapsed() - t1);

        let t = Instant::now();
        let arena = Arena::new();
        black_box(read_bson_in(black_box(&bson), &arena, &opts).unwrap().len());
        drop(arena);
        in_arena.push(t.elapsed());

        let t = Instant::now();
        black_box(
            BsonView::new(black_box(&bson), &opts)
                .unwrap()
                .root()
                .is_empty(),
        );
        check.push(t.elapsed());
    }
    let arena = Arena::new();
    let entries = count(&read_bson_in(&bson, &arena, &opts).unwrap());
    println!(
        "the arena took {} bytes for {entries} entries and items ({} per BSON byte)",
        arena.allocated_bytes(),
        arena.allocated_bytes() as f64 / bson.len() as f64
    );
    let raw = median(raw);
    println!(
        "{} bytes of BSON, medians of {rounds} rounds (ms):",
        bson.len()
    );
    println!("bson crate RawDocument walk  {:8.2}", ms(raw));
    let owned = median(owned);
    println!(
        "owned: built and dropped     {:8.2}  {:.3}x",
        ms(owned),
        owned.as_secs_f64() / raw.as_secs_f64()
    );
    println!("owned: build alone           {:8.2}", ms(median(build)));
    println!("owned: drop alone            {:8.2}", ms(median(drop_)));
    let in_arena = median(in_arena);
    println!(
        "owned in an arena, all dropped {:6.2}  {:.3}x",
        ms(in_arena),
        in_arena.as_secs_f64() / raw.as_secs_f64()
    );
    println!("view: check only             {:8.2}", ms(median(check)));
}
