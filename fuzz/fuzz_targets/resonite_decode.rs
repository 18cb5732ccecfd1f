#![no_main]
use libfuzzer_sys::fuzz_target;

// Placeholder until the format's decoder lands: the format's owner replaces this body.
fuzz_target!(|data: &[u8]| {
    let _ = data;
});
