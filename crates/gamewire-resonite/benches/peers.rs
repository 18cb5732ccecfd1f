//! gamewire beside `frdt` (crates.io), the other Rust reader of Resonite FrDT files, on
//! the same Brotli `.brson` file: a synthetic data tree of about 10 MB of BSON in
//! Resonite's shape (slots with children and components).
//!
//! Three jobs a tool does: open the file, summarise it (slot and component counts, the
//! type table), and list every slot with its id, name and parent.
//!
//! Each job is done twice by gamewire: through the owned tree (`read_bson` +
//! `DataTree`) and through the borrowed view (`bson_view::FileView`, no tree).
//!
//! Then the `bson` crate's raw reader on the same decompressed BSON: walk every element
//! (`bson::RawDocument` iteration) against the same walk over our view, and against our
//! owned decode (tree built and dropped), each container in its own vector (`read_bson`)
//! or all in one arena (`read_bson_in`, the arena made and dropped each time), and
//! against `decode`, the whole call every front end makes (`gamewire::open`'s value,
//! the contract, Python), on the same BSON stored in a FrDT container (compression
//! none) and its result dropped. The "open" group times `decode` of the Brotli file too.
//!
//! Run: `cargo bench -p gamewire-resonite --bench peers`.

use bson::RawDocument;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_resonite::bson_view::{BsonView, DocumentRef, FileView, ValueRef};
use gamewire_resonite::tree::DataTree;
use gamewire_resonite::{
    container, decode, read_bson, read_bson_in, synth, Arena, Compression, EncodeOptions, Options,
};

#[path = "common/bson_walk.rs"]
mod bson_walk;
use bson_walk::raw_walk;
#[path = "common/view_walk.rs"]
mod view_walk;
use view_walk::view_walk;

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

/// A synced member's `Data` (`{"ID", "Data"}`), or the member itself.
fn member<'a>(slot: DocumentRef<'a>, name: &str) -> Option<ValueRef<'a>> {
    let v = slot.get(name)?;
    match v {
        ValueRef::Document(d) if d.get("ID").is_some() => d.get("Data"),
        v => Some(v),
    }
}

/// gamewire's view: the slots from `Object` down through `Children`, each visited
/// with `f`.
fn view_slots(root: DocumentRef<'_>, mut f: impl FnMut(DocumentRef<'_>)) {
    let mut stack: Vec<DocumentRef<'_>> = root
        .get("Object")
        .and_then(|o| o.as_document())
        .into_iter()
        .collect();
    while let Some(s) = stack.pop() {
        f(s);
        if let Some(children) = s.get("Children").and_then(|c| c.as_array()) {
            stack.extend(children.iter().filter_map(|c| c.as_document()));
        }
    }
}

/// gamewire's view: every slot's (id, name, parent reference).
fn view_slot_list(file: &[u8], opts: &Options) -> usize {
    let view = FileView::open(file, None, opts).unwrap();
    let mut n = 0;
    view_slots(view.root(), |s| {
        n += s.get("ID").and_then(|v| v.as_str()).map_or(0, str::len)
            + member(s, "Name")
                .and_then(|v| v.as_str())
                .map_or(0, str::len)
            + member(s, "ParentReference")
                .and_then(|v| v.as_str())
                .map_or(0, str::len);
    });
    n
}

/// gamewire's view: slot and component counts and the type table's length.
fn view_summary(file: &[u8], opts: &Options) -> (usize, usize, usize) {
    let view = FileView::open(file, None, opts).unwrap();
    let root = view.root();
    let (mut slots, mut components) = (0, 0);
    view_slots(root, |s| {
        slots += 1;
        components += member(s, "Components")
            .and_then(|c| c.as_array())
            .map_or(0, |a| a.len());
    });
    let types = root
        .get("Types")
        .and_then(|t| t.as_array())
        .map_or(0, |a| a.len());
    (slots, components, types)
}

/// `bson` in a FrDT container with no compression: the header, then the BSON as it is.
fn stored_frdt(bson: &[u8]) -> Vec<u8> {
    let file = container::pack(bson, Compression::None, false, &EncodeOptions::default()).unwrap();
    assert_eq!(&file[file.len() - bson.len()..], bson);
    file
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

    assert_eq!(view_slot_list(&file, &opts), our_slots(&file, &opts));
    assert_eq!(view_summary(&file, &opts), our_summary(&file, &opts));

    let mut g = c.benchmark_group("resonite brson");
    g.throughput(Throughput::Bytes(ours.len() as u64));
    g.sample_size(20);
    g.bench_function("open: gamewire (unpack, BSON tree)", |b| {
        b.iter(|| {
            let (_, bson) = container::unpack(black_box(&file), None, &opts).unwrap();
            read_bson(&bson, &opts).unwrap().len()
        })
    });
    g.bench_function("open: gamewire decode (what front ends call)", |b| {
        b.iter(|| {
            decode(black_box(&file), None, &opts)
                .unwrap()
                .document()
                .len()
        })
    });
    g.bench_function("open: gamewire view (unpack, checked view)", |b| {
        b.iter(|| {
            FileView::open(black_box(&file), None, &opts)
                .unwrap()
                .root()
                .is_empty()
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
    g.bench_function("summary: gamewire view", |b| {
        b.iter(|| view_summary(black_box(&file), &opts))
    });
    g.bench_function("summary: frdt (summarize)", |b| {
        b.iter(|| frdt::summarize(black_box(&file)).unwrap().slot_count)
    });
    g.bench_function("list slots: gamewire", |b| {
        b.iter(|| our_slots(black_box(&file), &opts))
    });
    g.bench_function("list slots: gamewire view", |b| {
        b.iter(|| view_slot_list(black_box(&file), &opts))
    });
    g.bench_function("list slots: frdt", |b| {
        b.iter(|| frdt_slots(black_box(&file)))
    });
    g.finish();

    // The decompressed BSON, walked element by element.
    let bson = ours.into_owned();
    let stored = stored_frdt(&bson);
    let raw = RawDocument::from_bytes(&bson).unwrap();
    let view = BsonView::new(&bson, &opts).unwrap();
    assert_eq!(raw_walk(raw), view_walk(view.root()), "the same walk");
    let mut g = c.benchmark_group("resonite bson walk");
    g.throughput(Throughput::Bytes(bson.len() as u64));
    g.sample_size(20);
    g.bench_function("bson crate: RawDocument walk", |b| {
        b.iter(|| raw_walk(RawDocument::from_bytes(black_box(&bson)).unwrap()))
    });
    g.bench_function("gamewire decode: stored FrDT (what front ends call)", |b| {
        b.iter(|| {
            decode(black_box(&stored), None, &opts)
                .unwrap()
                .document()
                .len()
        })
    });
    g.bench_function("gamewire view: check + walk", |b| {
        b.iter(|| view_walk(BsonView::new(black_box(&bson), &opts).unwrap().root()))
    });
    g.bench_function("gamewire view: check only", |b| {
        b.iter(|| {
            BsonView::new(black_box(&bson), &opts)
                .unwrap()
                .root()
                .is_empty()
        })
    });
    g.bench_function("gamewire owned: read_bson (tree built and dropped)", |b| {
        b.iter(|| read_bson(black_box(&bson), &opts).unwrap().len())
    });
    g.bench_function(
        "gamewire owned: read_bson_in (arena made, tree built, both dropped)",
        |b| {
            b.iter(|| {
                let arena = Arena::new();
                read_bson_in(black_box(&bson), &arena, &opts).unwrap().len()
            })
        },
    );
    g.finish();
}

criterion_group!(benches, peers);
criterion_main!(benches);
