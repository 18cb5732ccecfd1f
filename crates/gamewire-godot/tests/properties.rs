//! Property tests: random values round-trip through bytes and through JSON.

mod common;
use common::Rng;
use gamewire_godot::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_values_round_trip(seed in any::<u64>(), v4 in any::<bool>()) {
        let version = if v4 { Version::V4 } else { Version::V3 };
        let value = Rng::new(seed).value(version, 4);
        let bytes = encode(&value, &EncodeOptions::new(version)).unwrap();
        let back = decode(&bytes, &DecodeOptions::new(version)).unwrap();
        prop_assert_eq!(&back, &value);
        // bytes -> value -> bytes is the identity too.
        prop_assert_eq!(encode(&back, &EncodeOptions::new(version)).unwrap(), bytes.clone());
        // And JSON text keeps everything.
        let text = serde_json::to_string(&json::to_json(&value, version)).unwrap();
        let j: serde_json::Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(encode(&json::from_json(&j, version).unwrap(), &EncodeOptions::new(version)).unwrap(), bytes);
    }

    #[test]
    fn every_prefix_of_a_value_is_a_clean_error(seed in any::<u64>()) {
        let value = Rng::new(seed).value(Version::V4, 3);
        let bytes = encode(&value, &EncodeOptions::new(Version::V4)).unwrap();
        for cut in 0..bytes.len() {
            match decode(&bytes[..cut], &DecodeOptions::new(Version::V4)) {
                // Like the engine, the zero padding after a PackedByteArray that ends the
                // input may be missing; nothing else may be.
                Ok(v) => {
                    prop_assert!(cut + 3 >= bytes.len(), "prefix of {} bytes decoded", cut);
                    prop_assert_eq!(&v, &value);
                }
                Err(e) => prop_assert!(e.offset().unwrap() <= cut),
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..256)) {
        for v in [Version::V3, Version::V4] {
            let _ = decode(&data, &DecodeOptions::new(v).allow_objects(true));
        }
    }
}
