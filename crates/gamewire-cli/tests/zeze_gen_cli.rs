//! `gamewire zeze gen`: writes the same Rust as the library call, errors name the file.

use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[test]
fn gen_writes_the_committed_fixture_output() {
    let dir = std::env::temp_dir().join(format!("gamewire-zeze-gen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["zeze", "gen", "--schema"])
        .arg(format!("{ROOT}/samples/zeze/zeze-solution.xml"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = std::fs::read_to_string(dir.join("zeze_gen.rs")).unwrap();
    let want = std::fs::read_to_string(format!(
        "{ROOT}/crates/gamewire-zeze/tests/generated/fixtures.rs"
    ))
    .unwrap();
    assert_eq!(got, want);

    let out = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["zeze", "gen", "--schema", "/no/such/solution.xml", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/solution.xml"));
    std::fs::remove_dir_all(&dir).unwrap();
}
