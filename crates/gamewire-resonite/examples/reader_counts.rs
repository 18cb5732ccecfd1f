//! Each BSON reader once over the same file, for instruction counts under callgrind
//! (`valgrind --tool=callgrind`); subtract the `read` mode (the file read alone).
//!
//! `cargo run --release -p gamewire-resonite --example reader_counts -- make FILE [SLOTS]`
//! writes a stored FrDT data tree (`synth::data_tree(SLOTS, 8, 7)`, 1,000 slots by
//! default, about 1.9 MB of BSON); then `-- MODE FILE` with MODE one of `read`, `owned`
//! (tree built and dropped), `owned-arena` (the same in an arena), `decode` (the whole
//! `gamewire_resonite::decode` call front ends make, its result dropped), `decode-encode`
//! and `decode-json` (`decode`, then its document written back to BSON or to JSON text:
//! subtract `decode`), `encode` (`owned`,
//! then the tree written back to BSON: subtract `owned`), `check` (the view's check), `view-walk` (check, then every
//! element touched), `json-owned`, `json-view`, `inspect`, `bson` (the `bson` crate's
//! `RawDocument` walk).

use bson::RawDocument;
use gamewire_core::inspect::TreeBuilder;
use gamewire_resonite::bson_view::BsonView;
use gamewire_resonite::json_view::{DocumentRefView, DocumentView};
use gamewire_resonite::{
    container, inspect, read_bson, synth, Compression, EncodeOptions, Options,
};
use std::hint::black_box;
use std::io::Write;

#[path = "../benches/common/bson_walk.rs"]
mod bson_walk;
use bson_walk::raw_walk;
#[path = "../benches/common/view_walk.rs"]
mod view_walk;
use view_walk::view_walk;

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, path) = (args[0].as_str(), &args[1]);
    if mode == "make" {
        let slots = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1_000);
        let doc = synth::data_tree(slots, 8, 7);
        let file = gamewire_resonite::encode(&doc, &EncodeOptions::new(Compression::None)).unwrap();
        std::fs::write(path, file).unwrap();
        return;
    }
    let file = std::fs::read(path).unwrap();
    let opts = Options::default();
    let (_, bson) = container::unpack(&file, None, &opts).unwrap();
    let n = match mode {
        "read" => bson.len(),
        "owned" => read_bson(black_box(&bson), &opts).unwrap().len(),
        "owned-arena" => {
            let arena = gamewire_resonite::Arena::new();
            gamewire_resonite::read_bson_in(black_box(&bson), &arena, &opts)
                .unwrap()
                .len()
        }
        "decode" => gamewire_resonite::decode(black_box(&file), None, &opts)
            .unwrap()
            .document()
            .len(),
        "decode-encode" => {
            let d = gamewire_resonite::decode(black_box(&file), None, &opts).unwrap();
            gamewire_resonite::bson_write::to_vec(black_box(d.document()), 1024)
                .unwrap()
                .len()
        }
        "decode-json" => {
            let d = gamewire_resonite::decode(black_box(&file), None, &opts).unwrap();
            let mut w = std::io::BufWriter::new(Count(0));
            serde_json::to_writer(&mut w, &DocumentView::new(d.document())).unwrap();
            w.into_inner().ok().unwrap().0
        }
        "check" => usize::from(
            BsonView::new(black_box(&bson), &opts)
                .unwrap()
                .root()
                .is_empty(),
        ),
        "view-walk" => view_walk(BsonView::new(black_box(&bson), &opts).unwrap().root()),
        "encode" => {
            let doc = read_bson(black_box(&bson), &opts).unwrap();
            gamewire_resonite::bson_write::to_vec(black_box(&doc), 1024)
                .unwrap()
                .len()
        }
        "json-owned" => {
            let doc = read_bson(black_box(&bson), &opts).unwrap();
            let mut w = std::io::BufWriter::new(Count(0));
            serde_json::to_writer(&mut w, &DocumentView::new(&doc)).unwrap();
            w.into_inner().ok().unwrap().0
        }
        "json-view" => {
            let v = BsonView::new(black_box(&bson), &opts).unwrap();
            let mut w = std::io::BufWriter::new(Count(0));
            serde_json::to_writer(&mut w, &DocumentRefView::new(v.root())).unwrap();
            w.into_inner().ok().unwrap().0
        }
        "inspect" => {
            let mut t = TreeBuilder::new(20);
            inspect::fill(black_box(&file), None, &mut t).unwrap();
            t.finish().len()
        }
        "bson" => raw_walk(RawDocument::from_bytes(black_box(&bson)).unwrap()),
        other => panic!("unknown mode {other}"),
    };
    println!("{mode}: {n}");
}
