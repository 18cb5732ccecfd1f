//! The borrowed view (`gamewire_zeze::view`) against the owned decode: the same beans,
//! and the same errors (offset, path and message) on random, changed and cut-short
//! bytes; strings borrowed from the input; fields found by id.

use gamewire_zeze::view::ValueView;
use gamewire_zeze::{decode, encode, view, Bean, Field, Options, Value, WireType};
use proptest::prelude::*;

mod common;
use common::random::{bean_of, value, Shape};

/// Random trees: short integers too, up to three inheritance levels, maps of beans.
const SHAPE: Shape = Shape {
    small_ints: true,
    id_gap: 20,
    levels: 4,
    list_len: 8,
    map_len: 4,
    bean_maps: true,
};

type Outcome = std::result::Result<Bean, (Option<usize>, String, String)>;

fn outcome(r: gamewire_zeze::Result<Bean>) -> Outcome {
    r.map_err(|e| (e.offset(), e.path_string(), e.to_string()))
}

fn via_view(bytes: &[u8], opts: &Options) -> Outcome {
    outcome(view(bytes, opts).and_then(|v| v.to_bean()))
}

/// Bit-exact comparison (NaN floats compare by their bits through the bytes).
fn same(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => encode(x).unwrap() == encode(y).unwrap(),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

/// Every byte string in the view borrows from `input`.
fn check_borrowed(v: &ValueView<'_>, input: &[u8]) -> gamewire_zeze::Result<()> {
    let range = input.as_ptr_range();
    match v {
        ValueView::Bytes(b) => {
            let r = b.as_ptr_range();
            assert!(range.start <= r.start && r.end <= range.end, "not borrowed");
        }
        ValueView::Bean(b) | ValueView::Dynamic { bean: b, .. } => {
            for f in b.fields() {
                check_borrowed(&f?.value, input)?;
            }
        }
        ValueView::List(l) => {
            for x in l.iter() {
                check_borrowed(&x?, input)?;
            }
        }
        ValueView::Map(m) => {
            for e in m.iter() {
                let (k, v) = e?;
                check_borrowed(&k, input)?;
                check_borrowed(&v, input)?;
            }
        }
        _ => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The view and the owned decode agree on valid beans, on beans with one byte
    /// changed, on cut-short ones and with bytes appended, at several depth limits:
    /// the same tree, or the same error offset, path and message.
    #[test]
    fn view_agrees_with_the_owned_decode(
        bean in bean_of(value(SHAPE).boxed(), SHAPE),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        max_depth in 1usize..6,
    ) {
        let good = encode(&bean).unwrap();
        let mut changed = good.clone();
        let i = at.index(changed.len());
        changed[i] = byte;
        let short = &good[..cut.index(good.len())];
        let mut longer = good.clone();
        longer.push(byte);
        for bytes in [&good[..], &changed[..], short, &longer[..]] {
            for opts in [Options::default(), Options { max_depth }] {
                let owned = outcome(decode(bytes, &opts));
                let viewed = via_view(bytes, &opts);
                prop_assert!(same(&owned, &viewed), "{:?}\nowned {:?}\nview {:?}", bytes, owned, viewed);
            }
        }
        let v = view(&good, &Options::default()).unwrap();
        check_borrowed(&ValueView::Bean(v.clone()), &good).unwrap();
        // Fields found by id are the owned bean's, level 0.
        for f in &bean.fields {
            let got = v.get(f.id).unwrap().expect("field present").to_value().unwrap();
            prop_assert_eq!(encode(&Bean::new(vec![Field { id: 1, value: got }])).unwrap(),
                encode(&Bean::new(vec![Field { id: 1, value: f.value.clone() }])).unwrap());
        }
    }

    /// Random bytes: the same outcome from both.
    #[test]
    fn view_agrees_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let opts = Options::default();
        let owned = outcome(decode(&bytes, &opts));
        let viewed = via_view(&bytes, &opts);
        prop_assert!(same(&owned, &viewed), "owned {:?}\nview {:?}", owned, viewed);
    }
}

#[test]
fn fields_carry_id_level_and_wire_type_and_strings_borrow() {
    let bean = Bean {
        fields: vec![
            Field {
                id: 1,
                value: Value::Integer(-7),
            },
            Field {
                id: 4,
                value: Value::string("héllo"),
            },
            Field {
                id: 5,
                value: Value::List {
                    elem: WireType::Bean,
                    items: vec![Value::Bean(Bean::new(vec![Field {
                        id: 2,
                        value: Value::string("in"),
                    }]))],
                },
            },
        ],
        base: Some(Box::new(Bean::new(vec![Field {
            id: 1,
            value: Value::Double(2.5),
        }]))),
    };
    let bytes = encode(&bean).unwrap();
    let v = view(&bytes, &Options::default()).unwrap();
    let got: Vec<(u32, u32, WireType)> = v
        .fields()
        .map(|f| f.map(|f| (f.level, f.id, f.wire_type())))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        got,
        [
            (0, 1, WireType::Integer),
            (0, 4, WireType::Bytes),
            (0, 5, WireType::List),
            (1, 1, WireType::Double)
        ]
    );
    let s = v.get(4).unwrap().unwrap().as_str().unwrap();
    assert_eq!(s, "héllo");
    assert!(bytes.as_ptr_range().contains(&s.as_ptr()));
    let list = v.get(5).unwrap().unwrap();
    let item = list.as_list().unwrap().iter().next().unwrap().unwrap();
    let inner = item.as_bean().unwrap().get(2).unwrap().unwrap();
    assert_eq!(inner.as_str(), Some("in"));
    assert!(v.get(9).unwrap().is_none());
    assert_eq!(v.to_bean().unwrap(), bean);
}

#[test]
fn errors_name_offset_and_path_as_the_owned_decode_does() {
    // Field 1: a bean whose field 2 is a string running past the end.
    let bytes = [0x16, 0x23, 0x05, b'a', b'b'];
    let e = view(&bytes, &Options::default()).unwrap_err();
    let d = decode(&bytes, &Options::default()).unwrap_err();
    assert_eq!(e.offset(), d.offset());
    assert_eq!(e.to_string(), d.to_string());
    assert_eq!(e.path_string(), d.path_string());
    // A tag byte with id delta 0 inside a nested bean: the owned decode's message.
    let bytes = [0x16, 0x05, 0x00, 0x00];
    let e = view(&bytes, &Options::default()).unwrap_err();
    assert_eq!(e.offset(), Some(1));
    assert!(e.to_string().contains("0x05"), "{e}");
    assert_eq!(
        e.to_string(),
        decode(&bytes, &Options::default()).unwrap_err().to_string()
    );
    // Trailing bytes after the bean.
    let e = view(&[0x00, 0x00], &Options::default()).unwrap_err();
    assert_eq!(e.offset(), Some(1));
}
