//! The live Godot 4.6 engine (the web export, headless in chromium; see
//! tests/peers/godot4-web) and Godot's file containers, through its `user://` file
//! system: the engine writes random values with `store_var` into an encrypted file
//! (`open_encrypted_with_pass`, `open_encrypted`) and a compressed file of each mode;
//! gamewire reads them (Godot 4's CFB layout with its IV) as the values the engine wrote
//! and writes them back byte-exact. gamewire writes the same containers, and the engine's
//! `get_var` reads them as the same values. A fresh seed each run (printed;
//! GAMEWIRE_SEED replays it).

mod common;
use common::{seed, strip_padding, Rng};
use gamewire_core::hex::to_hex;
use gamewire_core::{peers, Limits};
use gamewire_godot::container::{compressed, encrypted};
use gamewire_godot::pck::Pack;
use gamewire_godot::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const PASSWORD: &str = "hunter2 ünïcode";
const NAMES: [&str; 6] = ["pass", "key", "0", "1", "2", "3"];

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/godot4-web")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&s[j..j + 2], 16).expect("hex from the engine"))
        .collect()
}

fn key() -> encrypted::Key {
    let k: Vec<u8> = (0..32u32).map(|i| ((i * 7 + 3) % 256) as u8).collect();
    encrypted::Key::from_bytes(&k).unwrap()
}

fn secret(name: &str) -> encrypted::Key {
    if name == "pass" {
        encrypted::Key::from_password(PASSWORD)
    } else {
        key()
    }
}

/// Our file of `plain` (a store_var stream) in container `name`.
fn ours(name: &str, plain: &[u8]) -> Vec<u8> {
    match name {
        "pass" | "key" => encrypted::encrypt(
            plain,
            &secret(name),
            &encrypted::Layout::V4 {
                iv: encrypted::random_iv(),
            },
        ),
        m => compressed::write(
            plain,
            compressed::Mode::from_number(m.parse().unwrap()).unwrap(),
            compressed::DEFAULT_BLOCK_SIZE,
            &|_, _| None,
        )
        .unwrap(),
    }
}

#[test]
fn godot4_engine_and_gamewire_read_each_others_containers() {
    let absent = peers::godot4_web_absent(&peer_dir());
    if !peers::available(
        "Godot 4.6 web engine",
        absent.is_none(),
        absent.as_deref().unwrap_or(""),
    ) {
        return;
    }
    let seed = seed("live Godot 4 containers test");
    let mut rng = Rng::new(seed);
    let e4 = EncodeOptions::new(Version::V4);
    // Values whose store_var stream spans several 4096-byte blocks.
    let mut hex = String::new();
    let mut total = 0;
    while total < 16_000 {
        let v = rng.value(Version::V4, 3);
        let bytes = encode(&v, &e4).unwrap();
        total += bytes.len() + 4;
        hex.push_str(&to_hex(&bytes));
        hex.push('\n');
    }
    // The engine's own bytes of the values (`O` lines) are the truth both ways; our
    // containers hold the stream of our encoding, which the engine reads.
    let mut stream = Vec::new();
    for line in hex.lines() {
        let b = unhex(line);
        stream.extend_from_slice(&(b.len() as u32).to_le_bytes());
        stream.extend_from_slice(&b);
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/godot4");
    let mut pack = Pack::new((4, 6, 0));
    for name in ["project.godot", "main.tscn", "main.gd", "item.gd"] {
        pack.add_file(name, std::fs::read(src.join(name)).unwrap())
            .unwrap();
    }
    pack.add_file("containers.hex", hex.clone().into_bytes())
        .unwrap();
    for name in NAMES {
        pack.add_file(&format!("ours_{name}.sav"), ours(name, &stream))
            .unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let pck = dir.path().join("containers.pck");
    std::fs::write(&pck, pack.to_bytes()).unwrap();
    let out = Command::new("node")
        .arg(peer_dir().join("run.mjs"))
        .arg(&pck)
        .arg("--")
        .arg(format!("--seed={}", seed % (1 << 62)))
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "seed {seed}: the engine run failed:\n{all}"
    );
    assert!(
        !stdout.lines().any(|l| l.starts_with("E ")),
        "seed {seed}: {all}"
    );
    let tagged = |tag: &str| -> Vec<Vec<u8>> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix(tag))
            .map(unhex)
            .collect()
    };
    let engine_values = tagged("O ");
    assert_eq!(
        engine_values.len(),
        hex.lines().count(),
        "seed {seed}: {all}"
    );
    // What store_var writes for the values, as the engine encodes them.
    let mut engine_stream = Vec::new();
    for b in &engine_values {
        engine_stream.extend_from_slice(&(b.len() as u32).to_le_bytes());
        engine_stream.extend_from_slice(b);
    }
    for name in NAMES {
        // The engine read ours as the values it decoded from the same bytes.
        let read = tagged(&format!("G {name} "));
        assert_eq!(
            read.len(),
            engine_values.len(),
            "seed {seed}: ours_{name}: {all}"
        );
        // NodePath padding is not written by the engine (uninitialised memory): values
        // are compared without it.
        let d4 = DecodeOptions::new(Version::V4);
        for (i, (g, o)) in read.iter().zip(&engine_values).enumerate() {
            let (mut g, mut o) = (decode(g, &d4).unwrap(), decode(o, &d4).unwrap());
            strip_padding(&mut g);
            strip_padding(&mut o);
            assert_eq!(
                g, o,
                "seed {seed}: the engine read value {i} of ours_{name} differently"
            );
        }
        // We read the engine's as what its store_var wrote, and write it back byte-exact.
        let file = tagged(&format!("F {name} "));
        assert_eq!(file.len(), 1, "seed {seed}: {name}: {all}");
        let file = &file[0];
        let plain = match name {
            "pass" | "key" => {
                let d = encrypted::decrypt(file, &secret(name))
                    .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
                assert!(matches!(d.layout, encrypted::Layout::V4 { .. }));
                assert_eq!(
                    &encrypted::encrypt(&d.plaintext, &secret(name), &d.layout),
                    file
                );
                let wrong = encrypted::Key::from_password("not it");
                assert!(encrypted::decrypt(file, &wrong).is_err());
                d.plaintext
            }
            _ => {
                let c = compressed::read(file, &Limits::DEFAULT)
                    .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
                assert_eq!(c.mode.number().to_string(), name);
                assert!(c.blocks.len() > 1, "several blocks");
                let again = compressed::write(&c.plaintext, c.mode, c.block_size, &|i, _| {
                    Some(file[c.blocks[i].clone()].to_vec())
                })
                .unwrap();
                assert_eq!(&again, file, "seed {seed}: {name} written back");
                // Compressed again with no block kept: the engine's bytes, every block.
                for (i, (p, r)) in compressed::block_plaintexts(&c).zip(&c.blocks).enumerate() {
                    assert_eq!(
                        compressed::compress_block(c.mode, p).unwrap(),
                        &file[r.clone()],
                        "seed {seed}: {name} block {i} compressed again"
                    );
                }
                c.plaintext
            }
        };
        // store_var leaves the padding of NodePath names uninitialised (var_to_bytes
        // zeroes it): the values are compared, not the bytes.
        assert_eq!(
            plain.len(),
            engine_stream.len(),
            "seed {seed}: engine_{name}"
        );
        let d4 = DecodeOptions::new(Version::V4);
        let values = framing::decode_framed_all(&plain, &d4)
            .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
        assert_eq!(values.len(), engine_values.len());
        for (i, (mut v, o)) in values.into_iter().zip(&engine_values).enumerate() {
            let mut o = decode(o, &d4).unwrap();
            strip_padding(&mut v);
            strip_padding(&mut o);
            assert_eq!(v, o, "seed {seed}: engine_{name} value {i}");
        }
    }
}
