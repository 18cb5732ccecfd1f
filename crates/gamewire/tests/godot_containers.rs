//! Godot's encrypted (`GDEC`) and compressed (`GCPF`) files through `gamewire::open`:
//! the files godot3-server wrote (tests/fixtures/godot/containers) open with their
//! container in the settings, give their values, and their JSON documents encode back
//! to the same bytes with no option but the secret.
#![cfg(feature = "godot")]

use gamewire::open::{
    encode_document, read_document, EncodeOptions, GodotContainer, GodotFraming, OpenError, Secret,
    Settings,
};
use gamewire::{OpenOptions, SideFiles};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/containers")
        .join(name)
}

fn open(name: &str, secret: Option<Secret>) -> Result<gamewire::Opened, OpenError> {
    let path = fixture(name);
    let data = std::fs::read(&path).unwrap();
    let opts = OpenOptions {
        secret,
        ..OpenOptions::default()
    };
    gamewire::open(data, Some(&path), &SideFiles::none(), &opts)
}

/// Decode to a document, encode it back (with `secret`): the file's bytes.
fn round_trip(name: &str, secret: Option<Secret>) -> gamewire::Opened {
    let o = open(name, secret.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut doc = Vec::new();
    o.write_document(&mut doc, true, None).unwrap();
    let d = read_document(&doc).unwrap();
    let opts = EncodeOptions {
        secret,
        ..EncodeOptions::default()
    };
    let back = encode_document(&d, None, None, &SideFiles::none(), &opts)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        back.bytes,
        std::fs::read(fixture(name)).unwrap(),
        "{name}: written back"
    );
    // The header never holds the secret.
    let text = String::from_utf8_lossy(&doc);
    assert!(
        !text.contains("secret") && !text.contains("5ebe2294"),
        "{name}"
    );
    o
}

fn godot(o: &gamewire::Opened) -> &gamewire::open::GodotSettings {
    match o.settings() {
        Settings::Godot3(g) | Settings::Godot4(g) => g,
        other => panic!("not Godot: {other:?}"),
    }
}

#[test]
fn encrypted_files_open_with_the_password_or_key_and_write_back_the_same_bytes() {
    let o = round_trip(
        "godot3-password.sav",
        Some(Secret::Password("secret".into())),
    );
    assert_eq!(o.format(), gamewire::Format::Godot3);
    let g = godot(&o);
    assert_eq!(g.framing, GodotFraming::StoreVar);
    assert!(matches!(
        g.container,
        Some(GodotContainer::Encrypted { .. })
    ));
    let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
    assert!(
        json.contains("\"hero\"") && json.contains("\"second\""),
        "{json}"
    );
    let key: Vec<u8> = (0..32).collect();
    round_trip("godot3-key.sav", Some(Secret::Key(key)));
}

#[test]
fn a_missing_or_wrong_secret_is_an_error_saying_so() {
    let e = open("godot3-password.sav", None).unwrap_err().to_string();
    assert!(e.contains("--password") && e.contains("--key"), "{e}");
    let e = open("godot3-password.sav", Some(Secret::Password("nope".into())))
        .unwrap_err()
        .to_string();
    assert!(e.contains("wrong password or key"), "{e}");
    let e = open("godot3-key.sav", Some(Secret::Key(vec![1; 32])))
        .unwrap_err()
        .to_string();
    assert!(e.contains("wrong password or key"), "{e}");
}

#[test]
fn compressed_files_of_every_mode_open_and_write_back_the_same_bytes() {
    for mode in ["fastlz", "deflate", "zstd", "gzip"] {
        let name = format!("godot3-{mode}.sav");
        let o = round_trip(&name, None);
        let g = godot(&o);
        assert_eq!(g.framing, GodotFraming::StoreVar, "{name}");
        match &g.container {
            Some(GodotContainer::Compressed {
                mode: m,
                block_size,
                kept,
            }) => {
                assert_eq!(m, mode);
                assert_eq!(*block_size, 4096);
                // Every block compresses again to the engine's bytes: none is kept.
                assert!(kept.is_empty(), "{name}: kept blocks {:?}", kept.len());
            }
            other => panic!("{name}: {other:?}"),
        }
        let gamewire::open::Value::GodotFrames(values) = o.value().unwrap() else {
            panic!("{name}: frames");
        };
        assert_eq!(values.len(), 300, "{name}");
    }
}

#[test]
fn an_edited_compressed_save_changes_and_still_reads() {
    let o = open("godot3-zstd.sav", None).unwrap();
    let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
    let edited = json.replacen("\"hero\"", "\"HERO\"", 1);
    let bytes = o
        .encode_json(edited.as_bytes(), &EncodeOptions::default())
        .unwrap();
    assert_ne!(bytes, o.data());
    let again = gamewire::open(bytes, None, &SideFiles::none(), &OpenOptions::default()).unwrap();
    let j = String::from_utf8(again.to_json(false).unwrap()).unwrap();
    assert_eq!(j, edited);
}

#[test]
fn text_inside_a_container_is_shown_as_text_and_written_back_unchanged() {
    let o = round_trip("godot3-text-zstd.sav", None);
    assert_eq!(godot(&o).framing, GodotFraming::Text);
    assert!(matches!(
        &godot(&o).container,
        Some(GodotContainer::Compressed { kept, .. }) if kept.is_empty()
    ));
    let json = String::from_utf8(o.to_json(false).unwrap()).unwrap();
    assert_eq!(json, r#""{\"json\": true, \"level\": 3}\n""#);
}

#[test]
fn every_truncation_of_a_container_is_an_error_not_a_panic() {
    for name in ["godot3-password.sav", "godot3-deflate.sav"] {
        let data = std::fs::read(fixture(name)).unwrap();
        let opts = OpenOptions {
            secret: Some(Secret::Password("secret".into())),
            ..OpenOptions::default()
        };
        for cut in (4..data.len()).step_by(7) {
            let r = gamewire::open(data[..cut].to_vec(), None, &SideFiles::none(), &opts);
            assert!(r.is_err(), "{name} cut at {cut}");
        }
    }
}
