//! The fixture and sample files the tests read.

use gamewire_zeze::json::unhex;
use gamewire_zeze::schema::Schema;
use std::path::Path;

/// The bytes of fixture bean `i` of `tests/fixtures/zeze/vectors/vectors.json` (written by
/// Zeze's Java `ByteBuffer`).
pub fn bean_bytes(i: usize) -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/vectors/vectors.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    unhex(v["beans"][i]["hex"].as_str().unwrap()).unwrap()
}

/// The solution of the fixture beans, `samples/zeze/zeze-solution.xml`.
pub fn sample_schema() -> Schema {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/zeze/zeze-solution.xml"
    );
    Schema::from_xml(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Reads a real solution file; zege's import of `../../zeze/ZezeJava/ZezeJava/...` (a
/// Zeze checkout beside zege) is served from `ZezeJava/ZezeJava/...` of the same
/// repository.
pub fn read_solution(p: &Path) -> std::io::Result<String> {
    let s = p.to_string_lossy().replace('\\', "/");
    if let Some(i) = s.find("/projects/zeze/ZezeJava/") {
        let moved = format!("{}{}", &s[..i + 1], &s[i + "/projects/zeze/".len()..]);
        return std::fs::read_to_string(moved);
    }
    std::fs::read_to_string(p)
}
