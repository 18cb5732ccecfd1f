#![no_main]
//! Decodes arbitrary bytes as KingsIsle ObjectProperty blobs (every option combination
//! picked by the first byte) over a type list holding every property kind; whatever
//! decodes must re-encode, and that must decode and re-encode to the same bytes; the
//! validating walk accepts exactly what decodes.
use gamewire_kingsisle::types::{flags, ClassDef, PropertyDef};
use gamewire_kingsisle::{bind, decode, encode, Options, TypeList};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const TYPES: &[&str] = &[
    "bool",
    "char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "float",
    "double",
    "unsigned __int64",
    "bi3",
    "bui5",
    "s24",
    "u24",
    "std::string",
    "std::wstring",
    "class Color",
    "class Vector3D",
    "class Euler",
    "class Quaternion",
    "class Matrix3x3",
    "class Point<int>",
    "class Point<unsigned char>",
    "class Point<unsigned int>",
    "class Point<float>",
    "class Size<int>",
    "class Rect<int>",
    "class Rect<float>",
    "class Node",
];

fn types() -> &'static TypeList {
    static T: OnceLock<TypeList> = OnceLock::new();
    T.get_or_init(|| {
        let mut list = TypeList::new();
        let mut node = ClassDef::new("class Node");
        for (i, t) in TYPES.iter().enumerate() {
            let f = if i % 5 == 1 {
                7 | flags::DELTA_ENCODE
            } else {
                7
            };
            node.properties.push(PropertyDef::new(
                &format!("m_{i}"),
                t,
                i as u32,
                f,
                i % 3 == 0,
            ));
        }
        let mut e = PropertyDef::new("m_enum", "enum E", 100, 7 | flags::ENUM, false);
        e.enum_options = vec![("A".into(), 0), ("B".into(), 1)];
        node.properties.push(e);
        let mut b = PropertyDef::new("m_bits", "Bits", 101, 7 | flags::BITS, true);
        b.enum_options = vec![("X".into(), 1), ("Y".into(), 2)];
        node.properties.push(b);
        list.insert(node);
        let mut small = ClassDef::new("class Small");
        small
            .properties
            .push(PropertyDef::new("m_v", "unsigned int", 0, 7, false));
        small
            .properties
            .push(PropertyDef::new("m_next", "class Small", 1, 7, false));
        list.insert(small);
        list
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let types = types();
    let mut opts = Options {
        flags: u32::from(sel & 0x1f),
        property_mask: 7,
        shallow: sel & 0x20 != 0,
        manual_zlib: sel & 0x40 != 0,
        skip_unknown: sel & 0x80 != 0,
        ..Options::default()
    };
    opts.limits.max_depth = 64;
    opts.limits.max_decompressed = 1 << 20;
    let doc = if rest.starts_with(bind::MAGIC) {
        bind::decode(rest, types, &opts)
    } else {
        decode(rest, types, &opts)
    };
    // The validating walk (the sink that keeps nothing) accepts exactly what decodes.
    assert_eq!(
        gamewire_kingsisle::validate(rest, types, &opts).is_ok(),
        doc.is_ok()
    );
    if let Ok(doc) = doc {
        let o = if doc.bind { bind::options(&opts) } else { opts };
        if let Ok(bytes) = encode(&doc, types, &o) {
            // What we write decodes, and re-encodes to the same bytes (a fixed point;
            // values are not compared directly because NaN != NaN).
            let again = decode(&bytes, types, &o).expect("what we encode decodes");
            assert_eq!(encode(&again, types, &o).expect("re-encode"), bytes);
        }
    }
});
