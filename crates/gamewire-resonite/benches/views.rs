//! The product's two readers of whole files, through the owned tree against through the
//! borrowed view, on the same stored and LZ4 files (a synthetic data tree, about 10 MB
//! of BSON):
//!
//! - to JSON text, as `gamewire resonite decode` does it: `read_unpacked` +
//!   `json_view::DocumentView` against `bson_view::FileView` +
//!   `json_view::DocumentRefView` (the text goes to a counting sink);
//! - `inspect` (20 items a level): `inspect::fill` (through the view; the owned-tree
//!   path `fill_owned` was removed with the fold into one walk, issue 29).
//!
//! Run: `cargo bench -p gamewire-resonite --bench views`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_core::inspect::TreeBuilder;
use gamewire_resonite::bson_view::FileView;
use gamewire_resonite::inspect;
use gamewire_resonite::json_view::{DocumentRefView, DocumentView};
use gamewire_resonite::{container, read_unpacked, synth, Compression, EncodeOptions, Options};
use std::io::Write;

/// Counts the bytes written, so that nothing is optimised away.
struct Count(usize);

impl Write for Count {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn owned(file: &[u8], opts: &Options) -> usize {
    let (c, bson) = container::unpack(file, None, opts).unwrap();
    let doc = read_unpacked(file.len(), &c, &bson, opts).unwrap();
    let mut w = std::io::BufWriter::new(Count(0));
    serde_json::to_writer(&mut w, &DocumentView::new(&doc)).unwrap();
    w.into_inner().ok().unwrap().0
}

fn view(file: &[u8], opts: &Options) -> usize {
    let v = FileView::open(file, None, opts).unwrap();
    let mut w = std::io::BufWriter::new(Count(0));
    serde_json::to_writer(&mut w, &DocumentRefView::new(v.root())).unwrap();
    w.into_inner().ok().unwrap().0
}

fn json(c: &mut Criterion) {
    let doc = synth::data_tree(5_000, 8, 7);
    let opts = Options::default();
    for compression in [Compression::None, Compression::Lz4] {
        let file = gamewire_resonite::encode(&doc, &EncodeOptions::new(compression)).unwrap();
        let n = owned(&file, &opts);
        assert_eq!(n, view(&file, &opts), "the same text");
        let mut g = c.benchmark_group(format!("resonite to JSON, {compression}"));
        g.throughput(Throughput::Bytes(file.len() as u64));
        g.sample_size(20);
        g.bench_function("owned tree + DocumentView", |b| {
            b.iter(|| owned(black_box(&file), &opts))
        });
        g.bench_function("bson_view + DocumentRefView", |b| {
            b.iter(|| view(black_box(&file), &opts))
        });
        g.finish();
        let mut g = c.benchmark_group(format!("resonite inspect, {compression}"));
        g.throughput(Throughput::Bytes(file.len() as u64));
        g.sample_size(20);
        g.bench_function("bson_view (fill)", |b| {
            b.iter(|| {
                let mut t = TreeBuilder::new(20);
                inspect::fill(black_box(&file), None, &mut t).unwrap();
                t.finish().len()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, json);
criterion_main!(benches);
