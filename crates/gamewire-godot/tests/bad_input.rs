//! Bad input: each a clear error with the byte offset, no panic, memory bounded.

use gamewire_core::ErrorKind;
use gamewire_godot::*;

fn d4(bytes: &[u8]) -> gamewire_core::Error {
    decode(bytes, &DecodeOptions::new(Version::V4)).unwrap_err()
}

#[test]
fn truncated_values_name_the_offset() {
    let e = d4(&[2, 0, 0, 0, 1, 0]);
    assert_eq!(e.offset(), Some(4));
    assert!(matches!(
        e.kind(),
        ErrorKind::UnexpectedEof {
            needed: 2,
            remaining: 2
        }
    ));
    let e = d4(&[]);
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn counts_of_2_pow_31_and_lengths_past_the_end_are_refused_before_allocating() {
    // Array count 0x7fffffff with no elements behind it.
    let e = d4(&[0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f]);
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LengthPastEnd {
                declared: 0x7fff_ffff,
                ..
            }
        ),
        "{e}"
    );
    // PackedInt32Array count 2^31: negative as the engine's int32_t.
    let e = d4(&[0x1e, 0, 0, 0, 0, 0, 0, 0x80]);
    assert_eq!(e.offset(), Some(4));
    assert!(e.to_string().contains("2^31"), "{e}");
    // String length past the end.
    let e = d4(&[4, 0, 0, 0, 9, 0, 0, 0, b'a', b'b', 0, 0]);
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LengthPastEnd {
                what: "string length",
                declared: 9,
                ..
            }
        ),
        "{e}"
    );
    // Dictionary count huge.
    let e = d4(&[0x1b, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
    // PackedVector3Array of 2^28 elements (overflowing i32 * 12).
    let e = d4(&[0x24, 0, 0, 0, 0, 0, 0, 0x10]);
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
}

#[test]
fn nesting_100000_deep_stops_at_the_depth_limit() {
    let mut bytes = Vec::new();
    for _ in 0..100_000 {
        bytes.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let e = d4(&bytes);
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimit { limit: 1024 }),
        "{e}"
    );
    assert_eq!(e.offset(), Some(1025 * 8));
    assert_eq!(e.path().count(), 1025);
    // The limit is an option.
    let e = decode(&bytes, &DecodeOptions::new(Version::V4).max_depth(10)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 10 }));
    // Exactly at the limit decodes.
    let mut ok = Vec::new();
    for _ in 0..1024 {
        ok.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    ok.extend_from_slice(&[0, 0, 0, 0]);
    assert!(decode(&ok, &DecodeOptions::new(Version::V4)).is_ok());
}

#[test]
fn unknown_type_ids_are_named() {
    let e = d4(&[39, 0, 0, 0]);
    assert_eq!(e.offset(), Some(0));
    assert!(e.to_string().contains("type id 39"), "{e}");
    let e = decode(&[27, 0, 0, 0], &DecodeOptions::new(Version::V3)).unwrap_err();
    assert!(e.to_string().contains("0 to 26"), "{e}");
    // A typed array whose element type id is unknown.
    let e = d4(&[0x1c, 0, 1, 0, 77, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(e.offset(), Some(4));
}

#[test]
fn invalid_utf8_points_at_the_bad_byte_and_path() {
    // {"k": "a\xff"}
    let bytes = [
        0x1b, 0, 0, 0, 1, 0, 0, 0, // Dictionary, 1 entry
        4, 0, 0, 0, 1, 0, 0, 0, b'k', 0, 0, 0, // "k"
        4, 0, 0, 0, 2, 0, 0, 0, b'a', 0xff, 0, 0,
    ];
    let e = d4(&bytes);
    assert_eq!(e.offset(), Some(29));
    assert_eq!(
        e.to_string(),
        "at byte 29 (0x1d), at $.k: invalid UTF-8 text"
    );
}

#[test]
fn trailing_bytes_are_reported_and_decode_prefix_allows_them() {
    let e = d4(&[0, 0, 0, 0, 1]);
    assert!(matches!(e.kind(), ErrorKind::TrailingBytes { count: 1 }));
    assert_eq!(
        decode_prefix(&[0, 0, 0, 0, 1], &DecodeOptions::new(Version::V4)).unwrap(),
        (Value::Nil, 4)
    );
}

#[test]
fn errors_deep_inside_arrays_carry_the_path() {
    // [[1, <bad>]]
    let bytes = [
        0x1c, 0, 0, 0, 1, 0, 0, 0, 0x1c, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 99, 0, 0, 0,
    ];
    let e = d4(&bytes);
    assert_eq!(e.path_string(), "$[0][1]");
    assert_eq!(e.offset(), Some(24));
}

#[test]
fn encoding_past_the_depth_limit_is_an_error() {
    let mut v = Value::Nil;
    for _ in 0..1100 {
        v = Value::from(vec![v]);
    }
    assert!(encode(&v, &EncodeOptions::new(Version::V4)).is_err());
}
