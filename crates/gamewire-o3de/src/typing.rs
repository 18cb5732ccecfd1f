//! What a registry types in an O3DE file: the one rule every front end follows
//! (`decode FILE`, `inspect`, `decode o3de`, `o3de load`).
//!
//! A file in O3DE's file envelope (`{"Type": "JsonSerialization", "ClassName", ...}`)
//! is loaded as its `ClassName` when the registry knows that class; a prefab (a level
//! or a prefab: `ContainerEntity`/`Entities`) has each component loaded as the class its
//! own `$type` names ([`crate::prefab::load_prefab`]); any other file is not typed.
//! The registry itself is the bundled core types with the user's registry merged over
//! them ([`crate::Registry::from_slice_over_bundled`]); which file that is, is the
//! caller's to find (`--schema`, else `o3de-registry.json` beside the file or in a
//! parent folder).

use crate::recognize::envelope_class_name;
use crate::registry::Registry;
use crate::types::TypeExpr;

/// What a registry types in a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Typing {
    /// An envelope whose `ClassName` the registry knows: its `ClassData` loads as `ty`.
    Envelope {
        /// The envelope's `ClassName`.
        class: String,
        /// The type it names.
        ty: TypeExpr,
    },
    /// A prefab: each component loads as its own `$type`.
    Prefab,
    /// Nothing to type: an envelope of a class the registry does not know, or a file
    /// that is neither an envelope nor a prefab.
    None,
}

/// What `reg` types in the file `data` (see the module docs).
pub fn typing(reg: &Registry, data: &[u8]) -> Typing {
    if let Some(class) = envelope_class_name(data) {
        return match reg.parse_type(&class) {
            Ok(ty) => Typing::Envelope { class, ty },
            Err(_) => Typing::None,
        };
    }
    match crate::parse_json(data) {
        Ok(json) if crate::prefab::is_prefab(&json) => Typing::Prefab,
        _ => Typing::None,
    }
}
