//! The `gamewire` binary on Godot's encrypted and compressed files (the engine's, in
//! tests/fixtures/godot/containers): `decode FILE` with --password, --key or the
//! environment, `encode FILE.json` back to the same bytes, one-line errors without or with
//! a wrong secret, `inspect`, and `decode godot3 FILE` seeing through the container.
#![cfg(feature = "godot")]

use std::path::{Path, PathBuf};

mod common;
use common::bin;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/containers")
        .join(name)
}

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn run(args: &[&str], envs: &[(&str, &str)]) -> std::process::Output {
    let mut c = bin();
    c.args(args)
        .env_remove("GAMEWIRE_GODOT_PASSWORD")
        .env_remove("GAMEWIRE_GODOT_KEY");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn encrypted_saves_decode_and_encode_back_with_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    for (name, flag, secret) in [
        ("godot3-password.sav", "--password", "secret"),
        ("godot3-key.sav", "--key", KEY),
    ] {
        let src = fixture(name);
        let json = dir.path().join(format!("{name}.json"));
        let back = dir.path().join(name);
        let s = src.to_str().unwrap();
        ok(&run(
            &["decode", s, flag, secret, "-o", json.to_str().unwrap()],
            &[],
        ));
        let text = std::fs::read_to_string(&json).unwrap();
        assert!(
            text.contains("\"kind\":\"encrypted\"") && text.contains("hero"),
            "{text}"
        );
        assert!(!text.contains(secret), "the secret is not in the document");
        ok(&run(
            &[
                "encode",
                json.to_str().unwrap(),
                flag,
                secret,
                "-o",
                back.to_str().unwrap(),
            ],
            &[],
        ));
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&src).unwrap());
        // Without the secret, encoding is an error saying what to give.
        let e = run(&["encode", json.to_str().unwrap()], &[]);
        assert!(!e.status.success());
        assert!(String::from_utf8_lossy(&e.stderr).contains("--password"));
    }
    // The environment gives it too.
    let env = ok(&run(
        &["decode", fixture("godot3-key.sav").to_str().unwrap()],
        &[("GAMEWIRE_GODOT_KEY", KEY)],
    ));
    assert!(env.contains("hero"));
}

#[test]
fn a_missing_or_wrong_secret_is_a_one_line_error() {
    let s = fixture("godot3-password.sav");
    let s = s.to_str().unwrap();
    let e = run(&["decode", s], &[]);
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(!e.status.success());
    assert!(err.contains("--password") && err.contains("--key"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let e = run(&["decode", s, "--password", "wrong"], &[]);
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(
        err.contains("wrong password or key") && err.contains("byte 8"),
        "{err}"
    );
    assert!(e.stdout.is_empty());
    let e = run(&["decode", s, "--key", "abcd"], &[]);
    assert!(String::from_utf8_lossy(&e.stderr).contains("32 bytes"));
    // inspect says so too, before reading anything, instead of asking for a key later.
    for (args, envs) in [
        (vec!["inspect", s, "--key", "abcd"], vec![]),
        (vec!["inspect", s], vec![("GAMEWIRE_GODOT_KEY", "zz")]),
    ] {
        let e = run(&args, &envs);
        let err = String::from_utf8_lossy(&e.stderr);
        assert!(!e.status.success(), "{err}");
        assert!(
            err.contains("32 bytes") || err.contains("hex"),
            "a malformed key is named: {err}"
        );
        assert!(e.stdout.is_empty(), "nothing inspected");
    }
}

#[test]
fn compressed_saves_decode_inspect_and_encode_back_with_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["fastlz", "deflate", "zstd", "gzip"] {
        let src = fixture(&format!("godot3-{mode}.sav"));
        let json = dir.path().join(format!("{mode}.json"));
        let back = dir.path().join(format!("{mode}.sav"));
        ok(&run(
            &[
                "decode",
                src.to_str().unwrap(),
                "-o",
                json.to_str().unwrap(),
            ],
            &[],
        ));
        // Every block compresses again to the engine's bytes: the header keeps none.
        let text = std::fs::read_to_string(&json).unwrap();
        assert!(
            !text.contains("\"kept\""),
            "{mode}: {}",
            &text[..text.len().min(400)]
        );
        ok(&run(
            &[
                "encode",
                json.to_str().unwrap(),
                "-o",
                back.to_str().unwrap(),
            ],
            &[],
        ));
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&src).unwrap(),
            "{mode}"
        );
        let tree = ok(&run(&["inspect", src.to_str().unwrap()], &[]));
        assert!(tree.contains(&format!("compressed, {mode}")), "{tree}");
    }
    // The format-named decoder reads the values inside.
    let framed = ok(&run(
        &[
            "decode",
            "godot3",
            "--framed",
            fixture("godot3-zstd.sav").to_str().unwrap(),
        ],
        &[],
    ));
    assert_eq!(framed.lines().count(), 300);
}
