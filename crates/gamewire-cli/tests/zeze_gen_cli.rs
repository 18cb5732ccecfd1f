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

#[test]
fn gen_creates_the_folder_and_refuses_clashing_names_with_exit_1() {
    let dir = std::env::temp_dir().join(format!("gamewire-zeze-gen-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out_dir = format!("{}/", dir.join("newdir").display());
    let ok = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["zeze", "gen", "--schema"])
        .arg(format!("{ROOT}/samples/zeze/zeze-solution.xml"))
        .args(["--out", &out_dir])
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(dir.join("newdir/zeze_gen.rs").is_file());

    let schema = dir.join("clash.xml");
    std::fs::write(
        &schema,
        "<solution name=\"s\"><bean name=\"type\"/><bean name=\"Type\"/></solution>",
    )
    .unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_gamewire"))
        .args(["zeze", "gen", "--schema"])
        .arg(&schema)
        .arg("--out")
        .arg(dir.join("clash"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("`s.type`") && err.contains("`s.Type`") && err.contains("`Type`"),
        "{err}"
    );
    assert!(!dir.join("clash").exists(), "nothing written");
    std::fs::remove_dir_all(&dir).unwrap();
}
