//! Each action takes only the options it uses, and an output's extension chooses the
//! Resonite compression unless a flag contradicts it.
#![cfg(all(feature = "godot", feature = "kingsisle", feature = "resonite"))]

use std::path::Path;

mod common;
use common::gamewire_in_repo as gamewire;

fn refused(args: &[&str], says: &str) {
    let o = gamewire(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn options_of_another_action_are_refused() {
    let ki = [
        "-t",
        "samples/kingsisle/types.json",
        "samples/kingsisle/item.bin",
    ];
    refused(
        &[&["decode", "kingsisle", "--xml"][..], &ki[..]].concat(),
        "--xml is an option of encode, not of decode",
    );
    refused(
        &[
            "bench",
            "godot3",
            "-o",
            "x.json",
            "samples/godot/save.godot3.bin",
        ],
        "--output is an option of decode and encode, not of bench",
    );
    refused(
        &[
            "decode",
            "resonite",
            "--compression",
            "lzma",
            "samples/resonite/item.brson",
        ],
        "--compression is an option of encode, not of decode",
    );
    refused(
        &[
            "encode",
            "godot3",
            "--allow-objects",
            "samples/godot/save.godot3.bin",
        ],
        "--allow-objects is an option of decode and bench, not of encode",
    );
}

#[test]
#[cfg(feature = "o3de")]
fn o3de_options_of_decode_and_encode_are_refused_by_bench() {
    for (name, opt) in [
        ("--output", &["-o", "x.json"][..]),
        ("--envelope", &["--envelope"]),
        ("--canonical", &["--canonical"]),
        ("--compact", &["--compact"]),
        ("--clear-containers", &["--clear-containers"]),
    ] {
        let args = [
            &["bench", "o3de"][..],
            opt,
            &["samples/o3de/sample-entity.json"],
        ]
        .concat();
        refused(
            &args,
            &format!("{name} is an option of decode and encode, not of bench"),
        );
    }
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../x.json")
        .exists());
}

#[test]
#[cfg(feature = "o3de")]
fn o3de_actions_keep_their_own_options() {
    // The same options are taken by decode (and bench runs without them).
    let o = gamewire(&[
        "decode",
        "o3de",
        "--compact",
        "samples/o3de/sample-entity.json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!o.stdout.is_empty());
}

#[test]
fn the_output_extension_chooses_the_resonite_compression() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("item.json");
    let o = gamewire(&["decode", "resonite", "samples/resonite/item.brson"]);
    std::fs::write(&json, &o.stdout).unwrap();
    let out = dir.path().join("item.7zbson");
    let o = gamewire(&[
        "encode",
        "resonite",
        json.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    // FrDT header: magic, version 0, then the compression byte (2 = LZMA).
    assert_eq!(&bytes[..4], b"FrDT");
    let brson = gamewire(&["decode", "resonite", "samples/resonite/item.7zbson"]).stdout;
    assert_eq!(
        gamewire(&["decode", "resonite", out.to_str().unwrap()]).stdout,
        brson
    );
    let o = gamewire(&[
        "encode",
        "resonite",
        "--compression",
        "brotli",
        json.to_str().unwrap(),
        "-o",
        dir.path().join("x.7zbson").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("contradicts the output's extension"));
    assert!(!dir.path().join("x.7zbson").exists(), "nothing written");
}

#[test]
#[cfg(feature = "kingsisle")]
fn kingsisle_bench_once_times_one_decode_of_the_view_or_the_tree() {
    let types = "samples/kingsisle/types.json";
    let file = "samples/kingsisle/item.bin";
    for (extra, label) in [(&["--view"][..], "view once: "), (&[][..], "decode once: ")] {
        let args = [
            &["bench", "kingsisle", "--once", "-t", types][..],
            extra,
            &[file],
        ]
        .concat();
        let out = gamewire(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("type list: ") && text.contains(" classes loaded in "),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with(label) && l.contains(" ms wall")),
            "{text}"
        );
    }
    refused(
        &["decode", "kingsisle", "--view", "-t", types, file],
        "--view is an option of bench, not of decode",
    );
}
