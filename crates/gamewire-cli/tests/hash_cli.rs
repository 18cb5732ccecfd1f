//! `gamewire hash`: KingsIsle's hashes, including a property's deep-mode tag.
#![cfg(feature = "kingsisle")]

use std::process::Command;

fn hash(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .arg("hash")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn property_tags_match_the_katsuba_type_list() {
    // Tags from the katsuba fixtures' type list (tests/fixtures/kingsisle/katsuba/types.json).
    assert_eq!(
        hash(&["property-tag", "class Inner", "m_inner"]).1,
        "1944596742\n"
    );
    assert_eq!(hash(&["property-tag", "bool", "m_bool"]).1, "221725407\n");
    assert_eq!(hash(&["string-id", "class PropertyClass"]).1, "723888169\n");
    assert_eq!(hash(&["djb2", ""]).1, "5381\n");
}

#[test]
fn wrong_argument_counts_are_explained() {
    let (ok, _, err) = hash(&["property-tag", "bool"]);
    assert!(!ok && err.contains("TYPE and NAME"), "{err}");
    let (ok, _, err) = hash(&["djb2", "m_a", "m_b"]);
    assert!(!ok && err.contains("one too many"), "{err}");
}
