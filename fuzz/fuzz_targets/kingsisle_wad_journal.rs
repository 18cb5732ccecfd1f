#![no_main]
//! Reads arbitrary bytes as a KIWAD archive: the journal is checked or refused, never a
//! panic; every entry of an archive that opens is read (CRC, inflate) without panicking;
//! and an archive that can be written back is written back to the same bytes.
use gamewire_kingsisle::wad::{Archive, Builder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"KIWAD".to_vec();
    bytes.extend_from_slice(data);
    let Ok(a) = Archive::new(bytes.as_slice()) else {
        return;
    };
    for e in a.entries() {
        let _ = a.read(&e);
    }
    if let Ok(b) = Builder::from_archive(&a) {
        assert_eq!(b.to_bytes().unwrap(), bytes);
    }
});
