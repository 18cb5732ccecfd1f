//! Generated Rust types: the committed output matches the generator, the types compile
//! without warnings (this file denies them), and they write and read the fixture beans'
//! exact bytes, the same as the schema tree codec.
#![deny(warnings)]

use gamewire_zeze::schema::Schema;
use gamewire_zeze::types::{Binary, Vector2, Vector3Int};
use gamewire_zeze::{from_bytes, to_bytes, Options};
use proptest::prelude::*;

#[allow(dead_code)]
mod fixtures {
    include!("generated/fixtures.rs");
}
use fixtures::*;

mod common;
use common::files::{bean_bytes, sample_schema};

/// Generated from the real `confcs/solution.xml` of Zeze's repository: inheritance
/// (Module11's Base, Derive, Final), dynamics over them, and `<enum>` constants.
#[allow(dead_code)]
mod confcs {
    include!("generated/confcs.rs");
}

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../samples/zeze/zeze-solution.xml"
);
const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/generated/fixtures.rs");
const CONFCS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/zeze/real/confcs/solution.xml"
);
const GENERATED_CONFCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/generated/confcs.rs");

fn confcs_schema() -> Schema {
    Schema::from_file(std::path::Path::new(CONFCS)).unwrap()
}

/// Regenerate with `GAMEWIRE_REGEN=1 cargo test -p gamewire-zeze --test gen`.
#[test]
fn committed_output_is_current() {
    for (s, path) in [
        (sample_schema(), GENERATED),
        (confcs_schema(), GENERATED_CONFCS),
    ] {
        let code = gamewire_zeze::gen::generate(&s).unwrap();
        if std::env::var_os("GAMEWIRE_REGEN").is_some() {
            std::fs::write(path, &code).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            code,
            "{path} is stale: rerun with GAMEWIRE_REGEN=1"
        );
    }
}

#[test]
fn library_call_writes_the_file() {
    let dir = std::env::temp_dir().join(format!("gamewire-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = gamewire_zeze::gen::gen(SCHEMA, &dir).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(GENERATED).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generated_types_match_java_vectors() {
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
    // The same bytes through the schema tree codec.
    let s = sample_schema();
    let j = s
        .decode(BOuter::FULL_NAME, &bytes, &Options::default())
        .unwrap();
    assert_eq!(s.encode(BOuter::FULL_NAME, &j).unwrap(), bytes);
}

#[test]
fn protocol_ids_and_types() {
    assert_eq!((Simple::MODULE_ID, Simple::PROTOCOL_ID), (1, 100));
    assert_eq!(Simple::FULL_NAME, "fixtures.outer.Simple");
    assert_eq!((Outer::MODULE_ID, Outer::PROTOCOL_ID), (1, 200));
    let rpc = Outer::default();
    let _: (&BOuter, &BInner) = (&rpc.argument, &rpc.result);
    let p = Simple::default();
    let _: &BSimple = &p.argument;
}

fn inner_strategy() -> impl Strategy<Value = BInner> {
    (any::<i32>(), "[a-z]{0,4}").prop_map(|(x, name)| BInner { x, name })
}

fn simple_strategy() -> impl Strategy<Value = BSimple> {
    (
        any::<i32>(),
        any::<i64>(),
        "[a-zé]{0,5}",
        -1e6f32..1e6,
        -1e9f64..1e9,
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(i, l, s, f, d, b, bin)| BSimple {
            i,
            l,
            s,
            f,
            d,
            b,
            bin: Binary(bin),
        })
}

fn holder_strategy() -> impl Strategy<Value = BHolder> {
    let dynamic = prop_oneof![
        Just(BHolderAny::Empty),
        simple_strategy().prop_map(BHolderAny::BSimple),
        inner_strategy().prop_map(BHolderAny::BInner),
    ];
    let many = prop_oneof![
        simple_strategy().prop_map(BHolderMany::BSimple),
        inner_strategy().prop_map(BHolderMany::BInner),
    ];
    (
        dynamic,
        proptest::collection::vec(many, 0..3),
        inner_strategy(),
        any::<i32>(),
        -1e3f32..1e3,
        proptest::collection::btree_map(
            any::<i64>(),
            proptest::collection::vec(any::<u8>(), 0..3),
            0..3,
        ),
        proptest::collection::vec(((-5i32..5, -5i32..5), "[a-z]{0,3}"), 0..3),
    )
        .prop_map(
            |(any, many, as_bean, count, ratio, by_id, points)| BHolder {
                any,
                many,
                as_bean,
                count,
                ratio,
                quat: gamewire_zeze::types::Vector4([0.0, 0.5, -1.0, 2.0]),
                by_id: by_id.into_iter().map(|(k, v)| (k, Binary(v))).collect(),
                points: gamewire_zeze::gen::Pairs(
                    points
                        .into_iter()
                        .map(|((x, y), s)| (gamewire_zeze::types::Vector2Int([x, y]), s))
                        .collect(),
                ),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Generated types and the schema tree codec write the same bytes, and both read
    /// them back to the same value.
    #[test]
    fn generated_equals_tree_codec(h in holder_strategy(), o in (inner_strategy(), proptest::collection::vec(any::<i32>(), 0..4))) {
        let s = sample_schema();
        let bytes = to_bytes(&h).unwrap();
        let j = s.decode(BHolder::FULL_NAME, &bytes, &Options::default()).unwrap();
        prop_assert_eq!(s.encode(BHolder::FULL_NAME, &j).unwrap(), bytes.clone());
        prop_assert_eq!(from_bytes::<BHolder>(&bytes).unwrap(), h);

        let outer = BOuter { inner: o.0, ints: o.1, ..BOuter::default() };
        let bytes = to_bytes(&outer).unwrap();
        let j = s.decode(BOuter::FULL_NAME, &bytes, &Options::default()).unwrap();
        prop_assert_eq!(s.encode(BOuter::FULL_NAME, &j).unwrap(), bytes.clone());
        prop_assert_eq!(from_bytes::<BOuter>(&bytes).unwrap(), outer);
    }
}

/// A generated protocol and Rpc write the same frames as the tree codec and read them
/// back; a frame of another protocol is refused.
#[test]
fn generated_protocols_read_and_write_frames() {
    use gamewire_zeze::frame::{decode_frames, Family, FrameOptions, Payload};
    let mut simple = Simple::default();
    simple.argument.i = 150;
    simple.argument.s = "hi".into();
    let mut outer = Outer::default();
    outer.argument.ints = vec![1, -1, 300];
    outer.result.x = 7;
    let mut bytes = Vec::new();
    simple.write_frame(&mut bytes).unwrap();
    outer.write_request(5, &mut bytes).unwrap();
    outer.write_response(5, Some(3), &mut bytes).unwrap();
    // The tree codec reads the same stream: ids, families, session and result code.
    let frames = decode_frames(&bytes, &FrameOptions::default()).unwrap();
    assert_eq!(frames.len(), 3);
    let heads: Vec<_> = frames
        .iter()
        .map(|f| match &f.payload {
            Payload::Body(b) => (
                f.module_id,
                f.protocol_id,
                b.family,
                b.session_id,
                b.result_code,
            ),
            Payload::Raw(_) => panic!("raw body"),
        })
        .collect();
    assert_eq!(
        heads,
        vec![
            (1, 100, Family::Protocol, None, None),
            (1, 200, Family::Request, Some(5), None),
            (1, 200, Family::Response, Some(5), Some(3)),
        ]
    );
    let opts = FrameOptions::default();
    let (got, head, n1) = Simple::read_frame(&bytes, &opts).unwrap().unwrap();
    assert_eq!((got, head.family), (simple.clone(), Family::Protocol));
    let (req, head, n2) = Outer::read_request(&bytes[n1..], &opts).unwrap().unwrap();
    assert_eq!(
        (req.argument, head.session_id),
        (outer.argument.clone(), Some(5))
    );
    let (resp, head, n3) = Outer::read_response(&bytes[n1 + n2..], &opts)
        .unwrap()
        .unwrap();
    assert_eq!(
        (resp.result, head.result_code),
        (outer.result.clone(), Some(3))
    );
    assert_eq!(n1 + n2 + n3, bytes.len());
    // Partial input asks for more; another protocol's frame is an error.
    assert!(Simple::read_frame(&bytes[..n1 - 1], &opts)
        .unwrap()
        .is_none());
    assert!(Simple::read_frame(&bytes[n1..], &opts).is_err());
}

/// Inheritance: `Final` (base `Derive`, base `Base`) writes and reads the bytes of Zeze's
/// Java (vectors.json: "Final extends Derive extends Base" and "Final, all defaults"),
/// for the sample solution's beans and for confcs's real ones.
#[test]
fn derived_beans_match_java_vectors() {
    let v = Final {
        final_int: 3,
        base: Derive {
            derive_int: 2,
            base: Base { base_int: 1 },
        },
    };
    // Deref reaches the bases' variables.
    assert_eq!((v.final_int, v.derive_int, v.base_int), (3, 2, 1));
    let bytes = bean_bytes(2);
    assert_eq!(
        bytes,
        [0x10, 0x03, 0x01, 0x10, 0x02, 0x01, 0x10, 0x01, 0x00]
    );
    assert_eq!(to_bytes(&v).unwrap(), bytes);
    assert_eq!(from_bytes::<Final>(&bytes).unwrap(), v);
    let empty = bean_bytes(3);
    assert_eq!(to_bytes(&Final::default()).unwrap(), empty);
    assert_eq!(from_bytes::<Final>(&empty).unwrap(), Final::default());
    // The tree codec agrees.
    let s = sample_schema();
    let j = s
        .decode(Final::FULL_NAME, &bytes, &Options::default())
        .unwrap();
    assert_eq!(
        j,
        serde_json::json!({"finalInt": 3, "deriveInt": 2, "baseInt": 1})
    );

    // confcs: the same layout, and held in a dynamic under its special type id 3.
    use confcs::{Base as CBase, Derive as CDerive, Dynamic, DynamicDyn, Final as CFinal};
    let f = CFinal {
        final_int: 3,
        base: CDerive {
            derive_int: 2,
            base: CBase { base_int: 1 },
        },
    };
    assert_eq!(to_bytes(&f).unwrap(), bytes);
    assert_eq!(from_bytes::<CFinal>(&bytes).unwrap(), f);
    let d = Dynamic {
        r#dyn: DynamicDyn::Final(f.clone()),
        ..Dynamic::default()
    };
    let mut want = vec![0x17, 0x03];
    want.extend_from_slice(&bytes);
    want.push(0x00);
    assert_eq!(to_bytes(&d).unwrap(), want);
    assert_eq!(from_bytes::<Dynamic>(&want).unwrap(), d);
    let c = confcs_schema();
    let j = c
        .decode(Dynamic::FULL_NAME, &want, &Options::default())
        .unwrap();
    assert_eq!(j["dyn"]["bean"], CFinal::FULL_NAME);
    assert_eq!(c.encode(Dynamic::FULL_NAME, &j).unwrap(), want);
}

/// A derived bean's reader does what Zeze's generated `decode` does: unknown fields of a
/// level are skipped, a level that ends with `0` before its base leaves the base at its
/// default, and fields absent from a level are defaults.
#[test]
fn derived_beans_skip_unknown_fields_and_default_a_missing_base() {
    // Final: unknown field id 2 (int 7), then the base level Derive: only its base.
    let bytes = [0x10, 0x03, 0x10, 0x07, 0x01, 0x01, 0x10, 0x01, 0x00];
    let v = from_bytes::<Final>(&bytes).unwrap();
    assert_eq!((v.final_int, v.derive_int, v.base_int), (3, 0, 1));
    // No base level at all.
    let v = from_bytes::<Final>(&[0x10, 0x03, 0x00]).unwrap();
    assert_eq!(
        v,
        Final {
            final_int: 3,
            ..Final::default()
        }
    );
    // Truncated in the base: an error, not a panic.
    assert!(from_bytes::<Final>(&[0x10, 0x03, 0x01, 0x10]).is_err());
    // Held by value and absent: the zero value, all levels.
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Holder {
        #[serde(rename = "f#1")]
        f: Final,
        #[serde(rename = "x#2")]
        x: i32,
    }
    let h = from_bytes::<Holder>(&[0x20, 0x05, 0x00]).unwrap();
    assert_eq!(
        h,
        Holder {
            f: Final::default(),
            x: 5
        }
    );
    // Held by value and present: tag 0x16 (id 1, BEAN = 6), Final's bytes.
    let h = Holder {
        f: from_bytes(&bean_bytes(2)).unwrap(),
        x: 5,
    };
    let mut want = vec![0x16];
    want.extend_from_slice(&bean_bytes(2));
    want.extend_from_slice(&[0x10, 0x05, 0x00]);
    assert_eq!(to_bytes(&h).unwrap(), want);
    assert_eq!(from_bytes::<Holder>(&want).unwrap(), h);
}

/// `<enum>` constants become `pub const`s: on the bean (Java's static finals of the
/// bean class), and in a module per Zeze module.
#[test]
fn enums_become_constants() {
    // <bean name="Bean1"><enum name="Enum1" value="4"/>
    assert_eq!(confcs::Bean1::ENUM1, 4);
    // <module name="Module1"><enum name="eTestEnum" value="1"/> Test Enum
    assert_eq!(confcs::demo_module1::E_TEST_ENUM, 1);
    let code = std::fs::read_to_string(GENERATED_CONFCS).unwrap();
    assert!(
        code.contains("/// `<enum name=\"eTestEnum\">`: Test Enum"),
        "{code}"
    );
}

/// `default="1"`: a new value starts there (Zeze's generated constructor), is written
/// because it is not zero, and an absent variable reads as zero (Zeze's generated
/// `decode` sets it to 0 when the id is missing).
#[test]
fn variable_defaults_are_the_new_value_not_the_absent_one() {
    let b = confcs::Bean1::default();
    assert_eq!(b.v1, 1);
    let bytes = to_bytes(&b).unwrap();
    assert_eq!(bytes, [0x10, 0x01, 0x00]);
    assert_eq!(from_bytes::<confcs::Bean1>(&bytes).unwrap(), b);
    assert_eq!(from_bytes::<confcs::Bean1>(&[0x00]).unwrap().v1, 0);
    let c = confcs_schema();
    assert_eq!(
        c.encode(confcs::Bean1::FULL_NAME, &serde_json::json!({"v1": 1}))
            .unwrap(),
        bytes
    );
    assert_eq!(c.initial("demo.Bean1", "v1"), Some("1"));
    assert_eq!(confcs::Key::default().s, 1);
}

/// `TYPE_ID` is Zeze's `TYPEID`: the `TypeId` attribute, else the hash of the full name.
#[test]
fn type_ids_are_zezes() {
    // <bean name="Simple" TypeId="1">, <bean name="Value" TypeId="2"> (Module2).
    assert_eq!(confcs::Simple::TYPE_ID, 1);
    assert_eq!(confcs::Module2Value::TYPE_ID, 2);
    assert_eq!(
        confcs::Base::TYPE_ID,
        gamewire_zeze::hash::hash64("demo.Module1.Module11.Base")
    );
}

fn final_strategy() -> impl Strategy<Value = Final> {
    (any::<i32>(), any::<i32>(), any::<i32>()).prop_map(|(f, d, b)| Final {
        final_int: f,
        base: Derive {
            derive_int: d,
            base: Base { base_int: b },
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Derived beans: generated types and the tree codec write the same bytes and read
    /// them back, alone and inside a dynamic list (confcs's `dynList`).
    #[test]
    fn derived_generated_equals_tree_codec(f in final_strategy(), picks in proptest::collection::vec(0u8..3, 0..4)) {
        let s = sample_schema();
        let bytes = to_bytes(&f).unwrap();
        let j = s.decode(Final::FULL_NAME, &bytes, &Options::default()).unwrap();
        prop_assert_eq!(s.encode(Final::FULL_NAME, &j).unwrap(), bytes.clone());
        prop_assert_eq!(from_bytes::<Final>(&bytes).unwrap(), f.clone());

        use confcs::{Base as CBase, Derive as CDerive, Dynamic, DynamicDynList, Final as CFinal};
        let c = confcs_schema();
        let list: Vec<DynamicDynList> = picks
            .iter()
            .map(|p| match p {
                0 => DynamicDynList::Base(CBase { base_int: f.base_int }),
                1 => DynamicDynList::Derive(CDerive {
                    derive_int: f.derive_int,
                    base: CBase { base_int: f.base_int },
                }),
                _ => DynamicDynList::Final(CFinal {
                    final_int: f.final_int,
                    base: CDerive {
                        derive_int: f.derive_int,
                        base: CBase { base_int: f.base_int },
                    },
                }),
            })
            .collect();
        let d = Dynamic { dyn_list: list, ..Dynamic::default() };
        let bytes = to_bytes(&d).unwrap();
        let j = c.decode(Dynamic::FULL_NAME, &bytes, &Options::default()).unwrap();
        prop_assert_eq!(c.encode(Dynamic::FULL_NAME, &j).unwrap(), bytes.clone());
        prop_assert_eq!(from_bytes::<Dynamic>(&bytes).unwrap(), d);
    }
}
