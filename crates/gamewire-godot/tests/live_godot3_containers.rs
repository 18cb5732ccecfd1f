//! The live engine and Godot's file containers: godot3-server (Godot 3.2.3) writes
//! random values with `store_var` into an encrypted file (password and key) and a
//! compressed file of each mode; gamewire reads them as the same values and writes them
//! back byte-exact. gamewire writes the same containers, and the engine's `get_var` reads
//! them as the same values. A fresh seed each run (printed; GAMEWIRE_SEED replays it).

mod common;
use common::{distinct_keys_v3, has_node_path, seed, strip_padding, Rng};
use gamewire_core::hex::to_hex;
use gamewire_core::{peers, Limits};
use gamewire_godot::container::{compressed, encrypted};
use gamewire_godot::*;
use std::time::Duration;

const ENGINE_TIMEOUT: Duration = Duration::from_secs(60);

const PASSWORD: &str = "hunter2 ünïcode";

/// The engine: reads hex values (one a line) from `values.hex`, writes them with
/// `store_var` into `engine_*.sav`, then reads each `ours_*.sav` with `get_var` and
/// prints every value's `var2bytes` as `OUT name hex`.
const SCRIPT: &str = r#"extends SceneTree
func unhex(h):
    var b = PoolByteArray()
    for i in range(0, h.length(), 2):
        b.append(("0x" + h.substr(i, 2)).hex_to_int())
    return b
func hex(b):
    var s = ""
    for x in b:
        s += "%02x" % x
    return s
func key():
    var k = PoolByteArray()
    for i in range(32):
        k.append((i * 7 + 3) % 256)
    return k
func open_write(f, name):
    if name == "pass":
        return f.open_encrypted_with_pass("engine_pass.sav", File.WRITE, PASSWORD)
    if name == "key":
        return f.open_encrypted("engine_key.sav", File.WRITE, key())
    return f.open_compressed("engine_%s.sav" % name, File.WRITE, int(name))
func open_read(f, name):
    if name == "pass":
        return f.open_encrypted_with_pass("ours_pass.sav", File.READ, PASSWORD)
    if name == "key":
        return f.open_encrypted("ours_key.sav", File.READ, key())
    return f.open_compressed("ours_%s.sav" % name, File.READ, int(name))
func _init():
    var values = []
    var src = File.new()
    src.open("values.hex", File.READ)
    while not src.eof_reached():
        var line = src.get_line()
        if line != "":
            values.append(bytes2var(unhex(line)))
    src.close()
    for name in ["pass", "key", "0", "1", "2", "3"]:
        var f = File.new()
        var err = open_write(f, name)
        if err != OK:
            print("ERR write ", name, " ", err)
            continue
        for v in values:
            f.store_var(v)
        f.close()
        var r = File.new()
        err = open_read(r, name)
        if err != OK:
            print("ERR read ", name, " ", err)
            continue
        for i in range(values.size()):
            print("OUT ", name, " ", hex(var2bytes(r.get_var())))
        r.close()
    print("DONE")
    quit()
"#;

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&h[j..j + 2], 16).unwrap())
        .collect()
}

fn key() -> encrypted::Key {
    let k: Vec<u8> = (0..32u32).map(|i| ((i * 7 + 3) % 256) as u8).collect();
    encrypted::Key::from_bytes(&k).unwrap()
}

#[test]
fn godot3_engine_and_gamewire_read_each_others_containers() {
    if !peers::godot3_available() {
        return;
    }
    let seed = seed("live Godot 3 containers test");
    let mut rng = Rng::new(seed);
    let eopts = EncodeOptions::new(Version::V3);
    let dopts = DecodeOptions::new(Version::V3);
    let mut values = Vec::new();
    let mut hex = String::new();
    let mut stream = Vec::new();
    // Enough values that a compressed file spans several 4096-byte blocks.
    while stream.len() < 20_000 {
        let mut v = rng.value(Version::V3, 4);
        distinct_keys_v3(&mut v);
        if has_node_path(&v) {
            // NodePath padding is uninitialised memory in 3.2.3's encoder.
            continue;
        }
        let bytes = encode(&v, &eopts).unwrap();
        hex.push_str(&to_hex(&bytes));
        hex.push('\n');
        framing::encode_framed_into(&v, &eopts, &mut stream).unwrap();
        values.push(v);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("values.hex"), &hex).unwrap();
    // Ours, for the engine to read.
    let pass = encrypted::Key::from_password(PASSWORD);
    let write = |name: &str, bytes: Vec<u8>| {
        std::fs::write(dir.path().join(format!("ours_{name}.sav")), bytes).unwrap()
    };
    write(
        "pass",
        encrypted::encrypt(&stream, &pass, &encrypted::Layout::V3),
    );
    write(
        "key",
        encrypted::encrypt(&stream, &key(), &encrypted::Layout::V3),
    );
    let modes = [
        compressed::Mode::FastLz,
        compressed::Mode::Deflate,
        compressed::Mode::Zstd,
        compressed::Mode::Gzip,
    ];
    for m in modes {
        let f =
            compressed::write(&stream, m, compressed::DEFAULT_BLOCK_SIZE, &|_, _| None).unwrap();
        write(&m.number().to_string(), f);
    }
    let script = SCRIPT.replace("PASSWORD", &format!("{PASSWORD:?}"));
    let out = peers::run_godot3(
        dir.path(),
        "containers.gd",
        &script,
        &[] as &[&str],
        ENGINE_TIMEOUT,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("DONE"),
        "seed {seed}: engine output:\n{all}"
    );
    assert!(
        !stdout.contains("ERR "),
        "seed {seed}: engine output:\n{all}"
    );
    for name in ["pass", "key", "0", "1", "2", "3"] {
        // The engine read ours as the same values.
        let prefix = format!("OUT {name} ");
        let read: Vec<&str> = stdout
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .collect();
        assert_eq!(read.len(), values.len(), "seed {seed}: {name}: {all}");
        for (i, (h, v)) in read.iter().zip(&values).enumerate() {
            let mut back = decode(&unhex(h), &dopts)
                .unwrap_or_else(|e| panic!("seed {seed}: {name} value {i}: {e}"));
            strip_padding(&mut back);
            assert_eq!(
                &back, v,
                "seed {seed}: the engine read {name} value {i} differently"
            );
        }
        // We read the engine's as the same values, and write it back byte-exact.
        let theirs = std::fs::read(dir.path().join(format!("engine_{name}.sav"))).unwrap();
        let plain = match name {
            "pass" | "key" => {
                let k = if name == "pass" { pass.clone() } else { key() };
                let d = encrypted::decrypt(&theirs, &k)
                    .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
                assert_eq!(d.layout, encrypted::Layout::V3);
                assert_eq!(encrypted::encrypt(&d.plaintext, &k, &d.layout), theirs);
                // A wrong secret is an error, not garbage.
                assert!(encrypted::decrypt(&theirs, &encrypted::Key::from_password("x")).is_err());
                d.plaintext
            }
            _ => {
                let c = compressed::read(&theirs, &Limits::DEFAULT)
                    .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
                assert_eq!(c.mode.number().to_string(), name);
                assert_eq!(c.block_size, 4096);
                assert!(c.blocks.len() > 1, "several blocks");
                let again = compressed::write(&c.plaintext, c.mode, c.block_size, &|i, _| {
                    Some(theirs[c.blocks[i].clone()].to_vec())
                })
                .unwrap();
                assert_eq!(again, theirs, "seed {seed}: {name} written back");
                // Compressed again with no block kept: the engine's bytes, every block. Not
                // for Zstd: Godot 3.2.3 bundles libzstd 1.4.4, whose level-3 output
                // differs from the 1.5 that gamewire (and Godot 4) compress with on some
                // blocks; those are kept on write instead.
                if c.mode == compressed::Mode::Zstd {
                    c.plaintext
                } else {
                    for (i, (p, r)) in compressed::block_plaintexts(&c).zip(&c.blocks).enumerate() {
                        assert_eq!(
                            compressed::compress_block(c.mode, p).unwrap(),
                            &theirs[r.clone()],
                            "seed {seed}: {name} block {i} compressed again"
                        );
                    }
                    let fresh = compressed::write(&c.plaintext, c.mode, c.block_size, &|_, _| None)
                        .unwrap();
                    assert_eq!(fresh, theirs, "seed {seed}: {name} compressed again");
                    c.plaintext
                }
            }
        };
        let got = framing::decode_framed_all(&plain, &dopts)
            .unwrap_or_else(|e| panic!("seed {seed}: engine_{name}: {e}"));
        assert_eq!(got.len(), values.len());
        for (i, (mut g, v)) in got.into_iter().zip(&values).enumerate() {
            strip_padding(&mut g);
            assert_eq!(&g, v, "seed {seed}: engine_{name} value {i}");
        }
    }
}
