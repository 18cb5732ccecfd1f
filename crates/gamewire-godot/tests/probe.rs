//! Recognising Godot bytes by content: real save files, the engines' own vectors (bare
//! and framed), game-like random values, and inputs that are not Godot at all.

mod common;

use common::Rng;
use gamewire_godot::framing::encode_framed_into;
use gamewire_godot::probe::{probe, Framing, Verdict};
use gamewire_godot::*;

fn read(path: &str) -> Vec<u8> {
    let path = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn vectors(name: &str) -> Vec<Vec<u8>> {
    let text = String::from_utf8(read(&format!("tests/fixtures/godot/vectors/{name}"))).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let hex = l.split('\t').next().unwrap();
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect()
}

fn framed(v: &Value, version: Version) -> Vec<u8> {
    let mut out = Vec::new();
    encode_framed_into(v, &EncodeOptions::new(version), &mut out).unwrap();
    out
}

/// What the probe said of bytes whose truth is known.
#[derive(Default, Debug)]
struct Score {
    right: usize,
    ambiguous: usize,
    missed: usize,
}

/// Checks one verdict against the truth: a verdict naming one reading must give the
/// true values (the right version, or one that reads the bytes identically) and the
/// true framing. Panics on a wrong answer; counts the others.
fn check(score: &mut Score, bytes: &[u8], version: Version, framing: Framing, what: &str) {
    match probe(bytes) {
        Verdict::One { best, same } => {
            let right = |r: &probe::Reading| r.version == version && r.framing == framing;
            assert!(
                right(&best) || same.iter().any(right),
                "{what}: read as {best:?} (also {same:?}), truth {version:?} {framing:?}"
            );
            score.right += 1;
        }
        Verdict::Ambiguous(r) => {
            assert!(
                r.iter()
                    .any(|r| r.version == version && r.framing == framing),
                "{what}: ambiguous between {r:?}, none of them the truth"
            );
            score.ambiguous += 1;
        }
        Verdict::NotGodot => score.missed += 1,
    }
}

#[test]
fn a_real_godot3_save_file_is_recognised() {
    // store_var of a Dictionary by a Godot 3 game (see tests/fixtures/godot/real/SOURCES.md).
    let bytes = read("tests/fixtures/godot/real/rogue-like-save_file.godot3.save");
    let v = probe(&bytes);
    let best = v.best().expect("recognised");
    assert_eq!(
        (best.version, best.framing, best.records),
        (Version::V3, Framing::Framed, 1)
    );
}

#[test]
fn the_engines_vectors_are_never_misread() {
    for (file, version) in [
        ("godot3-engine-vectors.tsv", Version::V3),
        ("godot4-vectors.tsv", Version::V4),
    ] {
        let mut raw = Score::default();
        let mut store_var = Score::default();
        let opts = DecodeOptions::new(version);
        for (i, bytes) in vectors(file).iter().enumerate() {
            let Ok(value) = decode(bytes, &opts) else {
                continue; // full objects: not plain data
            };
            check(
                &mut raw,
                bytes,
                version,
                Framing::Raw,
                &format!("{file} #{i} bare"),
            );
            let f = framed(&value, version);
            check(
                &mut store_var,
                &f,
                version,
                Framing::Framed,
                &format!("{file} #{i} framed"),
            );
        }
        println!("{file}: bare {raw:?}, framed {store_var:?}");
        // The vectors are deliberately hostile (edge floats such as f32::MAX, random
        // bit patterns) so some are fairly turned away; most must still be recognised.
        let total = store_var.right + store_var.ambiguous + store_var.missed;
        assert!(
            store_var.right * 10 >= total * 7,
            "{file} framed: {store_var:?}"
        );
    }
}

/// A save-game-like Dictionary: names, counters, positions, flags, lists.
fn game_value(rng: &mut Rng, version: Version) -> Value {
    let mut entries = Vec::new();
    for i in 0..1 + rng.below(12) {
        let key = Value::String(format!("field_{i}").into());
        let value = match rng.below(7) {
            0 => Value::Int(rng.below(100_000) as i64 - 500),
            1 => Value::Float((rng.below(200_000) as f64 - 100_000.0) / 64.0),
            2 => {
                Value::String(["Ann", "sword", "level_3", "élan", ""][rng.below(5) as usize].into())
            }
            3 => Value::Bool(rng.below(2) == 0),
            4 => Value::Vector2(Real::F32([
                rng.below(2000) as f32 / 4.0,
                -(rng.below(900) as f32),
            ])),
            5 => Value::Vector3(Real::F32([1.5, rng.below(50) as f32, -2.25])),
            _ => Value::Array(Array::new(
                (0..rng.below(6))
                    .map(|n| Value::Int(n as i64 * 3))
                    .collect(),
            )),
        };
        entries.push((key, value));
    }
    let _ = version;
    Value::Dictionary(Dictionary::new(entries))
}

#[test]
fn game_like_saves_are_recognised_in_both_versions_and_framings() {
    let seed = 20261123;
    let mut rng = Rng::new(seed);
    for version in [Version::V3, Version::V4] {
        let mut score = Score::default();
        for i in 0..300 {
            let v = game_value(&mut rng, version);
            let records = 1 + rng.below(3) as usize;
            let mut file = Vec::new();
            for _ in 0..records {
                file.extend(framed(&v, version));
            }
            let what = format!("seed {seed} #{i} {version:?}");
            check(&mut score, &file, version, Framing::Framed, &what);
            let bare = encode(&v, &EncodeOptions::new(version)).unwrap();
            check(&mut score, &bare, version, Framing::Raw, &what);
        }
        assert_eq!(score.right, 600, "{version:?} (seed {seed}): {score:?}");
    }
}

#[test]
fn other_bytes_are_not_godot() {
    assert_eq!(probe(b"{\"hp\": 3}"), Verdict::NotGodot);
    assert_eq!(probe(b"[1, 2, 3]\n"), Verdict::NotGodot);
    assert_eq!(probe(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Verdict::NotGodot);
    assert_eq!(probe(b"BINd\0\0\0\0"), Verdict::NotGodot);
    assert_eq!(probe(b""), Verdict::NotGodot);
    let mut rng = Rng::new(7);
    let mut claimed = 0;
    for _ in 0..3000 {
        let len = 16 + rng.below(2000) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if probe(&bytes) != Verdict::NotGodot {
            claimed += 1;
        }
    }
    assert_eq!(claimed, 0, "random buffers claimed as Godot");
}
