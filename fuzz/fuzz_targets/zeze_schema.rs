#![no_main]
//! Arbitrary text as a Zeze solution XML: loading never panics nor overflows (beans
//! holding themselves, deep types, huge defaults are errors), and every bean of a
//! solution that loads decodes a few bytes and its own default without a panic.
use gamewire_zeze::schema::Schema;
use gamewire_zeze::Options;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(schema) = Schema::from_xml(text) else {
        return;
    };
    let opts = Options { max_depth: 64 };
    for name in schema.bean_names().into_iter().take(16) {
        let _ = schema.decode(name, &[0], &opts);
        let _ = schema.decode(name, &[0x14, 0x06, 0x00, 0x00], &opts);
        if let Ok(j) = schema.decode(name, &[0], &opts) {
            let bytes = schema.encode(name, &j).expect("a default encodes");
            assert!(schema.decode(name, &bytes, &opts).is_ok());
        }
    }
});
