#![no_main]
use gamewire_zeze::frame::{decode_frames, encode_frames, FrameOptions};
use gamewire_zeze::json::{bean_from_json, bean_to_json};
use gamewire_zeze::{decode, encode, Options};
use libfuzzer_sys::fuzz_target;

// Arbitrary bytes as a bean and as a frame stream: never a panic; whatever decodes
// re-encodes to bytes that decode to the same canonical bytes, also through JSON.
fuzz_target!(|data: &[u8]| {
    let opts = Options::default();
    if let Ok(bean) = decode(data, &opts) {
        let bytes = encode(&bean).expect("a decoded bean encodes");
        let again = decode(&bytes, &opts).expect("canonical bytes decode");
        assert_eq!(encode(&again).unwrap(), bytes);
        let j = bean_to_json(&again);
        let from_json = bean_from_json(&j).expect("our JSON reads back");
        assert_eq!(encode(&from_json).unwrap(), bytes);
    }
    if let Ok(frames) = decode_frames(data, &FrameOptions::default()) {
        let bytes = encode_frames(&frames).expect("decoded frames encode");
        assert!(decode_frames(&bytes, &FrameOptions::default()).is_ok());
    }
});
