//! Property tests: random integers and random bean trees round-trip through bytes and
//! through JSON.

use gamewire_zeze::json::{bean_from_json, bean_to_json};
use gamewire_zeze::varint::*;
use gamewire_zeze::{decode, encode, Options};
use proptest::prelude::*;

mod common;
use common::random::{bean_of, value, Shape};

/// Random trees: integers from the whole range, one or two inheritance levels, longer
/// lists.
const SHAPE: Shape = Shape {
    small_ints: false,
    id_gap: 40,
    levels: 3,
    list_len: 20,
    map_len: 5,
    bean_maps: false,
};

proptest! {
    #[test]
    fn long_round_trip(v in any::<i64>()) {
        let mut b = Vec::new();
        write_long(&mut b, v);
        prop_assert_eq!(b.len(), long_size(v));
        prop_assert_eq!(read_long(&b), Some((v, b.len())));
    }

    #[test]
    fn ulong_round_trip(v in any::<u64>()) {
        let mut b = Vec::new();
        write_ulong(&mut b, v);
        prop_assert_eq!(b.len(), ulong_size(v));
        prop_assert_eq!(read_ulong(&b), Some((v, b.len())));
    }

    #[test]
    fn bean_round_trips_through_bytes_and_json(bean in bean_of(value(SHAPE).boxed(), SHAPE)) {
        let bytes = encode(&bean).unwrap();
        let back = decode(&bytes, &Options::default()).unwrap();
        prop_assert_eq!(encode(&back).unwrap(), bytes.clone());
        let text = serde_json::to_string(&bean_to_json(&back)).unwrap();
        let from_json = bean_from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(encode(&from_json).unwrap(), bytes);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(b) = decode(&bytes, &Options::default()) {
            // What decodes re-encodes to a canonical form that is stable.
            let again = encode(&b).unwrap();
            let twice = encode(&decode(&again, &Options::default()).unwrap()).unwrap();
            prop_assert_eq!(twice, again);
        }
    }
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
struct Rec {
    id: i64,
    small: i8,
    name: String,
    ratio: f64,
    on: bool,
    items: Vec<i32>,
    tags: std::collections::BTreeMap<String, u16>,
    inner: Option<Inner>,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone, Default)]
struct Inner {
    #[serde(rename = "x#5")]
    x: i32,
    pos: gamewire_zeze::types::Vector3,
}

fn schema() -> gamewire_zeze::schema::Schema {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/zeze-solution.xml"
    );
    gamewire_zeze::schema::Schema::from_xml(&std::fs::read_to_string(p).unwrap()).unwrap()
}

proptest! {
    #[test]
    fn serde_records_round_trip(
        id in any::<i64>(), small in any::<i8>(), name in ".{0,6}", ratio in -1e9f64..1e9,
        on in any::<bool>(), items in proptest::collection::vec(any::<i32>(), 0..5),
        tags in proptest::collection::btree_map("[a-z]{1,3}", any::<u16>(), 0..3),
        x in any::<i32>(), px in -1e3f32..1e3,
    ) {
        let inner = if x == 0 && px == 0.0 { None } else {
            Some(Inner { x, pos: gamewire_zeze::types::Vector3([px, 0.0, -px]) })
        };
        let r = Rec { id, small, name, ratio, on, items, tags, inner };
        let bytes = gamewire_zeze::to_bytes(&r).unwrap();
        prop_assert_eq!(gamewire_zeze::from_bytes::<Rec>(&bytes).unwrap(), r);
        // The schema-less tree reads the same bytes and writes them back unchanged.
        let tree = decode(&bytes, &Options::default()).unwrap();
        prop_assert_eq!(encode(&tree).unwrap(), bytes);
    }

    #[test]
    fn schema_json_round_trip(
        i in any::<i32>(), l in any::<i64>(), s in ".{0,6}", f in -1e6f32..1e6, d in any::<f64>(),
        b in any::<bool>(), bin in proptest::collection::vec(any::<u8>(), 0..6),
    ) {
        prop_assume!(d.is_finite());
        let sc = schema();
        let j = serde_json::json!({
            "i": i, "l": l, "s": s, "f": f, "d": d, "b": b,
            "bin": gamewire_zeze::json::hex(&bin),
        });
        let bytes = sc.encode("BSimple", &j).unwrap();
        let back = sc.decode("BSimple", &bytes, &Options::default()).unwrap();
        prop_assert_eq!(sc.encode("BSimple", &back).unwrap(), bytes);
        prop_assert_eq!(&back["i"], &j["i"]);
        prop_assert_eq!(&back["l"], &j["l"]);
        prop_assert_eq!(&back["s"], &j["s"]);
        prop_assert_eq!(&back["b"], &j["b"]);
        prop_assert_eq!(&back["bin"], &j["bin"]);
    }
}

/// What a walk did: where it stopped, or the error's offset, path and message.
fn walk_outcome(
    f: impl Fn(&mut gamewire_zeze::cursor::Cursor<'_>) -> gamewire_zeze::Result<()>,
    bytes: &[u8],
) -> std::result::Result<usize, (Option<usize>, String, String)> {
    let mut c = gamewire_zeze::cursor::Cursor::new(bytes);
    match f(&mut c) {
        Ok(()) => Ok(c.pos()),
        Err(e) => Err((e.offset(), e.path_string(), e.to_string())),
    }
}

proptest! {
    /// The walk is one walk whatever its sink keeps: with the sink that keeps nothing
    /// (`skip_bean`, integers stepped over undecoded) it stops where, or fails as, the
    /// owned tree's (`read_bean`) does: same offset, path and message, on valid beans
    /// (where both stop at the end of the bytes), with one byte changed, and cut short,
    /// at several depth limits.
    #[test]
    fn the_walk_fails_alike_whatever_it_keeps(
        bean in bean_of(value(SHAPE).boxed(), SHAPE),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        max_depth in 1usize..6,
    ) {
        let good = encode(&bean).unwrap();
        prop_assert_eq!(
            walk_outcome(|c| gamewire_zeze::skip_bean(c, &Options::default(), 0), &good),
            Ok(good.len())
        );
        let mut changed = good.clone();
        let i = at.index(changed.len());
        changed[i] = byte;
        let short = &good[..cut.index(good.len())];
        for bytes in [&good[..], &changed[..], short] {
            for opts in [Options::default(), Options { max_depth }] {
                let skip = walk_outcome(|c| gamewire_zeze::skip_bean(c, &opts, 0), bytes);
                let tree = walk_outcome(|c| gamewire_zeze::read_bean(c, &opts, 0).map(drop), bytes);
                prop_assert_eq!(skip, tree);
            }
        }
    }
}

proptest! {
    #[test]
    fn the_json_view_writes_the_text_of_bean_to_json(b in bean_of(value(SHAPE).boxed(), SHAPE)) {
        use gamewire_zeze::json_view::{BeanView, ItemView, ValueView};
        use gamewire_zeze::json::{item_to_json, value_to_json};
        let tree = bean_to_json(&b);
        prop_assert_eq!(serde_json::to_string(&BeanView::new(&b)).unwrap(), serde_json::to_string(&tree).unwrap());
        prop_assert_eq!(serde_json::to_string_pretty(&BeanView::new(&b)).unwrap(), serde_json::to_string_pretty(&tree).unwrap());
        for f in &b.fields {
            prop_assert_eq!(serde_json::to_string(&ValueView::new(&f.value)).unwrap(), serde_json::to_string(&value_to_json(&f.value)).unwrap());
            prop_assert_eq!(serde_json::to_string(&ItemView::new(&f.value)).unwrap(), serde_json::to_string(&item_to_json(&f.value)).unwrap());
        }
        // A hand-built bean with a repeated id goes through the tree: the same text.
        let mut twice = b.clone();
        if let Some(f) = b.fields.first() {
            twice.fields.push(f.clone());
            prop_assert_eq!(serde_json::to_string(&BeanView::new(&twice)).unwrap(), serde_json::to_string(&bean_to_json(&twice)).unwrap());
        }
    }
}
