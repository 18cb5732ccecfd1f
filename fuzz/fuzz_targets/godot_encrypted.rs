#![no_main]
//! Reads arbitrary bytes (behind the `GDEC` magic) as a Godot encrypted file with a fixed
//! key: never a panic; whatever decrypts (its MD5 matching) encrypts back to the same bytes.
use gamewire_godot::container::encrypted::{decrypt, encrypt, probe_layout, Key};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut file = b"GDEC".to_vec();
    file.extend_from_slice(data);
    let key = Key::from_password("fuzz");
    let _ = probe_layout(&file);
    if let Ok(d) = decrypt(&file, &key) {
        assert_eq!(encrypt(&d.plaintext, &key, &d.layout), file);
    }
    // And any plaintext survives both layouts.
    for layout in [
        gamewire_godot::container::encrypted::Layout::V3,
        gamewire_godot::container::encrypted::Layout::V4 { iv: [9; 16] },
    ] {
        let f = encrypt(data, &key, &layout);
        let d = decrypt(&f, &key).expect("our own file decrypts");
        assert_eq!(d.plaintext, data);
    }
});
