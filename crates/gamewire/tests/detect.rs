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
    assert_eq!(detect(&[2, 0, 0, 0, 7, 0, 0, 0], Some("score.bin")), None);
    assert_eq!(detect(b"hello", None), None);
}
