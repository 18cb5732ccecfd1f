//! Files named as users name them: `inspect` recognises formats by content.
#![cfg(feature = "godot")]

use std::path::Path;
use std::process::Command;

mod common;
use common::gamewire_in_repo as gamewire;

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
    // What `decode FILE` writes says its format, and inspect says so.
    let out = dir.path().join("save.dat.json");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/godot/save.godot3.bin");
    let o = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args([
            "decode",
            sample.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = inspect(&out);
    assert!(text.contains("gamewire JSON of a godot3 file"), "{text}");
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

fn ok(args: &[&str]) -> Vec<u8> {
    let out = gamewire(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn decode_with_no_format_matches_the_format_subcommand() {
    // (file, the explicit command a user had to type before)
    let cases: &[(&str, &[&str])] = &[
        ("samples/godot/save.godot3.bin", &["decode", "godot3"]),
        (
            "samples/godot/stream.godot3.bin",
            &["decode", "godot3", "--framed"],
        ),
        (
            "samples/kingsisle/item.bin",
            &["decode", "kingsisle", "-t", "samples/kingsisle/types.json"],
        ),
        (
            "samples/resonite/legacy-item.7zbson",
            &["decode", "resonite"],
        ),
        (
            "samples/zeze/session.frames.zeze",
            &[
                "decode",
                "zeze",
                "--frames",
                "--schema",
                "samples/zeze/zeze-solution.xml",
            ],
        ),
    ];
    for (file, explicit) in cases {
        let auto = ok(&["decode", "--compact", file]);
        let j: serde_json::Value = serde_json::from_slice(&auto).unwrap();
        let mut args = explicit.to_vec();
        if args.contains(&"--framed") || args.contains(&"--frames") {
            args.push("--array"); // a stream is kept as one array under "data"
        }
        args.push("--compact");
        args.push(file);
        let plain: serde_json::Value = serde_json::from_slice(&ok(&args)).unwrap();
        assert_eq!(j["data"], plain, "{file}");
        assert_eq!(j["$gamewire"]["format"], explicit[1], "{file}");
        // And back with no flags: the same bytes.
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("x.json");
        std::fs::write(&json, &auto).unwrap();
        let bytes = ok(&["encode", json.to_str().unwrap()]);
        let original = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(file),
        )
        .unwrap();
        assert_eq!(bytes, original, "{file}: decode FILE then encode FILE.json");
    }
    // A bean file is typed by the solution beside it, through its name.
    let typed = String::from_utf8(ok(&["decode", "samples/zeze/BSimple.zeze"])).unwrap();
    let bare = String::from_utf8(ok(&["decode", "zeze", "samples/zeze/BSimple.zeze"])).unwrap();
    assert_ne!(typed, bare, "the solution names the fields");
}

#[test]
fn decode_with_no_format_explains_what_it_cannot_choose() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("x.dat");
    std::fs::write(&tiny, [4, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let out = gamewire(&["decode", tiny.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("--as") && err.contains("godot4"), "{err}");
    // --as settles it.
    let text = ok(&[
        "decode",
        "--compact",
        "--as",
        "godot3",
        tiny.to_str().unwrap(),
    ]);
    let j: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(j["data"], "");
    // JSON is not decoded, and says how to encode it instead.
    let json = dir.path().join("save.json");
    std::fs::write(&json, b"{\"hp\": 1}").unwrap();
    let out = gamewire(&["decode", json.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("gamewire encode"));
    // A KingsIsle file with no type list names what to put where.
    let bind = dir.path().join("item.bin");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/kingsisle/item.bin"),
        &bind,
    )
    .unwrap();
    let out = gamewire(&["decode", bind.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("types.json"));
}

/// `inspect --json` writes each entry as it goes: an empty folder is `[]`, and a run
/// with a file that fails still ends the array (and exits 1).
#[test]
fn inspect_json_is_one_array_as_entries_stream() {
    let dir = tempfile::tempdir().unwrap();
    let empty = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["inspect", "--json"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(empty.status.success());
    assert_eq!(String::from_utf8_lossy(&empty.stdout), "[]\n");
    std::fs::write(
        dir.path().join("a.brson"),
        b"FrDT\x02\x00\x00\x00\x00broken",
    )
    .unwrap();
    std::fs::write(dir.path().join("b.txt"), b"hello").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["inspect", "--json", "--as", "resonite"])
        .arg(dir.path().join("a.brson"))
        .arg(dir.path().join("b.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = j.as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e["error"].is_string()), "{j}");
}

#[test]
fn inspect_reads_stdin_and_prints_json() {
    use std::io::Write;
    use std::process::Stdio;
    let real = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/real/rogue-like-save_file.godot3.save"),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["inspect", "--json", "-", "samples/kingsisle"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&real).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = j.as_array().unwrap();
    assert_eq!(entries[0]["path"], "-");
    assert_eq!(entries[0]["format"], "godot3");
    assert_eq!(
        entries[0]["description"],
        "godot3 (store_var frame, 1 value)"
    );
    let frame = &entries[0]["tree"][1];
    assert_eq!(frame["type"], "Dictionary");
    assert_eq!(frame["children"][0]["value"], "100");
    // The folder's BINd file is typed by its type list, which is listed as a side file.
    let kinds: Vec<&str> = entries[1..]
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["format", "side file"]);
    assert_eq!(entries[1]["format"], "kingsisle");
}

#[test]
fn encode_refuses_binary_on_a_terminal_but_not_in_a_pipe() {
    // `script` gives the command a terminal for stdout.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    std::fs::write(&json, br#"{"hp": 3}"#).unwrap();
    let bin = env!("CARGO_BIN_EXE_gamewire");
    let on_tty = Command::new("script")
        .args([
            "-qec",
            &format!("{bin} encode godot4 {}", json.display()),
            "/dev/null",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&on_tty.stdout);
    assert!(text.contains("refusing to write"), "{text}");
    assert!(!on_tty.status.success());
    // Piped, the bytes flow.
    let piped = Command::new(bin)
        .args(["encode", "godot4", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(piped.stdout[0], 27, "a Godot 4 Dictionary header");
}

#[test]
fn streams_are_json_lines_or_one_array_and_both_encode_back() {
    use std::io::Write;
    use std::process::Stdio;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cases: &[(&str, &str, &str)] = &[
        ("samples/godot/stream.godot3.bin", "godot3", "--framed"),
        ("samples/zeze/session.frames.zeze", "zeze", "--frames"),
    ];
    for (file, format, flag) in cases {
        let original = std::fs::read(root.join(file)).unwrap();
        for array in [false, true] {
            let mut args = vec!["decode", format, flag];
            if array {
                args.push("--array");
            }
            args.push(file);
            let json = gamewire(&args).stdout;
            let text = String::from_utf8(json.clone()).unwrap();
            if array {
                let j: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert!(j.is_array(), "{file}: one array");
            } else {
                // Every line is one whole JSON document.
                for line in text.lines() {
                    serde_json::from_str::<serde_json::Value>(line)
                        .unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
                }
                assert!(text.lines().count() >= 2, "{file}: one line per record");
            }
            let mut enc = vec!["encode", format, flag];
            if array {
                enc.push("--array");
            }
            let mut child = Command::new(env!("CARGO_BIN_EXE_gamewire"))
                .args(&enc)
                .current_dir(&root)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(&json).unwrap();
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.stdout, original, "{file} array={array}");
        }
    }
}

#[test]
#[cfg(feature = "o3de")]
fn an_o3de_registry_in_a_parent_folder_is_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("levels/a")).unwrap();
    let file = dir.path().join("levels/a/sample-entity.json");
    std::fs::copy(root.join("sample-entity.json"), &file).unwrap();
    assert!(inspect(&file).contains("read without a registry"));
    std::fs::copy(
        root.join("o3de-registry.json"),
        dir.path().join("o3de-registry.json"),
    )
    .unwrap();
    let text = inspect(&file);
    assert!(text.contains("ClassData: SampleEntity"), "{text}");
}
