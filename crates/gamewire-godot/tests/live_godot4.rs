//! The live engine, Godot 4.6 (the official web export, run headless in chromium; see
//! tests/peers/godot4-web), both ways, with a fresh seed each run (printed; GAMEWIRE_SEED
//! replays a failure):
//!
//! - the engine makes 300 random values of every Godot 4 type and container flavour
//!   (`tests/godot4/main.gd`) and prints `var_to_bytes` of each; gamewire decodes each and
//!   gives the same bytes back through its JSON form;
//! - gamewire encodes 300 random values from their JSON text; the engine reads each with
//!   `bytes_to_var` and writes it back with `var_to_bytes`, which gamewire reads as the
//!   same value (math types in single precision: this build's `real_t`);
//! - godot3-server (Godot 3.2.3) writes random values with `store_var`; gamewire carries
//!   the file over to Godot 4 (`convert::v3_bytes_to_v4`) and the Godot 4 engine reads
//!   each value with `get_var` as the value Godot 3 wrote;
//! - gamewire writes the pack's `project.binary` (the project's name and main scene, and
//!   random settings), which the engine loads before project.godot; it prints each
//!   random setting as it read it.
//!
//! All of it goes into one pack (`pck::Pack`, format 3) and one engine run of a few
//! seconds.

mod common;
use common::{seed, strip_padding, Rng};
use gamewire_core::hex::to_hex;
use gamewire_core::peers;
use gamewire_godot::pck::Pack;
use gamewire_godot::project_binary;
use gamewire_godot::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const GODOT3_SCRIPT: &str = r#"extends SceneTree
func unhex(h):
    var b = PoolByteArray()
    for i in range(0, h.length(), 2):
        b.append(("0x" + h.substr(i, 2)).hex_to_int())
    return b
func _init():
    var args = OS.get_cmdline_args()
    var f = File.new()
    f.open(args[args.size() - 2], File.READ)
    var out = File.new()
    out.open(args[args.size() - 1], File.WRITE)
    while not f.eof_reached():
        var line = f.get_line()
        if line != "":
            out.store_var(bytes2var(unhex(line)))
    out.close()
    f.close()
    quit()
"#;

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/godot4-web")
}

/// The project, scene and scripts of `tests/godot4`, in a new pack.
fn test_pack() -> Pack {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/godot4");
    let mut pack = Pack::new((4, 6, 0));
    for name in ["project.godot", "main.tscn", "main.gd", "item.gd"] {
        pack.add_file(name, std::fs::read(src.join(name)).unwrap())
            .unwrap();
    }
    pack
}

/// A project.binary for the test project (its name and main scene, as project.godot
/// gives them) with random `gamewire/live/kN` settings of the kinds settings hold.
fn project_settings(rng: &mut Rng) -> project_binary::Settings {
    let mut entries = vec![
        (
            "application/config/name".to_owned(),
            Value::String("gamewire live Godot 4 test".into()),
        ),
        (
            "application/run/main_scene".to_owned(),
            Value::String("res://main.tscn".into()),
        ),
    ];
    for i in 0..8 {
        let v = match rng.below(7) {
            0 => Value::Int(rng.int()),
            1 => Value::Float(rng.below(1 << 20) as f64 / 8.0),
            2 => Value::String(rng.string()),
            3 => Value::Bool(rng.below(2) == 1),
            4 => Value::Color([0.25, rng.below(4) as f32 / 4.0, 0.5, 1.0]),
            5 => Value::PackedStringArray(vec![rng.string(), rng.string()]),
            _ => Value::Vector2(Real::F32([rng.below(100) as f32, 0.5])),
        };
        entries.push((format!("gamewire/live/k{i}"), v));
    }
    project_binary::Settings {
        version: Version::V4,
        entries,
    }
}

/// Runs `pack` in the engine with user arguments `args`; returns what it printed.
fn run_engine(pack: &Pack, dir: &Path, args: &[String]) -> String {
    let pck = dir.join("live.pck");
    std::fs::write(&pck, pack.to_bytes()).unwrap();
    let started = std::time::Instant::now();
    let out = Command::new("node")
        .arg(peer_dir().join("run.mjs"))
        .arg(&pck)
        .arg("--")
        .args(args)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("engine run: {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        out.status.success(),
        "the engine run failed ({args:?}):\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&s[j..j + 2], 16).expect("hex from the engine"))
        .collect()
}

fn f32s<const N: usize>(r: &Real<N>) -> Real<N> {
    Real::F32(r.to_f64().map(|x| x as f32))
}

fn f32v<const N: usize>(r: &Reals<N>) -> Reals<N> {
    match r {
        Reals::F64(v) => Reals::F32(v.iter().map(|a| a.map(|x| x as f32)).collect()),
        r => r.clone(),
    }
}

/// `v` as a single-precision engine holds it: math types narrowed to f32.
fn single_precision(v: &Value) -> Value {
    match v {
        Value::Vector2(r) => Value::Vector2(f32s(r)),
        Value::Vector3(r) => Value::Vector3(f32s(r)),
        Value::Rect2(r) => Value::Rect2(Box::new(f32s(r))),
        Value::Vector4(r) => Value::Vector4(Box::new(f32s(r))),
        Value::Plane(r) => Value::Plane(Box::new(f32s(r))),
        Value::Quaternion(r) => Value::Quaternion(Box::new(f32s(r))),
        Value::Transform2D(r) => Value::Transform2D(Box::new(f32s(r))),
        Value::Aabb(r) => Value::Aabb(Box::new(f32s(r))),
        Value::Basis(r) => Value::Basis(Box::new(f32s(r))),
        Value::Transform3D(r) => Value::Transform3D(Box::new(f32s(r))),
        Value::Projection(r) => Value::Projection(Box::new(f32s(r))),
        Value::PackedVector2Array(r) => Value::PackedVector2Array(f32v(r)),
        Value::PackedVector3Array(r) => Value::PackedVector3Array(f32v(r)),
        Value::PackedVector4Array(r) => Value::PackedVector4Array(f32v(r)),
        Value::Array(a) => {
            let mut out = a.clone();
            out.items = a.items.iter().map(single_precision).collect();
            Value::Array(out)
        }
        Value::Dictionary(d) => {
            let mut out = d.clone();
            out.entries = d
                .entries
                .iter()
                .map(|(k, v)| (single_precision(k), single_precision(v)))
                .collect();
            Value::Dictionary(out)
        }
        v => v.clone(),
    }
}

/// Dictionary keys the engine would merge (equal keys; in Godot 4 a String and a
/// StringName of the same text too) are made distinct, keeping typed keys typed.
fn distinct_keys(v: &mut Value) {
    match v {
        Value::Array(a) => a.items.iter_mut().for_each(distinct_keys),
        Value::Dictionary(d) => {
            let string_keys = matches!(d.key_type(), ContainerType::Builtin(4));
            for i in 0..d.entries.len() {
                distinct_keys(&mut d.entries[i].1);
                let key = &d.entries[i].0;
                let dup = d.entries[..i]
                    .iter()
                    .any(|(k, _)| k == key || (k.as_str().is_some() && k.as_str() == key.as_str()))
                    || matches!(
                        key,
                        Value::Float(_) | Value::Array(_) | Value::Dictionary(_)
                    );
                if dup {
                    d.entries[i].0 = if string_keys {
                        Value::String(format!("key {i}").into())
                    } else {
                        Value::Int(1_000_000 + i as i64)
                    };
                }
            }
        }
        _ => {}
    }
}

/// Godot 3 random values written by godot3-server's `store_var`: the file's bytes, or
/// `None` when godot3-server is absent (and not required).
fn godot3_save(rng: &mut Rng, dir: &Path) -> Option<Vec<u8>> {
    if !peers::godot3_available() {
        return None;
    }
    let eopts = EncodeOptions::new(Version::V3);
    let mut input = String::new();
    for _ in 0..100 {
        let mut v = rng.value(Version::V3, 4);
        distinct_keys(&mut v);
        input.push_str(&to_hex(&encode(&v, &eopts).unwrap()));
        input.push('\n');
    }
    let data = dir.join("values3.hex");
    let save = dir.join("save3.bin");
    std::fs::write(&data, &input).unwrap();
    let out = peers::run_godot3(
        dir,
        "save3.gd",
        GODOT3_SCRIPT,
        &[&data, &save],
        Duration::from_secs(60),
    )
    .expect("run godot3-server");
    let bytes = std::fs::read(&save).unwrap_or_else(|e| {
        panic!(
            "godot3-server wrote no save file ({e}):\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Some(bytes)
}

#[test]
fn godot4_engine_agrees_both_ways_and_reads_carried_over_godot3_saves() {
    let absent = peers::godot4_web_absent(&peer_dir());
    if !peers::available(
        "Godot 4.6 web engine",
        absent.is_none(),
        absent.as_deref().unwrap_or(""),
    ) {
        return;
    }
    let seed = seed("live Godot 4 test");
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().unwrap();

    // Ours, for the engine to read.
    let e4 = EncodeOptions::new(Version::V4);
    let mut ours = Vec::new();
    let mut values_hex = String::new();
    for _ in 0..300 {
        let mut v = rng.value(Version::V4, 4);
        distinct_keys(&mut v);
        // Encoded from gamewire's JSON text of the value, as a user's edited save would be.
        let text = serde_json::to_string(&json::to_json(&v, Version::V4)).unwrap();
        let from_text = json::from_json(&serde_json::from_str(&text).unwrap(), Version::V4)
            .unwrap_or_else(|e| panic!("seed {seed}: JSON {text}: {e}"));
        values_hex.push_str(&to_hex(&encode(&from_text, &e4).unwrap()));
        values_hex.push('\n');
        ours.push(v);
    }

    // Godot 3's, carried over.
    let save3 = godot3_save(&mut rng, dir.path());
    let d3 = DecodeOptions::new(Version::V3);
    let expected3 = save3.as_ref().map(|s| {
        let mut vs = framing::decode_framed_all(s, &d3).expect("decode godot3-server's save");
        vs.iter_mut().for_each(strip_padding);
        vs
    });

    let mut pack = test_pack();
    // Our project.binary: the engine loads it before project.godot.
    let settings = project_settings(&mut rng);
    pack.add_file("project.binary", project_binary::encode(&settings).unwrap())
        .unwrap();
    pack.add_file("values.hex", values_hex.into_bytes())
        .unwrap();
    if let Some(save3) = &save3 {
        let save4 = convert::v3_bytes_to_v4(save3, true).expect("carry the Godot 3 save over");
        pack.add_file("save4.bin", save4).unwrap();
    }
    let stdout = run_engine(&pack, dir.path(), &[format!("--seed={}", seed % (1 << 62))]);
    let tagged = |tag: &str| -> Vec<Vec<u8>> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix(tag))
            .map(unhex)
            .collect()
    };

    // 1. The engine's values: decoded, through JSON and back, byte-exact.
    let d4 = DecodeOptions::new(Version::V4);
    let theirs = tagged("V ");
    assert_eq!(theirs.len(), 300, "engine output:\n{stdout}");
    let mut kinds = std::collections::BTreeSet::new();
    for (i, bytes) in theirs.iter().enumerate() {
        let v = decode(bytes, &d4)
            .unwrap_or_else(|e| panic!("engine value {i} (seed {seed}): {e}\n{}", to_hex(bytes)));
        kinds.insert(v.kind());
        let text = serde_json::to_string(&json::to_json(&v, Version::V4)).unwrap();
        let back = json::from_json(&serde_json::from_str(&text).unwrap(), Version::V4)
            .unwrap_or_else(|e| panic!("engine value {i} (seed {seed}): JSON {text}: {e}"));
        let again = encode(&back, &e4).unwrap();
        assert_eq!(
            to_hex(&again),
            to_hex(bytes),
            "engine value {i} (seed {seed}) through JSON {text}"
        );
    }
    // With objects (typed containers of script and class types).
    let with_objects = tagged("W ");
    assert_eq!(with_objects.len(), 3, "engine output:\n{stdout}");
    let dw = DecodeOptions::new(Version::V4).allow_objects(true);
    let mut scripts = 0;
    for (i, bytes) in with_objects.iter().enumerate() {
        let v = decode(bytes, &dw)
            .unwrap_or_else(|e| panic!("engine value W{i} (seed {seed}): {e}\n{}", to_hex(bytes)));
        let types = match &v {
            Value::Array(a) => vec![a.element_type().clone()],
            Value::Dictionary(d) => vec![d.key_type().clone(), d.value_type().clone()],
            other => panic!("W{i}: {other:?}"),
        };
        scripts += types
            .iter()
            .filter(|t| matches!(t, ContainerType::Script(p) if p == "res://item.gd"))
            .count();
        let text = serde_json::to_string(&json::to_json(&v, Version::V4)).unwrap();
        let back = json::from_json(&serde_json::from_str(&text).unwrap(), Version::V4).unwrap();
        assert_eq!(
            to_hex(&encode(&back, &e4).unwrap()),
            to_hex(bytes),
            "engine value W{i} (seed {seed}) through JSON {text}"
        );
    }
    assert!(scripts >= 1, "a script-typed container with objects");
    assert_eq!(
        kinds.len(),
        Kind::ALL.len(),
        "the engine's values cover every Godot 4 type: {kinds:?}"
    );

    // 2. Ours, as the engine read and rewrote them.
    let replayed = tagged("R ");
    assert_eq!(replayed.len(), ours.len(), "engine output:\n{stdout}");
    for (i, (value, bytes)) in ours.iter().zip(&replayed).enumerate() {
        let mut back = decode(bytes, &d4)
            .unwrap_or_else(|e| panic!("value {i} (seed {seed}) from the engine: {e}"));
        strip_padding(&mut back);
        assert_eq!(
            back,
            single_precision(value),
            "value {i} (seed {seed}): the engine read a different value"
        );
    }

    // 3. Our project.binary's settings, as the engine read them.
    let mut seen = 0;
    for line in stdout.lines().filter_map(|l| l.strip_prefix("S ")) {
        let (key, hex) = line.split_once(' ').unwrap();
        let want = &settings.entries.iter().find(|(k, _)| k == key).unwrap().1;
        let got = decode(&unhex(hex), &d4).unwrap();
        assert_eq!(&got, want, "setting {key} (seed {seed})");
        seen += 1;
    }
    assert_eq!(
        seen,
        settings.entries.len() - 2,
        "the engine read our project.binary's settings:\n{stdout}"
    );

    // 4. Godot 3's save, carried over, as Godot 4's get_var reads it.
    let read = tagged("C ");
    eprintln!(
        "checked {} engine values ({} types), {} of ours read back, {} Godot 3 values carried over",
        theirs.len(),
        kinds.len(),
        replayed.len(),
        read.len()
    );
    if let Some(expected) = expected3 {
        assert_eq!(read.len(), expected.len(), "engine output:\n{stdout}");
        for (i, (value, bytes)) in expected.iter().zip(&read).enumerate() {
            let mut back = decode(bytes, &d4)
                .unwrap_or_else(|e| panic!("Godot 3 value {i} (seed {seed}) in Godot 4: {e}"));
            strip_padding(&mut back);
            assert_eq!(
                &back, value,
                "Godot 3 value {i} (seed {seed}): Godot 4 read a different value"
            );
        }
    }
}

/// The engine runs a pack whose directory and files we encrypted. Godot's official
/// builds (this one too) are compiled without a script encryption key, so their key is
/// 32 zero bytes: the pack is encrypted with that key, and the engine decrypts the
/// directory and every file to run the project (by hand, a pack encrypted with another
/// key is refused by the engine: "The MD5 sum of the decrypted file does not match").
#[test]
fn godot4_engine_runs_a_pack_we_encrypted() {
    let absent = peers::godot4_web_absent(&peer_dir());
    if !peers::available(
        "Godot 4.6 web engine",
        absent.is_none(),
        absent.as_deref().unwrap_or(""),
    ) {
        return;
    }
    let key = gamewire_godot::pck::Key::from_bytes(&[0; 32]).unwrap();
    let mut pack = test_pack();
    pack.encrypt(gamewire_godot::pck::Encryption {
        key: key.clone(),
        directory: true,
        files: true,
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stdout = run_engine(&pack, dir.path(), &["--seed=5".into()]);
    let values = stdout.lines().filter(|l| l.starts_with("V ")).count();
    assert_eq!(values, 300, "engine output:\n{stdout}");
    // And we read back what we gave it.
    let bytes = std::fs::read(dir.path().join("live.pck")).unwrap();
    let r = gamewire_godot::pck::PackReader::with_key(&bytes, Some(&key)).unwrap();
    assert!(r.info().directory_encrypted() && r.entries().iter().all(|e| e.encrypted()));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/godot4/main.gd");
    assert_eq!(
        r.read_content(r.find("main.gd").unwrap()).unwrap(),
        std::fs::read(src).unwrap()
    );
}

/// Writes the fixed vectors of `tests/fixtures/godot/engine-4.6/vectors.tsv` (seed 1):
/// `cargo test -p gamewire-godot --test live_godot4 -- --ignored`.
#[test]
#[ignore = "rewrites a fixture file; run by hand with --ignored"]
fn capture_godot4_engine_vectors() {
    if let Some(why) = peers::godot4_web_absent(&peer_dir()) {
        panic!("{why}");
    }
    let dir = tempfile::tempdir().unwrap();
    let stdout = run_engine(
        &test_pack(),
        dir.path(),
        &["--seed=1".into(), "--vectors".into()],
    );
    let mut tsv = String::from(
        "# Godot 4.6.stable.official (web export, single precision): var_to_bytes of one value\n\
         # of each type and container flavour, with var_to_str of it, made by\n\
         # crates/gamewire-godot/tests/godot4/main.gd --seed=1 --vectors\n\
         # (cargo test -p gamewire-godot --test live_godot4 -- --ignored).\n",
    );
    let mut n = 0;
    for line in stdout.lines().filter_map(|l| l.strip_prefix("T ")) {
        tsv.push_str(line);
        tsv.push('\n');
        n += 1;
    }
    assert_eq!(n, 50, "engine output:\n{stdout}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/engine-4.6/vectors.tsv");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, tsv).unwrap();
}
