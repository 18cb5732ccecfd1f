//! Ports of O3DE's JSON serialization framework tests
//! (`Code/Framework/AzCore/Tests/Serialization/Json/` in o3de/o3de):
//!
//! - `JsonSerializationTests.cpp` with the class test cases of `TestCases_Classes.cpp/.h`
//!   and `TestCases_Base.cpp/.h` (the typed tests: defaults, kept defaults, `{}`, round
//!   trips, injected extra fields) and its plain `Load_*`/`Store_*` tests;
//! - `JsonSerializationResultTests.cpp` (`ResultCode::Combine`) and the sentences
//!   `ResultCode::ToString` writes for every task, processing state and outcome;
//! - `BaseJsonSerializerTests.cpp` (continue loading/storing, pointers, object fields,
//!   explicit default, context paths);
//! - `JsonSerializationUtilsTests.cpp` (the file envelope, reading and writing JSON text);
//! - `TestCases_Importing.cpp` (`$import`: objects, arrays, patches, nested imports,
//!   cycles, a directive added before restoring).
//!
//! Same inputs and expected outcomes as O3DE; where a test needed adapting to gamewire's
//! registry (no C++ reflection), the comment says how.

use gamewire_o3de::envelope::{self, Envelope};
use gamewire_o3de::import::{resolve_imports, restore_imports, ImportDirective, MemoryImporter};
use gamewire_o3de::{
    load, load_onto, parse_json, store, store_with_default, LoadOptions, Outcome, Processing,
    Registry, ResultCode, StoreOptions, Task, TypeExpr, Uuid, Value,
};
use serde_json::{json, Value as Json};
use std::path::PathBuf;

use Outcome::*;

// ---------------------------------------------------------------------------------------
// JsonSerializationResultTests.cpp
// ---------------------------------------------------------------------------------------

#[test]
fn result_code_is_32_bits() {
    // ResultCode_SizeOf_32bits
    assert_eq!(std::mem::size_of::<ResultCode>(), 4);
}

#[test]
fn result_code_combine() {
    let rc = ResultCode::new;
    // Combine_CombineFullyDifferentResult_HigherReplacesLower
    let first = rc(Task::Convert, Success);
    let second = rc(Task::WriteValue, Catastrophic);
    let c = ResultCode::combined(first, second);
    assert_eq!(c.task(), second.task());
    assert_eq!(c.processing(), second.processing());
    assert_eq!(c.outcome(), second.outcome());
    // Combine_OnlyTaskDiffers_HighestTask
    let c = ResultCode::combined(rc(Task::Convert, Skipped), rc(Task::ReadField, Skipped));
    assert_eq!(c.task(), Task::ReadField);
    // Combine_SuccessAndSkipped_PartialSkip, Combine_SkippedAndSuccess_PartialSkip
    let (s, k) = (rc(Task::ReadField, Success), rc(Task::ReadField, Skipped));
    assert_eq!(ResultCode::combined(s, k).outcome(), PartialSkip);
    assert_eq!(ResultCode::combined(k, s).outcome(), PartialSkip);
    // Combine_OnlyOutComeDiffers_HighestOutcome
    let c = ResultCode::combined(k, rc(Task::ReadField, Catastrophic));
    assert_eq!(c.outcome(), Catastrophic);
    // Combine_CompletedAndAltered_PartialAltered, Combine_AlteredAndCompleted_PartialAltered
    let u = rc(Task::ReadField, Unsupported);
    assert_eq!(
        ResultCode::combined(s, u).processing(),
        Processing::PartialAlter
    );
    assert_eq!(
        ResultCode::combined(u, s).processing(),
        Processing::PartialAlter
    );
    // Combine_CompletedAndDefault_PartialDefaults, Combine_DefaultAndCompleted_PartialDefaults
    let d = rc(Task::ReadField, DefaultsUsed);
    assert_eq!(ResultCode::combined(s, d).outcome(), PartialDefaults);
    assert_eq!(ResultCode::combined(d, s).outcome(), PartialDefaults);
    // The in-place form gives the same.
    let mut m = d;
    m.combine(s);
    assert_eq!(m, ResultCode::combined(d, s));
}

#[test]
fn result_code_processing_per_outcome() {
    // ResultCode(Tasks, Outcomes): the processing state each outcome starts with.
    let cases = [
        (Success, Processing::Completed),
        (Skipped, Processing::Completed),
        (PartialSkip, Processing::Completed),
        (DefaultsUsed, Processing::Completed),
        (PartialDefaults, Processing::Completed),
        (Unavailable, Processing::Altered),
        (Unsupported, Processing::Altered),
        (TypeMismatch, Processing::Halted),
        (TestFailed, Processing::Halted),
        (Missing, Processing::Halted),
        (Invalid, Processing::Halted),
        (Unknown, Processing::Halted),
        (Catastrophic, Processing::Halted),
    ];
    for (o, p) in cases {
        assert_eq!(ResultCode::new(Task::ReadField, o).processing(), p, "{o:?}");
    }
    // ResultCode(Tasks): no work done reads as Completed / DefaultsUsed.
    let e = ResultCode::empty(Task::Merge);
    assert!(!e.has_done_work());
    assert_eq!(
        (e.processing(), e.outcome()),
        (Processing::Completed, DefaultsUsed)
    );
}

#[test]
fn result_code_text() {
    // JsonSerializationResult.cpp AppendToString: one sentence part per processing
    // state, task and outcome.
    let text = |t, p, o, path: &str| ResultCode::from_parts(t, p, o).describe(path);
    let processings = [
        (Processing::Halted, "has halted during "),
        (
            Processing::Altered,
            "has taken an alternative approach for ",
        ),
        (
            Processing::PartialAlter,
            "has taken a partially alternative approach for ",
        ),
        (Processing::Completed, "has completed "),
    ];
    for (p, s) in processings {
        assert_eq!(
            text(Task::ReadField, p, Success, ""),
            format!("The operation {s}a read field operation which resulted in success")
        );
    }
    let tasks = [
        (Task::RetrieveInfo, "a retrieve info operation "),
        (Task::CreateDefault, "a create default operation "),
        (Task::Convert, "a convert operation "),
        // Clear has no sentence of its own in O3DE.
        (Task::Clear, "an unknown operation "),
        (Task::ReadField, "a read field operation "),
        (Task::WriteValue, "a write value operation "),
        (Task::Merge, "a merge operation "),
        (Task::CreatePatch, "a create patch operation "),
        // O3DE writes no space after this one.
        (Task::Import, "an import operation"),
    ];
    for (t, s) in tasks {
        assert_eq!(
            text(t, Processing::Completed, Success, "/a"),
            format!("The operation has completed {s}for '/a' which resulted in success")
        );
    }
    let outcomes = [
        (Success, "which resulted in success"),
        (DefaultsUsed, "by using only default values"),
        (PartialDefaults, "by using one or more default values"),
        (Skipped, "because a field or value was skipped"),
        (
            PartialSkip,
            "because one or more fields or values were skipped",
        ),
        (Unavailable, "because the target was unavailable"),
        (Unsupported, "because the action was unsupported"),
        (
            TypeMismatch,
            "because the source and target are unrelated types",
        ),
        (TestFailed, "because a test against a value failed"),
        (Missing, "because a required field or value was missing"),
        (Invalid, "because a field or element has an invalid value"),
        (Unknown, "because information was missing"),
        (Catastrophic, "because a catastrophic issue was encountered"),
    ];
    for (o, s) in outcomes {
        assert_eq!(
            text(Task::Convert, Processing::Completed, o, ""),
            format!("The operation has completed a convert operation {s}")
        );
        assert_eq!(o.name(), format!("{o:?}"));
    }
    // Task names, including Import (the ninth task).
    assert_eq!(Task::Import.name(), "Import");
    assert!(Task::Import > Task::CreatePatch);
    let c = ResultCode::new(Task::Import, Catastrophic);
    assert_eq!(c.task(), Task::Import);
}

// ---------------------------------------------------------------------------------------
// TestCases_Base / TestCases_Classes and the typed tests of JsonSerializationTests.cpp
// ---------------------------------------------------------------------------------------

/// The classes of TestCases_Base.h and TestCases_Classes.h, with their O3DE type ids.
/// NonReflectedEnumWrapper's enums are not reflected in O3DE, so its fields are plain
/// integers (an `enum class` is an `int`, the unscoped enum an `unsigned int`).
fn class_registry() -> Registry {
    Registry::from_json(&json!({
        "enums": [
            {"name": "SimpleEnumClass", "uuid": "{AF6F1964-5B20-4689-BF23-F36B9C9AAE6A}",
             "underlying": "i32", "values": [{"name": "Option1", "value": 1}, {"name": "Option2", "value": 2}]},
            {"name": "SimpleRawEnum", "uuid": "{EB24207F-B48F-4D8B-940D-3CD06A371739}",
             "underlying": "u32", "values": [{"name": "Option1", "value": 1}, {"name": "Option2", "value": 2}]}
        ],
        "classes": [
            {"name": "BaseClass", "uuid": "{E0A66EB6-1AC5-4C73-B1A7-6367A47EC026}",
             "fields": [{"name": "base_var", "type": "float", "default": -42.0}]},
            {"name": "BaseClass2", "uuid": "{F9D704C1-04AF-463C-B47A-02C28805AAEE}",
             "fields": [{"name": "base2_var1", "type": "double", "default": -133.0},
                        {"name": "base2_var2", "type": "double", "default": -233.0},
                        {"name": "base2_var3", "type": "double", "default": -333.0}]},
            {"name": "SimpleClass", "uuid": "{5A40E851-A748-40F3-97BA-5BB3A98CDD61}",
             "fields": [{"name": "var1", "type": "int", "default": 42},
                        {"name": "var2", "type": "float", "default": 42.0}]},
            {"name": "SimpleInheritence", "uuid": "{CD2A6797-63B4-4B4D-B3D2-9044781C1E42}",
             "bases": ["BaseClass"],
             "fields": [{"name": "var1", "type": "int", "default": 42},
                        {"name": "var2", "type": "float", "default": 42.0}]},
            {"name": "MultipleInheritence", "uuid": "{44E30C38-CE6B-4DC6-9CBF-85B10C148B11}",
             "bases": ["BaseClass", "BaseClass2"],
             "fields": [{"name": "var1", "type": "int", "default": 42},
                        {"name": "var2", "type": "float", "default": 42.0}]},
            {"name": "SimpleNested", "uuid": "{6BB50CDB-BD78-4CB6-94F3-A586E785D95C}",
             "fields": [{"name": "nested", "type": "SimpleClass"},
                        {"name": "var_additional", "type": "int", "default": 42}]},
            {"name": "SimpleEnumWrapper", "uuid": "{CC95FF00-8D04-437A-9849-80D5AD7AD5DC}",
             "fields": [{"name": "enumClass", "type": "SimpleEnumClass"},
                        {"name": "rawEnum", "type": "SimpleRawEnum"}]},
            {"name": "NonReflectedEnumWrapper", "uuid": "{A80D5B6B-2FD1-46E9-A7A9-44C5E2650526}",
             "fields": [{"name": "enumClass", "type": "int"},
                        {"name": "rawEnum", "type": "u32"}]},
            {"name": "ComplexNullInheritedPointer",
             "fields": [{"name": "pointer", "type": "BaseClass*"}]},
            {"name": "EmptyClass", "uuid": "{9E69A37B-22BD-4E3F-9A80-63D902966591}"},
            {"name": "Inherited", "uuid": "{E7829F37-C577-4F2B-A85B-6F331548354C}", "bases": ["BaseClass"]},
            {"name": "Inherited", "uuid": "{0DF033C4-3EEC-4F61-8B79-59FE31545029}", "bases": ["BaseClass"]},
            {"name": "ConflictingNameTestClass", "uuid": "{370EFD10-781B-47BF-B0A1-6FC4E9D55CBC}",
             "fields": [{"name": "pointer", "type": "shared_ptr<BaseClass>",
                         "default": {"$type": "{E7829F37-C577-4F2B-A85B-6F331548354C}"}}]}
        ]
    }))
    .unwrap()
}

/// One class's descriptions: `GetInstanceWithoutDefaults` and `GetInstanceWithSomeDefaults`.
struct ClassCase {
    name: &'static str,
    default: Value,
    without_defaults: Value,
    json: &'static str,
    some_defaults: Value,
    stripped: &'static str,
    kept: &'static str,
}

fn obj(fields: Vec<Value>) -> Value {
    Value::Object(fields)
}
fn i(v: i64) -> Value {
    Value::Int(v)
}
fn u(v: u64) -> Value {
    Value::UInt(v)
}
fn f(v: f32) -> Value {
    Value::F32(v)
}
fn d(v: f64) -> Value {
    Value::F64(v)
}

fn class_cases() -> Vec<ClassCase> {
    vec![
        ClassCase {
            name: "SimpleClass",
            default: obj(vec![i(42), f(42.0)]),
            without_defaults: obj(vec![i(88), f(88.0)]),
            json: r#"{ "var1": 88, "var2": 88.0 }"#,
            some_defaults: obj(vec![i(88), f(42.0)]),
            stripped: r#"{ "var1": 88 }"#,
            kept: r#"{ "var1": 88, "var2": 42.0 }"#,
        },
        ClassCase {
            name: "SimpleInheritence",
            default: obj(vec![f(-42.0), i(42), f(42.0)]),
            without_defaults: obj(vec![f(-88.0), i(88), f(88.0)]),
            json: r#"{ "base_var": -88.0, "var1": 88, "var2": 88.0 }"#,
            some_defaults: obj(vec![f(-42.0), i(88), f(42.0)]),
            stripped: r#"{ "var1": 88 }"#,
            kept: r#"{ "base_var": -42.0, "var1": 88, "var2": 42.0 }"#,
        },
        ClassCase {
            name: "MultipleInheritence",
            default: obj(vec![
                f(-42.0),
                d(-133.0),
                d(-233.0),
                d(-333.0),
                i(42),
                f(42.0),
            ]),
            without_defaults: obj(vec![
                f(-88.0),
                d(-190.0),
                d(-290.0),
                d(-390.0),
                i(88),
                f(88.0),
            ]),
            json: r#"{ "base_var": -88.0, "base2_var1": -190.0, "base2_var2": -290.0,
                       "base2_var3": -390.0, "var1": 88, "var2": 88.0 }"#,
            some_defaults: obj(vec![
                f(-42.0),
                d(-88.0),
                d(-233.0),
                d(-333.0),
                i(88),
                f(42.0),
            ]),
            stripped: r#"{ "base2_var1": -88.0, "var1": 88 }"#,
            kept: r#"{ "base_var": -42.0, "base2_var1": -88.0, "base2_var2": -233.0,
                       "base2_var3": -333.0, "var1": 88, "var2": 42.0 }"#,
        },
        ClassCase {
            name: "SimpleNested",
            default: obj(vec![obj(vec![i(42), f(42.0)]), i(42)]),
            without_defaults: obj(vec![obj(vec![i(88), f(88.0)]), i(-88)]),
            json: r#"{ "nested": { "var1": 88, "var2": 88.0 }, "var_additional": -88 }"#,
            some_defaults: obj(vec![obj(vec![i(88), f(42.0)]), i(42)]),
            stripped: r#"{ "nested": { "var1": 88 } }"#,
            kept: r#"{ "nested": { "var1": 88, "var2": 42.0 }, "var_additional": 42 }"#,
        },
        ClassCase {
            name: "SimpleEnumWrapper",
            default: obj(vec![i(0), u(0)]),
            without_defaults: obj(vec![i(2), u(1)]),
            json: r#"{ "enumClass": "Option2", "rawEnum": "Option1" }"#,
            some_defaults: obj(vec![i(2), u(0)]),
            stripped: r#"{ "enumClass": "Option2" }"#,
            kept: r#"{ "enumClass": "Option2", "rawEnum": 0 }"#,
        },
        ClassCase {
            name: "NonReflectedEnumWrapper",
            default: obj(vec![i(0), u(0)]),
            without_defaults: obj(vec![i(2), u(1)]),
            json: r#"{ "enumClass": 2, "rawEnum": 1 }"#,
            some_defaults: obj(vec![i(2), u(0)]),
            stripped: r#"{ "enumClass": 2 }"#,
            kept: r#"{ "enumClass": 2, "rawEnum": 0 }"#,
        },
    ]
}

/// `Expect_DocStrEq`: the written JSON equals the reference with its white space removed.
fn text_eq(j: &Json, reference: &str, what: &str) {
    let clean: String = reference.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(serde_json::to_string(j).unwrap(), clean, "{what}");
}

fn parse(text: &str) -> Json {
    parse_json(text.as_bytes()).unwrap()
}

fn keep() -> StoreOptions {
    StoreOptions {
        keep_defaults: true,
        ..Default::default()
    }
}

/// `InjectAdditionalFields(.., kStringType, ..)`: a "Comment N" string member before every
/// member of every object, and a string before every element of every array.
fn inject_additional_fields(j: &mut Json) {
    match j {
        Json::Object(m) => {
            let old = std::mem::take(m);
            for (n, (k, mut v)) in old.into_iter().enumerate() {
                m.insert(
                    format!("Comment {n}"),
                    json!("Added to object for testing purposes"),
                );
                inject_additional_fields(&mut v);
                m.insert(k, v);
            }
        }
        Json::Array(a) => {
            let old = std::mem::take(a);
            for mut v in old {
                a.push(json!("Added to object for testing purposes"));
                inject_additional_fields(&mut v);
                a.push(v);
            }
        }
        _ => {}
    }
}

#[test]
fn typed_class_tests() {
    let reg = class_registry();
    let lo = LoadOptions::default();
    for c in class_cases() {
        let n = c.name;
        let ty = reg.parse_type(n).unwrap();
        assert_eq!(reg.zero(&ty), c.default, "{n}: default instance");

        // Store_SerializedDefaultInstance_EmptyJsonReturned
        let (j, r) = store(&reg, &ty, &c.default, &StoreOptions::default());
        assert_eq!(r.outcome(), DefaultsUsed, "{n}");
        text_eq(&j, "{}", n);

        // Load_EmptyJson_SucceedsAndObjectMatchesDefaults
        let (v, r) = load(&reg, &ty, &json!({}), &lo);
        assert_eq!(r.outcome(), DefaultsUsed, "{n}");
        assert_eq!(v, c.default, "{n}");

        // Store_SerializeWithoutDefaults_StoredSuccessfullyAndJsonMatches
        let (j, r) = store(&reg, &ty, &c.without_defaults, &StoreOptions::default());
        assert_eq!(
            (r.processing(), r.outcome()),
            (Processing::Completed, Success),
            "{n}"
        );
        text_eq(&j, c.json, n);

        // Load_JsonWithoutDefaults_SucceedsAndObjectMatches
        let (v, r) = load(&reg, &ty, &parse(c.json), &lo);
        assert_eq!(r.outcome(), Success, "{n}: {r:?}");
        assert_eq!(v, c.without_defaults, "{n}");

        // Store_SerializeWithSomeDefaults_StoredSuccessfullyAndJsonMatches
        // (SupportsPartialDefaults is true for all six classes).
        let (j, r) = store(&reg, &ty, &c.some_defaults, &StoreOptions::default());
        assert_eq!(r.outcome(), PartialDefaults, "{n}");
        text_eq(&j, c.stripped, n);

        // Load_JsonWithSomeDefaults_SucceedsAndObjectMatches
        let (v, r) = load(&reg, &ty, &parse(c.stripped), &lo);
        assert!(
            matches!(r.outcome(), Success | DefaultsUsed | PartialDefaults),
            "{n}: {r:?}"
        );
        assert_eq!(v, c.some_defaults, "{n}");

        // Store_SerializeWithSomeDefaultsKept_StoredSuccessfullyAndJsonMatches
        let (j, r) = store(&reg, &ty, &c.some_defaults, &keep());
        assert_eq!(r.outcome(), Success, "{n}");
        text_eq(&j, c.kept, n);

        // Load_JsonWithSomeDefaultsKept_SucceedsAndObjectMatches
        let (v, r) = load(&reg, &ty, &parse(c.kept), &lo);
        assert_eq!(r.outcome(), Success, "{n}: {r:?}");
        assert_eq!(v, c.some_defaults, "{n}");

        // LoadAndStore_RoundTrip_StoredObjectCanBeLoadedAgain
        let (j, r) = store(&reg, &ty, &c.without_defaults, &keep());
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        let (v, r) = load(&reg, &ty, &j, &lo);
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        assert_eq!(v, c.without_defaults, "{n}");

        // Load_JsonAdditionalFields_SucceedsAndObjectMatches
        let mut j = parse(c.json);
        inject_additional_fields(&mut j);
        let (v, r) = load(&reg, &ty, &j, &lo);
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        assert_eq!(v, c.without_defaults, "{n}");
        // The injected members are skipped, each one reported.
        assert!(r.issues.iter().all(|i| i.code.outcome() == Skipped), "{n}");
    }
}

#[test]
fn typed_store_with_unknown_type() {
    // Store_SerializeWithUnknownType_UnknownTypeReturned: O3DE reflects the class
    // partially (Reflect(false): SimpleClass and the enum wrappers not at all, the base
    // classes or the nested class missing) and the store reports Unknown. gamewire's
    // registry cannot hold a class whose base or field type is not declared: the
    // declaration itself is refused, naming the missing type, and an undeclared class
    // cannot be named.
    let missing_base = json!({"classes": [
        {"name": "SimpleInheritence", "bases": ["BaseClass"], "fields": [{"name": "var1", "type": "int"}]}
    ]});
    let e = Registry::from_json(&missing_base).unwrap_err();
    assert!(e.to_string().contains("BaseClass"), "{e}");
    let missing_nested = json!({"classes": [
        {"name": "SimpleNested", "fields": [{"name": "nested", "type": "SimpleClass"}]}
    ]});
    let e = Registry::from_json(&missing_nested).unwrap_err();
    assert!(e.to_string().contains("SimpleClass"), "{e}");
    let missing_enum = json!({"classes": [
        {"name": "SimpleEnumWrapper", "fields": [{"name": "enumClass", "type": "SimpleEnumClass"}]}
    ]});
    assert!(Registry::from_json(&missing_enum).is_err());
    let empty = Registry::from_json(&json!({})).unwrap();
    assert!(empty.parse_type("SimpleClass").is_err());
}

#[test]
fn class_fields_match_case_insensitively() {
    // JsonDeserializer looks fields up by the CRC of the lower-cased name.
    let reg = class_registry();
    let ty = reg.parse_type("MultipleInheritence").unwrap();
    let (v, r) = load(
        &reg,
        &ty,
        &json!({"BASE_VAR": -88.0, "Base2_Var1": -190.0, "VAR1": 88}),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), PartialDefaults);
    assert_eq!(
        v,
        obj(vec![
            f(-88.0),
            d(-190.0),
            d(-233.0),
            d(-333.0),
            i(88),
            f(42.0)
        ])
    );
}

// ---------------------------------------------------------------------------------------
// JsonSerializationTests.cpp: plain tests
// ---------------------------------------------------------------------------------------

#[test]
fn load_and_store_at_the_root() {
    let reg = class_registry();
    // Load_PrimitiveAtTheRoot_SucceedsAndObjectMatches
    let (v, r) = load(&reg, &TypeExpr::Bool, &json!(true), &LoadOptions::default());
    assert_eq!((r.outcome(), v), (Success, Value::Bool(true)));
    // Load_ArrayAtTheRoot_SucceedsAndObjectMatches
    let ty = reg.parse_type("vector<int>").unwrap();
    let (v, r) = load(&reg, &ty, &json!([13, 42, 88]), &LoadOptions::default());
    assert_eq!(r.outcome(), Success);
    assert_eq!(v, Value::Seq(vec![i(13), i(42), i(88)]));
    // Store_PrimitiveAtTheRoot_ReturnsSuccessAndTheValueAtTheRoot
    let (j, r) = store(&reg, &TypeExpr::Bool, &Value::Bool(true), &keep());
    assert_eq!(r.outcome(), Success);
    text_eq(&j, "true", "bool");
    // Store_ArrayAtTheRoot_ReturnsSuccessAndTheArrayAtTheRoot
    let (j, r) = store(&reg, &ty, &v, &keep());
    assert_eq!(r.outcome(), Success);
    text_eq(&j, "[13,42,88]", "vector<int>");
}

#[test]
fn store_class_without_members() {
    let reg = class_registry();
    let ty = reg.parse_type("EmptyClass").unwrap();
    // Store_ClassWithoutMembers_ReturnsDefaultsUsed
    let (j, r) = store(&reg, &ty, &obj(vec![]), &StoreOptions::default());
    assert_eq!((r.outcome(), j), (DefaultsUsed, json!({})));
    // Store_ClassWithoutMembersAndDefaultsKept_ReturnsSuccess
    let (j, r) = store(&reg, &ty, &obj(vec![]), &keep());
    assert_eq!((r.outcome(), j), (Success, json!({})));
}

fn pointee(v: &Value) -> Option<&TypeExpr> {
    match v {
        Value::Object(f) => match &f[0] {
            Value::Ptr(Some(b)) => Some(&b.0),
            _ => None,
        },
        _ => None,
    }
}

#[test]
fn load_pointer_type_ids() {
    let reg = class_registry();
    let ty = reg.parse_type("ComplexNullInheritedPointer").unwrap();
    let lo = LoadOptions::default();
    // Load_PointerToSameClass_SucceedsAndObjectMatches: an unneeded "$type" still
    // creates the instance, of the declared class.
    let (v, r) = load(&reg, &ty, &json!({"pointer": {"$type": "BaseClass"}}), &lo);
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_eq!(pointee(&v), Some(&reg.parse_type("BaseClass").unwrap()));
    // Load_InvalidPointerName_FailsToConvert
    let (_, r) = load(&reg, &ty, &json!({"pointer": {"$type": "Invalid"}}), &lo);
    assert_eq!((r.outcome(), r.processing()), (Unknown, Processing::Halted));
    // Load_UnrelatedPointerType_FailsToCast
    let (_, r) = load(
        &reg,
        &ty,
        &json!({"pointer": {"$type": "SimpleClass"}}),
        &lo,
    );
    assert_eq!(
        (r.outcome(), r.processing()),
        (TypeMismatch, Processing::Halted)
    );
    // Load_PointerToUnregisteredClass_ReturnsUnknown (adapted: a pointer field must have
    // a declared type, so the field points to a declared class while the "$type" UUID,
    // EmptyClass's, names no declared class).
    let small = Registry::from_json(&json!({"classes": [
        {"name": "ClassWithPointerToUnregisteredClass", "fields": [{"name": "ptr", "type": "Holder*"}]},
        {"name": "Holder"}
    ]}))
    .unwrap();
    let (_, r) = load(
        &small,
        &small
            .parse_type("ClassWithPointerToUnregisteredClass")
            .unwrap(),
        &json!({"ptr": {"$type": "{9E69A37B-22BD-4E3F-9A80-63D902966591}"}}),
        &lo,
    );
    assert_eq!(r.outcome(), Unknown);
    // With EmptyClass declared but unrelated to the pointer's class: TypeMismatch.
    let (_, r) = load(
        &reg,
        &ty,
        &json!({"pointer": {"$type": "{9E69A37B-22BD-4E3F-9A80-63D902966591}"}}),
        &lo,
    );
    assert_eq!(r.outcome(), TypeMismatch);
    // Load_PrimitiveForInheritedClass_LoadsCorrectClass (without the mock serializer):
    // a unique_ptr<BaseClass> gets the class named by "$type".
    let ptr = reg.parse_type("unique_ptr<BaseClass>").unwrap();
    let (v, r) = load(
        &reg,
        &ptr,
        &json!({"$type": "SimpleInheritence", "base_var": -88.0, "var1": 88, "var2": 42}),
        &lo,
    );
    assert_ne!(r.processing(), Processing::Halted);
    let Value::Ptr(Some(b)) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(b.0, reg.parse_type("SimpleInheritence").unwrap());
    assert_eq!(b.1, obj(vec![f(-88.0), i(88), f(42.0)]));
}

#[test]
fn store_pointer_type_ids() {
    let reg = class_registry();
    // Store_PointerToClassWithSameNames_SuccessWithFullyQualifiedName
    let ty = reg.parse_type("ConflictingNameTestClass").unwrap();
    let (j, r) = store(&reg, &ty, &reg.zero(&ty), &keep());
    assert_eq!(r.outcome(), Success);
    let t = j
        .pointer("/pointer/$type")
        .and_then(|t| t.as_str())
        .unwrap();
    assert!(
        t.eq_ignore_ascii_case("{E7829F37-C577-4F2B-A85B-6F331548354C} Inherited"),
        "{t}"
    );
    // Store_PrimitiveForInheritedClass_StoreSucceedsAndTypeIdIsAdded (the mock serializer
    // replaced by the class's own fields, defaults kept so that all three are written).
    let ptr = reg.parse_type("unique_ptr<BaseClass>").unwrap();
    let si = reg.parse_type("SimpleInheritence").unwrap();
    let v = Value::Ptr(Some(Box::new((si, obj(vec![f(-88.0), i(88), f(42.0)])))));
    let (j, r) = store(&reg, &ptr, &v, &keep());
    assert_ne!(r.processing(), Processing::Halted);
    text_eq(
        &j,
        r#"{ "$type": "SimpleInheritence", "base_var": -88.0, "var1": 88, "var2": 42.0 }"#,
        "unique_ptr<BaseClass>",
    );
}

// ---------------------------------------------------------------------------------------
// BaseJsonSerializerTests.cpp
// ---------------------------------------------------------------------------------------

fn int_ptr(v: i64) -> Value {
    Value::Ptr(Some(Box::new((TypeExpr::I32, Value::Int(v)))))
}

#[test]
fn continue_loading() {
    let reg = class_registry();
    let lo = LoadOptions::default();
    let int_p = reg.parse_type("int*").unwrap();
    // ContinueLoading_DirectInstance_ValueLoadedCorrectly
    let (v, r) = load(&reg, &TypeExpr::I32, &json!(42), &lo);
    assert_eq!((r.processing(), v), (Processing::Completed, i(42)));
    // ContinueLoading_ToPointerInstance_ValueLoadedCorrectly
    let mut v = int_ptr(0);
    let r = load_onto(&reg, &int_p, &json!(42), &mut v, &lo);
    assert_eq!((r.processing(), v), (Processing::Completed, int_ptr(42)));
    // ContinueLoading_ToNullPointer_ValueLoadedCorrectly
    let (v, r) = load(&reg, &int_p, &json!(42), &lo);
    assert_eq!((r.processing(), v), (Processing::Completed, int_ptr(42)));
    // ContinueLoading_DefaultToNullPointer_ValueLoadedCorrectly
    let (v, r) = load(&reg, &int_p, &json!({}), &lo);
    assert_eq!((r.processing(), v), (Processing::Completed, int_ptr(0)));
    // ContinueLoading_NullDeletesObject_ValueLoadedCorrectly
    let mut v = int_ptr(7);
    let r = load_onto(&reg, &int_p, &json!(null), &mut v, &lo);
    assert_eq!(
        (r.processing(), v),
        (Processing::Completed, Value::Ptr(None))
    );
}

#[test]
fn continue_storing() {
    let reg = class_registry();
    let so = StoreOptions::default();
    let int_p = reg.parse_type("int*").unwrap();
    let check = |j: Json, r: gamewire_o3de::Report, expected: &str, what: &str| {
        assert_eq!(r.processing(), Processing::Completed, "{what}");
        text_eq(&j, expected, what);
    };
    // ContinueStoring_StoreDirectInstance_ValueStoredCorrectly and
    // ContinueStoring_ReplaceDefault_ValueStoredCorrectly (no default given)
    let (j, r) = store(&reg, &TypeExpr::I32, &i(42), &so);
    check(j, r, "42", "int");
    // ContinueStoring_StorePointerInstance_ValueStoredCorrectly and
    // ContinueStoring_ReplaceDefaultForPointer_ValueStoredCorrectly
    let (j, r) = store(&reg, &int_p, &int_ptr(42), &so);
    check(j, r, "42", "int*");
    // ContinueStoring_StorePointerToFullDefaultedInstance_ValueStoredCorrectly
    let (j, r) = store_with_default(&reg, &int_p, &int_ptr(42), Some(&int_ptr(42)), &so);
    check(j, r, "{}", "int* = default");
    // ContinueStoring_StorePointerToNullptr_ValueStoredCorrectly
    let (j, r) = store(&reg, &int_p, &Value::Ptr(None), &so);
    check(j, r, "null", "null int*");
    // ContinueStoring_StorePointerToNullptrWithValueDefault_ValueStoredCorrectly
    let (j, r) = store_with_default(&reg, &int_p, &Value::Ptr(None), Some(&int_ptr(42)), &so);
    check(j, r, "null", "null int*, default 42");
    // ContinueStoring_StorePointerToNullptrWithNullPtrDefault_NullPtrIsStored
    let (j, r) = store_with_default(
        &reg,
        &int_p,
        &Value::Ptr(None),
        Some(&Value::Ptr(None)),
        &so,
    );
    check(j, r, "null", "null int*, default null");
}

#[test]
fn type_ids() {
    let reg = class_registry();
    // LoadTypeId_CallIsForwarded_ReturnsTypeIdInJson (adapted: the type id string read
    // as a Uuid value).
    let (v, r) = load(
        &reg,
        &TypeExpr::Uuid,
        &json!("{A14FB65D-8812-4B0D-A596-7191960B76BE}"),
        &LoadOptions::default(),
    );
    assert_eq!(r.processing(), Processing::Completed);
    assert_eq!(
        v,
        Value::Uuid(Uuid::parse("{A14FB65D-8812-4B0D-A596-7191960B76BE}").unwrap())
    );
}

#[test]
fn scalar_type_ids() {
    // StoreTypeId_CallIsForwarded_ReturnsTypeIdInJson: int's type id is written "int"
    // (the name AzTypeInfo gives it); seen here through an `any` holding an int.
    let reg = class_registry();
    let any = TypeExpr::Any;
    let held = |t: TypeExpr, v: Value| Value::Any(Some(Box::new((t, v))));
    let (j, r) = store(&reg, &any, &held(TypeExpr::I32, i(42)), &keep());
    assert_eq!(r.processing(), Processing::Completed);
    assert_eq!(j, json!({"$type": "int", "Value": 42}));
    for (t, name) in [
        (TypeExpr::I8, "AZ::s8"),
        (TypeExpr::I16, "short"),
        (TypeExpr::I64, "AZ::s64"),
        (TypeExpr::U8, "unsigned char"),
        (TypeExpr::U16, "unsigned short"),
        (TypeExpr::U32, "unsigned int"),
        (TypeExpr::U64, "AZ::u64"),
        (TypeExpr::F32, "float"),
        (TypeExpr::F64, "double"),
        (TypeExpr::Bool, "bool"),
    ] {
        let v = reg.zero(&t);
        let (j, _) = store(&reg, &any, &held(t.clone(), v.clone()), &keep());
        assert_eq!(j["$type"], json!(name), "{t}");
        // And back: the name, and the type id, give the type again.
        let (back, r) = load(&reg, &any, &j, &LoadOptions::default());
        assert_eq!(back, held(t.clone(), v), "{name}: {r:?}");
    }
    let (v, _) = load(
        &reg,
        &any,
        &json!({"$type": "{43DA906B-7DEF-4ca8-9790-854106D3F983}", "Value": 7}),
        &LoadOptions::default(),
    );
    assert_eq!(v, held(TypeExpr::U32, u(7)));
}

/// A class holding one `int` member named "Value", for the object-field tests.
fn value_holder(default: i64) -> (Registry, TypeExpr) {
    let reg = Registry::from_json(&json!({"classes": [
        {"name": "Holder", "fields": [{"name": "Value", "type": "int", "default": default}]}
    ]}))
    .unwrap();
    let ty = reg.parse_type("Holder").unwrap();
    (reg, ty)
}

#[test]
fn object_fields() {
    let lo = LoadOptions::default();
    let (reg, ty) = value_holder(0);
    // ContinueLoadingFromJsonObjectField_LoadIntMember_ValueLoadedCorrectly
    let (v, r) = load(&reg, &ty, &parse(r#"{ "Value": 42 }"#), &lo);
    assert_eq!(
        (r.processing(), v),
        (Processing::Completed, obj(vec![i(42)]))
    );
    // ContinueLoadingFromJsonObjectField_MemberNotFound_DefaultsUsed
    let (v, r) = load(&reg, &ty, &json!({}), &lo);
    assert_eq!((r.outcome(), v), (DefaultsUsed, obj(vec![i(0)])));
    // ContinueLoadingFromJsonObjectField_InvalidJsonType_ReturnsUnsupported
    let (v, r) = load(&reg, &ty, &json!(false), &lo);
    assert_eq!((r.outcome(), v), (Unsupported, obj(vec![i(0)])));
    // ContinueStoringToJsonObjectField_StoreIntMember_ValueStoredCorrectly and
    // ContinueStoringToJsonObjectField_StoreIntMemberToNull_ValueStoredCorrectlyAsObject
    let (j, r) = store(&reg, &ty, &obj(vec![i(42)]), &StoreOptions::default());
    assert_eq!(r.processing(), Processing::Completed);
    text_eq(&j, r#"{ "Value": 42 }"#, "Holder");
    // ContinueStoringToJsonObjectField_StoreIntMemberWithMatchingDefault_NothingStored
    let v = obj(vec![i(42)]);
    let (j, r) = store_with_default(&reg, &ty, &v, Some(&v), &StoreOptions::default());
    assert_eq!(r.processing(), Processing::Completed);
    text_eq(&j, "{}", "Holder = default");
    let (reg, ty) = value_holder(42);
    let (j, _) = store(&reg, &ty, &obj(vec![i(42)]), &StoreOptions::default());
    text_eq(&j, "{}", "Holder, registry default 42");
}

#[test]
fn explicit_default() {
    // ExplicitDefault_GetAndCheckDefault_ReturnedExplicitDefaultPassesExplicitDefaultTest
    assert!(gamewire_o3de::load::is_explicit_default(&json!({})));
    assert!(!gamewire_o3de::load::is_explicit_default(&json!({"a": 1})));
    assert!(!gamewire_o3de::load::is_explicit_default(&json!([])));
}

#[test]
fn context_paths() {
    // JsonScopedContextPathTests (adapted): the path an issue is reported at is the JSON
    // Pointer of the value, "/ScopedContextPath test" for a member, "/42" for an index.
    let reg = Registry::from_json(&json!({"classes": [
        {"name": "P", "fields": [{"name": "ScopedContextPath test", "type": "int"}]}
    ]}))
    .unwrap();
    let ty = reg.parse_type("P").unwrap();
    let (_, r) = load(
        &reg,
        &ty,
        &json!({"ScopedContextPath test": "x"}),
        &LoadOptions::default(),
    );
    assert_eq!(r.issues[0].path, "/ScopedContextPath test");
    let ty = reg.parse_type("vector<int>").unwrap();
    let mut items = vec![json!(1); 43];
    items[42] = json!("x");
    let (_, r) = load(&reg, &ty, &Json::Array(items), &LoadOptions::default());
    assert_eq!(r.issues[0].path, "/42");
}

// ---------------------------------------------------------------------------------------
// JsonSerializationUtilsTests.cpp
// ---------------------------------------------------------------------------------------

/// Test1::TestClass and Test2::TestClass: two classes named "TestClass".
fn utils_registry() -> Registry {
    Registry::from_json(&json!({"classes": [
        {"name": "TestClass", "uuid": "{731F8B22-086E-4CDE-9645-23078C6277C1}", "fields": [
            {"name": "int", "type": "int"},
            {"name": "float", "type": "float"},
            {"name": "string", "type": "string", "default": "TestClass"},
            {"name": "unordered_map", "type": "unordered_map<int, string>"},
            {"name": "array", "type": "array<string, 2>"},
            {"name": "vector", "type": "vector<string>"}]},
        {"name": "TestClass", "uuid": "{DAC825C5-AB14-4D9D-AAC2-124E56E1F8FD}", "fields": [
            {"name": "SomeData", "type": "int"}]}
    ]}))
    .unwrap()
}

fn test1(reg: &Registry) -> TypeExpr {
    reg.parse_type("{731F8B22-086E-4CDE-9645-23078C6277C1}")
        .unwrap()
}

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

#[test]
fn save_load_object_to_stream() {
    // SaveLoadObjectToStream_Success
    let reg = utils_registry();
    let ty = test1(&reg);
    let data = obj(vec![
        i(0),
        f(10.0),
        s("SaveObjectToStreamSuccess"),
        Value::Map(vec![(i(1), s("one")), (i(5), s("five"))]),
        Value::Seq(vec![s(""), s("ONE")]),
        Value::Seq(vec![s("anything"), s("something")]),
    ]);
    let bytes = envelope::save_object(&reg, &ty, &data, &keep()).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    assert!(
        text.starts_with("{\n    \"Type\": \"JsonSerialization\",\n    \"Version\": 1,\n    \"ClassName\": \"TestClass\",\n    \"ClassData\": {\n        \"int\": 0,"),
        "{text}"
    );
    let (v, _) = envelope::load_object(&reg, &ty, &bytes, &LoadOptions::default()).unwrap();
    assert_eq!(v, data);
}

#[test]
fn write_and_read_json_text() {
    // WriteJson: rapidjson's PrettyWriter, four spaces.
    let doc = json!({"a": 1, "b": 2, "c": 3});
    assert_eq!(
        envelope::write_json(&doc),
        b"{\n    \"a\": 1,\n    \"b\": 2,\n    \"c\": 3\n}"
    );
    // ReadJsonString, LoadJsonStream
    let j = parse_json(b"\n            {\n                \"a\": 1,\n                \"b\": 2,\n                \"c\": 3\n            }").unwrap();
    assert_eq!(j, json!({"a": 1, "b": 2, "c": 3}));
    // ReadJsonString_ErrorReportsLineNumber (line 4), LoadJsonStream_ErrorReportsLineNumber (line 5)
    let line_of = |text: &[u8]| {
        let e = parse_json(text).unwrap_err();
        let off = e.offset().unwrap();
        (
            1 + text[..off].iter().filter(|&&c| c == b'\n').count(),
            e.to_string(),
        )
    };
    let (line, msg) = line_of(b"\n            {\n                \"a\": \"This line is missing a comma\"\n                \"b\": 2,\n                \"c\": 3\n            }\n            ");
    assert_eq!(line, 4, "{msg}");
    assert!(msg.contains("line 4"), "{msg}");
    let (line, msg) = line_of(b"\n            {\n                \"a\": 1,\n                \"b\": \"This line is missing a comma\"\n                \"c\": 3\n            }\n            ");
    assert_eq!(line, 5, "{msg}");
    assert!(msg.contains("line 5"), "{msg}");
    // An empty input is an error ("Failed to parse JSON: input string is empty.").
    assert!(parse_json(b"").is_err());
    // Comments are allowed (kParseCommentsFlag).
    assert_eq!(
        parse_json(b"{ // one\n \"a\": /* two */ 1 }").unwrap(),
        json!({"a": 1})
    );
}

#[test]
fn load_object_from_stream() {
    let reg = utils_registry();
    let ty = test1(&reg);
    let lo = LoadOptions::default();
    let load = |text: &str| envelope::load_object(&reg, &ty, text.as_bytes(), &lo);
    // LoadObjectFromStream_Failed_ParseError
    assert!(load("Not a Json").is_err());
    // LoadObjectFromStream_Failed_NotJsonSerialization
    assert!(load("{}").is_err());
    // LoadObjectFromStream_Failed_NoClassInfo
    assert!(load(r#"{ "Type": "JsonSerialization" }"#).is_err());
    // LoadObjectFromStream_Failed_MismatchClassName
    assert!(load(
        r#"{ "Type": "JsonSerialization", "ClassName": "NotTestClass", "ClassData" : {} }"#
    )
    .is_err());
    // LoadObjectFromStream_Failed_HaltMismatchClassMember: skipped members fail the load.
    assert!(load(
        r#"{ "Type": "JsonSerialization", "ClassName": "TestClass",
             "ClassData" : { "uint":"10", "bad name2":"blabla"} }"#
    )
    .is_err());
    // LoadObjectFromStream_Failed_WrongValueType
    assert!(load(
        r#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData" : { "int":"Ten"} }"#
    )
    .is_err());
    // LoadObjectFromStream_Success_LessField: no "Version" is needed.
    let (v, _) = load(
        r#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData" : { "int":"10"} }"#,
    )
    .unwrap();
    assert_eq!(v.as_object().unwrap()[0], i(10));
    // The type tag and the class name are compared without regard to case.
    assert!(
        load(r#"{ "Type": "jsonSERIALIZATION", "ClassName": "testclass", "ClassData": {}}"#)
            .is_ok()
    );
    // ClassData, when present, must be an object.
    assert!(
        load(r#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData": 5}"#)
            .is_err()
    );
}

#[test]
fn load_any_object_from_stream() {
    let reg = utils_registry();
    let lo = LoadOptions::default();
    // LoadAnyObjectFromStream_Success: the first class registered with that name.
    let (ty, v, _) = envelope::load_any_object(
        &reg,
        br#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData" : { "int":"10"} }"#,
        &lo,
    )
    .unwrap();
    assert_eq!(ty, test1(&reg));
    assert_eq!(v.as_object().unwrap()[0], i(10));
    // LoadAnyObjectFromStream_Failed_WrongValueType
    assert!(envelope::load_any_object(
        &reg,
        br#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData" : { "int":"Ten"} }"#,
        &lo,
    )
    .is_err());
    // The header is not validated here (O3DE checks the parse result a second time
    // instead): a document without "Type" loads all the same.
    let (ty, _, _) = envelope::load_any_object(
        &reg,
        br#"{ "ClassName": "TestClass", "ClassData" : { "int": 3 } }"#,
        &lo,
    )
    .unwrap();
    assert_eq!(ty, test1(&reg));
    assert!(envelope::load_any_object(&reg, br#"{ "Type": "JsonSerialization" }"#, &lo).is_err());
    // No class of that name.
    assert!(envelope::load_any_object(
        &reg,
        br#"{ "Type": "JsonSerialization", "ClassName": "Other", "ClassData" : {} }"#,
        &lo,
    )
    .is_err());
}

#[test]
fn envelope_header() {
    // ValidateJsonClassHeader: "Version" is not looked at; "ClassName" is required.
    let e = Envelope::from_json(&json!({"Type": "JsonSerialization", "ClassName": "A"}))
        .unwrap()
        .unwrap();
    assert_eq!((e.class_name.as_str(), e.class_data), ("A", json!({})));
    assert!(Envelope::from_json(&json!({"Type": "JsonSerialization"})).is_err());
    assert_eq!(
        Envelope::from_json(&json!({"Type": "Other"})).unwrap(),
        None
    );
}

// ---------------------------------------------------------------------------------------
// TestCases_Importing.cpp
// ---------------------------------------------------------------------------------------

fn import_files() -> MemoryImporter {
    let docs = [
        (
            "object.json",
            r#"{ "field_1" : "value_1", "field_2" : "value_2", "field_3" : "value_3" }"#,
        ),
        (
            "array.json",
            r#"[ { "element_1" : "value_1" }, { "element_2" : "value_2" }, { "element_3" : "value_3" } ]"#,
        ),
        (
            "nested_import.json",
            r#"{ "desc" : "Nested Import", "obj" : {"$import" : "object.json"} }"#,
        ),
        (
            "nested_import_c1.json",
            r#"{ "desc" : "Nested Import Cycle 1", "obj" : {"$import" : "nested_import_c2.json"} }"#,
        ),
        (
            "nested_import_c2.json",
            r#"{ "desc" : "Nested Import Cycle 2", "obj" : {"$import" : "nested_import_c1.json"} }"#,
        ),
    ];
    MemoryImporter(
        docs.iter()
            .map(|(p, t)| (PathBuf::from(p), parse(t)))
            .collect(),
    )
}

/// `TestImportLoadStore`: resolving gives `expected`; restoring gives the input back.
fn import_load_store(input: &str, expected: &str) {
    let mut files = import_files();
    let mut doc = parse(input);
    let r = resolve_imports(&mut doc, "".as_ref(), &mut files);
    assert_eq!(r.report.outcome(), Success, "{input}: {:?}", r.report);
    assert_eq!(r.report.result.task(), Task::Import);
    assert_eq!(doc, parse(expected), "{input}");
    let rr = restore_imports(&mut doc, &r.directives, &mut files);
    assert_eq!(rr.outcome(), Success, "{input}: {rr:?}");
    assert_eq!(doc, parse(input));
}

#[test]
fn import_simple_object_and_array() {
    // ImportSimpleObjectTest
    import_load_store(
        r#"{ "name" : "simple_object_import", "object": {"$import" : "object.json"} }"#,
        r#"{ "name" : "simple_object_import",
             "object": { "field_1" : "value_1", "field_2" : "value_2", "field_3" : "value_3" } }"#,
    );
    // ImportSimpleObjectPatchTest
    import_load_store(
        r#"{ "name" : "simple_object_import",
             "object": { "$import" : { "filename" : "object.json", "patch" : { "field_2" : "patched_value" } } } }"#,
        r#"{ "name" : "simple_object_import",
             "object": { "field_1" : "value_1", "field_2" : "patched_value", "field_3" : "value_3" } }"#,
    );
    // ImportSimpleArrayTest
    import_load_store(
        r#"{ "name" : "simple_array_import", "object": {"$import" : "array.json"} }"#,
        r#"{ "name" : "simple_array_import",
             "object": [ { "element_1" : "value_1" }, { "element_2" : "value_2" }, { "element_3" : "value_3" } ] }"#,
    );
    // ImportSimpleArrayPatchTest: a merge patch that is an array replaces the array.
    import_load_store(
        r#"{ "name" : "simple_array_import",
             "object": { "$import" : { "filename" : "array.json", "patch" : [ { "element_1" : "patched_value" } ] } } }"#,
        r#"{ "name" : "simple_array_import", "object": [ { "element_1" : "patched_value" } ] }"#,
    );
}

#[test]
fn import_nested() {
    // NestedImportTest
    import_load_store(
        r#"{ "name" : "nested_import", "object": {"$import" : "nested_import.json"} }"#,
        r#"{ "name" : "nested_import",
             "object": { "desc" : "Nested Import",
                         "obj" : { "field_1" : "value_1", "field_2" : "value_2", "field_3" : "value_3" } } }"#,
    );
    // NestedImportPatchTest: the patch applies after the nested import is resolved.
    import_load_store(
        r#"{ "name" : "nested_import",
             "object": { "$import" : { "filename" : "nested_import.json",
                                       "patch" : { "obj" : { "field_3" : "patched_value" } } } } }"#,
        r#"{ "name" : "nested_import",
             "object": { "desc" : "Nested Import",
                         "obj" : { "field_1" : "value_1", "field_2" : "value_2", "field_3" : "patched_value" } } }"#,
    );
}

#[test]
fn import_cycle() {
    // NestedImportCycleTest
    let mut doc = parse(
        r#"{ "name" : "nested_import_cycle", "object": {"$import" : "nested_import_c1.json"} }"#,
    );
    let r = resolve_imports(&mut doc, "".as_ref(), &mut import_files());
    assert_eq!(r.report.outcome(), Catastrophic);
    assert_eq!(r.report.result.task(), Task::Import);
    assert!(
        r.report.issues[0]
            .message
            .contains("was already imported in this chain. This indicates a cyclic dependency."),
        "{:?}",
        r.report.issues
    );
}

#[test]
fn insert_new_import() {
    // InsertNewImportTest: a directive added after resolving is written on restore, with
    // the merge patch from the file to the value.
    let input = r#"{ "name" : "simple_object_import",
                     "object_1": {"$import" : "object.json"},
                     "object_2": { "field_1" : "other_value", "field_2" : "value_2", "field_3" : "value_3" } }"#;
    let expected = r#"{ "name" : "simple_object_import",
                        "object_1": {"$import" : "object.json"},
                        "object_2": { "$import" : { "filename" : "object.json",
                                                    "patch" : { "field_1" : "other_value" } } } }"#;
    let mut files = import_files();
    let mut doc = parse(input);
    let mut r = resolve_imports(&mut doc, "".as_ref(), &mut files);
    assert_eq!(r.report.outcome(), Success);
    r.directives.push(ImportDirective {
        pointer: "/object_2".into(),
        filename: "object.json".into(),
        path: PathBuf::from("object.json"),
    });
    let rr = restore_imports(&mut doc, &r.directives, &mut files);
    assert_eq!(rr.outcome(), Success, "{rr:?}");
    assert_eq!(doc, parse(expected));
}

#[test]
fn import_restore_writes_patches_only_for_objects_and_arrays() {
    // BaseJsonImporter::RestoreImport: the directive gets a patch only when the merge
    // patch is a non-empty object or array; otherwise the plain file name is written.
    let mut files = import_files();
    let mut doc = parse(r#"{ "a": {"$import" : "array.json"} }"#);
    let r = resolve_imports(&mut doc, "".as_ref(), &mut files);
    doc["a"] = json!([]);
    restore_imports(&mut doc, &r.directives, &mut files);
    assert_eq!(doc, json!({"a": {"$import": "array.json"}}));
    let mut doc = parse(r#"{ "a": {"$import" : "object.json"} }"#);
    let r = resolve_imports(&mut doc, "".as_ref(), &mut files);
    doc["a"] = json!("text");
    restore_imports(&mut doc, &r.directives, &mut files);
    assert_eq!(doc, json!({"a": {"$import": "object.json"}}));
}

#[test]
fn import_patch_applies_only_objects_and_arrays() {
    // BaseJsonImporter::ApplyPatch merges the directive's patch only when it is a
    // non-empty object or array: a scalar, null or empty patch leaves the import as read.
    for patch in [json!(5), json!(null), json!([]), json!({}), json!("x")] {
        let mut doc = json!({"a": {"$import": {"filename": "object.json", "patch": patch}}});
        let r = resolve_imports(&mut doc, "".as_ref(), &mut import_files());
        assert_eq!(r.report.outcome(), Success);
        assert_eq!(
            doc,
            json!({"a": {"field_1": "value_1", "field_2": "value_2", "field_3": "value_3"}}),
            "{patch}"
        );
    }
}

#[test]
fn merge_patch_leaves_out_unchanged_objects() {
    // JsonMerger::CreateMergePatchInternal (current O3DE, which RestoreImports uses): an
    // identical member is DefaultsUsed and not written, an object member whose members
    // are all identical is left out too, a member that is PartialDefaults is written;
    // an empty object is written only where the source had no object ("Added empty
    // object to JSON Merge Patch."). Older O3DE ended every object with a Success and
    // wrote unchanged objects as `{}`. (Replaces patching.rs's
    // create_merge_patch_keeps_unchanged_nested_objects, which followed the older code.)
    use gamewire_o3de::patch::create_merge_patch;
    let (p, r) = create_merge_patch(
        &json!({"a": {"x": 1}, "b": 2}),
        &json!({"a": {"x": 1}, "b": 3}),
    );
    assert_eq!((p, r.outcome()), (json!({"b": 3}), PartialDefaults));
    let (p, r) = create_merge_patch(
        &json!({"a": {"x": 1, "y": 2}}),
        &json!({"a": {"x": 1, "y": 3}}),
    );
    assert_eq!((p, r.outcome()), (json!({"a": {"y": 3}}), PartialDefaults));
    let (p, r) = create_merge_patch(&json!({"a": 1}), &json!({"a": 1}));
    assert_eq!((p, r.outcome()), (json!({}), DefaultsUsed));
    let (p, r) = create_merge_patch(&json!({"a": {}}), &json!({"a": {}}));
    assert_eq!((p, r.outcome()), (json!({}), DefaultsUsed));
    let (p, r) = create_merge_patch(&json!({}), &json!({"a": {"bb": {}}}));
    assert_eq!((p, r.outcome()), (json!({"a": {"bb": {}}}), Success));
}

#[test]
fn load_object_with_custom_callback() {
    // LoadObjectFromStream_Success_CustomizeCallback: the caller's callback sees the
    // reports, and the load still succeeds.
    let reg = utils_registry();
    let ty = test1(&reg);
    let mut calls = 0;
    let mut cb = |_: &str, code: ResultCode, _: &str| {
        calls += 1;
        code
    };
    let (v, _) = envelope::load_object_with_reporting(
        &reg,
        &ty,
        br#"{ "Type": "JsonSerialization", "ClassName": "TestClass", "ClassData" : { "int":"10"} }"#,
        &LoadOptions::default(),
        &mut cb,
    )
    .unwrap();
    assert_eq!(v.as_object().unwrap()[0], i(10));
    assert!(calls > 0);
}

#[test]
fn reporter_given_to_one_call_only() {
    // JsonScopedContextReporterTests PushPop_PushCustomReportThenPop (adapted: a callback
    // is given to one load; a report reaches it there, and a later load without it
    // reports nothing to it).
    let reg = class_registry();
    let ty = reg.parse_type("SimpleClass").unwrap();
    let mut reported = false;
    {
        let mut cb = |_: &str, code: ResultCode, _: &str| {
            reported = true;
            code
        };
        gamewire_o3de::load_with_reporting(
            &reg,
            &ty,
            json!({"var1": "message"}),
            &Default::default(),
            &LoadOptions::default(),
            &mut cb,
        );
    }
    assert!(reported);
    let (_, r) = load(
        &reg,
        &ty,
        &json!({"var1": "message"}),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), Unsupported);
}
