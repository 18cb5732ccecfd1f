//! `gamewire::open` on every bundled sample and real fixture: settings, value, JSON and
//! document round trips, in-memory side files, and the inspect trees front ends show.
#![cfg(all(
    feature = "godot",
    feature = "kingsisle",
    feature = "zeze",
    feature = "resonite",
    feature = "o3de"
))]

use gamewire::open::{
    encode_document, read_document, side_file_kind, EncodeOptions, Memory, OpenError, Settings,
    Value,
};
use gamewire::{OpenOptions, SideFiles};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every sample and real fixture that is an engine file (not a side file or a note).
fn files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        "samples",
        "tests/fixtures/godot/real",
        "tests/fixtures/resonite/real",
        "tests/fixtures/o3de/real",
        "tests/fixtures/o3de/real-typed",
    ] {
        let mut stack = vec![repo().join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                if p.is_dir() {
                    stack.push(p);
                } else if !name.ends_with(".md") && side_file_kind(&name).is_none() {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    assert!(out.len() > 40, "{} files", out.len());
    out
}

#[test]
fn every_file_opens_and_comes_back_from_its_value_and_its_document() {
    let side = SideFiles::filesystem();
    let mut exact = 0;
    for path in files() {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let opened = match gamewire::open(data.clone(), Some(&path), &side, &OpenOptions::default())
        {
            Ok(o) => o,
            Err(OpenError::Failed { error, .. }) if name.ends_with(".json") => {
                panic!("{name}: {error}")
            }
            // A bare Resonite BSON payload has no name or magic to tell it.
            Err(OpenError::Unknown(None)) if name.ends_with(".bson") => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let settings = opened.settings().clone();
        if matches!(settings, Settings::O3de(_)) && data.starts_with(b"<") {
            assert!(
                opened.to_json(false).is_err(),
                "{name}: ObjectStream XML is refused"
            );
            continue;
        }
        // The value, written back with the file's settings.
        let value = opened.value().unwrap_or_else(|e| panic!("{name}: {e}"));
        let from_value = opened.encode_value(&value).unwrap();
        // The document, read back and encoded.
        let mut doc = Vec::new();
        opened
            .write_document(&mut doc, true, path.parent())
            .unwrap();
        let d = read_document(&doc).unwrap();
        assert_eq!(
            d.settings.as_ref().map(Settings::format),
            Some(opened.format())
        );
        let from_doc = encode_document(&d, Some(&path), None, &side, &EncodeOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .bytes;
        // The check `convert` makes (the document written in memory, its header, floats
        // and data read back where they were written) gives the same document and the
        // verdict of the whole round trip through `read_document`.
        let checked = opened
            .write_document_checked(true, &path, &data, &side, &EncodeOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(checked.text, doc, "{name}: the checked document");
        assert_eq!(
            checked.exact,
            from_doc == data,
            "{name}: the check's verdict"
        );
        if checked.exact {
            let mut other = data.clone();
            other.push(0);
            let again = opened
                .write_document_checked(true, &path, &other, &side, &EncodeOptions::default())
                .unwrap();
            assert!(!again.exact, "{name}: other bytes are not exact");
        }
        let compressed = matches!(&settings, Settings::Resonite(r) if r.compression != "none");
        if compressed {
            // Recompressed: the same data tree.
            let again =
                gamewire::open(from_doc, Some(&path), &side, &OpenOptions::default()).unwrap();
            assert_eq!(
                again.to_json(false).unwrap(),
                opened.to_json(false).unwrap(),
                "{name}"
            );
        } else if opened.notes().is_empty() {
            assert_eq!(from_doc, data, "{name}: document");
            assert_eq!(from_value, data, "{name}: value");
            exact += 1;
        } else {
            // A layout the format cannot keep (said in the note): the same values.
            assert_eq!(from_doc, from_value, "{name}");
        }
    }
    assert!(exact >= 35, "{exact} files came back byte for byte");
}

#[test]
fn side_files_from_memory_are_found_beside_then_up_and_parsed_once() {
    let item = std::fs::read(repo().join("samples/kingsisle/item.bin")).unwrap();
    let types = std::fs::read(repo().join("samples/kingsisle/types.json")).unwrap();
    let mut m = Memory::new();
    m.insert("game/types.json", types.clone());
    let side = SideFiles::memory(m);
    let opts = OpenOptions::default();
    let a = gamewire::open(
        item.clone(),
        Some(Path::new("game/items/a.bin")),
        &side,
        &opts,
    )
    .unwrap();
    let b = gamewire::open(item.clone(), Some(Path::new("game/b.bin")), &side, &opts).unwrap();
    assert!(std::sync::Arc::ptr_eq(
        &a.type_list().unwrap(),
        &b.type_list().unwrap()
    ));
    let Settings::KingsIsle(k) = a.settings() else {
        panic!("{:?}", a.settings())
    };
    assert_eq!(k.types.path, "game/types.json");
    // The same type list as the file system's (base classes filled in alike).
    let fs = gamewire::open(
        item.clone(),
        Some(&repo().join("samples/kingsisle/item.bin")),
        &SideFiles::filesystem(),
        &opts,
    )
    .unwrap();
    assert_eq!(a.to_json(true).unwrap(), fs.to_json(true).unwrap());
    // Without the type list: an error that says what is missing.
    let e = gamewire::open(item, Some(Path::new("x.bin")), &SideFiles::none(), &opts).unwrap_err();
    assert!(e.to_string().contains("needs its type list"), "{e}");
}

#[test]
fn inspect_uses_the_o3de_registry_beside_the_file() {
    let path = repo().join("samples/o3de/sample-entity.json");
    let data = std::fs::read(&path).unwrap();
    let o = gamewire::open(
        data,
        Some(&path),
        &SideFiles::filesystem(),
        &OpenOptions::default(),
    )
    .unwrap();
    let Settings::O3de(s) = o.settings() else {
        panic!()
    };
    assert!(s
        .registry
        .as_ref()
        .unwrap()
        .path
        .ends_with("o3de-registry.json"));
    let text = gamewire::core::inspect::render_text(&o.inspect(8).unwrap());
    assert!(text.contains("ClassName: SampleEntity"), "{text}");
    assert!(text.contains("Shadows: ShadowMode = \"Cast\""), "{text}");
}

#[test]
fn json_text_and_side_files_are_not_engine_files() {
    let side = SideFiles::none();
    let opts = OpenOptions::default();
    let e = gamewire::open(b"{\"a\": 1}".to_vec(), None, &side, &opts).unwrap_err();
    assert!(matches!(e, OpenError::Json { format: None }) && e.is_not_engine_file());
    let doc = br#"{"$gamewire": {"format": "godot4", "framing": "bare"}, "data": 1}"#;
    let e = gamewire::open(doc.to_vec(), None, &side, &opts).unwrap_err();
    assert!(matches!(
        e,
        OpenError::Json {
            format: Some(gamewire::Format::Godot4)
        }
    ));
    let e =
        gamewire::open(b"{}".to_vec(), Some(Path::new("types.json")), &side, &opts).unwrap_err();
    assert!(matches!(e, OpenError::SideFile("KingsIsle type list")));
    let e = gamewire::open(b"\x01\x02 not a file".to_vec(), None, &side, &opts).unwrap_err();
    assert!(matches!(e, OpenError::Unknown(None)), "{e}");
}

#[test]
fn a_value_is_written_back_only_with_its_own_formats_settings() {
    let side = SideFiles::filesystem();
    let g = repo().join("samples/godot/save.godot3.bin");
    let z = repo().join("samples/zeze/BSimple.zeze");
    let og = gamewire::open(
        std::fs::read(&g).unwrap(),
        Some(&g),
        &side,
        &OpenOptions::default(),
    )
    .unwrap();
    let oz = gamewire::open(
        std::fs::read(&z).unwrap(),
        Some(&z),
        &side,
        &OpenOptions::default(),
    )
    .unwrap();
    let vz = oz.value().unwrap();
    assert!(
        matches!(vz, Value::ZezeTyped(_)),
        "typed by the solution beside it"
    );
    let e = og.encode_value(&vz).unwrap_err();
    assert!(e.to_string().contains("not a godot3 value"), "{e}");
}

#[test]
fn a_null_value_is_data_in_a_document() {
    // Four zero bytes: a Godot nil, whose JSON is `null` (found by fuzzing: the document
    // read its `"data": null` as a missing member).
    let side = SideFiles::none();
    let opts = OpenOptions {
        as_format: Some(gamewire::Format::Godot4),
        ..OpenOptions::default()
    };
    let o = gamewire::open(vec![0; 4], None, &side, &opts).unwrap();
    let mut doc = Vec::new();
    o.write_document(&mut doc, false, None).unwrap();
    let d = read_document(&doc).unwrap();
    assert_eq!(&*d.data, b"null");
    let back = encode_document(&d, None, None, &side, &EncodeOptions::default()).unwrap();
    assert_eq!(back.bytes, vec![0; 4]);
    let e =
        read_document(br#"{"$gamewire": {"format": "godot4", "framing": "bare"}}"#).unwrap_err();
    assert!(e.to_string().contains("missing field `data`"), "{e}");
}

/// An O3DE file with an integer wider than 64 bits is refused when opened, naming the
/// integer, instead of decoding to a document its reader refuses (found by the
/// open_document fuzz target); one within the range opens and comes back.
#[test]
fn an_o3de_integer_past_64_bits_is_refused_when_opened() {
    let side = SideFiles::none();
    let wide = b"[\n\n\n333333333333333333333333333\n]\n".to_vec();
    let e = match gamewire::open(
        wide,
        Some(Path::new("x.prefab")),
        &side,
        &OpenOptions::default(),
    ) {
        Ok(_) => panic!("a 27-digit integer opened"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("333333333333333333333333333") && e.contains("64-bit"),
        "{e}"
    );
    let fits = b"[\n\n\n18446744073709551615\n]\n".to_vec();
    let o = gamewire::open(
        fits.clone(),
        Some(Path::new("x.prefab")),
        &side,
        &OpenOptions::default(),
    )
    .unwrap();
    let mut doc = Vec::new();
    o.write_document(&mut doc, false, None).unwrap();
    let d = read_document(&doc).unwrap();
    let back = gamewire::open::encode_document(
        &d,
        None,
        None,
        &side,
        &gamewire::open::EncodeOptions::default(),
    )
    .unwrap();
    assert_eq!(back.bytes, fits);
}
