//! Exact ports of O3DE's scalar serializer tests, from
//! `Code/Framework/AzCore/Tests/Serialization/Json/` in o3de/o3de:
//!
//! - `IntSerializerTests.cpp` (`TypedJsonIntSerializerTests`, all ten integer serializers),
//! - `BoolSerializerTests.cpp` (`JsonBoolSerializerTests`),
//! - `DoubleSerializerTests.cpp` (`JsonDoubleSerializerTests`, double and float),
//! - `StringSerializerTests.cpp` (`TypedJsonStringSerializerTests`; `AZStd::string` and
//!   `AZ::OSString` are both gamewire's `string`),
//! - `UuidSerializerTests.cpp` (`JsonUuidSerializerTests`),
//!
//! and the `JsonSerializerConformityTests.h` cases those files instantiate, with the
//! inputs from their test descriptions (default instance, fully set instance and its
//! JSON, supported JSON types).
//!
//! O3DE calls the serializer on a value that already holds something; these ports load
//! onto the same starting value ([`load_onto`]) and check the outcome, the processing
//! where O3DE checks it, and the value (changed on success, untouched on failure).
//! `long`/`unsigned long` are taken as 64 bits (LP64, as on O3DE's Linux builds);
//! `char` as signed.
//!
//! `CrcSerializerTests.cpp` is not ported: the registry has no `Crc32` type.

use gamewire_o3de::store::Storer;
use gamewire_o3de::{
    load, load_onto, store_with_default, LoadOptions, Outcome, Processing, Registry, StoreOptions,
    TypeExpr, Uuid, Value,
};
use serde_json::{json, Value as Json};

use Outcome::*;

const SCALARS: [&str; 13] = [
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool", "f32", "f64", "string", "Uuid",
];

/// One `PointerWrapper` class per scalar type (the conformity suite's `{ "Value": T* }`).
fn registry() -> Registry {
    let classes: Vec<Json> = SCALARS
        .iter()
        .map(|t| json!({"name": format!("PointerWrapper_{t}"), "fields": [{"name": "Value", "type": format!("{t}*")}]}))
        .collect();
    Registry::from_json(&json!({ "classes": classes })).unwrap()
}

fn ty(reg: &Registry, name: &str) -> TypeExpr {
    reg.parse_type(name).unwrap()
}

fn int(t: &TypeExpr, v: i128) -> Value {
    match t {
        TypeExpr::I8 | TypeExpr::I16 | TypeExpr::I32 | TypeExpr::I64 => Value::Int(v as i64),
        _ => Value::UInt(v as u64),
    }
}

/// Loads `input` onto `start` (as O3DE's `serializer->Load(&value, ...)`), checks the
/// outcome, the processing (when given) and the resulting value.
#[track_caller]
#[allow(clippy::too_many_arguments)]
fn check(
    reg: &Registry,
    t: &TypeExpr,
    start: Value,
    input: &Json,
    outcome: Outcome,
    processing: Option<Processing>,
    expected: &Value,
    what: &str,
) {
    let mut v = start;
    let rep = load_onto(reg, t, input, &mut v, &LoadOptions::default());
    assert_eq!(rep.outcome(), outcome, "{what}: {t} from {input}: {rep:?}");
    if let Some(p) = processing {
        assert_eq!(rep.processing(), p, "{what}: {t} from {input}: {rep:?}");
    }
    assert_eq!(&v, expected, "{what}: {t} from {input}");
}

// ---- IntSerializerTests.cpp ----

/// The ten integer serializers: C++ type, registry type, lowest, max.
const INTS: [(&str, &str, i128, i128); 10] = [
    ("char", "i8", i8::MIN as i128, i8::MAX as i128),
    ("short", "i16", i16::MIN as i128, i16::MAX as i128),
    ("int", "i32", i32::MIN as i128, i32::MAX as i128),
    ("long", "i64", i64::MIN as i128, i64::MAX as i128),
    ("long long", "i64", i64::MIN as i128, i64::MAX as i128),
    ("unsigned char", "u8", 0, u8::MAX as i128),
    ("unsigned short", "u16", 0, u16::MAX as i128),
    ("unsigned int", "u32", 0, u32::MAX as i128),
    ("unsigned long", "u64", 0, u64::MAX as i128),
    ("unsigned long long", "u64", 0, u64::MAX as i128),
];

/// `TestMaxValue<T>` / `TestMinValue<T>` inputs for integer `T`: the JSON O3DE builds
/// (`SetInt64` for signed, `SetUint64` for unsigned) and the value.
fn int_limits() -> Vec<(&'static str, Json, i128)> {
    vec![
        ("Load_MaxInt8Value", json!(i8::MAX as i64), i8::MAX as i128),
        (
            "Load_MaxShortValue",
            json!(i16::MAX as i64),
            i16::MAX as i128,
        ),
        ("Load_MaxIntValue", json!(i32::MAX as i64), i32::MAX as i128),
        ("Load_MaxLongValue", json!(i64::MAX), i64::MAX as i128),
        ("Load_MaxLongLongValue", json!(i64::MAX), i64::MAX as i128),
        ("Load_MinInt8Value", json!(i8::MIN as i64), i8::MIN as i128),
        (
            "Load_MinShortValue",
            json!(i16::MIN as i64),
            i16::MIN as i128,
        ),
        ("Load_MinIntValue", json!(i32::MIN as i64), i32::MIN as i128),
        ("Load_MinLongValue", json!(i64::MIN), i64::MIN as i128),
        ("Load_MinLongLongValue", json!(i64::MIN), i64::MIN as i128),
        (
            "Load_MaxUnsignedInt8Value",
            json!(u8::MAX as u64),
            u8::MAX as i128,
        ),
        (
            "Load_MaxUnsignedShortValue",
            json!(u16::MAX as u64),
            u16::MAX as i128,
        ),
        (
            "Load_MaxUnsignedIntValue",
            json!(u32::MAX as u64),
            u32::MAX as i128,
        ),
        (
            "Load_MaxUnsignedLongValue",
            json!(u64::MAX),
            u64::MAX as i128,
        ),
        (
            "Load_MaxUnsignedLongLongValue",
            json!(u64::MAX),
            u64::MAX as i128,
        ),
    ]
}

/// `AZStd::to_string` of `FLT_MAX`, `-FLT_MAX`, `DBL_MAX` and `-DBL_MAX` (`%f`).
fn float_limit_strings() -> [(&'static str, String); 4] {
    let flt = format!("{:.6}", f32::MAX as f64);
    assert_eq!(flt, "340282346638528859811704183484516925440.000000");
    [
        ("Load_MaxFloatStringValue", flt.clone()),
        ("Load_MinFloatStringValue", format!("-{flt}")),
        ("Load_MaxDoubleStringValue", format!("{:.6}", f64::MAX)),
        ("Load_MinDoubleStringValue", format!("{:.6}", f64::MIN)),
    ]
}

#[test]
fn int_typed_tests() {
    let reg = registry();
    for (cpp, name, lo, hi) in INTS {
        let t = ty(&reg, name);
        let signed = lo < 0;
        let zero = int(&t, 0);
        let what = |test: &str| format!("{test} ({cpp})");
        let run = |input: Json, outcome: Outcome, value: i128, test: &str| {
            check(
                &reg,
                &t,
                zero.clone(),
                &input,
                outcome,
                None,
                &int(&t, value),
                &what(test),
            );
        };
        run(json!(false), Success, 0, "Load_FalseBoolean_ValueIsZero");
        run(json!(true), Success, 1, "Load_TrueBoolean_ValueIsOne");
        run(
            json!("34"),
            Success,
            34,
            "Load_ValidIntegerString_StringIsParsed",
        );
        run(
            json!("34 Hello"),
            Success,
            34,
            "Load_ValidIntegerStringWithExtraText",
        );
        run(
            json!("12.6"),
            Success,
            12,
            "Load_ValidDoubleString_StringIsParsed",
        );
        for (input, value, test) in [
            ("-34", -34, "Load_ValidNegativeIntegerString"),
            (
                "-34 Hello",
                -34,
                "Load_ValidNegativeIntegerStringWithExtraText",
            ),
            ("-12.6", -12, "Load_ValidNegativeDoubleString"),
        ] {
            if signed {
                run(json!(input), Success, value, test);
            } else {
                run(json!(input), Unsupported, 0, test);
            }
        }
        run(
            json!("hello 2.4"),
            Unsupported,
            0,
            "Load_Invalid_UnsupportedConversionReported",
        );
        run(json!(".5"), Unsupported, 0, "Load_PartialNumberString");
        run(
            json!("-.5"),
            Unsupported,
            0,
            "Load_PartialNegativeNumberString",
        );
        run(json!(""), Unsupported, 0, "Load_EmptyString");

        // TestMaxValue / TestMinValue (numbers) and TestMaxStringValue /
        // TestMinStringValue (`AZStd::to_string` of the same limit): converted when the
        // limit fits the target, otherwise Unsupported and the value stays zero.
        for (test, number, value) in int_limits() {
            let fits = lo <= value && value <= hi;
            let (outcome, expected) = if fits {
                (Success, value)
            } else {
                (Unsupported, 0)
            };
            run(number, outcome, expected, test);
            let string_test = test.replace("Value", "StringValue");
            run(json!(value.to_string()), outcome, expected, &string_test);
        }
        // Float and double limits never fit an integer.
        run(json!(f32::MAX as f64), Unsupported, 0, "Load_MaxFloatValue");
        run(json!(f64::MAX), Unsupported, 0, "Load_MaxDoubleValue");
        run(json!(f32::MIN as f64), Unsupported, 0, "Load_MinFloatValue");
        run(json!(f64::MIN), Unsupported, 0, "Load_MinDoubleValue");
        for (test, text) in float_limit_strings() {
            run(json!(text), Unsupported, 0, test);
        }

        // Store_CheckStorageType_Uint64ForUnsignedAndInt64ForSigned.
        let v = int(&t, if signed { -1 } else { 1 });
        let (j, code) = Storer::new(&reg, false, 1024).store(&t, &v, None);
        assert_eq!(code.outcome(), Success, "{cpp}");
        if signed {
            assert_eq!(j, json!(-1), "{cpp}");
            assert!(j.is_i64() && !j.is_u64(), "{cpp}");
        } else {
            assert_eq!(j, json!(1), "{cpp}");
            assert!(j.is_u64() && j.is_i64(), "{cpp}");
        }
    }
}

// ---- BoolSerializerTests.cpp ----

/// `JsonBoolSerializerTests::Load`: starts from the opposite of the expected value; on
/// success the value is the expected one, otherwise it is untouched.
#[test]
fn bool_tests() {
    let reg = registry();
    let t = TypeExpr::Bool;
    let cases: Vec<(&str, Json, bool, Outcome)> = vec![
        (
            "Load_JsonBooleanValue_ReturnsSuccess",
            json!(false),
            false,
            Success,
        ),
        ("Load_StringWithFalse", json!("false"), false, Success),
        (
            "Load_StringWithFalseWithCapitalLetters",
            json!("fALse"),
            false,
            Success,
        ),
        ("Load_StringWithZeroInteger", json!("0"), false, Success),
        (
            "Load_StringWithZeroIntegerAndExtraLetters",
            json!("0eee"),
            false,
            Success,
        ),
        ("Load_StringWithZeroDouble", json!("0.0"), false, Success),
        ("Load_StringWithZeroFloat", json!("0.0f"), false, Success),
        ("Load_StringWithTrue", json!("true"), true, Success),
        (
            "Load_StringWithTrueWithCapitalLetters",
            json!("tRuE"),
            true,
            Success,
        ),
        ("Load_StringWithIntegerOne", json!("1"), true, Success),
        ("Load_StringWithDoubleOne", json!("1.0"), true, Success),
        ("Load_StringWithFloatOne", json!("1.0f"), true, Success),
        (
            "Load_StringWithNegativeValue",
            json!("-1.0f"),
            true,
            Success,
        ),
        ("Load_EmptyString", json!(""), false, Unsupported),
        (
            "Load_NonNumberStrings",
            json!("Invalid"),
            false,
            Unsupported,
        ),
        ("Load_NonNumberStrings", json!("   "), false, Unsupported),
        ("Load_NonNumberStrings", json!("ee0"), false, Unsupported),
        ("Load_SignedIntegerZero", json!(0i64), false, Success),
        ("Load_UnsignedIntegerZero", json!(0u64), false, Success),
        ("Load_SignedIntegerOne", json!(1i64), true, Success),
        ("Load_UnsignedIntegerOne", json!(1u64), true, Success),
        ("Load_AnyInteger", json!(-1i64), true, Success),
        ("Load_AnyInteger", json!(100u64), true, Success),
        ("Load_AnyInteger", json!(-100i64), true, Success),
        ("Load_AnyInteger", json!(2i64), true, Success),
        ("Load_AnyInteger", json!(2u64), true, Success),
        ("Load_FloatingPointZero", json!(0.0), false, Success),
        (
            "Load_NegativeFloatingPointZero",
            json!(-0.0),
            false,
            Success,
        ),
        ("Load_FloatingPointOne", json!(1.0), true, Success),
        ("Load_AnyFloatingPoint", json!(1.00001), true, Success),
        ("Load_AnyFloatingPoint", json!(-0.1), true, Success),
        ("Load_AnyFloatingPoint", json!(0.0001), true, Success),
        (
            "Load_AnyFloatingPoint",
            json!(-1.0f32 as f64),
            true,
            Success,
        ),
        ("Load_AnyFloatingPoint", json!(2.0), true, Success),
    ];
    for (test, input, expected, outcome) in cases {
        let after = if outcome == Success {
            expected
        } else {
            !expected
        };
        check(
            &reg,
            &t,
            Value::Bool(!expected),
            &input,
            outcome,
            None,
            &Value::Bool(after),
            test,
        );
    }
}

// ---- DoubleSerializerTests.cpp ----

const DEFAULT_FLOAT: f32 = 1.234_567_9;
const DEFAULT_DOUBLE: f64 = -9.87654321;

/// `TestSerializers`: the double and the float serializer on the same input, starting
/// from `DEFAULT_DOUBLE` / `DEFAULT_FLOAT`.
#[test]
fn double_tests() {
    let reg = registry();
    let big = format!("{}.0", "9".repeat(500));
    type Case = (&'static str, Json, Option<(f64, f32)>, Outcome);
    let cases: Vec<Case> = vec![
        (
            "Load_StringWithDouble",
            json!("12.5"),
            Some((12.5, 12.5)),
            Success,
        ),
        (
            "Load_StringWithFloat",
            json!("12.5f"),
            Some((12.5, 12.5)),
            Success,
        ),
        (
            "Load_StringWithInteger",
            json!("42"),
            Some((42.0, 42.0)),
            Success,
        ),
        (
            "Load_StringWithNegativeNumber",
            json!("-12.5"),
            Some((-12.5, -12.5)),
            Success,
        ),
        ("Load_StringWithZero", json!("0"), Some((0.0, 0.0)), Success),
        (
            "Load_StringWithAdditionalText",
            json!("2.4 hello"),
            Some((2.4, 2.4)),
            Success,
        ),
        (
            "Load_StringWithMultipleNumbers",
            json!("2.4 42.0"),
            Some((2.4, 2.4)),
            Success,
        ),
        ("Load_EmptyString", json!(""), None, Unsupported),
        (
            "Load_StringWithNoNumericValues",
            json!("hello"),
            None,
            Unsupported,
        ),
        (
            "Load_StringDoesNotStartWithNumericValues",
            json!("hello 2.4"),
            None,
            Unsupported,
        ),
        (
            "Load_StringWithNumberThatIsTooBig",
            json!(big),
            None,
            Unsupported,
        ),
        (
            "Load_BooleanWithTrue",
            json!(true),
            Some((1.0, 1.0)),
            Success,
        ),
        (
            "Load_BooleanWithFalse",
            json!(false),
            Some((0.0, 0.0)),
            Success,
        ),
        // TestInt / TestUint pass the float expectation for both serializers.
        (
            "Load_IntegerWithPositiveValue",
            json!(34i64),
            Some((34.0, 34.0)),
            Success,
        ),
        (
            "Load_IntegerWithZero",
            json!(0i64),
            Some((0.0, 0.0)),
            Success,
        ),
        (
            "Load_IntegerNegativeValue",
            json!(-1i64),
            Some((-1.0, -1.0)),
            Success,
        ),
        (
            "Load_UnsignedIntegerWithPositiveValue",
            json!(34u64),
            Some((34.0, 34.0)),
            Success,
        ),
        (
            "Load_UnsignedIntegerWithZero",
            json!(0u64),
            Some((0.0, 0.0)),
            Success,
        ),
    ];
    for (test, input, expected, outcome) in cases {
        let (d, f) = expected.unwrap_or((DEFAULT_DOUBLE, DEFAULT_FLOAT));
        let start = Value::F64(DEFAULT_DOUBLE);
        check(
            &reg,
            &TypeExpr::F64,
            start,
            &input,
            outcome,
            None,
            &Value::F64(d),
            test,
        );
        let start = Value::F32(DEFAULT_FLOAT);
        check(
            &reg,
            &TypeExpr::F32,
            start,
            &input,
            outcome,
            None,
            &Value::F32(f),
            test,
        );
    }
    // Load_DoubleValueTooBigToFitInFloat_UnsupportedAndValueNotTouched.
    check(
        &reg,
        &TypeExpr::F32,
        Value::F32(42.0),
        &json!(f64::MAX),
        Unsupported,
        None,
        &Value::F32(42.0),
        "Load_DoubleValueTooBigToFitInFloat",
    );
}

// ---- StringSerializerTests.cpp ----

/// Run once per string serializer in O3DE (`AZStd::string`, `AZ::OSString`); both are
/// gamewire's `string`.
#[test]
// O3DE's input is 3.1415, not an approximation of pi.
#[allow(clippy::approx_constant)]
fn string_typed_tests() {
    let reg = registry();
    let cases: Vec<(&str, Json, &str)> = vec![
        ("Load_FalseBoolean_FalseAsString", json!(false), "False"),
        ("Load_TrueBoolean_TrueAsString", json!(true), "True"),
        ("Load_ParseUnsignedIntegerValue", json!(42u32), "42"),
        ("Load_ParseUnsigned64BitIntegerValue", json!(42u64), "42"),
        ("Load_ParseSignedIntegerValue", json!(-42i32), "-42"),
        ("Load_ParseSigned64BitIntegerValue", json!(-42i64), "-42"),
        ("Load_ParseFloatingPointValue", json!(3.1415), "3.141500"),
    ];
    for (test, input, expected) in cases {
        check(
            &reg,
            &TypeExpr::String,
            Value::String(String::new()),
            &input,
            Success,
            None,
            &Value::String(expected.into()),
            test,
        );
    }
}

// ---- UuidSerializerTests.cpp ----

#[test]
fn uuid_tests() {
    let reg = registry();
    let t = TypeExpr::Uuid;
    let test_value = Uuid::parse("{8651B6DA-9792-407C-A46D-A6E2E39CA900}").unwrap();
    let alternative = "{01A6F1D2-BFCE-431A-B33A-D1C29672EDBC}";
    let with_dashes = test_value.to_string();
    assert_eq!(with_dashes, "{8651B6DA-9792-407C-A46D-A6E2E39CA900}");
    let success: Vec<(&str, String)> = vec![
        ("Load_ParseStringValueFormatWithDashes", with_dashes.clone()),
        (
            "Load_ParseStringValueFormatWithoutDashes",
            "{8651B6DA9792407CA46DA6E2E39CA900}".into(),
        ),
        (
            "Load_ParseStringValueWithExtraCharacters",
            format!("{with_dashes} hello world"),
        ),
        (
            "Load_ParseStringValueWithEmbeddedUuid",
            format!("Hello{with_dashes}world"),
        ),
        (
            "Load_ParseStringWithMultipleUuids_FirstValidUuidReturned",
            format!("{with_dashes}{alternative}"),
        ),
    ];
    for (test, input) in success {
        check(
            &reg,
            &t,
            Value::Uuid(Uuid::NULL),
            &json!(input),
            Success,
            None,
            &Value::Uuid(test_value),
            test,
        );
    }
    for (test, input) in [
        ("Load_ParseInvalidStringValue", "Hello world"),
        (
            "Load_ParseInvalidUuid",
            "{8651B6DA-9792-407C-A46D-AXXX39CA900}",
        ),
        (
            "Load_ParseWithMissingPart",
            "{51CD2896-A963-4CA1-AE9039AEBDA72364}",
        ),
    ] {
        check(
            &reg,
            &t,
            Value::Uuid(test_value),
            &json!(input),
            Unsupported,
            None,
            &Value::Uuid(test_value),
            test,
        );
    }
}

// ---- JsonSerializerConformityTests.h ----

/// A conformity test description: the type, its default and fully set instances, the
/// JSON of the fully set instance, the JSON types the serializer does not support, and
/// whether it has the `InitializeNewInstance` operation flag.
struct Description {
    name: &'static str,
    ty: &'static str,
    default: Value,
    full: Value,
    full_json: &'static str,
    unsupported: Vec<Json>,
    initialize_new_instance: bool,
}

/// The JSON `Load_InvalidTypeOf*Type` builds for each rapidjson type: null, false, true,
/// `{"A": 42}` (so it is not an explicit default), `[]`, `""` and `0`.
fn invalid(types: &[&str]) -> Vec<Json> {
    types
        .iter()
        .map(|t| match *t {
            "null" => json!(null),
            "false" => json!(false),
            "true" => json!(true),
            "object" => json!({"A": 42}),
            "array" => json!([]),
            "string" => json!(""),
            "number" => json!(0),
            _ => unreachable!(),
        })
        .collect()
}

fn run_conformity(d: &Description) {
    let reg = registry();
    let t = ty(&reg, d.ty);
    let name = d.name;
    let full_json: Json = serde_json::from_str(d.full_json).unwrap();

    // Load_InvalidTypeOf{Null,False,True,Object,Array,String,Number}Type_ReturnsUnsupported.
    for input in &d.unsupported {
        let what = format!("{name} Load_InvalidTypeOf");
        check(
            &reg,
            &t,
            d.default.clone(),
            input,
            Unsupported,
            Some(Processing::Altered),
            &d.default,
            &what,
        );
    }

    // Load_DeserializeFullySetInstance_SucceedsAndObjectMatchesFullySetInstance.
    let what = format!("{name} Load_DeserializeFullySetInstance");
    check(
        &reg,
        &t,
        d.default.clone(),
        &full_json,
        Success,
        Some(Processing::Completed),
        &d.full,
        &what,
    );
    // ...ThroughMainLoad.
    let (v, rep) = load(&reg, &t, &full_json, &LoadOptions::default());
    assert_eq!(
        (rep.outcome(), rep.processing()),
        (Success, Processing::Completed),
        "{name}"
    );
    assert_eq!(
        v, d.full,
        "{name} Load_DeserializeFullySetInstanceThroughMainLoad"
    );

    // Load_DefaultToPointer_SucceedsAndValueIsInitialized: `{ "Value": {} }` into a
    // null `T*` creates a default instance.
    let wrapper = ty(&reg, &format!("PointerWrapper_{}", d.ty));
    let (v, rep) = load(
        &reg,
        &wrapper,
        &json!({"Value": {}}),
        &LoadOptions::default(),
    );
    assert_eq!(
        (rep.outcome(), rep.processing()),
        (DefaultsUsed, Processing::Completed),
        "{name} Load_DefaultToPointer: {rep:?}"
    );
    assert_eq!(
        v,
        Value::Object(vec![Value::Ptr(Some(Box::new((
            t.clone(),
            d.default.clone()
        ))))]),
        "{name} Load_DefaultToPointer"
    );

    // Load_InitializeNewInstance_SucceedsAndValueIsInitialized.
    if d.initialize_new_instance {
        let what = format!("{name} Load_InitializeNewInstance");
        check(
            &reg,
            &t,
            d.default.clone(),
            &json!({}),
            DefaultsUsed,
            Some(Processing::Completed),
            &d.default,
            &what,
        );
    }

    // Store_SerializeDefaultInstance_EmptyJsonReturned (serializer, default given).
    let (j, code) = Storer::new(&reg, false, 1024).store(&t, &d.default, Some(&d.default));
    assert_eq!(
        (code.outcome(), code.processing()),
        (DefaultsUsed, Processing::Completed),
        "{name}"
    );
    assert_eq!(j, json!({}), "{name} Store_SerializeDefaultInstance");
    // ...ThroughMainStore.
    let (j, rep) = store_with_default(
        &reg,
        &t,
        &d.default,
        Some(&d.default),
        &StoreOptions::default(),
    );
    assert_eq!(
        (rep.outcome(), rep.processing()),
        (DefaultsUsed, Processing::Completed),
        "{name}"
    );
    assert_eq!(
        j,
        json!({}),
        "{name} Store_SerializeDefaultInstanceThroughMainStore"
    );

    // Store_SerializeWithDefaultsKept, Store_SerializeFullySetInstance,
    // Store_SerializeWithoutDefault, Store_SerializeWithoutDefaultAndDefaultsKept.
    for (test, keep, default) in [
        ("Store_SerializeWithDefaultsKept", true, Some(&d.full)),
        ("Store_SerializeFullySetInstance", false, Some(&d.default)),
        ("Store_SerializeWithoutDefault", false, None),
        ("Store_SerializeWithoutDefaultAndDefaultsKept", true, None),
    ] {
        let (j, code) = Storer::new(&reg, keep, 1024).store(&t, &d.full, default);
        assert_eq!(
            (code.outcome(), code.processing()),
            (Success, Processing::Completed),
            "{name} {test}"
        );
        assert_eq!(
            serde_json::to_string(&j).unwrap(),
            d.full_json,
            "{name} {test}"
        );
    }
}

#[test]
fn conformity_int() {
    for (cpp, name, _, _) in INTS {
        let reg = registry();
        let t = ty(&reg, name);
        run_conformity(&Description {
            name: cpp,
            ty: name,
            default: int(&t, 0),
            full: int(&t, 4),
            full_json: "4",
            unsupported: invalid(&["null", "object", "array"]),
            initialize_new_instance: true,
        });
    }
}

#[test]
fn conformity_bool() {
    run_conformity(&Description {
        name: "bool",
        ty: "bool",
        default: Value::Bool(false),
        full: Value::Bool(true),
        full_json: "true",
        unsupported: invalid(&["null", "object", "array"]),
        initialize_new_instance: true,
    });
}

#[test]
fn conformity_double() {
    for (name, default, full) in [
        ("f64", Value::F64(0.0), Value::F64(4.0)),
        ("f32", Value::F32(0.0), Value::F32(4.0)),
    ] {
        run_conformity(&Description {
            name,
            ty: name,
            default,
            full,
            full_json: "4.0",
            unsupported: invalid(&["null", "object", "array"]),
            initialize_new_instance: true,
        });
    }
}

#[test]
fn conformity_string() {
    // AZStd::string and AZ::OSString.
    run_conformity(&Description {
        name: "string",
        ty: "string",
        default: Value::String(String::new()),
        full: Value::String("Hello".into()),
        full_json: r#""Hello""#,
        unsupported: invalid(&["null", "object", "array"]),
        initialize_new_instance: false,
    });
}

#[test]
fn conformity_uuid() {
    let full = "{5E970016-0039-4454-8E0D-5EE58A390324}";
    run_conformity(&Description {
        name: "Uuid",
        ty: "Uuid",
        default: Value::Uuid(Uuid::NULL),
        full: Value::Uuid(Uuid::parse(full).unwrap()),
        full_json: r#""{5E970016-0039-4454-8E0D-5EE58A390324}""#,
        unsupported: invalid(&["null", "false", "true", "object", "array", "number"]),
        initialize_new_instance: true,
    });
}

// ---- Behaviour read from O3DE's serializer source (no O3DE test covers it) ----

/// `JsonNumericCast` from a double (`FitsInToType`): above the maximum or below the
/// lowest, each as a double, is Unsupported and the value is untouched; otherwise the
/// value is truncated. `strtoll`/`strtoull` base 0 reads hexadecimal and octal.
#[test]
fn int_casts_from_source() {
    let reg = registry();
    let cases: Vec<(&str, Json, Outcome, i128)> = vec![
        ("i8", json!(127.5), Unsupported, 0),
        ("i8", json!(126.9), Success, 126),
        ("i8", json!(-128.5), Unsupported, 0),
        ("i8", json!(-127.9), Success, -127),
        ("u8", json!(255.5), Unsupported, 0),
        ("u8", json!(-0.5), Unsupported, 0),
        ("i32", json!(2147483647.5), Unsupported, 0),
        ("i64", json!(9223372036854775808.0), Unsupported, 0),
        ("u64", json!(18446744073709551616.0), Unsupported, 0),
        ("u8", json!("0xFF"), Success, 255),
        ("u8", json!("0x100"), Unsupported, 0),
        ("u8", json!("-0x1"), Unsupported, 0),
        ("i16", json!("-0x10"), Success, -16),
        ("u16", json!("017"), Success, 15),
        ("i32", json!("  +42"), Success, 42),
        ("u32", json!("-0"), Success, 0),
    ];
    for (name, input, outcome, value) in cases {
        let t = ty(&reg, name);
        check(
            &reg,
            &t,
            int(&t, 0),
            &input,
            outcome,
            None,
            &int(&t, value),
            "source",
        );
    }
}

/// `strtod` reads `inf`, which does not fit a double for `JsonNumericCast` (it is above
/// `DBL_MAX`); `nan` passes (no comparison holds) and is stored as is.
#[test]
fn double_infinity_from_source() {
    let reg = registry();
    for text in ["inf", "-Infinity", "INF and more"] {
        for (t, start) in [
            (TypeExpr::F64, Value::F64(2.5)),
            (TypeExpr::F32, Value::F32(2.5)),
        ] {
            check(
                &reg,
                &t,
                start.clone(),
                &json!(text),
                Unsupported,
                None,
                &start,
                text,
            );
        }
    }
    let mut v = Value::F64(2.5);
    let rep = load_onto(
        &reg,
        &TypeExpr::F64,
        &json!("nan"),
        &mut v,
        &LoadOptions::default(),
    );
    assert_eq!(rep.outcome(), Success);
    assert!(matches!(v, Value::F64(f) if f.is_nan()));
}

/// `Uuid::CreateString` on the regular expression's match: the dash after the first 8
/// digits decides whether dashes are read. Without it, later dashes are read as digits
/// worth 0xFF (a garbage but non-null id, so Success); with it, all must be there.
#[test]
fn uuid_dashes_from_source() {
    let reg = registry();
    let start = Value::Uuid(Uuid::NULL);
    let garbage = Uuid::parse("{51CD2896-A963-F4CA-FFAE-90F39AEBDA72}").unwrap();
    check(
        &reg,
        &TypeExpr::Uuid,
        start.clone(),
        &json!("{51CD2896A963-4CA1-AE90-39AEBDA72364}"),
        Success,
        None,
        &Value::Uuid(garbage),
        "first dash missing",
    );
    for text in [
        "{51CD2896-A9634CA1-AE90-39AEBDA72364}",
        "{51CD2896-A963-4CA1-AE9039AEBDA72364}",
        "{00000000000000000000000000000000}",
    ] {
        check(
            &reg,
            &TypeExpr::Uuid,
            start.clone(),
            &json!(text),
            Unsupported,
            None,
            &start,
            text,
        );
    }
}

/// rapidjson reads the number `-0` as the integer 0, so O3DE loads it into a string as
/// `"0"` and into a double as +0.0; `-0.0` stays a negative double.
#[test]
fn bare_minus_zero_reads_as_integer_zero() {
    let reg = registry();
    let opts = gamewire_o3de::LoadOptions::default();
    let s = ty(&reg, "string");
    let (v, r) = gamewire_o3de::load_bytes(&reg, &s, b"-0", &opts).unwrap();
    assert_eq!((v, r.outcome()), (Value::String("0".into()), Success));
    let (v, _) = gamewire_o3de::load_bytes(&reg, &s, b"-0.0", &opts).unwrap();
    assert_eq!(v, Value::String("-0.000000".into()));
    let d = ty(&reg, "f64");
    let (v, _) = gamewire_o3de::load_bytes(&reg, &d, b"-0", &opts).unwrap();
    assert!(
        matches!(v, Value::F64(x) if x == 0.0 && x.is_sign_positive()),
        "{v:?}"
    );
}
