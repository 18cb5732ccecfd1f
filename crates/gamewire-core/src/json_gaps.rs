//! The text between the tokens of one JSON value, where a file's layout keeps more than
//! its indentation and line ending (comments, trailing commas, odd spacing): what O3DE's
//! layout records by JSON Pointer.
//!
//! Written once here, so that both `gamewire_o3de::layout` (which reads and writes it)
//! and the settings of the `gamewire` library's `$gamewire` header (which carry it, and
//! build without the O3DE crate) use the one type.

use serde::{Deserialize, Serialize};

/// The text between the tokens of one value, where it is not the file's own layout
/// (`None`: as the layout writes it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gaps {
    /// Before the value (a member: before its name), after the `{`, `[` or `,` before
    /// it; for the root, the start of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// A member: between its name and the colon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A member: between the colon and the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colon: Option<String>,
    /// After the value, up to the `,` or closing bracket after it; for the root, the end
    /// of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// A comment on the value's line after its comma (`"a": 1, // why`), or after the
    /// last value (`"a": 1 // why`): it goes with this value, not the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comma: Option<String>,
    /// An object or array: before its closing bracket (after the last value, or after
    /// its trailing comma; in an empty one, between the brackets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close: Option<String>,
    /// An object or array: a comma follows its last value (as O3DE's settings registry
    /// accepts).
    #[serde(default, skip_serializing_if = "is_false")]
    pub trailing_comma: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Gaps {
    /// True when every gap is as the layout writes it (nothing to keep).
    pub fn is_empty(&self) -> bool {
        *self == Gaps::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_differs_is_written_and_unknown_fields_are_refused() {
        let g = Gaps {
            comma: Some(" // why".into()),
            trailing_comma: true,
            ..Gaps::default()
        };
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(text, r#"{"comma":" // why","trailing_comma":true}"#);
        assert_eq!(serde_json::from_str::<Gaps>(&text).unwrap(), g);
        assert!(!g.is_empty() && Gaps::default().is_empty());
        assert!(serde_json::from_str::<Gaps>(r#"{"spaces":" "}"#).is_err());
    }
}
