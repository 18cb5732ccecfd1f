//! `gamewire convert` with hostile inputs writes only where it should: never through a
//! symbolic link, never onto one of its inputs, never two outputs to one name, never
//! out of the folders it walks; names found in folders and by globs are just names.
#![cfg(all(unix, feature = "godot"))]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{bin, gamewire};

/// A Godot 3 file: converts to JSON and to Godot 4.
fn save() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/godot/save.godot3.bin")
}

fn put_save(p: &Path) {
    std::fs::copy(save(), p).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| PathBuf::from(e.unwrap().file_name()))
        .collect();
    v.sort();
    v
}

#[test]
fn an_output_that_is_a_symbolic_link_is_refused_even_with_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let (work, outside) = (dir.path().join("work"), dir.path().join("outside"));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    put_save(&work.join("save.dat"));
    put_save(&work.join("other.dat"));
    symlink(&victim, work.join("save.dat.json")).unwrap();
    for extra in [&[][..], &["--overwrite"][..]] {
        let mut args = vec!["convert", "-q", s(&work)];
        args.extend_from_slice(extra);
        let o = gamewire(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {err}");
        assert!(
            err.contains("save.dat.json") && err.contains("symbolic link"),
            "{err}"
        );
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{extra:?}");
        let link = std::fs::symlink_metadata(work.join("save.dat.json")).unwrap();
        assert!(link.file_type().is_symlink(), "the link is left as it is");
        // The other file is converted all the same.
        assert!(work.join("other.dat.json").is_file());
    }

    // Under --out-dir: a linked output file, and a linked folder where the mirrored
    // folder goes.
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(work.join("deeper")).unwrap();
    put_save(&work.join("deeper/d.dat"));
    symlink(&victim, out.join("other.dat.json")).unwrap();
    symlink(&outside, out.join("deeper")).unwrap();
    let o = gamewire(&[
        "convert",
        "-q",
        "-r",
        "--overwrite",
        s(&work),
        "--out-dir",
        s(&out),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("other.dat.json"), "{err}");
    assert!(
        err.contains("deeper") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(names(&outside), [PathBuf::from("victim.txt")]);
    assert!(out.join("save.dat.json").is_file(), "{err}");
}

#[test]
fn walking_folders_and_globs_does_not_follow_links_out_of_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, outside) = (dir.path().join("tree"), dir.path().join("outside"));
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    put_save(&outside.join("secret.dat"));
    put_save(&tree.join("sub/real.dat"));
    // A link to a file outside, a link to a file inside, a link to a folder outside.
    symlink(outside.join("secret.dat"), tree.join("sub/leak.dat")).unwrap();
    symlink(tree.join("sub/real.dat"), tree.join("sub/inner.dat")).unwrap();
    symlink(&outside, tree.join("linked")).unwrap();

    let out = dir.path().join("out");
    let o = gamewire(&["convert", "-q", "-r", s(&tree), "--out-dir", s(&out)]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.join("sub/real.dat.json").is_file());
    assert!(
        out.join("sub/inner.dat.json").is_file(),
        "a link inside is fine"
    );
    assert!(!out.join("sub/leak.dat.json").exists(), "{err}");
    assert!(!out.join("linked").exists());
    assert!(
        err.contains("note:") && err.contains("leak.dat") && err.contains("outside"),
        "{err}"
    );

    // Beside the inputs, through a glob that would go down the linked folder: nothing
    // is written outside.
    let pattern = format!("{}/*/*.dat", tree.display());
    let o = gamewire(&["convert", "-q", &pattern]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(tree.join("sub/real.dat.json").is_file());
    assert!(!tree.join("sub/leak.dat.json").exists(), "{err}");
    assert_eq!(names(&outside), [PathBuf::from("secret.dat")], "{err}");
    assert!(
        err.contains("secret.dat") || err.contains("leak.dat"),
        "{err}"
    );
}

#[test]
fn an_output_never_replaces_one_of_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // `a.bin.json` is an engine file, not an earlier output: an input of the run.
    put_save(&d.join("a.bin"));
    put_save(&d.join("a.bin.json"));
    let before = std::fs::read(d.join("a.bin.json")).unwrap();
    let o = gamewire(&["convert", "-q", "--overwrite", s(d)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a.bin.json") && err.contains("inputs") && err.contains("nothing was written"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("a.bin.json")).unwrap(), before);
    assert!(!d.join("a.bin.json.json").exists(), "nothing written");

    // An output folder that is the input folder, under another name: `--to godot4`
    // keeps the name under --out-dir, so each output is its own input.
    let g = d.join("g");
    std::fs::create_dir_all(&g).unwrap();
    put_save(&g.join("save.dat"));
    symlink(&g, d.join("same")).unwrap();
    let o = gamewire(&[
        "convert",
        "-q",
        "--to",
        "godot4",
        "--overwrite",
        s(&g),
        "--out-dir",
        s(&d.join("same")),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("the file itself"), "{err}");
    assert_eq!(
        std::fs::read(g.join("save.dat")).unwrap(),
        std::fs::read(save()).unwrap()
    );

    // JSON text from an earlier run is not an input of --to json: --overwrite refreshes it.
    let r = d.join("refresh");
    std::fs::create_dir_all(&r).unwrap();
    put_save(&r.join("x.dat"));
    std::fs::write(r.join("x.dat.json"), b"{\"old\": true}\n").unwrap();
    let o = gamewire(&["convert", "-q", "--overwrite", s(&r)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let fresh = std::fs::read_to_string(r.join("x.dat.json")).unwrap();
    assert!(fresh.contains("$gamewire"), "{fresh}");
    // The same file named twice is converted once, not a collision.
    let o = gamewire(&["convert", "-q", "--overwrite", s(&r), s(&r.join("x.dat"))]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn outputs_with_the_same_name_are_errors_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Names differing only in bytes that are not UTF-8 keep their own outputs.
    let raw = d.join("raw");
    std::fs::create_dir_all(&raw).unwrap();
    let a = raw.join(OsStr::from_bytes(b"a\xff.dat"));
    let b = raw.join(OsStr::from_bytes(b"a\xfe.dat"));
    put_save(&a);
    put_save(&b);
    let o = gamewire(&["convert", "-q", s(&raw)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        names(&raw),
        [
            PathBuf::from(OsStr::from_bytes(b"a\xfe.dat")),
            PathBuf::from(OsStr::from_bytes(b"a\xfe.dat.json")),
            PathBuf::from(OsStr::from_bytes(b"a\xff.dat")),
            PathBuf::from(OsStr::from_bytes(b"a\xff.dat.json")),
        ]
    );

    // One name in two input folders under one --out-dir.
    for sub in ["one", "two"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
        put_save(&d.join(sub).join("x.dat"));
    }
    put_save(&d.join("one/y.dat"));
    let out = d.join("out");
    let o = gamewire(&[
        "convert",
        "-q",
        s(&d.join("one")),
        s(&d.join("two")),
        "--out-dir",
        s(&out),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("one/x.dat") && err.contains("two/x.dat") && err.contains("x.dat.json"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written, not even y.dat.json: {err}");

    // `save.bin` and `save.godot3.bin` both become `save.godot4.bin`.
    let g = d.join("g");
    std::fs::create_dir_all(&g).unwrap();
    put_save(&g.join("save.bin"));
    put_save(&g.join("save.godot3.bin"));
    let o = gamewire(&["convert", "-q", "--to", "godot4", s(&g)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("save.godot4.bin"), "{err}");
    assert!(!g.join("save.godot4.bin").exists());
}

#[test]
fn names_from_globs_and_folders_are_never_options_or_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    put_save(&d.join("-weird.dat"));
    put_save(&d.join("--overwrite.dat"));
    // A name after `--` is a file, whatever it starts with.
    let o = bin()
        .args(["convert", "-q", "--", "-weird.dat"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(d.join("-weird.dat.json").is_file());
    // Names a glob finds are names: `--overwrite.dat` is converted, not an option.
    let o = bin()
        .args(["convert", "-q", "*.dat"])
        .current_dir(d)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(d.join("--overwrite.dat.json").is_file(), "{err}");
    assert!(err.contains("skipped") && err.contains("exists"), "{err}");

    // `-.json` found by a glob writes the file `-`, not stdout.
    let json = std::fs::read(d.join("-weird.dat.json")).unwrap();
    std::fs::write(d.join("-.json"), json).unwrap();
    let o = bin()
        .args(["convert", "-q", "--to", "native", "?.json"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing on stdout");
    assert_eq!(
        std::fs::read(d.join("-")).unwrap(),
        std::fs::read(save()).unwrap()
    );
    // And from a folder walk.
    std::fs::remove_file(d.join("-")).unwrap();
    let o = bin()
        .args(["convert", "-q", "--to", "native", "."])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.stdout.is_empty(), "nothing on stdout");
    assert!(d.join("-").is_file(), "{}", stderr(&o));
}
