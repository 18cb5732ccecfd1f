//! `gamewire godot pck`, and packs through `inspect`, `decode --entry` and `convert`;
//! `project.binary` through `decode FILE` / `encode FILE.json` with no flags.
#![cfg(feature = "godot")]

use std::path::{Path, PathBuf};

mod common;
use common::bin;

fn real(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/real")
        .join(name)
}

fn run(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

macro_rules! gw {
    ($($a:expr),* $(,)?) => { run(&[$(std::ffi::OsStr::new(&$a)),*]) };
}

#[test]
fn project_binary_round_trips_with_no_flags() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("p.json");
    let back = dir.path().join("p.binary");
    let src = real("game-template.project.binary");
    let (ok, _, err) = gw!("decode", src, "-o", json);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"framing\":\"project_binary\""), "{text}");
    assert!(
        text.contains("\"application/config/name\": \"Game Template\""),
        "{text}"
    );
    let (ok, _, err) = gw!("encode", json, "-o", back);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&src).unwrap());
    let (ok, out, err) = gw!("inspect", src);
    assert!(ok, "{err}");
    assert!(
        out.contains("godot4 (project.binary, 11 settings)"),
        "{out}"
    );
}

#[test]
fn pack_unpack_list_inspect_decode_convert() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let pb = std::fs::read(real("cell-game.project.binary")).unwrap();
    std::fs::write(src.join("project.binary"), &pb).unwrap();
    std::fs::write(src.join("sub/a.txt"), b"hello\n").unwrap();
    for format in ["1", "2", "3", "4"] {
        let pck = dir.path().join(format!("p{format}.pck"));
        let (ok, _, err) = gw!("godot", "pck", "pack", src, "-o", pck, "--format", format);
        assert!(ok, "{err}");
        let (ok, out, err) = gw!("godot", "pck", "list", pck);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("format {format}")), "{out}");
        assert!(
            out.contains("[godot4 (project.binary, 8 settings)]"),
            "{out}"
        );
        assert!(out.contains("sub/a.txt  [bytes]"), "{out}");
        // Unpacked files are the originals.
        let to = dir.path().join(format!("out{format}"));
        let (ok, _, err) = gw!("godot", "pck", "unpack", pck, "-o", to);
        assert!(ok, "{err}");
        assert_eq!(std::fs::read(to.join("project.binary")).unwrap(), pb);
        assert_eq!(std::fs::read(to.join("sub/a.txt")).unwrap(), b"hello\n");
        // A second unpack into the same folder replaces nothing.
        let (ok, _, err) = gw!("godot", "pck", "unpack", pck, "-o", to);
        assert!(!ok && err.contains("not empty"), "{err}");
        let (ok, out, err) = gw!("inspect", pck);
        assert!(ok, "{err}");
        assert!(
            out.contains(&format!("Godot pack format {format}")),
            "{out}"
        );
        assert!(
            out.contains("project.binary: godot4 (project.binary, 8 settings) = 596 bytes, MD5 ok"),
            "{out}"
        );
        let (ok, out, err) = gw!("decode", pck, "--entry", "res://project.binary");
        assert!(ok, "{err}");
        assert!(out.contains("\"Cell Game\""), "{out}");
        let (ok, _, err) = gw!("decode", pck);
        assert!(!ok && err.contains("--entry NAME"), "{err}");
        let conv = dir.path().join(format!("conv{format}"));
        let (ok, _, err) = gw!("convert", pck, "--out-dir", conv);
        assert!(ok, "{err}");
        assert_eq!(std::fs::read(conv.join("sub/a.txt")).unwrap(), b"hello\n");
        let back = dir.path().join(format!("back{format}.binary"));
        let (ok, _, err) = gw!("encode", conv.join("project.binary.json"), "-o", back);
        assert!(ok, "{err}");
        assert_eq!(std::fs::read(&back).unwrap(), pb);
    }
    let (ok, _, err) = gw!(
        "godot",
        "pck",
        "pack",
        src,
        "-o",
        dir.path().join("x.pck"),
        "--format",
        "5"
    );
    assert!(!ok && err.contains("pack format 5"), "{err}");
}

/// A pack whose entry path leaves the folder, or whose bytes do not match their MD5:
/// refused with the entry's name, nothing written.
#[test]
fn hostile_packs_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = gamewire::godot::pck::Pack::with_format(3, (4, 5, 0)).unwrap();
    pack.add_file("aaaaaa/x.txt", b"safe".to_vec()).unwrap();
    pack.add_file("evil", b"payload".to_vec()).unwrap();
    let mut bytes = pack.to_bytes();
    // Rename "aaaaaa/x.txt" to "../../x.txt" in the directory (same length).
    let at = bytes
        .windows(12)
        .position(|w| w == b"aaaaaa/x.txt")
        .unwrap();
    bytes[at..at + 12].copy_from_slice(b"../../.x.txt");
    let pck = dir.path().join("evil.pck");
    std::fs::write(&pck, &bytes).unwrap();
    let to = dir.path().join("out");
    let (ok, _, err) = gw!("godot", "pck", "unpack", pck, "-o", to);
    assert!(
        !ok && err.contains("\"../../.x.txt\"") && err.contains("leaves its folder"),
        "{err}"
    );
    assert!(!to.exists());
    // MD5 mismatch.
    let mut bytes = pack.to_bytes();
    let at = bytes.windows(7).position(|w| w == b"payload").unwrap();
    bytes[at] = b'P';
    std::fs::write(&pck, &bytes).unwrap();
    let (ok, _, err) = gw!("godot", "pck", "unpack", pck, "-o", to);
    assert!(
        !ok && err.contains("MD5 mismatch") && err.contains("\"evil\""),
        "{err}"
    );
    assert!(!to.exists());
}

/// The pack Godot 3.2.3's PCKPacker made: inspected, an entry decoded, converted.
#[test]
fn the_engines_pack_is_seen_through() {
    let pck = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/engine-3.2.3/packer.pck");
    let (ok, out, err) = gw!("inspect", pck);
    assert!(ok, "{err}");
    assert!(
        out.contains("Godot pack format 1 (engine 3.2.3), 3 entries"),
        "{out}"
    );
    assert!(
        out.contains("res://saves/save.dat: godot3 (store_var frames, 2 values) = 120 bytes"),
        "{out}"
    );
    assert!(
        out.contains("res://project.binary: godot3 (project.binary, 3 settings)"),
        "{out}"
    );
    let (ok, out, err) = gw!("decode", pck, "--entry", "saves/save.dat");
    assert!(ok, "{err}");
    assert!(
        out.contains("\"name\": \"Ann\"") && out.contains("\"store_var\""),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let conv = dir.path().join("conv");
    let (ok, _, err) = gw!("convert", pck, "--out-dir", conv);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(conv.join("hello.txt")).unwrap(),
        b"hello from Godot 3.2.3's PCKPacker\n"
    );
    assert!(conv.join("saves/save.dat.json").is_file());
    assert!(conv.join("project.binary.json").is_file());
}
