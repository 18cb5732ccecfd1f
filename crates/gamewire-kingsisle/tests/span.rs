//! The bits of values at JSON Pointers (`gamewire_kingsisle::span`), against positions
//! read by hand in katsuba's fixture blobs (tests/fixtures/kingsisle/katsuba), and every
//! pointer of every fixture's JSON has bits inside its data.

mod common;
use common::{random_lists, random_object, Rng};
use gamewire_kingsisle::json::DocumentJson;
use gamewire_kingsisle::span::{span, BitSpan};
use gamewire_kingsisle::{encode, inspect, serializer_flags as sf, Document, Options, TypeList};
use serde_json::Value as J;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/katsuba"
    ))
}

fn types() -> TypeList {
    TypeList::from_files(&[dir().join("types.json")]).unwrap()
}

fn fixture(stem: &str) -> (Vec<u8>, Options) {
    let c: J =
        serde_json::from_slice(&std::fs::read(dir().join(format!("{stem}.config.json"))).unwrap())
            .unwrap();
    let opts = Options {
        flags: c["flags"].as_u64().unwrap() as u32,
        property_mask: c["property_mask"].as_u64().unwrap() as u32,
        shallow: c["shallow"].as_bool().unwrap(),
        manual_zlib: c["compress"].as_bool().unwrap(),
        ..Options::default()
    };
    (
        std::fs::read(dir().join(format!("{stem}.bin"))).unwrap(),
        opts,
    )
}

fn toks(p: &str) -> Vec<String> {
    p.split('/').skip(1).map(str::to_owned).collect()
}

/// (offset, length, bit, bits) of the value at `p` in fixture `stem`.
fn at(stem: &str, p: &str) -> (usize, usize, u8, u64) {
    let (data, opts) = fixture(stem);
    let s = span(&data, &types(), &opts, &toks(p)).unwrap();
    assert!(s.own, "{stem} {p}");
    if !s.inflated {
        assert_eq!(s.bytes, data[s.offset..s.offset + s.length], "{stem} {p}");
    }
    (s.offset, s.length, s.bit, s.bits)
}

#[test]
fn strings_are_their_length_prefix_and_text() {
    // Flags word 01000000, class hash 223e0758, then m_string: length 000d and
    // "Hello, World!" (8..23), m_wstring: length 0010 and 16 UTF-16 units (23..57).
    assert_eq!(at("strings-shallow", "/m_string"), (8, 15, 0, 120));
    assert_eq!(at("strings-shallow", "/m_wstring"), (23, 34, 0, 34 * 8));
    assert_eq!(at("strings-shallow", ""), (4, 53, 0, 53 * 8));
    assert_eq!(at("strings-shallow", "/$hash"), (4, 4, 0, 32));
    // Compact lengths: 0a is a clear bit then 7 bits of 5, then "Short" (8..14); the
    // wide string's 91 01 00 00 is a set bit then 31 bits of 200.
    assert_eq!(at("strings-compact", "/m_string"), (8, 6, 0, 48));
    assert_eq!(&fixture("strings-compact").0[9..14], b"Short");
    assert_eq!(at("strings-compact", "/m_wstring").0, 14);
    // Deep mode: object size c0000000 at 8, then each property's size and tag before
    // its value: m_string's empty 0000 at 20, m_wstring's at 30.
    assert_eq!(at("strings-deep", "/m_string"), (20, 2, 0, 16));
    assert_eq!(at("strings-deep", "/m_wstring"), (30, 2, 0, 16));
}

#[test]
fn bit_integers_give_their_bit_in_the_first_byte() {
    // From byte 8 (ce = 1100_1110), least significant bit first: m_bi2 bits 0..2,
    // m_bui2 bits 2..4, m_bi3 bits 4..7, m_bui3 from bit 7 into byte 9.
    assert_eq!(at("bit-integers-shallow", "/m_bi2"), (8, 1, 0, 2));
    assert_eq!(at("bit-integers-shallow", "/m_bui2"), (8, 1, 2, 2));
    assert_eq!(at("bit-integers-shallow", "/m_bi3"), (8, 1, 4, 3));
    assert_eq!(at("bit-integers-shallow", "/m_bui3"), (8, 2, 7, 3));
}

#[test]
fn compressed_data_counts_in_the_inflated_bytes() {
    // Manual zlib framing: 44 inflated bytes, 09000000 (flags word), 00 (zlib marker:
    // stored raw), then the object: class hash 53d06f5b at 5, its properties.
    let (data, opts) = fixture("with-compression");
    let s: BitSpan = span(&data, &types(), &opts, &toks("/$hash")).unwrap();
    assert!(s.inflated);
    assert_eq!((s.offset, s.length, s.bit), (5, 4, 0));
    assert_eq!(s.bytes, [0x53, 0xd0, 0x6f, 0x5b]);
    let s = span(&data, &types(), &opts, &toks("")).unwrap();
    assert_eq!((s.offset, s.inflated), (5, true));
    assert!(s.offset + s.length <= 44);
}

/// Every fixture: every pointer of its JSON (but the root's `$` keys that are not
/// values: flags, padding, kept zlib streams) has bits inside its data.
#[test]
fn every_value_of_every_fixture_has_its_bits() {
    let t = types();
    let mut n = 0;
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("bin") {
            continue;
        }
        let stem = p.file_stem().unwrap().to_str().unwrap().to_owned();
        let (data, opts) = fixture(&stem);
        let doc = inspect::decode_any(&data, &t, &opts).unwrap();
        let j = serde_json::to_value(DocumentJson {
            doc: &doc,
            types: &t,
            enum_numbers: false,
        })
        .unwrap();
        let mut stack = vec![(String::new(), &j)];
        while let Some((ptr, v)) = stack.pop() {
            let s =
                span(&data, &t, &opts, &toks(&ptr)).unwrap_or_else(|e| panic!("{stem} {ptr}: {e}"));
            assert!(
                s.bits > 0 || ptr.is_empty() || s.length == 0,
                "{stem} {ptr}"
            );
            assert_eq!(s.bytes.len(), s.length, "{stem} {ptr}");
            n += 1;
            match v {
                J::Object(m) => stack.extend(
                    m.iter()
                        .filter(|(k, _)| {
                            !ptr.is_empty()
                                || !k.starts_with('$')
                                || *k == "$class"
                                || *k == "$hash"
                        })
                        .map(|(k, c)| (format!("{ptr}/{k}"), c)),
                ),
                J::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{ptr}/{i}"), c)))
                }
                _ => {}
            }
        }
        let e = span(&data, &t, &opts, &toks("/m_no_such_property")).unwrap_err();
        assert!(e.starts_with("no value at \"/m_no_such_property\""), "{e}");
    }
    assert!(n > 200, "{n} values");
}

/// Random documents over random type lists (every kind of value, every option): every
/// pointer of the JSON has bits inside the data, or inside the inflated data; a part of
/// a value read whole is marked not its own, and a key that is not there is an error.
#[test]
fn every_value_of_random_documents_has_its_bits() {
    let mut rng = Rng(0x5ba7_5ba7);
    let (_, lists, merged) = random_lists(&mut rng, 4);
    let mut parts = 0;
    let mut numbers = 0;
    for i in 0..120 {
        let types = &lists[i % lists.len()];
        let root = types.classes()[rng.below(types.len() as u64) as usize].hash;
        let flags = (rng.next() as u32) & 0x1f & !sf::FORBID_DELTA_ENCODE;
        let shallow = rng.chance(50);
        let opts = Options {
            flags,
            property_mask: 7,
            shallow,
            manual_zlib: rng.chance(15),
            ..Options::default()
        };
        let doc = Document {
            root: random_object(
                &mut rng,
                root,
                types,
                flags & sf::HUMAN_READABLE_ENUMS != 0,
                shallow,
            ),
            ..Document::default()
        };
        let bytes = encode(&doc, &merged, &opts).unwrap();
        let doc = inspect::decode_any(&bytes, &merged, &opts).unwrap();
        let j = serde_json::to_value(DocumentJson {
            doc: &doc,
            types: &merged,
            enum_numbers: false,
        })
        .unwrap();
        let mut stack = vec![(String::new(), &j)];
        while let Some((ptr, v)) = stack.pop() {
            let s = span(&bytes, &merged, &opts, &toks(&ptr))
                .unwrap_or_else(|e| panic!("case {i} {ptr}: {e}"));
            assert_eq!(s.bytes.len(), s.length, "case {i} {ptr}");
            assert!(
                u64::from(s.bit) + s.bits <= 8 * s.length as u64,
                "case {i} {ptr}"
            );
            if !s.own {
                parts += 1;
            }
            // A number of 8 or 32 bits of its own (a scalar, or a component of a fixed
            // struct: its own bits) reads back from them.
            if let (Some(n), true, 8 | 32) = (v.as_f64(), s.own, s.bits) {
                let mut word = 0u64;
                for (k, b) in s.bytes.iter().enumerate() {
                    word |= u64::from(*b) << (8 * k);
                }
                let x = (word >> s.bit) & ((1u64 << s.bits) - 1);
                let reads = if s.bits == 8 {
                    [x as u8 as f64, x as u8 as i8 as f64, x as f64]
                } else {
                    [
                        x as u32 as f64,
                        x as u32 as i32 as f64,
                        f64::from(f32::from_bits(x as u32)),
                    ]
                };
                assert!(reads.contains(&n), "case {i} {ptr}: {n} not in {reads:?}");
                numbers += 1;
            }
            match v {
                J::Object(m) => {
                    for (k, c) in m {
                        if ptr.is_empty() && k.starts_with('$') && k != "$class" && k != "$hash" {
                            continue;
                        }
                        stack.push((
                            format!("{ptr}/{}", k.replace('~', "~0").replace('/', "~1")),
                            c,
                        ));
                    }
                    if !m.is_empty() {
                        let bad = format!("{ptr}/no such key");
                        assert!(
                            span(&bytes, &merged, &opts, &toks(&bad)).is_err(),
                            "case {i} {bad}"
                        );
                    }
                }
                J::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(k, c)| (format!("{ptr}/{k}"), c)))
                }
                _ => {}
            }
        }
    }
    assert!(parts > 0, "some parts of values read whole");
    assert!(numbers > 100, "{numbers} numbers read back");
}
