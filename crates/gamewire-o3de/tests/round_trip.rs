//! Property tests: for random valid input, load → store → load gives the same value,
//! with and without keep-defaults.

use gamewire_o3de::{load, store, LoadOptions, Processing, Registry, StoreOptions};
use proptest::prelude::*;
use serde_json::{json, Value as Json};

fn registry() -> Registry {
    Registry::from_json(&json!({
        "enums": [{"name": "Flags", "underlying": "u32", "values": {"None": 0, "A": 1, "B": 2, "AB": 3, "C": 8}}],
        "classes": [
            {"name": "Base", "fields": [{"name": "b", "type": "i64", "default": 7}]},
            {"name": "Derived", "bases": ["Base"], "fields": [{"name": "d", "type": "string"}]},
            {"name": "Root", "fields": [
                {"name": "i", "type": "i32"}, {"name": "u", "type": "u8", "default": 3},
                {"name": "f", "type": "f64"}, {"name": "g", "type": "f32"},
                {"name": "s", "type": "string", "default": "x"}, {"name": "t", "type": "bool"},
                {"name": "id", "type": "Uuid"}, {"name": "v", "type": "Vector3"},
                {"name": "c", "type": "Color"}, {"name": "e", "type": "Flags"},
                {"name": "list", "type": "vector<i32>"}, {"name": "tags", "type": "unordered_set<string>"},
                {"name": "smap", "type": "unordered_map<string, i32>"}, {"name": "imap", "type": "map<i32, string>"},
                {"name": "pair", "type": "pair<i16, string>"}, {"name": "ptr", "type": "Base*"},
                {"name": "objs", "type": "vector<Derived>"}
            ]}
        ]
    }))
    .unwrap()
}

fn float() -> impl Strategy<Value = f64> {
    (-1_000_000i32..1_000_000).prop_map(|x| x as f64 / 64.0)
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _]{0,8}"
}

prop_compose! {
    fn root()(
        i in any::<i32>(), u in any::<u8>(), f in float(), g in float(), s in text(), t in any::<bool>(),
        id in any::<[u8; 16]>(), v in prop::array::uniform3(float()), c in prop::array::uniform4(float()),
        e in 0u32..16, list in prop::collection::vec(any::<i32>(), 0..5),
        tags in prop::collection::vec(text(), 0..5),
        smap in prop::collection::vec((text(), any::<i32>()), 0..5),
        imap in prop::collection::vec((any::<i32>(), text()), 0..5),
        pair in (any::<i16>(), text()), ptr in 0u8..3, pb in any::<i64>(), pd in text(),
        objs in prop::collection::vec((any::<i64>(), text()), 0..3),
    ) -> Json {
        let uuid = format!("{{{}}}", id.iter().map(|b| format!("{b:02X}")).collect::<String>());
        let ptr = match ptr { 0 => Json::Null, 1 => json!({"b": pb}), _ => json!({"$type": "Derived", "b": pb, "d": pd}) };
        json!({
            "i": i, "u": u, "f": f, "g": g, "s": s, "t": t, "id": uuid, "v": v, "c": c, "e": e,
            "list": list, "tags": tags,
            "smap": smap.into_iter().map(|(k, v)| (k, json!(v))).collect::<serde_json::Map<String, Json>>(),
            "imap": imap.iter().map(|(k, v)| json!({"Key": k, "Value": v})).collect::<Vec<_>>(),
            "pair": [pair.0, pair.1], "ptr": ptr,
            "objs": objs.iter().map(|(b, d)| json!({"b": b, "d": d})).collect::<Vec<_>>(),
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn load_store_load(input in root()) {
        let reg = registry();
        let ty = reg.parse_type("Root").unwrap();
        let (v, rep) = load(&reg, &ty, &input, &LoadOptions::default());
        prop_assert_ne!(rep.processing(), Processing::Halted);
        for keep in [false, true] {
            let (j, srep) = store(&reg, &ty, &v, &StoreOptions { keep_defaults: keep, ..Default::default() });
            prop_assert_eq!(srep.processing(), Processing::Completed);
            let (v2, rep2) = load(&reg, &ty, &j, &LoadOptions::default());
            prop_assert_eq!(rep2.processing(), Processing::Completed, "{:?}", rep2.issues);
            prop_assert_eq!(&v2, &v, "keep={} json={}", keep, j);
        }
    }
}
