#![no_main]
//! Godot packs and project.binary from arbitrary bytes: never a panic, memory in
//! proportion to the input; every entry a pack lists lies inside the input; a
//! project.binary that decodes encodes, and our own bytes read back to the same bytes
//! (also through JSON).
use gamewire_godot::pck::PackReader;
use gamewire_godot::project_binary;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(pack) = PackReader::parse(data) {
        for e in pack.entries() {
            // `read` gives the stored bytes: for an encrypted entry its stream (MD5,
            // length and IV, 40 bytes, then the plaintext padded to 16).
            let bytes = pack.read(e);
            let stored = if e.encrypted() {
                e.size.div_ceil(16).saturating_mul(16).saturating_add(40)
            } else {
                e.size
            };
            assert!(e.removal() || bytes.len() as u64 == stored);
            let _ = pack.read_checked(e);
        }
    }
    // Through the one archive path every front end lists and reads entries with: an
    // entry that reads gives exactly its listed size.
    if let Some(Ok(a)) = gamewire::open::archive::archive(data) {
        for i in 0..a.len() {
            if let Ok(Some(bytes)) = a.read(i) {
                assert_eq!(bytes.len() as u64, a.size(i), "entry {}", a.name(i));
            }
        }
        let _ = gamewire::open::archive::list(a.as_ref());
    }
    // As a project.binary too (the magic put in front, so the fuzzer reaches the body).
    let mut with_magic = b"ECFG".to_vec();
    with_magic.extend_from_slice(data);
    for input in [data, &with_magic[..]] {
        if let Ok(s) = project_binary::decode(input, None) {
            let bytes = project_binary::encode(&s).expect("decoded settings encode");
            let again = project_binary::decode(&bytes, Some(s.version)).expect("our bytes decode");
            assert_eq!(project_binary::encode(&again).unwrap(), bytes);
            if let Ok(j) = project_binary::to_json(&s) {
                let back = project_binary::from_json(&j, s.version).expect("our JSON reads back");
                assert_eq!(project_binary::encode(&back).unwrap(), bytes);
            }
        }
    }
});
