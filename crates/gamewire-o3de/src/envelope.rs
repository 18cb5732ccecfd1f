//! The O3DE file envelope that `JsonSerializationUtils` writes around a stored object:
//!
//! ```json
//! {"Type": "JsonSerialization", "Version": 1, "ClassName": "MyClass", "ClassData": {...}}
//! ```
//!
//! [`save_object`], [`load_object`] and [`load_any_object`] follow `SaveObjectToStream`,
//! `LoadObjectFromStream` and `LoadAnyObjectFromStream`; [`write_json`] writes JSON text
//! as their `PrettyWriter` does.

use crate::{
    LoadOptions, Outcome, Processing, Registry, Report, Reporting, StoreOptions, TypeExpr, Value,
};
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
    /// Unwraps `json` when it carries `"Type": "JsonSerialization"` (compared without
    /// regard to ASCII case); `Ok(None)` when it is not an envelope; an error when it
    /// claims to be one but is malformed. As O3DE's `ValidateJsonClassHeader`, the
    /// reader does not look at `Version`; `ClassName` must be a string, and `ClassData`,
    /// when present, an object (absent, it reads as `{}`).
    pub fn from_json(json: &Json) -> Result<Option<Envelope>> {
        let Some(m) = json.as_object() else {
            return Ok(None);
        };
        match m.get("Type") {
            Some(Json::String(t)) if t.eq_ignore_ascii_case(TYPE_TAG) => {}
            _ => return Ok(None),
        }
        let class_name = match m.get("ClassName") {
            Some(Json::String(s)) => s.clone(),
            _ => {
                return Err(Error::msg(
                    "envelope: \"ClassName\" is missing or not a string",
                ))
            }
        };
        let class_data = match m.get("ClassData") {
            None => Json::Object(Map::new()),
            Some(d @ Json::Object(_)) => d.clone(),
            Some(_) => return Err(Error::msg("envelope: \"ClassData\" should be an object")),
        };
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

/// Writes JSON as rapidjson's `PrettyWriter` does for O3DE's `WriteJsonString` and
/// `SaveObjectToStream`: four spaces of indentation, `"name": value`, no final newline.
pub fn write_json(json: &Json) -> Vec<u8> {
    use serde::Serialize;
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    // Writing a `serde_json::Value` into a Vec cannot fail.
    let _ = json.serialize(&mut ser);
    out
}

/// The name O3DE writes in `ClassName` for `ty`.
fn class_name_of(reg: &Registry, ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Class(c) => reg.classes[*c].name.clone(),
        other => reg.type_to_string(other),
    }
}

/// O3DE's `JsonSerializationUtils::SaveObjectToStream`: stores `value` and wraps it in the
/// envelope, written as [`write_json`] does. Fails when the store did not complete.
pub fn save_object(
    reg: &Registry,
    ty: &TypeExpr,
    value: &Value,
    opts: &StoreOptions,
) -> Result<Vec<u8>> {
    let (data, report) = crate::store(reg, ty, value, opts);
    if report.processing() != Processing::Completed {
        return Err(Error::msg(report.result.describe("")));
    }
    let mut m = Map::new();
    m.insert("Type".into(), Json::String(TYPE_TAG.into()));
    m.insert("Version".into(), Json::from(VERSION));
    m.insert("ClassName".into(), Json::String(class_name_of(reg, ty)));
    m.insert("ClassData".into(), data);
    Ok(write_json(&Json::Object(m)))
}

/// `WasLoadSuccess`: the outcomes O3DE's file loader accepts.
fn load_success(o: Outcome) -> bool {
    matches!(
        o,
        Outcome::Success | Outcome::DefaultsUsed | Outcome::PartialDefaults
    )
}

/// Parses `bytes` (comments allowed) and unwraps the envelope, which is required.
fn read_envelope(bytes: &[u8]) -> Result<(Envelope, crate::Duplicates)> {
    let (json, dups) = crate::parse_json_keeping_duplicates(bytes)?;
    match Envelope::from_json(&json)? {
        Some(env) => Ok((env, dups.rebase("/ClassData"))),
        None => Err(Error::msg("Not a valid JsonSerialization file")),
    }
}

/// Loads the envelope's `ClassData` as `ty` and fails as O3DE's file loader does
/// (`PrepareDeserializerSettings`): on an overall outcome other than success or
/// defaults, or on any issue reported with such an outcome (a skipped member, an
/// unsupported value), listing the issues' messages. The caller's callback, if any,
/// sees the result of every value loaded.
fn load_checked(
    reg: &Registry,
    ty: &TypeExpr,
    env: Envelope,
    dups: &crate::Duplicates,
    opts: &LoadOptions,
    user: Option<&mut Reporting<'_>>,
) -> Result<(Value, Report)> {
    let (v, report) = match user {
        Some(cb) => crate::load_with_reporting(reg, ty, env.class_data, dups, opts, cb),
        None => crate::load_with_duplicates(reg, ty, env.class_data, dups, opts),
    };
    let mut errors = String::new();
    for i in &report.issues {
        // O3DE's loader ignores this one message (a work-around in JsonUtils.cpp).
        if !load_success(i.code.outcome())
            && i.message != "No part of the string could be interpreted as a uuid."
        {
            errors.push_str(&format!("{} '{}' \n", i.message, i.path));
        }
    }
    if !load_success(report.outcome()) || !errors.is_empty() {
        if errors.is_empty() {
            errors = report.result.describe("");
        }
        return Err(Error::msg(errors));
    }
    Ok((v, report))
}

/// O3DE's `JsonSerializationUtils::LoadObjectFromStream`: `bytes` must hold the envelope,
/// its `ClassName` must be `ty`'s name (compared without regard to ASCII case), and the
/// load must succeed with no skipped or altered value.
pub fn load_object(
    reg: &Registry,
    ty: &TypeExpr,
    bytes: &[u8],
    opts: &LoadOptions,
) -> Result<(Value, Report)> {
    load_object_inner(reg, ty, bytes, opts, None)
}

/// [`load_object`] with the caller's reporting callback (O3DE's `m_reporting` in the
/// deserializer settings): every report passes through it after the loader's own check.
pub fn load_object_with_reporting(
    reg: &Registry,
    ty: &TypeExpr,
    bytes: &[u8],
    opts: &LoadOptions,
    reporting: &mut Reporting<'_>,
) -> Result<(Value, Report)> {
    load_object_inner(reg, ty, bytes, opts, Some(reporting))
}

fn load_object_inner(
    reg: &Registry,
    ty: &TypeExpr,
    bytes: &[u8],
    opts: &LoadOptions,
    reporting: Option<&mut Reporting<'_>>,
) -> Result<(Value, Report)> {
    let (env, dups) = read_envelope(bytes)?;
    let name = class_name_of(reg, ty);
    if !name.eq_ignore_ascii_case(&env.class_name) {
        return Err(Error::msg(format!(
            "Try to load class {name} from class {} data",
            env.class_name
        )));
    }
    load_checked(reg, ty, env, &dups, opts, reporting)
}

/// O3DE's `JsonSerializationUtils::LoadAnyObjectFromStream`: the type is the first
/// registered class whose name is exactly the envelope's `ClassName`; the load must
/// succeed as in [`load_object`]. As in O3DE (which checks the parse result where it
/// means to check the header), `Type` is not looked at here: only a string `ClassName`
/// is needed.
pub fn load_any_object(
    reg: &Registry,
    bytes: &[u8],
    opts: &LoadOptions,
) -> Result<(TypeExpr, Value, Report)> {
    let (json, dups) = crate::parse_json_keeping_duplicates(bytes)?;
    let Some(Json::String(class_name)) = json.get("ClassName") else {
        return Err(Error::msg("File should contain ClassName"));
    };
    let env = Envelope {
        class_name: class_name.clone(),
        class_data: json
            .get("ClassData")
            .cloned()
            .unwrap_or(Json::Object(Map::new())),
    };
    let dups = dups.rebase("/ClassData");
    let Some(id) = reg.classes.iter().position(|c| c.name == env.class_name) else {
        return Err(Error::msg(format!(
            "Can't find serialize context for class {}",
            env.class_name
        )));
    };
    let ty = TypeExpr::Class(id);
    let (v, r) = load_checked(reg, &ty, env, &dups, opts, None)?;
    Ok((ty, v, r))
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
        // O3DE does not read the version; the class name is required.
        assert!(Envelope::from_json(
            &json!({"Type": "JsonSerialization", "Version": 2, "ClassName": "A"})
        )
        .unwrap()
        .is_some());
        assert!(Envelope::from_json(&json!({"Type": "JsonSerialization", "Version": 1})).is_err());
        assert!(Envelope::from_json(
            &json!({"Type": "JsonSerialization", "ClassName": "A", "ClassData": []})
        )
        .is_err());
    }
}
