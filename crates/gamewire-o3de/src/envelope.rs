//! The O3DE file envelope that `JsonSerializationUtils` writes around a stored object:
//!
//! ```json
//! {"Type": "JsonSerialization", "Version": 1, "ClassName": "MyClass", "ClassData": {...}}
//! ```

use gamewire_core::{Error, Result};
use serde_json::{Map, Value as Json};

/// The identifier O3DE writes in `Type`.
pub const TYPE_TAG: &str = "JsonSerialization";
/// The envelope version O3DE writes and accepts.
pub const VERSION: u64 = 1;

/// An unwrapped envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The stored class's name (`ClassName`).
    pub class_name: String,
    /// The stored object (`ClassData`).
    pub class_data: Json,
}

impl Envelope {
    /// Unwraps `json` when it carries `"Type": "JsonSerialization"`; `Ok(None)` when it
    /// is not an envelope; an error when it claims to be one but is malformed.
    pub fn from_json(json: &Json) -> Result<Option<Envelope>> {
        let Some(m) = json.as_object() else {
            return Ok(None);
        };
        match m.get("Type") {
            Some(Json::String(t)) if t == TYPE_TAG => {}
            _ => return Ok(None),
        }
        match m.get("Version").and_then(|v| v.as_u64()) {
            Some(VERSION) => {}
            Some(v) => {
                return Err(Error::msg(format!(
                    "envelope: unsupported Version {v}, expected {VERSION}"
                )))
            }
            None => {
                return Err(Error::msg(
                    "envelope: \"Version\" is missing or not an integer",
                ))
            }
        }
        let class_name = match m.get("ClassName") {
            Some(Json::String(s)) => s.clone(),
            _ => {
                return Err(Error::msg(
                    "envelope: \"ClassName\" is missing or not a string",
                ))
            }
        };
        let class_data = m
            .get("ClassData")
            .cloned()
            .unwrap_or(Json::Object(Map::new()));
        Ok(Some(Envelope {
            class_name,
            class_data,
        }))
    }

    /// Wraps stored JSON in the envelope, members in O3DE's order.
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert("Type".into(), Json::String(TYPE_TAG.into()));
        m.insert("Version".into(), Json::from(VERSION));
        m.insert("ClassName".into(), Json::String(self.class_name.clone()));
        m.insert("ClassData".into(), self.class_data.clone());
        Json::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_and_errors() {
        let j = json!({"Type": "JsonSerialization", "Version": 1, "ClassName": "A", "ClassData": {"x": 1}});
        let e = Envelope::from_json(&j).unwrap().unwrap();
        assert_eq!(e.class_name, "A");
        assert_eq!(e.to_json(), j);
        assert_eq!(Envelope::from_json(&json!({"x": 1})).unwrap(), None);
        assert!(Envelope::from_json(
            &json!({"Type": "JsonSerialization", "Version": 2, "ClassName": "A"})
        )
        .is_err());
        assert!(Envelope::from_json(&json!({"Type": "JsonSerialization", "Version": 1})).is_err());
    }
}
