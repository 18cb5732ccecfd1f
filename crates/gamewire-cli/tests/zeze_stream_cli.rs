//! `decode zeze` streams its JSON (typed by a schema, and frame by frame) with the text
//! the JSON trees gave; an error leaves no output; a stdout closed before the run
//! (`>&-`) is an error, `>/dev/null` is not.
#![cfg(all(feature = "zeze", unix))]

use gamewire::zeze::frame::{decode_frames, FrameOptions, Payload};
use gamewire::zeze::json::{bean_to_json, frame_to_json};
use gamewire::zeze::schema::Schema;
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::bin;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/zeze")
}

fn schema() -> Schema {
    Schema::from_file(&samples().join("zeze-solution.xml")).unwrap()
}

fn decode(args: &[&str], input: &Path) -> (Option<i32>, String, String) {
    let out = bin()
        .args(["decode", "zeze"])
        .args(args)
        .arg(input)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn typed_beans_write_the_text_of_the_decoded_value() {
    let s = schema();
    let xml = samples().join("zeze-solution.xml");
    let xml = xml.to_str().unwrap();
    for (file, bean) in [
        ("BSimple.zeze", "BSimple"),
        ("BOuter.zeze", "BOuter"),
        ("Final.zeze", "Final"),
        ("Final.defaults.zeze", "Final"),
    ] {
        let input = samples().join(file);
        let j = s
            .decode(bean, &std::fs::read(&input).unwrap(), &Default::default())
            .unwrap();
        let (code, pretty, err) = decode(&["--schema", xml, "--bean", bean], &input);
        assert_eq!(code, Some(0), "{file}: {err}");
        assert_eq!(
            pretty,
            serde_json::to_string_pretty(&j).unwrap() + "\n",
            "{file}"
        );
        let args = ["--schema", xml, "--bean", bean, "--compact"];
        let (_, compact, _) = decode(&args, &input);
        assert_eq!(compact, serde_json::to_string(&j).unwrap() + "\n", "{file}");
    }
}

/// The frames as the CLI wrote them from whole JSON trees before streaming.
fn frames_reference(data: &[u8], s: Option<&Schema>) -> Vec<J> {
    let frames = decode_frames(data, &FrameOptions::default()).unwrap();
    frames
        .iter()
        .map(|f| {
            let family = match &f.payload {
                Payload::Body(b) => Some(b.family),
                Payload::Raw(_) => None,
            };
            let p = s.and_then(|s| s.protocol(f.module_id, f.protocol_id));
            let bean = p.and_then(|p| {
                if family == Some(gamewire::zeze::frame::Family::Response) {
                    p.result.clone()
                } else {
                    p.argument.clone()
                }
            });
            let mut j = frame_to_json(f, |b| match (&bean, s) {
                (Some(n), Some(s)) => {
                    let bytes = gamewire::zeze::encode(b).unwrap();
                    s.decode(n, &bytes, &Default::default()).unwrap()
                }
                _ => bean_to_json(b),
            });
            if let (Some(p), Some(o)) = (p, j.as_object_mut()) {
                o.insert("name".into(), J::from(p.name.clone()));
            }
            j
        })
        .collect()
}

#[test]
fn frames_stream_one_at_a_time_with_the_same_text() {
    let input = samples().join("session.frames.zeze");
    let data = std::fs::read(&input).unwrap();
    let s = schema();
    let xml = samples().join("zeze-solution.xml");
    let xml = xml.to_str().unwrap();
    for typed in [false, true] {
        let want = frames_reference(&data, typed.then_some(&s));
        assert!(want.len() >= 2);
        if typed {
            assert!(want.iter().any(|f| f.get("name").is_some()), "{want:?}");
        }
        let mut args = vec!["--frames"];
        if typed {
            args.extend(["--schema", xml]);
        }
        let (code, lines, err) = decode(&args, &input);
        assert_eq!(code, Some(0), "{err}");
        let expect: String = want
            .iter()
            .map(|f| serde_json::to_string(f).unwrap() + "\n")
            .collect();
        assert_eq!(lines, expect, "typed: {typed}");
        args.push("--array");
        let (_, array, _) = decode(&args, &input);
        let expect = serde_json::to_string_pretty(&J::Array(want.clone())).unwrap() + "\n";
        assert_eq!(array, expect, "typed: {typed}");
        args.push("--compact");
        let (_, compact, _) = decode(&args, &input);
        assert_eq!(
            compact,
            serde_json::to_string(&J::Array(want)).unwrap() + "\n"
        );
    }
}

#[test]
fn a_frame_that_does_not_read_as_its_bean_leaves_no_output() {
    // Two frames typed by --bean BSimple: the first reads, the second holds a list
    // where BSimple has an int (field 1).
    let dir = tempfile::tempdir().unwrap();
    let good = gamewire::zeze::frame::Frame {
        module_id: 1,
        protocol_id: 100,
        payload: Payload::Body(gamewire::zeze::frame::Body {
            family: gamewire::zeze::frame::Family::Protocol,
            result_code: None,
            session_id: None,
            bean: gamewire::zeze::decode(&[0x10, 5, 0], &Default::default()).unwrap(),
        }),
    };
    let mut bad = good.clone();
    if let Payload::Body(b) = &mut bad.payload {
        b.bean = gamewire::zeze::decode(&[0x14, 0x00, 0], &Default::default()).unwrap();
    }
    let bytes = gamewire::zeze::frame::encode_frames(&[good, bad]).unwrap();
    let input = dir.path().join("two.frames.zeze");
    std::fs::write(&input, bytes).unwrap();
    let xml = samples().join("zeze-solution.xml");
    let args = [
        "--frames",
        "--schema",
        xml.to_str().unwrap(),
        "--bean",
        "BSimple",
    ];
    let (code, out, err) = decode(&args, &input);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "half an output: {out}");
    assert!(err.contains("$[1].i"), "{err}");
    // Counted from the file's start: frame 0 is 12 + 4 bytes (header, family, bean
    // 10 05 00); frame 1's bean starts at 16 + 12 + 1 = 29, its field's tag there.
    assert!(err.contains("at byte 29 "), "{err}");
}

#[test]
fn a_stdout_closed_before_the_run_is_an_error_and_dev_null_is_not() {
    let exe = env!("CARGO_BIN_EXE_gamewire");
    let input = samples().join("BSimple.zeze");
    let run = |redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("\"$0\" decode zeze \"$1\" {redirect}"))
            .arg(exe)
            .arg(&input)
            .output()
            .unwrap()
    };
    // `inspect` and `bench` print to stdout too.
    for cmd in ["inspect", "bench zeze"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("\"$0\" {cmd} \"$1\" >&-"))
            .arg(exe)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{cmd}: {out:?}");
    }
    let closed = run(">&-");
    assert_eq!(closed.status.code(), Some(1), "{closed:?}");
    let err = String::from_utf8_lossy(&closed.stderr);
    assert!(
        err.contains("cannot write stdout") && err.contains("closed"),
        "{err}"
    );
    let null = run(">/dev/null");
    assert_eq!(null.status.code(), Some(0), "{null:?}");
    // Stdio::null() opens /dev/null write-only, as a shell does: not closed.
    let out = bin()
        .args(["decode", "zeze"])
        .arg(&input)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(out.code(), Some(0));
    // /dev/null opened read-write, as Python's `subprocess.DEVNULL` and Rust's own
    // start-up open it: a stdout the caller gave, not a closed one.
    let rw_null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    for cmd in [&["decode", "zeze"][..], &["inspect"][..]] {
        let out = bin()
            .args(cmd)
            .arg(&input)
            .stdout(rw_null.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{cmd:?}: {out:?}");
    }
    // With -o, a closed stdout does not matter.
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out.json");
    let with_o = run(&format!("-o {} >&-", o.display()));
    assert_eq!(with_o.status.code(), Some(0), "{with_o:?}");
    assert!(std::fs::read_to_string(&o).unwrap().contains("150"));
}
