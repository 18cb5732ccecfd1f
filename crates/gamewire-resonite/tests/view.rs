//! The one walk of the BSON grammar (`walk`) against the `bson` crate, an independent
//! reader, on random documents and on mutated, truncated and arbitrary bytes; and its
//! two sinks that read (the owned tree and the borrowed view's check) giving the same
//! document or the same error (offset, path and message), on those and on every sample
//! file.

use gamewire_resonite::bson_view::{BsonView, DocumentRef, FileView, ValueRef};
use gamewire_resonite::json_view::{DocumentRefView, DocumentView};
use gamewire_resonite::value::{CodeWithScope, DbPointer};
use gamewire_resonite::{
    container, decode, encode, read_bson, Arena, Compression, Document, EncodeOptions, Options,
    Seq, Value,
};
use proptest::prelude::*;

mod common;
use common::{bson_crate, bytes_of, common_leaf, document_of, json_texts, samples, value_of};

use std::borrow::Cow;

/// Any value, DBPointers among the leaves.
fn value() -> impl Strategy<Value = Value<'static>> {
    value_of(prop_oneof![
        17 => common_leaf(),
        1 => ("[a-z.]{0,6}", any::<[u8; 12]>()).prop_map(|(n, id)| Value::DbPointer(Box::new(
            DbPointer {
                namespace: n.into(),
                id
            }
        ))),
    ])
}

/// The owned model rebuilt from the view through its own iterators and accessors only
/// (never through the owned reader), so that the comparison tests the view.
fn from_view<'a>(d: DocumentRef<'a>) -> Document<'a> {
    Document {
        entries: d
            .iter()
            .map(|(k, v)| (Cow::Borrowed(k), value_from_view(v)))
            .collect(),
    }
}

fn value_from_view<'a>(v: ValueRef<'a>) -> Value<'a> {
    match v {
        ValueRef::Document(d) => Value::Document(from_view(d)),
        ValueRef::Array(a) => {
            assert_eq!(a.len(), a.iter().count());
            Value::Array(a.iter().map(value_from_view).collect())
        }
        ValueRef::JavaScriptWithScope { code, scope } => {
            Value::JavaScriptWithScope(Box::new(CodeWithScope {
                code: code.into(),
                scope: from_view(scope),
            }))
        }
        leaf => leaf.to_value().unwrap(),
    }
}

/// The accessors answer as the owned value's do.
fn same_accessors(v: ValueRef<'_>, o: &Value<'_>) {
    assert_eq!(v.element_type(), o.element_type());
    assert_eq!(v.type_name(), o.type_name());
    assert_eq!(v.as_str(), o.as_str());
    assert_eq!(v.as_i64(), o.as_i64());
    assert_eq!(v.as_f64().map(f64::to_bits), o.as_f64().map(f64::to_bits));
    assert_eq!(v.as_bool(), o.as_bool());
    assert_eq!(v.is_null(), matches!(o, Value::Null));
    if let Value::Document(d) = o {
        let dv = v.as_document().unwrap();
        assert_eq!(dv.len(), d.len());
        assert!(dv.keys().eq(d.entries.iter().map(|(k, _)| k.as_ref())));
        for (k, x) in &d.entries {
            // `get` finds the first entry under a key, as Document::get does
            same_accessors(dv.get(k).unwrap(), d.get(k).unwrap());
            let _ = x;
        }
    }
    if let Value::Array(a) = o {
        let av = v.as_array().unwrap();
        assert_eq!(av.len(), a.len());
        for (i, x) in a.iter().enumerate() {
            same_accessors(av.get(i).unwrap(), x);
        }
        assert_eq!(av.get(a.len()), None);
    }
}

/// True when `v` owns heap memory (so that it must not be in an arena slice).
fn owns_memory(v: &Value<'_>) -> bool {
    match v {
        Value::String(s) | Value::JavaScript(s) | Value::Symbol(s) => matches!(s, Cow::Owned(_)),
        Value::Binary { bytes, .. } => matches!(bytes, Cow::Owned(_)),
        Value::Regex(_) | Value::DbPointer(_) | Value::JavaScriptWithScope(_) => true,
        Value::Document(d) => match &d.entries {
            Seq::Owned(_) => true,
            Seq::Borrowed(e) => e
                .iter()
                .any(|(k, v)| matches!(k, Cow::Owned(_)) || owns_memory(v)),
        },
        Value::Array(a) => match a {
            Seq::Owned(_) => true,
            Seq::Borrowed(items) => items.iter().any(owns_memory),
        },
        _ => false,
    }
}

/// In a tree read into an arena, every container is in the arena (borrowed) unless it
/// holds, at any depth, a value that owns memory (the boxed rare types); and nothing in
/// the arena owns memory, so that nothing leaks when it is dropped.
fn arena_holds_nothing_owned(doc: &Document<'_>) {
    fn boxed_inside(v: &Value<'_>) -> bool {
        match v {
            Value::Regex(_) | Value::DbPointer(_) | Value::JavaScriptWithScope(_) => true,
            Value::Document(d) => d.entries.iter().any(|(_, v)| boxed_inside(v)),
            Value::Array(a) => a.iter().any(boxed_inside),
            _ => false,
        }
    }
    fn check(v: &Value<'_>) {
        let borrowed = match v {
            Value::Document(d) => {
                d.entries.iter().for_each(|(_, v)| check(v));
                matches!(d.entries, Seq::Borrowed(_))
            }
            Value::Array(a) => {
                a.iter().for_each(check);
                matches!(a, Seq::Borrowed(_))
            }
            Value::JavaScriptWithScope(c) => {
                c.scope.entries.iter().for_each(|(_, v)| check(v));
                return;
            }
            _ => return,
        };
        assert_eq!(borrowed, !boxed_inside(v), "{v:?}");
        if borrowed {
            assert!(!owns_memory(v), "{v:?}");
        }
    }
    check(&Value::Document(doc.clone()));
}

/// Where the walk refuses what the `bson` crate reads: the depth limit (the crate has
/// none).
fn stricter(e: &str) -> bool {
    e.contains("nesting")
}

/// Where the walk reads what the `bson` crate refuses: binary data of the old subtype
/// 0x02 whose inner length disagrees with its outer one (the walk keeps the bytes as
/// they are, so that they are written back unchanged).
fn laxer(e: &str) -> bool {
    e.contains("old binary subtype")
}

/// The one walk of `bson` against the `bson` crate, an independent reader: what the
/// walk accepts, the crate reads as the same document (compared as bytes, so that a NaN
/// equals itself bit for bit); what the crate refuses, the walk refuses. The owned
/// tree and the view are two sinks of that walk: the same verdict and error text, and
/// the view's reads in place give the same document back.
fn agree(bson: &[u8], base: usize, max_depth: usize) {
    let owned = gamewire_resonite::bson_read::read_document(bson, base, max_depth);
    let view = BsonView::with_base(bson, base, max_depth);
    // the tree read into an arena: the same tree or the same error, and its arena holds
    // nothing that owns memory (it runs no destructors)
    let arena = Arena::new();
    match (
        gamewire_resonite::bson_read::read_document_in(bson, &arena, base, max_depth),
        &owned,
    ) {
        (Ok(a), Ok(d)) => {
            assert!(bytes_of(&a) == bytes_of(d), "arena tree != owned tree");
            arena_holds_nothing_owned(&a);
        }
        (Err(a), Err(d)) => assert_eq!(a.to_string(), d.to_string()),
        (a, d) => panic!(
            "the arena read and the owned read disagree: {:?} {:?}",
            a.map(|_| ()),
            d.as_ref().map(|_| ())
        ),
    }
    match (&owned, bson_crate(bson)) {
        (Ok(d), Ok(e)) => assert!(bytes_of(d) == bytes_of(&e), "walk != bson crate"),
        (Ok(_), Err(e)) => assert!(
            laxer(&e),
            "the walk accepts {} bytes the bson crate refuses: {e}",
            bson.len()
        ),
        (Err(ours), Ok(_)) => assert!(
            stricter(&ours.to_string()),
            "the walk refuses {} bytes the bson crate reads: {ours}",
            bson.len()
        ),
        (Err(_), Err(_)) => {}
    }
    match (owned, view) {
        (Ok(d), Ok(v)) => {
            let root = v.root();
            assert!(bytes_of(&from_view(root)) == bytes_of(&d), "view != owned");
            assert!(bytes_of(&root.to_document().unwrap()) == bytes_of(&d));
            if bson.len() < 4096 {
                same_accessors(ValueRef::Document(root), &Value::Document(d));
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!(
            "disagree on {} bytes: owned {:?}, view {:?}",
            bson.len(),
            a.map(|_| ()),
            b.map(|_| ())
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_walk_reads_random_documents_as_the_bson_crate_does(doc in document_of(value())) {
        let b = bytes_of(&doc);
        agree(&b, 0, 1024);
        let v = BsonView::new(&b, &Options::default()).unwrap();
        prop_assert!(bytes_of(&from_view(v.root())) == b);
        // JSON written from the view is the owned tree's JSON, byte for byte
        prop_assert_eq!(json_texts(&DocumentRefView::new(v.root())), json_texts(&DocumentView::new(&doc)));
    }

    #[test]
    fn the_walk_and_the_bson_crate_agree_on_mutated_bytes(
        doc in document_of(value()),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut b = bytes_of(&doc);
        for (i, byte) in edits {
            let i = i.index(b.len());
            b[i] = byte;
        }
        agree(&b, 0, 1024);
        agree(&b, 7, 3);
    }

    #[test]
    fn the_walk_and_the_bson_crate_agree_on_truncated_and_extended_bytes(
        doc in document_of(value()),
        cut in any::<prop::sample::Index>(),
        tail in proptest::collection::vec(any::<u8>(), 0..3),
    ) {
        let b = bytes_of(&doc);
        agree(&b[..cut.index(b.len())], 0, 1024);
        let mut longer = b.clone();
        longer.extend_from_slice(&tail);
        agree(&longer, 0, 1024);
    }

    #[test]
    fn the_walk_and_the_bson_crate_agree_on_arbitrary_bytes(
        mut b in proptest::collection::vec(any::<u8>(), 5..64),
        types in proptest::collection::vec(prop_oneof![0x01u8..=0x13, Just(0x7f), Just(0xff)], 0..4),
    ) {
        // a plausible length prefix and type bytes, so the walk gets past the start
        let n = b.len() as i32;
        b[..4].copy_from_slice(&n.to_le_bytes());
        for (i, t) in types.into_iter().enumerate() {
            if 4 + i * 3 < b.len() {
                b[4 + i * 3] = t;
            }
        }
        agree(&b, 0, 1024);
        agree(&b, 0, 2);
    }
}

#[test]
fn depth_limit_errors_agree() {
    let mut v = Value::Int32(1);
    for i in 0..40 {
        v = if i % 2 == 0 {
            Value::Array(vec![v].into())
        } else {
            let mut d = Document::new();
            d.push("x", v);
            Value::Document(d)
        };
    }
    let mut doc = Document::new();
    doc.push("deep", v);
    let b = bytes_of(&doc);
    for max in [1, 2, 3, 10, 41, 42, 43] {
        agree(&b, 0, max);
    }
}

#[test]
fn view_of_every_sample_file_agrees_with_decode() {
    let o = Options::default();
    for (name, data) in samples() {
        let owned = decode(&data, Some(&name), &o).unwrap();
        let view = FileView::open(&data, Some(&name), &o).unwrap();
        assert_eq!(view.container(), &owned.container, "{name}");
        assert_eq!(from_view(view.root()), *owned.document(), "{name}");
        same_accessors(
            ValueRef::Document(view.root()),
            &Value::Document(owned.document().clone()),
        );
        assert_eq!(
            json_texts(&DocumentRefView::new(view.root())),
            json_texts(&DocumentView::new(owned.document())),
            "{name}"
        );
        // The data tree's fields read through the view.
        assert_eq!(
            view.root().get("VersionNumber").and_then(|v| v.as_str()),
            owned
                .document()
                .get("VersionNumber")
                .and_then(|v| v.as_str()),
            "{name}"
        );
    }
}

#[test]
fn mutated_and_truncated_sample_bson_errors_agree() {
    let o = Options::default();
    let data = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/resonite/item.brson"),
    )
    .unwrap();
    let (_, bson) = container::unpack(&data, None, &o).unwrap();
    let bson = bson.into_owned();
    assert!(read_bson(&bson, &o).is_ok());
    let mut faults = 0;
    for i in (0..bson.len()).step_by(41) {
        for byte in [0x00, 0x01, 0x7f, 0xff] {
            let mut b = bson.clone();
            b[i] = byte;
            faults += usize::from(read_bson(&b, &o).is_err());
            agree(&b, 0, 1024);
        }
    }
    for cut in (0..bson.len()).step_by(17) {
        agree(&bson[..cut], 0, 1024);
    }
    assert!(faults > 30, "the mutations hit faults ({faults})");
}

#[test]
fn file_view_errors_are_decodes_errors() {
    let o = Options::default();
    let sample = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/resonite/item.frdt"),
    )
    .unwrap();
    let (_, bson) = container::unpack(&sample, None, &o).unwrap();
    let doc = read_bson(&bson, &o).unwrap().into_owned();
    for compression in [Compression::None, Compression::Lz4, Compression::Brotli] {
        let file = encode(&doc, &EncodeOptions::new(compression)).unwrap();
        let mut checked = 0;
        // Faults in the BSON: stored (offsets are file offsets) and decompressed (the
        // error names the compression), made by re-encoding a mutated BSON.
        let step = if compression == Compression::None {
            97
        } else {
            389
        };
        for i in (0..bson.len()).step_by(step) {
            let mut b = bson.to_vec();
            b[i] ^= 0x5a;
            let f =
                container::pack(&b, compression, false, &EncodeOptions::new(compression)).unwrap();
            let owned = decode(&f, None, &o);
            let view = FileView::open(&f, None, &o);
            match (owned, view) {
                (Ok(d), Ok(v)) => assert!(bytes_of(&from_view(v.root())) == bytes_of(d.document())),
                (Err(a), Err(b)) => {
                    checked += 1;
                    assert_eq!(a.to_string(), b.to_string());
                }
                (a, b) => panic!("disagree: {:?} {:?}", a.map(|_| ()), b.map(|_| ())),
            }
        }
        assert!(checked > 5, "{compression}: {checked} faults");
        // Faults in the container: cut files.
        for cut in [0, 3, 8, 9, 20, file.len() / 2, file.len() - 1] {
            let a = decode(&file[..cut], None, &o);
            let b = FileView::open(&file[..cut], None, &o);
            match (a, b) {
                (Ok(d), Ok(v)) => assert!(bytes_of(&from_view(v.root())) == bytes_of(d.document())),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("disagree: {:?} {:?}", a.map(|_| ()), b.map(|_| ())),
            }
        }
    }
}

#[test]
fn json_from_the_view_keeps_every_escape() {
    // `$` keys, a repeated key, more than 16 keys with a repeat, scope code
    let mut doc = Document::new();
    doc.push("$x", Value::Null);
    let mut dup = Document::new();
    dup.push("a", Value::Int32(1));
    dup.push("a", Value::Int64(2));
    doc.push("dup", Value::Document(dup));
    let mut many = Document::new();
    for i in 0..20 {
        many.push(format!("k{}", i % 19), Value::Int32(i));
    }
    doc.push("many", Value::Document(many));
    let mut scope = Document::new();
    scope.push("$s", Value::Double(f64::NAN));
    doc.push(
        "code",
        Value::JavaScriptWithScope(Box::new(CodeWithScope {
            code: "f()".into(),
            scope,
        })),
    );
    let b = bytes_of(&doc);
    let v = BsonView::new(&b, &Options::default()).unwrap();
    let ours = json_texts(&DocumentRefView::new(v.root()));
    assert_eq!(ours, json_texts(&DocumentView::new(&doc)));
    assert!(ours.0.contains("$entries"), "{}", ours.0);
}
