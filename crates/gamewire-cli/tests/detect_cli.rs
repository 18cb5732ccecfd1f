//! Files named as users name them: `inspect` recognises formats by content.
#![cfg(feature = "godot")]

use std::path::Path;
use std::process::Command;

fn inspect(path: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .arg("inspect")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_real_godot3_save_renamed_savegame_dat_is_inspected() {
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/real/rogue-like-save_file.godot3.save");
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("savegame.dat");
    std::fs::copy(real, &renamed).unwrap();
    let text = inspect(&renamed);
    assert!(text.contains("godot3 (store_var frame, 1 value)"), "{text}");
    assert!(text.contains("\"health\": int = 100"), "{text}");
}

#[test]
fn gamewire_json_output_is_not_decoded_as_godot_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("save.godot4.json");
    std::fs::write(&json, b"{\n  \"hp\": 3\n}\n").unwrap();
    let text = inspect(&json);
    assert!(text.contains("JSON text, not an engine file"), "{text}");
}

#[test]
fn tiny_values_that_read_alike_ask_for_a_choice() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.dat");
    std::fs::write(&f, [4, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let text = inspect(&f);
    assert!(
        text.contains("ambiguous") && text.contains("--as"),
        "{text}"
    );
}
