//! The JSON forms each format gives to what plain JSON cannot hold (byte strings and
//! non-finite floats), taken from the format crates' own JSON mappings, for front ends
//! that build JSON from values of their own (Python's objects).

use crate::Format;
use serde_json::Value as Json;

/// The format's JSON for a byte string (Godot `PackedByteArray`, KingsIsle
/// `std::string`, Zeze bytes, Resonite binary subtype 0). O3DE has no byte strings:
/// `None`.
pub fn bytes(format: Format, b: &[u8]) -> Option<Json> {
    match format {
        #[cfg(feature = "godot")]
        Format::Godot3 | Format::Godot4 => Some(gamewire_godot::json::to_json(
            &gamewire_godot::Value::PackedByteArray(b.to_vec()),
            gamewire_godot::Version::V4,
        )),
        #[cfg(feature = "kingsisle")]
        Format::KingsIsle => gamewire_kingsisle::json::value_to_json(
            &gamewire_kingsisle::Value::String(b.into()),
            &gamewire_kingsisle::TypeList::new(),
        )
        .ok(),
        #[cfg(feature = "zeze")]
        Format::Zeze => Some(gamewire_zeze::json::bytes_json(b)),
        #[cfg(feature = "resonite")]
        Format::Resonite => gamewire_resonite::json::value_to_json(
            &gamewire_resonite::Value::Binary {
                subtype: 0,
                bytes: std::borrow::Cow::Borrowed(b),
            },
            8,
        )
        .ok(),
        _ => {
            let _ = b;
            None
        }
    }
}

/// The format's JSON for a 64-bit float: a number when finite, else its tagged form
/// (Godot `{"$type": "float", ...}`, KingsIsle `{"$f64": bits}`, Zeze
/// `{"double_bits": n}`, Resonite `{"$numberDouble": ...}`). `None` where the format has
/// no form for a non-finite float (O3DE).
pub fn float(format: Format, x: f64) -> Option<Json> {
    if let Some(n) = serde_json::Number::from_f64(x) {
        return Some(Json::Number(n));
    }
    match format {
        #[cfg(feature = "godot")]
        Format::Godot3 | Format::Godot4 => Some(gamewire_godot::json::to_json(
            &gamewire_godot::Value::Float(x),
            gamewire_godot::Version::V4,
        )),
        #[cfg(feature = "kingsisle")]
        Format::KingsIsle => gamewire_kingsisle::json::value_to_json(
            &gamewire_kingsisle::Value::Double(x),
            &gamewire_kingsisle::TypeList::new(),
        )
        .ok(),
        #[cfg(feature = "zeze")]
        Format::Zeze => Some(gamewire_zeze::json::f64_json(x)),
        #[cfg(feature = "resonite")]
        Format::Resonite => {
            gamewire_resonite::json::value_to_json(&gamewire_resonite::Value::Double(x), 8).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_format_tags_bytes_and_non_finite_floats_its_own_way() {
        let b = [0xff, 0x00];
        assert_eq!(
            bytes(Format::Godot4, &b),
            Some(json!({"$type": "PackedByteArray", "base64": "/wA="}))
        );
        assert_eq!(
            bytes(Format::KingsIsle, &b),
            Some(json!({"$bytes": "ff00"}))
        );
        assert_eq!(bytes(Format::Zeze, &b), Some(json!({"bytes": "ff00"})));
        assert_eq!(
            bytes(Format::Resonite, &b),
            Some(json!({"$binary": {"base64": "/wA=", "subType": "00"}}))
        );
        assert_eq!(bytes(Format::O3de, &b), None);
        assert_eq!(float(Format::Zeze, 1.5), Some(json!(1.5)));
        assert_eq!(
            float(Format::Godot4, f64::INFINITY),
            Some(json!({"$type": "float", "value": "inf"}))
        );
        assert_eq!(
            float(Format::KingsIsle, f64::NEG_INFINITY),
            Some(json!({"$f64": "fff0000000000000"}))
        );
        assert_eq!(
            float(Format::Zeze, f64::NAN),
            Some(json!({"double_bits": f64::NAN.to_bits()}))
        );
        assert_eq!(
            float(Format::Resonite, f64::NAN),
            Some(json!({"$numberDouble": "NaN"}))
        );
    }
}
