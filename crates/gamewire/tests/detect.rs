//! Format detection on the bundled samples: every sample is claimed by the format of its
//! folder (or by none, for side files such as type lists and schemas), never by another.

use gamewire::{detect, Format};
use std::path::Path;

fn folder_format(folder: &str) -> &'static [Format] {
    match folder {
        "godot" => &[Format::Godot3, Format::Godot4],
        "kingsisle" => &[Format::KingsIsle],
        "zeze" => &[Format::Zeze],
        "resonite" => &[Format::Resonite],
        "o3de" => &[Format::O3de],
        other => panic!("samples/{other}: a folder with no format"),
    }
}

#[test]
fn samples_are_detected_as_their_folders_format() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut folders = 0;
    for folder in std::fs::read_dir(&root).unwrap() {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let allowed = folder_format(&name);
        let mut claimed = 0;
        for file in std::fs::read_dir(&folder).unwrap() {
            let file = file.unwrap().path();
            let file_name = file.file_name().unwrap().to_string_lossy().into_owned();
            if file_name.ends_with(".md") {
                continue;
            }
            let data = std::fs::read(&file).unwrap();
            if let Some(f) = detect(&data, Some(&file_name)) {
                assert!(allowed.contains(&f), "{} detected as {f}", file.display());
                claimed += 1;
            }
        }
        assert!(claimed > 0, "no file in samples/{name} is detected");
        folders += 1;
    }
    assert!(folders >= 1);
}

#[test]
fn names_and_magic_numbers() {
    assert_eq!(
        detect(&[2, 0, 0, 0, 7, 0, 0, 0], Some("score.godot4")),
        Some(Format::Godot4)
    );
    assert_eq!(
        detect(&[2, 0, 0, 0, 7, 0, 0, 0], Some("score.godot3.bin")),
        Some(Format::Godot3)
    );
    // By content: a bare int 7, which Godot 3 and 4 write alike (named as Godot 4).
    assert_eq!(
        detect(&[2, 0, 0, 0, 7, 0, 0, 0], Some("score.bin")),
        Some(Format::Godot4)
    );
    assert_eq!(detect(b"hello", None), None);
}

fn real(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(path),
    )
    .unwrap()
}

#[test]
fn a_godot_save_is_recognised_by_content_under_any_name() {
    use gamewire::{identify, Detection, Evidence};
    let bytes = real("godot/real/rogue-like-save_file.godot3.save");
    for name in [Some("savegame.dat"), Some("save_file.save"), None] {
        match identify(&bytes, name) {
            Detection::Found(f) => {
                assert_eq!(f.format, Format::Godot3, "{name:?}");
                assert_eq!(f.evidence, Evidence::Content);
                assert_eq!(f.describe(), "godot3 (store_var frame, 1 value)");
            }
            other => panic!("{name:?}: {other:?}"),
        }
    }
}

#[test]
fn json_is_never_read_as_engine_bytes() {
    use gamewire::{identify, Detection};
    // gamewire's own output for a Godot file, under the name `gamewire decode` suggests.
    let json = b"{\n  \"name\": \"Ann\",\n  \"hp\": 87.5\n}\n";
    assert_eq!(identify(json, Some("save.godot4.json")), Detection::Json);
    assert_eq!(detect(json, Some("save.godot4.json")), None);
    assert_eq!(identify(b"  [1, 2]", Some("list.bin")), Detection::Json);
    // ... while the O3DE envelope is O3DE's own file format.
    let o3de = br#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "X", "ClassData": {}}"#;
    assert_eq!(detect(o3de, Some("x.json")), Some(Format::O3de));
}

#[test]
fn tiny_values_that_read_alike_are_ambiguous_not_guessed() {
    use gamewire::{identify, Detection};
    // `04 00 00 00 00 00 00 00`: a bare empty String, or a 4-byte frame holding null.
    match identify(&[4, 0, 0, 0, 0, 0, 0, 0], Some("x.dat")) {
        Detection::Ambiguous(found) => assert!(found.len() >= 2, "{found:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn kingsisle_xml_object_files_are_recognised_and_other_xml_is_not() {
    // As `gamewire encode kingsisle --xml` writes them, under any name.
    let written = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n  \
                   <Class Name=\"class SampleItem\">\n    <m_level>50</m_level>\n  \
                   </Class>\n</Objects>\n";
    for name in [Some("item.xml"), Some("item.out"), None] {
        assert_eq!(
            detect(written.as_bytes(), name),
            Some(Format::KingsIsle),
            "{name:?}"
        );
    }
    let bom = [b"\xEF\xBB\xBF".as_slice(), written.as_bytes()].concat();
    assert_eq!(detect(&bom, None), Some(Format::KingsIsle));
    // A Zeze solution is XML too, but not claimed as KingsIsle.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/zeze");
    let solution = std::fs::read(root.join("zeze-solution.xml")).unwrap();
    assert_ne!(
        detect(&solution, Some("zeze-solution.xml")),
        Some(Format::KingsIsle)
    );
    assert_eq!(detect(b"<html><body/></html>", Some("page.xml")), None);
}
