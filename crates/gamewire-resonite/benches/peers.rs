//! gamewire beside `frdt` (crates.io), the other Rust reader of Resonite FrDT files, on
//! the same Brotli `.brson` file: a synthetic data tree of about 10 MB of BSON in
//! Resonite's shape (slots with children and components).
//!
//! Three jobs a tool does: open the file, summarise it (slot and component counts, the
//! type table), and list every slot with its id, name and parent.
//!
//! Run: `cargo bench -p gamewire-resonite --bench peers`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_resonite::tree::DataTree;
use gamewire_resonite::{container, read_bson, synth, Compression, EncodeOptions, Options};

fn brson() -> Vec<u8> {
    let doc = synth::data_tree(5_000, 8, 7);
    gamewire_resonite::encode(&doc, &EncodeOptions::new(Compression::Brotli)).unwrap()
}

/// gamewire: every slot's (id, name, parent reference).
fn our_slots(file: &[u8], opts: &Options) -> usize {
    let (_, bson) = container::unpack(file, None, opts).unwrap();
    let doc = read_bson(&bson, opts).unwrap();
    let tree = DataTree::new(&doc);
    tree.slots()
        .iter()
        .map(|(_, s)| {
            s.id().map_or(0, str::len)
                + s.name().map_or(0, str::len)
                + s.parent_reference().map_or(0, str::len)
        })
        .sum()
}

/// frdt: the same list, walking its slot handles from the root.
fn frdt_slots(file: &[u8]) -> usize {
    let doc = frdt::Document::open(file).unwrap();
    let mut stack = vec![doc.root()];
    let mut n = 0;
    while let Some(s) = stack.pop() {
        n += s.id().unwrap().len()
            + s.name().unwrap().len()
            + s.parent_reference().unwrap().map_or(0, |p| p.len());
        stack.extend(s.children().unwrap());
    }
    n
}

/// gamewire: slot and component counts and the type table, as `frdt::summarize` gives.
fn our_summary(file: &[u8], opts: &Options) -> (usize, usize, usize) {
    let (_, bson) = container::unpack(file, None, opts).unwrap();
    let doc = read_bson(&bson, opts).unwrap();
    let tree = DataTree::new(&doc);
    let slots = tree.slots();
    let components = slots.iter().map(|(_, s)| s.components().len()).sum();
    (slots.len(), components, tree.types().len())
}

fn peers(c: &mut Criterion) {
    let file = brson();
    let opts = Options::default();
    let (_, ours) = container::unpack(&file, None, &opts).unwrap();
    eprintln!("brson: {} bytes, {} bytes of BSON", file.len(), ours.len());
    // Both read the same slots, ids, names and parents.
    assert_eq!(
        our_slots(&file, &opts),
        frdt_slots(&file),
        "same slots listed"
    );
    let s = frdt::summarize(&file).unwrap();
    let (slots, components, _) = our_summary(&file, &opts);
    assert_eq!(
        (s.slot_count as usize, s.component_count as usize),
        (slots, components)
    );

    let mut g = c.benchmark_group("resonite brson");
    g.throughput(Throughput::Bytes(ours.len() as u64));
    g.sample_size(20);
    g.bench_function("open: gamewire (unpack, BSON tree)", |b| {
        b.iter(|| {
            let (_, bson) = container::unpack(black_box(&file), None, &opts).unwrap();
            read_bson(&bson, &opts).unwrap().len()
        })
    });
    g.bench_function("open: frdt (Document::open)", |b| {
        b.iter(|| {
            frdt::Document::open(black_box(&file))
                .unwrap()
                .root()
                .id()
                .unwrap()
        })
    });
    g.bench_function("summary: gamewire", |b| {
        b.iter(|| our_summary(black_box(&file), &opts))
    });
    g.bench_function("summary: frdt (summarize)", |b| {
        b.iter(|| frdt::summarize(black_box(&file)).unwrap().slot_count)
    });
    g.bench_function("list slots: gamewire", |b| {
        b.iter(|| our_slots(black_box(&file), &opts))
    });
    g.bench_function("list slots: frdt", |b| {
        b.iter(|| frdt_slots(black_box(&file)))
    });
    g.finish();
}

criterion_group!(benches, peers);
criterion_main!(benches);
