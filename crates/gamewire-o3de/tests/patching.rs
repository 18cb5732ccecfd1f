//! Ports of O3DE's patching tests (`TestCases_Patching.cpp`): JSON Patch and JSON
//! Merge Patch, apply and create, with the same inputs and outcomes.

use gamewire_o3de::patch::{apply_merge_patch, apply_patch, create_merge_patch, create_patch};
use gamewire_o3de::{Outcome, Processing, Task};
use serde_json::{json, Value as Json};

fn j(s: &str) -> Json {
    serde_json::from_str(s).unwrap()
}

#[test]
fn apply_patch_errors() {
    use Outcome::*;
    let cases: &[(&str, &str, Outcome)] = &[
        ("{}", "{}", TypeMismatch),
        ("{}", "[42]", TypeMismatch),
        ("{}", r#"[{ "path": "/test", "value": "test" }]"#, Missing),
        (
            "{}",
            r#"[{ "op": 42, "path": "/test", "value": "test" }]"#,
            TypeMismatch,
        ),
        ("{}", r#"[{ "op": "add", "value": "test" }]"#, Missing),
        (
            "{}",
            r#"[{ "op": "add", "path": 42, "value": "test" }]"#,
            TypeMismatch,
        ),
        (
            "{}",
            r#"[{ "op": "add", "path": "test~", "value": "test" }]"#,
            Invalid,
        ),
        (
            "{}",
            r#"[{ "op": "invalid", "path": "/test", "value": "test" }]"#,
            Unknown,
        ),
        (
            r#"{ "test": {} }"#,
            r#"[{ "op": "add", "path": "/test" }]"#,
            Missing,
        ),
        (
            r#"{ "test": [] }"#,
            r#"[{ "op": "add", "path": "/test/invalid", "value": "test" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": [42] }"#,
            r#"[{ "op": "add", "path": "/test/2", "value": "test" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": 42 }"#,
            r#"[{ "op": "add", "path": "/test/new_member", "value": "test" }]"#,
            TypeMismatch,
        ),
        (
            r#"{ "foo": [ "bar", "qux", "baz" ] }"#,
            r#"[{ "op": "remove", "path": "/foo/1" }, { "op": "remove", "path": "/foo/2" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": { "element": 42 }}"#,
            r#"[{ "op": "remove", "path": "/invalid/element" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": { "element": 42 }}"#,
            r#"[{ "op": "remove", "path": "/test/invalid" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": [42] }"#,
            r#"[{ "op": "remove", "path": "" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": 42 }"#,
            r#"[{ "op": "replace", "path": "/other", "value": 1 }]"#,
            Invalid,
        ),
        (
            r#"{ "test": 42 }"#,
            r#"[{ "op": "move", "path": "/a" }]"#,
            Missing,
        ),
        (
            r#"{ "test": 42 }"#,
            r#"[{ "op": "copy", "from": "/nope", "path": "/a" }]"#,
            Invalid,
        ),
        (
            r#"{ "test": 42 }"#,
            r#"[{ "op": "test", "path": "/test", "value": 43 }]"#,
            TestFailed,
        ),
    ];
    for (target, patch, outcome) in cases {
        let mut t = j(target);
        let r = apply_patch(&mut t, &j(patch));
        assert_eq!(r.result.task(), Task::Merge);
        assert_eq!(r.outcome(), *outcome, "{patch}");
        assert_eq!(r.processing(), Processing::Halted, "{patch}");
    }
}

#[test]
fn apply_patch_success() {
    let cases: &[(&str, &str, &str)] = &[
        (
            r#"{ "foo": "bar"}"#,
            r#"[{ "op": "add", "path": "/baz", "value": "qux" }]"#,
            r#"{"foo": "bar", "baz": "qux"}"#,
        ),
        (
            r#"{ "foo": [ "bar", "baz" ] }"#,
            r#"[{ "op": "add", "path": "/foo/1", "value": "qux" }]"#,
            r#"{ "foo": [ "bar", "qux", "baz" ] }"#,
        ),
        (
            r#"{ "test": [ 142, 242 ] }"#,
            r#"[{ "op": "add", "path": "/test/2", "value": 342 }]"#,
            r#"{ "test": [ 142, 242, 342 ] }"#,
        ),
        (
            r#"{ "test": [ 142, 242 ] }"#,
            r#"[{ "op": "add", "path": "/test/0", "value": 342 }]"#,
            r#"{ "test": [ 342, 142, 242 ] }"#,
        ),
        (
            r#"{ "test": [ 142 ] }"#,
            r#"[{ "op": "add", "path": "/test/-", "value": 342 }]"#,
            r#"{ "test": [ 142, 342 ] }"#,
        ),
        (
            r#"{ "test": {} }"#,
            r#"[{ "op": "add", "path": "", "value": 42 }]"#,
            "42",
        ),
        (
            r#"{ "test": 142 }"#,
            r#"[{ "op": "add", "path": "/", "value": 242 }]"#,
            r#"{ "test": 142, "": 242 }"#,
        ),
        (
            r#"{ "baz": "qux", "foo": "bar" }"#,
            r#"[{ "op": "remove", "path": "/baz" }]"#,
            r#"{ "foo": "bar" }"#,
        ),
        (
            r#"{ "foo": [ "bar", "qux", "baz" ] }"#,
            r#"[{ "op": "remove", "path": "/foo/1" }]"#,
            r#"{ "foo": [ "bar", "baz" ] }"#,
        ),
        (
            r#"{ "foo": [ "bar", "qux", "baz" ] }"#,
            r#"[{ "op": "remove", "path": "/foo/2" }, { "op": "remove", "path": "/foo/1" }]"#,
            r#"{ "foo": [ "bar" ] }"#,
        ),
        (
            r#"{ "baz": "qux", "foo": "bar" }"#,
            r#"[{ "op": "replace", "path": "/baz", "value": "boo" }]"#,
            r#"{ "baz": "boo", "foo": "bar" }"#,
        ),
        (
            r#"{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }"#,
            r#"[{ "op": "move", "from": "/foo/waldo", "path": "/qux/thud" }]"#,
            r#"{ "foo": { "bar": "baz" }, "qux": { "corge": "grault", "thud": "fred" } }"#,
        ),
        (
            r#"{ "foo": [ "all", "grass", "cows", "eat" ] }"#,
            r#"[{ "op": "move", "from": "/foo/1", "path": "/foo/3" }]"#,
            r#"{ "foo": [ "all", "cows", "eat", "grass" ] }"#,
        ),
        (
            r#"{ "a": [1] }"#,
            r#"[{ "op": "copy", "from": "/a", "path": "/b" }]"#,
            r#"{ "a": [1], "b": [1] }"#,
        ),
        (
            r#"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#,
            r#"[{ "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": 2 }]"#,
            r#"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#,
        ),
        // O3DE compares numbers as doubles in "test".
        (
            r#"{ "a": 1 }"#,
            r#"[{ "op": "test", "path": "/a", "value": 1.0 }]"#,
            r#"{ "a": 1 }"#,
        ),
        (
            r#"{ "a~b": 1, "c/d": 2 }"#,
            r#"[{ "op": "remove", "path": "/a~0b" }, { "op": "remove", "path": "/c~1d" }]"#,
            "{}",
        ),
    ];
    for (target, patch, expected) in cases {
        let mut t = j(target);
        let r = apply_patch(&mut t, &j(patch));
        assert_eq!(r.outcome(), Outcome::Success, "{patch}: {r:?}");
        assert_eq!(t, j(expected), "{patch}");
    }
}

#[test]
fn merge_patch() {
    // RFC 7386 appendix A, as O3DE's tests use them.
    let cases: &[(&str, &str, &str)] = &[
        (r#"{"a":"b"}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"b":"c"}"#, r#"{"a":"b","b":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"a":null}"#, r#"{}"#),
        (r#"{"a":"b","b":"c"}"#, r#"{"a":null}"#, r#"{"b":"c"}"#),
        (r#"{"a":["b"]}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"c"}"#, r#"{"a":["b"]}"#, r#"{"a":["b"]}"#),
        (
            r#"{"a":{"b": "c"}}"#,
            r#"{"a":{"b":"d","c":null}}"#,
            r#"{"a":{"b":"d"}}"#,
        ),
        (r#"{"a":[{"b":"c"}]}"#, r#"{"a":[1]}"#, r#"{"a":[1]}"#),
        (r#"["a","b"]"#, r#"["c","d"]"#, r#"["c","d"]"#),
        (r#"{"a":"b"}"#, r#"["c"]"#, r#"["c"]"#),
        (r#"{"a":"foo"}"#, "null", "null"),
        (r#"{"a":"foo"}"#, r#""bar""#, r#""bar""#),
        (r#"{"e":null}"#, r#"{"a":1}"#, r#"{"e":null,"a":1}"#),
        (r#"[1,2]"#, r#"{"a":"b","c":null}"#, r#"{"a":"b"}"#),
        (
            r#"{}"#,
            r#"{"a":{"bb":{"ccc":null}}}"#,
            r#"{"a":{"bb":{}}}"#,
        ),
    ];
    for (target, patch, expected) in cases {
        let mut t = j(target);
        let r = apply_merge_patch(&mut t, &j(patch));
        assert_eq!(r.outcome(), Outcome::Success);
        assert_eq!(t, j(expected), "{patch}");
    }
}

#[test]
fn create_patches_round_trip() {
    let cases: &[(&str, &str, Json)] = &[
        (
            r#"{"a": 1}"#,
            r#"{"a": 2}"#,
            json!([{"op": "replace", "path": "/a", "value": 2}]),
        ),
        (
            r#"{"a": 1}"#,
            r#"{"a": 1, "b": [1]}"#,
            json!([{"op": "add", "path": "/b", "value": [1]}]),
        ),
        (
            r#"{"a": 1, "b": 2}"#,
            r#"{"b": 2}"#,
            json!([{"op": "remove", "path": "/a"}]),
        ),
        (
            r#"[1, 2, 3, 4]"#,
            r#"[1, 5]"#,
            json!([{"op": "replace", "path": "/1", "value": 5}, {"op": "remove", "path": "/3"}, {"op": "remove", "path": "/2"}]),
        ),
        (
            r#"[1]"#,
            r#"[1, {"x": null}]"#,
            json!([{"op": "add", "path": "/1", "value": {"x": null}}]),
        ),
        (
            r#"{"a/b": {"c~d": 1}}"#,
            r#"{"a/b": {"c~d": true}}"#,
            json!([{"op": "replace", "path": "/a~1b/c~0d", "value": true}]),
        ),
        (
            r#"5"#,
            r#""x""#,
            json!([{"op": "replace", "path": "", "value": "x"}]),
        ),
        (r#"{"same": [1]}"#, r#"{"same": [1]}"#, json!([])),
    ];
    for (source, target, expected) in cases {
        let (p, r) = create_patch(&j(source), &j(target));
        assert_eq!(r.result.task(), Task::CreatePatch);
        assert!(matches!(
            r.outcome(),
            Outcome::Success | Outcome::DefaultsUsed | Outcome::PartialDefaults
        ));
        assert_eq!(&p, expected, "{source} -> {target}");
        let mut s = j(source);
        let ar = apply_patch(&mut s, &p);
        assert_ne!(ar.processing(), Processing::Halted);
        assert_eq!(s, j(target));
    }
    let cases: &[(&str, &str, Json)] = &[
        (
            r#"{"a": 1, "b": 2}"#,
            r#"{"a": 1, "c": {"d": 3}}"#,
            json!({"c": {"d": 3}, "b": null}),
        ),
        (
            r#"{"a": {"x": 1, "y": 2}}"#,
            r#"{"a": {"x": 1}}"#,
            json!({"a": {"y": null}}),
        ),
        (r#"[1]"#, r#"{"a": [2]}"#, json!({"a": [2]})),
        (r#"{"a": 1}"#, r#"[1]"#, json!([1])),
    ];
    for (source, target, expected) in cases {
        let (p, r) = create_merge_patch(&j(source), &j(target));
        // O3DE combines identical members (DefaultsUsed) with changed ones (Success):
        // PartialDefaults, which TestCases_Patching's CheckCreatePatch_Core accepts.
        assert!(
            matches!(r.outcome(), Outcome::Success | Outcome::PartialDefaults),
            "{source} -> {target}: {r:?}"
        );
        assert_eq!(&p, expected, "{source} -> {target}");
        let mut s = j(source);
        apply_merge_patch(&mut s, &p);
        assert_eq!(s, j(target));
    }
    // Merge patches cannot write nulls.
    for (source, target) in [(r#"{"a": 1}"#, "null"), (r#"[]"#, r#"{"a": null}"#)] {
        let (_, r) = create_merge_patch(&j(source), &j(target));
        assert_eq!(r.outcome(), Outcome::Unsupported, "{source} -> {target}");
    }
}
