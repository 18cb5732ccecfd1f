#![no_main]
//! Reads arbitrary bytes (behind the `GCPF` magic) as a Godot compressed file: never a
//! panic, memory within the decompression cap; whatever reads writes back to the same bytes
//! from its blocks, and recompressed reads back as the same plaintext. Arbitrary bytes
//! also go through each codec's block decoder (FastLZ above all: our own dependency's),
//! and through our FastLZ compressor at both levels: what it writes decompresses to them.
use gamewire_core::Limits;
use gamewire_godot::container::compressed::{read, write, Mode};
use gamewire_godot::container::fastlz;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut limits = Limits::DEFAULT;
    limits.max_decompressed = 8 << 20;
    limits.decompress_allowance = 1 << 20;
    let mut file = b"GCPF".to_vec();
    file.extend_from_slice(data);
    if let Ok(c) = read(&file, &limits) {
        let back = write(&c.plaintext, c.mode, c.block_size, &|i, _| {
            Some(file[c.blocks[i].clone()].to_vec())
        })
        .expect("a file read writes back");
        assert_eq!(back, file);
        if c.block_size <= 1 << 16 {
            let again = write(&c.plaintext, c.mode, c.block_size, &|_, _| None).unwrap();
            assert_eq!(
                read(&again, &Limits::DEFAULT).unwrap().plaintext,
                c.plaintext
            );
        }
    }
    // The bytes as one block of each mode: a small header in front of them.
    if let Some((&sel, body)) = data.split_first() {
        let mode = Mode::from_number(u32::from(sel % 4)).unwrap();
        let want = u32::from(sel) * 64;
        let mut f = b"GCPF".to_vec();
        for x in [mode.number(), 1 << 16, want, body.len() as u32] {
            f.extend_from_slice(&x.to_le_bytes());
        }
        f.extend_from_slice(body);
        f.extend_from_slice(b"GCPF");
        let _ = read(&f, &limits);
    }
    // Our FastLZ compressor: both levels round trip through the decompressor.
    for level in [fastlz::Level::One, fastlz::Level::Two] {
        let packed = fastlz::compress_level(data, level);
        let mut back = vec![0u8; data.len()];
        let n = fastlz::decompress(&packed, &mut back).unwrap_or_else(|e| {
            panic!(
                "{level:?}: {} bytes compressed do not decompress: {e}",
                data.len()
            )
        });
        assert_eq!(n, data.len(), "{level:?}");
        assert_eq!(back, data, "{level:?}");
    }
});
