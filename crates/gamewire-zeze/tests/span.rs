//! Byte spans of values at JSON Pointers (`gamewire_zeze::span`), against positions read
//! by hand in bytes Zeze's own Java ByteBuffer wrote (tests/fixtures/zeze/vectors) and in
//! the sample frame stream; every pointer is checked to name a value of the JSON too.

use gamewire_zeze::json::{bean_to_json, unhex};
use gamewire_zeze::span::{bean_span, frames_span, Span};
use gamewire_zeze::{decode, Options};
use serde_json::Value as J;

fn vectors() -> J {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/vectors/vectors.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture file")).unwrap()
}

fn toks(p: &str) -> Vec<String> {
    p.split('/').skip(1).map(str::to_owned).collect()
}

/// The bean named `name` among the vectors: its bytes and JSON.
fn bean(name: &str) -> (Vec<u8>, J) {
    let v = vectors();
    let b = v["beans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .expect("a vector");
    let data = unhex(b["hex"].as_str().unwrap()).unwrap();
    let json = bean_to_json(&decode(&data, &Options::default()).unwrap());
    (data, json)
}

/// Checks that `p` names a value of `json`, and gives its span.
fn at(data: &[u8], json: &J, p: &str) -> (usize, usize) {
    assert!(json.pointer(p).is_some(), "{p} is not in {json}");
    let Span { range, own } = bean_span(data, &toks(p), &Options::default()).unwrap();
    assert!(own, "{p}");
    (range.start, range.len())
}

#[test]
fn scalars_of_a_flat_bean() {
    // 10 4096 | 23 02 6869 | 11 0000c03f | 12 00..c0 | f000 01 | 13 03 010203 | 00
    let (d, j) = bean("BSimple");
    assert_eq!(at(&d, &j, ""), (0, d.len()));
    assert_eq!(at(&d, &j, "/1"), (1, 2));
    // A string: its length prefix and text.
    assert_eq!(at(&d, &j, "/3"), (4, 3));
    assert_eq!(&d[4..7], b"\x02hi");
    assert_eq!(at(&d, &j, "/4/float"), (8, 4));
    assert_eq!(at(&d, &j, "/5"), (13, 8));
    // Field 20: an extended tag (f0 00), then 01.
    assert_eq!(at(&d, &j, "/20"), (23, 1));
    assert_eq!(at(&d, &j, "/21"), (25, 4));
}

#[test]
fn nested_beans_lists_maps_vectors_and_sets() {
    // 16 [10 05 13 016e 00] 14 [30 01 ff 412c] 14 [26 100100 00] 15 [36 01 016b 100700]
    // 28 [0000803f 00000040] 1b [01 fe 03] 14 [13 0161] 00
    let (d, j) = bean("BOuter");
    assert_eq!(at(&d, &j, "/1"), (1, 6));
    assert_eq!(at(&d, &j, "/1/2"), (4, 2));
    assert_eq!(at(&d, &j, "/2"), (8, 5));
    assert_eq!(at(&d, &j, "/2/items"), (9, 4));
    assert_eq!(at(&d, &j, "/4/entries"), (22, 5));
    assert_eq!(at(&d, &j, "/2/items/1"), (10, 1));
    assert_eq!(at(&d, &j, "/2/items/2"), (11, 2));
    assert_eq!(at(&d, &j, "/3/items/1"), (18, 1));
    assert_eq!(at(&d, &j, "/4/entries/0"), (22, 5));
    assert_eq!(at(&d, &j, "/4/entries/0/0"), (22, 2));
    assert_eq!(at(&d, &j, "/4/entries/0/1/1"), (25, 1));
    assert_eq!(at(&d, &j, "/6/vector2"), (28, 8));
    assert_eq!(at(&d, &j, "/6/vector2/1"), (32, 4));
    assert_eq!(at(&d, &j, "/7/vector3int/1"), (38, 1));
    assert_eq!(at(&d, &j, "/8/items/0"), (42, 2));
    // The list's type comes from the header that holds its count too.
    let s = bean_span(&d, &toks("/2/list"), &Options::default()).unwrap();
    assert_eq!((s.range, s.own), (8..9, false));
    let s = bean_span(&d, &toks("/4/map/1"), &Options::default()).unwrap();
    assert_eq!((s.range, s.own), (20..22, false));
    for missing in [
        "/4/map/2",
        "/5",
        "/2/items/3",
        "/6/1",
        "/4/entries/0/2",
        "/1/base",
    ] {
        let e = bean_span(&d, &toks(missing), &Options::default()).unwrap_err();
        assert!(e.starts_with(&format!("no value at \"{missing}\"")), "{e}");
    }
}

#[test]
fn inheritance_levels() {
    // 10 03 01 10 02 01 10 01 00
    let (d, j) = bean("Final extends Derive extends Base");
    assert_eq!(at(&d, &j, "/1"), (1, 1));
    assert_eq!(at(&d, &j, "/base"), (3, 6));
    assert_eq!(at(&d, &j, "/base/1"), (4, 1));
    assert_eq!(at(&d, &j, "/base/base/1"), (7, 1));
}

#[test]
fn frames() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/session.frames.zeze"
    );
    let d = std::fs::read(path).unwrap();
    let o = Options::default();
    let at = |p: &str| {
        let s = frames_span(&d, &toks(p), &o).unwrap();
        (s.range.start, s.range.len(), s.own)
    };
    // Frame 0: header 0..12 (size 31), family 02, then BSimple's bean.
    assert_eq!(at("/0"), (0, 43, true));
    assert_eq!(at("/0/module"), (0, 4, true));
    assert_eq!(at("/0/protocol"), (4, 4, true));
    assert_eq!(at("/0/family"), (12, 1, false));
    assert_eq!(at("/0/bean"), (13, 30, true));
    assert_eq!(at("/0/bean/3"), (17, 3, true));
    assert_eq!(&d[17..20], b"\x02hi");
    // Frame 1 at 43: a request (01), session id 05, a bean.
    assert_eq!(at("/1"), (43, 59, true));
    assert_eq!(at("/1/session_id"), (56, 1, true));
    // Frame 2 at 102: a response with a result code: 20 07 05 00.
    assert_eq!(at("/2/result_code"), (115, 1, true));
    assert_eq!(at("/2/session_id"), (116, 1, true));
    assert_eq!(at("/2/bean"), (117, 1, true));
    assert_eq!(d.len(), 118);
    for missing in ["/3", "/0/session_id", "/0/raw", "/x"] {
        assert!(frames_span(&d, &toks(missing), &o).is_err(), "{missing}");
    }
}

// ---- beans read with their schema (typed JSON, variables by name) ---------------------

/// The solution of the vectors' beans (samples/zeze/zeze-solution.xml).
fn solution() -> gamewire_zeze::schema::Schema {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/zeze-solution.xml"
    );
    gamewire_zeze::schema::Schema::from_xml(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The typed span at `p` of the vector `vector` read as bean `name`, checking that `p`
/// names a value of the typed JSON: `None` for a value the bytes do not hold.
fn typed_at(vector: &str, name: &str, p: &str) -> Option<(usize, usize, bool)> {
    let s = solution();
    let (d, _) = bean(vector);
    let j = s.decode(name, &d, &Options::default()).unwrap();
    assert!(j.pointer(p).is_some(), "{p} is not in {j}");
    gamewire_zeze::span::typed_bean_span(&s, name, &d, &toks(p), &Options::default())
        .unwrap()
        .map(|s| (s.range.start, s.range.len(), s.own))
}

#[test]
fn typed_beans_by_variable_name() {
    // BSimple: 10 4096 | 23 02 6869 | 11 0000c03f | 12 00..c0 | f000 01 | 13 03 010203 | 00
    let t = |p| typed_at("BSimple", "BSimple", p);
    assert_eq!(t(""), Some((0, 30, true)));
    assert_eq!(t("/i"), Some((1, 2, true)));
    assert_eq!(t("/s"), Some((4, 3, true)));
    assert_eq!(t("/f"), Some((8, 4, true)));
    assert_eq!(t("/d"), Some((13, 8, true)));
    assert_eq!(t("/b"), Some((23, 1, true)));
    assert_eq!(t("/bin"), Some((25, 4, true)));
    // `l` (field 2) is not in the bytes: the JSON shows its default.
    assert_eq!(t("/l"), None);

    // BOuter (see nested_beans_lists_maps_vectors_and_sets for the bytes).
    let t = |p| typed_at("BOuter", "outer.BOuter", p);
    assert_eq!(t("/inner"), Some((1, 6, true)));
    assert_eq!(t("/inner/x"), Some((2, 1, true)));
    assert_eq!(t("/inner/name"), Some((4, 2, true)));
    assert_eq!(t("/ints"), Some((8, 5, true)));
    assert_eq!(t("/ints/1"), Some((10, 1, true)));
    assert_eq!(t("/ints/2"), Some((11, 2, true)));
    // A list of beans: 26 (two beans), `10 01 00` and an empty `00`.
    assert_eq!(t("/beans/0"), Some((15, 3, true)));
    assert_eq!(t("/beans/0/x"), Some((16, 1, true)));
    assert_eq!(t("/beans/1"), Some((18, 1, true)));
    assert_eq!(t("/beans/1/x"), None);
    // A map with text keys is an object: the value of key "k" (01 6b) is `10 07 00`.
    assert_eq!(t("/byName/k"), Some((24, 3, true)));
    assert_eq!(t("/byName/k/x"), Some((25, 1, true)));
    // An absent nested bean, and everything in it.
    assert_eq!(t("/empty"), None);
    assert_eq!(t("/empty/name"), None);
    // Vectors are plain arrays.
    assert_eq!(t("/pos"), Some((28, 8, true)));
    assert_eq!(t("/pos/1"), Some((32, 4, true)));
    assert_eq!(t("/cell/1"), Some((38, 1, true)));
    assert_eq!(t("/tags/0"), Some((42, 2, true)));

    // Final extends Derive extends Base: 10 03 | 01 | 10 02 | 01 | 10 01 | 00, one object.
    let t = |p| typed_at("Final extends Derive extends Base", "Final", p);
    assert_eq!(t("/finalInt"), Some((1, 1, true)));
    assert_eq!(t("/deriveInt"), Some((4, 1, true)));
    assert_eq!(t("/baseInt"), Some((7, 1, true)));

    // Names the JSON does not have are errors naming the pointer.
    let s = solution();
    let (d, _) = bean("BOuter");
    for bad in ["/x", "/ints/3", "/byName/q", "/pos/2", "/inner/x/y", "/1"] {
        let e = gamewire_zeze::span::typed_bean_span(
            &s,
            "outer.BOuter",
            &d,
            &toks(bad),
            &Options::default(),
        )
        .unwrap_err();
        assert!(
            e.starts_with(&format!("no value at \"{bad}\"")),
            "{bad}: {e}"
        );
    }
}

/// Every value of every vector bean's typed JSON has bytes that read as it, or is a
/// default the bytes do not hold.
#[test]
fn typed_values_read_back_from_their_bytes() {
    let s = solution();
    for (vector, name) in [
        ("BSimple", "BSimple"),
        ("BOuter", "outer.BOuter"),
        ("Final extends Derive extends Base", "Final"),
    ] {
        let (d, _) = bean(vector);
        let j = s.decode(name, &d, &Options::default()).unwrap();
        let mut stack = vec![(String::new(), &j)];
        let mut held = 0;
        while let Some((p, v)) = stack.pop() {
            let span =
                gamewire_zeze::span::typed_bean_span(&s, name, &d, &toks(&p), &Options::default())
                    .unwrap();
            if let Some(span) = &span {
                assert!(span.range.end <= d.len(), "{vector} {p}");
                held += 1;
            }
            match v {
                J::Object(m) => stack.extend(m.iter().map(|(k, c)| (format!("{p}/{k}"), c))),
                J::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c)))
                }
                // A string's bytes are its length and text.
                J::String(t) if span.is_some() && !p.ends_with("/bin") => {
                    let r = span.unwrap().range;
                    assert_eq!(&d[r.start + 1..r.end], t.as_bytes(), "{vector} {p}");
                }
                _ => {}
            }
        }
        assert!(held > 3, "{vector}: {held}");
    }
}

/// The sample frame stream typed by the solution: each body by its protocol's argument
/// (or, for a response, result) bean, by variable name; a frame's protocol name spans
/// the ids it is found by.
#[test]
fn typed_frames() {
    use gamewire_zeze::frame::FrameOptions;
    use gamewire_zeze::span::typed_frames_span;
    use gamewire_zeze::typed_json::{Frames, Typing};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/session.frames.zeze"
    );
    let d = std::fs::read(path).unwrap();
    let s = solution();
    let typing = Typing {
        schema: &s,
        bean: None,
    };
    let j =
        serde_json::to_value(Frames::decode(&d, Some(typing), &FrameOptions::default()).unwrap())
            .unwrap();
    let o = Options::default();
    let at = |p: &str| {
        assert!(j.pointer(p).is_some(), "{p} is not in {j}");
        typed_frames_span(typing, &d, &toks(p), &o)
            .unwrap()
            .map(|s| (s.range.start, s.range.len(), s.own))
    };
    // Frame 0 (protocol Simple, a BSimple) at 0: its bean at 13, `s` ("hi") at 17.
    assert_eq!(at("/0/bean/s"), Some((17, 3, true)));
    assert_eq!(&d[17..20], b"\x02hi");
    assert_eq!(at("/0/bean/l"), None);
    assert_eq!(at("/0/name"), Some((0, 8, false)));
    assert_eq!(at("/0/module"), Some((0, 4, true)));
    // Frame 1 at 43, a request of the rpc Outer: a BOuter at 57 (header, family 01,
    // session id 05), the bytes of the vector above: `inner/name` at 57 + 4.
    assert_eq!(at("/1/bean/inner/name"), Some((61, 2, true)));
    assert_eq!(at("/1/bean/byName/k/x"), Some((82, 1, true)));
    // Frame 2 at 102, its response: an empty BInner at 117.
    assert_eq!(at("/2/bean"), Some((117, 1, true)));
    assert_eq!(at("/2/bean/x"), None);
    assert_eq!(at("/2/name"), Some((102, 8, false)));
    for bad in ["/3", "/0/bean/3", "/1/bean/nope", "/0/raw"] {
        assert!(
            typed_frames_span(typing, &d, &toks(bad), &o).is_err(),
            "{bad}"
        );
    }
    // Every value of the typed JSON has bytes inside the stream, or none (a default).
    let mut stack = vec![(String::new(), &j)];
    let mut held = 0;
    while let Some((p, v)) = stack.pop() {
        if let Some(s) = typed_frames_span(typing, &d, &toks(&p), &o).unwrap() {
            assert!(s.range.end <= d.len(), "{p}");
            held += 1;
        }
        match v {
            J::Object(m) => stack.extend(m.iter().map(|(k, c)| (format!("{p}/{k}"), c))),
            J::Array(a) => stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c))),
            _ => {}
        }
    }
    assert!(held > 20, "{held}");
}
