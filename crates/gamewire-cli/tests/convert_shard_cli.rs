//! `gamewire convert` past one machine: `--shard K/N` parts are disjoint, cover the
//! whole and are the same on every run; `--files-from` lists (a file, standard input);
//! `--summary-json` counts and failures against what the run did.
#![cfg(all(feature = "godot", feature = "kingsisle", feature = "zeze"))]

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod common;
use common::{bin, gamewire};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// `copies` folders `c0`, `c1`, ... under `dir`, each with every sample file (and the
/// side files they are read with).
fn mixed(dir: &Path, copies: usize) {
    for c in 0..copies {
        let to = dir.join(format!("c{c}"));
        std::fs::create_dir_all(&to).unwrap();
        for format in std::fs::read_dir(samples()).unwrap() {
            for f in std::fs::read_dir(format.unwrap().path()).unwrap() {
                let f = f.unwrap().path();
                std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
            }
        }
    }
}

/// Every file below `dir`, by its path relative to `dir`, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn summary(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn n(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn shards_are_disjoint_cover_the_whole_and_are_the_same_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    mixed(&input, 4);
    let whole = dir.path().join("whole");
    let o = gamewire(&["convert", "-r", s(&input), "--out-dir", s(&whole), "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = files(&whole);
    assert!(want.len() >= 60, "{} outputs", want.len());

    for parts in [2usize, 3, 5] {
        let mut union: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
        let mut listed = 0;
        for k in 1..=parts {
            let out = dir.path().join(format!("p{parts}-{k}"));
            let sum = dir.path().join(format!("p{parts}-{k}.json"));
            let spec = format!("{k}/{parts}");
            let o = gamewire(&[
                "convert",
                "-r",
                s(&input),
                "--out-dir",
                s(&out),
                "--shard",
                &spec,
                "--summary-json",
                s(&sum),
                "-q",
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let got = files(&out);
            assert!(!got.is_empty(), "part {spec} converted nothing");
            for (rel, bytes) in got {
                assert_eq!(want.get(&rel), Some(&bytes), "{spec}: {}", rel.display());
                assert!(
                    union.insert(rel.clone(), bytes).is_none(),
                    "{} written by two parts of {parts}",
                    rel.display()
                );
            }
            let v = summary(&sum);
            assert_eq!(v["shard"]["k"], k as u64);
            assert_eq!(v["shard"]["n"], parts as u64);
            listed += n(&v, "files");
            assert_eq!(
                n(&v, "converted") + n(&v, "skipped") + n(&v, "kept") + n(&v, "failed"),
                n(&v, "files")
            );
            // Parts differ by one file at most.
            let per = n(&v, "files_in_list") as usize;
            assert!(n(&v, "files") as usize >= per / parts, "{v}");
            assert!(n(&v, "files") as usize <= per.div_ceil(parts), "{v}");
        }
        assert_eq!(
            union.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        );
        let whole_list = summary(&dir.path().join(format!("p{parts}-1.json")))["files_in_list"]
            .as_u64()
            .unwrap();
        assert_eq!(listed, whole_list, "every listed file is in one part");
    }

    // The same part again, from a list in another order: the same files.
    let again = dir.path().join("again");
    let mut names: Vec<String> = files(&input)
        .keys()
        .map(|r| s(&input.join(r)).to_owned())
        .collect();
    names.reverse();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, names.join("\n")).unwrap();
    let o = gamewire(&[
        "convert",
        "--files-from",
        s(&list),
        "--out-dir",
        s(&again),
        "--shard",
        "2/3",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Listed files keep their whole folder under --out-dir.
    let rel = input.strip_prefix("/").unwrap();
    let got: BTreeSet<PathBuf> = files(&again.join(rel)).into_keys().collect();
    let first: BTreeSet<PathBuf> = files(&dir.path().join("p3-2")).into_keys().collect();
    assert_eq!(got, first);
}

#[test]
fn parts_follow_the_byte_order_of_the_paths() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("a")).unwrap();
    let save = samples().join("godot/save.godot3.bin");
    // By bytes: "A.dat" < "a-b.dat" < "a/b.dat" < "b.dat" ('-' is 0x2d, '/' 0x2f);
    // by path components or a locale's collation the order differs.
    for name in ["b.dat", "a/b.dat", "a-b.dat", "A.dat"] {
        std::fs::copy(&save, input.join(name)).unwrap();
    }
    let part = |k: &str| -> BTreeSet<PathBuf> {
        let out = dir.path().join(format!("out{}", &k[..1]));
        let o = gamewire(&[
            "convert",
            "-r",
            s(&input),
            "--out-dir",
            s(&out),
            "--shard",
            k,
            "-q",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        files(&out).into_keys().collect()
    };
    let set = |v: &[&str]| v.iter().map(PathBuf::from).collect::<BTreeSet<_>>();
    assert_eq!(part("1/2"), set(&["A.dat.json", "a/b.dat.json"]));
    assert_eq!(part("2/2"), set(&["a-b.dat.json", "b.dat.json"]));
}

#[test]
fn files_from_a_list_and_from_stdin_with_inputs_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    mixed(&root.join("in"), 2);
    // Relative paths, a blank line, a line ending in CR LF, a path named twice.
    let list =
        "in/c0/save.godot3.bin\n\nin/c0/item.bin\r\n  \nin/c1/Final.zeze\n./in/c0/item.bin\n";
    std::fs::write(root.join("list.txt"), list).unwrap();
    let want = [
        "in/c0/save.godot3.bin.json",
        "in/c0/item.bin.json",
        "in/c1/Final.zeze.json",
        // A file named on the command line goes to the top of --out-dir, as without a
        // list.
        "stream.godot3.bin.json",
    ];
    let check = |out: &str, o: std::process::Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got: BTreeSet<PathBuf> = files(&root.join(out)).into_keys().collect();
        assert_eq!(got, want.iter().map(PathBuf::from).collect());
        for w in want {
            let name = w.strip_suffix(".json").unwrap();
            let input = match name.starts_with("in/") {
                true => root.join(name),
                false => root.join("in/c1").join(name),
            };
            let o = gamewire(&["decode", s(&input)]);
            assert!(o.status.success());
            let written = std::fs::read(root.join(out).join(w)).unwrap();
            assert_eq!(
                serde_json::from_slice::<Value>(&written).unwrap()["data"],
                serde_json::from_slice::<Value>(&o.stdout).unwrap()["data"],
                "{w}"
            );
        }
    };
    let o = bin()
        .args([
            "convert",
            "--files-from",
            "list.txt",
            "in/c1/stream.godot3.bin",
            "--out-dir",
            "o1",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    check("o1", o);

    let mut child = bin()
        .args([
            "convert",
            "--files-from",
            "-",
            "in/c1/stream.godot3.bin",
            "--out-dir",
            "o2",
        ])
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    check("o2", child.wait_with_output().unwrap());

    // A list alone; a missing file is named with its list and line, and nothing is
    // written.
    std::fs::write(root.join("bad.txt"), "in/c0/item.bin\n\nin/c0/gone.bin\n").unwrap();
    let o = bin()
        .args(["convert", "--files-from", "bad.txt", "--out-dir", "o3"])
        .current_dir(root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.txt:3: in/c0/gone.bin"), "{err}");
    assert!(!root.join("o3").exists());
    // A folder in a list is refused by line too.
    std::fs::write(root.join("dir.txt"), "in/c0\n").unwrap();
    let o = bin()
        .args(["convert", "--files-from", "dir.txt"])
        .current_dir(root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("dir.txt:1: in/c0 is not a file"), "{err}");
}

#[test]
fn the_summary_counts_what_the_run_did_with_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    mixed(&input, 1);
    // A damaged save: the first 20 bytes of a good one.
    let good = std::fs::read(samples().join("godot/save.godot3.bin")).unwrap();
    std::fs::write(input.join("damaged.dat"), &good[..20]).unwrap();
    // One output there already: left as it is without --overwrite.
    std::fs::write(input.join("c0/item.bin.json"), "{}").unwrap();
    let sum = dir.path().join("summary.json");
    let o = gamewire(&["convert", "-r", s(&input), "--summary-json", s(&sum), "-q"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let v = summary(&sum);
    assert_eq!(v["shard"], serde_json::json!({"k": 1, "n": 1}));
    assert_eq!(v["to"], "json");
    assert_eq!(n(&v, "failed"), 1, "{v}");
    assert_eq!(n(&v, "kept"), 1, "{v}");
    let failure = &v["failures"][0];
    let damaged = input.join("damaged.dat");
    assert_eq!(failure["path"], s(&damaged));
    let reason = failure["reason"].as_str().unwrap();
    assert!(!reason.is_empty() && !reason.starts_with(s(&damaged)));
    assert!(
        err.contains(&format!("gamewire: error: {}: {reason}", damaged.display())),
        "the summary's reason is the error printed: {reason:?} in {err}"
    );
    // The counts match the line printed and the files written.
    let converted = n(&v, "converted");
    let skipped = n(&v, "skipped");
    assert!(
        err.contains(&format!("converted {converted} files (")),
        "{err}"
    );
    assert!(
        err.contains(&format!("1 failed, {skipped} skipped")),
        "{err}"
    );
    let all = files(&input);
    let outputs: Vec<(&PathBuf, &Vec<u8>)> = all
        .iter()
        .filter(|(p, _)| {
            p.extension().is_some_and(|e| e == "json")
                && all.contains_key(&p.with_extension(""))
                && p.as_os_str() != "c0/item.bin.json"
        })
        .collect();
    assert_eq!(outputs.len() as u64, converted, "{outputs:?}");
    let bytes_out: u64 = outputs.iter().map(|(_, b)| b.len() as u64).sum();
    let bytes_in: u64 = outputs
        .iter()
        .map(|(p, _)| all[&p.with_extension("")].len() as u64)
        .sum();
    assert_eq!(n(&v, "bytes_out"), bytes_out);
    assert_eq!(n(&v, "bytes_in"), bytes_in);
    assert_eq!(n(&v, "files"), all.len() as u64 - converted);
    assert_eq!(converted + skipped + 2, n(&v, "files"));
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
    // No temporary file is left beside the summary.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn bad_parts_lists_and_archives_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = samples().join("godot/save.godot3.bin");
    for (spec, says) in [
        ("0/4", "K must be from 1 to 4"),
        ("5/4", "K must be from 1 to 4"),
        ("1/0", "N must be at least 1"),
        ("2", "is not K/N"),
        ("x/3", "is not a whole number"),
    ] {
        let o = gamewire(&["convert", s(&save), "--shard", spec]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{spec}: {err}");
        assert!(err.contains(says), "{spec}: {err}");
    }
    let o = gamewire(&["convert", "--files-from", "-", "--files-from", "-"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("can be given once"));
    let o = gamewire(&["convert"]);
    assert_eq!(o.status.code(), Some(2), "inputs or a list are needed");
    // An archive is converted on its own, never split.
    let wad =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kingsisle/wad/Test.wad");
    let o = gamewire(&["convert", s(&wad), "--shard", "1/2"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("an archive is converted on its own"), "{err}");
    // A part with no file is no error: more machines than files.
    let out = dir.path().join("out");
    let sum = dir.path().join("sum.json");
    let o = gamewire(&[
        "convert",
        s(&save),
        "--shard",
        "2/2",
        "--out-dir",
        s(&out),
        "--summary-json",
        s(&sum),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = summary(&sum);
    assert_eq!((n(&v, "files"), n(&v, "files_in_list")), (0, 1));
    // A summary in a folder that does not exist is refused before any work.
    let o = gamewire(&[
        "convert",
        s(&save),
        "--out-dir",
        s(&out),
        "--summary-json",
        s(&dir.path().join("no/sum.json")),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
    assert!(!out.join("save.godot3.bin.json").exists());
}
