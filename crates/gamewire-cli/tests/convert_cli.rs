//! `gamewire convert`: folders in one process, outputs mirrored, bad files reported
//! without stopping the others, and back to engine bytes.
#![cfg(all(feature = "godot", feature = "kingsisle"))]

use std::path::Path;

mod common;
use common::gamewire;

fn samples(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples")
        .join(p)
}

#[test]
fn a_folder_converts_to_json_and_back_with_one_bad_file_reported() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("deeper")).unwrap();
    for i in 0..5 {
        std::fs::copy(
            samples("godot/save.godot3.bin"),
            input.join(format!("s{i}.dat")),
        )
        .unwrap();
    }
    std::fs::copy(samples("godot/save.godot3.bin"), input.join("deeper/d.dat")).unwrap();
    std::fs::copy(samples("kingsisle/item.bin"), input.join("item.bin")).unwrap();
    std::fs::copy(samples("kingsisle/types.json"), input.join("types.json")).unwrap();
    std::fs::write(input.join("bad.dat"), b"not an engine file").unwrap();
    let out = dir.path().join("out");
    let o = gamewire(&[
        "convert",
        "-r",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("bad.dat") && err.contains("no format recognised"),
        "{err}"
    );
    assert!(
        err.contains("converted 7 files") && err.contains("1 failed"),
        "{err}"
    );
    assert!(
        err.contains("1 skipped"),
        "the type list is a side file: {err}"
    );
    // Every good file has its JSON, folders mirrored; the bad one has none.
    for f in [
        "s0.dat.json",
        "s4.dat.json",
        "deeper/d.dat.json",
        "item.bin.json",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert!(!out.join("bad.dat.json").exists());
    // The JSON is what `decode` writes.
    let one = gamewire(&["decode", input.join("s0.dat").to_str().unwrap()]);
    assert_eq!(std::fs::read(out.join("s0.dat.json")).unwrap(), one.stdout);

    // Back to bytes with no format named: each JSON's header says how, and every file
    // comes back as it was, the KingsIsle BINd file included.
    let back = dir.path().join("back");
    let o = gamewire(&[
        "convert",
        out.to_str().unwrap(),
        "-r",
        "--to",
        "native",
        "--out-dir",
        back.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (b, original) in [
        ("s3.dat", samples("godot/save.godot3.bin")),
        ("deeper/d.dat", samples("godot/save.godot3.bin")),
        ("item.bin", samples("kingsisle/item.bin")),
    ] {
        assert_eq!(
            std::fs::read(back.join(b)).unwrap(),
            std::fs::read(original).unwrap(),
            "{b}"
        );
    }
    // A format named that contradicts the header is an error.
    let o = gamewire(&[
        "convert",
        out.join("item.bin.json").to_str().unwrap(),
        "--to",
        "native",
        "--as",
        "godot3",
        "--out-dir",
        back.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("says it is kingsisle, not godot3"));
}

#[test]
fn globs_and_missing_inputs() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..3 {
        std::fs::copy(
            samples("godot/save.godot3.bin"),
            dir.path().join(format!("g{i}.sav")),
        )
        .unwrap();
    }
    let pattern = format!("{}/*.sav", dir.path().display());
    let o = gamewire(&["convert", &pattern]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        dir.path().join("g2.sav.json").is_file(),
        "written beside the input"
    );
    let o = gamewire(&["convert", &format!("{}/*.none", dir.path().display())]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no file matches"));
    let o = gamewire(&["convert", "/no/such/file"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file or folder"));
}

#[test]
fn godot3_saves_carry_over_to_godot4() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("savegame.dat");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/real/rogue-like-save_file.godot3.save"),
        &save,
    )
    .unwrap();
    std::fs::copy(
        samples("godot/save.godot3.bin"),
        dir.path().join("save.godot3.bin"),
    )
    .unwrap();
    let o = gamewire(&["convert", "--to", "godot4", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (v3, v4, framed) in [
        ("savegame.dat", "savegame.godot4.dat", true),
        ("save.godot3.bin", "save.godot4.bin", false),
    ] {
        let mut a = vec!["decode", "godot3"];
        let mut b = vec!["decode", "godot4"];
        if framed {
            a.push("--framed");
            b.push("--framed");
        }
        let p3 = dir.path().join(v3);
        let p4 = dir.path().join(v4);
        a.push(p3.to_str().unwrap());
        b.push(p4.to_str().unwrap());
        let (j3, j4) = (gamewire(&a), gamewire(&b));
        assert!(
            j4.status.success(),
            "{v4}: {}",
            String::from_utf8_lossy(&j4.stderr)
        );
        // The same values under Godot 4's names for the renamed types.
        let renamed = String::from_utf8(j3.stdout)
            .unwrap()
            .replace("\"Transform\"", "\"Transform3D\"")
            .replace("\"Pool", "\"Packed");
        assert_eq!(renamed, String::from_utf8(j4.stdout).unwrap(), "{v3}");
    }
    // A Godot 4 file is refused, not converted twice.
    let o = gamewire(&[
        "convert",
        "--to",
        "godot4",
        dir.path().join("save.godot4.bin").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a Godot 3 file"));
}
