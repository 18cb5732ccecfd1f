#![no_main]
//! Arbitrary bytes as a KingsIsle type list (wiztype JSON or the XML dump): loading
//! never panics, and every class of a list that loads decodes a few small blobs
//! without a panic.
use gamewire_kingsisle::{decode, Options, TypeList};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(types) = TypeList::from_bytes(data) else {
        return;
    };
    let mut opts = Options::default();
    opts.limits.max_depth = 64;
    for class in types.classes().iter().take(16) {
        let mut blob = class.hash.to_le_bytes().to_vec();
        blob.extend_from_slice(&[0xff; 16]);
        let _ = decode(&blob, &types, &opts);
        blob.truncate(4);
        blob.extend_from_slice(&[0; 16]);
        let _ = decode(&blob, &types, &opts);
    }
});
