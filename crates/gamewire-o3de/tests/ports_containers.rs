//! Ports of O3DE's container, tuple, pointer and `any` serializer tests, with the
//! conformity-suite cases these files instantiate
//! (`Code/Framework/AzCore/Tests/Serialization/Json/` in o3de/o3de):
//!
//! - `MapSerializerTests.cpp` (`MapArray`/`MapObject`/`MapPointer` descriptions for map,
//!   unordered_map, unordered_multimap, and every `JsonMapSerializerTests` case),
//! - `TupleSerializerTests.cpp` (pair, tuple, complex and nested tuples),
//! - `UnorderedSetSerializerTests.cpp`,
//! - `BasicContainerSerializerTests.cpp` (list, forward_list, set, vector, fixed_vector of
//!   ints, int pointers and `SimpleClass`; the vector, fixed_vector and set cases),
//! - `ArraySerializerTests.cpp`,
//! - `SmartPointerSerializerTests.cpp` (unique_ptr, shared_ptr, intrusive_ptr descriptions
//!   and the `JsonSmartPointerSerializerTests` cases),
//! - `AnySerializerTests.cpp` (the `any` transparency descriptions),
//! - `TestCases_Pointers.cpp`/`.h` (the typed class tests of `JsonSerializationTests.cpp`
//!   over the pointer test cases),
//! - `TestCases_TypeId.cpp` (through `$type` on pointers),
//! - `TestCases_Compare.cpp` (`compare::compare`),
//! - `JsonSerializerConformityTests.h` (the generated cases, driven by `Desc` below).
//!
//! Each conformity description gives the same inputs (default, partial, fully set and
//! single-default instances and their JSON) and each generated case checks the same
//! outcome and processing as O3DE, and the loaded value or stored JSON.

use gamewire_o3de::{
    compare::compare, load, load_onto, store_with_default, LoadOptions, Outcome, Processing,
    Registry, Report, StoreOptions, Task, TypeExpr, Value,
};
use serde_json::{json, Value as Json};
use std::cmp::Ordering;
use std::sync::OnceLock;

use Outcome::*;

// ---------------------------------------------------------------------------------------
// The reflected test types (TestCases_Base.h, TestCases_Classes.h/.cpp,
// TestCases_Pointers.h/.cpp, TupleSerializerTests.cpp, SmartPointerSerializerTests.cpp).

const CLASSES: &str = r#"{
 "enums": [
  {"name": "SimpleEnumClass", "uuid": "{AF6F1964-5B20-4689-BF23-F36B9C9AAE6A}", "underlying": "i32",
   "values": {"Option1": 1, "Option2": 2}},
  {"name": "SimpleRawEnum", "uuid": "{EB24207F-B48F-4D8B-940D-3CD06A371739}", "underlying": "i32",
   "values": {"Option1": 1, "Option2": 2}},
  {"name": "TestBitFlags", "uuid": "{9859EDCD-1F5A-4893-8188-E691569DF2DA}", "underlying": "i64",
   "values": {"BitFlag0": 1, "BitFlag1": 2, "BitFlag2": 4, "BitFlag3": 8}}
 ],
 "classes": [
  {"name": "SimpleClass", "uuid": "{5A40E851-A748-40F3-97BA-5BB3A98CDD61}",
   "fields": [{"name": "var1", "type": "i32", "default": 42}, {"name": "var2", "type": "f32", "default": 42.0}]},
  {"name": "BaseClass", "uuid": "{E0A66EB6-1AC5-4C73-B1A7-6367A47EC026}",
   "fields": [{"name": "base_var", "type": "f32", "default": -42.0}]},
  {"name": "BaseClass2", "uuid": "{F9D704C1-04AF-463C-B47A-02C28805AAEE}",
   "fields": [{"name": "base2_var1", "type": "f64", "default": -133.0},
              {"name": "base2_var2", "type": "f64", "default": -233.0},
              {"name": "base2_var3", "type": "f64", "default": -333.0}]},
  {"name": "SimpleInheritence", "uuid": "{CD2A6797-63B4-4B4D-B3D2-9044781C1E42}", "bases": ["BaseClass"],
   "fields": [{"name": "var1", "type": "i32", "default": 42}, {"name": "var2", "type": "f32", "default": 42.0}]},
  {"name": "MultipleInheritence", "uuid": "{44E30C38-CE6B-4DC6-9CBF-85B10C148B11}", "bases": ["BaseClass", "BaseClass2"],
   "fields": [{"name": "var1", "type": "i32", "default": 42}, {"name": "var2", "type": "f32", "default": 42.0}]},
  {"name": "SimpleInheritenceAlt", "uuid": "{5513DF52-E3C2-4849-BBFF-13E00F3E3EDA}", "bases": ["BaseClass"],
   "fields": [{"name": "var1", "type": "i32", "default": 42}, {"name": "var2", "type": "f32", "default": 42.0}]},
  {"name": "AbstractClass", "uuid": "{D065A72E-E49B-4E23-9E4E-A4E08D344FC2}", "bases": ["BaseClass"], "abstract": true},
  {"name": "SimpleNested", "uuid": "{6BB50CDB-BD78-4CB6-94F3-A586E785D95C}",
   "fields": [{"name": "nested", "type": "SimpleClass"}, {"name": "var_additional", "type": "i32", "default": 42}]},
  {"name": "SimpleEnumWrapper", "uuid": "{CC95FF00-8D04-437A-9849-80D5AD7AD5DC}",
   "fields": [{"name": "enumClass", "type": "SimpleEnumClass"}, {"name": "rawEnum", "type": "SimpleRawEnum"}]},
  {"name": "NonReflectedEnumWrapper", "uuid": "{A80D5B6B-2FD1-46E9-A7A9-44C5E2650526}",
   "fields": [{"name": "enumClass", "type": "i32"}, {"name": "rawEnum", "type": "i32"}]},

  {"name": "SimpleNullPointer", "uuid": "{81087FE6-2C52-4FD4-8706-D1F4CB757937}",
   "fields": [{"name": "pointer1", "type": "i32*"}, {"name": "pointer2", "type": "i32*"}]},
  {"name": "SimpleAssignedPointer", "uuid": "{33EB4300-88C7-4006-8650-9C3AA25F17E5}",
   "fields": [{"name": "pointer1", "type": "i32*", "default": 13}, {"name": "pointer2", "type": "i32*", "default": 42}]},
  {"name": "ComplexAssignedPointer", "uuid": "{CB62638C-5B49-4953-89E5-F65A19E1163C}",
   "fields": [{"name": "pointer", "type": "SimpleClass*", "default": {}}]},
  {"name": "ComplexNullInheritedPointer", "uuid": "{F21CFB49-3F7C-4849-8E1F-EA337CD7D8EF}",
   "fields": [{"name": "pointer", "type": "BaseClass*"}]},
  {"name": "ComplexAssignedDifferentInheritedPointer", "uuid": "{DCFFEDFB-300B-40FE-A787-159D627DD7DA}",
   "fields": [{"name": "pointer", "type": "BaseClass*", "default": {}}]},
  {"name": "ComplexAssignedSameInheritedPointer", "uuid": "{6D633C34-584C-42CD-BF6E-4FCB0C398F34}",
   "fields": [{"name": "pointer", "type": "BaseClass*", "default": {"$type": "SimpleInheritence", "var1": 142}}]},
  {"name": "PrimitivePointerInContainer", "uuid": "{8CB57BE0-371B-4712-88FD-64CA47AE81B4}",
   "fields": [{"name": "array", "type": "vector<i32*>"}]},
  {"name": "SimplePointerInContainer", "uuid": "{46263461-112C-4E12-A056-63148C085B35}",
   "fields": [{"name": "array", "type": "vector<SimpleClass*>"}]},
  {"name": "InheritedPointerInContainer", "uuid": "{ADADFF87-B541-4BD6-A3DB-B54A1277F2A7}",
   "fields": [{"name": "array", "type": "vector<BaseClass*>"}]},

  {"name": "TupleClass", "uuid": "{DF7BDAFC-34D5-48EE-85CB-845856971D9E}",
   "fields": [{"name": "var1", "type": "i32", "default": 142}, {"name": "var2", "type": "f64", "default": 242.0}]},
  {"name": "TupleBaseClass", "uuid": "{1073A9F8-6D99-4FBB-958D-E29D2A66C6E7}",
   "fields": [{"name": "var1", "type": "i32", "default": 142}]},
  {"name": "TupleDefaultDerivedClass", "uuid": "{979B6935-5779-461C-A537-A03472315D8D}", "bases": ["TupleBaseClass"],
   "fields": [{"name": "var_alternative", "type": "f64", "default": -444.0}]},
  {"name": "TupleDerivedClass", "uuid": "{8D2515EC-F85F-4D61-9024-7E1C184E135E}", "bases": ["TupleBaseClass"],
   "fields": [{"name": "var2", "type": "f64", "default": 242.0}]}
 ]
}"#;

/// The registry of the test types.
fn reg() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| Registry::from_json(&serde_json::from_str(CLASSES).unwrap()).unwrap())
}

fn ty(s: &str) -> TypeExpr {
    reg().parse_type(s).unwrap()
}

fn i(v: i64) -> Value {
    Value::Int(v)
}

fn f64v(v: f64) -> Value {
    Value::F64(v)
}

fn s(v: &str) -> Value {
    Value::String(v.into())
}

/// `SimpleClass(var1, var2)`.
fn sc(var1: i64, var2: f32) -> Value {
    Value::Object(vec![i(var1), Value::F32(var2)])
}

fn sc0() -> Value {
    sc(42, 42.0)
}

/// A pointer holding an instance of the class `class`.
fn ptr(class: &str, v: Value) -> Value {
    Value::Ptr(Some(Box::new((ty(class), v))))
}

fn null() -> Value {
    Value::Ptr(None)
}

/// `SimpleInheritence`: base_var, var1, var2.
fn si(base_var: f32, var1: i64, var2: f32) -> Value {
    Value::Object(vec![Value::F32(base_var), i(var1), Value::F32(var2)])
}

/// `MultipleInheritence`: base_var, base2_var1..3, var1, var2.
fn mi(base_var: f32, b2: [f64; 3], var1: i64, var2: f32) -> Value {
    Value::Object(vec![
        Value::F32(base_var),
        f64v(b2[0]),
        f64v(b2[1]),
        f64v(b2[2]),
        i(var1),
        Value::F32(var2),
    ])
}

fn mi0() -> Value {
    mi(-42.0, [-133.0, -233.0, -333.0], 42, 42.0)
}

fn map(entries: Vec<(Value, Value)>) -> Value {
    Value::Map(entries)
}

fn seq(items: Vec<Value>) -> Value {
    Value::Seq(items)
}

fn tuple(items: Vec<Value>) -> Value {
    Value::Tuple(items)
}

fn load_opts(clear: bool) -> LoadOptions {
    LoadOptions {
        clear_containers: clear,
        ..Default::default()
    }
}

fn store_opts(keep: bool) -> StoreOptions {
    StoreOptions {
        keep_defaults: keep,
        ..Default::default()
    }
}

/// Compares JSON as O3DE's `Expect_DocStrEq` does: the written text, so member order counts.
fn assert_same(got: &Json, want: &Json, what: &str) {
    let (g, w) = (got.to_string(), want.to_string());
    assert_eq!(g, w, "{what}");
}

fn parse(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

// ---------------------------------------------------------------------------------------
// The conformity suite (JsonSerializerConformityTests.h).

/// How the description's `AreEqual` compares two instances.
#[derive(Clone, Copy, PartialEq)]
enum Eq {
    /// Element for element.
    Exact,
    /// As unordered collections (unordered sets and maps).
    Unordered,
}

fn sorted(v: &Value) -> Value {
    let mut v = v.clone();
    match &mut v {
        Value::Map(m) => m.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.total_cmp(&b.1))),
        Value::Seq(s) => s.sort_by(|a, b| a.total_cmp(b)),
        _ => {}
    }
    v
}

/// A conformity test description (`JsonSerializerConformityTestDescriptor` and its
/// `JsonSerializerConformityTestDescriptorFeatures`).
#[derive(Clone)]
struct Desc {
    name: &'static str,
    ty: &'static str,
    /// JSON types the serializer supports (`EnableJsonType`).
    json_types: &'static [&'static str],
    fixed_size_array: bool,
    supports_partial: bool,
    partial_strict: bool,
    supports_injection: bool,
    /// `TypeToInjectionValue(m_typeToInject)`.
    inject: Json,
    default_is_empty: bool,
    new_instance_tests: bool,
    /// The serializer has `OperationFlags::InitializeNewInstance`.
    initialize_new_instance: bool,
    eq: Eq,
    default: Value,
    constructed: Option<Value>,
    full: Value,
    full_json: Json,
    partial: Option<(Value, Json)>,
    single: Option<(Value, Json)>,
    corrupted: Option<Json>,
    /// `GetJsonFor_Store_SerializeFullySetInstance` / `GetJSON` overrides.
    store_full_json: Option<Json>,
    store_without_default_json: Option<Json>,
}

impl Desc {
    fn new(
        name: &'static str,
        ty: &'static str,
        default: Value,
        full: Value,
        full_json: &str,
    ) -> Desc {
        Desc {
            name,
            ty,
            json_types: &["array"],
            fixed_size_array: false,
            supports_partial: true,
            partial_strict: true,
            supports_injection: true,
            inject: json!("Added to object for testing purposes"),
            default_is_empty: true,
            new_instance_tests: true,
            initialize_new_instance: false,
            eq: Eq::Exact,
            default,
            constructed: None,
            full,
            full_json: parse(full_json),
            partial: None,
            single: None,
            corrupted: None,
            store_full_json: None,
            store_without_default_json: None,
        }
    }

    fn supports(&self, t: &str) -> bool {
        self.json_types.contains(&t)
    }

    fn equal(&self, a: &Value, b: &Value) -> bool {
        match self.eq {
            Eq::Exact => a == b,
            Eq::Unordered => sorted(a) == sorted(b),
        }
    }

    fn constructed(&self) -> Value {
        self.constructed
            .clone()
            .unwrap_or_else(|| self.default.clone())
    }

    fn check_eq(&self, test: &str, got: &Value, want: &Value) {
        assert!(
            self.equal(got, want),
            "{}::{test}: value\n  got  {got:?}\n  want {want:?}",
            self.name
        );
    }

    fn check_code(&self, test: &str, r: &Report, outcome: Outcome, processing: Processing) {
        assert_eq!(
            (r.outcome(), r.processing()),
            (outcome, processing),
            "{}::{test}: {r:?}",
            self.name
        );
    }

    /// Serializer-level load (`serializer->Load(instance, ...)`).
    fn load_onto(&self, json: &Json, inst: &mut Value, clear: bool) -> Report {
        load_onto(reg(), &ty(self.ty), json, inst, &load_opts(clear))
    }

    fn store(&self, v: &Value, default: Option<&Value>, keep: bool) -> (Json, Report) {
        store_with_default(reg(), &ty(self.ty), v, default, &store_opts(keep))
    }

    /// Runs every conformity case that applies to gamewire.
    fn run(&self) {
        self.load_invalid_types();
        self.load_empty_object();
        self.load_empty_array();
        self.load_array_with_default_value();
        self.load_fully_set();
        self.load_partial();
        self.load_full_on_top_of_partial();
        self.load_initialize_new_instance();
        self.load_injected();
        self.load_corrupted();
        self.store_default_instance();
        self.store_fully_set();
        self.store_partial();
        self.store_arrays();
        self.round_trips();
    }

    /// Load_InvalidTypeOf{Null,False,True,Object,Array,String,Number}Type_ReturnsUnsupported.
    fn load_invalid_types(&self) {
        let samples = [
            ("null", json!(null)),
            ("false", json!(false)),
            ("true", json!(true)),
            ("object", json!({"A": 42})),
            ("array", json!([])),
            ("string", json!("")),
            ("number", json!(0)),
        ];
        for (t, j) in samples {
            if self.supports(t) {
                continue;
            }
            let mut inst = self.default.clone();
            let r = self.load_onto(&j, &mut inst, false);
            self.check_code(
                &format!("Load_InvalidTypeOf_{t}"),
                &r,
                Unsupported,
                Processing::Altered,
            );
            self.check_eq(&format!("Load_InvalidTypeOf_{t}"), &inst, &self.default);
        }
    }

    /// Load_DeserializeEmptyObject(ThroughMainLoad)_SucceedsAndObjectMatchesDefaults.
    fn load_empty_object(&self) {
        if !self.supports("object") {
            return;
        }
        let mut inst = self.constructed();
        let r = self.load_onto(&json!({}), &mut inst, false);
        self.check_code(
            "Load_DeserializeEmptyObject",
            &r,
            DefaultsUsed,
            Processing::Completed,
        );
        self.check_eq("Load_DeserializeEmptyObject", &inst, &self.default);
    }

    /// Load_DeserializeEmptyArray, ...WithClearEnabled, ...WithClearedTarget.
    fn load_empty_array(&self) {
        if !self.supports("array") {
            return;
        }
        for clear in [false, true] {
            let test = format!("Load_DeserializeEmptyArray(clear={clear})");
            let mut inst = self.constructed();
            let r = self.load_onto(&json!([]), &mut inst, clear);
            if self.fixed_size_array {
                self.check_code(&test, &r, Unsupported, Processing::Altered);
            } else {
                self.check_code(&test, &r, Success, Processing::Completed);
            }
            assert_eq!(r.result.task(), Task::ReadField, "{}::{test}", self.name);
            self.check_eq(&test, &inst, &self.default);
        }
        let test = "Load_DeserializeEmptyArrayWithClearedTarget";
        let mut inst = self.full.clone();
        let r = self.load_onto(&json!([]), &mut inst, true);
        if self.fixed_size_array {
            self.check_code(test, &r, Unsupported, Processing::Altered);
            assert_eq!(r.result.task(), Task::ReadField, "{}::{test}", self.name);
            assert!(!self.equal(&inst, &self.default), "{}::{test}", self.name);
        } else {
            self.check_code(test, &r, Success, Processing::Completed);
            assert_eq!(r.result.task(), Task::Clear, "{}::{test}", self.name);
            self.check_eq(test, &inst, &self.default);
        }
    }

    /// Load_DeserializeArrayWithDefaultValue_SucceedsAndReportPartialDefaults.
    fn load_array_with_default_value(&self) {
        if !self.supports("array") {
            return;
        }
        let test = "Load_DeserializeArrayWithDefaultValue";
        let single_json = self
            .single
            .as_ref()
            .map(|s| s.1.clone())
            .unwrap_or_else(|| json!([{}]));
        let mut inst = self.default.clone();
        let r = self.load_onto(&single_json, &mut inst, false);
        if self.fixed_size_array {
            self.check_code(test, &r, Unsupported, Processing::Altered);
        } else {
            self.check_code(test, &r, PartialDefaults, Processing::Completed);
            self.check_eq(test, &inst, &self.single.as_ref().unwrap().0);
        }
    }

    /// Load_DeserializeFullySetInstance(ThroughMainLoad)_SucceedsAndObjectMatchesFullySetInstance.
    fn load_fully_set(&self) {
        let test = "Load_DeserializeFullySetInstance";
        let mut inst = self.constructed();
        let r = self.load_onto(&self.full_json, &mut inst, false);
        self.check_code(test, &r, Success, Processing::Completed);
        self.check_eq(test, &inst, &self.full);
        // Through the main load (a fresh instance of the type).
        let (v, r) = load(
            reg(),
            &ty(self.ty),
            &self.full_json,
            &LoadOptions::default(),
        );
        if self.constructed.is_none() && self.default == reg().zero(&ty(self.ty)) {
            self.check_code(test, &r, Success, Processing::Completed);
            self.check_eq(test, &v, &self.full);
        }
    }

    /// Load_DeserializePartialInstance_SucceedsAndObjectMatchesParialInstance.
    fn load_partial(&self) {
        let (Some((want, j)), true) = (&self.partial, self.supports_partial) else {
            return;
        };
        let test = "Load_DeserializePartialInstance";
        let mut inst = self.constructed();
        let r = self.load_onto(j, &mut inst, false);
        if self.partial_strict {
            assert_eq!(r.outcome(), PartialDefaults, "{}::{test}: {r:?}", self.name);
        }
        assert_eq!(
            r.processing(),
            Processing::Completed,
            "{}::{test}: {r:?}",
            self.name
        );
        self.check_eq(test, &inst, want);
    }

    /// Load_DeserializeFullInstanceOnTopOfPartialDefaulted_SucceedsAndObjectMatchesParialInstance.
    fn load_full_on_top_of_partial(&self) {
        let (Some((partial, _)), true) = (&self.partial, self.supports_partial) else {
            return;
        };
        let test = "Load_DeserializeFullInstanceOnTopOfPartialDefaulted";
        let mut inst = partial.clone();
        let r = self.load_onto(&self.full_json, &mut inst, true);
        self.check_code(test, &r, Success, Processing::Completed);
        self.check_eq(test, &inst, &self.full);
    }

    /// Load_InitializeNewInstance_SucceedsAndValueIsInitialized.
    fn load_initialize_new_instance(&self) {
        if !(self.new_instance_tests && self.initialize_new_instance) {
            return;
        }
        let test = "Load_InitializeNewInstance";
        let mut inst = self.constructed();
        let r = self.load_onto(&json!({}), &mut inst, false);
        self.check_code(test, &r, DefaultsUsed, Processing::Completed);
        self.check_eq(test, &inst, &self.default);
    }

    /// Load_InsertAdditionalData_SucceedsAndObjectMatchesFullySetInstance.
    fn load_injected(&self) {
        if !self.supports_injection {
            return;
        }
        let test = "Load_InsertAdditionalData";
        let mut j = self.full_json.clone();
        inject_additional_fields(&mut j, &self.inject);
        let mut inst = self.constructed();
        let r = self.load_onto(&j, &mut inst, false);
        assert!(r.outcome() >= Skipped, "{}::{test}: {r:?}", self.name);
        self.check_eq(test, &inst, &self.full);
    }

    /// Load_CorruptedValue_SucceedsWithDefaultValuesUsed.
    fn load_corrupted(&self) {
        if !self.supports_injection {
            return;
        }
        let test = "Load_CorruptedValue";
        let j = self.corrupted.clone().unwrap_or_else(|| {
            let mut j = self.full_json.clone();
            corrupt_fields(&mut j, &self.inject);
            j
        });
        let mut inst = self.constructed();
        let r = self.load_onto(&j, &mut inst, false);
        assert!(r.outcome() >= Unavailable, "{}::{test}: {r:?}", self.name);
        assert!(
            r.processing() >= Processing::PartialAlter,
            "{}::{test}: {r:?}",
            self.name
        );
    }

    /// Store_SerializeDefaultInstance(ThroughMainStore)_EmptyJsonReturned.
    fn store_default_instance(&self) {
        if !self.default_is_empty {
            return;
        }
        let test = "Store_SerializeDefaultInstance";
        let (j, r) = self.store(&self.default, Some(&self.default), false);
        self.check_code(test, &r, DefaultsUsed, Processing::Completed);
        assert_same(&j, &json!({}), &format!("{}::{test}", self.name));
    }

    /// Store_SerializeWithDefaultsKept, Store_SerializeFullySetInstance,
    /// Store_SerializeWithoutDefault, Store_SerializeWithoutDefaultAndDefaultsKept.
    fn store_fully_set(&self) {
        let cases = [
            (
                "Store_SerializeWithDefaultsKept",
                Some(&self.full),
                true,
                &self.full_json,
            ),
            (
                "Store_SerializeFullySetInstance",
                Some(&self.default),
                false,
                self.store_full_json.as_ref().unwrap_or(&self.full_json),
            ),
            (
                "Store_SerializeWithoutDefault",
                None,
                false,
                self.store_without_default_json
                    .as_ref()
                    .unwrap_or(&self.full_json),
            ),
            (
                "Store_SerializeWithoutDefaultAndDefaultsKept",
                None,
                true,
                &self.full_json,
            ),
        ];
        for (test, default, keep, want) in cases {
            let (j, r) = self.store(&self.full, default, keep);
            self.check_code(test, &r, Success, Processing::Completed);
            assert_same(&j, want, &format!("{}::{test}", self.name));
        }
    }

    /// Store_SerializePartialInstance_StoredSuccessfullyAndJsonMatches.
    fn store_partial(&self) {
        let (Some((v, want)), true) = (&self.partial, self.supports_partial) else {
            return;
        };
        let test = "Store_SerializePartialInstance";
        let (j, r) = self.store(v, Some(&self.default), false);
        self.check_code(test, &r, PartialDefaults, Processing::Completed);
        assert_same(&j, want, &format!("{}::{test}", self.name));
    }

    /// Store_SerializeEmptyArray, Store_SerializeArrayWithSingleDefaultValue.
    fn store_arrays(&self) {
        if !self.supports("array") || self.fixed_size_array {
            return;
        }
        let test = "Store_SerializeEmptyArray";
        let (j, r) = self.store(&self.default, Some(&self.default), true);
        self.check_code(test, &r, Success, Processing::Completed);
        assert_same(&j, &json!([]), &format!("{}::{test}", self.name));
        let test = "Store_SerializeArrayWithSingleDefaultValue";
        let (v, want) = self.single.as_ref().unwrap();
        let (j, r) = self.store(v, Some(v), false);
        self.check_code(test, &r, PartialDefaults, Processing::Completed);
        assert_same(&j, want, &format!("{}::{test}", self.name));
    }

    /// StoreLoad_RoundTripWith{PartialDefault,FullSet,DefaultsKept}_IdenticalInstances.
    fn round_trips(&self) {
        if !self.supports_partial {
            return;
        }
        let mut cases = vec![("StoreLoad_RoundTripWithFullSet", &self.full, false)];
        if let Some((p, _)) = &self.partial {
            cases.push(("StoreLoad_RoundTripWithPartialDefault", p, false));
        }
        cases.push(("StoreLoad_RoundTripWithDefaultsKept", &self.full, true));
        for (test, v, keep) in cases {
            let default = if keep { v } else { &self.default };
            let (j, r) = self.store(v, Some(default), keep);
            assert_eq!(
                r.processing(),
                Processing::Completed,
                "{}::{test}",
                self.name
            );
            let mut inst = self.default.clone();
            let r = self.load_onto(&j, &mut inst, false);
            assert_eq!(
                r.processing(),
                Processing::Completed,
                "{}::{test}: {j}",
                self.name
            );
            self.check_eq(test, &inst, v);
        }
    }
}

/// `BaseJsonSerializerFixture::InjectAdditionalFields`: a "Comment N" member before every
/// member of every object, and an extra value before every array element.
fn inject_additional_fields(v: &mut Json, inject: &Json) {
    match v {
        Json::Object(m) => {
            let old = std::mem::take(m);
            for (n, (k, mut val)) in old.into_iter().enumerate() {
                m.insert(format!("Comment {n}"), inject.clone());
                inject_additional_fields(&mut val, inject);
                m.insert(k, val);
            }
        }
        Json::Array(a) => {
            let old = std::mem::take(a);
            for mut val in old {
                a.push(inject.clone());
                inject_additional_fields(&mut val, inject);
                a.push(val);
            }
        }
        _ => {}
    }
}

/// `BaseJsonSerializerFixture::CorruptFields`: walks to the middle member or element and
/// replaces the first scalar found there with the injection value.
fn corrupt_fields(v: &mut Json, inject: &Json) {
    match v {
        Json::Object(m) => {
            let n = m.len();
            if n > 0 {
                let (_, val) = m.iter_mut().nth(n / 2).unwrap();
                corrupt_fields(val, inject);
            }
        }
        Json::Array(a) => {
            let n = a.len();
            if n > 0 {
                corrupt_fields(&mut a[n / 2], inject);
            }
        }
        _ => *v = inject.clone(),
    }
}

// ---------------------------------------------------------------------------------------
// MapSerializerTests.cpp: conformity descriptions.

const MAP_KINDS: [(&str, bool); 3] = [
    ("map", false),
    ("unordered_map", false),
    ("unordered_multimap", true),
];

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn map_desc(
    kind: &str,
    key: &str,
    value: &str,
    default: Value,
    full: Value,
    full_json: &str,
) -> Desc {
    let mut d = Desc::new(
        leak(format!("Map<{kind},{key},{value}>")),
        leak(format!("{kind}<{key},{value}>")),
        default,
        full,
        full_json,
    );
    d.json_types = &["array", "object"];
    d.supports_partial = false;
    d.eq = Eq::Unordered;
    d
}

/// MapArrayTestDescription: `T<int, double>`.
fn map_array_descs() -> Vec<Desc> {
    MAP_KINDS
        .iter()
        .map(|&(kind, multi)| {
            let full = map(vec![
                (i(142), f64v(142.0)),
                (i(242), f64v(242.0)),
                (i(342), f64v(342.0)),
            ]);
            let full_json = if multi {
                r#"[{ "Key": 142, "Value": [ 142.0 ] }, { "Key": 242, "Value": [ 242.0 ] },
                    { "Key": 342, "Value": [ 342.0 ] }]"#
            } else {
                r#"[{ "Key": 142, "Value": 142.0 }, { "Key": 242, "Value": 242.0 },
                    { "Key": 342, "Value": 342.0 }]"#
            };
            let mut d = map_desc(kind, "i32", "f64", map(vec![]), full, full_json);
            d.single = Some((map(vec![(i(0), f64v(0.0))]), json!({"{}": {}})));
            d
        })
        .collect()
}

/// MapObjectTestDescription: `T<AZStd::string, double>`.
fn map_object_descs() -> Vec<Desc> {
    MAP_KINDS
        .iter()
        .map(|&(kind, multi)| {
            let full = map(vec![
                (s("a"), f64v(142.0)),
                (s("b"), f64v(242.0)),
                (s("c"), f64v(342.0)),
            ]);
            let full_json = if multi {
                r#"{ "a": [ 142.0 ], "b": [ 242.0 ], "c": [ 342.0 ] }"#
            } else {
                r#"{ "a": 142.0, "b": 242.0, "c": 342.0 }"#
            };
            let mut d = map_desc(kind, "string", "f64", map(vec![]), full, full_json);
            d.single = Some((map(vec![(s(""), f64v(0.0))]), json!({"{}": {}})));
            d
        })
        .collect()
}

fn scp(var1: i64, var2: f32) -> Value {
    ptr("SimpleClass", sc(var1, var2))
}

/// MapPointerTestDescription: `T<SimpleClass*, SimpleClass*>`.
fn map_pointer_descs() -> Vec<Desc> {
    MAP_KINDS
        .iter()
        .map(|&(kind, multi)| {
            let full = map(vec![
                (scp(142, 142.0), scp(188, 188.0)),
                (scp(242, 242.0), scp(288, 288.0)),
                (scp(342, 342.0), scp(388, 388.0)),
            ]);
            let (full_json, partial_json) = if multi {
                (
                    r#"[{ "Key": { "var1": 142, "var2": 142.0 }, "Value": [ { "var1": 188, "var2": 188.0 } ] },
                        { "Key": { "var1": 242, "var2": 242.0 }, "Value": [ { "var1": 288, "var2": 288.0 } ] },
                        { "Key": { "var1": 342, "var2": 342.0 }, "Value": [ { "var1": 388, "var2": 388.0 } ] }]"#,
                    r#"[{ "Key": {}, "Value": [ { "var1": 188, "var2": 188.0 } ] },
                        { "Key": { "var1": 242, "var2": 242.0 }, "Value": [ {} ] },
                        { "Key": { "var1": 342, "var2": 342.0 }, "Value": [ { "var1": 388, "var2": 388.0 } ] }]"#,
                )
            } else {
                (
                    r#"[{ "Key": { "var1": 142, "var2": 142.0 }, "Value": { "var1": 188, "var2": 188.0 } },
                        { "Key": { "var1": 242, "var2": 242.0 }, "Value": { "var1": 288, "var2": 288.0 } },
                        { "Key": { "var1": 342, "var2": 342.0 }, "Value": { "var1": 388, "var2": 388.0 } }]"#,
                    r#"[{ "Key": {}, "Value": { "var1": 188, "var2": 188.0 } },
                        { "Key": { "var1": 242, "var2": 242.0 }, "Value": {} },
                        { "Key": { "var1": 342, "var2": 342.0 }, "Value": { "var1": 388, "var2": 388.0 } }]"#,
                )
            };
            let mut d = map_desc(kind, "SimpleClass*", "SimpleClass*", map(vec![]), full, full_json);
            d.supports_partial = true;
            d.partial = Some((
                map(vec![
                    (scp(42, 42.0), scp(188, 188.0)),
                    (scp(242, 242.0), scp(42, 42.0)),
                    (scp(342, 342.0), scp(388, 388.0)),
                ]),
                parse(partial_json),
            ));
            d.single = Some((map(vec![(scp(42, 42.0), scp(42, 42.0))]), json!({"{}": {}})));
            d
        })
        .collect()
}

#[test]
fn conformity_map_array() {
    for d in map_array_descs() {
        d.run();
    }
}

#[test]
fn conformity_map_object() {
    for d in map_object_descs() {
        d.run();
    }
}

#[test]
fn conformity_map_pointer() {
    for d in map_pointer_descs() {
        d.run();
    }
}

// ---------------------------------------------------------------------------------------
// TupleSerializerTests.cpp: conformity descriptions.

fn tuple_desc(
    name: &'static str,
    t: &'static str,
    default: Value,
    full: Value,
    full_json: &str,
) -> Desc {
    let mut d = Desc::new(name, t, default, full, full_json);
    d.fixed_size_array = true;
    d.initialize_new_instance = true;
    d
}

/// `TupleClass(var1, var2)`.
fn tc(var1: i64, var2: f64) -> Value {
    Value::Object(vec![i(var1), f64v(var2)])
}

/// `TupleDerivedClass(var1, var2)` behind a pointer.
fn tdc(var1: i64, var2: f64) -> Value {
    ptr(
        "TupleDerivedClass",
        Value::Object(vec![i(var1), f64v(var2)]),
    )
}

fn tuple_descs() -> Vec<Desc> {
    let mut pair = tuple_desc(
        "Pair",
        "pair<i32,f64>",
        tuple(vec![i(0), f64v(0.0)]),
        tuple(vec![i(188), f64v(288.0)]),
        "[188, 288.0]",
    );
    pair.partial = Some((tuple(vec![i(0), f64v(288.0)]), json!([{}, 288.0])));

    let mut tup = tuple_desc(
        "Tuple",
        "tuple<i32,f64,f32>",
        tuple(vec![i(0), f64v(0.0), Value::F32(0.0)]),
        tuple(vec![i(188), f64v(288.0), Value::F32(388.0)]),
        "[188, 288.0, 388.0]",
    );
    tup.partial = Some((
        tuple(vec![i(0), f64v(288.0), Value::F32(0.0)]),
        json!([{}, 288.0, {}]),
    ));

    let mut complex = tuple_desc(
        "ComplexTuple",
        "tuple<TupleClass, TupleClass*, TupleBaseClass*, TupleClass*, TupleBaseClass*>",
        tuple(vec![
            tc(142, 242.0),
            ptr("TupleClass", tc(142, 242.0)),
            ptr(
                "TupleDefaultDerivedClass",
                Value::Object(vec![i(142), f64v(-444.0)]),
            ),
            null(),
            null(),
        ]),
        tuple(vec![
            tc(188, 288.0),
            ptr("TupleClass", tc(188, 288.0)),
            tdc(188, 288.0),
            ptr("TupleClass", tc(188, 288.0)),
            tdc(188, 288.0),
        ]),
        r#"[{ "var1": 188, "var2": 288.0 }, { "var1": 188, "var2": 288.0 },
            { "$type": "TupleDerivedClass", "var1": 188, "var2": 288.0 },
            { "var1": 188, "var2": 288.0 },
            { "$type": "TupleDerivedClass", "var1": 188, "var2": 288.0 }]"#,
    );
    complex.partial = Some((
        tuple(vec![
            tc(142, 288.0),
            ptr("TupleClass", tc(142, 288.0)),
            tdc(142, 288.0),
            ptr("TupleClass", tc(142, 288.0)),
            tdc(142, 288.0),
        ]),
        parse(
            r#"[{ "var2": 288.0 }, { "var2": 288.0 }, { "$type": "TupleDerivedClass", "var2": 288.0 },
                { "var2": 288.0 }, { "$type": "TupleDerivedClass", "var2": 288.0 }]"#,
        ),
    ));
    complex.corrupted = Some(parse(
        r#"[null, { "var1": 188, "var2": 288.0 },
            { "$type": "NonExistingClass", "var1": 188, "var2": 288.0 },
            { "var1": 188, "var2": 288.0 },
            { "$type": "TupleDerivedClass", "var1": 188, "var2": 288.0 }]"#,
    ));
    complex.new_instance_tests = false;

    let mut nested = tuple_desc(
        "NestedTuple",
        "tuple<vector<i32>, pair<i32, string>>",
        tuple(vec![seq(vec![]), tuple(vec![i(0), s("")])]),
        tuple(vec![
            seq(vec![i(188), i(288), i(388)]),
            tuple(vec![i(488), s("hello")]),
        ]),
        r#"[[188, 288, 388], [488, "hello"]]"#,
    );
    nested.partial = Some((
        tuple(vec![seq(vec![]), tuple(vec![i(0), s("hello")])]),
        json!([{}, [{}, "hello"]]),
    ));
    nested.inject = json!(null);
    vec![pair, tup, complex, nested]
}

#[test]
fn conformity_tuples() {
    for d in tuple_descs() {
        d.run();
    }
}

// ---------------------------------------------------------------------------------------
// UnorderedSetSerializerTests.cpp, BasicContainerSerializerTests.cpp,
// ArraySerializerTests.cpp: conformity descriptions.

fn iptr(v: i64) -> Value {
    Value::Ptr(Some(Box::new((TypeExpr::I32, i(v)))))
}

fn container_desc(name: &'static str, t: &'static str, full: Value, full_json: &str) -> Desc {
    let mut d = Desc::new(name, t, seq(vec![]), full, full_json);
    d.supports_partial = false;
    d
}

fn container_descs() -> Vec<Desc> {
    let mut out = Vec::new();
    // UnorderedSetTestDescription.
    let mut d = container_desc(
        "UnorderedSet",
        "unordered_set<i32>",
        seq(vec![i(42), i(-88), i(342)]),
        "[-88, 42, 342]",
    );
    d.single = Some((seq(vec![i(0)]), json!([{}])));
    d.eq = Eq::Unordered;
    out.push(d);
    // UnorderedMultiSetTestDescription.
    let mut d = container_desc(
        "UnorderedMultiSet",
        "unordered_multiset<i32>",
        seq(vec![i(42), i(-88), i(42), i(342)]),
        "[-88, 42, 42, 342]",
    );
    d.single = Some((seq(vec![i(0)]), json!([{}])));
    d.eq = Eq::Unordered;
    out.push(d);
    // SimpleTestDescription<list, set, vector, fixed_vector<int, 256>>.
    for t in [
        "list<i32>",
        "set<i32>",
        "vector<i32>",
        "fixed_vector<i32,256>",
    ] {
        let mut d = container_desc(
            leak(format!("Simple {t}")),
            t,
            seq(vec![i(188), i(288), i(388)]),
            "[188, 288, 388]",
        );
        d.single = Some((seq(vec![i(0)]), json!([{}])));
        out.push(d);
    }
    // SimplePointerTestDescription<forward_list, list, set, vector, fixed_vector of int*>.
    for t in [
        "forward_list<i32*>",
        "list<i32*>",
        "set<i32*>",
        "vector<i32*>",
        "fixed_vector<i32*,256>",
    ] {
        let mut d = container_desc(
            leak(format!("SimplePointer {t}")),
            t,
            seq(vec![iptr(188), iptr(288), iptr(388)]),
            "[188, 288, 388]",
        );
        d.single = Some((seq(vec![iptr(0)]), json!([{}])));
        out.push(d);
    }
    // ComplextTestDescription<forward_list, list, set, vector, fixed_vector of SimpleClass>.
    for t in [
        "forward_list<SimpleClass>",
        "list<SimpleClass>",
        "set<SimpleClass>",
        "vector<SimpleClass>",
        "fixed_vector<SimpleClass,256>",
    ] {
        let mut d = container_desc(
            leak(format!("Complex {t}")),
            t,
            seq(vec![sc(188, 288.0), sc(388, 488.0), sc(588, 688.0)]),
            r#"[{ "var1": 188, "var2": 288.0 }, { "var1": 388, "var2": 488.0 },
                { "var1": 588, "var2": 688.0 }]"#,
        );
        d.single = Some((seq(vec![sc0()]), json!([{}])));
        d.supports_partial = true;
        d.partial = Some((
            seq(vec![sc(10, 42.0), sc0(), sc(42, 688.0)]),
            json!([{"var1": 10}, {}, {"var2": 688.0}]),
        ));
        out.push(d);
    }
    // SimpleArraySerializerTestDescription.
    let mut d = Desc::new(
        "SimpleArray",
        "array<i32,4>",
        seq(vec![i(0), i(0), i(0), i(0)]),
        seq(vec![i(10), i(20), i(30), i(40)]),
        "[10, 20, 30, 40]",
    );
    d.fixed_size_array = true;
    d.supports_injection = false;
    d.initialize_new_instance = true;
    d.partial = Some((seq(vec![i(10), i(0), i(30), i(0)]), json!([10, {}, 30, {}])));
    out.push(d);
    // ComplexArraySerializerTestDescription: array<BaseClass2*, 4> of MultipleInheritence.
    let mip = |n: f64| {
        ptr(
            "MultipleInheritence",
            mi(
                (n + 142.0) as f32,
                [n + 242.0, n + 342.0, n + 442.0],
                n as i64 + 542,
                (n + 642.0) as f32,
            ),
        )
    };
    let mut d = Desc::new(
        "ComplexArray",
        "array<BaseClass2*,4>",
        seq(vec![null(), null(), null(), null()]),
        seq(vec![mip(1000.0), mip(2000.0), mip(3000.0), mip(4000.0)]),
        r#"[
            { "$type": "MultipleInheritence", "base_var": 1142.0, "base2_var1": 1242.0,
              "base2_var2": 1342.0, "base2_var3": 1442.0, "var1": 1542, "var2": 1642.0 },
            { "$type": "MultipleInheritence", "base_var": 2142.0, "base2_var1": 2242.0,
              "base2_var2": 2342.0, "base2_var3": 2442.0, "var1": 2542, "var2": 2642.0 },
            { "$type": "MultipleInheritence", "base_var": 3142.0, "base2_var1": 3242.0,
              "base2_var2": 3342.0, "base2_var3": 3442.0, "var1": 3542, "var2": 3642.0 },
            { "$type": "MultipleInheritence", "base_var": 4142.0, "base2_var1": 4242.0,
              "base2_var2": 4342.0, "base2_var3": 4442.0, "var1": 4542, "var2": 4642.0 }]"#,
    );
    d.fixed_size_array = true;
    d.supports_injection = false;
    d.initialize_new_instance = true;
    d.new_instance_tests = false;
    d.partial = Some((
        seq(vec![
            ptr("MultipleInheritence", mi0()),
            null(),
            null(),
            ptr(
                "MultipleInheritence",
                mi(242.0, [-133.0, -233.0, -333.0], 142, 42.0),
            ),
        ]),
        parse(
            r#"[{ "$type": "MultipleInheritence" }, null, null,
                { "$type": "MultipleInheritence", "base_var": 242.0, "var1": 142 }]"#,
        ),
    ));
    out.push(d);
    out
}

#[test]
fn conformity_containers() {
    for d in container_descs() {
        d.run();
    }
}

// ---------------------------------------------------------------------------------------
// SmartPointerSerializerTests.cpp: conformity descriptions.

fn base(base_var: f32) -> Value {
    Value::Object(vec![Value::F32(base_var)])
}

fn base2() -> Value {
    Value::Object(vec![f64v(-133.0), f64v(-233.0), f64v(-333.0)])
}

fn smart_pointer_descs() -> Vec<Desc> {
    let mut out = Vec::new();
    for kind in ["unique_ptr", "shared_ptr", "intrusive_ptr"] {
        // The default-constructed smart pointer is null unless the description overrides
        // CreateDefaultConstructedInstance (the *WithDerivedInstance ones).
        let prep = |mut d: Desc, null_constructed: bool| {
            d.json_types = &["null", "object"];
            if null_constructed {
                d.constructed = Some(null());
            }
            d
        };
        // SmartPointerSimpleClassTestDescription.
        let mut d = Desc::new(
            leak(format!("SmartPointerSimpleClass<{kind}>")),
            leak(format!("{kind}<SimpleClass>")),
            scp(42, 42.0),
            scp(88, 88.0),
            r#"{ "var1": 88, "var2": 88.0 }"#,
        );
        d.partial = Some((scp(88, 42.0), json!({"var1": 88})));
        out.push(prep(d, true));

        // SmartPointerSimpleDerivedClass(WithBaseInstance|WithDerivedInstance)TestDescription.
        let simple_derived = |name: &str| {
            let mut d = Desc::new(
                leak(format!("{name}<{kind}>")),
                leak(format!("{kind}<BaseClass>")),
                ptr("BaseClass", base(-42.0)),
                ptr("SimpleInheritence", si(-188.0, 88, 88.0)),
                r#"{ "$type": "SimpleInheritence", "base_var": -188.0, "var1": 88, "var2": 88.0 }"#,
            );
            d.partial = Some((
                ptr("SimpleInheritence", si(-188.0, 88, 42.0)),
                json!({"$type": "SimpleInheritence", "base_var": -188.0, "var1": 88}),
            ));
            d
        };
        out.push(prep(simple_derived("SmartPointerSimpleDerivedClass"), true));
        out.push(prep(
            simple_derived("SmartPointerSimpleDerivedClassWithBaseInstance"),
            true,
        ));
        let mut d = simple_derived("SmartPointerSimpleDerivedClassWithDerivedInstance");
        d.default = ptr("SimpleInheritence", si(-42.0, 42, 42.0));
        d.partial.as_mut().unwrap().1 = json!({"base_var": -188.0, "var1": 88});
        d.store_full_json = Some(json!({"base_var": -188.0, "var1": 88, "var2": 88.0}));
        out.push(prep(d, false));

        // SmartPointerComplexDerivedClass(WithBaseInstance|WithDerivedInstance)TestDescription.
        let complex_derived = |name: &str| {
            let mut d = Desc::new(
                leak(format!("{name}<{kind}>")),
                leak(format!("{kind}<BaseClass2>")),
                ptr("BaseClass2", base2()),
                ptr(
                    "MultipleInheritence",
                    mi(-188.0, [-2188.0, -2288.0, -2388.0], 88, 88.0),
                ),
                r#"{ "$type": "MultipleInheritence", "base_var": -188.0, "base2_var1": -2188.0,
                     "base2_var2": -2288.0, "base2_var3": -2388.0, "var1": 88, "var2": 88.0 }"#,
            );
            d.partial = Some((
                ptr(
                    "MultipleInheritence",
                    mi(-188.0, [-133.0, -2288.0, -333.0], 88, 42.0),
                ),
                json!({"$type": "MultipleInheritence", "base_var": -188.0, "base2_var2": -2288.0, "var1": 88}),
            ));
            d
        };
        out.push(prep(
            complex_derived("SmartPointerComplexDerivedClass"),
            true,
        ));
        out.push(prep(
            complex_derived("SmartPointerComplexDerivedClassWithBaseInstance"),
            true,
        ));
        let mut d = complex_derived("SmartPointerComplexDerivedClassWithDerivedInstance");
        d.default = ptr("MultipleInheritence", mi0());
        d.partial.as_mut().unwrap().1 =
            json!({"base_var": -188.0, "base2_var2": -2288.0, "var1": 88});
        d.store_full_json = Some(json!({"base_var": -188.0, "base2_var1": -2188.0,
            "base2_var2": -2288.0, "base2_var3": -2388.0, "var1": 88, "var2": 88.0}));
        out.push(prep(d, false));
    }
    out
}

#[test]
fn conformity_smart_pointers() {
    for d in smart_pointer_descs() {
        d.run();
    }
}

// ---------------------------------------------------------------------------------------
// The class test cases (TestCases_Classes.cpp, TestCases_Pointers.cpp): an instance with
// some defaults and one without defaults, with their JSON.

struct ClassCase {
    name: &'static str,
    /// `GetInstanceWithoutDefaults`: the value, its JSON (defaults stripped) and, where it
    /// differs, its JSON with defaults kept.
    full: Value,
    full_json: Json,
    full_kept: Option<Json>,
    /// `GetInstanceWithSomeDefaults`: the value and its JSON stripped and kept.
    partial: Value,
    stripped: Json,
    kept: Json,
    /// `PartialDefaultReportingIsStrict`.
    strict: bool,
}

fn obj(fields: Vec<Value>) -> Value {
    Value::Object(fields)
}

fn sip(base_var: f32, var1: i64, var2: f32) -> Value {
    ptr("SimpleInheritence", si(base_var, var1, var2))
}

fn class_cases() -> Vec<ClassCase> {
    let c = |name, full, full_json: Json, partial, stripped: Json, kept: Json| ClassCase {
        name,
        full,
        full_json,
        full_kept: None,
        partial,
        stripped,
        kept,
        strict: true,
    };
    let si_full_json =
        json!({"$type": "SimpleInheritence", "base_var": -88.0, "var1": 88, "var2": 88.0});
    vec![
        c(
            "SimpleClass",
            sc(88, 88.0),
            json!({"var1": 88, "var2": 88.0}),
            sc(88, 42.0),
            json!({"var1": 88}),
            json!({"var1": 88, "var2": 42.0}),
        ),
        c(
            "SimpleInheritence",
            si(-88.0, 88, 88.0),
            json!({"base_var": -88.0, "var1": 88, "var2": 88.0}),
            si(-42.0, 88, 42.0),
            json!({"var1": 88}),
            json!({"base_var": -42.0, "var1": 88, "var2": 42.0}),
        ),
        c(
            "MultipleInheritence",
            mi(-88.0, [-190.0, -290.0, -390.0], 88, 88.0),
            json!({"base_var": -88.0, "base2_var1": -190.0, "base2_var2": -290.0,
                   "base2_var3": -390.0, "var1": 88, "var2": 88.0}),
            mi(-42.0, [-88.0, -233.0, -333.0], 88, 42.0),
            json!({"base2_var1": -88.0, "var1": 88}),
            json!({"base_var": -42.0, "base2_var1": -88.0, "base2_var2": -233.0,
                   "base2_var3": -333.0, "var1": 88, "var2": 42.0}),
        ),
        c(
            "SimpleNested",
            obj(vec![sc(88, 88.0), i(-88)]),
            json!({"nested": {"var1": 88, "var2": 88.0}, "var_additional": -88}),
            obj(vec![sc(88, 42.0), i(42)]),
            json!({"nested": {"var1": 88}}),
            json!({"nested": {"var1": 88, "var2": 42.0}, "var_additional": 42}),
        ),
        c(
            "SimpleEnumWrapper",
            obj(vec![i(2), i(1)]),
            json!({"enumClass": "Option2", "rawEnum": "Option1"}),
            obj(vec![i(2), i(0)]),
            json!({"enumClass": "Option2"}),
            json!({"enumClass": "Option2", "rawEnum": 0}),
        ),
        c(
            "NonReflectedEnumWrapper",
            obj(vec![i(2), i(1)]),
            json!({"enumClass": 2, "rawEnum": 1}),
            obj(vec![i(2), i(0)]),
            json!({"enumClass": 2}),
            json!({"enumClass": 2, "rawEnum": 0}),
        ),
        // TestCases_Pointers.cpp.
        c(
            "SimpleNullPointer",
            obj(vec![iptr(42), iptr(88)]),
            json!({"pointer1": 42, "pointer2": 88}),
            obj(vec![null(), iptr(88)]),
            json!({"pointer2": 88}),
            json!({"pointer1": null, "pointer2": 88}),
        ),
        c(
            "SimpleAssignedPointer",
            obj(vec![iptr(42), iptr(88)]),
            json!({"pointer1": 42, "pointer2": 88}),
            obj(vec![iptr(13), iptr(88)]),
            json!({"pointer2": 88}),
            json!({"pointer1": 13, "pointer2": 88}),
        ),
        c(
            "ComplexAssignedPointer",
            obj(vec![scp(88, 88.0)]),
            json!({"pointer": {"var1": 88, "var2": 88.0}}),
            obj(vec![scp(42, 88.0)]),
            json!({"pointer": {"var2": 88.0}}),
            json!({"pointer": {"var1": 42, "var2": 88.0}}),
        ),
        c(
            "ComplexNullInheritedPointer",
            obj(vec![sip(-88.0, 88, 88.0)]),
            json!({"pointer": si_full_json}),
            obj(vec![sip(-42.0, 42, 88.0)]),
            json!({"pointer": {"$type": "SimpleInheritence", "var2": 88.0}}),
            json!({"pointer": {"$type": "SimpleInheritence", "base_var": -42.0, "var1": 42, "var2": 88.0}}),
        ),
        c(
            "ComplexAssignedDifferentInheritedPointer",
            obj(vec![sip(-88.0, 88, 88.0)]),
            json!({"pointer": si_full_json}),
            obj(vec![sip(-42.0, 42, 88.0)]),
            json!({"pointer": {"$type": "SimpleInheritence", "var2": 88.0}}),
            json!({"pointer": {"$type": "SimpleInheritence", "base_var": -42.0, "var1": 42, "var2": 88.0}}),
        ),
        ClassCase {
            // The default pointer already holds a SimpleInheritence, so `$type` is only
            // written when defaults are kept.
            full_kept: Some(json!({"pointer": si_full_json})),
            ..c(
                "ComplexAssignedSameInheritedPointer",
                obj(vec![sip(-88.0, 88, 88.0)]),
                json!({"pointer": {"base_var": -88.0, "var1": 88, "var2": 88.0}}),
                obj(vec![sip(-42.0, 142, 88.0)]),
                json!({"pointer": {"var2": 88.0}}),
                json!({"pointer": {"$type": "SimpleInheritence", "base_var": -42.0, "var1": 142, "var2": 88.0}}),
            )
        },
        ClassCase {
            strict: false,
            ..c(
                "PrimitivePointerInContainer",
                obj(vec![seq(vec![iptr(42), iptr(88), iptr(13)])]),
                json!({"array": [42, 88, 13]}),
                obj(vec![seq(vec![iptr(42), null()])]),
                json!({"array": [42, null]}),
                json!({"array": [42, null]}),
            )
        },
        c(
            "SimplePointerInContainer",
            obj(vec![seq(vec![scp(88, 88.0)])]),
            json!({"array": [{"var1": 88, "var2": 88.0}]}),
            obj(vec![seq(vec![scp(42, 88.0), scp(42, 42.0), null()])]),
            json!({"array": [{"var2": 88.0}, {}, null]}),
            json!({"array": [{"var1": 42, "var2": 88.0}, {"var1": 42, "var2": 42.0}, null]}),
        ),
        c(
            "InheritedPointerInContainer",
            obj(vec![seq(vec![sip(-88.0, 88, 88.0)])]),
            json!({"array": [si_full_json]}),
            obj(vec![seq(vec![
                sip(-42.0, 42, 88.0),
                sip(-42.0, 42, 42.0),
                null(),
            ])]),
            json!({"array": [{"$type": "SimpleInheritence", "var2": 88.0}, {"$type": "SimpleInheritence"}, null]}),
            json!({"array": [
                {"$type": "SimpleInheritence", "base_var": -42.0, "var1": 42, "var2": 88.0},
                {"$type": "SimpleInheritence", "base_var": -42.0, "var1": 42, "var2": 42.0},
                null]}),
        ),
    ]
}

/// The typed tests of JsonSerializationTests.cpp over the pointer test cases
/// (TestCases_Pointers.cpp): defaults stored as `{}`, `{}` loaded as defaults, both
/// instances stored stripped and kept, and loaded back, with injected fields too.
#[test]
fn typed_class_tests_over_pointer_cases() {
    let keep = store_opts(true);
    let strip = store_opts(false);
    for c in class_cases().into_iter().skip(6) {
        let t = ty(c.name);
        let n = c.name;
        let zero = reg().zero(&t);
        // Store_SerializedDefaultInstance_EmptyJsonReturned.
        let (j, r) = gamewire_o3de::store(reg(), &t, &zero, &strip);
        assert_eq!(r.outcome(), DefaultsUsed, "{n}");
        assert_same(&j, &json!({}), n);
        // Load_EmptyJson_SucceedsAndObjectMatchesDefaults.
        let (v, r) = load(reg(), &t, &json!({}), &LoadOptions::default());
        assert_eq!(r.outcome(), DefaultsUsed, "{n}");
        assert_eq!(v, zero, "{n}");
        // Store_SerializeWithoutDefaults_StoredSuccessfullyAndJsonMatches.
        let (j, r) = gamewire_o3de::store(reg(), &t, &c.full, &strip);
        assert_eq!(
            (r.outcome(), r.processing()),
            (Success, Processing::Completed),
            "{n}"
        );
        assert_same(&j, &c.full_json, n);
        // Load_JsonWithoutDefaults_SucceedsAndObjectMatches.
        let (v, r) = load(reg(), &t, &c.full_json, &LoadOptions::default());
        assert_eq!(r.outcome(), Success, "{n}: {r:?}");
        assert_eq!(v, c.full, "{n}");
        // Store_SerializeWithSomeDefaults_StoredSuccessfullyAndJsonMatches.
        let (j, r) = gamewire_o3de::store(reg(), &t, &c.partial, &strip);
        assert_eq!(r.outcome(), PartialDefaults, "{n}");
        assert_same(&j, &c.stripped, n);
        // Load_JsonWithSomeDefaults_SucceedsAndObjectMatches.
        let (v, r) = load(reg(), &t, &c.stripped, &LoadOptions::default());
        assert!(
            matches!(r.outcome(), Success | DefaultsUsed | PartialDefaults),
            "{n}: {r:?}"
        );
        assert_eq!(v, c.partial, "{n}");
        // Store_SerializeWithSomeDefaultsKept_StoredSuccessfullyAndJsonMatches.
        let (j, r) = gamewire_o3de::store(reg(), &t, &c.partial, &keep);
        assert_eq!(r.outcome(), Success, "{n}");
        assert_same(&j, &c.kept, n);
        // Load_JsonWithSomeDefaultsKept_SucceedsAndObjectMatches.
        let (v, r) = load(reg(), &t, &c.kept, &LoadOptions::default());
        assert_eq!(r.outcome(), Success, "{n}: {r:?}");
        assert_eq!(v, c.partial, "{n}");
        // LoadAndStore_RoundTrip_StoredObjectCanBeLoadedAgain.
        let (j, r) = gamewire_o3de::store(reg(), &t, &c.full, &keep);
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        assert_same(&j, c.full_kept.as_ref().unwrap_or(&c.full_json), n);
        let (v, r) = load(reg(), &t, &j, &LoadOptions::default());
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        assert_eq!(v, c.full, "{n}");
        // Load_JsonAdditionalFields_SucceedsAndObjectMatches.
        let mut j = c.full_json.clone();
        inject_additional_fields(&mut j, &json!("Added to object for testing purposes"));
        let (v, r) = load(reg(), &t, &j, &LoadOptions::default());
        assert_ne!(r.processing(), Processing::Halted, "{n}");
        assert_eq!(v, c.full, "{n}: {j}");
    }
}

// ---------------------------------------------------------------------------------------
// AnySerializerTests.cpp: `any` conformity descriptions over the class test cases.

fn any_of(class: &str, v: Value) -> Value {
    Value::Any(Some(Box::new((ty(class), v))))
}

fn any_descs() -> Vec<Desc> {
    class_cases()
        .into_iter()
        .map(|c| {
            let wrap = |j: &Json| json!({"$type": c.name, "Value": j});
            let mut d = Desc::new(
                c.name,
                "any",
                any_of(c.name, reg().zero(&ty(c.name))),
                any_of(c.name, c.full.clone()),
                &wrap(c.full_kept.as_ref().unwrap_or(&c.full_json)).to_string(),
            );
            d.json_types = &["object"];
            d.default_is_empty = false;
            d.partial_strict = c.strict;
            d.partial = Some((any_of(c.name, c.partial.clone()), wrap(&c.stripped)));
            d.store_full_json = Some(wrap(&c.full_json));
            d.store_without_default_json = Some(wrap(&c.full_json));
            d
        })
        .collect()
}

#[test]
fn conformity_any() {
    for d in any_descs() {
        d.run();
    }
}

// ---------------------------------------------------------------------------------------
// MapSerializerTests.cpp: JsonMapSerializerTests.
//
// O3DE's `TestString` is a string with its own serializer whose default is "Hello"; the
// ports use `string`, whose default is "", so "the default key/value" is "" here.

fn load_bytes_as(t: &str, text: &str, inst: Option<Value>) -> (Value, Report) {
    let (json, dups) = gamewire_o3de::parse_json_keeping_duplicates(text.as_bytes()).unwrap();
    match inst {
        None => {
            gamewire_o3de::load_with_duplicates(reg(), &ty(t), json, &dups, &LoadOptions::default())
        }
        Some(mut v) => {
            let r = load_onto(reg(), &ty(t), &json, &mut v, &LoadOptions::default());
            (v, r)
        }
    }
}

fn code(r: &Report) -> (Outcome, Processing) {
    (r.outcome(), r.processing())
}

#[test]
fn map_load_tests() {
    use Processing::*;
    let ss = |k: &str, v: &str| (s(k), s(v));
    // Load_DefaultForStringKey_LoadedBackWithDefaults.
    let (v, r) = load_bytes_as("unordered_map<string,string>", r#"{ "{}": {} }"#, None);
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_eq!(v, map(vec![ss("", "")]));
    // Load_DefaultForStringKeyAndAdditionalValue_LoadedBackWithDefaults.
    let (v, r) = load_bytes_as(
        "unordered_map<string,string>",
        r#"{ "{}": {}, "World": "value_42" }"#,
        None,
    );
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_eq!(
        sorted(&v),
        sorted(&map(vec![ss("", ""), ss("World", "value_42")]))
    );
    // Load_DuplicateKey_EntryIgnored, as the engine code is now: since o3de PR #6832
    // (MapSerializer::LoadElement), a key already in the map has the value loaded onto
    // its existing value and the entry is Success. (The stored test, older, expects the
    // first value kept and Unavailable/PartialAlter.)
    let (v, r) = load_bytes_as(
        "map<string,string>",
        r#"{ "Hello": "World", "Hello": "Other" }"#,
        None,
    );
    assert_eq!(code(&r), (Success, Completed));
    assert_eq!(v, map(vec![ss("Hello", "Other")]));
    // Load_DuplicateMultiKey_LoadEverything.
    let (v, r) = load_bytes_as(
        "unordered_multimap<string,string>",
        r#"{ "Hello": [ "Other" ], "Hello": [ "World" ] }"#,
        None,
    );
    assert_eq!(code(&r), (Success, Completed));
    assert_eq!(
        sorted(&v),
        map(vec![ss("Hello", "Other"), ss("Hello", "World")])
    );
    // Load_KeyAlreadyInContainer_EntryIgnored, as the engine code is now (see above):
    // the value is loaded onto the existing entry, Success.
    let (v, r) = load_bytes_as(
        "map<string,string>",
        r#"{ "Hello": "Other" }"#,
        Some(map(vec![ss("Hello", "World")])),
    );
    assert_eq!(code(&r), (Success, Completed));
    assert_eq!(v, map(vec![ss("Hello", "Other")]));
    // Load_KeyAlreadyInMultiContainer_DuplicateAdded.
    let (v, r) = load_bytes_as(
        "unordered_multimap<string,string>",
        r#"{ "Hello": [ "World" ] }"#,
        Some(map(vec![ss("Hello", "World")])),
    );
    assert_eq!(code(&r), (Success, Completed));
    assert_eq!(v, map(vec![ss("Hello", "World"), ss("Hello", "World")]));
    // Load_DefaultObjectInMultiMap_DefaultUsed.
    let (v, r) = load_bytes_as(
        "unordered_multimap<string,string>",
        r#"{ "World": {} }"#,
        None,
    );
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_eq!(v, map(vec![ss("World", "")]));
    // Load_FullDefaultObjectInMultiMap_DefaultUsed.
    let (v, r) = load_bytes_as("unordered_multimap<string,string>", r#"{ "{}": {} }"#, None);
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_eq!(v, map(vec![ss("", "")]));
    // Load_DefaultObjectValueInMultiMap_DefaultUsed.
    let (v, r) = load_bytes_as(
        "unordered_multimap<string,string>",
        r#"{ "World": [{}] }"#,
        None,
    );
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_eq!(v, map(vec![ss("World", "")]));
}

#[test]
fn map_store_tests() {
    use Processing::*;
    let strip = store_opts(false);
    let st = |t: &str, v: &Value| store_with_default(reg(), &ty(t), v, None, &strip);
    let check = |t: &str, v: Value, outcome: Outcome, want: &str| {
        let (j, r) = st(t, &v);
        assert_eq!(code(&r), (outcome, Completed), "{t}: {want}");
        assert_same(&j, &parse(want), t);
    };
    // Store_DefaultsWithStringKey_InitializedAsDefault.
    check(
        "unordered_map<string,string>",
        map(vec![(s(""), s("World"))]),
        PartialDefaults,
        r#"{ "{}": "World" }"#,
    );
    // Store_DefaultsWithStringKeyAndValue_InitializedAsDefault.
    check(
        "unordered_map<string,string>",
        map(vec![(s(""), s(""))]),
        PartialDefaults,
        r#"{ "{}": {} }"#,
    );
    // Store_DefaultsWithMultiStringKeyAndValue_InitializedAsDefault.
    check(
        "unordered_multimap<string,string>",
        map(vec![(s(""), s(""))]),
        PartialDefaults,
        r#"{ "{}": {} }"#,
    );
    // Store_SingleAllDefaulValue_InitializedWithDefaults.
    check(
        "unordered_map<SimpleClass,SimpleClass>",
        map(vec![(sc0(), sc0())]),
        PartialDefaults,
        r#"{ "{}": {} }"#,
    );
    // Store_DefaultsWithObjectKey_InitializedWithDefaults.
    check(
        "unordered_map<SimpleClass,SimpleClass>",
        map(vec![
            (sc0(), sc0()),
            (sc(142, 42.0), sc(188, 42.0)),
            (sc(242, 342.0), sc(288, 388.0)),
        ]),
        PartialDefaults,
        r#"[
            { "Key": {}, "Value": {} },
            { "Key": {"var1": 142}, "Value": {"var1": 188} },
            { "Key": {"var1": 242, "var2": 342.0}, "Value": {"var1": 288, "var2": 388.0} }
        ]"#,
    );
    // Store_DefaultsWithObjectMultiKey_InitializedWithDefaults.
    let mut entries = Vec::new();
    for k in [sc0(), sc(142, 42.0), sc(242, 342.0)] {
        for v in [sc0(), sc(188, 42.0), sc(288, 388.0)] {
            entries.push((k.clone(), v));
        }
    }
    let values = r#"[ {}, { "var1": 188 }, { "var1": 288, "var2": 388.0 } ]"#;
    check(
        "unordered_multimap<SimpleClass,SimpleClass>",
        map(entries),
        PartialDefaults,
        &format!(
            r#"[ {{ "Key": {{}}, "Value": {values} }},
                 {{ "Key": {{"var1": 142}}, "Value": {values} }},
                 {{ "Key": {{"var1": 242, "var2": 342.0}}, "Value": {values} }} ]"#
        ),
    );
    // Store_MultiStringKeyValuesAreCombined_SingleFieldWithMultipleValuesInArray.
    check(
        "unordered_multimap<string,string>",
        map(vec![
            (s("Hello"), s("Big")),
            (s("Hello"), s("Another")),
            (s("Hello"), s("Compiler")),
        ]),
        Success,
        r#"{ "Hello": [ "Another", "Big", "Compiler" ] }"#,
    );
    // Store_MultiKeyDefaultValue_NoArrayUsed.
    check(
        "unordered_multimap<SimpleClass,SimpleClass>",
        map(vec![(sc(142, 242.0), sc0())]),
        PartialDefaults,
        r#"[ { "Key": {"var1": 142, "var2": 242.0}, "Value": {} } ]"#,
    );
    // Store_MultiStringKeyDefaultValue_NoArrayUsed.
    check(
        "unordered_multimap<string,string>",
        map(vec![(s("World"), s(""))]),
        PartialDefaults,
        r#"{ "World": {} }"#,
    );
    // Store_MixOfStringAndOtherKeys_ArrayIsNotConvertedToObject.
    check(
        "unordered_map<TestBitFlags,i32>",
        map(vec![(i(1), i(1)), (i(6), i(6)), (i(32), i(32))]),
        Success,
        r#"[
            { "Key": ["BitFlag2", "BitFlag1"], "Value": 6 },
            { "Key": "BitFlag0", "Value": 1 },
            { "Key": 32, "Value": 32 }
        ]"#,
    );
}

// ---------------------------------------------------------------------------------------
// BasicContainerSerializerTests.cpp, UnorderedSetSerializerTests.cpp,
// ArraySerializerTests.cpp: the non-conformity tests.

#[test]
fn basic_container_tests() {
    use Processing::*;
    let strip = store_opts(false);
    // JsonVectorSerializerTests: Store_SingleObjectWithAllDefaults_ReturnsDefaultsUsed.
    let v = seq(vec![sc0()]);
    let (j, r) = store_with_default(reg(), &ty("vector<SimpleClass>"), &v, Some(&v), &strip);
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_same(&j, &json!([{}]), "vector<SimpleClass>");
    // Store_NonEmptyVectorWhoseElementsHaveAllDefaults_ReturnsDefaultsUsed.
    let t = ty("vector<shared_ptr<BaseClass>>");
    let v = seq(vec![
        ptr("BaseClass", base(-42.0)),
        ptr("BaseClass", base(-42.0)),
    ]);
    let (j, r) = store_with_default(reg(), &t, &v, None, &strip);
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_same(&j, &json!([{}, {}]), "vector<shared_ptr<BaseClass>>");
    // Store_VectorValuesAreInheritedClassWithAllDefaults_DoesNotReturnDefaultsUsed.
    let v = seq(vec![sip(-42.0, 42, 42.0), sip(-42.0, 42, 42.0)]);
    let (j, r) = store_with_default(reg(), &t, &v, None, &strip);
    assert_eq!(code(&r), (PartialDefaults, Completed));
    assert_same(
        &j,
        &json!([{"$type": "SimpleInheritence"}, {"$type": "SimpleInheritence"}]),
        "vector<shared_ptr<BaseClass>>",
    );
    // JsonFixedVectorSerializerTests: Load_MoreEntriesThanFit_LoadEntriesThatFitAndRestIsSkipped.
    let (v, r) = load(
        reg(),
        &ty("fixed_vector<i32,4>"),
        &json!([1, 2, 3, 4, 5]),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), PartialSkip);
    assert_eq!(v, seq(vec![i(1), i(2), i(3), i(4)]));
    // JsonSetSerializerTests: Load_DuplicateEntry_CompletesWithDataLeft, and the same for
    // JsonUnorderedSetSerializerTests: Load_DuplicateEntryInSet_CompletesWithDataLeft.
    for t in ["set<i32>", "unordered_set<i32>"] {
        let (v, r) = load(
            reg(),
            &ty(t),
            &json!([188, 288, 288, 388]),
            &LoadOptions::default(),
        );
        assert_eq!(code(&r), (Unavailable, PartialAlter), "{t}");
        assert_eq!(sorted(&v), seq(vec![i(188), i(288), i(388)]), "{t}");
    }
    // JsonSetSerializerTests: Load_EntryAlreadyInContainer_EntryIgnored.
    let mut v = seq(vec![i(188)]);
    let r = load_onto(
        reg(),
        &ty("set<i32>"),
        &json!([188]),
        &mut v,
        &LoadOptions::default(),
    );
    assert_eq!(code(&r), (Unavailable, Altered));
    assert_eq!(v, seq(vec![i(188)]));
    // JsonArraySerializerTests: Load_MoreValuesThanFitInArray_ReturnsSkippedAndArrayIsLoaded.
    let (v, r) = load(
        reg(),
        &ty("array<i32,4>"),
        &json!([10, 20, 30, 40, 50, 60]),
        &LoadOptions::default(),
    );
    assert_eq!(r.outcome(), PartialSkip);
    assert_eq!(v, seq(vec![i(10), i(20), i(30), i(40)]));
}

// ---------------------------------------------------------------------------------------
// SmartPointerSerializerTests.cpp: JsonSmartPointerSerializerTests (the description is
// SmartPointerSimpleDerivedClassTestDescription<shared_ptr>).

#[test]
fn smart_pointer_tests() {
    use Processing::*;
    let t = ty("shared_ptr<BaseClass>");
    let full = || sip(-188.0, 88, 88.0);
    let default = || ptr("BaseClass", base(-42.0));
    let full_json =
        json!({"$type": "SimpleInheritence", "base_var": -188.0, "var1": 88, "var2": 88.0});
    let opts = LoadOptions::default();
    let load_on = |json: &Json, mut v: Value| {
        let r = load_onto(reg(), &t, json, &mut v, &opts);
        (v, r)
    };
    // Load_InstanceBeingReplacedWithNullptr_ReturnsSuccess.
    let (v, r) = load_on(&json!(null), full());
    assert_eq!(r.processing(), Completed);
    assert_eq!(v, null());
    // Load_DefaultInstanceToNullptr_ReturnsSuccess.
    let (v, r) = load_on(&json!({}), null());
    assert_eq!(r.processing(), Completed);
    assert_eq!(v, default());
    // Load_DefaultObjectDoesNotUpdateInstance_ReturnsSuccess.
    let (v, r) = load_on(&json!({}), full());
    assert_eq!(r.processing(), Completed);
    assert_eq!(v, full());
    // Load_InstanceBeingReplacedWithDifferentType_ReturnsSuccess.
    let alt = ptr("SimpleInheritenceAlt", si(142.0, 242, 343.0));
    let (v, r) = load_on(&full_json, alt);
    assert_eq!(r.processing(), Completed);
    assert_eq!(v, full());
    // Load_TargetNonExistingTypeName_*, Load_TargetNonExistingTypeId_*,
    // Load_TargetUnrelatedType_*, Load_TargetAbstractClass_*: nothing changes.
    for (json, outcome) in [
        (json!({"$type": "NonExisting"}), Unknown),
        (
            json!({"$type": "{9A4415E7-D744-42D6-82BF-B3408B54D7BD}"}),
            Unknown,
        ),
        (json!({"$type": "int"}), TypeMismatch),
    ] {
        let (v, r) = load_on(&json, null());
        assert_eq!(r.outcome(), outcome, "{json}");
        assert_eq!(v, null(), "{json}");
        let (v, r) = load_on(&json, full());
        assert_eq!(r.outcome(), outcome, "{json}");
        assert_eq!(v, full(), "{json}");
    }
    let (v, r) = load_on(&json!({"$type": "AbstractClass"}), full());
    assert_eq!(r.outcome(), Catastrophic);
    assert_eq!(v, full());

    let strip = store_opts(false);
    let st = |v: &Value, d: Option<&Value>| store_with_default(reg(), &t, v, d, &strip);
    // Store_DefaultPointerIsNullPtr_ReturnsSuccess.
    let (j, r) = st(&full(), Some(&null()));
    assert_eq!(r.outcome(), Success);
    assert_same(&j, &full_json, "full against null");
    // Store_ValuePointerIsNullPtr_ReturnsSuccessAndStoresNull.
    let (j, r) = st(&null(), Some(&full()));
    assert_eq!(r.outcome(), Success);
    assert_eq!(j, json!(null));
    // Store_ValueAndDefaultPointersAreNullPtr_ReturnsSuccessAndStoresNull.
    let (j, r) = st(&null(), Some(&null()));
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_eq!(j, json!(null));
    // Store_ValueAndDefaultPointersAreBothDefault_ReturnsSuccess.
    let (j, r) = st(&default(), Some(&default()));
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_same(&j, &json!({}), "default against default");
    // Store_ValueHasDefaultValuesAndDefaultHasNullPointer_ReturnsSuccess.
    let (j, r) = st(&default(), Some(&null()));
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_same(&j, &json!({}), "default against null");
    // Store_DefaultPointerIsOtherClass_CompletesButDoesNotReturnDefaults.
    let (_, r) = store_with_default(
        reg(),
        &ty("shared_ptr<SimpleInheritence>"),
        &sip(142.0, 242, 343.0),
        Some(&ptr("SimpleInheritenceAlt", si(142.0, 242, 343.0))),
        &strip,
    );
    assert_ne!(r.outcome(), DefaultsUsed);
    assert_ne!(r.outcome(), PartialDefaults);
    assert_eq!(r.processing(), Completed);
}

// ---------------------------------------------------------------------------------------
// TestCases_TypeId.cpp: `LoadTypeId`/`StoreTypeId` through `$type` on pointers and anys.

fn pointer_of(v: &Value) -> &Value {
    let Value::Object(f) = v else { panic!("{v:?}") };
    &f[0]
}

#[test]
fn type_id_tests() {
    use Processing::*;
    let opts = LoadOptions::default();
    let t = ty("ComplexNullInheritedPointer");
    let load_ptr = |id: Json| load(reg(), &t, &json!({"pointer": {"$type": id}}), &opts);
    // Load_TypeWithWhitespace_SucceedsAndObjectMatches.
    let (v, r) = load_ptr(json!("    SimpleInheritence    "));
    assert_eq!(r.outcome(), DefaultsUsed);
    assert_eq!(pointer_of(&v), &sip(-42.0, 42, 42.0));
    // LoadTypeId_FromUuidString_Success, LoadTypeId_FromUuidStringWithNoise_Success (with
    // the UUID of a registered class: gamewire resolves `$type` against the registry).
    for id in [
        "{CD2A6797-63B4-4B4D-B3D2-9044781C1E42}",
        "Some comments {CD2A6797-63B4-4B4D-B3D2-9044781C1E42} Vector3",
    ] {
        let (v, r) = load_ptr(json!(id));
        assert_eq!(r.processing(), Completed, "{id}");
        assert_eq!(pointer_of(&v), &sip(-42.0, 42, 42.0), "{id}");
    }
    // LoadTypeId_UnknownName_FailToLoad, LoadTypeId_InvalidJsonTypeForTypeId_FailToLoad,
    // LoadTypeId_InputIsNotAString_FailToLoad.
    for id in [json!("Unknown"), json!(42), json!(true)] {
        let (v, r) = load_ptr(id.clone());
        assert_eq!(code(&r), (Unknown, Halted), "{id}");
        assert_eq!(pointer_of(&v), &null(), "{id}");
    }
    // LoadTypeId_LoadFromNameString_Success, LoadTypeId_FromNameStringWithExtraWhitespace_Success,
    // LoadTypeId_FromNameString_UuidSerializerDoesNotReportUnsupported.
    for id in ["Vector3", "    Vector3      "] {
        let (v, r) = load(
            reg(),
            &ty("any"),
            &json!({"$type": id, "Value": [1.0, 2.0, 3.0]}),
            &opts,
        );
        assert_eq!(code(&r), (Success, Completed), "{id}");
        let Value::Any(Some(b)) = &v else {
            panic!("{v:?}")
        };
        assert_eq!(b.0, TypeExpr::Vector3, "{id}");
        assert!(
            r.issues.iter().all(|i| i.code.outcome() != Unsupported),
            "{r:?}"
        );
    }
    // StoreTypeId_SingleInstanceType_StoresName.
    let v = Value::Any(Some(Box::new((
        TypeExpr::Vector3,
        Value::Math(vec![1.0, 2.0, 3.0].into()),
    ))));
    let (j, r) = store_with_default(reg(), &ty("any"), &v, None, &store_opts(false));
    assert_eq!(r.processing(), Completed);
    assert_eq!(j["$type"], json!("Vector3"));
}

/// The registry of TestCases_TypeId's name-conflict tests: `BaseClass` and the classes
/// named `Inherited` in namespaces A, B (both derived from `BaseClass`) or A and C (C not
/// derived).
fn inherited_registry(second: &str) -> Registry {
    let (uuid, bases) = match second {
        "B" => (
            "{0DF033C4-3EEC-4F61-8B79-59FE31545029}",
            json!(["BaseClass"]),
        ),
        _ => ("{682089DB-9794-4590-87A4-9AF70BD1C202}", json!([])),
    };
    Registry::from_json(&json!({"classes": [
        {"name": "BaseClass", "uuid": "{E0A66EB6-1AC5-4C73-B1A7-6367A47EC026}",
         "fields": [{"name": "base_var", "type": "f32", "default": -42.0}]},
        {"name": "Inherited", "uuid": "{E7829F37-C577-4F2B-A85B-6F331548354C}", "bases": ["BaseClass"]},
        {"name": "Inherited", "uuid": uuid, "bases": bases},
        {"name": "Holder", "fields": [{"name": "pointer", "type": "BaseClass*"}]}
    ]}))
    .unwrap()
}

#[test]
fn type_id_name_conflicts() {
    use Processing::*;
    let opts = LoadOptions::default();
    let a_uuid = "{E7829F37-C577-4F2B-A85B-6F331548354C}";
    // LoadTypeId_AmbigiousName_FailToLoad (no base type to pick with: an `any`).
    let reg_ab = inherited_registry("B");
    let (v, r) = load(
        &reg_ab,
        &reg_ab.parse_type("any").unwrap(),
        &json!({"$type": "Inherited"}),
        &opts,
    );
    assert_eq!(v, Value::Any(None));
    assert!(
        r.issues
            .iter()
            .any(|i| i.code.outcome() == Unknown && i.code.processing() == Halted),
        "{r:?}"
    );
    // LoadTypeId_UnresolvedAmbigiousName_FailToLoad.
    let holder = reg_ab.parse_type("Holder").unwrap();
    let (v, r) = load(
        &reg_ab,
        &holder,
        &json!({"pointer": {"$type": "Inherited"}}),
        &opts,
    );
    assert_eq!(code(&r), (Unknown, Halted));
    assert_eq!(pointer_of(&v), &null());
    // StoreTypeId_DuplicateInstanceType_StoresUuidWithName.
    let a = reg_ab.parse_type(a_uuid).unwrap();
    let v = Value::Object(vec![Value::Ptr(Some(Box::new((a.clone(), base(-42.0)))))]);
    let (j, r) = store_with_default(&reg_ab, &holder, &v, None, &store_opts(false));
    assert_eq!(r.processing(), Completed);
    assert_eq!(
        j.to_string(),
        r#"{"pointer":{"$type":"{E7829F37-C577-4F2B-A85B-6F331548354C} Inherited"}}"#
    );
    // LoadTypeId_ResolvedAmbigiousName_SuccessAndBaseClassPicked.
    let reg_ac = inherited_registry("C");
    let holder = reg_ac.parse_type("Holder").unwrap();
    let (v, r) = load(
        &reg_ac,
        &holder,
        &json!({"pointer": {"$type": "Inherited"}}),
        &opts,
    );
    assert_eq!(r.processing(), Completed);
    let Value::Ptr(Some(b)) = pointer_of(&v) else {
        panic!("{v:?}")
    };
    assert_eq!(b.0, reg_ac.parse_type(a_uuid).unwrap());
}

// ---------------------------------------------------------------------------------------
// TestCases_Compare.cpp: JsonSerialization::Compare.

#[test]
fn compare_tests() {
    let cases: &[(&str, Json, Json, Ordering)] = &[
        (
            "Compare_DifferentTypes_StringTypeLessThanNumberType",
            json!(""),
            json!(0),
            Ordering::Less,
        ),
        (
            "Compare_NullType_ReturnEqual",
            json!(null),
            json!(null),
            Ordering::Equal,
        ),
        (
            "Compare_TrueType_ReturnEqual",
            json!(true),
            json!(true),
            Ordering::Equal,
        ),
        (
            "Compare_FalseType_ReturnEqual",
            json!(false),
            json!(false),
            Ordering::Equal,
        ),
        (
            "Compare_IdenticalStrings_ReturnEqual",
            json!("Hello"),
            json!("Hello"),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentStrings_HelloLessThanWorld",
            json!("Hello"),
            json!("World"),
            Ordering::Less,
        ),
        (
            "Compare_IdenticalIntegers_ReturnEqual",
            json!(42u64),
            json!(42u64),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentIntegers_LessForSmallestNumber",
            json!(42u64),
            json!(88u64),
            Ordering::Less,
        ),
        (
            "Compare_IdenticalDoubles_ReturnEqual",
            json!(42.0),
            json!(42.0),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentDoubles_LessForSmallestNumber",
            json!(42.0),
            json!(88.0),
            Ordering::Less,
        ),
        (
            "Compare_IdenticalMixedNumbers_ReturnEqual",
            json!(42u64),
            json!(42.0),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentMixedNumbers_LessForSmallestNumber",
            json!(42u64),
            json!(88.0),
            Ordering::Less,
        ),
        (
            "Compare_IdenticalObjects_ReturnEqual",
            json!({"a": 42, "b": "Hello", "c": true}),
            json!({"a": 42, "b": "Hello", "c": true}),
            Ordering::Equal,
        ),
        (
            "Compare_IdenticalObjectsWithDifferentOrder_ReturnEqual",
            json!({"a": 42, "b": "Hello", "c": true}),
            json!({"c": true, "a": 42, "b": "Hello"}),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentSizedObjects_LessForSmallestObject",
            json!({"a": 42, "c": true}),
            json!({"a": 42, "b": "Hello", "c": true}),
            Ordering::Less,
        ),
        (
            "Compare_DifferentMembersInObjects_AlphabeticallyLessBasedOnFieldNames",
            json!({"a": 42, "x": "Hello", "c": true}),
            json!({"b": 42, "y": "Hello", "z": true}),
            Ordering::Less,
        ),
        (
            "Compare_DifferentMemberTypesObjects_LessBasedOnTheMemberType",
            json!({"a": false, "b": 88.0, "c": true}),
            json!({"c": 88, "a": 42.0, "b": "Hello"}),
            Ordering::Less,
        ),
        (
            "Compare_DifferentValuesInObjectMembers_LessBasedOnMemberValue",
            json!({"a": 42, "b": "Hello", "c": true}),
            json!({"c": false, "a": 88, "b": "World"}),
            Ordering::Less,
        ),
        (
            "Compare_IdenticalArray_ReturnEqual",
            json!([42, "Hello", true]),
            json!([42, "Hello", true]),
            Ordering::Equal,
        ),
        (
            "Compare_DifferentSizedArrays_LessForSmallestArray",
            json!([42, true]),
            json!([42, "Hello", true]),
            Ordering::Less,
        ),
        (
            "Compare_DifferentTypesInArrays_LessBasedOnType",
            json!([false, "Hello", 42]),
            json!([88.0, false, "World"]),
            Ordering::Less,
        ),
        (
            "Compare_DifferentValuesInArrays_LessBasedOnTheValue",
            json!([42, "Hello", 42.0]),
            json!([42, "World", 88.0]),
            Ordering::Less,
        ),
    ];
    for (name, lhs, rhs, want) in cases {
        assert_eq!(compare(lhs, rhs), *want, "{name}");
        assert_eq!(compare(rhs, lhs), want.reverse(), "{name} (reversed)");
    }
}

/// AnySerializerTests.cpp: Any2JSON_StoreAndLoad_Bool, Any2JSON_StoreAndLoad_Vector3
/// (`CompareStoredAgainstLoaded`: store an any through the main store, load it back).
#[test]
fn any_store_and_load() {
    let any = ty("any");
    let values = [
        (TypeExpr::Bool, Value::Bool(true)),
        (TypeExpr::Bool, Value::Bool(false)),
        (
            TypeExpr::Vector3,
            Value::Math(vec![1.23, 5.711, 13.17].into()),
        ),
        (
            TypeExpr::Vector3,
            Value::Math(vec![9.0, -9.0, -81.0].into()),
        ),
    ];
    for (t, v) in values {
        let stored = Value::Any(Some(Box::new((t, v))));
        let (j, r) = gamewire_o3de::store(reg(), &any, &stored, &store_opts(false));
        assert_ne!(r.processing(), Processing::Halted, "{stored:?}");
        let (loaded, r) = load(reg(), &any, &j, &LoadOptions::default());
        assert_eq!(r.outcome(), Success, "{j}");
        assert_eq!(loaded, stored, "{j}");
    }
}
