//! Real engine-written files from public repositories (`tests/fixtures/resonite/real`,
//! sources and licences in its `SOURCES.md`): they decode; the compression agrees with
//! the extension; the BSON re-encodes byte for byte; re-compressing gives the same tree;
//! the borrowed view agrees with the owned tree, and so do the tree read into an arena
//! and the `bson` crate's reading of the same bytes (an independent reader); `decode`
//! reads into the arena it returns; and a few values checked by hand.

use gamewire_resonite::bson_view::{BsonView, DocumentRef, FileView, ValueRef};
use gamewire_resonite::tree::DataTree;
use gamewire_resonite::{
    bson_write, container, decode, encode, read_bson, Compression, Document, EncodeOptions,
    Framing, Options, Seq, Value,
};
use std::path::PathBuf;

mod common;

/// What each file holds, checked by hand (see `SOURCES.md`).
struct Expected {
    name: &'static str,
    /// `None`: raw BSON, no container.
    compression: Option<Compression>,
    /// FrDT header or legacy (containers only; not looked at for raw BSON).
    framing: Framing,
    bson_len: usize,
    slots: usize,
    components: usize,
    assets: usize,
    root_slot: &'static str,
    /// One more value per file.
    check: fn(&DataTree<'_, '_>),
}

const EXPECTED: &[Expected] = &[
    Expected {
        name: "neos-holder.7zbson",
        compression: Some(Compression::Lzma),
        framing: Framing::Legacy,
        bson_len: 111_579,
        slots: 19,
        components: 44,
        assets: 27,
        root_slot: "Holder",
        check: |t| {
            // No VersionNumber nor Types table in this Neos file: types are names.
            assert_eq!(t.version_number(), None);
            assert!(t.types().is_empty());
            let root = t.object().unwrap();
            assert_eq!(root.id(), Some("79101779-a5cd-486a-8b61-836bfbaa723b"));
            let first = &root.components()[0];
            assert_eq!(
                t.type_name(first).as_deref(),
                Some("FrooxEngine.GrabbableReparentBlock")
            );
            // TypeVersions are int64 here
            let tv = t.root.get("TypeVersions").unwrap().as_document().unwrap();
            assert!(matches!(
                tv.get("FrooxEngine.TextRenderer"),
                Some(Value::Int64(5))
            ));
        },
    },
    Expected {
        name: "resonite-lut.bson",
        compression: None,
        framing: Framing::Legacy,
        bson_len: 55_841,
        slots: 5,
        components: 20,
        assets: 25,
        root_slot: "LUT",
        check: |t| {
            assert_eq!(t.version_number(), Some("2026.7.7.829"));
            assert_eq!(t.feature_flags().len(), 10);
            let types = t.types();
            assert_eq!(types[0], "[FrooxEngine]FrooxEngine.MeshRenderer");
            // components name their type by index into Types
            let root = t.object().unwrap();
            let c = &root.components()[0];
            assert!(matches!(
                c.type_value,
                Some(Value::Int32(_) | Value::Int64(_))
            ));
            assert!(t.type_name(c).is_some());
        },
    },
    Expected {
        name: "resonite-avatar-root-id.brson",
        compression: Some(Compression::Brotli),
        framing: Framing::FrDT { version: 0 },
        bson_len: 26_589,
        slots: 13,
        components: 29,
        assets: 0,
        root_slot: "Avatar Root Identification",
        check: |t| {
            assert_eq!(t.version_number(), Some("2026.6.12.557"));
            assert_eq!(t.feature_flags().len(), 10);
            let types = t.types();
            assert_eq!(types.len(), 20);
            assert_eq!(
                types[0],
                "[FrooxEngine]FrooxEngine.DynamicValueVariable<bool>"
            );
        },
    },
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/resonite/real")
}

/// A document's BSON bytes (a NaN then equals itself, bit for bit).
fn bytes_of(d: &Document<'_>) -> Vec<u8> {
    bson_write::to_vec(d, 1024).unwrap()
}

/// The view, walked through its own iterators and accessors, matches the owned value.
fn same(v: ValueRef<'_>, o: &Value<'_>, path: &str) {
    assert_eq!(v.element_type(), o.element_type(), "{path}");
    match o {
        Value::Document(d) => same_doc(v.as_document().unwrap(), d, path),
        Value::Array(a) => {
            let av = v.as_array().unwrap();
            assert_eq!(av.len(), a.len(), "{path}");
            assert_eq!(av.iter().count(), a.len(), "{path}");
            for (i, (x, y)) in av.iter().zip(a).enumerate() {
                same(x, y, &format!("{path}/{i}"));
            }
        }
        leaf => {
            assert_eq!(v.as_str(), leaf.as_str(), "{path}");
            assert_eq!(v.as_i64(), leaf.as_i64(), "{path}");
            assert_eq!(
                v.as_f64().map(f64::to_bits),
                leaf.as_f64().map(f64::to_bits),
                "{path}"
            );
            assert_eq!(v.as_bool(), leaf.as_bool(), "{path}");
        }
    }
}

fn same_doc(v: DocumentRef<'_>, d: &Document<'_>, path: &str) {
    assert_eq!(v.len(), d.len(), "{path}");
    assert_eq!(v.iter().count(), d.len(), "{path}");
    for ((k, x), (ko, y)) in v.iter().zip(&d.entries) {
        assert_eq!(k, ko.as_ref(), "{path}");
        same(x, y, &format!("{path}/{k}"));
    }
}

/// Everything asserted of one file: its BSON (decompressed), and the owned tree.
fn check_tree(e: &Expected, bson: &[u8], doc: &Document<'_>) {
    assert_eq!(bson.len(), e.bson_len, "{}", e.name);
    // the decoded tree re-encodes to the very bytes
    assert!(bytes_of(doc) == bson, "{}: re-encoded BSON differs", e.name);
    // an independent reader (the `bson` crate) reads the same document from the bytes
    let theirs = common::bson_crate(bson).unwrap();
    assert!(
        common::same_values(&Value::Document(theirs), &Value::Document(doc.clone())),
        "{}: the bson crate reads another document",
        e.name
    );
    // the tree read into an arena is the same tree
    let arena = gamewire_resonite::Arena::new();
    let in_arena = gamewire_resonite::read_bson_in(bson, &arena, &Options::default()).unwrap();
    assert!(
        common::same_values(&Value::Document(in_arena), &Value::Document(doc.clone())),
        "{}: the arena tree differs",
        e.name
    );
    // the borrowed view agrees with the owned tree
    let view = BsonView::new(bson, &Options::default()).unwrap();
    same_doc(view.root(), doc, e.name);
    assert!(bytes_of(&view.root().to_document().unwrap()) == bson);
    // hand-checked values
    let t = DataTree::new(doc);
    assert_eq!(t.slots().len(), e.slots, "{}: slots", e.name);
    let comps: usize = t.slots().iter().map(|(_, s)| s.components().len()).sum();
    assert_eq!(comps, e.components, "{}: components", e.name);
    assert_eq!(t.assets().len(), e.assets, "{}: assets", e.name);
    assert_eq!(t.object().unwrap().name(), Some(e.root_slot), "{}", e.name);
    (e.check)(&t);
}

/// Re-compresses with every compression, with and without a header, and decodes again.
fn recompress(e: &Expected, doc: &Document<'_>) {
    let want = bytes_of(doc);
    for c in [Compression::Lz4, Compression::Lzma, Compression::Brotli] {
        for legacy in [false, true] {
            let opts = EncodeOptions {
                legacy,
                ..EncodeOptions::new(c)
            };
            let file = encode(doc, &opts).unwrap();
            let name = format!("again.{}", c.extension());
            let back = decode(&file, Some(&name), &Options::default()).unwrap();
            assert_eq!(back.container.compression, c);
            assert!(
                bytes_of(back.document()) == want,
                "{}: {c} legacy={legacy} differs",
                e.name
            );
        }
    }
}

#[test]
fn real_files_decode_and_round_trip() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "SOURCES.md")
        .collect();
    names.sort();
    let mut listed: Vec<&str> = EXPECTED.iter().map(|e| e.name).collect();
    listed.sort();
    assert_eq!(
        names, listed,
        "every file in real/ is listed here, and only those"
    );
    assert_eq!(names.len(), 3);

    let opts = Options::default();
    for e in EXPECTED {
        let data = std::fs::read(dir().join(e.name)).unwrap();
        match e.compression {
            Some(c) => {
                // the extension names the compression that the file has
                assert_eq!(Compression::from_file_name(e.name), Some(c), "{}", e.name);
                let d = decode(&data, Some(e.name), &opts).unwrap();
                assert_eq!(d.container.compression, c, "{}", e.name);
                assert_eq!(d.container.framing, e.framing, "{}", e.name);
                // without the name, sniffing finds the same (as `gamewire inspect` does)
                let sniffed = decode(&data, None, &opts).unwrap();
                assert_eq!(sniffed.container, d.container, "{}", e.name);
                assert!(gamewire_resonite::sniff(&data, None), "{}", e.name);

                let (_, bson) = container::unpack(&data, Some(e.name), &opts).unwrap();
                check_tree(e, &bson, d.document());

                // the file view: same container, same BSON
                let fv = FileView::open(&data, Some(e.name), &opts).unwrap();
                assert_eq!(*fv.container(), d.container);
                assert!(fv.bson() == &bson[..]);
                same_doc(fv.root(), d.document(), e.name);

                recompress(e, d.document());
            }
            None => {
                let doc = read_bson(&data, &opts).unwrap();
                check_tree(e, &data, &doc);
                recompress(e, &doc);
            }
        }
    }
}

/// Every member the data model types ([`gamewire_resonite::fields::declared`]) in the
/// real files holds a value of that type's shape as the engine wrote it: a `float3` an
/// array of three doubles, a `floatQ` of four, a `long` an int64, an `int` an int32, a
/// `bool` a boolean (an integer an int32 or, as Neos wrote some, an int64); and every
/// such member is found (slots' transforms, components' `UpdateOrder`).
#[test]
fn declared_types_fit_what_the_engine_wrote() {
    use gamewire_resonite::fields::{declared, BsonNumber};
    use gamewire_resonite::tree::{Prim, TreeType};
    use serde_json::Value as Json;

    fn walk(data: &Json, v: &Json, toks: &mut Vec<String>, seen: &mut Vec<String>) {
        if let Some(t) = declared(data, toks) {
            let where_ = format!("/{}", toks.join("/"));
            // An integer may be an int64 where the engine wrote int32 (Neos wrote
            // `UpdateOrder` so): the engine reads either into a `long` and converts.
            let prim_fits = |p: Prim, x: &Json| match p {
                Prim::Bool => x.is_boolean(),
                Prim::Float | Prim::Double => BsonNumber::of(x) == Some(BsonNumber::Double),
                _ => matches!(
                    BsonNumber::of(x),
                    Some(BsonNumber::Int32 | BsonNumber::Int64)
                ),
            };
            let fits = match &t {
                TreeType::Scalar(p) => prim_fits(*p, v),
                TreeType::String => v.is_string() || v.is_null(),
                TreeType::Nullable(_) if v.is_null() => true,
                t => match (t.components(), v.as_array()) {
                    (Some(parts), Some(_)) => parts
                        .iter()
                        .all(|p| v.pointer(&p.pointer).is_some_and(|x| prim_fits(p.prim, x))),
                    _ => true,
                },
            };
            assert!(fits, "{where_}: {v} is no {}", t.name());
            seen.push(t.name());
        }
        let kids: Vec<(String, &Json)> = match v {
            Json::Object(m) => m.iter().map(|(k, c)| (k.clone(), c)).collect(),
            Json::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, c)| (i.to_string(), c))
                .collect(),
            _ => Vec::new(),
        };
        for (k, c) in kids {
            toks.push(k);
            walk(data, c, toks, seen);
            toks.pop();
        }
    }

    let opts = Options::default();
    for e in EXPECTED {
        let data = std::fs::read(dir().join(e.name)).unwrap();
        let doc = match e.compression {
            Some(_) => decode(&data, Some(e.name), &opts).unwrap().into_document(),
            None => read_bson(&data, &opts).unwrap(),
        };
        let json = gamewire_resonite::json::document_to_json(&doc, 4096).unwrap();
        let mut seen = Vec::new();
        walk(&json, &json, &mut Vec::new(), &mut seen);
        let count = |n: &str| seen.iter().filter(|s| *s == n).count();
        assert_eq!(
            count("floatQ"),
            e.slots,
            "{}: every slot's Rotation",
            e.name
        );
        assert!(
            count("float3") >= 2 * e.slots,
            "{}: every slot's Position and Scale",
            e.name
        );
        assert_eq!(
            count("int"),
            e.components + e.assets,
            "{}: every component's UpdateOrder",
            e.name
        );
    }
}

/// The containers of `doc` that are not in an arena (`Seq::Owned`), counted; and every
/// document and array counted in `all`.
fn owned_containers(doc: &Document<'_>, all: &mut usize) -> usize {
    fn value(v: &Value<'_>, all: &mut usize) -> usize {
        match v {
            Value::Document(d) => owned_containers(d, all),
            Value::Array(items) => {
                *all += 1;
                let here = usize::from(matches!(items, Seq::Owned(_)));
                here + items.iter().map(|v| value(v, all)).sum::<usize>()
            }
            _ => 0,
        }
    }
    *all += 1;
    let here = usize::from(matches!(doc.entries, Seq::Owned(_)));
    here + doc
        .entries
        .iter()
        .map(|(_, v)| value(v, all))
        .sum::<usize>()
}

/// `decode`, what every front end calls, reads the tree into the arena the `Decoded`
/// owns (every document and array a borrowed slice), the same tree `read_bson` reads
/// with a vector per container, from the same BSON bytes, which it keeps; in every
/// compression and stored (compression none, the BSON taken as it is).
#[test]
fn decode_reads_real_files_into_its_arena() {
    let opts = Options::default();
    for e in EXPECTED {
        let data = std::fs::read(dir().join(e.name)).unwrap();
        let bson = match e.compression {
            Some(_) => container::unpack(&data, Some(e.name), &opts)
                .unwrap()
                .1
                .into_owned(),
            None => data,
        };
        let vectors = read_bson(&bson, &opts).unwrap();
        for c in [
            Compression::None,
            Compression::Lz4,
            Compression::Lzma,
            Compression::Brotli,
        ] {
            let file = container::pack(&bson, c, false, &EncodeOptions::new(c)).unwrap();
            let d = decode(&file, None, &opts).unwrap();
            assert_eq!(d.container.compression, c, "{}", e.name);
            let mut all = 0;
            assert_eq!(
                owned_containers(d.document(), &mut all),
                0,
                "{} ({c}): a container outside the arena",
                e.name
            );
            assert!(all > 100, "{}: {all} containers", e.name);
            assert!(d.arena_bytes() > 0, "{}", e.name);
            assert!(d.bson() == Some(&bson[..]), "{} ({c})", e.name);
            assert_eq!(*d.document(), vectors, "{} ({c})", e.name);
            // the vectors' tree is owned everywhere: the check can fail
            let mut all_v = 0;
            assert_eq!(owned_containers(&vectors, &mut all_v), all, "{}", e.name);
        }
    }
}
