//! Property tests: random integers and random bean trees round-trip through bytes and
//! through JSON.

use gamewire_zeze::json::{bean_from_json, bean_to_json};
use gamewire_zeze::varint::*;
use gamewire_zeze::{decode, encode, Bean, Field, Options, Value, WireType};
use proptest::prelude::*;

fn scalar(ty: WireType) -> BoxedStrategy<Value> {
    match ty {
        WireType::Integer => any::<i64>().prop_map(Value::Integer).boxed(),
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

fn bean_of(values: BoxedStrategy<Value>) -> BoxedStrategy<Bean> {
    let level = proptest::collection::vec((1u32..40, values), 0..5).prop_map(|fs| {
        let mut id = 0;
        Bean::new(
            fs.into_iter()
                .map(|(d, value)| {
                    id += d;
                    Field { id, value }
                })
                .collect(),
        )
    });
    (level.clone(), proptest::option::of(level))
        .prop_map(|(mut a, b)| {
            a.base = b.map(Box::new);
            a
        })
        .boxed()
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = proptest::sample::select(SCALARS.to_vec()).prop_flat_map(scalar);
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::sample::select(SCALARS.to_vec()).prop_flat_map(|t| {
                proptest::collection::vec(scalar(t), 0..20)
                    .prop_map(move |items| Value::List { elem: t, items })
            }),
            (
                proptest::sample::select(SCALARS.to_vec()),
                proptest::sample::select(SCALARS.to_vec())
            )
                .prop_flat_map(|(k, v)| {
                    proptest::collection::vec((scalar(k), scalar(v)), 0..5).prop_map(
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
            proptest::collection::vec(bean_of(inner.boxed()).prop_map(Value::Bean), 0..3).prop_map(
                |items| Value::List {
                    elem: WireType::Bean,
                    items
                }
            ),
        ]
    })
}

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
    fn bean_round_trips_through_bytes_and_json(bean in bean_of(value().boxed())) {
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
