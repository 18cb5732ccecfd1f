//! Issue 25, items 1 and 2: O3DE files kept exactly as O3DE keeps them. Every path
//! (`decode FILE`/`encode`, `decode o3de`/`encode o3de`, `convert` both ways, `o3de
//! patch`) gives a real file back byte for byte (comments, trailing commas, tabs, two
//! spaces, CRLF, number text, the final newline), and an edit through jq changes only
//! the edited line. Each of these failed before the layout was kept.
#![cfg(feature = "o3de")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{gamewire, run_with_stdin};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[track_caller]
fn ok(o: &Output) -> &[u8] {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    &o.stdout
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every real O3DE JSON file in the repository (fixtures and samples), not side files.
fn o3de_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [
        "tests/fixtures/o3de/real",
        "tests/fixtures/o3de/real-typed",
        "samples/o3de",
    ] {
        for e in std::fs::read_dir(repo().join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".md") || name == "o3de-registry.json" {
                continue;
            }
            if std::fs::read(&p).unwrap().starts_with(b"<") {
                continue; // ObjectStream XML: refused, not decoded
            }
            out.push(p);
        }
    }
    out.sort();
    assert!(out.len() >= 30, "{} files", out.len());
    out
}

/// Files into a fresh folder (their names kept, without the registries beside them).
fn copies(files: &[PathBuf]) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    for f in files {
        let parent = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        let to = dir.path().join(format!(
            "{parent}-{}",
            f.file_name().unwrap().to_string_lossy()
        ));
        std::fs::copy(f, &to).unwrap();
        out.push(to);
    }
    (dir, out)
}

#[test]
fn every_real_file_comes_back_through_every_path() {
    let (dir, files) = copies(&o3de_files());
    let empty_patch = dir.path().join("empty.patch.json");
    std::fs::write(&empty_patch, "[]").unwrap();
    let empty_merge = dir.path().join("empty.mergepatch.json");
    std::fs::write(&empty_merge, "{}").unwrap();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let original = std::fs::read(file).unwrap();
        // decode FILE, encode FILE.json
        let json = dir.path().join(format!("{name}.doc.json"));
        let back = dir.path().join(format!("{name}.back"));
        ok(&gamewire(&["decode", s(file), "-o", s(&json)]));
        ok(&gamewire(&["encode", s(&json), "-o", s(&back)]));
        assert!(
            std::fs::read(&back).unwrap() == original,
            "{name}: decode FILE"
        );
        // decode o3de, encode o3de (through stdin)
        let dec = gamewire(&["decode", "o3de", s(file)]);
        let enc = run_with_stdin(&["encode", "o3de"], ok(&dec));
        assert!(ok(&enc) == original, "{name}: decode o3de");
        let dec = gamewire(&["decode", "o3de", "--compact", s(file)]);
        let text = String::from_utf8(ok(&dec).to_vec()).unwrap();
        let enc = run_with_stdin(&["encode", "o3de"], text.as_bytes());
        if text.contains("\"$gamewire\"") {
            assert!(ok(&enc) == original, "{name}: decode o3de --compact");
        }
        // o3de patch with nothing to change
        let patched = gamewire(&["o3de", "patch", s(file), s(&empty_patch)]);
        assert!(ok(&patched) == original, "{name}: o3de patch []");
        let patched = gamewire(&["o3de", "patch", "--merge", s(file), s(&empty_merge)]);
        assert!(ok(&patched) == original, "{name}: o3de patch --merge {{}}");
    }
    // convert --to json, the engine files removed, convert --to native.
    let originals: Vec<(PathBuf, Vec<u8>)> = files
        .iter()
        .map(|f| (f.clone(), std::fs::read(f).unwrap()))
        .collect();
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let p = e.unwrap().path();
        if !files.contains(&p) {
            std::fs::remove_file(p).unwrap();
        }
    }
    ok(&gamewire(&["convert", "--to", "json", s(dir.path())]));
    for f in &files {
        std::fs::remove_file(f).unwrap();
    }
    ok(&gamewire(&["convert", "--to", "native", s(dir.path())]));
    for (f, data) in originals {
        assert!(
            std::fs::read(&f).unwrap() == data,
            "{}: convert",
            f.display()
        );
    }
}

#[test]
fn the_project_templates_settings_file_with_a_trailing_comma_opens() {
    let file = repo().join("tests/fixtures/o3de/real/o3de-template-quality.setreg");
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("Registry");
    std::fs::create_dir(&project).unwrap();
    std::fs::copy(&file, project.join("quality.setreg")).unwrap();
    let o = gamewire(&["inspect", s(dir.path())]);
    ok(&o);
    let o = gamewire(&["decode", "o3de", s(&file)]);
    let doc: serde_json::Value = serde_json::from_slice(ok(&o)).unwrap();
    assert_eq!(
        doc["data"]["O3DE"]["Quality"]["Groups"]["q_general"]["Default"],
        serde_json::json!(3)
    );
    assert!(doc["$gamewire"]["gaps"]
        .as_object()
        .unwrap()
        .values()
        .any(|g| g["trailing_comma"] == true));
    // O3DE reads assets without trailing commas: a pass with one is refused, where.
    let pass = dir.path().join("x.pass");
    std::fs::write(&pass, "{\n    \"a\": [1, 2,]\n}\n").unwrap();
    let o = gamewire(&["decode", s(&pass)]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("trailing comma") && e.contains("line 2 column"),
        "{e}"
    );
}

#[test]
fn a_pipeline_asset_keeps_its_comments_and_final_newline() {
    // The issue's file: 1,993 bytes came back as 434.
    let file = repo().join("tests/fixtures/o3de/real/mps-MainRenderPipeline.azasset");
    let original = std::fs::read(&file).unwrap();
    assert_eq!(original.len(), 1993);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("a.azasset.json");
    let o = gamewire(&["decode", s(&file), "-o", s(&json)]);
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("not laid out as O3DE"),
        "no note of a layout lost"
    );
    let back = dir.path().join("a.azasset");
    ok(&gamewire(&["encode", s(&json), "-o", s(&back)]));
    assert_eq!(std::fs::read(&back).unwrap(), original);
    // The decoded document is plain JSON (serde_json, jq and JSON.stringify read it).
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(doc["data"].is_object());
}

/// Runs jq with `filter` over `json` into `out`; `false` (a printed reason) when jq is
/// absent, a failure then under GAMEWIRE_REQUIRE_PEERS=1.
fn jq(filter: &str, json: &Path, out: &Path) -> bool {
    match Command::new("jq").arg(filter).arg(json).output() {
        Ok(o) => {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            std::fs::write(out, o.stdout).unwrap();
            true
        }
        Err(e) => {
            assert!(
                std::env::var_os("GAMEWIRE_REQUIRE_PEERS").is_none(),
                "jq is required: {e}"
            );
            eprintln!("skipped: jq is not installed ({e})");
            false
        }
    }
}

/// The lines of `a` and `b` that differ (both must have the same number of lines).
fn changed_lines(a: &[u8], b: &[u8]) -> Vec<(String, String)> {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    assert_eq!(la.len(), lb.len(), "{a}\n---\n{b}");
    la.iter()
        .zip(&lb)
        .filter(|(x, y)| x != y)
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect()
}

#[test]
fn an_edit_through_jq_changes_only_the_edited_line() {
    let dir = tempfile::tempdir().unwrap();
    let real = repo().join("tests/fixtures/o3de/real");
    for (name, filter, was, now) in [
        (
            "o3de-template-quality.setreg",
            ".data.O3DE.Quality.Groups.q_general.Default = 2",
            "\"Default\": 3,",
            "\"Default\": 2,",
        ),
        (
            "o3de-viewport-crlf.setreg",
            ".data.O3DE.Viewport.SwitchableRenderPipelines[1] = \"Passes/X.azasset\"",
            "\"Passes/MainRenderPipeline.azasset\",\r",
            "\"Passes/X.azasset\",\r",
        ),
        (
            "o3de-asset_browser_excludes-tabs.setreg",
            ".data.O3DE.AssetBrowser.AssetTypeUuidExcludes.abdataAssetType = \"{0}\"",
            "\t\t\t\t\"abdataAssetType\": \"{D0A5E84E-9866-4AD7-A6A1-4D28FE7871C5}\"",
            "\t\t\t\t\"abdataAssetType\": \"{0}\"",
        ),
        (
            "mps-PostProcessParent.pass",
            ".data.ClassData.PassTemplate.Name = \"Renamed\"",
            "\"Name\": \"PostProcessParentTemplate\",",
            "\"Name\": \"Renamed\",",
        ),
        (
            "mps-2021-SampleBase-level.prefab",
            ".data.Entities[\"Entity_[412839637138]\"].Components[\"Component_[3236207122750598279]\"][\"Transform Data\"].Translate[0] = 5.5",
            "",
            "5.5,",
        ),
    ] {
        let file = real.join(name);
        let original = std::fs::read(&file).unwrap();
        let json = dir.path().join(format!("{name}.json"));
        ok(&gamewire(&["decode", s(&file), "-o", s(&json)]));
        // jq rewrites the whole text (its own spacing, 1.0 as 1): unedited, the file
        // still comes back byte for byte.
        let same = dir.path().join(format!("{name}.same.json"));
        if !jq(".", &json, &same) {
            return;
        }
        let out = dir.path().join(format!("{name}.same"));
        ok(&gamewire(&["encode", s(&same), "-o", s(&out)]));
        let back = std::fs::read(&out).unwrap();
        assert!(back == original, "{name} through jq .: {:?}", changed_lines(&original, &back));
        let edited = dir.path().join(format!("{name}.edited.json"));
        assert!(jq(filter, &json, &edited));
        let out = dir.path().join(name);
        ok(&gamewire(&["encode", s(&edited), "-o", s(&out)]));
        let changed = changed_lines(&original, &std::fs::read(&out).unwrap());
        assert_eq!(changed.len(), 1, "{name}: {changed:?}");
        if !was.is_empty() {
            assert_eq!(changed[0].0.trim_start_matches(' '), was, "{name}");
        }
        assert_eq!(changed[0].1.trim_start_matches(' '), now, "{name}");
    }
}

#[test]
fn o3de_patch_keeps_the_files_layout_and_comments() {
    let dir = tempfile::tempdir().unwrap();
    // Two spaces and CRLF: the patched file keeps both (2-space or 4-space output would
    // change every line).
    let file = repo().join("tests/fixtures/o3de/real/o3de-viewport-crlf.setreg");
    let original = std::fs::read(&file).unwrap();
    let patch = dir.path().join("p.json");
    std::fs::write(
        &patch,
        r#"[{"op": "replace", "path": "/O3DE/Viewport/SwitchableRenderPipelines/0", "value": "Passes/Low.azasset"}]"#,
    )
    .unwrap();
    let o = gamewire(&["o3de", "patch", s(&file), s(&patch)]);
    let changed = changed_lines(&original, ok(&o));
    assert_eq!(
        changed,
        vec![(
            "        \"Passes/LowEndRenderPipeline.azasset\",\r".to_owned(),
            "        \"Passes/Low.azasset\",\r".to_owned()
        )]
    );
    // Comments and a trailing comma beside untouched members stay; a new member is
    // laid out as the file is.
    let file = repo().join("tests/fixtures/o3de/real/o3de-template-quality.setreg");
    let original = String::from_utf8(std::fs::read(&file).unwrap()).unwrap();
    std::fs::write(
        &patch,
        r#"[{"op": "add", "path": "/O3DE/Quality/Groups/q_general/Added", "value": 1}]"#,
    )
    .unwrap();
    let o = gamewire(&["o3de", "patch", s(&file), s(&patch)]);
    let out = String::from_utf8(ok(&o).to_vec()).unwrap();
    assert!(out.contains("                    }\n                },\n"));
    let expected = original.replacen(
        "                        \"q_graphics\": [ 0, 1, 2, 3 ] // map q_general levels 1 to 1 with graphics levels\n                    }\n",
        "                        \"q_graphics\": [ 0, 1, 2, 3 ] // map q_general levels 1 to 1 with graphics levels\n                    },\n                    \"Added\": 1\n",
        1,
    );
    assert_ne!(expected, original);
    assert_eq!(out, expected);
    // A removed member takes the comment on its line with it.
    std::fs::write(
        &patch,
        r#"[{"op": "remove", "path": "/O3DE/Quality/Groups/q_general/Settings/q_graphics"}]"#,
    )
    .unwrap();
    let o = gamewire(&["o3de", "patch", s(&file), s(&patch)]);
    let out = String::from_utf8(ok(&o).to_vec()).unwrap();
    assert!(!out.contains("map q_general levels"), "{out}");
    assert!(
        out.contains("// NOTE: All text on a line following //"),
        "{out}"
    );
}

#[test]
fn json_stringify_and_jq_give_every_file_back() {
    // Both rewrite all of the text (1.0 as 1, "\/" as "/", their own spacing): the
    // header's layout and texts give each real file back byte for byte. The files
    // written by hand, and two levels O3DE saved (17-digit floats, `1.0` throughout).
    let chosen: Vec<PathBuf> = o3de_files()
        .into_iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            !n.ends_with(".prefab") && !n.ends_with(".material") && !n.ends_with(".scriptcanvas")
                || n.ends_with("2021-SampleBase-level.prefab")
                || n.ends_with("SpawningPerfTest-level.prefab")
        })
        .collect();
    assert!(chosen.len() >= 15, "{}", chosen.len());
    let (dir, files) = copies(&chosen);
    for tool in ["node", "jq"] {
        let present = Command::new(tool).arg("--version").output().is_ok();
        if !present {
            assert!(
                std::env::var_os("GAMEWIRE_REQUIRE_PEERS").is_none(),
                "{tool} is required"
            );
            eprintln!("skipped: {tool} is not installed");
            continue;
        }
        for file in &files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let json = dir.path().join(format!("{name}.json"));
            ok(&gamewire(&["decode", s(file), "-o", s(&json)]));
            let mut cmd = Command::new(tool);
            if tool == "jq" {
                cmd.arg("-c").arg(".");
            } else {
                cmd.args([
                    "-e",
                    "const fs=require('fs');process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1],'utf8'))))",
                ]);
            }
            let o = cmd.arg(&json).output().unwrap();
            let edited = dir.path().join(format!("{name}.{tool}.json"));
            std::fs::write(&edited, ok(&o)).unwrap();
            let out = dir.path().join(format!("{name}.{tool}.out"));
            ok(&gamewire(&["encode", s(&edited), "-o", s(&out)]));
            let original = std::fs::read(file).unwrap();
            let back = std::fs::read(&out).unwrap();
            assert!(back == original, "{name} through {tool}");
        }
    }
}

#[test]
fn a_typed_load_reads_trailing_commas_where_o3de_does() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[1, 2, // two\n]\n";
    // A settings registry file: loaded as the type, written back as it was.
    let setreg = dir.path().join("x.setreg");
    std::fs::write(&setreg, text).unwrap();
    let o = gamewire(&["decode", "o3de", "--type", "AZStd::vector<int>", s(&setreg)]);
    let doc: serde_json::Value = serde_json::from_slice(ok(&o)).unwrap();
    assert_eq!(doc["data"], serde_json::json!([1, 2]));
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"Success\""));
    let back = run_with_stdin(&["encode", "o3de"], &o.stdout);
    assert_eq!(ok(&back), text.as_bytes());
    // An asset: O3DE's reader refuses the comma, and so does the load.
    let pass = dir.path().join("x.pass");
    std::fs::write(&pass, text).unwrap();
    let o = gamewire(&["decode", "o3de", "--type", "AZStd::vector<int>", s(&pass)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("trailing comma"));
}
