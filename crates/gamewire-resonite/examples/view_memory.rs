//! Peak memory and time of one file to JSON text (as `gamewire resonite decode` does
//! it), or to the `inspect` tree (20 items a level), through the owned tree (`owned`,
//! `inspect-owned`) or through the borrowed view (`view`, `inspect-view`), once in a
//! fresh process as the CLI runs. Measure with `/usr/bin/time -f %M`:
//!
//! ```text
//! cargo run --release -p gamewire-resonite --example view_memory -- make /tmp/t.frdt 20000
//! /usr/bin/time -f %M target/release/examples/view_memory owned /tmp/t.frdt
//! /usr/bin/time -f %M target/release/examples/view_memory view /tmp/t.frdt
//! ```

use gamewire_resonite::bson_view::FileView;
use gamewire_resonite::json_view::{DocumentRefView, DocumentView};
use gamewire_resonite::{container, read_unpacked, synth, Compression, EncodeOptions, Options};
use std::io::Write;

/// Counts the bytes written.
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
    let args: Vec<String> = std::env::args().collect();
    let (mode, path) = (args[1].as_str(), &args[2]);
    let opts = Options::default();
    let mut w = std::io::BufWriter::new(Count(0));
    match mode {
        "make" => {
            let slots = args.get(3).map_or(20_000, |s| s.parse().unwrap());
            let doc = synth::data_tree(slots, 8, 7);
            let file = gamewire_resonite::encode(&doc, &EncodeOptions::new(Compression::Lz4));
            std::fs::write(path, file.unwrap()).unwrap();
            return;
        }
        "inspect-owned" | "inspect-view" => {
            let file = std::fs::read(path).unwrap();
            let mut t = gamewire_core::inspect::TreeBuilder::new(20);
            if mode == "inspect-owned" {
                // the whole tree read, then shown from the document
                let (c, bson) = container::unpack(&file, None, &opts).unwrap();
                let doc = read_unpacked(file.len(), &c, &bson, &opts).unwrap();
                gamewire_resonite::inspect::add_document(&mut t, "root", &doc, 0);
            } else {
                gamewire_resonite::inspect::fill(&file, None, &mut t).unwrap();
            }
            let text = gamewire_core::inspect::render_text(&t.finish());
            println!("{} bytes of tree", text.len());
            return;
        }
        "owned" => {
            let file = std::fs::read(path).unwrap();
            let (c, bson) = container::unpack(&file, None, &opts).unwrap();
            let doc = read_unpacked(file.len(), &c, &bson, &opts).unwrap();
            serde_json::to_writer(&mut w, &DocumentView::new(&doc)).unwrap();
        }
        _ => {
            let file = std::fs::read(path).unwrap();
            let v = FileView::open(&file, None, &opts).unwrap();
            serde_json::to_writer(&mut w, &DocumentRefView::new(v.root())).unwrap();
        }
    }
    println!("{} bytes of JSON", w.into_inner().ok().unwrap().0);
}
