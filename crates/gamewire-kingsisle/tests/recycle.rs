//! `recycle`: trees built in the memory of earlier trees are the trees a plain decode
//! builds, whatever was recycled before; the recycler keeps no more than its limit; and
//! taking apart a tree of any depth does not use the thread's stack.

use gamewire_kingsisle::recycle::{decode_with, Recycler};
use gamewire_kingsisle::{bind, Bytes, Document, Object, Options, TypeList, Value};

/// A `BINd` file of `n` objects of the fixtures' class with three properties, and its types.
fn bench_file(n: usize, name_of: impl Fn(usize) -> String) -> (Vec<u8>, TypeList) {
    let types = TypeList::from_json(
        br#"{"version": 2, "classes": {
          "1": {"name": "class Item", "hash": 1, "bases": [], "singleton": false, "properties": {
            "m_id": {"type": "unsigned int", "id": 0, "offset": 8, "flags": 31, "container": "Static", "dynamic": false, "pointer": false, "hash": 11, "enum_options": {}},
            "m_count": {"type": "int", "id": 1, "offset": 16, "flags": 31, "container": "Static", "dynamic": false, "pointer": false, "hash": 12, "enum_options": {}},
            "m_name": {"type": "std::string", "id": 2, "offset": 24, "flags": 31, "container": "Static", "dynamic": false, "pointer": false, "hash": 13, "enum_options": {}}}},
          "2": {"name": "class Root", "hash": 2, "bases": [], "singleton": false, "properties": {
            "m_items": {"type": "class SharedPointer<class Item>", "id": 0, "offset": 8, "flags": 31, "container": "List", "dynamic": true, "pointer": true, "hash": 21, "enum_options": {}}}}}}"#,
    )
    .unwrap();
    let items = (0..n)
        .map(|i| {
            Value::Object(Object::new(
                1,
                vec![
                    (11, Value::UInt(i as u64 * 7)),
                    (12, Value::Int(-(i as i64))),
                    (13, Value::String(Bytes::from(name_of(i).as_bytes()))),
                ],
            ))
        })
        .collect();
    let doc = Document {
        root: Object::new(2, vec![(21, Value::List(items))]),
        ..Document::default()
    };
    let data = bind::encode(&doc, &types, &Options::default()).unwrap();
    (data, types)
}

#[test]
fn recycled_trees_equal_plain_decodes_across_files() {
    let opts = Options::default();
    let (big, types) = bench_file(5000, |i| format!("a long name for item number {i}"));
    let (small, _) = bench_file(300, |i| format!("n{i}"));
    let mut r = Recycler::new();
    for data in [&big, &small, &big, &small, &small, &big] {
        let want = bind::decode(data, &types, &opts).unwrap();
        let got = bind::decode_with(data, &types, &opts, &mut r).unwrap();
        assert_eq!(got, want);
        assert_eq!(format!("{got:?}"), format!("{want:?}"));
        // The very bytes back, from the tree built in recycled memory.
        assert_eq!(&bind::encode(&got, &types, &opts).unwrap(), data);
        r.recycle(got);
        assert!(r.kept_bytes() > 0);
    }
}

#[test]
fn errors_are_those_of_the_plain_decode() {
    let opts = Options::default();
    let (data, types) = bench_file(200, |i| format!("x{i}"));
    let mut r = Recycler::new();
    r.recycle(bind::decode(&data, &types, &opts).unwrap());
    for cut in [5, 40, data.len() / 2, data.len() - 1] {
        let want = bind::decode(&data[..cut], &types, &opts).unwrap_err();
        let got = bind::decode_with(&data[..cut], &types, &opts, &mut r).unwrap_err();
        assert_eq!(got.to_string(), want.to_string());
    }
    // A failed decode gives back what it took: the next one still gets the same tree.
    let again = bind::decode_with(&data, &types, &opts, &mut r).unwrap();
    assert_eq!(again, bind::decode(&data, &types, &opts).unwrap());
}

#[test]
fn keeps_no_more_than_its_limit() {
    let opts = Options::default();
    let (data, types) = bench_file(2000, |i| format!("n{i}"));
    let doc = || bind::decode(&data, &types, &opts).unwrap();
    let mut none = Recycler::with_limit(0);
    none.recycle(doc());
    assert_eq!(none.kept_bytes(), 0);
    let mut some = Recycler::with_limit(64 << 10);
    some.recycle(doc());
    some.recycle(doc());
    assert!(some.kept_bytes() > 0 && some.kept_bytes() <= 64 << 10);
    let mut all = Recycler::new();
    all.recycle(doc());
    // 2,000 arrays of three 40-byte pairs and the list of 2,000 32-byte values.
    assert!(
        all.kept_bytes() >= 2000 * 120 + 2000 * 32,
        "{}",
        all.kept_bytes()
    );
    all.clear();
    assert_eq!(all.kept_bytes(), 0);
}

#[test]
fn takes_apart_a_tree_of_any_depth() {
    // 1,000,000 lists nested in each other: dropping this would overflow the stack;
    // taking it apart keeps every vector on the recycler's own stack.
    let mut v = Value::List(vec![]);
    for _ in 0..1_000_000 {
        v = Value::List(vec![v]);
    }
    let mut r = Recycler::new();
    r.recycle(Document {
        root: Object::new(9, vec![(1, v)]),
        ..Document::default()
    });
    assert!(r.kept_bytes() >= 1_000_000 * 32);
    // The kept vectors serve a decode that has lists.
    let (data, types) = bench_file(10, |i| format!("n{i}"));
    let opts = Options::default();
    assert_eq!(
        decode_with(&data[4..], &types, &bind::options(&opts), &mut r)
            .unwrap()
            .root,
        bind::decode(&data, &types, &opts).unwrap().root
    );
}
