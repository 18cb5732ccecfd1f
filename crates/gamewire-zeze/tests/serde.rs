//! serde: Rust structs straight to and from the fixture beans' exact bytes.

use gamewire_zeze::types::{Binary, Vector2, Vector3Int};
use gamewire_zeze::{from_bytes, to_bytes};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod common;
use common::files::bean_bytes;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct BSimple {
    i: i32,
    l: i64,
    s: String,
    f: f32,
    d: f64,
    #[serde(rename = "b#20")]
    b: bool,
    bin: Binary,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Default, Clone)]
struct BInner {
    x: i32,
    name: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct BOuter {
    inner: BInner,
    ints: Vec<i32>,
    beans: Vec<BInner>,
    by_name: BTreeMap<String, BInner>,
    empty: BInner,
    pos: Vector2,
    cell: Vector3Int,
    tags: Vec<String>,
}

#[test]
fn bsimple_exact_bytes_both_ways() {
    let v = BSimple {
        i: 150,
        l: 0,
        s: "hi".into(),
        f: 1.5,
        d: -2.0,
        b: true,
        bin: Binary(vec![1, 2, 3]),
    };
    let bytes = bean_bytes(0);
    assert_eq!(to_bytes(&v).unwrap(), bytes);
    assert_eq!(from_bytes::<BSimple>(&bytes).unwrap(), v);
}

#[test]
fn bouter_exact_bytes_both_ways() {
    let inner = |x: i32, n: &str| BInner { x, name: n.into() };
    let v = BOuter {
        inner: inner(5, "n"),
        ints: vec![1, -1, 300],
        beans: vec![inner(1, ""), BInner::default()],
        by_name: [("k".to_string(), inner(7, ""))].into_iter().collect(),
        empty: BInner::default(),
        pos: Vector2([1.0, 2.0]),
        cell: Vector3Int([1, -2, 3]),
        tags: vec!["a".into()],
    };
    let bytes = bean_bytes(1);
    assert_eq!(to_bytes(&v).unwrap(), bytes);
    assert_eq!(from_bytes::<BOuter>(&bytes).unwrap(), v);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    #[serde(rename = "3")]
    s: &'a str,
    #[serde(borrow)]
    list: Vec<&'a str>,
    opt: Option<i64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Empty,
    #[serde(rename = "Circle#10")]
    Circle {
        r: f32,
    },
    Square(BInner),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Holder {
    shapes: Vec<Shape>,
    kind: Shape,
    pair: (i32, String),
}

#[test]
fn borrowing_options_ids_and_dynamic_enums() {
    let v = Borrowed {
        s: "x",
        list: vec!["p", "q"],
        opt: None,
    };
    let bytes = to_bytes(&v).unwrap();
    // field 3 "x", field 4 list of 2 strings, None omitted.
    assert_eq!(bytes, [0x33, 1, b'x', 0x14, 0x23, 1, b'p', 1, b'q', 0]);
    assert_eq!(from_bytes::<Borrowed>(&bytes).unwrap(), v);

    let h = Holder {
        shapes: vec![
            Shape::Circle { r: 2.0 },
            Shape::Square(BInner {
                x: 3,
                name: String::new(),
            }),
        ],
        kind: Shape::Empty,
        pair: (0, "z".into()),
    };
    let bytes = to_bytes(&h).unwrap();
    assert_eq!(
        bytes,
        [
            0x14, 0x27, // list of 2 dynamics
            0x0a, 0x11, 0, 0, 0, 0x40, 0, // type id 10, {r=2.0}
            0x02, 0x10, 0x03, 0, // type id 2 (index), {x=3}
            // kind: unit variant index 0 = default, omitted
            0x26, 0x23, 1, b'z', 0, // pair: bean {2: "z"}
            0
        ]
    );
    assert_eq!(from_bytes::<Holder>(&bytes).unwrap(), h);
}

#[test]
fn absent_fields_are_zero_and_unknown_skipped() {
    // Only field 3 (s) of BSimple, plus an unknown field 9 (a bean) and 30 (a list).
    let bytes = [
        0x33, 2, b'h', b'i', 0x66, 0x10, 1, 0, 0xf4, 0x06, 0x13, 1, b'a', 0,
    ];
    let v: BSimple = from_bytes(&bytes).unwrap();
    assert_eq!(v.s, "hi");
    assert_eq!((v.i, v.l, v.f, v.b, v.bin.0.len()), (0, 0, 0.0, false, 0));
}

#[test]
fn conversions_and_errors() {
    // i (int) sent as the double 7.9 -> 7, as Zeze's ReadInt(tag) casts.
    let bytes = [0x12, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0x1f, 0x40, 0];
    assert_eq!(from_bytes::<BSimple>(&bytes).unwrap().i, 7);
    // s (string) sent as an int: an error at the value, under the field id.
    let e = from_bytes::<BSimple>(&[0x30, 5, 0]).unwrap_err();
    assert_eq!(e.offset(), Some(1));
    assert_eq!(e.path_string(), "$[\"3\"]");
    // Truncated.
    let e = from_bytes::<BSimple>(&[0x10, 0x40]).unwrap_err();
    assert_eq!(e.offset(), Some(1));
    // Trailing bytes.
    assert!(from_bytes::<BSimple>(&[0, 0]).is_err());
}

#[derive(Serialize, Debug, Default)]
struct Unit;

#[derive(Serialize, Debug)]
enum Dyn {
    Zero(BInner),
    #[allow(dead_code)]
    One(BInner),
    #[allow(dead_code)]
    Pair(i32, i32),
}

#[derive(Serialize, Debug)]
struct AllDefaults {
    b: bool,
    i: i32,
    f: f32,
    d: f64,
    s: String,
    v: Vec<i32>,
    m: BTreeMap<i32, i32>,
    inner: BInner,
    o: Option<i32>,
    o0: Option<i32>,
    unit: Unit,
    pos: Vector2,
    cell: Vector3Int,
    dynamic: Dyn,
    tuple: (i32, String),
    last: i32,
}

/// Every kind of default a field can hold is left out (as Zeze's generated encode does),
/// including `-0.0`, `Some(0)`, an empty nested bean, a zero vector, a dynamic bean with
/// type id 0 and no fields, and a tuple of defaults; the same kinds holding a value are
/// written.
#[test]
fn default_fields_are_left_out() {
    let v = AllDefaults {
        b: false,
        i: 0,
        f: -0.0,
        d: 0.0,
        s: String::new(),
        v: vec![],
        m: BTreeMap::new(),
        inner: BInner::default(),
        o: None,
        o0: Some(0),
        unit: Unit,
        pos: Vector2([0.0, 0.0]),
        cell: Vector3Int([0, 0, 0]),
        dynamic: Dyn::Zero(BInner::default()),
        tuple: (0, String::new()),
        last: 7,
    };
    assert_eq!(to_bytes(&v).unwrap(), [0xf0, 1, 7, 0]);

    let v = AllDefaults {
        b: true,
        i: -1,
        f: 0.5,
        d: f64::NAN,
        s: "a".into(),
        v: vec![0],
        m: BTreeMap::from([(0, 0)]),
        inner: BInner {
            x: 0,
            name: "n".into(),
        },
        o: Some(2),
        o0: Some(0),
        unit: Unit,
        pos: Vector2([0.0, 1.0]),
        cell: Vector3Int([0, 0, -1]),
        dynamic: Dyn::Zero(BInner {
            x: 1,
            name: String::new(),
        }),
        tuple: (0, "t".into()),
        last: 0,
    };
    let bytes = to_bytes(&v).unwrap();
    let tree = gamewire_zeze::decode(&bytes, &Default::default()).unwrap();
    let ids: Vec<u32> = tree.fields.iter().map(|f| f.id).collect();
    assert_eq!(ids, [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15]);
    assert_eq!(gamewire_zeze::encode(&tree).unwrap(), bytes);

    // A dynamic bean with a non-zero type id is kept even with no fields.
    let d = (Dyn::One(BInner::default()), Dyn::Pair(0, 0));
    assert_eq!(to_bytes(&d).unwrap(), [0x17, 1, 0, 0x17, 2, 0, 0]);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct IntLists {
    a: Vec<i32>,
    b: Vec<u64>,
    c: Vec<bool>,
    d: Vec<Option<i64>>,
}

/// Lists of integers (read by the list-of-integers path) into several Rust item types,
/// and an error inside one naming the item.
#[test]
fn integer_lists() {
    let v = IntLists {
        a: vec![0, -1, 64, -65, i32::MAX, i32::MIN],
        b: vec![u64::MAX, 1 << 40],
        c: vec![true, false],
        d: vec![Some(5), Some(i64::MIN)],
    };
    let bytes = to_bytes(&v).unwrap();
    assert_eq!(from_bytes::<IntLists>(&bytes).unwrap(), v);
    // The same integers read as floats (Zeze converts).
    #[derive(Deserialize)]
    struct AsFloats {
        a: Vec<f64>,
    }
    let f: AsFloats = from_bytes(&bytes).unwrap();
    assert_eq!(f.a[3], -65.0);
    // Field 1 = list of 2 integers, the second cut short.
    let e = from_bytes::<IntLists>(&[0x14, 0x20, 1, 0x40]).unwrap_err();
    assert_eq!(e.path_string(), "$[\"1\"][1]");
    assert_eq!(e.offset(), Some(3));
    // The tree decoder and the walk name the same place.
    let e = gamewire_zeze::decode(&[0x14, 0x20, 1, 0x40], &Default::default()).unwrap_err();
    assert_eq!(e.path_string(), "$[\"1\"][1]");
    assert_eq!(e.offset(), Some(3));
}

/// Strings of every length around the ASCII fast path's limit (16 bytes), with a
/// multi-byte character or an invalid byte at each position: owned and borrowed decode
/// give the text when std accepts the bytes, and otherwise an error at the offset of
/// the first bad byte.
#[test]
fn strings_of_every_short_length_decode_as_std_checks_them() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Owned {
        s: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Borrowed<'a> {
        s: &'a str,
    }
    for n in 1..=24usize {
        for at in 0..n {
            for bad in [&b"\xc3\xa9"[..], b"\xff", b"\x80", b"\xe2\x82"] {
                let mut text: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
                text.splice(at..at + 1, bad.iter().copied());
                // A bean with field 1 a byte string (tag 0x13), its length, the bytes, the end.
                let mut bean = vec![0x13, text.len() as u8];
                bean.extend_from_slice(&text);
                bean.push(0);
                let want = std::str::from_utf8(&text);
                let owned = from_bytes::<Owned>(&bean);
                let borrowed = from_bytes::<Borrowed>(&bean);
                match want {
                    Ok(t) => {
                        assert_eq!(owned.unwrap().s, t, "n {n} at {at}");
                        assert_eq!(borrowed.unwrap().s, t, "n {n} at {at}");
                    }
                    Err(e) => {
                        let offset = 2 + e.valid_up_to();
                        for err in [owned.unwrap_err(), borrowed.unwrap_err()] {
                            assert_eq!(err.offset(), Some(offset), "n {n} at {at}: {err}");
                            assert!(err.to_string().contains("UTF-8"), "{err}");
                        }
                    }
                }
            }
        }
    }
}

/// A field id past 2147483647 (an extended tag delta) is refused by serde as by the
/// owned decode: same offset and message.
#[test]
fn serde_refuses_a_field_id_past_the_limit_as_the_walk_does() {
    use std::collections::BTreeMap;
    // Field 1 (int 5), then a tag whose extended delta takes the id to 2^31: 0xf0
    // (delta 15 + the compact unsigned that follows, integer) + 2147483632.
    let mut b = vec![0x10, 0x05, 0xf0];
    gamewire_zeze::varint::write_uint(&mut b, 2_147_483_632);
    b.extend([0x01, 0x00]);
    let tree = gamewire_zeze::decode(&b, &Default::default()).unwrap_err();
    assert!(
        tree.to_string().contains("a field id up to 2147483647"),
        "{tree}"
    );
    assert_eq!(tree.offset(), Some(2));
    let e = gamewire_zeze::from_bytes::<BTreeMap<u32, i64>>(&b).unwrap_err();
    assert_eq!(e.to_string(), tree.to_string());
}
