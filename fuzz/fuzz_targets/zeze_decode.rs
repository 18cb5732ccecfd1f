#![no_main]
use gamewire_zeze::frame::{decode_frames, encode_frames, FrameOptions};
use gamewire_zeze::json::{bean_from_json, bean_to_json};
use gamewire_zeze::schema::Schema;
use gamewire_zeze::{decode, encode, Options};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static SCHEMA: OnceLock<Schema> = OnceLock::new();

// Arbitrary bytes as a bean, as a frame stream and as each bean of the samples' solution:
// never a panic; whatever decodes re-encodes to bytes that decode to the same canonical
// bytes (also through JSON), and typed JSON encodes back to bytes that decode the same.
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
    let schema = SCHEMA.get_or_init(|| {
        Schema::from_xml(include_str!("../../samples/zeze/zeze-solution.xml"))
            .expect("sample solution")
    });
    for name in schema.bean_names() {
        if let Ok(j) = schema.decode(name, data, &opts) {
            let bytes = schema.encode(name, &j).expect("typed JSON encodes");
            let back = schema
                .decode(name, &bytes, &opts)
                .expect("typed bytes decode");
            assert_eq!(schema.encode(name, &back).unwrap(), bytes);
        }
    }
});
