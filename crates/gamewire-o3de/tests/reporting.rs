//! Reporting callbacks (O3DE's `m_reporting` settings): the conformity tests
//! `Load_HaltedThroughCallback_LoadFailsAndHaltReported` and
//! `Store_HaltedThroughCallback_StoreFailsAndHaltReported`, and callbacks that watch or
//! soften results.

use gamewire_o3de::{
    load_with_duplicates, load_with_reporting, store, store_with_reporting, Duplicates,
    LoadOptions, Outcome, Processing, Registry, ResultCode, StoreOptions,
};
use serde_json::json;

fn registry() -> Registry {
    Registry::from_json(&json!({
        "classes": [
            {"name": "SimpleClass",
             "fields": [{"name": "var1", "type": "i32", "default": 42},
                        {"name": "var2", "type": "f64", "default": 42.0}]},
            {"name": "Outer", "fields": [
                {"name": "inner", "type": "SimpleClass"},
                {"name": "list", "type": "vector<i32>"}]}
        ]
    }))
    .unwrap()
}

fn catastrophic(message: &str, code: ResultCode, path: &str) -> ResultCode {
    // O3DE's VerifyCallback: every report carries a message and a known code.
    assert!(!message.is_empty(), "{path}");
    assert!(code.outcome() <= Outcome::Catastrophic);
    ResultCode::new(code.task(), Outcome::Catastrophic)
}

#[test]
fn load_halted_through_callback() {
    let reg = registry();
    for (ty, input) in [
        ("i32", json!(7)),
        ("string", json!("hello")),
        ("SimpleClass", json!({"var1": 1, "var2": 2.0})),
        ("vector<i32>", json!([1, 2, 3])),
        ("map<string,f32>", json!({"a": 1.5})),
    ] {
        let t = reg.parse_type(ty).unwrap();
        let mut cb = catastrophic;
        let (_, rep) = load_with_reporting(
            &reg,
            &t,
            input.clone(),
            &Duplicates::default(),
            &LoadOptions::default(),
            &mut cb,
        );
        assert_eq!(rep.outcome(), Outcome::Catastrophic, "{ty}");
        assert_eq!(rep.processing(), Processing::Halted, "{ty}");
    }
}

#[test]
fn store_halted_through_callback() {
    let reg = registry();
    for (ty, input) in [
        ("i32", json!(7)),
        ("SimpleClass", json!({"var1": 1})),
        ("vector<i32>", json!([1, 2, 3])),
    ] {
        let t = reg.parse_type(ty).unwrap();
        let (v, _) = load_with_duplicates(
            &reg,
            &t,
            input,
            &Duplicates::default(),
            &LoadOptions::default(),
        );
        let mut cb = catastrophic;
        let (_, rep) = store_with_reporting(&reg, &t, &v, None, &StoreOptions::default(), &mut cb);
        assert_eq!(rep.outcome(), Outcome::Catastrophic, "{ty}");
        assert_eq!(rep.processing(), Processing::Halted, "{ty}");
    }
}

/// A callback that returns what it is given changes nothing, and sees every value
/// with its JSON Pointer.
#[test]
fn watching_callback_sees_every_value() {
    let reg = registry();
    let t = reg.parse_type("Outer").unwrap();
    let input = json!({"inner": {"var1": "x"}, "list": [1, "2", []]});
    let (plain_v, plain) = load_with_duplicates(
        &reg,
        &t,
        input.clone(),
        &Duplicates::default(),
        &LoadOptions::default(),
    );
    let mut seen: Vec<(String, Outcome)> = Vec::new();
    let mut cb = |_: &str, code: ResultCode, path: &str| {
        seen.push((path.to_string(), code.outcome()));
        code
    };
    let (v, rep) = load_with_reporting(
        &reg,
        &t,
        input,
        &Duplicates::default(),
        &LoadOptions::default(),
        &mut cb,
    );
    assert_eq!(rep, plain);
    assert_eq!(rep.outcome(), Outcome::Unsupported);
    let (a, _) = store(&reg, &t, &v, &StoreOptions::default());
    let (b, _) = store(&reg, &t, &plain_v, &StoreOptions::default());
    assert_eq!(a, b);
    let get = |p: &str| seen.iter().find(|(q, _)| q == p).map(|(_, o)| *o);
    assert_eq!(get("/inner/var1"), Some(Outcome::Unsupported));
    assert_eq!(get("/list/1"), Some(Outcome::Success));
    assert_eq!(get("/list/2"), Some(Outcome::Unsupported));
    assert_eq!(get(""), Some(Outcome::Unsupported));
}

/// A callback can accept what the loader would report: turning `Unsupported` into
/// `Skipped` makes the load `Completed`.
#[test]
fn softening_callback_changes_the_outcome() {
    let reg = registry();
    let t = reg.parse_type("vector<i32>").unwrap();
    let mut cb = |_: &str, code: ResultCode, _: &str| {
        if code.outcome() == Outcome::Unsupported {
            ResultCode::new(code.task(), Outcome::Skipped)
        } else {
            code
        }
    };
    let (v, rep) = load_with_reporting(
        &reg,
        &t,
        json!([1, [], 3]),
        &Duplicates::default(),
        &LoadOptions::default(),
        &mut cb,
    );
    assert_eq!(rep.processing(), Processing::Completed, "{rep:?}");
    // The element now counts as completed, so the container keeps it (with its
    // default value, stored as `{}`), as BasicContainerSerializer keeps every element
    // whose processing is not Altered.
    assert_eq!(
        store(&reg, &t, &v, &StoreOptions::default()).0,
        json!([1, {}, 3])
    );
}
