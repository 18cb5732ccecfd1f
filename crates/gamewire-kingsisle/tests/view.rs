//! The borrowed view (and the validating walk) agrees with the owned decoder, all sinks
//! of the one walk of the grammar: on random documents over random type
//! lists (every option), on damaged copies of them (errors included: message, path and
//! offset), and on the katsuba fixtures; and it can be navigated. The walk handed to a
//! caller's visitor (`visit::visit_any`) gives the view's values in the view's order,
//! named alike, and the view's errors.

mod common;
use common::{random_lists, random_object, Rng};
use gamewire_kingsisle::view::{Item, ListRef, ObjectRef, OwnedView, View};
use gamewire_kingsisle::visit::{self, At, Visitor};
use gamewire_kingsisle::ClassDef;
use gamewire_kingsisle::{
    bind, encode, inspect, serializer_flags as sf, Document, Options, TypeList,
};
use std::path::PathBuf;

/// Decodes `data` both ways and asserts the same result (or the same error).
fn agree(data: &[u8], types: &TypeList, opts: &Options, what: &str) -> bool {
    let owned = inspect::decode_any(data, types, opts);
    // The validating walk (the sink that keeps nothing) accepts and refuses alike.
    match (&owned, gamewire_kingsisle::validate(data, types, opts)) {
        (Ok(_), Ok(())) => {}
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "{what}: validate's error differs"
            );
            assert_eq!(a.offset(), b.offset(), "{what}: validate's offset differs");
        }
        (a, b) => panic!("{what}: decode gives {a:?}, validate {b:?}"),
    }
    let mut scratch = Vec::new();
    let view = View::decode_any(data, types, opts, &mut scratch);
    let kept = OwnedView::decode_any(data.to_vec(), types, opts);
    visit_agrees(data, types, opts, &kept, what);
    match (&owned, &kept) {
        (Ok(d), Ok(k)) => {
            // The owned view keeps everything, the zlib streams included.
            assert_eq!(
                format!("{:?}", k.to_document()),
                format!("{d:?}"),
                "{what}: owned view differs"
            );
            ids_reach_every_value(k.view().root());
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "{what}: owned view error differs"
            );
            assert_eq!(
                a.offset(),
                b.offset(),
                "{what}: owned view error offset differs"
            );
        }
        _ => panic!("{what}: only one of decode and OwnedView fails"),
    }
    match (owned, view) {
        (Ok(mut d), Ok(v)) => {
            d.manual_zlib = None;
            d.flag_zlib = None;
            // Debug text: compares floats by their printed bits-exact form, NaN included.
            assert_eq!(
                format!("{:?}", v.to_document()),
                format!("{d:?}"),
                "{what}: values differ"
            );
            true
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{what}: errors differ");
            assert_eq!(a.offset(), b.offset(), "{what}: error offsets differ");
            false
        }
        (Ok(_), Err(e)) => panic!("{what}: only the view fails: {e}"),
        (Err(e), Ok(_)) => panic!("{what}: only the owned decode fails: {e}"),
    }
}

/// What a visitor was told, one line per call.
#[derive(Default)]
struct Trace(Vec<String>);

fn at_text(at: At<'_>) -> String {
    match at {
        At::Root => "root".into(),
        At::Property(p, i) => format!("property {} {i}", p.name),
        At::Unknown(tag) => format!("unknown {tag}"),
        At::Element => "element".into(),
    }
}

impl<'t> Visitor<'t> for Trace {
    fn begin_object(&mut self, at: At<'t>, class: &'t ClassDef) {
        self.0
            .push(format!("{} object {}", at_text(at), class.name));
    }
    fn end_object(&mut self) {
        self.0.push("end object".into());
    }
    fn begin_list(&mut self, at: At<'t>, _: usize) {
        self.0.push(format!("{} list", at_text(at)));
    }
    fn end_list(&mut self) {
        self.0.push("end list".into());
    }
    fn value(&mut self, at: At<'t>, item: Item<'_, '_, 't>) {
        assert!(!matches!(item, Item::Object(_) | Item::List(_)));
        self.0.push(format!("{} {item:?}", at_text(at)));
    }
}

/// The same lines from the view.
fn trace_item(t: &mut Trace, at: At<'_>, item: Item<'_, '_, '_>) {
    match item {
        Item::Object(o) => {
            t.0.push(format!("{} object {}", at_text(at), o.class().name));
            for p in o.properties() {
                let at = match p.def {
                    Some(d) => At::Property(d, o.class().index_of_property(d).unwrap()),
                    None => At::Unknown(p.tag),
                };
                trace_item(t, at, p.value);
            }
            t.0.push("end object".into());
        }
        Item::List(l) => {
            t.0.push(format!("{} list", at_text(at)));
            for e in l.iter() {
                trace_item(t, At::Element, e);
            }
            t.0.push("end list".into());
        }
        i => t.0.push(format!("{} {i:?}", at_text(at))),
    }
}

/// `visit::visit_any` tells a visitor what the view holds, in order, with the view's
/// root entries, or fails with the view's error.
fn visit_agrees(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    kept: &gamewire_core::Result<OwnedView<Vec<u8>, &TypeList>>,
    what: &str,
) {
    let mut got = Trace::default();
    let visited = visit::visit_any(data, types, opts, &mut got);
    match (visited, kept) {
        (Ok(v), Ok(k)) => {
            let view = k.view();
            let mut want = Trace::default();
            trace_item(&mut want, At::Root, Item::Object(view.root()));
            assert_eq!(got.0, want.0, "{what}: the visitor's values differ");
            assert_eq!(v.bind, view.is_bind(), "{what}: bind");
            assert_eq!(v.flags, view.flags(), "{what}: flags");
            assert_eq!(v.zlib_marker, view.zlib_marker(), "{what}: marker");
            assert_eq!(v.padding, view.padding(), "{what}: padding");
            assert_eq!(v.trailing, view.trailing(), "{what}: trailing");
            assert_eq!(
                format!("{:?} {:?}", v.manual_zlib, v.flag_zlib),
                format!("{:?} {:?}", k.manual_zlib(), k.flag_zlib()),
                "{what}: zlib streams"
            );
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "{what}: visit's error differs"
            );
            assert_eq!(a.offset(), b.offset(), "{what}: visit's offset differs");
        }
        (a, b) => panic!(
            "{what}: visit gives {:?}, the view {:?}",
            a.map(|_| ()),
            b.as_ref().map(|_| ())
        ),
    }
}

/// `inspect::tree` (read through the view) gives the nodes the owned tree's rendering
/// gives (`inspect::object` over `inspect::decode_any`'s document), raw values included.
fn inspect_agrees(data: &[u8], types: &TypeList, what: &str) {
    use gamewire_core::inspect::TreeBuilder;
    let opts = Options {
        skip_unknown: true,
        ..Options::default()
    };
    let Ok(doc) = inspect::decode_any(data, types, &opts) else {
        assert!(inspect::tree(data, types, "t", 3).is_err(), "{what}");
        return;
    };
    let nodes = inspect::tree(data, types, "t", 3).unwrap();
    let mut t = TreeBuilder::new(3);
    inspect::object(&mut t, "root", &doc.root, types);
    let owned = t.finish();
    assert_eq!(nodes.last(), owned.last(), "{what}: inspect trees differ");
}

/// Every object and list is reached again by its id, every element by its id and by
/// [`ListRef::get`], with the same value.
fn ids_reach_every_value(o: ObjectRef<'_, '_, '_>) {
    let view_of = |id| match o.view().get(id) {
        Some(Item::Object(x)) => format!("{:?}", x.to_object()),
        Some(i) => format!("{:?}", i.to_value()),
        None => panic!("id {id:?} names nothing"),
    };
    assert_eq!(view_of(o.id()), format!("{:?}", o.to_object()));
    for p in o.properties() {
        walk_item(p.value, &view_of);
    }
}

fn walk_item(i: Item<'_, '_, '_>, view_of: &dyn Fn(gamewire_kingsisle::view::NodeId) -> String) {
    match i {
        Item::Object(o) => ids_reach_every_value(o),
        Item::List(l) => walk_list(l, view_of),
        _ => {}
    }
}

fn walk_list(l: ListRef<'_, '_, '_>, view_of: &dyn Fn(gamewire_kingsisle::view::NodeId) -> String) {
    assert_eq!(view_of(l.id()), format!("{:?}", l.to_value()));
    let items: Vec<_> = l.iter().collect();
    assert!(l.get(items.len()).is_none());
    for (n, e) in items.iter().enumerate() {
        assert_eq!(
            format!("{:?}", l.get(n).unwrap().to_value()),
            format!("{:?}", e.to_value())
        );
    }
    if let Some(ids) = l.element_ids() {
        assert_eq!(ids.len(), items.len());
        for (id, e) in ids.iter().zip(&items) {
            let v = match e {
                Item::Object(o) => format!("{:?}", o.to_object()),
                e => format!("{:?}", e.to_value()),
            };
            assert_eq!(view_of(*id), v);
        }
    }
    for e in items {
        walk_item(e, view_of);
    }
}

#[test]
fn view_and_owned_decode_agree_on_random_and_damaged_input() {
    let mut rng = Rng(0x005E_ED0F_7A9E);
    let (_, lists, merged) = random_lists(&mut rng, 5);
    let (mut ok, mut failed) = (0, 0);
    for i in 0..200 {
        let types = &lists[i % lists.len()];
        let root = types.classes()[rng.below(types.len() as u64) as usize].hash;
        let flags = (rng.next() as u32) & 0x1f & !sf::FORBID_DELTA_ENCODE;
        let shallow = rng.chance(50);
        let opts = Options {
            flags,
            property_mask: 7,
            shallow,
            manual_zlib: rng.chance(15),
            skip_unknown: rng.chance(30),
            ..Options::default()
        };
        let doc = Document {
            root: random_object(
                &mut rng,
                root,
                types,
                flags & sf::HUMAN_READABLE_ENUMS != 0,
                shallow,
            ),
            ..Document::default()
        };
        let bytes = encode(&doc, &merged, &opts).unwrap();
        assert!(agree(&bytes, &merged, &opts, &format!("case {i}")));
        // Against the encoder (code of its own): what the view read writes back the
        // same bytes.
        let kept = OwnedView::decode_any(bytes.clone(), &merged, &opts).unwrap();
        assert_eq!(
            encode(&kept.to_document(), &merged, &opts).unwrap(),
            bytes,
            "case {i}: the view's document re-encodes differently"
        );
        // Read with a type list that lacks classes: unknown types (kept raw or refused).
        agree(&bytes, types, &opts, &format!("case {i}, own list only"));
        // The inspect tree (read through the view) shows what the owned tree shows.
        let file = bind::encode(&doc, &merged, &opts).unwrap();
        for list in [&merged, types] {
            inspect_agrees(&file, list, &format!("case {i}"));
        }
        let file = bind::encode(&doc, &merged, &opts).unwrap();
        assert!(agree(&file, &merged, &opts, &format!("case {i}, BINd")));
        // Damaged copies: cut short, and bytes changed.
        for _ in 0..6 {
            let cut = rng.below(bytes.len() as u64 + 1) as usize;
            if agree(
                &bytes[..cut],
                &merged,
                &opts,
                &format!("case {i} cut {cut}"),
            ) {
                ok += 1;
            } else {
                failed += 1;
            }
            let mut bad = file.clone();
            for _ in 0..1 + rng.below(3) {
                let at = 4 + rng.below(bad.len() as u64 - 4) as usize;
                bad[at] ^= 1 << rng.below(8);
            }
            if agree(&bad, &merged, &opts, &format!("case {i} flipped")) {
                ok += 1;
            } else {
                failed += 1;
            }
        }
    }
    // Both outcomes were exercised.
    assert!(ok > 50 && failed > 50, "ok {ok}, failed {failed}");
}

fn fixture_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/katsuba"
    ))
}

#[test]
fn view_and_owned_decode_agree_on_the_katsuba_fixtures() {
    let dir = fixture_dir();
    let types = TypeList::from_files(&[dir.join("types.json")]).unwrap();
    let mut seen = (0, 0);
    for sub in [dir.clone(), dir.join("should-fail")] {
        let mut names: Vec<_> = std::fs::read_dir(&sub)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        names.sort();
        for p in names {
            let c: serde_json::Value =
                serde_json::from_slice(&std::fs::read(p.with_extension("config.json")).unwrap())
                    .unwrap();
            let opts = Options {
                flags: c["flags"].as_u64().unwrap() as u32,
                property_mask: c["property_mask"].as_u64().unwrap() as u32,
                shallow: c["shallow"].as_bool().unwrap(),
                manual_zlib: c["compress"].as_bool().unwrap(),
                ..Options::default()
            };
            let data = std::fs::read(&p).unwrap();
            if agree(&data, &types, &opts, &p.display().to_string()) {
                seen.0 += 1;
            } else {
                seen.1 += 1;
            }
        }
    }
    assert_eq!(seen.0, 28, "fixtures that decode");
    assert!(seen.1 > 0, "should-fail fixtures");
}

#[test]
fn the_view_is_navigable_and_borrows_strings() {
    let types = TypeList::from_files(&[concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/kingsisle/types.json"
    )])
    .unwrap();
    let data = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/kingsisle/item.bin"
    ))
    .unwrap();
    let mut scratch = Vec::new();
    let view = View::decode_bind(&data, &types, &Options::default(), &mut scratch).unwrap();
    let root = view.root();
    assert_eq!(root.class().name, "class SampleItem");
    let Some(Item::String(name)) = root.get_named("m_name") else {
        panic!("m_name is not a string");
    };
    assert_eq!(name, b"Storm Hat");
    // Borrowed from the input, not copied.
    let range = data.as_ptr_range();
    assert!(range.contains(&name.as_ptr()));
    // Every property is named and visited in wire order, as the owned decode has them.
    let owned = bind::decode(&data, &types, &Options::default()).unwrap();
    let tags: Vec<u32> = root.properties().map(|p| p.tag).collect();
    let want: Vec<u32> = owned.root.properties.iter().map(|(t, _)| t).collect();
    assert_eq!(tags, want);
    assert!(root.properties().all(|p| p.name().is_some()));
    assert_eq!(root.len(), want.len());
}
