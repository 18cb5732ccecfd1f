//! Ports of O3DE's patching tests (`TestCases_Patching.cpp`): JSON Patch and JSON
//! Merge Patch, apply and create, with the same inputs and outcomes.

use gamewire_o3de::patch::{
    apply_merge_patch, apply_patch, apply_patch_to_copy, apply_patch_with, create_merge_patch,
    create_patch,
};
use gamewire_o3de::ResultCode;
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

/// `CreatePatch_UseJsonPatch*` from O3DE's `TestCases_Patching.cpp`: (source, target,
/// expected patch); each patch must also turn the source into the target.
#[test]
fn create_patch_o3de_cases() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "42",
            "88",
            r#"[{ "op": "replace", "path": "", "value": 88 }]"#,
        ),
        ("42", "42", "[]"),
        (
            r#"{ "value": "foo" }"#,
            "42",
            r#"[{ "op": "replace", "path": "", "value": 42 }]"#,
        ),
        (
            "42",
            r#"{ "value": "foo" }"#,
            r#"[{ "op": "replace", "path": "", "value": { "value": "foo" } }]"#,
        ),
        (
            "[ 42, 88 ]",
            "42",
            r#"[{ "op": "replace", "path": "", "value": 42 }]"#,
        ),
        (
            "42",
            "[ 42, 88 ]",
            r#"[{ "op": "replace", "path": "", "value": [ 42, 88 ] }]"#,
        ),
        (
            r#"{ "value": "foo" }"#,
            r#"{ "value": "bar" }"#,
            r#"[{ "op": "replace", "path": "/value", "value": "bar" }]"#,
        ),
        (r#"{ "value": "foo" }"#, r#"{ "value": "foo" }"#, "[]"),
        (
            r#"{ "value": "foo" }"#,
            r#"{ "value": 42 }"#,
            r#"[{ "op": "replace", "path": "/value", "value": 42 }]"#,
        ),
        (
            r#"{ "value0": "foo" }"#,
            r#"{ "value0": "foo", "value1": "bar" }"#,
            r#"[{ "op": "add", "path": "/value1", "value": "bar" }]"#,
        ),
        (
            r#"{ "value0": "foo", "value1": "bar" }"#,
            r#"{ "value0": "foo" }"#,
            r#"[{ "op": "remove", "path": "/value1" }]"#,
        ),
        ("{}", "{}", "[]"),
        (
            r#"[ "foo" ]"#,
            r#"[ "bar" ]"#,
            r#"[{ "op": "replace", "path": "/0", "value": "bar" }]"#,
        ),
        (r#"["foo"]"#, r#"["foo"]"#, "[]"),
        (
            r#"[ "foo" ]"#,
            "[ 42 ]",
            r#"[{ "op": "replace", "path": "/0", "value": 42 }]"#,
        ),
        (
            r#"[ "foo" ]"#,
            r#"[ "foo", "bar" ]"#,
            r#"[{ "op": "add", "path": "/1", "value": "bar" }]"#,
        ),
        (
            r#"[ "foo", "bar" ]"#,
            r#"[ "foo", "hello", "bar" ]"#,
            r#"[{ "op": "replace", "path": "/1", "value": "hello" },
                { "op": "add", "path": "/2", "value": "bar" }]"#,
        ),
        (
            r#"[ "foo", "bar" ]"#,
            r#"[ "foo" ]"#,
            r#"[{ "op": "remove", "path": "/1" }]"#,
        ),
        (
            r#"[ "foo", "hello", "bar" ]"#,
            r#"[ "foo", "bar"]"#,
            r#"[{ "op": "replace", "path": "/1", "value": "bar" },
                { "op": "remove", "path": "/2" }]"#,
        ),
        (
            r#"[ "foo", "hello", "bar" ]"#,
            r#"[ "foo" ]"#,
            r#"[{ "op": "remove", "path": "/2" }, { "op": "remove", "path": "/1" }]"#,
        ),
        (
            r#"[ "foo", "hello", "bar" ]"#,
            "[]",
            r#"[{ "op": "remove", "path": "/2" }, { "op": "remove", "path": "/1" },
                { "op": "remove", "path": "/0" }]"#,
        ),
        (
            r#"[ { "foo1": 142, "bar1": 188 }, { "foo2": 242, "bar2": 288 },
                 { "foo3": 342, "bar3": 388 }, { "foo4": 442, "bar4": 488 } ]"#,
            r#"[ { "foo1": 142, "bar1": 188 }, { "foo3": 342, "bar3": 388 },
                 { "foo4": 442, "bar4": 488 } ]"#,
            r#"[ { "op": "add", "path": "/1/foo3", "value": 342 },
                 { "op": "add", "path": "/1/bar3", "value": 388 },
                 { "op": "remove", "path": "/1/foo2" },
                 { "op": "remove", "path": "/1/bar2" },
                 { "op": "add", "path": "/2/foo4", "value": 442 },
                 { "op": "add", "path": "/2/bar4", "value": 488 },
                 { "op": "remove", "path": "/2/foo3" },
                 { "op": "remove", "path": "/2/bar3" },
                 { "op": "remove", "path": "/3" } ]"#,
        ),
        ("[]", "[]", "[]"),
        (
            r#"[ { "foo": 42 }, { "bar": [ 42, 88, { "hello": 88 }, 1024 ] } ]"#,
            r#"[ { "foo": 42 }, { "bar": [ 42, 88, { "hello": 256 }, 1024 ] } ]"#,
            r#"[{ "op": "replace", "path": "/1/bar/2/hello", "value": 256 }]"#,
        ),
    ];
    for (source, target, expected) in cases {
        let (p, r) = create_patch(&j(source), &j(target));
        assert_eq!(r.result.task(), Task::CreatePatch);
        assert!(
            matches!(
                r.outcome(),
                Outcome::Success | Outcome::DefaultsUsed | Outcome::PartialDefaults
            ),
            "{source} -> {target}: {r:?}"
        );
        assert_eq!(p, j(expected), "{source} -> {target}");
        let mut s = j(source);
        let ar = apply_patch(&mut s, &p);
        assert!(
            matches!(
                ar.outcome(),
                Outcome::Success | Outcome::DefaultsUsed | Outcome::PartialDefaults
            ),
            "{source} -> {target}: {ar:?}"
        );
        assert_eq!(s, j(target), "{source} -> {target}");
    }
}

/// `CreatePatch_UseJsonMergePatchOfficialTestCases_AllMergesComplete` and
/// `CreatePatch_UseJsonMergePatchWithUnsupportedTarget_UnsupportedReported` from O3DE's
/// `TestCases_Patching.cpp`: (source, expected patch, target), as O3DE lists them.
#[test]
fn create_merge_patch_o3de_cases() {
    let cases: &[(&str, &str, &str)] = &[
        (r#"{"a":"b"}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"b":"c"}"#, r#"{"a":"b", "b":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"a":null}"#, r#"{}"#),
        (r#"{"a":"b","b":"c"}"#, r#"{"a":null}"#, r#"{"b":"c"}"#),
        (r#"{"a":["b"]}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"c"}"#, r#"{"a":["b"]}"#, r#"{"a":["b"]}"#),
        (
            r#"{"a":{"b":"c"}}"#,
            r#"{"a": {"b":"d"}}"#,
            r#"{"a":{"b":"d"}}"#,
        ),
        (r#"{"a":{"b":"c"}}"#, r#"{"a":[1]}"#, r#"{"a": [1]}"#),
        (r#"["a", "b"]"#, r#"["c", "d"]"#, r#"["c", "d"]"#),
        (r#"{"a":"b"}"#, r#"["c"]"#, r#"["c"]"#),
        (r#"{"a":"foo"}"#, r#""bar""#, r#""bar""#),
        (r#"{"e":null}"#, r#"{"a":1}"#, r#"{"e":null,"a": 1}"#),
        (r#"[1, 2]"#, r#"{"a":"b"}"#, r#"{"a":"b"}"#),
        (r#"{}"#, r#"{"a":{"bb":{}}}"#, r#"{"a":{"bb":{}}}"#),
    ];
    for (source, expected, target) in cases {
        let (p, r) = create_merge_patch(&j(source), &j(target));
        assert_eq!(r.result.task(), Task::CreatePatch);
        assert!(
            matches!(
                r.outcome(),
                Outcome::Success | Outcome::DefaultsUsed | Outcome::PartialDefaults
            ),
            "{source} -> {target}: {r:?}"
        );
        assert_eq!(p, j(expected), "{source} -> {target}");
        let mut s = j(source);
        let ar = apply_merge_patch(&mut s, &p);
        assert_eq!(ar.outcome(), Outcome::Success);
        assert_eq!(s, j(target), "{source} -> {target}");
    }
    for (source, target) in [
        (r#"{"a":42}"#, "null"),
        (r#"{"a":42}"#, r#"{"a":null}"#),
        ("42", r#"{"a":null}"#),
        ("42", r#"{"a": { "b": null }}"#),
    ] {
        let (_, r) = create_merge_patch(&j(source), &j(target));
        assert_eq!(r.result.task(), Task::CreatePatch);
        assert_eq!(r.outcome(), Outcome::Unsupported, "{source} -> {target}");
    }
}

/// The `ApplyPatch_UseJsonPatch*` cases of O3DE's `TestCases_Patching.cpp` not listed
/// above: (target, patch, outcome, processing, document afterwards when O3DE checks it).
#[test]
fn apply_patch_o3de_cases() {
    use Outcome::*;
    use Processing::*;
    let cases: &[(&str, &str, Outcome, Processing, Option<&str>)] = &[
        (
            r#"{ "baz": "qux", "foo": "bar" }"#,
            r#"[{ "op": "replace", "path": "/foo", "value": 626172 }]"#,
            Success,
            Completed,
            Some(r#"{ "baz": "qux", "foo": 626172 }"#),
        ),
        (
            r#"{ "foo": [ "bar", "qux", "baz" ] }"#,
            r#"[{ "op": "replace", "path": "/foo/1", "value": 42 }]"#,
            Success,
            Completed,
            Some(r#"{ "foo": [ "bar", 42, "baz" ] }"#),
        ),
        (
            r#"{ "test": {}}"#,
            r#"[{ "op": "replace", "path": "/test" }]"#,
            Missing,
            Halted,
            None,
        ),
        (
            r#"{ "test": { "member": 42 }}"#,
            r#"[{ "op": "replace", "path": "/test/invalid", "value": 88 }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "test": [42] }"#,
            r#"[{ "op": "remove", "path": "/test/2" }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "test": { "element": 42 }}"#,
            r#"[{ "op": "remove", "path": "" }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            "{}",
            r#"[{ "op": "move", "path": "/test/invalid" }]"#,
            Missing,
            Halted,
            None,
        ),
        (
            "{}",
            r#"[{ "op": "move", "path": "/test", "from": 42 }]"#,
            TypeMismatch,
            Halted,
            None,
        ),
        (
            "{}",
            r#"[{ "op": "move", "path": "/test", "from": "test~" }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "test": { "Member1": "Value1" } }"#,
            r#"[{ "op": "move", "path": "/test", "from": "/test/invalid" }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "test": { "Member1": { "Member2" : "ValueNested" } } }"#,
            r#"[{ "op": "move", "path": "/test/Member1", "from": "/test" }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "Member1": "Value1", "Member2": "Value2" }"#,
            r#"[{ "op": "copy", "from": "/Member1", "path": "/Member3" }]"#,
            Success,
            Completed,
            Some(r#"{ "Member1": "Value1", "Member2": "Value2", "Member3": "Value1" }"#),
        ),
        (
            r#"{ "test": { "Member1": { "Nested" : "ValueNested" } } }"#,
            r#"[{ "op": "copy", "from": "/test/Member1", "path": "/test/Member1/NewMember" }]"#,
            Success,
            Completed,
            Some(
                r#"{ "test": { "Member1": { "Nested" : "ValueNested",
                     "NewMember" : { "Nested" : "ValueNested" } } } }"#,
            ),
        ),
        (
            r#"{ "baz": "qux" }"#,
            r#"[{ "op": "test", "path": "/baz", "value": "bar" }]"#,
            TestFailed,
            Halted,
            None,
        ),
        (
            "{}",
            r#"[{ "op": "test", "path": "/test" }]"#,
            Missing,
            Halted,
            None,
        ),
        (
            r#"{ "test": { "Member1": "Value1" } }"#,
            r#"[{ "op": "test", "path": "/test/invalid", "value": 42 }]"#,
            Invalid,
            Halted,
            None,
        ),
        (
            r#"{ "foo": "bar" }"#,
            r#"[{ "op": "add", "path": "/child", "value": { "grandchild": { } } }]"#,
            Success,
            Completed,
            Some(r#"{ "foo": "bar", "child": { "grandchild": {} } }"#),
        ),
        (
            r#"{ "foo": "bar" }"#,
            r#"[{ "op": "add", "path": "/baz", "value": "qux", "xyz": 123 }]"#,
            Success,
            Completed,
            Some(r#"{ "foo": "bar", "baz": "qux" }"#),
        ),
        (
            r#"{ "foo": "bar" }"#,
            r#"[{ "op": "add", "path": "/baz/bat", "value": "qux" }]"#,
            Invalid,
            Halted,
            None,
        ),
        // A.13: duplicated arguments. O3DE succeeds where RFC 6902 says fail.
        (
            r#"{ "baz": {} }"#,
            r#"[{ "op": "add", "path": "/baz", "value": "qux", "op": "remove" }]"#,
            Success,
            Completed,
            None,
        ),
        (
            r#"{ "/": 9, "~1": 10 }"#,
            r#"[{"op": "test", "path": "/~01", "value": 10}]"#,
            Success,
            Completed,
            Some(r#"{ "/": 9, "~1": 10 }"#),
        ),
        (
            r#"{ "/": 9, "~1": 10 }"#,
            r#"[{"op": "test", "path": "/~01", "value": "10"}]"#,
            TestFailed,
            Halted,
            None,
        ),
        (
            r#"{ "foo": ["bar"] }"#,
            r#"[{ "op": "add", "path": "/foo/-", "value": ["abc", "def"] }]"#,
            Success,
            Completed,
            Some(r#"{ "foo": ["bar", ["abc", "def"]] }"#),
        ),
    ];
    for (target, patch, outcome, processing, expected) in cases {
        let mut t = j(target);
        let r = apply_patch(&mut t, &j(patch));
        assert_eq!(r.result.task(), Task::Merge, "{patch}");
        assert_eq!(r.outcome(), *outcome, "{patch}: {r:?}");
        assert_eq!(r.processing(), *processing, "{patch}");
        if let Some(e) = expected {
            assert_eq!(t, j(e), "{patch}");
        }
    }
}

/// `ApplyPatch_UseJsonPatchWithCustomReportingCallback_ReportPartialSkip`: a callback
/// that turns halting errors into `PartialSkip` lets the rest of the patch apply.
#[test]
fn apply_patch_reporting_callback_can_skip_errors() {
    let mut seen = Vec::new();
    let mut callback = |msg: &str, code: ResultCode, path: &str| {
        seen.push((msg.to_string(), path.to_string()));
        if code.processing() == Processing::Halted {
            ResultCode::new(code.task(), Outcome::PartialSkip)
        } else {
            code
        }
    };
    let mut t = j("{}");
    let r = apply_patch_with(
        &mut t,
        &j(r#"[
            { "op": "add", "path": "/nonexistent_key/new_member", "value": "someValue" },
            { "op": "add", "path": "/test", "value": "someValue" }
        ]"#),
        &mut callback,
    );
    assert_eq!(r.result.task(), Task::Merge);
    assert_eq!(r.outcome(), Outcome::PartialSkip);
    assert_eq!(r.processing(), Processing::Completed);
    assert_eq!(t, json!({ "test": "someValue" }));
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].1, "/0");
}

/// `ApplyPatch_CopiedSourceOverload_DefaultObject` and
/// `ApplyPatch_CopiedSourceReturnsDefaultOnError_DefaultObject`.
#[test]
fn apply_patch_to_a_copy() {
    let (out, r) = apply_patch_to_copy(
        &j(r#"{ "value0": 42 }"#),
        &j(r#"[{ "op": "add", "path": "/value1", "value": 88 }]"#),
    );
    assert_eq!(r.processing(), Processing::Completed);
    assert_eq!(out, json!({ "value0": 42, "value1": 88 }));
    let (out, r) = apply_patch_to_copy(&j(r#"{ "value": 42 }"#), &j("{}"));
    assert_eq!(r.processing(), Processing::Halted);
    assert_eq!(out, json!({}));
}
