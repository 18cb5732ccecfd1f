//! Random bean trees for the property tests (`props.rs`, `view.rs`): scalars of every
//! wire type, lists, maps, nested and dynamic beans, beans with inheritance levels. Each
//! test picks how big and varied its trees are with a [`Shape`].

use gamewire_zeze::{Bean, Field, Value, WireType};
use proptest::prelude::*;
use proptest::strategy::Union;

/// How big and varied the random trees are.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Integers also drawn from -100..100 (the short forms), not only the whole range.
    pub small_ints: bool,
    /// Field ids grow by 1 up to (not including) this much from one field to the next.
    pub id_gap: u32,
    /// A bean has one up to (not including) this many inheritance levels.
    pub levels: usize,
    /// A list of scalars has up to (not including) this many items.
    pub list_len: usize,
    /// A map of scalars has up to (not including) this many entries.
    pub map_len: usize,
    /// Maps from integers to beans are drawn too.
    pub bean_maps: bool,
}

/// Every scalar wire type.
pub const SCALARS: [WireType; 9] = [
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

/// Scalars of wire type `ty` (floats from any bits, NaNs included).
pub fn scalar(ty: WireType, shape: Shape) -> BoxedStrategy<Value> {
    match ty {
        WireType::Integer if shape.small_ints => prop_oneof![any::<i64>(), -100i64..100]
            .prop_map(Value::Integer)
            .boxed(),
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

/// The fields of one level: up to four, ids increasing.
fn level(values: BoxedStrategy<Value>, shape: Shape) -> impl Strategy<Value = Vec<Field>> {
    proptest::collection::vec((1..shape.id_gap, values), 0..5).prop_map(|fs| {
        let mut id = 0;
        fs.into_iter()
            .map(|(d, value)| {
                id += d;
                Field { id, value }
            })
            .collect()
    })
}

/// Beans of one up to `shape.levels` (exclusive) inheritance levels holding `values`.
pub fn bean_of(values: BoxedStrategy<Value>, shape: Shape) -> BoxedStrategy<Bean> {
    proptest::collection::vec(level(values, shape), 1..shape.levels)
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

/// Any value: a scalar, or up to four levels of lists, maps, beans and dynamic beans.
pub fn value(shape: Shape) -> impl Strategy<Value = Value> {
    let leaf = proptest::sample::select(SCALARS.to_vec()).prop_flat_map(move |t| scalar(t, shape));
    leaf.prop_recursive(4, 48, 6, move |inner| {
        let mut arms = vec![
            proptest::sample::select(SCALARS.to_vec())
                .prop_flat_map(move |t| {
                    proptest::collection::vec(scalar(t, shape), 0..shape.list_len)
                        .prop_map(move |items| Value::List { elem: t, items })
                })
                .boxed(),
            (
                proptest::sample::select(SCALARS.to_vec()),
                proptest::sample::select(SCALARS.to_vec()),
            )
                .prop_flat_map(move |(k, v)| {
                    proptest::collection::vec(
                        (scalar(k, shape), scalar(v, shape)),
                        0..shape.map_len,
                    )
                    .prop_map(move |entries| Value::Map {
                        key: k,
                        value: v,
                        entries,
                    })
                })
                .boxed(),
            bean_of(inner.clone().boxed(), shape)
                .prop_map(Value::Bean)
                .boxed(),
            (any::<i64>(), bean_of(inner.clone().boxed(), shape))
                .prop_map(|(type_id, bean)| Value::Dynamic { type_id, bean })
                .boxed(),
            proptest::collection::vec(
                bean_of(inner.clone().boxed(), shape).prop_map(Value::Bean),
                0..3,
            )
            .prop_map(|items| Value::List {
                elem: WireType::Bean,
                items,
            })
            .boxed(),
        ];
        if shape.bean_maps {
            arms.push(
                proptest::collection::vec(
                    (
                        (-5i64..5).prop_map(Value::Integer),
                        bean_of(inner.boxed(), shape).prop_map(Value::Bean),
                    ),
                    0..3,
                )
                .prop_map(|entries| Value::Map {
                    key: WireType::Integer,
                    value: WireType::Bean,
                    entries,
                })
                .boxed(),
            );
        }
        Union::new(arms)
    })
}
