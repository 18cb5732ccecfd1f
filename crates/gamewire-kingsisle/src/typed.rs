//! Typed access with serde: read a document into your own structs and write them back.
//!
//! The bridge is the JSON mapping: a struct's fields are the properties by name (plus
//! `$class`, which `to_document` needs unless the struct's type is given), nested objects
//! are nested structs (`Option<T>` for pointers that may be null), containers are `Vec`s.
//!
//! ```
//! # use gamewire_kingsisle::{typed, Options, TypeList, types::{ClassDef, PropertyDef}};
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Item { m_name: String, m_level: u32 }
//! let mut c = ClassDef::new("class Item");
//! c.properties.push(PropertyDef::new("m_name", "std::string", 0, 7, false));
//! c.properties.push(PropertyDef::new("m_level", "unsigned int", 1, 7, false));
//! let mut types = TypeList::new();
//! types.insert(c);
//! let item = Item { m_name: "hat".into(), m_level: 5 };
//! let doc = typed::to_document(&item, "class Item", &types).unwrap();
//! // Shallow mode with mask 7 (SAVE | COPY | PUBLIC): both properties are written.
//! let opts = Options { property_mask: 7, ..Options::default() };
//! let bytes = gamewire_kingsisle::encode(&doc, &types, &opts).unwrap();
//! let back = gamewire_kingsisle::decode(&bytes, &types, &opts).unwrap();
//! assert_eq!(typed::from_document::<Item>(&back, &types).unwrap(), item);
//! ```

use crate::{json, Document, TypeList};
use gamewire_core::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};

/// Reads a document's root object into `T`.
pub fn from_document<T: DeserializeOwned>(doc: &Document, types: &TypeList) -> Result<T> {
    // Enums as numbers: a Rust field for an enum is an integer (or an enum with
    // `serde_repr`), whatever names the type list has.
    let j = serde_json::to_value(json::DocumentJson {
        doc,
        types,
        enum_numbers: true,
    })
    .map_err(|e| Error::msg(e.to_string()))?;
    serde_json::from_value(j)
        .map_err(|e| Error::msg(format!("document does not fit the type: {e}")))
}

/// Makes a document of class `class` (e.g. `class Foo`) from `value`; nested objects
/// need a `$class` (or `$hash`) field of their own.
pub fn to_document<T: Serialize>(value: &T, class: &str, types: &TypeList) -> Result<Document> {
    let mut j = serde_json::to_value(value)
        .map_err(|e| Error::msg(format!("cannot serialize the value: {e}")))?;
    let obj = j
        .as_object_mut()
        .ok_or_else(|| Error::msg("the value must serialize to a map (a struct)"))?;
    obj.entry("$class")
        .or_insert_with(|| serde_json::Value::String(class.to_owned()));
    json::from_json(&j, types)
}
