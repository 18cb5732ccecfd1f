//! The live engine's FastLZ against ours: godot3-server (Godot 3.2.3) compresses inputs
//! of many sizes with `PoolByteArray.compress(File.COMPRESSION_FASTLZ)` (one
//! `Compression::compress` call, so `fastlz_compress` picks level 1 under 64 KiB and
//! level 2 from there, far matches included), and gamewire's FastLZ must write the same
//! bytes. A fresh seed each run (printed; GAMEWIRE_SEED replays it).

mod common;
use common::{seed, Rng};
use gamewire_core::peers;
use gamewire_godot::container::fastlz;
use std::time::Duration;

const ENGINE_TIMEOUT: Duration = Duration::from_secs(60);

/// The engine: compresses each `in_N.bin` named on the command line into `out_N.bin`.
const SCRIPT: &str = r#"extends SceneTree
func _init():
    var n = int(OS.get_cmdline_args()[OS.get_cmdline_args().size() - 1])
    for i in range(n):
        var f = File.new()
        f.open("in_%d.bin" % i, File.READ)
        var data = f.get_buffer(f.get_len())
        f.close()
        var packed = data.compress(File.COMPRESSION_FASTLZ)
        var o = File.new()
        o.open("out_%d.bin" % i, File.WRITE)
        o.store_buffer(packed)
        o.close()
    print("DONE")
    quit()
"#;

/// Save-like bytes: runs, near and far repeats of earlier stretches, and noise from
/// alphabets of several sizes.
fn input(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        let piece = 1 + rng.below(300) as usize;
        match rng.below(4) {
            0 => {
                let b = rng.below(256) as u8;
                v.resize(v.len() + piece, b);
            }
            1 if !v.is_empty() => {
                let from = rng.below(v.len() as u64) as usize;
                for k in 0..piece {
                    v.push(v[from + k % (v.len() - from)]);
                }
            }
            _ => {
                let alphabet = [2u64, 16, 256][rng.below(3) as usize];
                v.extend((0..piece).map(|_| rng.below(alphabet) as u8));
            }
        }
    }
    v.truncate(len);
    v
}

#[test]
fn godot3_fastlz_and_ours_write_the_same_bytes() {
    if !peers::godot3_available() {
        return;
    }
    let seed = seed("live Godot 3 FastLZ test");
    let mut rng = Rng::new(seed);
    let sizes = [
        1usize, 15, 16, 17, 100, 4096, 20_000, 65_535, 65_536, 90_000, 200_000,
    ];
    let dir = tempfile::tempdir().unwrap();
    let inputs: Vec<Vec<u8>> = sizes.iter().map(|&n| input(&mut rng, n)).collect();
    for (i, data) in inputs.iter().enumerate() {
        std::fs::write(dir.path().join(format!("in_{i}.bin")), data).unwrap();
    }
    let count = inputs.len().to_string();
    let out = peers::run_godot3(dir.path(), "fastlz.gd", SCRIPT, &[&count], ENGINE_TIMEOUT)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("DONE"), "seed {seed}: {stdout}");
    for (i, data) in inputs.iter().enumerate() {
        let theirs = std::fs::read(dir.path().join(format!("out_{i}.bin"))).unwrap();
        // The engine pads inputs under 16 bytes to 16 zeros, as the container does.
        let mut padded = data.clone();
        if padded.len() < 16 {
            padded.resize(16, 0);
        }
        let ours = fastlz::compress(&padded);
        assert_eq!(
            ours.len(),
            theirs.len(),
            "seed {seed}: {} bytes: length",
            data.len()
        );
        assert!(ours == theirs, "seed {seed}: {} bytes differ", data.len());
        // Level 2 from 64 KiB, marked in the first byte.
        assert_eq!(theirs[0] >> 5, u8::from(padded.len() >= 65_536));
    }
}
