//! Pirate101 type lists: class hashes are djb2 of the class name (not Wizard101's
//! string_id). A list that gives its hashes (as `arrtype` writes them) is used as given;
//! a list without hashes is rehashed with `TypeList::set_game(Game::Pirate101)`.
//! The hash constants below were computed with katsuba's `katsuba.utils.djb2`.

use gamewire_core::peers;
use gamewire_kingsisle::{decode, encode, json, Game, Options, TypeList};
use serde_json::{json, Value as Json};
use std::process::{Command, Stdio};

/// djb2("class P101Item"), djb2("class P101Inner").
const ITEM: u32 = 1267588620;
const INNER: u32 = 1028029177;

/// A Pirate101 list as arrtype writes it: every hash given, djb2 for every name.
fn listed() -> String {
    json!({"version": 2, "classes": {
        ITEM.to_string(): {"name": "class P101Item", "bases": ["PropertyClass"], "hash": ITEM,
            "properties": {
                // djb2("int") + djb2("m_level")
                "m_level": {"type": "int", "id": 0, "flags": 31, "dynamic": false, "hash": 994691993u32},
                // djb2("std::string") + djb2("m_name")
                "m_name": {"type": "std::string", "id": 1, "flags": 31, "dynamic": false, "hash": 1121725261u32},
                // djb2("class SharedPointer<class P101Inner>") + djb2("m_inner")
                "m_inner": {"type": "class SharedPointer<class P101Inner>", "id": 2, "flags": 31,
                    "dynamic": false, "pointer": true, "hash": 2254248174u32}
            }},
        INNER.to_string(): {"name": "class P101Inner", "bases": ["PropertyClass"], "hash": INNER,
            "properties": {
                // djb2("int") + djb2("m_x")
                "m_x": {"type": "int", "id": 0, "flags": 31, "dynamic": false, "hash": 386994041u32}
            }}
    }})
    .to_string()
}

/// The same list without hashes (as a hand-written list or an XML dump has none).
fn hashless() -> String {
    let mut j: Json = serde_json::from_str(&listed()).unwrap();
    let mut v1 = serde_json::Map::new();
    for c in j["classes"].as_object_mut().unwrap().values_mut() {
        let c = c.as_object_mut().unwrap();
        c.remove("hash");
        for p in c["properties"].as_object_mut().unwrap().values_mut() {
            p.as_object_mut().unwrap().remove("hash");
        }
        let name = c.remove("name").unwrap();
        v1.insert(name.as_str().unwrap().to_owned(), Json::Object(c.clone()));
    }
    Json::Object(v1).to_string()
}

fn doc_json() -> Json {
    json!({"$class": "class P101Item", "m_level": 50, "m_name": "Ratbeard",
           "m_inner": {"$class": "class P101Inner", "m_x": -7}})
}

#[test]
fn the_game_is_told_by_a_lists_hashes() {
    let p = TypeList::from_json(listed().as_bytes()).unwrap();
    assert_eq!(p.game(), Some(Game::Pirate101));
    assert_eq!(p.by_name("class P101Item").unwrap().hash, ITEM);
    let w = TypeList::from_json(hashless().as_bytes()).unwrap();
    assert_eq!(
        w.game(),
        Some(Game::Wizard101),
        "names hashed with string_id by default"
    );
}

#[test]
fn a_hashless_list_rehashed_for_pirate101_equals_the_listed_hashes() {
    let listed = TypeList::from_json(listed().as_bytes()).unwrap();
    let mut rehashed = TypeList::from_json(hashless().as_bytes()).unwrap();
    assert!(rehashed.get(ITEM).is_none());
    rehashed.set_game(Game::Pirate101);
    assert_eq!(rehashed.game(), Some(Game::Pirate101));
    for c in listed.classes() {
        let r = rehashed
            .get(c.hash)
            .expect("class found by its Pirate101 hash");
        assert_eq!(r.name, c.name);
        for (a, b) in c.properties.iter().zip(&r.properties) {
            assert_eq!((&a.name, a.hash), (&b.name, b.hash));
        }
    }
    // Hashes a list gives are kept: rehashing the listed list changes nothing.
    let mut again = listed.clone();
    again.set_game(Game::Pirate101);
    assert_eq!(again.classes(), listed.classes());
}

fn encode_with(types: &TypeList, opts: &Options) -> Vec<u8> {
    let doc = json::from_json(&doc_json(), types).unwrap();
    encode(&doc, types, opts).unwrap()
}

#[test]
fn pirate101_objects_round_trip_with_djb2_class_hashes_on_the_wire() {
    let types = TypeList::from_json(listed().as_bytes()).unwrap();
    for shallow in [true, false] {
        let opts = Options {
            shallow,
            ..Options::default()
        };
        let bytes = encode_with(&types, &opts);
        // The root object starts with its class hash (flags 0: no flags word).
        assert_eq!(bytes[..4], ITEM.to_le_bytes(), "shallow {shallow}");
        let doc = decode(&bytes, &types, &opts).unwrap();
        assert_eq!(doc.root.hash, ITEM);
        assert_eq!(encode(&doc, &types, &opts).unwrap(), bytes);
        let back = json::to_json(&doc, &types).unwrap();
        assert_eq!(back["m_name"], "Ratbeard");
        assert_eq!(back["m_inner"]["m_x"], -7);
        // The hashless list, rehashed, writes the same bytes.
        let mut rehashed = TypeList::from_json(hashless().as_bytes()).unwrap();
        rehashed.set_game(Game::Pirate101);
        assert_eq!(encode_with(&rehashed, &opts), bytes);
        // A Wizard101-hashed list does not know the class.
        let w = TypeList::from_json(hashless().as_bytes()).unwrap();
        assert!(decode(&bytes, &w, &opts).is_err());
    }
}

#[test]
fn katsuba_decodes_our_pirate101_bytes_with_the_same_list() {
    if !peers::available(
        "katsuba",
        peers::python_has(&["katsuba.op"]),
        "python3 cannot import katsuba (pip install katsuba)",
    ) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gamewire-p101-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let types_path = dir.join("p101.types.json");
    std::fs::write(&types_path, listed()).unwrap();
    let types = TypeList::from_files(&[&types_path]).unwrap();
    let mut cases = Vec::new();
    for shallow in [true, false] {
        let opts = Options {
            shallow,
            ..Options::default()
        };
        let file = dir.join(format!("item-{shallow}.bin"));
        std::fs::write(&file, encode_with(&types, &opts)).unwrap();
        cases.push(json!({"file": file.to_string_lossy(), "flags": 0,
            "mask": opts.property_mask, "shallow": shallow, "manual": false}));
    }
    let req = json!({"types": [types_path.to_string_lossy()], "cases": cases});
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/katsuba_values.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), req.to_string().as_bytes()).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "katsuba script failed");
    let results: Vec<Json> = serde_json::from_slice(&out.stdout).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        let v = &r["ok"];
        assert_eq!(v["$type"], ITEM, "{r}");
        assert_eq!(v["m_level"], 50, "{r}");
        assert_eq!(v["m_name"], format!("b:{}", hex(b"Ratbeard")), "{r}");
        assert_eq!(v["m_inner"]["$type"], INNER, "{r}");
        assert_eq!(v["m_inner"]["m_x"], -7, "{r}");
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
