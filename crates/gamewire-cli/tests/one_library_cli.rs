//! Issue 23's failures, each as it was met: the front ends disagreed, and some paths
//! damaged data without a word. Every test here failed before `gamewire::open`.
#![cfg(all(
    feature = "godot",
    feature = "kingsisle",
    feature = "zeze",
    feature = "resonite",
    feature = "o3de"
))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{bin, gamewire, run_with_stdin};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn samples(p: &str) -> PathBuf {
    repo().join("samples").join(p)
}

fn real(p: &str) -> PathBuf {
    repo().join("tests/fixtures").join(p)
}

#[track_caller]
fn ok(o: &Output) -> &[u8] {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    &o.stdout
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `decode FILE -o JSON`, then the JSON.
fn decode_to(file: &Path, json: &Path) -> serde_json::Value {
    ok(&gamewire(&["decode", s(file), "-o", s(json)]));
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

#[test]
fn encode_format_of_a_document_with_a_header_writes_the_file_not_the_header() {
    let dir = tempfile::tempdir().unwrap();
    for (file, format) in [
        (real("godot/real/restlife-savegame.godot4.save"), "godot4"),
        (real("godot/real/blasto-x-save_data.godot3.save"), "godot3"),
        (samples("o3de/Sound_Effect.prefab"), "o3de"),
    ] {
        let json = dir.path().join("x.json");
        decode_to(&file, &json);
        let out = dir.path().join("x.out");
        // The README's form: the format named, a document from `decode FILE` given.
        ok(&gamewire(&["encode", format, s(&json), "-o", s(&out)]));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&file).unwrap(),
            "{format}: the engine file again, no header inside"
        );
        // From stdin too.
        let o = run_with_stdin(&["encode", format], &std::fs::read(&json).unwrap());
        assert_eq!(
            ok(&o),
            std::fs::read(&file).unwrap().as_slice(),
            "{format} stdin"
        );
        // Another format named: an error naming both.
        let other = if format == "o3de" { "godot4" } else { "o3de" };
        let o = gamewire(&["encode", other, s(&json), "-o", s(&out)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(
            err.contains(&format!("says it is {format}, not {other}")),
            "{err}"
        );
    }
}

#[test]
fn decode_dash_reads_stdin_with_detection() {
    let file = real("godot/real/just-dino-savegame.godot4.save");
    let data = std::fs::read(&file).unwrap();
    let piped = run_with_stdin(&["decode", "-", "--compact"], &data);
    let named = gamewire(&["decode", s(&file), "--compact"]);
    assert_eq!(ok(&piped), ok(&named));
    // One JSON document on one line (the header does not take a line of its own).
    assert_eq!(piped.stdout.iter().filter(|b| **b == b'\n').count(), 1);
    // Inspect and encode take `-` too.
    let o = run_with_stdin(&["inspect", "-"], &data);
    assert!(String::from_utf8_lossy(ok(&o)).contains("godot4"));
    let o = run_with_stdin(&["encode", "-"], &named.stdout);
    assert_eq!(ok(&o), data.as_slice());
}

#[test]
fn a_truncated_save_names_its_format_and_the_offset_and_inspect_fails() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(real("godot/real/rogue-like-save_file.godot3.save")).unwrap();
    let cut = dir.path().join("savegame.dat");
    std::fs::write(&cut, &data[..data.len() * 2 / 3]).unwrap();
    let o = gamewire(&["decode", s(&cut)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("godot3") && err.contains("at byte"), "{err}");
    assert!(o.stdout.is_empty(), "nothing written on failure");
    let o = gamewire(&["inspect", s(&cut)]);
    assert!(!o.status.success(), "inspect exits 1 on a damaged file");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("damaged") && text.contains("error:"),
        "{text}"
    );
}

/// Copies `files` (path, name) into a new folder under `dir`.
fn folder(dir: &Path, name: &str, files: &[(PathBuf, &str)]) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    for (from, to) in files {
        std::fs::copy(from, d.join(to)).unwrap();
    }
    d
}

#[test]
fn a_document_moved_with_its_side_files_still_encodes() {
    let dir = tempfile::tempdir().unwrap();
    let a = folder(
        dir.path(),
        "a",
        &[
            (samples("kingsisle/item.bin"), "item.bin"),
            (samples("kingsisle/types.json"), "types.json"),
        ],
    );
    let doc = decode_to(&a.join("item.bin"), &a.join("item.json"));
    let types = &doc["$gamewire"]["types"];
    assert_eq!(types["path"], "types.json", "relative to the JSON: {doc}");
    assert_eq!(types["sha256"].as_str().map(str::len), Some(64));
    // Moved together to another folder (the originals gone).
    let b = dir.path().join("b");
    std::fs::create_dir(&b).unwrap();
    for n in ["item.json", "types.json"] {
        std::fs::rename(a.join(n), b.join(n)).unwrap();
    }
    std::fs::remove_dir_all(&a).unwrap();
    let out = b.join("item.out");
    ok(&gamewire(&[
        "encode",
        s(&b.join("item.json")),
        "-o",
        s(&out),
    ]));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(samples("kingsisle/item.bin")).unwrap()
    );
    // A different type list beside it: a failure names it as the likely cause.
    std::fs::write(b.join("types.json"), br#"{"version": 2, "classes": {}}"#).unwrap();
    let o = gamewire(&["encode", s(&b.join("item.json")), "-o", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("types.json is not the file this JSON was decoded with"),
        "{err}"
    );
}

#[test]
fn a_zeze_document_moved_with_its_solution_still_encodes() {
    let dir = tempfile::tempdir().unwrap();
    let a = folder(
        dir.path(),
        "game",
        &[
            (samples("zeze/session.frames.zeze"), "session.frames.zeze"),
            (samples("zeze/zeze-solution.xml"), "zeze-solution.xml"),
        ],
    );
    // The JSON goes to a folder below the solution.
    let out_dir = a.join("json");
    std::fs::create_dir(&out_dir).unwrap();
    let doc = decode_to(&a.join("session.frames.zeze"), &out_dir.join("s.json"));
    assert_eq!(doc["$gamewire"]["solution"]["path"], "../zeze-solution.xml");
    let moved = dir.path().join("moved");
    std::fs::rename(&a, &moved).unwrap();
    let o = gamewire(&["encode", s(&moved.join("json/s.json"))]);
    assert_eq!(
        ok(&o),
        std::fs::read(samples("zeze/session.frames.zeze"))
            .unwrap()
            .as_slice()
    );
}

#[test]
fn a_header_cannot_name_a_side_file_by_absolute_path_nor_options() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("x.json");
    std::fs::write(
        &json,
        br#"{"$gamewire": {"format": "kingsisle", "file": "bind", "types": {"path": "/etc/passwd", "sha256": ""}}, "data": {}}"#,
    )
    .unwrap();
    let o = gamewire(&["encode", s(&json)]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("absolute path"));
    // An older header's options are read as settings, never as a command line.
    let target = dir.path().join("elsewhere.bin");
    std::fs::write(
        &json,
        format!(
            r#"{{"$gamewire": {{"format": "godot4", "encode": ["-o", "{}"]}}, "data": [1, 2, 3]}}"#,
            target.display()
        ),
    )
    .unwrap();
    let o = gamewire(&["encode", s(&json), "-o", s(&dir.path().join("out.bin"))]);
    assert!(!o.status.success());
    assert!(!target.exists(), "the header chose no output");
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"-o\""));
}

/// Runs a JSON tool over `json` (jq 1.6 as Debian ships it, or node's
/// `JSON.stringify`); `None` when the tool is absent (required under
/// GAMEWIRE_REQUIRE_PEERS=1).
fn through(tool: &str, json: &Path, out: &Path) -> Option<()> {
    let mut cmd = match tool {
        "jq" => {
            let mut c = Command::new("jq");
            c.arg(".").arg(json);
            c
        }
        _ => {
            let mut c = Command::new("node");
            c.args([
                "-e",
                "const fs=require('fs');process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1],'utf8'))))",
            ])
            .arg(json);
            c
        }
    };
    match cmd.output() {
        Ok(o) if o.status.success() => {
            std::fs::write(out, o.stdout).unwrap();
            Some(())
        }
        Ok(o) => panic!("{tool}: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            assert!(
                std::env::var_os("GAMEWIRE_REQUIRE_PEERS").is_none(),
                "{tool} is required: {e}"
            );
            eprintln!("skipped: {tool} is not installed ({e})");
            None
        }
    }
}

#[test]
fn floats_survive_jq_and_json_stringify() {
    let dir = tempfile::tempdir().unwrap();
    // A real Godot 3 settings save holding floats with whole values (240.0, 10.0, ...),
    // and a Resonite item whose doubles are whole numbers (positions, scales).
    for (file, exact) in [
        (real("godot/real/retrofps-settings.godot3.save"), true),
        (real("resonite/real/resonite-avatar-root-id.brson"), false),
        (samples("o3de/SelectorPass.pass"), true),
    ] {
        let name = file.file_name().unwrap().to_str().unwrap().to_owned();
        let json = dir.path().join(format!("{name}.json"));
        let doc = decode_to(&file, &json);
        assert!(
            doc.get("$floats")
                .is_some_and(|f| !f["at"].as_array().unwrap().is_empty())
                || name.ends_with(".pass"),
            "{name}: whole-valued floats recorded"
        );
        for tool in ["jq", "node"] {
            let edited = dir.path().join(format!("{name}.{tool}.json"));
            if through(tool, &json, &edited).is_none() {
                continue;
            }
            let text = std::fs::read_to_string(&edited).unwrap();
            let out = dir.path().join(format!("{name}.{tool}.out"));
            ok(&gamewire(&["encode", s(&edited), "-o", s(&out)]));
            if exact {
                assert_eq!(
                    std::fs::read(&out).unwrap(),
                    std::fs::read(&file).unwrap(),
                    "{name} through {tool}"
                );
            } else {
                // Recompressed: the same data, floats still floats.
                let again = dir.path().join("again.json");
                let back = decode_to(&out, &again);
                assert_eq!(back["data"], doc["data"], "{name} through {tool}");
            }
            // Without the record, the tool's integers would be written as integers.
            if name.ends_with(".save") {
                assert!(!text.contains("240.0"), "{tool} wrote 240.0 as 240");
                let out2 = dir.path().join("as-written.out");
                ok(&gamewire(&[
                    "encode",
                    "--numbers-as-written",
                    s(&edited),
                    "-o",
                    s(&out2),
                ]));
                assert_ne!(std::fs::read(&out2).unwrap(), std::fs::read(&file).unwrap());
            }
        }
    }
}

#[test]
fn an_edit_that_moves_items_is_refused_where_floats_could_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = real("godot/real/retrofps-settings.godot3.save");
    let json = dir.path().join("s.json");
    let doc = decode_to(&file, &json);
    // Insert an integer at the front of the saved array, the way a user would with jq
    // (`.data |= [7] + .`), writing the floats without fractions as jq 1.6 does.
    let mut data = doc["data"].as_array().unwrap().clone();
    data.insert(0, serde_json::json!(7));
    let mut edited = doc.clone();
    edited["data"] = serde_json::Value::Array(data);
    let text = serde_json::to_string(&edited)
        .unwrap()
        .replace("240.0", "240")
        .replace("10.0", "10");
    let path = dir.path().join("edited.json");
    std::fs::write(&path, text).unwrap();
    let o = gamewire(&["encode", s(&path), "-o", s(&dir.path().join("x"))]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "refused");
    assert!(err.contains("changed length"), "{err}");
}

#[test]
fn convert_to_native_keeps_existing_files_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("save.dat");
    std::fs::copy(samples("godot/save.godot3.bin"), &save).unwrap();
    ok(&gamewire(&["convert", s(dir.path()), "-q"]));
    // The user edits the engine file in the game meanwhile; converting the JSON back
    // must not replace it without being asked.
    std::fs::write(&save, b"newer game data").unwrap();
    let o = gamewire(&["convert", s(dir.path()), "--to", "native", "-q"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("skipped") && err.contains("exists"), "{err}");
    assert_eq!(std::fs::read(&save).unwrap(), b"newer game data");
    ok(&gamewire(&[
        "convert",
        s(dir.path()),
        "--to",
        "native",
        "-q",
        "--overwrite",
    ]));
    assert_eq!(
        std::fs::read(&save).unwrap(),
        std::fs::read(samples("godot/save.godot3.bin")).unwrap()
    );
}

#[test]
fn the_cli_and_python_find_a_zeze_solutions_imports_alike() {
    // A solution whose bean lives in an imported file: `decode FILE` types it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("zeze-solution.xml"),
        r#"<solution name="demo" ModuleIdAllowRanges="1-100"><import file="more.xml"/></solution>"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("more.xml"),
        r#"<solution name="more" ModuleIdAllowRanges="1-100"><bean name="BPoint"><variable id="1" name="x" type="int"/></bean></solution>"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("BPoint.zeze"), [0x10, 0x05, 0x00]).unwrap();
    let o = bin()
        .args(["decode", "--compact", "BPoint.zeze"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(ok(&o)).unwrap();
    assert_eq!(doc["data"], serde_json::json!({"x": 5}), "{doc}");
    assert_eq!(doc["$gamewire"]["bean"], "more.BPoint");
}

#[test]
fn bench_and_as_read_a_store_var_save_as_decode_does() {
    let save = real("godot/real/rogue-like-save_file.godot3.save");
    let o = gamewire(&["bench", "godot3", s(&save)]);
    let out = String::from_utf8_lossy(ok(&o)).into_owned();
    assert!(
        out.contains("godot3 framed") && out.contains("identical bytes"),
        "{out}"
    );
    // A damaged save named with --as: the store_var reading's error, not "byte 0: expected
    // a Godot 3 type id".
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(real("godot/real/blasto-x-save_data.godot3.save")).unwrap();
    let cut = dir.path().join("cut.dat");
    std::fs::write(&cut, &data[..data.len() * 2 / 3]).unwrap();
    let o = gamewire(&["decode", "--as", "godot3", s(&cut)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cut.dat: ") && err.contains("frame length of"),
        "{err}"
    );
}

#[test]
fn a_resonite_output_named_for_another_compression_takes_it_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("item.json");
    decode_to(&samples("resonite/item.7zbson"), &json);
    let out = dir.path().join("item.brson");
    let o = gamewire(&["encode", s(&json), "-o", s(&out)]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("writing brotli compression") && err.contains("lzma"),
        "{err}"
    );
    let o = gamewire(&["inspect", s(&out)]);
    assert!(String::from_utf8_lossy(ok(&o)).contains("brotli compression"));
}

#[test]
fn each_action_lists_only_the_options_it_takes() {
    let help = |args: &[&str]| String::from_utf8_lossy(ok(&gamewire(args))).into_owned();
    let bench = help(&["bench", "godot3", "--help"]);
    for gone in ["--output", "--compact", "--last-key-wins", "--array"] {
        assert!(
            !bench.contains(gone),
            "bench godot3 --help lists {gone}:\n{bench}"
        );
    }
    assert!(bench.contains("--framed"));
    let decode = help(&["decode", "kingsisle", "--help"]);
    for gone in ["--view", "--once", "--bind", "--xml", "--last-key-wins"] {
        assert!(
            !decode.contains(gone),
            "decode kingsisle --help lists {gone}"
        );
    }
    assert!(decode.contains("--enum-numbers"));
    let inspect = help(&["inspect", "--help"]);
    assert!(
        inspect.contains("dictionaries"),
        "--max-items says what it elides"
    );
}

#[test]
fn zeze_doubles_survive_jq_without_a_solution() {
    let dir = tempfile::tempdir().unwrap();
    // No solution beside it: the schema-less tree, whose doubles are plain numbers.
    let bean = dir.path().join("BSimple.zeze");
    std::fs::copy(samples("zeze/BSimple.zeze"), &bean).unwrap();
    let json = dir.path().join("b.json");
    let doc = decode_to(&bean, &json);
    assert!(doc["$gamewire"].get("solution").is_none());
    let edited = dir.path().join("b.jq.json");
    if through("jq", &json, &edited).is_none() {
        return;
    }
    assert!(!std::fs::read_to_string(&edited).unwrap().contains("-2.0"));
    let o = gamewire(&["encode", s(&edited)]);
    assert_eq!(ok(&o), std::fs::read(&bean).unwrap().as_slice());
}
