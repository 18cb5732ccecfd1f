//! The direct serializer (`pyser`) gives the same Python values as going through
//! `serde_json::Value` (`json::to_py` of the crate's `to_json`), on every KingsIsle
//! fixture and every Godot vector: the fast path keeps the documented JSON mapping.

use _gamewire::{json, pyser::PySer};
use gamewire::kingsisle::{self as ki, Options, TypeList};
use pyo3::prelude::*;
use std::path::PathBuf;

fn in_repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn fixtures() -> PathBuf {
    in_repo().join("kingsisle/katsuba")
}

/// `repr()` (so NaN compares equal to NaN).
fn repr(v: &Bound<'_, PyAny>) -> String {
    v.repr().expect("repr").to_string()
}

#[test]
fn godot_vectors_convert_alike() {
    use gamewire::godot::{self, DecodeOptions, Version};
    pyo3::prepare_freethreaded_python();
    let mut n = 0;
    for (name, ver) in [
        ("godot3-engine-vectors.tsv", Version::V3),
        ("godot4-vectors.tsv", Version::V4),
    ] {
        let text =
            std::fs::read_to_string(in_repo().join("godot/vectors").join(name)).expect("tsv");
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let hex = line.split('\t').next().expect("hex");
            let data: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
                .collect();
            let v = godot::decode(&data, &DecodeOptions::new(ver)).expect("decode");
            let via_json = godot::json::to_json(&v, ver);
            Python::with_gil(|py| {
                let a = json::to_py(py, &via_json).expect("to_py");
                let b = PySer::new(py)
                    .convert(&godot::json::JsonView::new(&v, ver))
                    .expect("pyser");
                assert_eq!(repr(a.bind(py)), repr(&b), "{line}");
            });
            n += 1;
        }
    }
    assert_eq!(n, 415);
}

#[test]
fn kingsisle_fixtures_convert_alike() {
    let dir = fixtures();
    let types = TypeList::from_files(&[dir.join("types.json")]).expect("types");
    pyo3::prepare_freethreaded_python();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("fixtures") {
        let p = e.expect("entry").path();
        if p.extension().is_none_or(|x| x != "bin") {
            continue;
        }
        let cfg: serde_json::Value = serde_json::from_slice(
            &std::fs::read(p.with_extension("config.json")).expect("config"),
        )
        .expect("config json");
        let d = Options::default();
        let o = Options {
            flags: cfg["flags"].as_u64().expect("flags") as u32,
            property_mask: cfg["property_mask"].as_u64().expect("mask") as u32,
            shallow: cfg["shallow"].as_bool().expect("shallow"),
            manual_zlib: cfg["compress"].as_bool().expect("compress"),
            ..d
        };
        let data = std::fs::read(&p).expect("read");
        let doc = ki::inspect::decode_any(&data, &types, &o).expect("decode");
        let via_json = ki::json::to_json(&doc, &types).expect("to_json");
        Python::with_gil(|py| {
            let a = json::to_py(py, &via_json).expect("to_py");
            let view = ki::json::DocumentJson {
                doc: &doc,
                types: &types,
                enum_numbers: false,
            };
            let b = PySer::new(py).convert(&view).expect("pyser");
            assert_eq!(repr(a.bind(py)), repr(&b), "{}", p.display());
        });
        n += 1;
    }
    assert_eq!(n, 28);
}

/// Map keys that are not strings become the text serde_json writes for them (`true`,
/// not Python's `True`; `1e20`, not `1e+20`), and a key serde_json refuses (a NaN, a
/// list) is an error both ways.
#[test]
fn non_string_keys_take_serde_json_text() {
    use serde::ser::{Serialize, SerializeMap, Serializer};
    /// One map entry `key: 1` for each key kind.
    enum Key {
        Bool(bool),
        Int(i64),
        Uint(u64),
        F64(f64),
        F32(f32),
        Char(char),
        List,
    }
    struct One(Key);
    impl Serialize for One {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(Some(1))?;
            match &self.0 {
                Key::Bool(b) => m.serialize_entry(b, &1)?,
                Key::Int(i) => m.serialize_entry(i, &1)?,
                Key::Uint(u) => m.serialize_entry(u, &1)?,
                Key::F64(f) => m.serialize_entry(f, &1)?,
                Key::F32(f) => m.serialize_entry(f, &1)?,
                Key::Char(c) => m.serialize_entry(c, &1)?,
                Key::List => m.serialize_entry(&[1, 2], &1)?,
            }
            m.end()
        }
    }
    pyo3::prepare_freethreaded_python();
    let keys = [
        Key::Bool(true),
        Key::Bool(false),
        Key::Int(-7),
        Key::Uint(u64::MAX),
        Key::F64(1.5),
        Key::F64(1e20),
        Key::F64(-0.0),
        Key::F64(1e-7),
        Key::F32(0.1),
        Key::F64(f64::NAN),
        Key::F64(f64::INFINITY),
        Key::Char('é'),
        Key::List,
    ];
    Python::with_gil(|py| {
        for k in keys {
            let one = One(k);
            let via_json = serde_json::to_value(&one);
            let direct = PySer::new(py).convert(&one);
            match via_json {
                Ok(j) => {
                    let a = json::to_py(py, &j).expect("to_py");
                    let b = direct.expect("pyser");
                    assert_eq!(repr(a.bind(py)), repr(&b), "{j}");
                }
                Err(e) => assert!(direct.is_err(), "serde_json refuses ({e}), pyser takes it"),
            }
        }
    });
}
