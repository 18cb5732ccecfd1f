#![no_main]
//! The library's one way of opening files, on arbitrary bytes: detection, settings, the
//! JSON document and the inspect tree never panic; a file that opens and writes its
//! document encodes back from it; and any bytes read as a `$gamewire` document (header,
//! data, `$floats` record) are refused or encoded without a panic.
use gamewire::open::{encode_document, read_document, EncodeOptions, OpenOptions, SideFiles};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let side = SideFiles::none();
    // Named and unnamed: names choose formats (`.zeze`, `.7zbson`, `.prefab`).
    for name in [None, Some("x.zeze"), Some("x.7zbson"), Some("x.prefab")] {
        let path = name.map(std::path::Path::new);
        if let Ok(opened) = gamewire::open(data.to_vec(), path, &side, &OpenOptions::default()) {
            let _ = opened.inspect(8);
            let mut doc = Vec::new();
            if opened.write_document(&mut doc, false, None).is_ok() {
                let d = read_document(&doc).expect("our own document reads back");
                let _ = encode_document(&d, None, None, &side, &EncodeOptions::default());
            }
        }
    }
    if let Ok(d) = read_document(data) {
        let _ = encode_document(&d, None, None, &side, &EncodeOptions::default());
        let _ = gamewire::open::numbers::restore(&d.data, &d.floats);
    }
});
