//! Godot 3 values carried over to Godot 4: random values of every Godot 3 type, one at a
//! time and as a `store_var` file, read in Godot 4 as the values Godot 3 wrote. (The live
//! engines check the same in tests/live_godot4.rs.)

mod common;
use common::Rng;
use gamewire_godot::framing::{decode_framed_all, encode_framed_into};
use gamewire_godot::*;

#[test]
fn random_godot3_values_read_the_same_in_godot4() {
    let mut rng = Rng::new(0x5eed_3704);
    let e3 = EncodeOptions::new(Version::V3);
    let d3 = DecodeOptions::new(Version::V3);
    let d4 = DecodeOptions::new(Version::V4);
    let mut file = Vec::new();
    let mut values = Vec::new();
    for i in 0..500 {
        let v = rng.value(Version::V3, 4);
        let bytes = encode(&v, &e3).unwrap();
        let v4 = convert::v3_bytes_to_v4(&bytes, false).unwrap();
        let expected = decode(&bytes, &d3).unwrap();
        assert_eq!(decode(&v4, &d4).unwrap(), expected, "value {i}");
        assert_eq!(convert::v3_to_v4(&expected).unwrap(), expected, "value {i}");
        // Only Nil to Vector2 (ids 0 to 5) keep their id.
        let same_id = matches!(
            v.kind(),
            Kind::Nil | Kind::Bool | Kind::Int | Kind::Float | Kind::String | Kind::Vector2
        );
        assert_eq!(bytes[0] == v4[0], same_id, "value {i}: {:?}", v.kind());
        encode_framed_into(&v, &e3, &mut file).unwrap();
        values.push(expected);
    }
    let file4 = convert::v3_bytes_to_v4(&file, true).unwrap();
    assert_eq!(decode_framed_all(&file4, &d4).unwrap(), values);
}

#[test]
fn bad_godot3_input_is_an_error_with_its_place() {
    // A truncated store_var file: the error names the value and the byte offset.
    let mut file = Vec::new();
    let e3 = EncodeOptions::new(Version::V3);
    encode_framed_into(&Value::from("first"), &e3, &mut file).unwrap();
    encode_framed_into(&Value::from(vec![Value::Int(1)]), &e3, &mut file).unwrap();
    let cut = &file[..file.len() - 2];
    let err = convert::v3_bytes_to_v4(cut, true).unwrap_err();
    assert!(err.offset().is_some(), "{err}");
    assert!(err.to_string().contains("[1]"), "{err}");
    // Godot 4 bytes are not Godot 3 bytes: a Godot 4 Dictionary (27) is no Godot 3 type.
    let v4 = encode(
        &Value::Dictionary(Dictionary::new(vec![])),
        &EncodeOptions::new(Version::V4),
    )
    .unwrap();
    assert!(convert::v3_bytes_to_v4(&v4, false).is_err());
}
