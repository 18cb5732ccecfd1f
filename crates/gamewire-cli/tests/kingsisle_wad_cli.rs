//! `gamewire kingsisle wad list|unpack|pack`, and archives through `inspect`,
//! `decode --entry` and `convert`: the entries come out as they went in, ObjectProperty
//! entries decode as the same file does outside the archive, and hostile names write
//! nothing.
#![cfg(feature = "kingsisle")]

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::bin;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fails(o: &Output) -> String {
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `gamewire convert WAD --out-dir OUT`, which succeeds; its stderr (notes and summary).
fn converted(wad: &Path, out: &Path) -> String {
    let c = bin()
        .arg("convert")
        .arg(wad)
        .arg("--out-dir")
        .arg(out)
        .output()
        .unwrap();
    ok(&c);
    String::from_utf8_lossy(&c.stderr).into_owned()
}

/// `gamewire encode JSON -o BACK` gives the bytes of the repository's file `want`.
fn encodes_back(json: &Path, back: &Path, want: &str) {
    ok(&bin()
        .arg("encode")
        .arg(json)
        .arg("-o")
        .arg(back)
        .output()
        .unwrap());
    assert_eq!(
        std::fs::read(back).unwrap(),
        std::fs::read(root().join(want)).unwrap(),
        "{}",
        json.display()
    );
}

/// A folder with an ObjectProperty BINd file, a text file and an `.mp3`, packed; and the
/// sample's type list beside the archive.
fn packed(dir: &Path, version: &str) -> PathBuf {
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("ObjectData/Items")).unwrap();
    std::fs::copy(
        root().join("samples/kingsisle/item.bin"),
        src.join("ObjectData/Items/item.bin"),
    )
    .unwrap();
    std::fs::write(src.join("readme.txt"), "some text ".repeat(50)).unwrap();
    std::fs::write(src.join("Sound/x.mp3"), b"").unwrap_or_else(|_| {
        std::fs::create_dir_all(src.join("Sound")).unwrap();
        std::fs::write(src.join("Sound/x.mp3"), b"ID3 not compressed").unwrap();
    });
    std::fs::copy(
        root().join("samples/kingsisle/types.json"),
        dir.join("types.json"),
    )
    .unwrap();
    let wad = dir.join("Test.wad");
    ok(&bin()
        .args(["kingsisle", "wad", "pack"])
        .arg(&src)
        .arg("-o")
        .arg(&wad)
        .args(["--wad-version", version])
        .output()
        .unwrap());
    wad
}

#[test]
fn pack_list_unpack_give_the_files_back() {
    for version in ["1", "2"] {
        let t = tempfile::tempdir().unwrap();
        let wad = packed(t.path(), version);
        let bytes = std::fs::read(&wad).unwrap();
        assert_eq!(&bytes[..5], b"KIWAD");
        assert_eq!(bytes[5], version.parse::<u8>().unwrap());
        let list = ok(&bin()
            .args(["kingsisle", "wad", "list"])
            .arg(&wad)
            .output()
            .unwrap());
        let lines: Vec<&str> = list.lines().collect();
        assert_eq!(lines.len(), 3, "{list}");
        assert!(lines[0].ends_with(" ObjectData/Items/item.bin"), "{list}");
        assert!(
            lines[1].contains(" stored ") && lines[1].ends_with(" Sound/x.mp3"),
            "{list}"
        );
        assert!(
            lines[2].contains(" zlib ") && lines[2].ends_with(" readme.txt"),
            "{list}"
        );
        let json = ok(&bin()
            .args(["kingsisle", "wad", "list", "--json"])
            .arg(&wad)
            .output()
            .unwrap());
        let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
        assert_eq!(first["name"], "ObjectData/Items/item.bin");
        assert_eq!(first["compressed"], true);
        let out = t.path().join("out");
        ok(&bin()
            .args(["kingsisle", "wad", "unpack"])
            .arg(&wad)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap());
        for f in ["ObjectData/Items/item.bin", "readme.txt", "Sound/x.mp3"] {
            assert_eq!(
                std::fs::read(out.join(f)).unwrap(),
                std::fs::read(t.path().join("src").join(f)).unwrap(),
                "{f}"
            );
        }
        // Patterns choose entries.
        let some = t.path().join("some");
        ok(&bin()
            .args(["kingsisle", "wad", "unpack"])
            .arg(&wad)
            .arg("-o")
            .arg(&some)
            .arg("**/*.bin")
            .output()
            .unwrap());
        assert!(some.join("ObjectData/Items/item.bin").exists());
        assert!(!some.join("readme.txt").exists());
        // A non-empty folder is refused.
        let e = fails(
            &bin()
                .args(["kingsisle", "wad", "unpack"])
                .arg(&wad)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap(),
        );
        assert!(e.contains("not empty"), "{e}");
    }
}

#[test]
fn flags_need_version_2() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("d")).unwrap();
    std::fs::write(t.path().join("d/a"), b"a").unwrap();
    let e = fails(
        &bin()
            .args(["kingsisle", "wad", "pack"])
            .arg(t.path().join("d"))
            .arg("-o")
            .arg(t.path().join("x.wad"))
            .args(["--wad-version", "1", "--flags", "3"])
            .output()
            .unwrap(),
    );
    assert!(e.contains("no flags byte"), "{e}");
    ok(&bin()
        .args(["kingsisle", "wad", "pack"])
        .arg(t.path().join("d"))
        .arg("-o")
        .arg(t.path().join("x.wad"))
        .args(["--wad-version", "2", "--flags", "3"])
        .output()
        .unwrap());
    assert_eq!(std::fs::read(t.path().join("x.wad")).unwrap()[13], 3);
}

#[test]
fn inspect_decode_entry_and_convert() {
    let t = tempfile::tempdir().unwrap();
    let wad = packed(t.path(), "2");
    let shown = ok(&bin().arg("inspect").arg(&wad).output().unwrap());
    assert!(shown.contains("KingsIsle KIWAD version 2"), "{shown}");
    assert!(
        shown.contains("ObjectData/Items/item.bin: kingsisle"),
        "{shown}"
    );
    assert!(shown.contains("readme.txt: bytes"), "{shown}");
    // decode --entry gives what decoding the file itself gives (same type list).
    let entry = ok(&bin()
        .arg("decode")
        .arg(&wad)
        .args(["--entry", "ObjectData/Items/item.bin", "--compact"])
        .output()
        .unwrap());
    let file = ok(&bin()
        .arg("decode")
        .arg(t.path().join("src/ObjectData/Items/item.bin"))
        .arg("--types")
        .arg(t.path().join("types.json"))
        .arg("--compact")
        .output()
        .unwrap());
    let data = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["data"].clone();
    assert_eq!(data(&entry), data(&file));
    assert!(entry.contains("Storm Hat"));
    let e = fails(
        &bin()
            .arg("decode")
            .arg(&wad)
            .args(["--entry", "nope"])
            .output()
            .unwrap(),
    );
    assert!(
        e.contains("no entry \"nope\"") && e.contains("readme.txt"),
        "{e}"
    );
    let e = fails(&bin().arg("decode").arg(&wad).output().unwrap());
    assert!(e.contains("--entry NAME"), "{e}");
    // convert: the object to JSON that encodes back to the entry's bytes, the rest as is.
    let out = t.path().join("conv");
    let summary = converted(&wad, &out);
    assert!(
        summary.contains("1 decoded to JSON, 2 extracted"),
        "{summary}"
    );
    encodes_back(
        &out.join("ObjectData/Items/item.bin.json"),
        &t.path().join("back.bin"),
        "samples/kingsisle/item.bin",
    );
    assert_eq!(
        std::fs::read(out.join("readme.txt")).unwrap(),
        std::fs::read(t.path().join("src/readme.txt")).unwrap()
    );
    // --types names the list; without one, objects are extracted as they are.
    std::fs::remove_file(t.path().join("types.json")).unwrap();
    let out2 = t.path().join("conv2");
    let c = bin()
        .arg("convert")
        .arg(&wad)
        .arg("--out-dir")
        .arg(&out2)
        .output()
        .unwrap();
    ok(&c);
    assert!(String::from_utf8_lossy(&c.stderr).contains("no type list"));
    assert!(out2.join("ObjectData/Items/item.bin").exists());
    let out3 = t.path().join("conv3");
    ok(&bin()
        .arg("convert")
        .arg(&wad)
        .arg("--out-dir")
        .arg(&out3)
        .arg("--types")
        .arg(root().join("samples/kingsisle/types.json"))
        .output()
        .unwrap());
    assert!(out3.join("ObjectData/Items/item.bin.json").exists());
}

#[test]
fn katsubas_test_archive_unpacks() {
    let t = tempfile::tempdir().unwrap();
    let wad = root().join("tests/fixtures/kingsisle/wad/Test.wad");
    ok(&bin()
        .args(["kingsisle", "wad", "unpack"])
        .arg(&wad)
        .arg("-o")
        .arg(t.path().join("o"))
        .output()
        .unwrap());
    assert_eq!(
        std::fs::read(t.path().join("o/subdir/subdir_text1.txt")).unwrap(),
        b"this is subdir text1\n"
    );
    let e = fails(
        &bin()
            .args(["kingsisle", "wad", "list"])
            .arg(root().join("tests/fixtures/kingsisle/wad/oob.wad"))
            .output()
            .unwrap(),
    );
    assert!(
        e.contains("entry \"a\"") && e.contains("past the end"),
        "{e}"
    );
}

#[test]
fn names_that_leave_the_folder_write_nothing() {
    for (bad, why) in [
        (b"../evil".as_slice(), "'..'"),
        (b"/x/evil".as_slice(), "absolute"),
        (b"xx\\evil".as_slice(), "backslash"),
        (b"xx\0evil".as_slice(), "NUL"),
    ] {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("d")).unwrap();
        std::fs::write(t.path().join("d/aaaaaaa"), b"payload").unwrap();
        std::fs::write(t.path().join("d/bbbbbbb"), b"fine").unwrap();
        let wad = t.path().join("x.wad");
        ok(&bin()
            .args(["kingsisle", "wad", "pack"])
            .arg(t.path().join("d"))
            .arg("-o")
            .arg(&wad)
            .output()
            .unwrap());
        let mut bytes = std::fs::read(&wad).unwrap();
        let at = bytes.windows(7).position(|w| w == b"aaaaaaa").unwrap();
        bytes[at..at + 7].copy_from_slice(bad);
        std::fs::write(&wad, &bytes).unwrap();
        let out = t.path().join("out");
        let e = fails(
            &bin()
                .args(["kingsisle", "wad", "unpack"])
                .arg(&wad)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap(),
        );
        assert!(e.contains("refused") && e.contains(why), "{e}");
        assert!(!out.exists(), "nothing written");
        let e = fails(
            &bin()
                .arg("convert")
                .arg(&wad)
                .arg("--out-dir")
                .arg(&out)
                .output()
                .unwrap(),
        );
        assert!(e.contains("refused"), "{e}");
        assert!(!out.exists(), "nothing written");
        assert!(!t.path().join("evil").exists() && !Path::new("/x/evil").exists());
    }
}

/// Unpacks `wad` into `out`, expecting a failure; gives its message.
fn unpack_fails(wad: &Path, out: &Path) -> String {
    fails(
        &bin()
            .args(["kingsisle", "wad", "unpack"])
            .arg(wad)
            .arg("-o")
            .arg(out)
            .args(["-j", "1"])
            .output()
            .unwrap(),
    )
}

#[test]
fn a_damaged_entry_stops_unpacking_and_leaves_nothing_extracted() {
    let t = tempfile::tempdir().unwrap();
    let wad = packed(t.path(), "2");
    let good = std::fs::read(&wad).unwrap();
    // readme.txt is the last entry in journal order: the two before it are extracted
    // first (one worker), then removed when it fails.
    let name = b"readme.txt\0";
    let at = good.windows(name.len()).position(|w| w == name).unwrap();
    let record = at - 21;
    let field = |k: usize| u32::from_le_bytes(good[record + k..record + k + 4].try_into().unwrap());
    let (offset, stored) = (field(0) as usize, field(8) as usize);
    assert_eq!(good[record + 12], 1, "readme.txt is compressed");

    // A flipped stored byte: a CRC mismatch naming the entry.
    let mut crc = good.clone();
    crc[offset + stored / 2] ^= 0x40;
    let bad = t.path().join("crc.wad");
    std::fs::write(&bad, &crc).unwrap();
    let out = t.path().join("out");
    let e = unpack_fails(&bad, &out);
    assert!(
        e.contains("\"readme.txt\"")
            && e.contains("CRC mismatch")
            && e.contains("nothing was extracted"),
        "{e}"
    );
    assert!(!out.exists(), "the new folder is removed");

    // A declared size smaller than what the entry inflates to (a zlib bomb's shape): an
    // error at the declared size; an empty folder given is left empty.
    let mut bomb = good.clone();
    bomb[record + 4..record + 8].copy_from_slice(&10u32.to_le_bytes());
    let bad = t.path().join("bomb.wad");
    std::fs::write(&bad, &bomb).unwrap();
    std::fs::create_dir(&out).unwrap();
    let e = unpack_fails(&bad, &out);
    assert!(
        e.contains("\"readme.txt\"") && e.contains("10 inflated bytes as declared"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "left empty");
}

#[test]
fn convert_keeps_raw_an_entry_whose_json_would_not_come_back_exact() {
    // An XML object file decodes, but its JSON is written back as gamewire lays XML out
    // (not byte for byte): it must be extracted as it is, with a note; the Godot save
    // beside it comes back exact and is written as JSON.
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    let xml = root().join("tests/fixtures/kingsisle/xml/item.xml");
    std::fs::copy(&xml, src.join("item.xml")).unwrap();
    std::fs::copy(
        root().join("samples/godot/save.godot3.bin"),
        src.join("save.dat"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/fixtures/kingsisle/xml/item.types.json"),
        t.path().join("types.json"),
    )
    .unwrap();
    let wad = t.path().join("mixed.wad");
    ok(&bin()
        .args(["kingsisle", "wad", "pack"])
        .arg(&src)
        .arg("-o")
        .arg(&wad)
        .output()
        .unwrap());
    let out = t.path().join("conv");
    let err = converted(&wad, &out);
    assert!(
        err.contains("entry item.xml: extracted as it is: its JSON would not encode back"),
        "{err}"
    );
    assert!(!out.join("item.xml.json").exists());
    assert_eq!(
        std::fs::read(out.join("item.xml")).unwrap(),
        std::fs::read(&xml).unwrap()
    );
    // The save's document encodes back to the save.
    encodes_back(
        &out.join("save.dat.json"),
        &t.path().join("save.back"),
        "samples/godot/save.godot3.bin",
    );
    assert!(
        err.contains("1 decoded to JSON, 1 extracted as they are"),
        "{err}"
    );
}
