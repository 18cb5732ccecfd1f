//! Registry import from the engine's type dumps: a real SerializationContextExporter
//! dump, a dumpsc-shaped file written from Dumper.cpp's layout, and hostile dumps.

use gamewire_o3de::registry_import::{import, map_cpp_type};
use gamewire_o3de::{serde_json, Registry, TypeExpr};
use serde_json::json;
use std::path::PathBuf;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/o3de/real")
        .join(rel)
}

fn field_type(reg: &Registry, class: &str, field: &str) -> String {
    let c = &reg.classes[reg.classes_named(class)[0]];
    let f = c.fields.iter().find(|f| f.name == field).unwrap();
    reg.type_to_string(&f.ty)
}

#[test]
fn real_exporter_dump_imports_with_containers_mapped() {
    let text = std::fs::read(fixture(
        "../real-registry/exporter-ScriptDebug_dumped_classes.json",
    ))
    .unwrap();
    let json = gamewire_o3de::parse_json(&text).unwrap();
    let (reg_json, report) = import(&[("ScriptDebug".into(), json)]).unwrap();
    let reg = Registry::from_json(&reg_json).unwrap();
    // Containers and scalars of the dump are types, not classes.
    assert!(reg
        .classes_named("AZStd::vector<DebugValue, AZStdAlloc<OSAllocator>>")
        .is_empty());
    assert!(reg.classes_named("unsigned char").is_empty());
    assert_eq!(
        field_type(&reg, "DebugValue", "elements"),
        "vector<DebugValue>"
    );
    assert_eq!(field_type(&reg, "DebugValue", "name"), "string");
    assert_eq!(field_type(&reg, "DebugValue", "flags"), "u8");
    assert_eq!(field_type(&reg, "DebugValue", "type"), "i8");
    assert_eq!(
        field_type(&reg, "ScriptDebugEnumLocalsResult", "names"),
        "vector<string>"
    );
    assert_eq!(field_type(&reg, "ScriptUserClassInfo", "type"), "Uuid");
    // Base classes come from isBaseClass members, and their fields are inherited.
    let c = &reg.classes[reg.classes_named("ScriptDebugBreakpointRequest")[0]];
    let names: Vec<&str> = c.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["MsgId", "request", "context", "line"]);
    let comp = &reg.classes[reg.classes_named("ScriptDebugAgent")[0]];
    assert_eq!(comp.fields[0].name, "Id");
    assert!(report.unmapped.is_empty(), "{:?}", report.unmapped);
    assert_eq!(report.classes, reg.classes.len());
    // The imported registry loads real values.
    let ty = reg.parse_type("DebugValue").unwrap();
    let (_, rep) = gamewire_o3de::load(
        &reg,
        &ty,
        &json!({"name": "x", "flags": "3", "elements": [{"name": "y"}]}),
        &Default::default(),
    );
    assert!(rep
        .issues
        .iter()
        .all(|i| i.path != "/flags" || i.code.outcome() != gamewire_o3de::Outcome::Unsupported));
}

/// A dumpsc file in the layout Dumper.cpp writes (Id, Version, Bases with Type and Uuid,
/// Fields with Name, Type, Uuid, IsPointer, containers with GenericUuid).
fn dumpsc() -> serde_json::Value {
    json!({"SerializeContext": {
        "{EDFCB2CF-F75D-43BE-B26B-F35821B29247}": {
            "Name": "Component", "Namespace": "AZ", "Id": "AZ::Component", "Version": 0,
            "IsSystemComponent": false, "IsPrimitive": false, "IsContainer": false,
            "Fields": [{"Name": "Id", "Type": "AZ::u64",
                        "Uuid": "{D6597933-47CD-4FC8-B911-63F3E2B0993A}", "HasDefault": true,
                        "IsDynamic": false, "IsPointer": false, "IsUiElement": false,
                        "DataSize": 8, "Offset": 16}]},
        "{11111111-0000-0000-0000-000000000001}": {
            "Name": "ShapeConfiguration", "Id": "ShapeConfiguration", "Version": 2,
            "IsPrimitive": false, "IsContainer": false,
            "Fields": [{"Name": "Scale", "Type": "Vector3", "Uuid": "{8379EB7D-01FA-4538-B64B-A6543B4BE73D}", "IsPointer": false}]},
        "{11111111-0000-0000-0000-000000000002}": {
            "Name": "MyComponent", "Id": "MyComponent", "Version": 3,
            "IsPrimitive": false, "IsContainer": false,
            "Bases": [{"Type": "AZ::Component", "Uuid": "{EDFCB2CF-F75D-43BE-B26B-F35821B29247}"}],
            "Fields": [
                {"Name": "Shapes", "Type": "AZStd::vector<AZStd::shared_ptr<ShapeConfiguration>>",
                 "Uuid": "{22222222-0000-0000-0000-000000000001}", "IsPointer": false},
                {"Name": "Weights", "Type": "AZStd::unordered_map<AZStd::string,float>",
                 "Uuid": "{22222222-0000-0000-0000-000000000002}", "IsPointer": false},
                {"Name": "Owner", "Type": "ShapeConfiguration*",
                 "Uuid": "{11111111-0000-0000-0000-000000000001}", "IsPointer": true},
                {"Name": "Odd", "Type": "AZStd::variant<int,float>",
                 "Uuid": "{22222222-0000-0000-0000-000000000003}", "IsPointer": false}]},
        "{22222222-0000-0000-0000-000000000001}": {
            "Name": "AZStd::vector<AZStd::shared_ptr<ShapeConfiguration>>", "Id": "AZStd::vector",
            "IsContainer": true, "GenericUuid": "{A60E3E61-1FF6-4982-B6B8-9E4350C4C679}"}
    }})
}

#[test]
fn dumpsc_imports_bases_versions_containers_and_reports_what_it_cannot_map() {
    let (reg_json, report) = import(&[("sc.json".into(), dumpsc())]).unwrap();
    let reg = Registry::from_json(&reg_json).unwrap();
    assert_eq!(
        field_type(&reg, "MyComponent", "Shapes"),
        "vector<shared_ptr<ShapeConfiguration>>"
    );
    assert_eq!(
        field_type(&reg, "MyComponent", "Weights"),
        "unordered_map<string,f32>"
    );
    assert_eq!(
        field_type(&reg, "MyComponent", "Owner"),
        "ShapeConfiguration*"
    );
    assert_eq!(field_type(&reg, "MyComponent", "Id"), "u64");
    let c = &reg.classes[reg.classes_named("MyComponent")[0]];
    assert_eq!(c.version, Some(3));
    // The variant has no registry type: left out and named in the report.
    assert!(c.fields.iter().all(|f| f.name != "Odd"));
    assert_eq!(report.unmapped.len(), 1);
    assert_eq!(report.unmapped[0].field, "Odd");
    assert!(report.unmapped[0].reason.contains("variant"));
    assert!(reg.classes_named("AZStd::vector").is_empty());
}

#[test]
fn self_referencing_and_malformed_dumps_are_errors() {
    // A class its own base, directly and through another.
    for pair in [false, true] {
        let mut sc = serde_json::Map::new();
        let a = "{33333333-0000-0000-0000-000000000001}";
        let b = "{33333333-0000-0000-0000-000000000002}";
        let base_of_a = if pair { b } else { a };
        sc.insert(
            a.into(),
            json!({"Id": "A", "Bases": [{"Type": "X", "Uuid": base_of_a}]}),
        );
        sc.insert(
            b.into(),
            json!({"Id": "B", "Bases": [{"Type": "A", "Uuid": a}]}),
        );
        let e = import(&[("cyc.json".into(), json!({"SerializeContext": sc}))]).unwrap_err();
        assert!(e.to_string().contains("inherits itself"), "{e}");
    }
    for bad in [
        json!({"SerializeContext": {"{x}": 5}}),
        json!({"SerializeContext": {"{x}": {"Version": 1}}}),
        json!({"classes": [{"uuid": "{1}", "members": []}]}),
        json!({"classes": [{"name": "A", "members": 7}]}),
        json!([1, 2]),
        json!({"neither": true}),
    ] {
        let e = import(&[("bad.json".into(), bad.clone())]).unwrap_err();
        assert!(e.to_string().contains("bad.json"), "{bad}: {e}");
    }
}

#[test]
fn an_enormous_dump_is_refused_by_count_not_by_memory() {
    let members: Vec<_> = (0..10_001)
        .map(|i| json!({"name": format!("m{i}"), "uuid": "{A0CA880C-AFE4-43CB-926C-59AC48496112}"}))
        .collect();
    let e = import(&[(
        "big.json".into(),
        json!({"classes": [{"name": "Big", "members": members}]}),
    )])
    .unwrap_err();
    assert!(e.to_string().contains("limit"), "{e}");
}

#[test]
fn cpp_names_of_assets_and_arrays() {
    let none = |_: &str| None;
    assert_eq!(
        map_cpp_type("Asset<MaterialAsset>", &none),
        Ok("Asset<MaterialAsset>".into())
    );
    assert_eq!(
        map_cpp_type("AZStd::fixed_vector<float, 8>", &none),
        Ok("fixed_vector<f32,8>".into())
    );
    let reg = Registry::default();
    assert_eq!(
        reg.parse_type("array<u8,4>").unwrap(),
        TypeExpr::Array(Box::new(TypeExpr::U8), 4)
    );
}

/// The whole public dump (4,031 classes, 2.6 MB) when its path is given; not stored.
#[test]
fn full_public_exporter_dump_when_available() {
    let Ok(path) = std::env::var("GAMEWIRE_O3DE_EXPORTER_DUMP") else {
        return;
    };
    let text = std::fs::read(path).unwrap();
    let json = gamewire_o3de::parse_json(&text).unwrap();
    let (reg_json, report) = import(&[("All".into(), json)]).unwrap();
    let reg = Registry::from_json(&reg_json).unwrap();
    eprintln!(
        "classes {} fields {} skipped {} unmapped {}",
        report.classes,
        report.fields,
        report.skipped,
        report.unmapped.len()
    );
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for u in &report.unmapped {
        *reasons
            .entry(u.reason.chars().take(60).collect())
            .or_default() += 1;
    }
    for (r, n) in reasons.iter().rev().take(20) {
        eprintln!("{n:5} {r}");
    }
    assert!(reg.classes.len() > 1000);
}

#[test]
fn real_class_dump_types_entity_ids_pointers_and_unknown_defaults() {
    // The SerializationContextExporter's dump of a running editor (the classes the real
    // prefabs need): `EntityId` is read by O3DE's own serializer, not as the class the
    // dump lists; `GenericComponentWrapper::m_template` is an `AZ::Component*` (8 bytes
    // against the class's 24), which the dump does not mark.
    let text = std::fs::read(fixture(
        "../real-registry/exporter-All_dumped_classes-subset.json",
    ))
    .unwrap();
    let json = gamewire_o3de::parse_json(&text).unwrap();
    let (reg_json, _) = import(&[("All".into(), json)]).unwrap();
    let reg = Registry::from_json(&reg_json).unwrap();
    assert!(reg.classes_named("EntityId").is_empty());
    let editor_transform = reg
        .classes
        .iter()
        .position(|c| c.uuid.to_string() == "{27F1E1A1-8D9D-4C3B-BD3A-AFB9762449C0}")
        .unwrap();
    let f = |name: &str| {
        reg.classes[editor_transform]
            .fields
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .ty
            .clone()
    };
    assert_eq!(f("Parent Entity"), TypeExpr::EntityId);
    assert_eq!(f("Cached World Transform"), TypeExpr::Transform);
    assert_eq!(
        field_type(&reg, "GenericComponentWrapper", "m_template"),
        "AZ::Component*"
    );
    assert_eq!(field_type(&reg, "AZ::Entity", "Id"), "EntityId");
    // Every imported class says its defaults are unknown.
    assert!(reg.classes.iter().all(|c| !c.defaults_known));
    // Merged over the bundled types, the dump's classes replace the bundled ones.
    let merged =
        Registry::from_slice_over_bundled(&serde_json::to_vec(&reg_json).unwrap()).unwrap();
    let t = &merged.classes[merged.classes_named("AZ::Entity")[0]];
    assert!(!t.defaults_known);
}
