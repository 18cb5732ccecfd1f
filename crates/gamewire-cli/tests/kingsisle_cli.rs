//! KingsIsle from the command line as a new user meets it: XML written by
//! `encode --xml` decodes again by detection, `inspect` names enum options, and a `BINd`
//! file with a class missing from the type list decodes with `--skip-unknown` and
//! encodes back to the same bytes.
#![cfg(feature = "kingsisle")]

use std::path::Path;

mod common;
use common::bin;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/kingsisle/");

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A folder holding the sample item and its type list.
fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["item.bin", "types.json"] {
        std::fs::copy(Path::new(SAMPLES).join(f), dir.path().join(f)).unwrap();
    }
    dir
}

#[test]
fn xml_written_by_encode_decodes_by_detection() {
    let dir = folder();
    let p = dir.path();
    let json = bin()
        .args(["decode", "kingsisle", "-t"])
        .arg(p.join("types.json"))
        .arg(p.join("item.bin"))
        .output()
        .unwrap();
    ok(&json);
    std::fs::write(p.join("item.json"), &json.stdout).unwrap();
    let xml = p.join("item.out");
    let enc = bin()
        .args(["encode", "kingsisle", "--xml", "-t"])
        .arg(p.join("types.json"))
        .arg(p.join("item.json"))
        .arg("-o")
        .arg(&xml)
        .output()
        .unwrap();
    ok(&enc);
    // `decode FILE`: no format named, the type list found beside the file.
    let dec = bin().arg("decode").arg(&xml).output().unwrap();
    ok(&dec);
    let text = String::from_utf8_lossy(&dec.stdout);
    assert!(text.contains("\"m_name\": \"Storm Hat\""), "{text}");
}

#[test]
fn inspect_names_the_enum_option() {
    let dir = folder();
    let out = bin()
        .arg("inspect")
        .arg(dir.path().join("item.bin"))
        .output()
        .unwrap();
    ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("m_rarity: enum Rarity = \"RARITY_EPIC\" (2)"),
        "{text}"
    );
}

#[test]
fn unknown_classes_are_kept_with_skip_unknown_and_written_back() {
    let dir = folder();
    let p = dir.path();
    // The type list without class SampleEffect.
    let mut types: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.join("types.json")).unwrap()).unwrap();
    let classes = types["classes"].as_object_mut().unwrap();
    classes.retain(|_, c| c["name"] != "class SampleEffect");
    std::fs::write(p.join("partial.json"), types.to_string()).unwrap();
    let strict = bin()
        .args(["decode", "kingsisle", "-t"])
        .arg(p.join("partial.json"))
        .arg(p.join("item.bin"))
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let err = String::from_utf8_lossy(&strict.stderr);
    assert!(err.contains("--skip-unknown"), "{err}");
    let kept = bin()
        .args(["decode", "kingsisle", "--skip-unknown", "-t"])
        .arg(p.join("partial.json"))
        .arg(p.join("item.bin"))
        .output()
        .unwrap();
    ok(&kept);
    assert!(String::from_utf8_lossy(&kept.stdout).contains("\"$raw\""));
    std::fs::write(p.join("kept.json"), &kept.stdout).unwrap();
    let back = bin()
        .args(["encode", "kingsisle", "--skip-unknown", "-t"])
        .arg(p.join("partial.json"))
        .arg(p.join("kept.json"))
        .output()
        .unwrap();
    ok(&back);
    assert_eq!(back.stdout, std::fs::read(p.join("item.bin")).unwrap());
}
