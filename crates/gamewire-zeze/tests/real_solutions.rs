//! Loads the real solution files of Zeze's repository (tests/fixtures/zeze/real, see its
//! README) and round-trips a bean of each through the schema codec.

use gamewire_zeze::schema::Schema;
use std::path::{Path, PathBuf};

/// The 15 solution files Zeze's repository holds (imports are followed by the loader).
const SOLUTIONS: [&str; 15] = [
    "ZezeJava/ZezeJava/solution.zeze.xml",
    "ZezeJava/ZezeJavaTest/solution.xml",
    "ZezeJava/ZezexJava/solution.xml",
    "ZezeJava/ZezexJava/solution.client.xml",
    "ZezeJava/ZezexJava/solution.hot.xml",
    "ZezeJava/ZezexJava/solution.linkd.xml",
    "confcs/solution.xml",
    "projects/MetaGame/solution.xml",
    "projects/MetaGame/solution.linkd.xml",
    "projects/MetaGame/solution.server.xml",
    "projects/test_luaclient/solution.xml",
    "projects/zege/Server/solution.xml",
    "projects/zege/Server/solution.linkd.xml",
    "projects/zezeboot/protocol/solution.zeze.xml",
    "python/solution.xml",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/zeze/real")
}

/// Reads a solution file; zege's import of `../../zeze/ZezeJava/ZezeJava/...` (a Zeze
/// checkout beside zege) is served from `ZezeJava/ZezeJava/...` of the same repository.
fn read(p: &Path) -> std::io::Result<String> {
    let s = p.to_string_lossy().replace('\\', "/");
    if let Some(i) = s.find("/projects/zeze/ZezeJava/") {
        let moved = format!("{}{}", &s[..i + 1], &s[i + "/projects/zeze/".len()..]);
        return std::fs::read_to_string(moved);
    }
    std::fs::read_to_string(p)
}

fn load(rel: &str) -> gamewire_core::Result<Schema> {
    Schema::from_file_with(&root().join(rel), &mut read)
}

#[test]
fn every_real_solution_loads() {
    let mut failed = Vec::new();
    for rel in SOLUTIONS {
        match load(rel) {
            Ok(s) => println!("{rel}: {} beans", s.bean_names().len()),
            Err(e) => {
                println!("{rel}: FAILED: {e}");
                failed.push(format!("{rel}: {e}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "solutions that fail to load:\n{}",
        failed.join("\n")
    );
}
