//! Issue 25, item 3: a typed load never drops data.
//!
//! - `AZ::EntityId` as O3DE's `JsonEntityIdSerializer` reads and writes it
//!   (Code/Framework/AzCore/AzCore/Component/EntityIdSerializer.cpp: `{"id": u64}`
//!   without a mapper; through a prefab's `InstanceEntityIdMapper` the entity's alias, a
//!   string, `""` for none), found by its type id as O3DE finds serializers;
//! - what a load does not take (members no class declares, values it cannot read) put
//!   back as written by `keep::keep_as_written`, and named when it cannot be;
//! - classes whose defaults are unknown (imported from the engine's dumps) neither lose
//!   a member equal to gamewire's zero nor gain one the input left out;
//! - an asset's `loadBehavior` by name or value (AssetJsonSerializer.cpp reads it with
//!   the enum serializer).

use gamewire_o3de::keep::{canonical_with_unknown_defaults, keep_as_written};
use gamewire_o3de::{
    load, serde_json, store, LoadOptions, Outcome, Registry, StoreOptions, TypeExpr, Value,
};
use serde_json::{json, Value as Json};

const ENTITY_ID_UUID: &str = "{6383F1D3-BB27-4E6B-A49A-6409B2059EAA}";
const INVALID: u64 = u64::MAX;

fn aliases() -> LoadOptions {
    LoadOptions {
        entity_id_aliases: true,
        ..LoadOptions::default()
    }
}

fn reg(j: Json) -> Registry {
    Registry::from_json(&j).unwrap()
}

#[test]
fn entity_id_without_a_mapper_is_an_object_with_an_id() {
    let r = Registry::default();
    let t = TypeExpr::EntityId;
    let plain = LoadOptions::default();
    let (v, rep) = load(&r, &t, &json!({"id": 42}), &plain);
    assert_eq!(v, Value::UInt(42));
    assert_eq!(rep.outcome(), Outcome::Success);
    // The id goes through the u64 serializer: text is read as a number.
    let (v, rep) = load(&r, &t, &json!({"id": "1155164325235"}), &plain);
    assert_eq!(v, Value::UInt(1155164325235));
    assert_eq!(rep.outcome(), Outcome::Success);
    // No `id` member, `{}`, or not an object: defaults (the invalid id), as O3DE.
    for j in [json!({"other": 1}), json!({}), json!(5), json!(true)] {
        let (v, rep) = load(&r, &t, &j, &plain);
        assert_eq!(v, Value::UInt(INVALID), "{j}");
        assert_eq!(rep.outcome(), Outcome::DefaultsUsed, "{j}");
    }
    // An alias outside a prefab: left as it was, and said (O3DE would silently use
    // the invalid id).
    let (v, rep) = load(&r, &t, &json!("Entity_[1]"), &plain);
    assert_eq!(v, Value::UInt(INVALID));
    assert_eq!(rep.outcome(), Outcome::Unsupported);
    // Stored as `{"id": n}`.
    let (j, rep) = store(&r, &t, &Value::UInt(42), &StoreOptions::default());
    assert_eq!(j, json!({"id": 42}));
    assert_eq!(rep.outcome(), Outcome::Success);
}

#[test]
fn entity_id_through_the_prefab_mapper_is_the_alias() {
    let r = Registry::default();
    let t = TypeExpr::EntityId;
    for alias in [
        "Entity_[1155164325235]",
        "ContainerEntity",
        "../Instance_[1]/Entity_[2]",
    ] {
        let (v, rep) = load(&r, &t, &json!(alias), &aliases());
        assert_eq!(v, Value::String(alias.into()));
        assert_eq!(rep.outcome(), Outcome::Success);
        let opts = StoreOptions {
            entity_id_aliases: true,
            ..StoreOptions::default()
        };
        assert_eq!(store(&r, &t, &v, &opts).0, json!(alias));
    }
    // "" is no entity, written back as "" (the mapper never reports a default).
    let (v, rep) = load(&r, &t, &json!(""), &aliases());
    assert_eq!(v, Value::UInt(INVALID));
    assert_eq!(rep.outcome(), Outcome::Success);
    let opts = StoreOptions {
        entity_id_aliases: true,
        ..StoreOptions::default()
    };
    assert_eq!(store(&r, &t, &v, &opts).0, json!(""));
    // A number in a prefab is not an alias: left as it was, and said.
    let (v, rep) = load(&r, &t, &json!(1234), &aliases());
    assert_eq!(v, Value::UInt(INVALID));
    assert_eq!(rep.outcome(), Outcome::Unsupported);
}

#[test]
fn entity_id_is_found_by_its_type_id_even_where_a_registry_lists_it_as_a_class() {
    // A registry imported before gamewire knew the serializer lists EntityId as a
    // class with an `id` field; O3DE picks the serializer by type id.
    let r = reg(json!({"classes": [
        {"name": "EntityId", "uuid": ENTITY_ID_UUID, "fields": [{"name": "id", "type": "u64"}]},
        {"name": "Holder", "fields": [
            {"name": "ByName", "type": "EntityId"},
            {"name": "ById", "type": ENTITY_ID_UUID},
            {"name": "Any", "type": "any"}]}
    ]}));
    let holder = r.parse_type("Holder").unwrap();
    let c = &r.classes[r.classes_named("Holder")[0]];
    assert_eq!(c.fields[0].ty, TypeExpr::EntityId);
    assert_eq!(c.fields[1].ty, TypeExpr::EntityId);
    let input = json!({"ByName": "Entity_[7]", "ById": "ContainerEntity",
                       "Any": {"$type": ENTITY_ID_UUID, "Value": "Entity_[9]"}});
    let (v, rep) = load(&r, &holder, &input, &aliases());
    assert_eq!(rep.outcome(), Outcome::Success, "{:?}", rep.issues);
    let f = v.as_object().unwrap();
    assert_eq!(f[0], Value::String("Entity_[7]".into()));
    assert_eq!(f[1], Value::String("ContainerEntity".into()));
    match &f[2] {
        Value::Any(Some(b)) => assert_eq!(b.0, TypeExpr::EntityId),
        other => panic!("{other:?}"),
    }
}

#[test]
fn what_a_load_does_not_take_is_put_back_as_written() {
    let r = reg(json!({"classes": [
        {"name": "Inner", "fields": [{"name": "On", "type": "bool"}, {"name": "N", "type": "i32"}]},
        {"name": "Outer", "fields": [
            {"name": "Flag", "type": "bool"},
            {"name": "Items", "type": "vector<Inner>"},
            {"name": "Tags", "type": "set<string>"},
            {"name": "Inner", "type": "Inner"}]}
    ]}));
    let t = r.parse_type("Outer").unwrap();
    let input = json!({
        "flag": [1],                                   // cannot be read: kept
        "Note": {"x": 1},                              // no field: kept
        "Items": [{"On": true}, {"On": {"no": 1}, "Extra": 2}],
        "Tags": ["b", "a", {"bad": 1}],                // a set: kept whole
        "Inner": {"N": "12", "Mystery": null}
    });
    let (v, rep) = load(&r, &t, &input, &LoadOptions::default());
    let (mut stored, _) = store(&r, &t, &v, &StoreOptions::default());
    let kept = keep_as_written(&r, &t, &input, &mut stored, &rep.issues);
    assert!(kept.lost.is_empty(), "{:?}", kept.lost);
    assert_eq!(stored["Flag"], json!([1]));
    assert_eq!(stored["Note"], json!({"x": 1}));
    // Only the failed element's members go back; the good element keeps its stored form.
    assert_eq!(stored["Items"][0], json!({"On": true}));
    assert_eq!(stored["Items"][1]["On"], json!({"no": 1}));
    assert_eq!(stored["Items"][1]["Extra"], 2);
    assert_eq!(stored["Tags"], input["Tags"]);
    // A coerced value keeps its stored form beside the member kept.
    assert_eq!(stored["Inner"]["N"], 12);
    assert_eq!(stored["Inner"]["Mystery"], Json::Null);
    let paths: Vec<&str> = kept.kept.iter().map(|k| k.path.as_str()).collect();
    for p in [
        "/Flag",
        "/Note",
        "/Items/1/On",
        "/Items/1/Extra",
        "/Tags",
        "/Inner/Mystery",
    ] {
        assert!(paths.contains(&p), "{p}: {paths:?}");
    }
    // An issue the input cannot place is named as lost, never silently dropped.
    let mut bogus = rep.issues.clone();
    bogus[0].path = "/Gone/Away".into();
    let (mut stored, _) = store(&r, &t, &v, &StoreOptions::default());
    let kept = keep_as_written(&r, &t, &input, &mut stored, &bogus);
    assert_eq!(kept.lost.len(), 1);
    assert_eq!(kept.lost[0].path, "/Gone/Away");
}

#[test]
fn unknown_defaults_neither_drop_nor_add_members() {
    // As `registry import` writes a class: its defaults are not known.
    let r = reg(json!({"classes": [
        {"name": "Light", "defaults_known": false, "fields": [
            {"name": "On", "type": "bool"},
            {"name": "Intensity", "type": "f32"},
            {"name": "Tint", "type": "Color"},
            {"name": "Mode", "type": "u32"}]}
    ]}));
    let t = r.parse_type("Light").unwrap();
    // `On` is false, gamewire's zero: still written. `Mode` was not given: not added.
    // The color gave three channels: its alpha is unknown, so it stays as written.
    let input = json!({"On": "false", "Intensity": 0, "Tint": [0.5, 0.25, 1.0]});
    let (v, _) = load(&r, &t, &input, &LoadOptions::default());
    let (stored, _) = store(&r, &t, &v, &StoreOptions::default());
    let out = canonical_with_unknown_defaults(&r, &t, &input, stored);
    assert_eq!(
        out,
        json!({"On": false, "Intensity": 0.0, "Tint": [0.5, 0.25, 1.0]})
    );
    // A class whose defaults are known leaves defaults out, as O3DE's store does.
    let known = reg(json!({"classes": [
        {"name": "Light", "fields": [{"name": "On", "type": "bool"}, {"name": "Mode", "type": "u32"}]}
    ]}));
    let t = known.parse_type("Light").unwrap();
    let input = json!({"On": false, "Mode": 2});
    let (v, _) = load(&known, &t, &input, &LoadOptions::default());
    let (stored, _) = store(&known, &t, &v, &StoreOptions::default());
    assert_eq!(
        canonical_with_unknown_defaults(&known, &t, &input, stored),
        json!({"Mode": 2})
    );
}

#[test]
fn an_assets_load_behavior_is_read_by_name_or_value_and_never_dropped() {
    let r = Registry::default();
    let t = TypeExpr::Asset("ModelAsset".into());
    let guid = "{9B0A0F3A-0B1C-4D2E-8F90-123456789ABC}";
    for (lb, name) in [
        (json!("QueueLoad"), "QueueLoad"),
        (json!(1), "QueueLoad"),
        (json!(2), "NoLoad"),
        (json!(0), "PreLoad"),
    ] {
        let input = json!({"assetId": {"guid": guid, "subId": 1}, "loadBehavior": lb, "assetHint": "a.azmodel"});
        let (v, _) = load(&r, &t, &input, &LoadOptions::default());
        let (j, _) = store(&r, &t, &v, &StoreOptions::default());
        assert_eq!(j["loadBehavior"], name, "{input}");
    }
    // A value that is neither is reported, and kept as written by the keeper.
    let input = json!({"assetId": {"guid": guid}, "loadBehavior": 9, "assetHint": "a.azmodel"});
    let (v, rep) = load(&r, &t, &input, &LoadOptions::default());
    assert_eq!(rep.outcome(), Outcome::Unsupported);
    let (mut stored, _) = store(&r, &t, &v, &StoreOptions::default());
    let kept = keep_as_written(&r, &t, &input, &mut stored, &rep.issues);
    assert!(kept.lost.is_empty());
    assert_eq!(stored, input);
}

#[test]
fn az_name_is_read_and_written_as_a_string() {
    // NameJsonSerializer.cpp: loaded through the string serializer, stored as a string
    // left out when equal to the default. Found by its type id, as in imported dumps.
    let r = reg(json!({"classes": [{"name": "Pass", "fields": [
        {"name": "Name", "type": "{3D2B920C-9EFD-40D5-AAE0-DF131C3D4931}"},
        {"name": "Other", "type": "{3D2B920C-9EFD-40D5-AAE0-DF131C3D4931}"}]}]}));
    let t = r.parse_type("Pass").unwrap();
    let c = &r.classes[r.classes_named("Pass")[0]];
    assert_eq!(c.fields[0].ty, TypeExpr::String);
    let (v, rep) = load(
        &r,
        &t,
        &json!({"Name": "BloomPass", "Other": 12}),
        &LoadOptions::default(),
    );
    assert_eq!(rep.outcome(), Outcome::Success);
    let (j, _) = store(&r, &t, &v, &StoreOptions::default());
    assert_eq!(j, json!({"Name": "BloomPass", "Other": "12"}));
}

mod random {
    //! Random members and values of every kind, well typed or not: the canonical form of
    //! a class whose defaults are unknown has exactly the input's members, and nothing
    //! the load did not take is lost.
    use super::*;
    use proptest::prelude::*;

    fn registry() -> Registry {
        reg(json!({
            "enums": [{"name": "Flags", "underlying": "u32", "values": {"None": 0, "A": 1, "B": 2}}],
            "classes": [
                {"name": "Base", "defaults_known": false, "fields": [{"name": "b", "type": "i64"}]},
                {"name": "Derived", "defaults_known": false, "bases": ["Base"],
                 "fields": [{"name": "d", "type": "string"}]},
                {"name": "Root", "defaults_known": false, "fields": [
                    {"name": "i", "type": "i32"}, {"name": "s", "type": "string"},
                    {"name": "c", "type": "Color"}, {"name": "e", "type": "Flags"},
                    {"name": "id", "type": "EntityId"}, {"name": "list", "type": "vector<i32>"},
                    {"name": "tags", "type": "unordered_set<string>"},
                    {"name": "smap", "type": "map<string, Derived>"}, {"name": "ptr", "type": "Base*"},
                    {"name": "objs", "type": "vector<Derived>"}, {"name": "t", "type": "Transform"}
                ]}
            ]
        }))
    }

    fn leaf() -> impl Strategy<Value = Json> {
        prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i32>().prop_map(Json::from),
            "[a-zA-Z0-9_]{0,6}".prop_map(Json::from),
            Just(json!({})),
        ]
    }

    fn value() -> impl Strategy<Value = Json> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                prop::collection::btree_map(
                    prop_oneof![
                        Just("b".to_string()),
                        Just("d".to_string()),
                        Just("$type".to_string()),
                        "[a-z]{1,3}"
                    ],
                    inner,
                    0..4
                )
                .prop_map(|m| Json::Object(m.into_iter().collect())),
            ]
        })
    }

    fn root() -> impl Strategy<Value = Json> {
        let names = prop_oneof![
            Just("i"),
            Just("s"),
            Just("c"),
            Just("e"),
            Just("id"),
            Just("list"),
            Just("tags"),
            Just("smap"),
            Just("ptr"),
            Just("objs"),
            Just("t"),
            Just("extra"),
            Just("zz")
        ];
        prop::collection::btree_map(names.prop_map(String::from), value(), 0..8)
            .prop_map(|m| Json::Object(m.into_iter().collect()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn unknown_defaults_keep_exactly_the_input_members(input in root()) {
            let r = registry();
            let t = r.parse_type("Root").unwrap();
            for opts in [LoadOptions::default(), aliases()] {
                let (v, rep) = load(&r, &t, &input, &opts);
                let (mut stored, _) = store(&r, &t, &v, &StoreOptions::default());
                let kept = keep_as_written(&r, &t, &input, &mut stored, &rep.issues);
                prop_assert!(kept.lost.is_empty(), "{:?}", kept.lost);
                let out = canonical_with_unknown_defaults(&r, &t, &input, stored);
                let a: Vec<&String> = input.as_object().unwrap().keys().collect();
                let mut b: Vec<&String> = out.as_object().unwrap().keys().collect();
                let mut a2 = a.clone();
                a2.sort();
                b.sort();
                prop_assert_eq!(a2, b, "{} -> {}", input, out);
                // Every value the load could not take is there as written.
                for i in rep.issues.iter().filter(|i| gamewire_o3de::keep::not_taken(i)) {
                    let p = &i.path;
                    if let (Some(x), Some(y)) = (input.pointer(p), out.pointer(p)) {
                        prop_assert_eq!(x, y, "{}", p);
                    }
                }
            }
        }
    }
}
