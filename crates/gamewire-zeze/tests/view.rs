//! The borrowed view (`gamewire_zeze::view`) against the owned decode: the same beans,
//! and the same errors (offset, path and message) on random, changed and cut-short
//! bytes; strings borrowed from the input; fields found by id.

use gamewire_zeze::view::ValueView;
use gamewire_zeze::{decode, encode, view, Bean, Field, Options, Value, WireType};
use proptest::prelude::*;

fn scalar(ty: WireType) -> BoxedStrategy<Value> {
    match ty {
        WireType::Integer => prop_oneof![any::<i64>(), -100i64..100]
            .prop_map(Value::Integer)
            .boxed(),
        WireType::Float => any::<u32>()
            .prop_map(|b| Value::Float(f32::from_bits(b)))
            .boxed(),
        WireType::Double => any::<u64>()
            .prop_map(|b| Value::Double(f64::from_bits(b)))
            .boxed(),
        WireType::Bytes => prop_oneof![
            ".{0,8}".prop_map(|s: String| Value::string(&s)),
            proptest::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bytes),
        ]
        .boxed(),
        WireType::Vector2 => any::<[u32; 2]>()
            .prop_map(|a| Value::Vector2(a.map(f32::from_bits)))
            .boxed(),
        WireType::Vector3 => any::<[u32; 3]>()
            .prop_map(|a| Value::Vector3(a.map(f32::from_bits)))
            .boxed(),
        WireType::Vector4 => any::<[u32; 4]>()
            .prop_map(|a| Value::Vector4(a.map(f32::from_bits)))
            .boxed(),
        WireType::Vector2Int => any::<[i64; 2]>().prop_map(Value::Vector2Int).boxed(),
        _ => any::<[i64; 3]>().prop_map(Value::Vector3Int).boxed(),
    }
}

const SCALARS: [WireType; 9] = [
    WireType::Integer,
    WireType::Float,
    WireType::Double,
    WireType::Bytes,
    WireType::Vector2,
    WireType::Vector2Int,
    WireType::Vector3,
    WireType::Vector3Int,
    WireType::Vector4,
];

fn level(values: BoxedStrategy<Value>) -> impl Strategy<Value = Vec<Field>> + Clone {
    proptest::collection::vec((1u32..20, values), 0..5).prop_map(|fs| {
        let mut id = 0;
        fs.into_iter()
            .map(|(d, value)| {
                id += d;
                Field { id, value }
            })
            .collect()
    })
}

/// Beans of one to three inheritance levels.
fn bean_of(values: BoxedStrategy<Value>) -> BoxedStrategy<Bean> {
    proptest::collection::vec(level(values), 1..4)
        .prop_map(|mut levels| {
            let mut bean = Bean::new(levels.pop().unwrap_or_default());
            while let Some(fields) = levels.pop() {
                bean = Bean {
                    fields,
                    base: Some(Box::new(bean)),
                };
            }
            bean
        })
        .boxed()
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = proptest::sample::select(SCALARS.to_vec()).prop_flat_map(scalar);
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::sample::select(SCALARS.to_vec()).prop_flat_map(|t| {
                proptest::collection::vec(scalar(t), 0..8)
                    .prop_map(move |items| Value::List { elem: t, items })
            }),
            (
                proptest::sample::select(SCALARS.to_vec()),
                proptest::sample::select(SCALARS.to_vec())
            )
                .prop_flat_map(|(k, v)| {
                    proptest::collection::vec((scalar(k), scalar(v)), 0..4).prop_map(
                        move |entries| Value::Map {
                            key: k,
                            value: v,
                            entries,
                        },
                    )
                }),
            bean_of(inner.clone().boxed()).prop_map(Value::Bean),
            (any::<i64>(), bean_of(inner.clone().boxed()))
                .prop_map(|(type_id, bean)| Value::Dynamic { type_id, bean }),
            proptest::collection::vec(bean_of(inner.clone().boxed()).prop_map(Value::Bean), 0..3)
                .prop_map(|items| Value::List {
                    elem: WireType::Bean,
                    items
                }),
            proptest::collection::vec(
                (
                    (-5i64..5).prop_map(Value::Integer),
                    bean_of(inner.boxed()).prop_map(Value::Bean)
                ),
                0..3
            )
            .prop_map(|entries| Value::Map {
                key: WireType::Integer,
                value: WireType::Bean,
                entries
            }),
        ]
    })
}

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
        bean in bean_of(value().boxed()),
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
