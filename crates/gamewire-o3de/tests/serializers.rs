//! Table-driven ports of O3DE's JSON serializer tests
//! (`Code/Framework/AzCore/Tests/Serialization/Json/*`): same inputs, same outcomes.

use gamewire_o3de::{
    load, store, LoadOptions, Outcome, Processing, Registry, StoreOptions, TypeExpr, Value,
};
use serde_json::{json, Value as Json};

fn registry() -> Registry {
    Registry::from_json(&json!({
        "enums": [
            {"name": "UnscopedEnumBitFlags", "underlying": "u8",
             "values": {"Flags0": 0, "Flags1": 1, "Flags2": 2, "Flags3": 3}},
            {"name": "ScopedEnumFlagsU8", "underlying": "u8",
             "values": {"Flags0": 0, "Flags1": 1, "Flags2": 2, "Flags3": 129}},
            {"name": "ScopedEnumFlagsS16", "underlying": "i16",
             "values": {"Flags0": 0, "Flags1": 1, "Flags2": -8, "Flags3": 22}},
            {"name": "ScopedEnumFlagsS32", "underlying": "i32",
             "values": {"Flags0": 0, "Flags1": 1, "Flags2": -8, "Flags3": 22}},
            {"name": "ScopedEnumBitFlagsS64", "underlying": "i64",
             "values": {"BitFlagNegative": -9223372019658129408i64, "BitFlag0": 0, "BitFlag1": 1, "BitFlag2": 2,
                        "BitFlag3": 4, "BitFlag4": 8, "BitFlag1And2": 3, "BitFlag2And4": 10}},
            {"name": "ScopedEnumBitFlagsU64", "underlying": "u64",
             "values": {"BitFlag0": 0, "BitFlag1": 1, "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8,
                        "BitFlag1And2": 3, "BitFlag2And4": 10}},
            {"name": "ScopedEnumBitFlagsNoZero", "underlying": "u64",
             "values": {"BitFlag1": 1, "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8,
                        "BitFlag1And2": 3, "BitFlag2And4": 10}},
            {"name": "EnumS8", "underlying": "i8", "values": {"A": 1}}
        ],
        "classes": [
            {"name": "SimpleClass", "uuid": "{A4E1C4B5-0B4C-4E53-9C2C-1A8E6E3D9F01}",
             "fields": [{"name": "var1", "type": "i32", "default": 42},
                        {"name": "var2", "type": "f64", "default": 42.0}]},
            {"name": "BaseClass", "uuid": "{D5B5ACA6-A81E-410B-8151-80C97B8CD2A0}",
             "fields": [{"name": "base_var", "type": "f32", "default": 42.0}]},
            {"name": "DerivedClass", "uuid": "{E2246B17-7F7A-4D4B-9C3E-0B2A3C4D5E6F}", "bases": ["BaseClass"],
             "fields": [{"name": "derived_var", "type": "f32", "default": 42.0}]},
            {"name": "AbstractBase", "abstract": true, "fields": [{"name": "x", "type": "i32"}]},
            {"name": "Holder", "fields": [
                {"name": "ptr", "type": "BaseClass*"},
                {"name": "shared", "type": "shared_ptr<BaseClass>"},
                {"name": "abs", "type": "AbstractBase*"}]},
            {"name": "Dup", "uuid": "{11111111-1111-1111-1111-111111111111}", "bases": ["BaseClass"]},
            {"name": "Dup", "uuid": "{22222222-2222-2222-2222-222222222222}"}
        ]
    }))
    .unwrap()
}

struct Case {
    ty: &'static str,
    input: Json,
    outcome: Outcome,
    /// The stored JSON of the loaded value (`None`: not checked).
    stored: Option<Json>,
}

fn case(ty: &'static str, input: Json, outcome: Outcome, stored: Option<Json>) -> Case {
    Case {
        ty,
        input,
        outcome,
        stored,
    }
}

fn run(cases: &[Case]) {
    let reg = registry();
    for c in cases {
        let ty = reg.parse_type(c.ty).unwrap();
        let (v, rep) = load(&reg, &ty, &c.input, &LoadOptions::default());
        assert_eq!(
            rep.outcome(),
            c.outcome,
            "{} from {}: report {:?}",
            c.ty,
            c.input,
            rep
        );
        if let Some(expected) = &c.stored {
            let (j, _) = store(
                &reg,
                &ty,
                &v,
                &StoreOptions {
                    keep_defaults: true,
                    ..Default::default()
                },
            );
            assert_eq!(&j, expected, "{} from {}", c.ty, c.input);
        }
    }
}

use Outcome::*;

#[test]
fn int_serializer() {
    run(&[
        case("i32", json!(false), Success, Some(json!(0))),
        case("u8", json!(true), Success, Some(json!(1))),
        case("i16", json!("34"), Success, Some(json!(34))),
        case("i32", json!("-34"), Success, Some(json!(-34))),
        case("u32", json!("-34"), Unsupported, Some(json!(0))),
        case("i64", json!("34 Hello"), Success, Some(json!(34))),
        case("i8", json!("-34 Hello"), Success, Some(json!(-34))),
        case("u16", json!("-34 Hello"), Unsupported, Some(json!(0))),
        case("i32", json!("12.6"), Success, Some(json!(12))),
        case("i32", json!("-12.6"), Success, Some(json!(-12))),
        case("u64", json!("-12.6"), Unsupported, Some(json!(0))),
        case("i32", json!("hello 2.4"), Unsupported, Some(json!(0))),
        case("i32", json!(".5"), Unsupported, Some(json!(0))),
        case("i32", json!("-.5"), Unsupported, Some(json!(0))),
        case("i32", json!(""), Unsupported, Some(json!(0))),
        case("i32", json!("0x1F"), Success, Some(json!(31))),
        case("i32", json!("010"), Success, Some(json!(8))),
        // Max/min values: converted if they fit, Unsupported (not clamped) if not.
        case("i8", json!(127), Success, Some(json!(127))),
        case("i8", json!(128), Unsupported, Some(json!(0))),
        case("u8", json!(255), Success, Some(json!(255))),
        case("u8", json!(-1), Unsupported, Some(json!(0))),
        case("i16", json!(-32768), Success, Some(json!(-32768))),
        case("i32", json!(2147483648i64), Unsupported, Some(json!(0))),
        case("u64", json!(u64::MAX), Success, Some(json!(u64::MAX))),
        case("i64", json!(u64::MAX), Unsupported, Some(json!(0))),
        case(
            "i64",
            json!("9223372036854775807"),
            Success,
            Some(json!(i64::MAX)),
        ),
        case(
            "i64",
            json!("9223372036854775808"),
            Unsupported,
            Some(json!(0)),
        ),
        case(
            "u64",
            json!("18446744073709551615"),
            Success,
            Some(json!(u64::MAX)),
        ),
        case("i32", json!(f32::MAX as f64), Unsupported, Some(json!(0))),
        case(
            "i64",
            json!("340282346638528859811704183484516925440.000000"),
            Unsupported,
            None,
        ),
        case("i32", json!(3.75), Success, Some(json!(3))),
        case("i32", json!([]), Unsupported, None),
        case("i32", json!(null), Unsupported, None),
        case("i32", json!({}), DefaultsUsed, Some(json!(0))),
    ]);
}

#[test]
fn bool_serializer() {
    run(&[
        case("bool", json!(true), Success, Some(json!(true))),
        case("bool", json!("true"), Success, Some(json!(true))),
        case("bool", json!("TRUE"), Success, Some(json!(true))),
        case("bool", json!("False"), Success, Some(json!(false))),
        case("bool", json!("1"), Success, Some(json!(true))),
        case("bool", json!("0"), Success, Some(json!(false))),
        case("bool", json!("42 apples"), Success, Some(json!(true))),
        case("bool", json!("truex"), Unsupported, Some(json!(false))),
        case("bool", json!(""), Unsupported, None),
        case("bool", json!(0), Success, Some(json!(false))),
        case("bool", json!(-3), Success, Some(json!(true))),
        case("bool", json!(0.0), Success, Some(json!(false))),
        case("bool", json!(0.5), Success, Some(json!(true))),
        case("bool", json!([true]), Unsupported, None),
        case("bool", json!(null), Unsupported, None),
    ]);
}

#[test]
fn double_serializer() {
    run(&[
        case("f64", json!(3.5), Success, Some(json!(3.5))),
        case("f64", json!("3.5"), Success, Some(json!(3.5))),
        case("f64", json!("3.5 meters"), Success, Some(json!(3.5))),
        case("f64", json!("-.5"), Success, Some(json!(-0.5))),
        case("f64", json!("1e3"), Success, Some(json!(1000.0))),
        case("f64", json!("1e400"), Unsupported, Some(json!(0.0))),
        case("f64", json!("hello"), Unsupported, None),
        case("f64", json!(""), Unsupported, None),
        case("f64", json!(true), Success, Some(json!(1.0))),
        case("f64", json!(42), Success, Some(json!(42.0))),
        case("f32", json!(0.5), Success, Some(json!(0.5))),
        case("f32", json!(f64::MAX), Unsupported, Some(json!(0.0))),
        case("f32", json!("1e39"), Unsupported, None),
        case("f32", json!(0.1), Success, Some(json!(0.10000000149011612))),
        case("f64", json!({}), DefaultsUsed, Some(json!(0.0))),
        case("f64", json!([1.0]), Unsupported, None),
    ]);
}

#[test]
fn string_serializer() {
    run(&[
        case("string", json!("hello"), Success, Some(json!("hello"))),
        case("string", json!(true), Success, Some(json!("True"))),
        case("string", json!(false), Success, Some(json!("False"))),
        case("string", json!(42), Success, Some(json!("42"))),
        case("string", json!(-42), Success, Some(json!("-42"))),
        case("string", json!(3.25), Success, Some(json!("3.250000"))),
        case("string", json!(null), Unsupported, None),
        case("string", json!(["a"]), Unsupported, None),
        case("string", json!({}), DefaultsUsed, Some(json!(""))),
    ]);
}

#[test]
fn uuid_serializer() {
    let u = "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}";
    run(&[
        case("Uuid", json!(u), Success, Some(json!(u))),
        case(
            "Uuid",
            json!("{9b0a0f3a-0b1c-4d2e-8f90-123456789abc}"),
            Success,
            Some(json!(u)),
        ),
        case(
            "Uuid",
            json!("{9B0A0F3A0B1C4D2E8F90123456789ABC}"),
            Success,
            Some(json!(u)),
        ),
        case(
            "Uuid",
            json!("prefix {9B0A0F3A-0B1C-4D2E-8F90-123456789ABC} suffix"),
            Success,
            Some(json!(u)),
        ),
        case(
            "Uuid",
            json!("9B0A0F3A-0B1C-4D2E-8F90-123456789ABC"),
            Unsupported,
            None,
        ),
        case(
            "Uuid",
            json!("{00000000-0000-0000-0000-000000000000}"),
            DefaultsUsed,
            None,
        ),
        case(
            "Uuid",
            json!("{00000000000000000000000000000000}"),
            Unsupported,
            None,
        ),
        case("Uuid", json!(42), Unsupported, None),
        // UuidSerializerTests ports.
        case(
            "Uuid",
            json!("Hello{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}world"),
            Success,
            Some(json!(u)),
        ),
        case("Uuid", json!("Hello world"), Unsupported, None),
        case(
            "Uuid",
            json!("{8651B6DA-9792-407C-A46D-AXXX39CA900}"),
            Unsupported,
            None,
        ),
        case(
            "Uuid",
            json!("{51CD2896-A963-4CA1-AE9039AEBDA72364}"),
            Unsupported,
            None,
        ),
        case(
            "Uuid",
            json!("{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}{01A6F1D2-BFCE-431A-B33A-D1C29672EDBC}"),
            Success,
            Some(json!(u)),
        ),
        case("Uuid", json!({}), DefaultsUsed, None),
    ]);
}

#[test]
fn color_serializer() {
    run(&[
        case(
            "Color",
            json!([0.5, 0.25, 1.0, 0.75]),
            Success,
            Some(json!([0.5, 0.25, 1.0, 0.75])),
        ),
        // Three floats: alpha keeps its value, partial defaults.
        case(
            "Color",
            json!([0.5, 0.25, 1.0]),
            PartialDefaults,
            Some(json!([0.5, 0.25, 1.0, 0.0])),
        ),
        // Channels must be decimal numbers.
        case("Color", json!([1, 0.25, 1.0]), Unsupported, None),
        case("Color", json!([0.5, 0.25]), Unsupported, None),
        case(
            "Color",
            json!({"RGB": [0.5, 0.25, 1.0]}),
            Success,
            Some(json!([0.5, 0.25, 1.0, 0.0])),
        ),
        case(
            "Color",
            json!({"rgba": [0.5, 0.25, 1.0, 0.5]}),
            Success,
            Some(json!([0.5, 0.25, 1.0, 0.5])),
        ),
        case(
            "Color",
            json!({"RGBA8": [255, 0, 300, -5]}),
            Success,
            Some(json!([1.0, 0.0, 1.0, 0.0])),
        ),
        case(
            "Color",
            json!({"RGB8": [255, 0, 255]}),
            Success,
            Some(json!([1.0, 0.0, 1.0, 0.0])),
        ),
        case("Color", json!({"RGB8": [255, 0.5, 255]}), Unsupported, None),
        case(
            "Color",
            json!({"HEX": "FF00FF"}),
            Success,
            Some(json!([1.0, 0.0, 1.0, 0.0])),
        ),
        case(
            "Color",
            json!({"HEXA": "ff00ff00extra"}),
            Success,
            Some(json!([1.0, 0.0, 1.0, 0.0])),
        ),
        case("Color", json!({"HEX": "FF00F"}), Unsupported, None),
        case("Color", json!({"HEX": "FF00FG"}), Unsupported, None),
        // The last recognised member wins.
        case(
            "Color",
            json!({"RGB": [0.5, 0.5, 0.5], "HEX": "000000"}),
            Success,
            Some(json!([0.0, 0.0, 0.0, 0.0])),
        ),
        case("Color", json!({"Other": 1}), Unsupported, None),
        // ColorSerializerTests ports.
        case(
            "Color",
            json!([1.0, 0.1, 0.5, 0.8, 0.2, 0.3]),
            Success,
            None,
        ),
        case(
            "Color",
            json!(["Hello", 0.5, 0.5, 0.5]),
            Unsupported,
            Some(json!([0.0, 0.0, 0.0, 0.0])),
        ),
        case("Color", json!({"rGb": [1.0, 0.1, 0.5, 0.8]}), Success, None),
        case(
            "Color",
            json!({"RGB": [1.0, "Hello world", 0.5, 0.8]}),
            Unsupported,
            Some(json!([0.0, 0.0, 0.0, 0.0])),
        ),
        case("Color", json!({"RGB": "FF00FF00"}), Unsupported, None),
        case("Color", json!({"RGBA": [1.0, 0.1]}), Unsupported, None),
        case(
            "Color",
            json!({"rGbA": [1.0, 0.1, 0.5, 0.8, 0.3]}),
            Success,
            None,
        ),
        case(
            "Color",
            json!({"rGb8": [255, 51, 204, 153]}),
            Success,
            Some(json!([1.0, 0.2f32 as f64, 0.8f32 as f64, 0.0])),
        ),
        case(
            "Color",
            json!({"rGbA8": [255, 51, 204, 153]}),
            Success,
            Some(json!([1.0, 0.2f32 as f64, 0.8f32 as f64, 0.6f32 as f64])),
        ),
        case("Color", json!({"RGB8": [255, 51]}), Unsupported, None),
        case("Color", json!({"RGB8": "FF00FF00"}), Unsupported, None),
        case("Color", json!("red"), Unsupported, None),
    ]);
}

#[test]
fn vector_serializer() {
    run(&[
        case(
            "Vector3",
            json!([1.0, 2.0, 3.0]),
            Success,
            Some(json!([1.0, 2.0, 3.0])),
        ),
        case(
            "Vector3",
            json!([1, "2", true, 9]),
            Success,
            Some(json!([1.0, 2.0, 1.0])),
        ),
        // A short array is rejected, not zero-padded.
        case(
            "Vector3",
            json!([1.0, 2.0]),
            Unsupported,
            Some(json!([0.0, 0.0, 0.0])),
        ),
        case(
            "Vector2",
            json!({"X": 1.0, "y": 2.0}),
            Success,
            Some(json!([1.0, 2.0])),
        ),
        case(
            "Vector4",
            json!({"x": 1.0, "W": 4.0}),
            PartialDefaults,
            Some(json!([1.0, 0.0, 0.0, 4.0])),
        ),
        case(
            "Vector3",
            json!({"a": 1.0}),
            DefaultsUsed,
            Some(json!([0.0, 0.0, 0.0])),
        ),
        case(
            "Vector3",
            json!([1.0, "x", 3.0]),
            Unsupported,
            Some(json!([0.0, 0.0, 0.0])),
        ),
        case(
            "Vector3",
            json!({}),
            DefaultsUsed,
            Some(json!([0.0, 0.0, 0.0])),
        ),
        case("Vector3", json!(1.0), Unsupported, None),
        case(
            "Quaternion",
            json!([0.0, 0.0, 0.0, 1.0]),
            Success,
            Some(json!([0.0, 0.0, 0.0, 1.0])),
        ),
        case(
            "Quaternion",
            json!({}),
            DefaultsUsed,
            Some(json!([0.0, 0.0, 0.0, 1.0])),
        ),
    ]);
}

#[test]
fn transform_serializer() {
    run(&[
        case(
            "Transform",
            json!({"Translation": [1.0, 2.0, 3.0], "Rotation": [0.0, 0.0, 0.0, 1.0], "Scale": 2.0}),
            Success,
            Some(
                json!({"Translation": [1.0, 2.0, 3.0], "Rotation": [0.0, 0.0, 0.0, 1.0], "Scale": 2.0}),
            ),
        ),
        case(
            "Transform",
            json!({"Translation": [1.0, 2.0, 3.0]}),
            PartialDefaults,
            Some(
                json!({"Translation": [1.0, 2.0, 3.0], "Rotation": [0.0, 0.0, 0.0, 1.0], "Scale": 1.0}),
            ),
        ),
        case(
            "Transform",
            json!({"Translation": [1.0, 2.0]}),
            Unsupported,
            None,
        ),
        case("Transform", json!([1.0]), Unsupported, None),
    ]);
}

#[test]
fn enum_serializer() {
    run(&[
        case(
            "UnscopedEnumBitFlags",
            json!([]),
            DefaultsUsed,
            Some(json!("Flags0")),
        ),
        case(
            "UnscopedEnumBitFlags",
            json!(""),
            DefaultsUsed,
            Some(json!("Flags0")),
        ),
        case(
            "UnscopedEnumBitFlags",
            json!(1),
            Success,
            Some(json!("Flags1")),
        ),
        case(
            "ScopedEnumFlagsS32",
            json!(-8),
            Success,
            Some(json!("Flags2")),
        ),
        case(
            "UnscopedEnumBitFlags",
            json!(256),
            Unsupported,
            Some(json!("Flags0")),
        ),
        case(
            "UnscopedEnumBitFlags",
            json!(255),
            Success,
            Some(json!(["Flags3", "Flags2", "Flags1", 252])),
        ),
        case(
            "ScopedEnumFlagsU8",
            json!("Johannesburg"),
            Unsupported,
            Some(json!("Flags0")),
        ),
        case(
            "ScopedEnumFlagsS16",
            json!("Flags3"),
            Success,
            Some(json!("Flags3")),
        ),
        case(
            "ScopedEnumFlagsS16",
            json!("fLAGS2"),
            Success,
            Some(json!("Flags2")),
        ),
        case(
            "ScopedEnumFlagsS16",
            json!("22"),
            Success,
            Some(json!("Flags3")),
        ),
        case(
            "ScopedEnumFlagsU8",
            json!("0x81"),
            Success,
            Some(json!("Flags3")),
        ),
        case(
            "ScopedEnumBitFlagsU64",
            json!(["BitFlag1", "BitFlag3", 8]),
            Success,
            Some(json!(["BitFlag4", "BitFlag3", "BitFlag1"])),
        ),
        case(
            "ScopedEnumBitFlagsU64",
            json!(["BitFlag2", "BitFlag4"]),
            Success,
            Some(json!("BitFlag2And4")),
        ),
        case("ScopedEnumBitFlagsS64", json!(null), Unsupported, None),
        case("ScopedEnumBitFlagsS64", json!(true), Unsupported, None),
        case("ScopedEnumBitFlagsS64", json!(false), Unsupported, None),
        case(
            "ScopedEnumBitFlagsS64",
            json!({"Test": 42}),
            Unsupported,
            None,
        ),
        case(
            "ScopedEnumBitFlagsS64",
            json!(["BitFlag0", false, "BitFlag2"]),
            Unsupported,
            Some(json!("BitFlag2")),
        ),
        case("ScopedEnumBitFlagsS64", json!(1.5), Unsupported, None),
        case("EnumS8", json!(1), Unknown, None),
    ]);
    let reg = registry();
    let opts = StoreOptions::default();
    let st = |name: &str, v: Value| store(&reg, &reg.parse_type(name).unwrap(), &v, &opts);
    // Bit flags: exact names first, else matching names by descending value, then the leftover bits.
    let (j, r) = st("ScopedEnumBitFlagsU64", Value::UInt(4));
    assert_eq!((j, r.outcome()), (json!("BitFlag3"), Success));
    let (j, _) = st(
        "ScopedEnumBitFlagsS64",
        Value::Int(1 | 4 | 8 | 0b1011_0110_0000_0000),
    );
    assert_eq!(
        j,
        json!(["BitFlag4", "BitFlag3", "BitFlag1", 0b1011_0110_0000_0000])
    );
    let (j, _) = st(
        "ScopedEnumBitFlagsS64",
        Value::Int(1 | 4 | 8 | -9223372019658129408i64),
    );
    assert_eq!(
        j,
        json!(["BitFlagNegative", "BitFlag4", "BitFlag3", "BitFlag1"])
    );
    let (j, r) = st("ScopedEnumBitFlagsS64", Value::Int(0));
    assert_eq!((j, r.outcome()), (json!({}), DefaultsUsed));
    let keep = StoreOptions {
        keep_defaults: true,
        ..Default::default()
    };
    let ty = reg.parse_type("ScopedEnumBitFlagsNoZero").unwrap();
    let (j, r) = store(&reg, &ty, &Value::UInt(0), &keep);
    assert_eq!((j, r.outcome()), (json!(0), Success));
    let ty = reg.parse_type("ScopedEnumBitFlagsS64").unwrap();
    let (j, _) = store(&reg, &ty, &Value::Int(-9223372019658129408i64), &opts);
    assert_eq!(j, json!("BitFlagNegative"));
}

#[test]
fn class_loading() {
    run(&[
        case(
            "SimpleClass",
            json!({"var1": 88, "var2": 88.0}),
            Success,
            Some(json!({"var1": 88, "var2": 88.0})),
        ),
        case(
            "SimpleClass",
            json!({"VAR1": 88}),
            PartialDefaults,
            Some(json!({"var1": 88, "var2": 42.0})),
        ),
        case(
            "SimpleClass",
            json!({"var1": 88, "unknown": 1}),
            PartialDefaults,
            None,
        ),
        case("SimpleClass", json!({"unknown": 1}), DefaultsUsed, None),
        case(
            "SimpleClass",
            json!({}),
            DefaultsUsed,
            Some(json!({"var1": 42, "var2": 42.0})),
        ),
        case(
            "SimpleClass",
            json!({"var1": "x", "var2": 1.5}),
            Unsupported,
            Some(json!({"var1": 42, "var2": 1.5})),
        ),
        case("SimpleClass", json!([1]), Unsupported, None),
        case(
            "DerivedClass",
            json!({"base_var": 1.0, "derived_var": 2.0}),
            Success,
            Some(json!({"base_var": 1.0, "derived_var": 2.0})),
        ),
    ]);
    let reg = registry();
    let ty = reg.parse_type("SimpleClass").unwrap();
    let (v, rep) = load(
        &reg,
        &ty,
        &json!({"var1": 88, "unknown": 1, "var2": "x"}),
        &LoadOptions::default(),
    );
    assert_eq!(rep.processing(), Processing::PartialAlter);
    assert_eq!(rep.issues.len(), 2);
    assert_eq!(rep.issues[0].path, "/unknown");
    assert_eq!(rep.issues[0].code.outcome(), Skipped);
    assert_eq!(rep.issues[1].path, "/var2");
    assert_eq!(rep.issues[1].code.outcome(), Unsupported);
    // Stored without keep-defaults: only the changed field.
    let (j, r) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(j, json!({"var1": 88}));
    assert_eq!(r.outcome(), PartialDefaults);
    let (j, r) = store(&reg, &ty, &reg.zero(&ty), &StoreOptions::default());
    assert_eq!((j, r.outcome()), (json!({}), DefaultsUsed));
}

#[test]
fn containers() {
    run(&[
        case(
            "vector<i32>",
            json!([1, "2", 3.5]),
            Success,
            Some(json!([1, 2, 3])),
        ),
        case(
            "vector<i32>",
            json!([1, "x", 3]),
            Unsupported,
            Some(json!([1, 3])),
        ),
        case("vector<i32>", json!([]), Success, Some(json!([]))),
        case("vector<i32>", json!({}), DefaultsUsed, Some(json!([]))),
        case("vector<i32>", json!("1"), Unsupported, None),
        case(
            "fixed_vector<i32,2>",
            json!([1, 2, 3]),
            PartialSkip,
            Some(json!([1, 2])),
        ),
        case(
            "set<i32>",
            json!([3, 1, 2]),
            Success,
            Some(json!([1, 2, 3])),
        ),
        case("set<i32>", json!([1, 1]), Unavailable, Some(json!([1]))),
        case(
            "unordered_set<string>",
            json!(["b", "a", "c"]),
            Success,
            Some(json!(["a", "b", "c"])),
        ),
        case(
            "vector<vector<i32>>",
            json!([[1], [], [2, 3]]),
            Success,
            Some(json!([[1], [], [2, 3]])),
        ),
    ]);
    let reg = registry();
    // Large sets use the hash index: duplicates are still found, output stays sorted.
    let ty = reg.parse_type("set<i32>").unwrap();
    let input: Vec<i32> = (0..60).map(|i| (i * 7) % 45).collect();
    let (v, rep) = load(&reg, &ty, &json!(input), &LoadOptions::default());
    assert_eq!(rep.outcome(), Unavailable);
    assert_eq!(
        rep.issues
            .iter()
            .filter(|i| i.code.outcome() == Unavailable)
            .count(),
        16
    );
    assert_eq!(rep.issues[0].path, "/45");
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    let mut expected: Vec<Json> = (0..45).map(|i| json!(i)).collect();
    expected[0] = json!({}); // 0 is the element type's default
    assert_eq!(j, Json::Array(expected));
    let ty = reg.parse_type("map<string,i32>").unwrap();
    let mut m = serde_json::Map::new();
    for i in 0..40 {
        m.insert(format!("k{:02}", 39 - i), json!(i));
    }
    let arr: Vec<Json> = (0..40)
        .map(|i| json!({"Key": format!("k{:02}", i % 20), "Value": i}))
        .collect();
    let (v, _) = load(&reg, &ty, &Json::Object(m), &LoadOptions::default());
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(j.as_object().unwrap().keys().next().unwrap(), "k00");
    let (v, _) = load(&reg, &ty, &Json::Array(arr), &LoadOptions::default());
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(j.as_object().unwrap().len(), 20);
    // A repeated key has the later value loaded onto it (MapSerializer since PR #6832).
    assert_eq!(j["k05"], json!(25));
    // Elements equal to their type's default are written as {} unless keep-defaults.
    let ty = reg.parse_type("vector<i32>").unwrap();
    let (v, _) = load(&reg, &ty, &json!([0, 1]), &LoadOptions::default());
    let (j, r) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!((j, r.outcome()), (json!([{}, 1]), PartialDefaults));
    let (j, r) = store(&reg, &ty, &Value::Seq(vec![]), &StoreOptions::default());
    assert_eq!((j, r.outcome()), (json!({}), DefaultsUsed));
}

#[test]
fn maps() {
    run(&[
        case(
            "map<string,i32>",
            json!({"b": 2, "a": 1}),
            Success,
            Some(json!({"a": 1, "b": 2})),
        ),
        case(
            "unordered_map<string,i32>",
            json!({"b": 2, "a": 1}),
            Success,
            Some(json!({"a": 1, "b": 2})),
        ),
        case(
            "map<i32,string>",
            json!([{"Key": 2, "Value": "b"}, {"Key": 1, "Value": "a"}]),
            Success,
            Some(json!([{"Key": 1, "Value": "a"}, {"Key": 2, "Value": "b"}])),
        ),
        // Keys from member names go through the key type's coercions.
        case(
            "map<i32,string>",
            json!({"2": "b", "0x1": "a"}),
            Success,
            Some(json!([{"Key": 1, "Value": "a"}, {"Key": 2, "Value": "b"}])),
        ),
        case("map<i32,string>", json!([]), Success, Some(json!([]))),
        case("map<i32,string>", json!([1]), Unsupported, None),
        case(
            "map<i32,i32>",
            json!([{"Key": "x", "Value": 1}]),
            Unavailable,
            Some(json!([])),
        ),
        case("map<string,i32>", json!("x"), Unsupported, None),
        // A duplicate key: the later value is loaded onto the entry (MapSerializer since
        // o3de PR #6832; older O3DE kept the first, Unavailable).
        case(
            "map<i32,i32>",
            json!([{"Key": 1, "Value": 1}, {"Key": 1, "Value": 5}]),
            Success,
            Some(json!([{"Key": 1, "Value": 5}])),
        ),
        case(
            "unordered_multimap<string,i32>",
            json!({"a": [1, 2], "b": [3]}),
            Success,
            Some(json!({"a": [1, 2], "b": [3]})),
        ),
        case(
            "unordered_multimap<string,i32>",
            json!({"a": 1}),
            Unsupported,
            None,
        ),
        // "{}" is the default key; the pair then has partial defaults.
        case(
            "map<string,i32>",
            json!({"{}": 5}),
            PartialDefaults,
            Some(json!({"": 5})),
        ),
    ]);
    let reg = registry();
    let ty = reg.parse_type("unordered_map<string,i32>").unwrap();
    let (v, _) = load(&reg, &ty, &json!({"b": 0, "a": 1}), &LoadOptions::default());
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(serde_json::to_string(&j).unwrap(), r#"{"a":1,"b":{}}"#);
    let ty = reg.parse_type("unordered_map<f64,i32>").unwrap();
    let (v, _) = load(
        &reg,
        &ty,
        &json!([{"Key": 10.0, "Value": 1}, {"Key": 2.0, "Value": 2}]),
        &LoadOptions::default(),
    );
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!(
        j,
        json!([{"Key": 2.0, "Value": 2}, {"Key": 10.0, "Value": 1}])
    );
}

#[test]
fn tuples() {
    run(&[
        case(
            "pair<i32,string>",
            json!([1, "a"]),
            Success,
            Some(json!([1, "a"])),
        ),
        case(
            "tuple<i32,f64,bool>",
            json!([1, 2.5, true]),
            Success,
            Some(json!([1, 2.5, true])),
        ),
        // Entries that cannot load are skipped and the next array entry is tried.
        case(
            "tuple<i32,bool>",
            json!(["x", 1, true]),
            Unsupported,
            Some(json!([1, true])),
        ),
        case("pair<i32,i32>", json!([1]), Unsupported, None),
        case("pair<i32,i32>", json!({"a": 1}), Unsupported, None),
    ]);
    let reg = registry();
    let ty = reg.parse_type("pair<i32,string>").unwrap();
    let v = Value::Tuple(vec![Value::Int(0), Value::String("x".into())]);
    // At the top level there is no default to compare with...
    let (j, r) = store(&reg, &ty, &v, &StoreOptions::default());
    assert_eq!((j, r.outcome()), (json!([0, "x"]), Success));
    // ...against a default, elements equal to it become {}.
    let d = reg.zero(&ty);
    let (j, r) =
        gamewire_o3de::store_with_default(&reg, &ty, &v, Some(&d), &StoreOptions::default());
    assert_eq!((j, r.outcome()), (json!([{}, "x"]), PartialDefaults));
}

#[test]
fn pointers_and_type_ids() {
    let reg = registry();
    let holder = reg.parse_type("Holder").unwrap();
    let cases: &[(Json, Outcome, Json)] = &[
        (
            json!({"ptr": {"base_var": 1.0}}),
            PartialDefaults,
            json!({"ptr": {"base_var": 1.0}}),
        ),
        (
            json!({"ptr": {"$type": "DerivedClass", "derived_var": 3.0}}),
            PartialDefaults,
            json!({"ptr": {"$type": "DerivedClass", "derived_var": 3.0}}),
        ),
        (
            json!({"ptr": {"$type": " derivedclass "}}),
            PartialDefaults,
            json!({"ptr": {"$type": "DerivedClass"}}),
        ),
        (
            json!({"ptr": {"$type": "{E2246B17-7F7A-4D4B-9C3E-0B2A3C4D5E6F}"}}),
            PartialDefaults,
            json!({"ptr": {"$type": "DerivedClass"}}),
        ),
        (
            json!({"ptr": {"$type": "SimpleClass"}}),
            TypeMismatch,
            json!({}),
        ),
        (json!({"ptr": {"$type": "NoSuchClass"}}), Unknown, json!({})),
        (
            json!({"ptr": {"$type": "{99999999-9999-9999-9999-999999999999}"}}),
            Unknown,
            json!({}),
        ),
        (json!({"ptr": {"$type": 5}}), Unknown, json!({})),
        // Two classes named Dup: only one derives from BaseClass, so the name resolves.
        (
            json!({"ptr": {"$type": "Dup"}}),
            PartialDefaults,
            json!({"ptr": {"$type": "{11111111-1111-1111-1111-111111111111} Dup"}}),
        ),
        (json!({"ptr": null}), PartialDefaults, json!({})),
        // A pointee that is all defaults stores as DefaultsUsed, so the field is left out.
        (json!({"ptr": {}}), PartialDefaults, json!({})),
        (json!({"abs": {}}), Catastrophic, json!({})),
        (
            json!({"shared": {"$type": "DerivedClass", "base_var": 2.0}}),
            PartialDefaults,
            json!({"shared": {"$type": "DerivedClass", "base_var": 2.0}}),
        ),
    ];
    for (input, outcome, stored) in cases {
        let (v, rep) = load(&reg, &holder, input, &LoadOptions::default());
        assert_eq!(rep.outcome(), *outcome, "{input}: {rep:?}");
        let (j, _) = store(&reg, &holder, &v, &StoreOptions::default());
        assert_eq!(&j, stored, "{input}");
    }
}

#[test]
fn any_values() {
    // AnySerializer.cpp (JsonAnySerializer::Load/Store): a non-object is Unsupported; no
    // `$type` or a `$type` naming no single type leaves an empty any with DefaultsUsed
    // (the failed lookup is reported as Unknown); the value is read from "Value", else
    // "value"; an empty any stores as `{}` with Success; a full one as `$type` + "Value".
    let reg = registry();
    let any = reg.parse_type("any").unwrap();
    let simple = |v1: i64| {
        Value::Any(Some(Box::new((
            reg.parse_type("SimpleClass").unwrap(),
            Value::Object(vec![Value::Int(v1), Value::F64(42.0)]),
        ))))
    };
    let ambiguous = "The provided string points to multiple type ids. Use the uuid of the intended class instead.";
    let unknown = "Unable to find type id with the provided string.";
    #[allow(clippy::type_complexity)]
    let cases: &[(Json, Outcome, Value, &[(Outcome, &str)])] = &[
        (
            json!(5),
            Unsupported,
            Value::Any(None),
            &[(
                Unsupported,
                "JsonAnySerializer::Load only supports rapidjson::kObjectType",
            )],
        ),
        (
            json!([]),
            Unsupported,
            Value::Any(None),
            &[(
                Unsupported,
                "JsonAnySerializer::Load only supports rapidjson::kObjectType",
            )],
        ),
        (json!({}), DefaultsUsed, Value::Any(None), &[]),
        (json!({"value": 1}), DefaultsUsed, Value::Any(None), &[]),
        (
            json!({"$type": "Dup"}),
            DefaultsUsed,
            Value::Any(None),
            &[(Unknown, ambiguous)],
        ),
        (
            json!({"$type": "NoSuchType", "value": 1}),
            DefaultsUsed,
            Value::Any(None),
            &[(Unknown, unknown)],
        ),
        (
            json!({"$type": 5}),
            DefaultsUsed,
            Value::Any(None),
            &[(Unknown, unknown)],
        ),
        (
            json!({"$type": "SimpleClass", "value": {"var1": 1}}),
            PartialDefaults,
            simple(1),
            &[],
        ),
        (
            json!({"$type": "SimpleClass", "Value": {"var1": 1}}),
            PartialDefaults,
            simple(1),
            &[],
        ),
        (
            json!({"$type": "SimpleClass", "value": {"var1": 2}, "Value": {"var1": 1}}),
            PartialDefaults,
            simple(1),
            &[],
        ),
        // "VALUE" is neither spelling: the value keeps its defaults (type id Success +
        // DefaultsUsed = PartialDefaults).
        (
            json!({"$type": "SimpleClass", "VALUE": {"var1": 1}}),
            PartialDefaults,
            simple(42),
            &[],
        ),
        (
            json!({"$type": "i32", "value": "7"}),
            Success,
            Value::Any(Some(Box::new((TypeExpr::I32, Value::Int(7))))),
            &[],
        ),
    ];
    for (input, outcome, value, issues) in cases {
        let (v, rep) = load(&reg, &any, input, &LoadOptions::default());
        assert_eq!(rep.outcome(), *outcome, "{input}: {rep:?}");
        assert_eq!(&v, value, "{input}");
        let got: Vec<(Outcome, &str)> = rep
            .issues
            .iter()
            .map(|i| (i.code.outcome(), i.message.as_str()))
            .collect();
        assert_eq!(&got[..], *issues, "{input}");
    }
    // An empty any returns a code that has done no work: it reads as DefaultsUsed.
    let store_cases: &[(Value, Outcome, Json)] = &[
        (Value::Any(None), DefaultsUsed, json!({})),
        (
            simple(1),
            PartialDefaults,
            json!({"$type": "SimpleClass", "Value": {"var1": 1}}),
        ),
        // A held value that is all defaults is left out (ContinueStoringToJsonObjectField).
        (simple(42), PartialDefaults, json!({"$type": "SimpleClass"})),
    ];
    for (value, outcome, stored) in store_cases {
        let (j, rep) = store(&reg, &any, value, &StoreOptions::default());
        assert_eq!(&j, stored, "{value:?}");
        assert_eq!(rep.outcome(), *outcome, "{value:?}");
    }
    // The empty code combines as nothing: [full, empty] is Success, not PartialDefaults,
    // and an empty any inside a vector is still written as `{}`.
    let seq = reg.parse_type("vector<any>").unwrap();
    let v = Value::Seq(vec![
        Value::Any(Some(Box::new((TypeExpr::I32, Value::Int(3))))),
        Value::Any(None),
    ]);
    let (j, rep) = store(&reg, &seq, &v, &StoreOptions::default());
    assert_eq!(j, json!([{"$type": "int", "Value": 3}, {}]));
    assert_eq!(rep.outcome(), Success);
}

#[test]
fn assets() {
    run(&[case(
        "Asset<ModelAsset>",
        json!({"assetId": {"guid": "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}", "subId": 3}, "assetHint": "a/b.azmodel"}),
        Success,
        Some(
            json!({"assetId": {"guid": "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}", "subId": 3}, "assetHint": "a/b.azmodel"}),
        ),
    )]);
}

#[test]
fn field_names_match_case_insensitively_derived_first() {
    // O3DE matches by the CRC of the lower-cased name, derived fields before base ones.
    let reg = Registry::from_json(&json!({"classes": [
        {"name": "B", "fields": [{"name": "name", "type": "i32"}]},
        {"name": "D", "bases": ["B"], "fields": [{"name": "Name", "type": "i32"}]}
    ]}))
    .unwrap();
    let ty = reg.parse_type("D").unwrap();
    let (v, _) = load(&reg, &ty, &json!({"name": 5}), &LoadOptions::default());
    assert_eq!(v, Value::Object(vec![Value::Int(0), Value::Int(5)]));
}

#[test]
fn map_load_ports() {
    // MapSerializerTests: Load_DefaultForStringKey..., Load_KeyAlreadyInContainer_EntryIgnored,
    // Load_DuplicateMultiKey_LoadEverything, Load_KeyAlreadyInMultiContainer_DuplicateAdded,
    // Load_DefaultObjectValueInMultiMap_DefaultUsed.
    let reg = registry();
    let opts = LoadOptions::default();
    let ty = reg.parse_type("unordered_map<string,string>").unwrap();
    let (v, r) = load(&reg, &ty, &json!({"{}": {}, "World": "value_42"}), &opts);
    assert_eq!(
        (r.outcome(), r.processing()),
        (PartialDefaults, Processing::Completed)
    );
    assert_eq!(
        v,
        Value::Map(vec![
            (Value::String("".into()), Value::String("".into())),
            (
                Value::String("World".into()),
                Value::String("value_42".into())
            )
        ])
    );
    let mut existing = Value::Map(vec![(
        Value::String("Hello".into()),
        Value::String("World".into()),
    )]);
    // A key already in the container has its value loaded over (since o3de PR #6832).
    let r = gamewire_o3de::load_onto(&reg, &ty, &json!({"Hello": "Other"}), &mut existing, &opts);
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed)
    );
    assert_eq!(
        existing,
        Value::Map(vec![(
            Value::String("Hello".into()),
            Value::String("Other".into())
        )])
    );

    let ty = reg.parse_type("unordered_multimap<string,string>").unwrap();
    let (v, r) = load(
        &reg,
        &ty,
        &json!([{"Key": "Hello", "Value": ["Other"]}, {"Key": "Hello", "Value": ["World"]}]),
        &opts,
    );
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed)
    );
    assert_eq!(
        v,
        Value::Map(vec![
            (Value::String("Hello".into()), Value::String("Other".into())),
            (Value::String("Hello".into()), Value::String("World".into()))
        ])
    );
    let mut existing = Value::Map(vec![(
        Value::String("Hello".into()),
        Value::String("World".into()),
    )]);
    let r = gamewire_o3de::load_onto(
        &reg,
        &ty,
        &json!({"Hello": ["World"]}),
        &mut existing,
        &opts,
    );
    assert_eq!(r.outcome(), Success);
    assert!(matches!(&existing, Value::Map(m) if m.len() == 2));
    let (_, r) = load(&reg, &ty, &json!({"World": [{}]}), &opts);
    assert_eq!(
        (r.outcome(), r.processing()),
        (PartialDefaults, Processing::Completed)
    );
    let (_, r) = load(&reg, &ty, &json!({"World": {}}), &opts);
    assert_eq!(r.outcome(), PartialDefaults);
}

#[test]
fn transform_explicit_default() {
    // TransformSerializer: "InitializeNewInstance": {} resets a new instance to identity and
    // leaves an existing value untouched.
    let reg = registry();
    let ty = reg.parse_type("vector<Transform>").unwrap();
    let (v, r) = load(&reg, &ty, &json!([{}]), &LoadOptions::default());
    assert_eq!(r.outcome(), PartialDefaults);
    let (j, _) = store(
        &reg,
        &ty,
        &v,
        &StoreOptions {
            keep_defaults: true,
            ..Default::default()
        },
    );
    assert_eq!(
        j,
        json!([{"Translation": [0.0, 0.0, 0.0], "Rotation": [0.0, 0.0, 0.0, 1.0], "Scale": 1.0}])
    );
    let ty = reg.parse_type("Transform").unwrap();
    let mut cur = Value::Transform {
        translation: [1.0, 2.0, 3.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: 2.0,
    };
    let before = cur.clone();
    let r = gamewire_o3de::load_onto(&reg, &ty, &json!({}), &mut cur, &LoadOptions::default());
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_eq!(cur, before);
}

#[test]
fn asset_rules() {
    // AssetJsonSerializer: the asset id loads like a class, store leaves defaults out.
    let reg = registry();
    let ty = reg.parse_type("Asset<ModelAsset>").unwrap();
    let opts = StoreOptions::default();
    let (v, r) = load(
        &reg,
        &ty,
        &json!({"assetId": {"GUID": "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}", "extra": 1}, "assetHint": "a.azmodel"}),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), PartialDefaults);
    assert_eq!(r.issues[0].path, "/assetId/extra");
    let (j, _) = store(&reg, &ty, &v, &opts);
    assert_eq!(
        j,
        json!({"assetId": {"guid": "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}"}, "assetHint": "a.azmodel"})
    );
    let (j, r) = store(&reg, &ty, &reg.zero(&ty), &opts);
    assert_eq!((j, r.outcome()), (json!({}), DefaultsUsed));
    let (_, r) = load(&reg, &ty, &json!({"assetId": {}}), &LoadOptions::default());
    assert_eq!(r.outcome(), DefaultsUsed);
    let (_, r) = load(&reg, &ty, &json!("a.azmodel"), &LoadOptions::default());
    assert_eq!(r.outcome(), Unsupported);
}

#[test]
fn matrices_and_quaternion_objects() {
    let reg = registry();
    let close = |a: &Json, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-3;
    // Matrix from an array: row-major elements.
    let ty = reg.parse_type("Matrix3x4").unwrap();
    let (_, r) = load(
        &reg,
        &ty,
        &json!([1, 0, 0, 5, 0, 1, 0, 6, 0, 0, 1, 7]),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), Success);
    // (The stores of the Euler/scale form that were checked here are replaced by the
    // row-by-row array ports in ports_math.rs, as O3DE stores matrices since #10495.)
    // Matrix from an object: Euler angles, scale, translation.
    let (_, r) = load(
        &reg,
        &ty,
        &json!({"yaw": 90.0, "scale": 2.0, "X": 1.0}),
        &LoadOptions::default(),
    );
    assert_eq!(r.processing(), Processing::Completed);
    let (_, r) = load(&reg, &ty, &json!({"scale": 0.0}), &LoadOptions::default());
    assert_eq!(r.outcome(), Unsupported);
    let (_, r) = load(&reg, &ty, &json!([1, 2, 3]), &LoadOptions::default());
    assert_eq!(r.outcome(), Unsupported);
    // Identity from an object that changes nothing.
    let (_, r) = load(&reg, &ty, &json!({"roll": 0.0}), &LoadOptions::default());
    assert_eq!(r.outcome(), DefaultsUsed);
    // Quaternion from Euler degrees (members by position).
    let ty = reg.parse_type("Quaternion").unwrap();
    let (v, _) = load(
        &reg,
        &ty,
        &json!({"yaw": 0.0, "pitch": 0.0, "roll": 90.0}),
        &LoadOptions::default(),
    );
    let (j, _) = store(&reg, &ty, &v, &StoreOptions::default());
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!(
        close(&j[0], 0.0) && close(&j[1], 0.0) && close(&j[2], h) && close(&j[3], h),
        "{j}"
    );
}

#[test]
fn duplicate_members() {
    // rapidjson keeps every member of an object. JsonDeserializer::LoadClass loads each
    // member in document order (the last one wins) and counts every load, so a field
    // given twice can hide a missing one from the PartialDefaults check; an earlier bad
    // value is still reported. MapSerializer adds each member of an object: a repeated
    // key keeps its first value and the entry is Unavailable ("Unable to store the
    // element..."), while a multimap adds both.
    use gamewire_o3de::load_bytes;
    let reg = registry();
    #[allow(clippy::type_complexity)]
    let cases: &[(&str, &str, Outcome, Processing, Json, &[&str])] = &[
        // var1 twice, var2 missing: two loads for two fields, so Success.
        (
            "SimpleClass",
            r#"{"var1": 1, "var1": 7}"#,
            Success,
            Processing::Completed,
            json!({"var1": 7}),
            &[],
        ),
        // Without the duplicate the same input is PartialDefaults.
        (
            "SimpleClass",
            r#"{"var1": 7}"#,
            PartialDefaults,
            Processing::Completed,
            json!({"var1": 7}),
            &[],
        ),
        // The first value cannot load; the second does.
        (
            "SimpleClass",
            r#"{"var1": [], "var1": 7, "var2": 1.5}"#,
            Unsupported,
            Processing::PartialAlter,
            json!({"var1": 7, "var2": 1.5}),
            &["/var1"],
        ),
        // Field names match without regard to case, so these are duplicates too
        // (serde_json alone already sees both).
        (
            "SimpleClass",
            r#"{"VAR1": 3, "var1": 4}"#,
            Success,
            Processing::Completed,
            json!({"var1": 4}),
            &[],
        ),
        (
            "map<string,i32>",
            r#"{"a": 1, "b": 2, "a": 5}"#,
            Success,
            Processing::Completed,
            json!({"a": 5, "b": 2}),
            &[],
        ),
        // The repeat loads onto the entry: a class value is patched, not replaced.
        (
            "map<string,SimpleClass>",
            r#"{"k": {"var1": 1}, "k": {"var2": 3.0}}"#,
            // Each of the two loads leaves a field out.
            PartialDefaults,
            Processing::Completed,
            json!({"k": {"var1": 1, "var2": 3.0}}),
            &[],
        ),
        (
            "unordered_multimap<string,i32>",
            r#"{"a": [1], "a": [2, 3]}"#,
            Success,
            Processing::Completed,
            json!({"a": [1, 2, 3]}),
            &[],
        ),
        // Nested (a class inside a map): var2 twice counts as two loads, so Success.
        (
            "map<string,SimpleClass>",
            r#"{"k": {"var2": 2.0, "var2": 3.0}}"#,
            Success,
            Processing::Completed,
            json!({"k": {"var2": 3.0}}),
            &[],
        ),
    ];
    for (ty, input, outcome, processing, stored, paths) in cases {
        let t = reg.parse_type(ty).unwrap();
        let (v, rep) = load_bytes(&reg, &t, input.as_bytes(), &LoadOptions::default()).unwrap();
        assert_eq!(
            (rep.outcome(), rep.processing()),
            (*outcome, *processing),
            "{input}: {rep:?}"
        );
        let got: Vec<&str> = rep.issues.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(&got[..], *paths, "{input}: {rep:?}");
        let (j, _) = store(&reg, &t, &v, &StoreOptions::default());
        assert_eq!(&j, stored, "{input}");
    }
}
