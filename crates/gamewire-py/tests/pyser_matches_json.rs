//! The direct serializer (`pyser`) gives the same Python values as going through
//! `serde_json::Value` (`json::to_py` of the crate's `to_json`), on every KingsIsle
//! fixture: the fast path keeps the documented JSON mapping.

use _gamewire::{json, pyser::PySer};
use gamewire::kingsisle::{self as ki, Options, TypeList};
use pyo3::prelude::*;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/kingsisle/katsuba")
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
            assert!(a.bind(py).eq(&b).expect("eq"), "{}", p.display());
        });
        n += 1;
    }
    assert_eq!(n, 28);
}
