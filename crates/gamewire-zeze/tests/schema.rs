//! Schema (solution XML) decoding and encoding against the fixture beans.

use gamewire_zeze::schema::Schema;
use gamewire_zeze::Options;
use serde_json::{json, Value as J};

mod common;
use common::files::{bean_bytes, sample_schema};

fn both_ways(s: &Schema, name: &str, bytes: &[u8], want: J) {
    let got = s.decode(name, bytes, &Options::default()).unwrap();
    assert_eq!(got, want, "{name}");
    let view =
        gamewire_zeze::schema_view::SchemaView::new(s, name, bytes, &Options::default()).unwrap();
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        serde_json::to_string(&got).unwrap()
    );
    assert_eq!(s.encode(name, &got).unwrap(), bytes, "{name}");
    // Through JSON text too.
    let text = serde_json::to_string(&got).unwrap();
    assert_eq!(
        s.encode(name, &serde_json::from_str(&text).unwrap())
            .unwrap(),
        bytes
    );
}

#[test]
fn names_resolve_like_zeze() {
    let s = sample_schema();
    assert_eq!(
        s.bean_names(),
        [
            "fixtures.BHolder",
            "fixtures.BSimple",
            "fixtures.Base",
            "fixtures.Derive",
            "fixtures.Final",
            "fixtures.outer.BInner",
            "fixtures.outer.BOuter"
        ]
    );
    assert_eq!(s.bean("BInner").unwrap().name, "fixtures.outer.BInner");
    assert_eq!(s.levels("Final").unwrap().len(), 3);
    assert!(s.bean("Nope").is_err());
}

#[test]
fn bsimple_named_and_typed() {
    both_ways(
        &sample_schema(),
        "BSimple",
        &bean_bytes(0),
        json!({"i": 150, "l": 0, "s": "hi", "f": 1.5, "d": -2.0, "b": true, "bin": "010203"}),
    );
}

#[test]
fn bouter_nested_collections() {
    let inner = |x: i64, n: &str| json!({"x": x, "name": n});
    both_ways(
        &sample_schema(),
        "BOuter",
        &bean_bytes(1),
        json!({
            "inner": inner(5, "n"),
            "ints": [1, -1, 300],
            "beans": [inner(1, ""), inner(0, "")],
            "byName": {"k": inner(7, "")},
            "empty": inner(0, ""),
            "pos": [1.0, 2.0],
            "cell": [1, -2, 3],
            "tags": ["a"],
        }),
    );
}

#[test]
fn inheritance_levels_merge() {
    let s = sample_schema();
    both_ways(
        &s,
        "Final",
        &bean_bytes(2),
        json!({"finalInt": 3, "deriveInt": 2, "baseInt": 1}),
    );
    both_ways(
        &s,
        "Final",
        &bean_bytes(3),
        json!({"finalInt": 0, "deriveInt": 0, "baseInt": 0}),
    );
}

#[test]
fn dynamic_vectors_and_non_text_map_keys() {
    let s = sample_schema();
    let value = json!({
        "any": {"type_id": 2, "bean": "fixtures.outer.BInner", "value": {"x": 9, "name": ""}},
        "many": [
            {"type_id": 1, "bean": "fixtures.BSimple", "value": {"i": 1, "l": 0, "s": "", "f": 0.0, "d": 0.0, "b": false, "bin": ""}},
            {"type_id": 7, "value": {"1": 5}}
        ],
        "asBean": {"x": 0, "name": "z"},
        "count": -5,
        "ratio": 0.25,
        "quat": [0.0, 0.0, 0.0, 1.0],
        "byId": {"3": "ff00"},
        "points": [[[1, 2], "p"]],
    });
    let bytes = s.encode("BHolder", &value).unwrap();
    assert_eq!(
        bytes,
        [
            0x17, 0x02, 0x10, 0x09, 0x00, // any: dynamic, type id 2, BInner{x=9}
            0x14, 0x27, 0x01, 0x10, 0x01, 0x00, 0x07, 0x10, 0x05, 0x00, // many: 2 dynamics
            0x16, 0x23, 0x01, 0x7a, 0x00, // asBean: {name="z"}
            0x10, 0xfb, // count -5
            0x11, 0, 0, 0x80, 0x3e, // ratio 0.25
            0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, // quat
            0x15, 0x03, 0x01, 0x03, 0x02, 0xff, 0x00, // byId {3: ff00}
            0x15, 0x93, 0x01, 0x01, 0x02, 0x01, b'p', // points {(1,2): "p"}
            0x00
        ]
    );
    assert_eq!(
        s.decode("BHolder", &bytes, &Options::default()).unwrap(),
        value
    );
}

#[test]
fn conversions_zeze_does_on_read() {
    let s = sample_schema();
    // count (int) sent as a double 7.9 -> 7; ratio (float) sent as integer 3 -> 3.0;
    // asBean (bean) sent as a dynamic with type id 5; any (dynamic) sent as a plain bean.
    let bytes = [
        0x16, 0x10, 0x04, 0x00, // any: bean {1: 4} -> dynamic type id 0
        0x27, 0x05, 0x10, 0x02, 0x00, // asBean: dynamic, type id 5, {x=2}
        0x12, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0x1f, 0x40, // count: double 7.9
        0x10, 0x03, // ratio: integer 3
        0x00,
    ];
    let j = s.decode("BHolder", &bytes, &Options::default()).unwrap();
    assert_eq!(j["any"], json!({"type_id": 0, "value": {"1": 4}}));
    assert_eq!(j["asBean"], json!({"x": 2, "name": ""}));
    assert_eq!(j["count"], json!(7));
    assert_eq!(j["ratio"], json!(3.0));
}

#[test]
fn unknown_fields_are_kept_and_bad_types_refused() {
    let s = sample_schema();
    let unknown = [0x10, 0x01, 0x64, 0x23, 0x01, b'a', 0x01, b'b', 0x00];
    // field 7 (unknown, list of 2 strings), no more fields.
    let j = s.decode("BSimple", &unknown, &Options::default()).unwrap();
    assert_eq!(j["i"], json!(1));
    // Kept schema-less under "_unknown", so the bytes round-trip.
    assert_eq!(
        j["_unknown"],
        json!({"7": {"list": "bytes", "items": ["a", "b"]}})
    );
    assert_eq!(s.encode("BSimple", &j).unwrap(), unknown);
    // Unknown fields merge by id between declared ones, in base levels too.
    let mixed = [
        0x10, 0x01, 0x13, 0x01, b'x', 0x10, 0x02, 0x01, 0x20, 0x07, 0x01, 0x00,
    ];
    let j = s.decode("Final", &mixed, &Options::default()).unwrap();
    assert_eq!(j["_unknown"], json!({"2": "x", "3": 2}));
    assert_eq!(j["_unknown1"], json!({"2": 7}));
    assert_eq!(s.encode("Final", &j).unwrap(), mixed);
    assert!(s.encode("BSimple", &json!({"_unknown": {"1": 5}})).is_err());
    let bad = [0x13, 0x01, b'a', 0x00]; // i (int) sent as bytes
    let e = s.decode("BSimple", &bad, &Options::default()).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert_eq!(e.path_string(), "$.i");
    let e = s.encode("BSimple", &json!({"i": "x"})).unwrap_err();
    assert_eq!(e.path_string(), "$.i");
    assert!(s.encode("BSimple", &json!({"nope": 1})).is_err());
    assert!(s.encode("BSimple", &json!({"i": 1u64 << 40})).is_err());
}

#[test]
fn extra_levels_past_the_schema_are_skipped() {
    // BSimple has no base: after 0x01 Zeze skips the rest (here a field 1 = 9).
    let s = sample_schema();
    let j = s
        .decode(
            "BSimple",
            &[0x10, 0x05, 0x01, 0x10, 0x09, 0x00],
            &Options::default(),
        )
        .unwrap();
    assert_eq!(j["i"], json!(5));
}

#[test]
fn protocols_with_ids_map_to_their_beans() {
    let s = sample_schema();
    let p = s.protocol(1, 200).unwrap();
    assert_eq!(p.name, "fixtures.outer.Outer");
    assert_eq!(p.argument.as_deref(), Some("fixtures.outer.BOuter"));
    assert_eq!(p.result.as_deref(), Some("fixtures.outer.BInner"));
    assert_eq!(
        s.protocol(1, 100).unwrap().argument.as_deref(),
        Some("fixtures.BSimple")
    );
    assert!(s.protocol(2, 100).is_none());
}

/// Found by fuzzing: an unknown field id past 2147483647 decoded in schema mode but its
/// `_unknown` key could not be encoded back. Both modes now refuse such ids.
#[test]
fn regression_field_id_past_i32_max_is_refused() {
    let s = sample_schema();
    // Tag 0xf0 (int), extended delta 0x80000000 + 15.
    let bytes = [0xf0, 0xf0, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00];
    let e = s
        .decode("BSimple", &bytes, &Options::default())
        .unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert!(gamewire_zeze::decode(&bytes, &Options::default()).is_err());
}

/// Zeze's Gen gives a `<protocol>` declared without an `id` the id
/// `FixedHash.Hash32(full name)`, so frames of such protocols are typed too.
#[test]
fn protocols_without_ids_take_the_name_hash() {
    let xml = r#"<solution name="Game"><module name="Login" id="7">
        <bean name="BHello"><variable id="1" name="n" type="int"/></bean>
        <protocol name="Hello" argument="BHello"/>
        <rpc name="Ping" argument="BHello" result="BHello" id=""/>
    </module></solution>"#;
    let s = Schema::from_xml(xml).unwrap();
    let id = gamewire_zeze::hash::hash32("Game.Login.Hello") as u32;
    let p = s.protocol(7, id).unwrap();
    assert_eq!(p.name, "Game.Login.Hello");
    assert_eq!(p.argument.as_deref(), Some("Game.Login.BHello"));
    let id = gamewire_zeze::hash::hash32("Game.Login.Ping") as u32;
    assert_eq!(
        s.protocol(7, id).unwrap().result.as_deref(),
        Some("Game.Login.BHello")
    );
    assert!(s.protocol(7, id.wrapping_add(1)).is_none());
}

/// Loads `top` from in-memory files (path -> text), counting the reads of each.
fn load_mem(
    files: &[(&str, &str)],
    top: &str,
) -> (
    gamewire_core::Result<Schema>,
    std::collections::HashMap<String, usize>,
) {
    let mut reads = std::collections::HashMap::new();
    let mut read = |p: &std::path::Path| {
        let key = p.to_string_lossy().replace('\\', "/");
        *reads.entry(key.clone()).or_insert(0) += 1;
        files
            .iter()
            .find(|(n, _)| *n == key)
            .map(|(_, t)| t.to_string())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    };
    let r = Schema::from_file_with(std::path::Path::new(top), &mut read);
    (r, reads)
}

#[test]
fn imports_are_mutual_read_once_and_resolve_both_ways() {
    let a = r#"<solution name="A"><import file="sub/../b.xml"/>
        <module name="M" id="1"><bean name="BA"><variable id="1" name="b" type="B.N.BB"/></bean>
        <protocol name="P" argument="B.N.BB"/></module></solution>"#;
    let b = r#"<solution name="B"><import file="./a.xml"/>
        <module name="N" id="2"><bean name="BB"><variable id="1" name="x" type="int"/>
        <variable id="2" name="back" type="list[A.M.BA]"/></bean></module></solution>"#;
    let (s, reads) = load_mem(&[("/s/a.xml", a), ("/s/b.xml", b)], "/s/a.xml");
    let s = s.unwrap();
    assert_eq!(s.bean_names(), ["A.M.BA", "B.N.BB"]);
    assert_eq!(reads["/s/a.xml"], 1);
    assert_eq!(reads["/s/b.xml"], 1);
    let v = json!({"b": {"x": 5, "back": [{"b": {"x": 0, "back": []}}]}});
    let bytes = s.encode("A.M.BA", &v).unwrap();
    // b: tag 16 (id 1, BEAN); x: 10 05; back: tag 24 (id 1 after 1, LIST), header 16
    // (one BEAN), the element's empty bean 00; end 00; end 00.
    assert_eq!(bytes, [0x16, 0x10, 0x05, 0x14, 0x16, 0x00, 0x00, 0x00]);
    assert_eq!(s.decode("A.M.BA", &bytes, &Options::default()).unwrap(), v);
}

#[test]
fn import_falls_back_to_the_first_files_directory_and_names_a_missing_one() {
    // Gen reads an import relative to the importing file, else relative to the
    // directory it started in.
    let top = r#"<solution name="T"><import file="lib/l.xml"/></solution>"#;
    let lib = r#"<solution name="L"><import file="shared.xml"/>
        <module name="M"><bean name="B"><variable id="1" name="s" type="S.X"/></bean></module></solution>"#;
    let shared = r#"<solution name="S"><bean name="X"/></solution>"#;
    let files = [
        ("/p/t.xml", top),
        ("/p/lib/l.xml", lib),
        ("/p/shared.xml", shared),
    ];
    let (s, _) = load_mem(&files, "/p/t.xml");
    assert_eq!(s.unwrap().bean_names(), ["L.M.B", "S.X"]);
    let (e, _) = load_mem(&files[..2], "/p/t.xml");
    let e = e.unwrap_err().to_string();
    assert!(
        e.contains("/p/lib/l.xml") && e.contains("shared.xml"),
        "unclear error: {e}"
    );
}

#[test]
fn implicit_and_special_dynamic_ids_and_sortedmap() {
    let s = Schema::from_xml(
        r#"<solution name="S"><module name="M">
        <bean name="Base"/><bean name="Mid" base="Base"/><bean name="Leaf" base="Mid"/>
        <bean name="Own" TypeId="9"/>
        <bean name="H">
          <variable id="1" name="d" type="dynamic"><value bean="Leaf"/><value bean="Own"/></variable>
          <variable id="2" name="b" type="dynamic:Mid"/>
          <variable id="3" name="m" type="sortedmap[int,string]"/>
          <var id="4" name="g" type="gtable[int,int,int]"/>
        </bean></module>
        <project name="p"><service name="s"><bean ref="Nowhere"/></service></project>
        </solution>"#,
    )
    .unwrap();
    use gamewire_zeze::hash::hash64;
    use gamewire_zeze::schema::{Type, GTABLE_ROW};
    let h = s.bean("S.M.H").unwrap();
    let dy = |i: usize| match &h.vars[i].ty {
        Type::Dynamic(ids) => ids.clone(),
        t => panic!("{t:?}"),
    };
    assert_eq!(
        dy(0),
        [
            (hash64("S.M.Leaf"), "S.M.Leaf".to_owned()),
            (9, "S.M.Own".to_owned())
        ]
    );
    // dynamic:Mid: Mid and what derives from it, not its base.
    assert_eq!(
        dy(1),
        [
            (hash64("S.M.Mid"), "S.M.Mid".to_owned()),
            (hash64("S.M.Leaf"), "S.M.Leaf".to_owned())
        ]
    );
    assert_eq!(
        h.vars[2].ty,
        Type::Map(Box::new(Type::Int), Box::new(Type::String))
    );
    assert_eq!(
        h.vars[3].ty,
        Type::Map(Box::new(Type::Int), Box::new(Type::Bean(GTABLE_ROW.into())))
    );
    assert!(Schema::from_xml(
        r#"<solution name="S"><module name="M"><bean name="H">
        <variable id="1" name="d" type="dynamic"><value bean="H:x"/></variable></bean></module></solution>"#
    )
    .unwrap_err()
    .to_string()
    .contains("bad type id"));
}

#[test]
fn a_bean_declared_twice_is_an_error() {
    // Across imports too: Gen refuses a duplicate type rather than pick one layout.
    let a = r#"<solution name="A"><import file="b.xml"/><module name="M"><bean name="X"/></module></solution>"#;
    let b = r#"<solution name="A"><module name="M"><bean name="X"><variable id="1" name="i" type="int"/></bean></module></solution>"#;
    let (s, _) = load_mem(&[("/d/a.xml", a), ("/d/b.xml", b)], "/d/a.xml");
    let e = s.unwrap_err().to_string();
    assert!(e.contains("A.M.X is declared twice"), "{e}");
}

#[test]
fn beans_hint_lists_few_beans_whole_and_many_by_count() {
    let mut xml = String::from("<solution name=\"s\">");
    for i in 0..25 {
        xml.push_str(&format!("<bean name=\"B{i:02}\"/>"));
    }
    xml.push_str("<bean name=\"player_state\"/></solution>");
    let s = Schema::from_xml(&xml).unwrap();
    let hint = s.beans_hint(Some("saves/PlayerState.bin"));
    assert!(
        hint.starts_with("its 26 beans include s.B00, s.B01, "),
        "{hint}"
    );
    assert!(
        hint.contains("s.B19, ...") && !hint.contains("s.B20"),
        "{hint}"
    );
    assert!(
        hint.ends_with("; the input's name suggests --bean s.player_state"),
        "{hint}"
    );
    assert_eq!(s.bean_for_file("B03.frame.bin"), Some("s.B03"));
    assert_eq!(s.bean_for_file("nothing.bin"), None);
    // An unknown --bean lists them too.
    let small =
        Schema::from_xml("<solution name=\"t\"><bean name=\"A\"/><bean name=\"B\"/></solution>")
            .unwrap();
    let e = small.bean("C").unwrap_err().to_string();
    assert!(
        e.contains("no bean \"C\"") && e.contains("its beans: t.A, t.B"),
        "{e}"
    );
}
