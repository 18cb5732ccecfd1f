//! Ports of O3DE's math, color and enum JSON serializer tests
//! (`Code/Framework/AzCore/Tests/Serialization/Json/` in o3de/o3de):
//!
//! - `ColorSerializerTests.cpp` (`JsonColorSerializerTests` and its conformity instance),
//! - `MathVectorSerializerTests.cpp` (`JsonMathVectorSerializerTests` for Vector2/3/4 and
//!   the conformity instances),
//! - `MathMatrixSerializerTests.cpp` (`JsonMathMatrixSerializerTests` for Matrix3x3/3x4/4x4
//!   and the conformity instances),
//! - `TransformSerializerTests.cpp` (`JsonTransformSerializerTests` and its conformity instance),
//! - `TestCases_Enum.cpp` (`TypedJsonEnumSerializationTests` for the twelve enum types and the
//!   `JsonSerializationTests` enum load/store cases),
//!
//! plus the cases of `JsonSerializerConformityTests.h` that those files instantiate, with
//! the inputs of their test descriptions. Same inputs, same expected outcomes (and
//! processing and task where O3DE checks them), same loaded values and stored JSON.
//!
//! O3DE's serializer tests call a serializer's `Load` directly on an existing value; here
//! that is [`load_onto`] on a value set up the same way. Where a test goes through
//! `JsonSerialization::Load`/`Store`, so does the port ([`load`], [`store_with_default`]).

use gamewire_o3de::{
    load, load_onto, store_with_default, LoadOptions, Outcome, Processing, Registry, Report,
    StoreOptions, Task, TypeExpr, Value,
};
use serde_json::{json, Value as Json};

use Outcome::*;

/// `ScopedEnumBitFlagsS64::BitFlagNegative`: bits 63, 34 and 24.
const BIT_FLAG_NEGATIVE: i64 = ((1u64 << 63) | (1u64 << 34) | (1u64 << 24)) as i64;

fn registry() -> Registry {
    let flags = |a: i64, b: i64, c: i64, d: i64| json!({"Flags0": a, "Flags1": b, "Flags2": c, "Flags3": d});
    let bits = json!({"BitFlag0": 0, "BitFlag1": 1, "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8,
                      "BitFlag1And2": 3, "BitFlag2And4": 10});
    let mut enums = vec![
        json!({"name": "UnscopedEnumFlags", "underlying": "i32", "values": flags(0, 1, 2, 3)}),
        json!({"name": "UnscopedEnumBitFlags", "underlying": "u8", "values": flags(0, 1, 2, 3)}),
        json!({"name": "ScopedEnumFlagsU8", "underlying": "u8", "values": flags(0, 1, 2, 129)}),
        json!({"name": "ScopedEnumFlagsS16", "underlying": "i16", "values": flags(0, 1, -8, 22)}),
        json!({"name": "ScopedEnumFlagsU16", "underlying": "u16", "values": flags(0, 1, 2, 32768)}),
        json!({"name": "ScopedEnumFlagsS32", "underlying": "i32", "values": flags(0, 1, -8, 22)}),
        json!({"name": "ScopedEnumFlagsU32", "underlying": "u32",
               "values": {"Flags0": 0, "Flags1": 1, "Flags2": 2, "Flags3": 2147483648u64}}),
        json!({"name": "ScopedEnumFlagsS64", "underlying": "i64", "values": flags(0, 1, -8, 22)}),
        json!({"name": "ScopedEnumBitFlagsS64", "underlying": "i64", "values": bits}),
        json!({"name": "ScopedEnumBitFlagsS64WithNegative", "underlying": "i64",
               "values": {"BitFlagNegative": BIT_FLAG_NEGATIVE, "BitFlag0": 0, "BitFlag1": 1,
                          "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8, "BitFlag1And2": 3,
                          "BitFlag2And4": 10}}),
        json!({"name": "ScopedEnumBitFlagsU64", "underlying": "u64", "values": bits}),
        json!({"name": "ScopedEnumBitFlagsU64Singles", "underlying": "u64",
               "values": {"BitFlag0": 0, "BitFlag1": 1, "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8}}),
        json!({"name": "ScopedEnumBitFlagsNoZero", "underlying": "u64",
               "values": {"BitFlag1": 1, "BitFlag2": 2, "BitFlag3": 4, "BitFlag4": 8,
                          "BitFlag1And2": 3, "BitFlag2And4": 10}}),
    ];
    // The typed tests reflect each of the twelve enum types with no values.
    for (name, u) in BARE_ENUMS {
        enums.push(json!({"name": format!("Bare{name}"), "underlying": u, "values": {}}));
    }
    let mut classes = Vec::new();
    // The conformity suite's PointerWrapper: one field "Value" holding a `Type*`.
    for t in [
        "Color",
        "Vector2",
        "Vector3",
        "Vector4",
        "Matrix3x3",
        "Matrix3x4",
        "Matrix4x4",
        "Transform",
    ] {
        classes.push(json!({"name": format!("PointerWrapper{t}"),
                            "fields": [{"name": "Value", "type": format!("{t}*")}]}));
    }
    Registry::from_json(&json!({"enums": enums, "classes": classes})).unwrap()
}

/// The twelve enum types of `TypedJsonEnumSerializationTests` and their underlying types.
const BARE_ENUMS: [(&str, &str); 12] = [
    ("UnscopedEnumFlags", "i32"),
    ("UnscopedEnumBitFlags", "u8"),
    ("ScopedEnumFlagsU8", "u8"),
    ("ScopedEnumFlagsS16", "i16"),
    ("ScopedEnumFlagsU16", "u16"),
    ("ScopedEnumFlagsS32", "i32"),
    ("ScopedEnumFlagsU32", "u32"),
    ("ScopedEnumFlagsS64", "i64"),
    ("ScopedEnumFlagsU64", "u64"),
    ("ScopedEnumBitFlagsS64", "i64"),
    ("ScopedEnumBitFlagsU64", "u64"),
    ("ScopedEnumBitFlagsNoZero", "u64"),
];

fn ty(reg: &Registry, name: &str) -> TypeExpr {
    reg.parse_type(name).unwrap()
}

fn opts(clear: bool) -> LoadOptions {
    LoadOptions {
        clear_containers: clear,
        ..Default::default()
    }
}

/// A serializer's `Load` on an existing value.
fn load_on(reg: &Registry, t: &str, start: Value, input: &Json) -> (Value, Report) {
    let mut v = start;
    let r = load_onto(reg, &ty(reg, t), input, &mut v, &LoadOptions::default());
    (v, r)
}

fn store_dv(
    reg: &Registry,
    t: &str,
    v: &Value,
    default: Option<&Value>,
    keep: bool,
) -> (Json, Report) {
    let o = StoreOptions {
        keep_defaults: keep,
        ..Default::default()
    };
    store_with_default(reg, &ty(reg, t), v, default, &o)
}

fn math(v: &[f32]) -> Value {
    Value::Math(v.to_vec().into())
}

fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Math(m) => m.to_vec(),
        other => panic!("not a math value: {other:?}"),
    }
}

/// gtest's `EXPECT_FLOAT_EQ`: within 4 units in the last place.
fn float_eq(a: f32, b: f32) -> bool {
    if a == b {
        return true;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return false;
    }
    (a.to_bits() as i64 - b.to_bits() as i64).abs() <= 4
}

fn assert_floats(v: &Value, want: &[f32], what: &str) {
    let got = floats(v);
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(float_eq(*g, *w), "{what}: got {got:?}, want {want:?}");
    }
}

/// A JSON number as rapidjson holds a `float` pushed into a document (widened to double).
fn fj(v: f32) -> Json {
    json!(v as f64)
}

fn farr(v: &[f32]) -> Json {
    Json::Array(v.iter().map(|x| fj(*x)).collect())
}

/// O3DE compares stored JSON as text with white space removed (`Expect_DocStrEq`).
fn assert_doc(got: &Json, want: &str, what: &str) {
    let want: String = want.chars().filter(|c| !c.is_whitespace()).collect();
    let got_text = serde_json::to_string(got).unwrap();
    assert!(
        got_text.eq_ignore_ascii_case(&want),
        "{what}: stored {got_text}, O3DE writes {want}"
    );
}

// ---------------------------------------------------------------------------------------
// JsonSerializerConformityTests.h, driven by the test descriptions of the ported files.

struct Description {
    ty: &'static str,
    default: Value,
    full: Value,
    full_json: &'static str,
    /// `CreatePartialDefaultInstance` and `GetJsonForPartialDefaultInstance`, when
    /// `m_supportsPartialInitialization` is on.
    partial: Option<(Value, &'static str)>,
    supports_array: bool,
    supports_object: bool,
    fixed_size_array: bool,
    /// Matrices compare within `AZ::Constants::Tolerance`; the rest exactly.
    tolerance: f32,
}

impl Description {
    fn equal(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Math(x), Value::Math(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| (p - q).abs() <= self.tolerance)
            }
            _ => a == b,
        }
    }
}

fn parse(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

fn conformity(reg: &Registry, d: &Description) {
    let t = d.ty;
    let supports = |kind: &str| match kind {
        "array" => d.supports_array,
        "object" => d.supports_object,
        _ => false,
    };
    // Load_InvalidTypeOf*Type_ReturnsUnsupported
    for (kind, input) in [
        ("null", json!(null)),
        ("false", json!(false)),
        ("true", json!(true)),
        ("object", json!({"A": 42})),
        ("array", json!([])),
        ("string", json!("")),
        ("number", json!(0)),
    ] {
        if supports(kind) {
            continue;
        }
        let (v, r) = load_on(reg, t, d.default.clone(), &input);
        assert_eq!(
            (r.outcome(), r.processing()),
            (Unsupported, Processing::Altered),
            "{t}: Load_InvalidTypeOf {kind}: {r:?}"
        );
        assert!(d.equal(&v, &d.default), "{t}: {kind} changed the value");
    }
    if d.supports_object {
        // Load_DeserializeEmptyObject(ThroughMainLoad)_SucceedsAndObjectMatchesDefaults
        let (v, r) = load_on(reg, t, d.default.clone(), &json!({}));
        assert_eq!(
            (r.outcome(), r.processing()),
            (DefaultsUsed, Processing::Completed),
            "{t}: Load_DeserializeEmptyObject"
        );
        assert!(d.equal(&v, &d.default));
        let (v, r) = load(reg, &ty(reg, t), &json!({}), &LoadOptions::default());
        assert_eq!(
            (r.outcome(), r.processing()),
            (DefaultsUsed, Processing::Completed)
        );
        assert!(d.equal(&v, &d.default), "{t}: {v:?}");
        // Load_DefaultToPointer_SucceedsAndValueIsInitialized
        let wrapper = format!("PointerWrapper{t}");
        let (v, r) = load(
            reg,
            &ty(reg, &wrapper),
            &parse(r#"{ "Value": {}}"#),
            &LoadOptions::default(),
        );
        assert_eq!(
            (r.outcome(), r.processing()),
            (DefaultsUsed, Processing::Completed),
            "{t}: Load_DefaultToPointer: {r:?}"
        );
        match &v {
            Value::Object(f) => match &f[0] {
                Value::Ptr(Some(p)) => assert!(d.equal(&p.1, &d.default), "{t}: {:?}", p.1),
                other => panic!("{t}: Load_DefaultToPointer left {other:?}"),
            },
            other => panic!("{other:?}"),
        }
        // Load_InitializeNewInstance_SucceedsAndValueIsInitialized (all four serializers
        // are InitializeNewInstance): a new container element loaded from {}.
        let (v, r) = load(
            reg,
            &ty(reg, &format!("vector<{t}>")),
            &json!([{}]),
            &LoadOptions::default(),
        );
        assert_eq!(r.processing(), Processing::Completed, "{t}");
        match &v {
            Value::Seq(s) => assert!(d.equal(&s[0], &d.default), "{t}: new instance {:?}", s[0]),
            other => panic!("{other:?}"),
        }
    }
    if d.supports_array {
        // Load_DeserializeEmptyArray(WithClearEnabled)_SucceedsAndObjectMatchesDefaults
        for clear in [false, true] {
            let mut v = d.default.clone();
            let r = load_onto(reg, &ty(reg, t), &json!([]), &mut v, &opts(clear));
            assert!(d.fixed_size_array);
            assert_eq!(
                (r.outcome(), r.processing(), r.result.task()),
                (Unsupported, Processing::Altered, Task::ReadField),
                "{t}: Load_DeserializeEmptyArray clear={clear}"
            );
            assert!(d.equal(&v, &d.default));
        }
        // Load_DeserializeEmptyArrayWithClearedTarget: a fixed size array is not cleared.
        let mut v = d.full.clone();
        let r = load_onto(reg, &ty(reg, t), &json!([]), &mut v, &opts(true));
        assert_eq!(
            (r.outcome(), r.processing(), r.result.task()),
            (Unsupported, Processing::Altered, Task::ReadField),
            "{t}: Load_DeserializeEmptyArrayWithClearedTarget"
        );
        assert!(!d.equal(&v, &d.default) && d.equal(&v, &d.full));
        // Load_DeserializeArrayWithDefaultValue: "[{}]"
        let (v, r) = load_on(reg, t, d.default.clone(), &parse("[{}]"));
        assert_eq!(
            (r.outcome(), r.processing()),
            (Unsupported, Processing::Altered),
            "{t}: Load_DeserializeArrayWithDefaultValue: {r:?}"
        );
        assert!(d.equal(&v, &d.default));
    }
    // Load_DeserializeFullySetInstance(ThroughMainLoad)
    let full_json = parse(d.full_json);
    let (v, r) = load_on(reg, t, d.default.clone(), &full_json);
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed),
        "{t}: Load_DeserializeFullySetInstance: {r:?}"
    );
    assert!(d.equal(&v, &d.full), "{t}: loaded {v:?}");
    let (v, r) = load(reg, &ty(reg, t), &full_json, &LoadOptions::default());
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed)
    );
    assert!(d.equal(&v, &d.full), "{t}: loaded {v:?}");
    if let Some((partial, partial_json)) = &d.partial {
        // Load_DeserializePartialInstance_SucceedsAndObjectMatchesParialInstance
        let (v, r) = load_on(reg, t, d.default.clone(), &parse(partial_json));
        assert_eq!(
            (r.outcome(), r.processing()),
            (PartialDefaults, Processing::Completed),
            "{t}: Load_DeserializePartialInstance"
        );
        assert!(d.equal(&v, partial), "{t}: {v:?}");
        // Load_DeserializeFullInstanceOnTopOfPartialDefaulted
        let mut v = partial.clone();
        let r = load_onto(reg, &ty(reg, t), &full_json, &mut v, &opts(true));
        assert_eq!(
            (r.outcome(), r.processing()),
            (Success, Processing::Completed),
            "{t}"
        );
        assert!(d.equal(&v, &d.full), "{t}: {v:?}");
    }
    // Store_SerializeDefaultInstance(ThroughMainStore)_EmptyJsonReturned
    let (j, r) = store_dv(reg, t, &d.default, Some(&d.default), false);
    assert_eq!(
        (r.outcome(), r.processing()),
        (DefaultsUsed, Processing::Completed),
        "{t}: Store_SerializeDefaultInstance"
    );
    assert_eq!(j, json!({}), "{t}");
    // Store_SerializeWithDefaultsKept_FullyWrittenJson. O3DE hands the serializer the full
    // instance as its own default with keep-defaults on; JsonSerialization::Store clears
    // keep-defaults when a default object is given, so through the main store that is a
    // store without a default object.
    let (j, r) = store_dv(reg, t, &d.full, None, true);
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed),
        "{t}"
    );
    assert_doc(
        &j,
        d.full_json,
        &format!("{t}: Store_SerializeWithDefaultsKept"),
    );
    // Store_SerializeFullySetInstance_StoredSuccessfullyAndJsonMatches
    let (j, r) = store_dv(reg, t, &d.full, Some(&d.default), false);
    assert_eq!(
        (r.outcome(), r.processing()),
        (Success, Processing::Completed),
        "{t}"
    );
    assert_doc(
        &j,
        d.full_json,
        &format!("{t}: Store_SerializeFullySetInstance"),
    );
    // Store_SerializeWithoutDefault(AndDefaultsKept)
    for keep in [false, true] {
        let (j, r) = store_dv(reg, t, &d.full, None, keep);
        assert_eq!(
            (r.outcome(), r.processing()),
            (Success, Processing::Completed),
            "{t}: Store_SerializeWithoutDefault keep={keep}: {r:?}"
        );
        assert_doc(
            &j,
            d.full_json,
            &format!("{t}: Store_SerializeWithoutDefault"),
        );
    }
    if let Some((partial, partial_json)) = &d.partial {
        // Store_SerializePartialInstance_StoredSuccessfullyAndJsonMatches
        let (j, r) = store_dv(reg, t, partial, Some(&d.default), false);
        assert_eq!(
            (r.outcome(), r.processing()),
            (PartialDefaults, Processing::Completed),
            "{t}: Store_SerializePartialInstance"
        );
        assert_doc(
            &j,
            partial_json,
            &format!("{t}: Store_SerializePartialInstance"),
        );
        // StoreLoad_RoundTripWith{PartialDefault,FullSet,DefaultsKept}_IdenticalInstances
        for (value, default, keep) in [
            (partial, Some(&d.default), false),
            (&d.full, Some(&d.default), false),
            (&d.full, None, true),
        ] {
            let (j, r) = store_dv(reg, t, value, default, keep);
            assert_eq!(r.processing(), Processing::Completed);
            let (v, r) = load_on(reg, t, d.default.clone(), &j);
            assert_eq!(
                r.processing(),
                Processing::Completed,
                "{t}: round trip of {j}"
            );
            assert!(d.equal(&v, value), "{t}: round trip of {j} gave {v:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// ColorSerializerTests.cpp

fn color_description() -> Description {
    Description {
        ty: "Color",
        default: math(&[0.0; 4]),
        full: math(&[1.0; 4]),
        full_json: "[1.0, 1.0, 1.0, 1.0]",
        partial: Some((math(&[0.5, 0.5, 0.5, 0.0]), "[0.5, 0.5, 0.5]")),
        supports_array: true,
        supports_object: true,
        fixed_size_array: true,
        tolerance: 0.0,
    }
}

#[test]
fn color_conformity() {
    conformity(&registry(), &color_description());
}

/// `AZ::Color::CreateZero()` with the alpha set to 0.3, as many of the tests start.
fn zero_alpha_03() -> Value {
    math(&[0.0, 0.0, 0.0, 0.3])
}

fn zero4() -> Value {
    math(&[0.0; 4])
}

/// `CreateArray(fieldName, values)`: `{fieldName: [values]}`.
fn named(name: &str, values: Json) -> Json {
    let mut m = serde_json::Map::new();
    m.insert(name.to_string(), values);
    Json::Object(m)
}

fn ints(v: &[i64]) -> Json {
    json!(v)
}

struct ColorCase {
    name: &'static str,
    start: Value,
    input: Json,
    outcome: Outcome,
    /// The color after loading (`None`: not checked by O3DE).
    after: Option<[f32; 4]>,
}

fn cc(
    name: &'static str,
    start: Value,
    input: Json,
    outcome: Outcome,
    after: Option<[f32; 4]>,
) -> ColorCase {
    ColorCase {
        name,
        start,
        input,
        outcome,
        after,
    }
}

#[test]
fn color_serializer_load() {
    let reg = registry();
    let hello_at = |arr: &[f32], i: usize| {
        let mut a: Vec<Json> = arr.iter().map(|x| fj(*x)).collect();
        a[i] = json!("Hello");
        Json::Array(a)
    };
    let hello_world_at = |name: &str, arr: Json, i: usize| {
        let mut a = arr;
        a[i] = json!("Hello world");
        named(name, a)
    };
    let full = [1.0f32, 0.1, 0.5, 0.8];
    let cases = vec![
        cc("Load_FloatRgbArray_LoadsChannels", zero_alpha_03(), farr(&[1.0, 0.1, 0.5]),
           PartialDefaults, Some([1.0, 0.1, 0.5, 0.3])),
        cc("Load_MoreThanFourArrayElement_LoadsChannelsAndReturnsPartialConvert", zero4(),
           farr(&[1.0, 0.1, 0.5, 0.8, 0.2, 0.3]), Success, Some(full)),
        cc("Load_InvalidRedInFloatArray_ReturnsUnsupported", zero4(), hello_at(&[0.5; 4], 0),
           Unsupported, Some([0.0; 4])),
        cc("Load_InvalidGreenInFloatArray_ReturnsUnsupported", zero4(), hello_at(&[0.5; 4], 1),
           Unsupported, Some([0.0; 4])),
        cc("Load_InvalidBlueInFloatArray_ReturnsUnsupported", zero4(), hello_at(&[0.5; 4], 2),
           Unsupported, Some([0.0; 4])),
        cc("Load_InvalidAlphaInFloatArray_ReturnsUnsupported", zero4(), hello_at(&[0.5; 4], 3),
           Unsupported, Some([0.0; 4])),
        // RGB object
        cc("Load_RgbObject_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           named("RGB", farr(&[1.0, 0.1, 0.5])), Success, Some([1.0, 0.1, 0.5, 0.3])),
        cc("Load_RgbObjectRandomCase_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           named("rGb", farr(&[1.0, 0.1, 0.5])), Success, Some([1.0, 0.1, 0.5, 0.3])),
        cc("Load_RgbObjectTooShort_ReturnsUnsupported", zero4(), named("RGB", farr(&[1.0, 0.1])),
           Unsupported, None),
        cc("Load_RgbObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero_alpha_03(),
           named("RGB", farr(&full)), Success, Some([1.0, 0.1, 0.5, 0.3])),
        cc("Load_RgbObjectWithInvalidEntry_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           hello_world_at("RGB", farr(&full), 1), Unsupported, Some([0.0; 4])),
        cc("Load_RgbObjectWrongType_ReturnsUnsupported", zero4(), json!({"RGB": "FF00FF00"}),
           Unsupported, None),
        // RGBA object
        cc("Load_RgbaObject_ReturnsSuccessAndLoadsColor", zero4(), named("RGBA", farr(&full)),
           Success, Some(full)),
        cc("Load_RgbaObjectRandomCase_ReturnsSuccessAndLoadsColor", zero4(),
           named("rGbA", farr(&full)), Success, Some(full)),
        cc("Load_RgbaObjectTooShort_ReturnsUnsupported", zero4(), named("RGBA", farr(&[1.0, 0.1])),
           Unsupported, None),
        cc("Load_RgbaObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero4(),
           named("RGBA", farr(&[1.0, 0.1, 0.5, 0.8, 0.3])), Success, Some(full)),
        cc("Load_RgbaObjectWrongType_ReturnsUnsupported", zero4(), json!({"RGBA": "FF00FF00"}),
           Unsupported, None),
        // RGB8 object
        cc("Load_Rgb8Object_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           named("RGB8", ints(&[255, 51, 204])), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_Rgb8ObjectRandomCase_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           named("rGb8", ints(&[255, 51, 204])), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_Rgb8ObjectTooShort_ReturnsUnsupported", zero4(), named("RGB8", ints(&[255, 51])),
           Unsupported, None),
        cc("Load_Rgb8ObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero_alpha_03(),
           named("RGB8", ints(&[255, 51, 204, 153])), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_Rgb8ObjectWrongType_ReturnsUnsupported", zero4(), json!({"RGB8": "FF00FF00"}),
           Unsupported, None),
        // RGBA8 object
        cc("Load_Rgba8Object_ReturnsSuccessAndLoadsColor", zero4(),
           named("RGBA8", ints(&[255, 51, 204, 153])), Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_Rgba8ObjectRandomCase_ReturnsSuccessAndLoadsColor", zero4(),
           named("rGbA8", ints(&[255, 51, 204, 153])), Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_Rgba8ObjectTooShort_ReturnsUnsupported", zero4(),
           named("RGBA8", ints(&[255, 51, 204])), Unsupported, None),
        cc("Load_Rgba8ObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero4(),
           named("RGBA8", ints(&[255, 51, 204, 153, 102])), Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_Rgba8ObjectWithInvalidRed_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           hello_world_at("RGBA8", ints(&[255, 51, 204, 153, 102]), 0), Unsupported, Some([0.0; 4])),
        cc("Load_Rgba8ObjectWithInvalidGreen_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           hello_world_at("RGBA8", ints(&[255, 51, 204, 153, 102]), 1), Unsupported, Some([0.0; 4])),
        cc("Load_Rgba8ObjectWithInvalidBlue_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           hello_world_at("RGBA8", ints(&[255, 51, 204, 153, 102]), 2), Unsupported, Some([0.0; 4])),
        cc("Load_Rgba8ObjectWithInvalidAlpha_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           hello_world_at("RGBA8", ints(&[255, 51, 204, 153, 102]), 3), Unsupported, Some([0.0; 4])),
        cc("Load_Rgba8ObjectWrongType_ReturnsUnsupported", zero4(), json!({"RGBA8": "FF00FF00"}),
           Unsupported, None),
        // HEX object
        cc("Load_HexObject_ReturnsSuccessAndLoadsColor", zero_alpha_03(), json!({"HEX": "FF33CC"}),
           Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_HexObjectRandomCaseInName_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           json!({"hEx": "FF33CC"}), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_HexObjectRandomCaseInValue_ReturnsSuccessAndLoadsColor", zero_alpha_03(),
           json!({"hEx": "Ff33cC"}), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_HexObjectTooShort_ReturnsUnsupported", zero4(), json!({"HEX": "FF33"}),
           Unsupported, None),
        cc("Load_HexObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero_alpha_03(),
           json!({"HEX": "FF33CC99FF33CC and a comment"}), Success, Some([1.0, 0.2, 0.8, 0.3])),
        cc("Load_HexObjectWithInvalidChars_ReturnsUnsupportedLeavesColorUntouched", zero_alpha_03(),
           json!({"HEX": "FFXXCC"}), Unsupported, Some([0.0, 0.0, 0.0, 0.3])),
        cc("Load_HexObjectWrongType_ReturnsUnsupported", zero4(),
           named("HEX", ints(&[255, 51, 204, 153])), Unsupported, None),
        // HEXA object
        cc("Load_HexaObject_ReturnsSuccessAndLoadsColor", zero4(), json!({"HEXA": "FF33CC99"}),
           Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_HexaObjectRandomCase_ReturnsSuccessAndLoadsColor", zero4(),
           json!({"hExA": "FF33CC99"}), Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_HexaObjectTooShort_ReturnsUnsupported", zero4(), json!({"HEXA": "FF33CC"}),
           Unsupported, None),
        cc("Load_HexaObjectTooLong_ReturnsPartialConvertAndLoadsColor", zero4(),
           json!({"HEXA": "FF33CC99FF33CC and a comment"}), Success, Some([1.0, 0.2, 0.8, 0.6])),
        cc("Load_HexaObjectWithInvalidChars_ReturnsUnsupportedLeavesColorUntouched", zero4(),
           json!({"HEXA": "FFXXCC99"}), Unsupported, Some([0.0; 4])),
        cc("Load_HexaObjectWrongType_ReturnsUnsupported", zero4(),
           named("HEXA", ints(&[255, 51, 204, 153])), Unsupported, None),
        // Misc. objects
        cc("Load_MiscObjectUnsupportedName_ReturnsUnsupported", zero4(), json!({"Hello": "World"}),
           Unsupported, None),
        cc("Load_MiscObjectMultipleObjects_ReturnsPartialConvertAndLoadsLastColor", zero4(),
           json!({"RGB": farr(&[1.0, 0.9, 0.8]), "RGBA": farr(&full)}), Success, Some(full)),
        cc("Load_MiscObjectMultipleObjectsWithLastNotSupported_ReturnsPartialConvertAndLoadsLastSupportedColor",
           zero4(), json!({"RGB": farr(&[1.0, 0.9, 0.8]), "RGBA": farr(&full), "Hello": "World"}),
           Success, Some(full)),
    ];
    assert_eq!(cases.len(), 47);
    for c in cases {
        let (v, r) = load_on(&reg, "Color", c.start, &c.input);
        assert_eq!(r.outcome(), c.outcome, "{}: {r:?}", c.name);
        if let Some(want) = c.after {
            assert_floats(&v, &want, c.name);
        }
    }
}

#[test]
fn color_serializer_store() {
    let reg = registry();
    let values = [1.0f32, 0.2, 0.8, 0.6];
    let color = math(&values);
    for (name, default, outcome, n) in [
        (
            "Store_OnlyAlphaIsDefault_ReturnsPartialDefaultValueAndDoesNotStoreAlpha",
            [0.3f32, 0.6, 0.9, 0.6],
            PartialDefaults,
            3,
        ),
        (
            "Store_OnlyGreenIsDefault_ReturnsSuccessAndAllValuesAreStored",
            [0.3, 0.2, 0.9, 1.0],
            Success,
            4,
        ),
        (
            "Store_GreenAndAlphaAreDefault_ReturnsPartialDefaultValueAndRgbIsStored",
            [0.3, 0.2, 0.9, 0.6],
            PartialDefaults,
            3,
        ),
    ] {
        let (j, r) = store_dv(&reg, "Color", &color, Some(&math(&default)), false);
        assert_eq!(r.outcome(), outcome, "{name}");
        assert_eq!(j, farr(&values[..n]), "{name}");
    }
}

// ---------------------------------------------------------------------------------------
// MathVectorSerializerTests.cpp

fn vector_description(n: usize) -> Description {
    let (t, j) = match n {
        2 => ("Vector2", "[1.0, 2.0]"),
        3 => ("Vector3", "[1.0, 2.0, 3.0]"),
        _ => ("Vector4", "[1.0, 2.0, 3.0, 4.0]"),
    };
    let full: Vec<f32> = (0..n).map(|i| 1.0 + i as f32).collect();
    Description {
        ty: t,
        default: math(&vec![0.0; n]),
        full: math(&full),
        full_json: j,
        partial: None,
        supports_array: true,
        supports_object: true,
        fixed_size_array: true,
        tolerance: 0.0,
    }
}

#[test]
fn vector_conformity() {
    let reg = registry();
    for n in 2..=4 {
        conformity(&reg, &vector_description(n));
    }
}

#[test]
fn vector_serializer_typed_tests() {
    let reg = registry();
    const UPPER: [&str; 4] = ["X", "Y", "Z", "W"];
    const LOWER: [&str; 4] = ["x", "y", "z", "w"];
    for n in 2..=4usize {
        let t = ["", "", "Vector2", "Vector3", "Vector4"][n];
        let zero = math(&vec![0.0; n]);
        let expected: Vec<f32> = (0..n).map(|i| 1.0 + i as f32).collect();
        let object = |names: &[&str; 4]| {
            let mut m = serde_json::Map::new();
            for (i, name) in names.iter().enumerate().take(n) {
                m.insert(name.to_string(), fj(1.0 + i as f32));
            }
            m
        };
        // Load_OversizedArray_ReturnsPartialConvertAndLoadsVector
        let over: Vec<f32> = (0..=n).map(|i| (i + 1) as f32).collect();
        let (v, r) = load_on(&reg, t, zero.clone(), &farr(&over));
        assert_eq!(r.outcome(), Success, "{t}");
        assert_floats(&v, &expected, t);
        // Load_InvalidEntries_ReturnsUnsupportedAndLeavesVectorUntouched
        let mut arr: Vec<Json> = (0..n).map(|i| fj((i + 1) as f32)).collect();
        arr[1] = json!("Invalid");
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Array(arr));
        assert_eq!(r.outcome(), Unsupported, "{t}");
        assert_floats(&v, &vec![0.0; n], t);
        // Load_ValidObjectUpperCase / LowerCase_ReturnsSuccessAndLoadsVector
        for names in [&UPPER, &LOWER] {
            let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(object(names)));
            assert_eq!(r.outcome(), Success, "{t} {names:?}");
            assert_floats(&v, &expected, t);
        }
        // Load_ValidObjectWithExtraFields_ReturnsPartialConvertAndLoadsVector:
        // InjectAdditionalFields puts a "Comment i" string before each member.
        let mut injected = serde_json::Map::new();
        for (i, (k, v)) in object(&UPPER).into_iter().enumerate() {
            injected.insert(
                format!("Comment {i}"),
                json!("Added to object for testing purposes"),
            );
            injected.insert(k, v);
        }
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(injected));
        assert_eq!(r.outcome(), Success, "{t}");
        assert_floats(&v, &expected, t);
        // Load_MissingFields_ReturnsPartialDefaultValueAndVectorHasWhatCouldBeLoaded
        let mut missing = object(&UPPER);
        missing.remove("Y");
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(missing));
        assert_eq!(r.outcome(), PartialDefaults, "{t}");
        let mut want = expected.clone();
        want[1] = 0.0;
        assert_floats(&v, &want, t);
        // Load_InvalidFields_ReturnsUnsupportedAndLeavesVectorUntouched
        let mut invalid = object(&UPPER);
        invalid.insert("Y".into(), json!("Invalid"));
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(invalid));
        assert_eq!(r.outcome(), Unsupported, "{t}");
        assert_floats(&v, &vec![0.0; n], t);
    }
}

// ---------------------------------------------------------------------------------------
// MathMatrixSerializerTests.cpp

fn identity(rows: usize, cols: usize) -> Vec<f32> {
    let mut m = vec![0.0; rows * cols];
    for i in 0..rows.min(cols) {
        m[i * cols + i] = 1.0;
    }
    m
}

fn matrix_dims(t: &str) -> (usize, usize) {
    match t {
        "Matrix3x3" => (3, 3),
        "Matrix3x4" => (3, 4),
        _ => (4, 4),
    }
}

/// `DataHelper::BuildMatrix` with zero angles: `scale` on the diagonal (not on the 4x4's
/// last row) and the translation in the last column.
fn scaled_translated(t: &str, scale: f32, tr: [f32; 3]) -> Vec<f32> {
    let (rows, cols) = matrix_dims(t);
    let mut m = identity(rows, cols);
    for i in 0..3 {
        m[i * cols + i] = scale;
        if cols == 4 {
            m[i * cols + 3] = tr[i];
        }
    }
    m
}

/// The JSON the current engine writes for a matrix: its elements row by row
/// (`JsonMathMatrixSerializerInternal::StoreArray`).
fn row_major_text(m: &[f32]) -> String {
    let parts: Vec<String> = m.iter().map(|x| format!("{:?}", *x as f64)).collect();
    format!("[{}]", parts.join(","))
}

#[test]
fn matrix_conformity() {
    let reg = registry();
    for t in ["Matrix3x3", "Matrix3x4", "Matrix4x4"] {
        let (rows, cols) = matrix_dims(t);
        let full = scaled_translated(t, 10.0, [10.0, 20.0, 30.0]);
        // GetJsonForFullySetInstance of the test description (the Euler/scale form, which
        // loads; see matrix_store_follows_current_engine for what a store writes).
        let full_json = if t == "Matrix3x3" {
            r#"{"roll":0.0,"pitch":0.0,"yaw":0.0,"scale":10.0}"#
        } else {
            r#"{"roll":0.0,"pitch":0.0,"yaw":0.0,"scale":10.0,"x":10.0,"y":20.0,"z":30.0}"#
        };
        let stored = Box::leak(row_major_text(&full).into_boxed_str());
        let d = Description {
            ty: t,
            default: math(&identity(rows, cols)),
            full: math(&full),
            full_json: stored,
            partial: None,
            supports_array: true,
            supports_object: true,
            fixed_size_array: true,
            tolerance: 0.001,
        };
        conformity(&reg, &d);
        // Load_DeserializeFullySetInstance with the description's own JSON.
        let (v, r) = load_on(&reg, t, d.default.clone(), &parse(full_json));
        assert_eq!(
            (r.outcome(), r.processing()),
            (Success, Processing::Completed),
            "{t}"
        );
        assert!(d.equal(&v, &d.full), "{t}: {v:?}");
        let (v, r) = load(
            &reg,
            &ty(&reg, t),
            &parse(full_json),
            &LoadOptions::default(),
        );
        assert_eq!(
            (r.outcome(), r.processing()),
            (Success, Processing::Completed),
            "{t}"
        );
        assert!(d.equal(&v, &d.full), "{t}: {v:?}");
    }
}

/// `AZ::SimpleLcgRandom` (Java's `Random` LCG), as the arbitrary-matrix test uses it.
struct Lcg(u64);

impl Lcg {
    fn new(seed: u64) -> Self {
        Lcg((seed ^ 0x5DEECE66D) & ((1 << 48) - 1))
    }
    fn float(&mut self) -> f32 {
        self.0 = (self.0.wrapping_mul(0x5DEECE66D).wrapping_add(0xB)) & ((1 << 48) - 1);
        let r = ((self.0 >> 16) as u32 & 0x007f_ffff) | 0x3f80_0000;
        f32::from_bits(r) - 1.0
    }
}

fn mul3(a: [[f32; 3]; 3], b: [[f32; 3]; 3]) -> [[f32; 3]; 3] {
    let mut m = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

/// `DataHelper::CreateArbitraryMatrix<MatrixType>(seed)`.
fn arbitrary_matrix(t: &str, seed: u64) -> Vec<f32> {
    let mut rnd = Lcg::new(seed);
    let angles = [
        rnd.float() * 360.0,
        rnd.float() * 360.0,
        rnd.float() * 360.0,
    ];
    let r = angles.map(|d| d.to_radians());
    let (sx, cx) = r[0].sin_cos();
    let (sy, cy) = r[1].sin_cos();
    let (sz, cz) = r[2].sin_cos();
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    let rot = mul3(mul3(rx, ry), rz);
    let scale = rnd.float();
    let (rows, cols) = matrix_dims(t);
    let mut m = identity(rows, cols);
    for i in 0..3 {
        for j in 0..3 {
            m[i * cols + j] = rot[i][j] * scale;
        }
    }
    if cols == 4 {
        for i in 0..3 {
            m[i * cols + 3] = rnd.float() * 10000.0;
        }
    }
    m
}

#[test]
fn matrix_serializer_typed_tests() {
    let reg = registry();
    for t in ["Matrix3x3", "Matrix3x4", "Matrix4x4"] {
        let (rows, cols) = matrix_dims(t);
        let n = rows * cols;
        let zero = math(&vec![0.0; n]);
        let ident = math(&identity(rows, cols));
        // Load_Array_ReturnsConvertAndLoadsMatrix: row by row.
        let arr: Vec<f32> = (0..n).map(|i| (i + 1) as f32).collect();
        let (v, r) = load_on(&reg, t, zero.clone(), &farr(&arr));
        assert_eq!(r.outcome(), Success, "{t}");
        assert_floats(&v, &arr, t);
        // Load_InvalidEntries_ReturnsUnsupportedAndLeavesMatrixUntouched
        let mut bad: Vec<Json> = arr.iter().map(|x| fj(*x)).collect();
        bad[1] = json!("Invalid");
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Array(bad));
        assert_eq!(r.outcome(), Unsupported, "{t}");
        assert_floats(&v, &vec![0.0; n], t);
        // DataHelper::AddData of the identity: scale, (x, y, z), yaw, pitch, roll.
        let mut data = serde_json::Map::new();
        data.insert("scale".into(), fj(1.0));
        if cols == 4 {
            for k in ["x", "y", "z"] {
                data.insert(k.into(), fj(0.0));
            }
        }
        for k in ["yaw", "pitch", "roll"] {
            data.insert(k.into(), fj(0.0));
        }
        // Load_ValidObjectLowerCase_ReturnsSuccessAndLoadsMatrix
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(data.clone()));
        assert_eq!(r.outcome(), DefaultsUsed, "{t}");
        assert_eq!(v, ident, "{t}");
        // Load_ValidObjectWithExtraFields_ReturnsPartialConvertAndLoadsMatrix
        let extra =
            json!({"scale": 1.0, "yaw": 0.0, "pitch": 0.0, "roll": 0.0, "extra": "no value"});
        let (v, r) = load_on(&reg, t, zero.clone(), &extra);
        assert_eq!(r.outcome(), DefaultsUsed, "{t}");
        assert_eq!(v, ident, "{t}");
        // SaveLoad_Identity_LoadsDefaultMatrixWithIdentity: nothing is written for a
        // default, the document stays {} and loads as the identity.
        let (j, r) = store_dv(&reg, t, &ident, Some(&ident), false);
        assert_eq!((j.clone(), r.outcome()), (json!({}), DefaultsUsed), "{t}");
        let (v, r) = load_on(&reg, t, ident.clone(), &j);
        assert_eq!(r.outcome(), DefaultsUsed, "{t}");
        assert_eq!(v, ident, "{t}");
        // LoadSave_Zero_SavesAndLoadsIdentityMatrix, load half: the zero matrix as the
        // Euler/scale form writes it has a zero scale, which is Unsupported; the value is
        // left as it was (the identity).
        let mut zero_object = serde_json::Map::new();
        for k in ["roll", "pitch", "yaw", "scale"] {
            zero_object.insert(k.into(), fj(0.0));
        }
        if cols == 4 {
            for k in ["x", "y", "z"] {
                zero_object.insert(k.into(), fj(0.0));
            }
        }
        let (v, r) = load_on(&reg, t, ident.clone(), &Json::Object(zero_object));
        assert_eq!(r.outcome(), Unsupported, "{t}");
        assert_eq!(v, ident, "{t}");
        // Load_InvalidFields_ReturnsUnsupportedAndLeavesMatrixUntouched: the object form
        // starts from the identity, so the output is the identity even though the load fails.
        let mut invalid = data.clone();
        invalid.insert("yaw".into(), json!("Invalid"));
        let (v, r) = load_on(&reg, t, zero.clone(), &Json::Object(invalid));
        assert_eq!(r.outcome(), Unsupported, "{t}");
        assert_eq!(v, ident, "{t}");
        // LoadSave_Arbitrary_SavesAndLoadsArbitraryMatrix
        let input = math(&arbitrary_matrix(t, n as u64));
        let (j, r) = store_dv(&reg, t, &input, Some(&ident), false);
        assert_eq!(r.outcome(), Success, "{t}");
        let (v, r) = load_on(&reg, t, ident.clone(), &j);
        assert_eq!(r.processing(), Processing::Completed, "{t}");
        for (a, b) in floats(&v).iter().zip(floats(&input).iter()) {
            assert!((a - b).abs() <= 0.001, "{t}: {v:?} vs {input:?}");
        }
    }
}

/// `JsonMatrix*Serializer::Store` (o3de/o3de#10495, fixing #10341) writes the elements row by
/// row, so a matrix that is not a scaled rotation survives a store and load.
#[test]
fn matrix_store_follows_current_engine() {
    let reg = registry();
    let m: Vec<f32> = (1..=12).map(|i| i as f32).collect();
    let (j, r) = store_dv(&reg, "Matrix3x4", &math(&m), None, false);
    assert_eq!(r.outcome(), Success);
    assert_eq!(j, farr(&m));
    let (v, r) = load_on(&reg, "Matrix3x4", math(&identity(3, 4)), &j);
    assert_eq!(r.outcome(), Success);
    assert_eq!(v, math(&m));
    // LoadSave_Zero with the array form: the zero matrix round-trips.
    let zero = math(&[0.0; 9]);
    let (j, r) = store_dv(
        &reg,
        "Matrix3x3",
        &zero,
        Some(&math(&identity(3, 3))),
        false,
    );
    assert_eq!((j.clone(), r.outcome()), (farr(&[0.0; 9]), Success));
    let (v, _) = load_on(&reg, "Matrix3x3", math(&identity(3, 3)), &j);
    assert_eq!(v, zero);
    // keep-defaults writes the identity too.
    let (j, r) = store_dv(&reg, "Matrix3x3", &math(&identity(3, 3)), None, true);
    assert_eq!((j, r.outcome()), (farr(&identity(3, 3)), Success));
}

// ---------------------------------------------------------------------------------------
// TransformSerializerTests.cpp

fn transform(t: [f32; 3], r: [f32; 4], s: f32) -> Value {
    Value::Transform {
        translation: t,
        rotation: r,
        scale: s,
    }
}

const ID_ROT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

#[test]
fn transform_conformity() {
    let reg = registry();
    let d = Description {
        ty: "Transform",
        default: transform([0.0; 3], ID_ROT, 1.0),
        full: transform([1.0, 2.0, 3.0], [0.25, 0.5, 0.75, 1.0], 9.0),
        full_json: r#"{ "Translation" : [ 1.0, 2.0, 3.0 ], "Rotation" : [ 0.25, 0.5, 0.75, 1.0 ], "Scale" : 9.0 }"#,
        partial: Some((
            transform([1.0, 2.0, 3.0], ID_ROT, 1.0),
            r#"{ "Translation" : [ 1.0, 2.0, 3.0 ] }"#,
        )),
        supports_array: false,
        supports_object: true,
        fixed_size_array: false,
        tolerance: 0.0,
    };
    conformity(&reg, &d);
}

#[test]
fn transform_serializer_load() {
    let reg = registry();
    let q = [0.25f32, 0.5, 0.75, 1.0];
    let t = [2.25f32, 3.5, 4.75];
    for (name, input, outcome, want) in [
        (
            "Load_FullySetTransform_ReturnsSuccessWithAllValuesSetCorrectly",
            r#"{ "Translation": [ 2.25, 3.5, 4.75 ], "Rotation": [ 0.25, 0.5, 0.75, 1.0 ], "Scale": 5.5 }"#,
            Success,
            transform(t, q, 5.5),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithDefaultTranslation",
            r#"{ "Rotation": [ 0.25, 0.5, 0.75, 1.0 ], "Scale": 5.5 }"#,
            PartialDefaults,
            transform([0.0; 3], q, 5.5),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithDefaultRotation",
            r#"{ "Translation": [ 2.25, 3.5, 4.75 ], "Scale": 5.5 }"#,
            PartialDefaults,
            transform(t, ID_ROT, 5.5),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithDefaultScale",
            r#"{ "Translation": [ 2.25, 3.5, 4.75 ], "Rotation": [ 0.25, 0.5, 0.75, 1.0 ] }"#,
            PartialDefaults,
            transform(t, q, 1.0),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithOnlyTranslation",
            r#"{ "Translation": [ 2.25, 3.5, 4.75 ] }"#,
            PartialDefaults,
            transform(t, ID_ROT, 1.0),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithOnlyRotation",
            r#"{ "Rotation": [ 0.25, 0.5, 0.75, 1.0 ] }"#,
            PartialDefaults,
            transform([0.0; 3], q, 1.0),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithOnlyScale",
            r#"{ "Scale" : 5.5 }"#,
            PartialDefaults,
            transform([0.0; 3], ID_ROT, 5.5),
        ),
        (
            "Load_FullySetTransform_ReturnsSuccessWithAllDefaults",
            r#"{}"#,
            DefaultsUsed,
            transform([0.0; 3], ID_ROT, 1.0),
        ),
    ] {
        let (v, r) = load_on(
            &reg,
            "Transform",
            transform([0.0; 3], ID_ROT, 1.0),
            &parse(input),
        );
        assert_eq!(r.outcome(), outcome, "{name}: {r:?}");
        assert_eq!(v, want, "{name}");
    }
}

// ---------------------------------------------------------------------------------------
// TestCases_Enum.cpp

#[test]
fn typed_enum_tests() {
    let reg = registry();
    for (name, u) in BARE_ENUMS {
        let t = format!("Bare{name}");
        let zero = if u.starts_with('i') {
            Value::Int(0)
        } else {
            Value::UInt(0)
        };
        // Load_EmptyInstanceOfArrayType_ReturnsDefault
        let (v, r) = load(&reg, &ty(&reg, &t), &json!([]), &LoadOptions::default());
        assert_eq!((r.outcome(), &v), (DefaultsUsed, &zero), "{t}: []");
        // Load_EmptyString_ReturnsDefault
        let (v, r) = load(&reg, &ty(&reg, &t), &json!(""), &LoadOptions::default());
        assert_eq!((r.outcome(), &v), (DefaultsUsed, &zero), "{t}: \"\"");
        // Store_DefaultValue_ReturnsDefault (keep defaults): not an object.
        let (j, r) = store_dv(&reg, &t, &zero, None, true);
        assert_eq!(r.outcome(), Success, "{t}");
        assert!(!j.is_object(), "{t}: {j}");
    }
}

struct EnumLoad {
    name: &'static str,
    ty: &'static str,
    start: Value,
    input: Json,
    outcome: Outcome,
    after: Value,
}

fn el(
    name: &'static str,
    ty: &'static str,
    input: Json,
    outcome: Outcome,
    after: Value,
) -> EnumLoad {
    let start = if after_is_signed(ty) {
        Value::Int(0)
    } else {
        Value::UInt(0)
    };
    EnumLoad {
        name,
        ty,
        start,
        input,
        outcome,
        after,
    }
}

fn after_is_signed(ty: &str) -> bool {
    matches!(
        ty,
        "UnscopedEnumFlags"
            | "ScopedEnumFlagsS16"
            | "ScopedEnumFlagsS32"
            | "ScopedEnumFlagsS64"
            | "ScopedEnumBitFlagsS64"
    )
}

#[test]
fn enum_load() {
    let reg = registry();
    let mut cases = vec![
        el(
            "Load_EnumUint_ReturnsSuccess",
            "UnscopedEnumFlags",
            json!(1u64),
            Success,
            Value::Int(1),
        ),
        el(
            "Load_EnumInt_ReturnsSuccess",
            "ScopedEnumFlagsS32",
            json!(-8i64),
            Success,
            Value::Int(-8),
        ),
        el(
            "Load_EnumIntOutOfRange_ReturnsUnsupported",
            "UnscopedEnumBitFlags",
            json!(256),
            Unsupported,
            Value::UInt(0),
        ),
        el(
            "Load_EnumIntInRangeButNotEnumOption_ReturnsSuccess",
            "UnscopedEnumBitFlags",
            json!(255),
            Success,
            Value::UInt(255),
        ),
        el(
            "Load_EnumInvalidString_ReturnsFailure",
            "ScopedEnumFlagsU8",
            json!("Johannesburg"),
            Unsupported,
            Value::UInt(0),
        ),
        el(
            "Load_EnumStringWithEnumOption_ReturnsSuccess",
            "ScopedEnumFlagsS16",
            json!("Flags3"),
            Success,
            Value::Int(22),
        ),
        el(
            "Load_EnumStringWithInt_ReturnsSuccess",
            "ScopedEnumFlagsU16",
            json!("2"),
            Success,
            Value::UInt(2),
        ),
        el(
            "Load_EnumStringWithIntOutOfRange_ReturnsUnsupported",
            "ScopedEnumFlagsU16",
            json!("-1"),
            Unsupported,
            Value::UInt(0),
        ),
        el(
            "Load_EnumArrayWithSingleStringEnumOption_ReturnsSuccess",
            "ScopedEnumFlagsS32",
            json!(["Flags1"]),
            Success,
            Value::Int(1),
        ),
        el(
            "Load_EnumArrayWithStringIntValue_ReturnsSuccess",
            "ScopedEnumFlagsS32",
            json!(["452"]),
            Success,
            Value::Int(452),
        ),
        el(
            "Load_EnumArrayWithStringIntOutOfRange_ReturnsUnsupported",
            "ScopedEnumFlagsS16",
            json!(["32769"]),
            Unsupported,
            Value::Int(0),
        ),
        el(
            "Load_EnumArrayWithSingleIntOption_ReturnsSuccess",
            "ScopedEnumFlagsU32",
            json!([2]),
            Success,
            Value::UInt(2),
        ),
        el(
            "Load_EnumArrayWithIntOptionOutOfRange_ReturnsUnsupported",
            "ScopedEnumFlagsU8",
            json!([256]),
            Unsupported,
            Value::UInt(0),
        ),
        el(
            "Load_EnumArrayWithInvalidString_ReturnsFailure",
            "ScopedEnumFlagsS64",
            json!(["Cape Town"]),
            Unsupported,
            Value::Int(0),
        ),
        el(
            "Load_UnsupportedNullType_ReturnsUnsupported",
            "ScopedEnumBitFlagsS64",
            json!(null),
            Unsupported,
            Value::Int(0),
        ),
        el(
            "Load_UnsupportedTrueType_ReturnsUnsupported",
            "ScopedEnumBitFlagsS64",
            json!(true),
            Unsupported,
            Value::Int(0),
        ),
        el(
            "Load_UnsupportedFalseType_ReturnsUnsupported",
            "ScopedEnumBitFlagsS64",
            json!(false),
            Unsupported,
            Value::Int(0),
        ),
        el(
            "Load_UnsupportedObjectType_ReturnsUnsupported",
            "ScopedEnumBitFlagsS64",
            json!({"Test": 42}),
            Unsupported,
            Value::Int(0),
        ),
    ];
    // Load_EnumArrayWithMultipleBitFlags_ReturnsSuccess: starts from BitFlagNegative.
    cases.push(EnumLoad {
        name: "Load_EnumArrayWithMultipleBitFlags_ReturnsSuccess",
        ty: "ScopedEnumBitFlagsS64",
        start: Value::Int(BIT_FLAG_NEGATIVE),
        input: json!(["BitFlag1And2", "BitFlag2And4", 0b1010_0000]),
        outcome: Success,
        after: Value::Int(3 | 10 | 0b1010_0000),
    });
    for c in &cases {
        let (v, r) = load_on(&reg, c.ty, c.start.clone(), &c.input);
        assert_eq!(r.outcome(), c.outcome, "{}: {r:?}", c.name);
        assert_eq!(v, c.after, "{}", c.name);
    }
    // Load_UnsupportedObjectTypeInArray_ReturnsUnsupported (the value is not checked).
    let (_, r) = load_on(
        &reg,
        "ScopedEnumBitFlagsS64",
        Value::Int(0),
        &json!(["BitFlag0", false, "BitFlag2"]),
    );
    assert_eq!(r.outcome(), Unsupported);
    // Load_EnumStringWithEnumOption_DoesNotSendReturnCodeUnsupportToReportingFunction
    let (v, r) = load_on(&reg, "ScopedEnumFlagsS16", Value::Int(0), &json!("Flags3"));
    assert_eq!((r.outcome(), v), (Success, Value::Int(22)));
    assert!(
        r.issues
            .iter()
            .all(|i| !(i.path.is_empty() && i.code.outcome() == Unsupported)),
        "{:?}",
        r.issues
    );
}

#[test]
fn enum_load_reports_available_options() {
    let reg = registry();
    // Load_EnumInvalidInt_ReportsAvailableOptions (the first report, from the cast, is
    // skipped by the test) and Load_EnumInvalidString_ReportsAvailableOptions (every
    // failed report lists the options).
    for (input, skip_first) in [(json!(256), true), (json!("Johannesburg"), false)] {
        let (_, r) = load_on(&reg, "ScopedEnumFlagsU8", Value::UInt(0), &input);
        let failed: Vec<_> = r
            .issues
            .iter()
            .filter(|i| i.code.outcome() != Success)
            .skip(usize::from(skip_first && r.issues.len() > 1))
            .collect();
        assert!(!failed.is_empty(), "{input}: no issue reported: {r:?}");
        for i in failed {
            for needle in ["Flags0", "Flags1", "Flags2", "Flags3", "0", "1", "2", "129"] {
                assert!(
                    i.message.contains(needle),
                    "{input}: '{needle}' not in '{}'",
                    i.message
                );
            }
        }
    }
}

#[test]
fn enum_store() {
    let reg = registry();
    let u = |v: u64| Value::UInt(v);
    let s = |v: i64| Value::Int(v);
    // (name, type, value, default, keep defaults, outcome, stored)
    type StoreCase<'a> = (&'a str, &'a str, Value, Option<Value>, bool, Outcome, Json);
    let cases: Vec<StoreCase> = vec![
        ("Store_EnumEnumWithSingleOption_ValueIsStored", "ScopedEnumBitFlagsU64", u(4), None, false,
         Success, json!("BitFlag3")),
        ("Store_EnumEnumWithZeroValueAndReflectionOfZeroOption_ValueIsStoredAsString",
         "ScopedEnumBitFlagsS64", s(0), None, true, Success, json!("BitFlag0")),
        ("Store_EnumEnumWithZeroValueAndNoReflectionOfZeroOption_ValueIsStoredAsInt",
         "ScopedEnumBitFlagsNoZero", u(0), None, true, Success, json!(0)),
        ("Store_EnumWithSignedUnderlyingTypeAndNegativeBitFlag_RoundTripsValueSuccessfully",
         "ScopedEnumBitFlagsS64", s(BIT_FLAG_NEGATIVE), None, false, Success, json!(BIT_FLAG_NEGATIVE)),
        ("Store_EnumWithMultipleOptionsWhichMatchesAggregateOption_StoresValueInString",
         "ScopedEnumBitFlagsU64", u(2 | 8), None, false, Success, json!("BitFlag2And4")),
        ("Store_EnumWithMultipleOptions_StoresAllOptionsInArray", "ScopedEnumBitFlagsS64",
         s(1 | 4 | 8), None, false, Success, json!(["BitFlag4", "BitFlag3", "BitFlag1"])),
        ("Store_EnumWithMultipleOptionsAndNonOptionBits_StoresAllValuesInArray",
         "ScopedEnumBitFlagsS64", s(1 | 4 | 8 | 0b1011_0110_0000_0000), None, false, Success,
         json!(["BitFlag4", "BitFlag3", "BitFlag1", 0b1011_0110_0000_0000u64])),
        ("Store_EnumWithSignedUnderlyingTypeAndMultipleOptions_StoresValuesInOrderOfHighestUnsignedBitValueFirst",
         "ScopedEnumBitFlagsS64WithNegative", s(1 | 4 | 8 | BIT_FLAG_NEGATIVE), None, false, Success,
         json!(["BitFlagNegative", "BitFlag4", "BitFlag3", "BitFlag1"])),
        ("Store_EnumWithDefaultValueMatchingSingleValue_ReturnsDefaulted", "ScopedEnumBitFlagsU64",
         u(3), Some(u(3)), false, DefaultsUsed, json!({})),
        ("Store_EnumWithDefaultValueMatchingEnumOptions_ReturnsDefaulted", "ScopedEnumBitFlagsU64",
         u(3 | 10), Some(u(3 | 10)), false, DefaultsUsed, json!({})),
        ("Store_EnumWithDefaultValuesNotMatchingEnumOptions_ReturnsDefaulted",
         "ScopedEnumBitFlagsU64Singles", u(0b0100_0000), Some(u(0b0100_0000)), false, DefaultsUsed,
         json!({})),
    ];
    for (name, t, v, default, keep, outcome, want) in cases {
        let (j, r) = store_dv(&reg, t, &v, default.as_ref(), keep);
        assert_eq!(r.outcome(), outcome, "{name}: {r:?}");
        assert_eq!(j, want, "{name}");
    }
    // The negative flag's stored integer loads back as the same value.
    let (v, r) = load_on(
        &reg,
        "ScopedEnumBitFlagsS64",
        Value::Int(0),
        &json!(BIT_FLAG_NEGATIVE),
    );
    assert_eq!((r.outcome(), v), (Success, Value::Int(BIT_FLAG_NEGATIVE)));
}

/// `JsonDeserializer::DeserializerDefaultCheck`: the color, vector, quaternion, matrix and
/// transform serializers are `InitializeNewInstance`, so through `JsonSerialization::Load`
/// an explicit default `{}` resets only a new instance (conformity
/// `Load_InitializeNewInstance`, `Load_DefaultToPointer`); an existing value is kept.
#[test]
fn explicit_default_resets_only_new_instances() {
    let reg = registry();
    for (t, existing, fresh) in [
        ("Color", math(&[0.1, 0.2, 0.3, 0.4]), math(&[0.0; 4])),
        ("Vector2", math(&[1.0, 2.0]), math(&[0.0; 2])),
        ("Vector3", math(&[1.0, 2.0, 3.0]), math(&[0.0; 3])),
        ("Vector4", math(&[1.0, 2.0, 3.0, 4.0]), math(&[0.0; 4])),
        (
            "Quaternion",
            math(&[0.25, 0.5, 0.75, 1.0]),
            math(&[0.0, 0.0, 0.0, 1.0]),
        ),
        ("Matrix3x3", math(&[2.0; 9]), math(&identity(3, 3))),
        ("Matrix3x4", math(&[2.0; 12]), math(&identity(3, 4))),
        ("Matrix4x4", math(&[2.0; 16]), math(&identity(4, 4))),
        (
            "Transform",
            transform([1.0, 2.0, 3.0], [0.25, 0.5, 0.75, 1.0], 9.0),
            transform([0.0; 3], ID_ROT, 1.0),
        ),
    ] {
        let (v, r) = load_on(&reg, t, existing.clone(), &json!({}));
        assert_eq!(
            (r.outcome(), r.processing()),
            (DefaultsUsed, Processing::Completed),
            "{t}"
        );
        assert_eq!(v, existing, "{t}: an existing value is kept");
        // A new container element is initialized by the serializer.
        let mut seq = Value::Seq(vec![existing.clone()]);
        let r = load_onto(
            &reg,
            &ty(&reg, &format!("vector<{t}>")),
            &json!([{}]),
            &mut seq,
            &LoadOptions::default(),
        );
        assert_eq!(r.processing(), Processing::Completed, "{t}");
        assert_eq!(seq, Value::Seq(vec![existing, fresh]), "{t}: new element");
    }
}
