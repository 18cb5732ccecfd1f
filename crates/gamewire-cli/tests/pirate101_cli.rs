//! `--game pirate101`: a type list without hashes is hashed as Pirate101 does (class
//! names by djb2); a list that gives Pirate101 hashes (as arrtype writes them) needs no
//! option, also for `decode FILE` and `inspect`.
#![cfg(feature = "kingsisle")]

use serde_json::json;
use std::path::Path;

mod common;
use common::gamewire;

/// djb2("class P101Item"), computed with katsuba.utils.djb2.
const ITEM: u32 = 1267588620;

fn write_lists(dir: &Path) {
    let listed = json!({"version": 2, "classes": {ITEM.to_string(): {
    "name": "class P101Item", "bases": ["PropertyClass"], "hash": ITEM,
    "properties": {
        // djb2("int") + djb2("m_level"), djb2("std::string") + djb2("m_name")
        "m_level": {"type": "int", "id": 0, "flags": 31, "dynamic": false, "hash": 994691993u32},
        "m_name": {"type": "std::string", "id": 1, "flags": 31, "dynamic": false, "hash": 1121725261u32}
    }}}});
    std::fs::write(dir.join("types.json"), listed.to_string()).unwrap();
    let hashless = json!({"class P101Item": {"bases": ["PropertyClass"], "properties": {
        "m_level": {"type": "int", "id": 0, "flags": 31, "dynamic": false},
        "m_name": {"type": "std::string", "id": 1, "flags": 31, "dynamic": false}}}});
    std::fs::write(dir.join("hashless.json"), hashless.to_string()).unwrap();
    std::fs::write(
        dir.join("doc.json"),
        json!({"$class": "class P101Item", "m_level": 9, "m_name": "Ratbeard"}).to_string(),
    )
    .unwrap();
}

#[test]
fn pirate101_lists_with_and_without_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_lists(d);
    let p = |n: &str| d.join(n).to_string_lossy().into_owned();
    // Encoded with the listed (arrtype-style) hashes: the class hash is djb2.
    let o = gamewire(&[
        "encode",
        "kingsisle",
        "-t",
        &p("types.json"),
        "-s",
        &p("doc.json"),
        "-o",
        &p("item.bin"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(d.join("item.bin")).unwrap();
    assert_eq!(bytes[..4], ITEM.to_le_bytes());
    // The hashless list needs --game pirate101, and then writes the same bytes.
    let o = gamewire(&[
        "encode",
        "kingsisle",
        "-t",
        &p("hashless.json"),
        "--game",
        "pirate101",
        "-s",
        &p("doc.json"),
        "-o",
        &p("again.bin"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(d.join("again.bin")).unwrap(), bytes);
    let dec = |t: &str, game: &[&str]| {
        gamewire(
            &[
                &["decode", "kingsisle", "-t", &p(t), "-s", "--compact"][..],
                game,
                &[&p("item.bin")],
            ]
            .concat(),
        )
    };
    let listed = dec("types.json", &[]);
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("\"m_name\":\"Ratbeard\""), "{text}");
    assert_eq!(
        dec("hashless.json", &["--game", "pirate101"]).stdout,
        listed.stdout
    );
    let w101 = dec("hashless.json", &[]);
    assert_eq!(
        w101.status.code(),
        Some(1),
        "string_id hashes do not know the class"
    );
    let bad = dec("hashless.json", &["--game", "grub"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown game \"grub\""));
    // A BINd file: decode FILE and inspect find types.json beside it, whose hashes say
    // Pirate101.
    let o = gamewire(&[
        "encode",
        "kingsisle",
        "-t",
        &p("types.json"),
        "--bind",
        &p("doc.json"),
        "-o",
        &p("bound.bin"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let auto = gamewire(&["decode", &p("bound.bin")]);
    assert!(
        auto.status.success(),
        "{}",
        String::from_utf8_lossy(&auto.stderr)
    );
    assert!(String::from_utf8_lossy(&auto.stdout).contains("Ratbeard"));
    let shown = gamewire(&["inspect", &p("bound.bin")]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        text.contains("  root: class P101Item (2 items)\n    m_level: int = 9\n"),
        "{text}"
    );
}
