//! A file's value as the format crate models it, for Rust programs that edit files:
//! [`super::Opened::value`] decodes with the file's settings, and
//! [`super::Opened::encode_value`] writes a value back with them.

/// The value of an opened file, in its format crate's own model.
#[derive(Debug)]
#[non_exhaustive]
pub enum Value<'a> {
    /// A bare Godot Variant.
    #[cfg(feature = "godot")]
    Godot(gamewire_godot::Value),
    /// The values of a Godot `store_var` file, in order.
    #[cfg(feature = "godot")]
    GodotFrames(Vec<gamewire_godot::Value>),
    /// The settings of a Godot `project.binary`, in order.
    #[cfg(feature = "godot")]
    GodotProjectBinary(gamewire_godot::project_binary::Settings),
    /// KingsIsle documents: one for a `BINd` file or blob, one per object of an XML
    /// object file.
    #[cfg(feature = "kingsisle")]
    KingsIsle(Vec<gamewire_kingsisle::Document>),
    /// A Zeze bean read without a solution (fields by id).
    #[cfg(feature = "zeze")]
    Zeze(gamewire_zeze::Bean),
    /// A Zeze bean typed by its solution: the schema JSON mapping (named fields).
    #[cfg(feature = "zeze")]
    ZezeTyped(serde_json::Value),
    /// Zeze protocol frames (bodies as schema-less beans).
    #[cfg(feature = "zeze")]
    ZezeFrames(Vec<gamewire_zeze::frame::Frame>),
    /// A Resonite data tree: its container and root document (`Decoded::document` to
    /// read, `Decoded::edit` or `Decoded::document_mut` to edit; read into an arena
    /// that the `Decoded` owns, see `gamewire_resonite::decoded`).
    #[cfg(feature = "resonite")]
    Resonite(gamewire_resonite::Decoded),
    /// An O3DE document, kept as written (members in order, numbers as their text).
    #[cfg(feature = "o3de")]
    O3de(gamewire_o3de::doc::Document<'a>),
    #[doc(hidden)]
    _Lifetime(std::marker::PhantomData<&'a ()>),
}
