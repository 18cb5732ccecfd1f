//! Repeated short strings (Dictionary keys, tags) are decoded through a small cache of
//! recent wire forms: these check that the cache never changes what is decoded.

use gamewire_core::ErrorKind;
use gamewire_godot::*;

/// Appends a String value: header, length, bytes, then `pad` as padding.
fn string(out: &mut Vec<u8>, text: &[u8], pad: u8) {
    out.extend_from_slice(&[4, 0, 0, 0]);
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text);
    for _ in 0..(4 - text.len() % 4) % 4 {
        out.push(pad);
    }
}

fn array(items: &[(&[u8], u8)]) -> Vec<u8> {
    let mut out = vec![0x1c, 0, 0, 0];
    out.extend_from_slice(&(items.len() as u32).to_le_bytes());
    for (text, pad) in items {
        string(&mut out, text, *pad);
    }
    out
}

#[test]
fn many_repeated_short_strings_decode_to_their_own_text() {
    // Every length from 0 to 14 (past the cached 12), several of each, interleaved so
    // that slots collide and entries move, each repeated with the same and with
    // different padding bytes.
    let texts: Vec<Vec<u8>> = (0..200u32)
        .map(|i| {
            let len = (i % 15) as usize;
            (0..len)
                .map(|j| b'a' + ((i / 15 + j as u32) % 26) as u8)
                .collect()
        })
        .collect();
    let mut items: Vec<(&[u8], u8)> = Vec::new();
    for round in 0..3u8 {
        for (i, t) in texts.iter().enumerate() {
            items.push((t, if i % 7 == 0 { round } else { 0 }));
            items.push((&texts[(i * 31) % texts.len()], 0));
        }
    }
    let bytes = array(&items);
    let Value::Array(a) = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap() else {
        panic!("not an array")
    };
    assert_eq!(a.items.len(), items.len());
    for (v, (t, _)) in a.items.iter().zip(&items) {
        assert_eq!(v.as_str().unwrap().as_bytes(), *t);
    }
}

/// Enough distinct strings ("f0" to "f199", 12 bytes each on the wire) that the input
/// is large enough for the cache.
fn filler() -> Vec<Vec<u8>> {
    (0..200).map(|i| format!("f{i}").into_bytes()).collect()
}

#[test]
fn a_cached_string_then_invalid_utf8_of_the_same_length_is_an_error() {
    let filler = filler();
    let mut items: Vec<(&[u8], u8)> = filler.iter().map(|f| (&f[..], 0)).collect();
    items.extend([(&b"ab"[..], 0), (b"ab", 0), (b"a\xff", 0)]);
    let bytes = array(&items);
    let e = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidText { .. }));
    assert_eq!(e.offset(), Some(8 + 200 * 12 + 12 + 12 + 8 + 1));
    assert_eq!(e.path_string(), "$[202]");
}

#[test]
fn a_cached_string_cut_short_at_the_end_is_an_error() {
    let filler = filler();
    let mut items: Vec<(&[u8], u8)> = filler.iter().map(|f| (&f[..], 0)).collect();
    items.extend([(&b"abcdefgh"[..], 0), (b"abcdefgh", 0)]);
    let mut bytes = array(&items);
    bytes.truncate(bytes.len() - 1);
    let e = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap_err();
    assert_eq!(e.path_string(), "$[201]");
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }));
}

#[test]
fn a_small_variant_decodes_the_same_without_the_cache() {
    // An input too small for the cache, with a repeated string.
    let bytes = array(&[(b"ok", 0), (b"ok", 0), (b"ok", 7)]);
    let Value::Array(a) = decode(&bytes, &DecodeOptions::new(Version::V4)).unwrap() else {
        panic!("not an array")
    };
    assert!(a.items.iter().all(|v| v.as_str() == Some("ok")));
}

#[test]
fn strings_of_every_length_encode_exactly_and_never_grow_an_exact_output() {
    for len in 0..40usize {
        let text: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
        // The string last, so its block would run past an exactly sized output.
        let v = Value::from(vec![Value::Int(1), Value::from(text.as_str())]);
        let mut expected = vec![0x1c, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
        string(&mut expected, text.as_bytes(), 0);
        for version in [Version::V3, Version::V4] {
            let mut expected = expected.clone();
            if version == Version::V3 {
                expected[0] = 19;
            }
            let mut out = Vec::with_capacity(expected.len());
            let cap = out.capacity();
            encode_into(&v, &EncodeOptions::new(version), &mut out).unwrap();
            assert_eq!(out, expected, "length {len}");
            assert_eq!(out.capacity(), cap, "length {len}: the output grew");
            assert_eq!(encode(&v, &EncodeOptions::new(version)).unwrap(), expected);
        }
    }
}
