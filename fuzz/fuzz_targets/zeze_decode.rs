#![no_main]
use gamewire_zeze::frame::{decode_frames, encode_frames, FrameOptions};
use gamewire_zeze::json::{bean_from_json, bean_to_json};
use gamewire_zeze::schema::Schema;
use gamewire_zeze::{decode, encode, Options};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

static SCHEMA: OnceLock<Schema> = OnceLock::new();

/// A record for the serde decoder: strings owned and nested, integers, a map.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Rec {
    id: i64,
    name: String,
    tags: Vec<String>,
    inner: Option<Inner>,
    items: Vec<i32>,
    names: BTreeMap<i32, String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Inner {
    a: String,
    b: i32,
}

/// [`Rec`] with its strings borrowed from the input.
#[derive(Deserialize, Debug)]
struct RecRef<'a> {
    id: i64,
    #[serde(borrow)]
    name: &'a str,
    #[serde(borrow)]
    tags: Vec<&'a str>,
}

/// Every string of `r` is valid UTF-8 by std's own check (the serde decoder makes short
/// ASCII strings without it).
fn check_text(r: &Rec) {
    let inner = r.inner.iter().map(|i| i.a.as_str());
    for s in [r.name.as_str()]
        .into_iter()
        .chain(r.tags.iter().map(String::as_str))
        .chain(inner)
        .chain(r.names.values().map(String::as_str))
    {
        assert!(std::str::from_utf8(s.as_bytes()).is_ok(), "{s:?}");
    }
}

// Arbitrary bytes as a bean, as a frame stream and as each bean of the samples' solution:
// never a panic; whatever decodes re-encodes to bytes that decode to the same canonical
// bytes (also through JSON), and typed JSON encodes back to bytes that decode the same.
// Through serde: decoded text is valid UTF-8, owned and borrowed strings agree, and a
// decoded record encodes to bytes that decode and encode to the same bytes.
fuzz_target!(|data: &[u8]| {
    if let Ok(r) = gamewire_zeze::from_bytes::<Rec>(data) {
        check_text(&r);
        // Zeze leaves defaults out (`Some` of an all-default bean reads back as `None`),
        // so the encoded bytes, not the record, are the fixed point.
        let bytes = gamewire_zeze::to_bytes(&r).expect("a decoded record encodes");
        let again: Rec = gamewire_zeze::from_bytes(&bytes).expect("its bytes decode");
        check_text(&again);
        assert_eq!(gamewire_zeze::to_bytes(&again).unwrap(), bytes);
    }
    if let Ok(b) = gamewire_zeze::from_bytes::<RecRef>(data) {
        for s in std::iter::once(b.name).chain(b.tags.iter().copied()) {
            assert!(std::str::from_utf8(s.as_bytes()).is_ok(), "{s:?}");
        }
        if let Ok(r) = gamewire_zeze::from_bytes::<Rec>(data) {
            assert_eq!((b.id, b.name), (r.id, r.name.as_str()));
            assert!(b.tags.iter().eq(r.tags.iter()));
        }
    }
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
