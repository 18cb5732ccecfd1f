//! KingsIsle ObjectProperty (PropertyClass) serialization: type lists, bit codec, BINd and XML files.
//!
//! - [`TypeList`]: classes read from wiztype JSON dumps (v1, v2) or KingsIsle's XML dump.
//! - [`decode`] / [`encode`]: a blob to a [`Document`] and back, shallow or deep, with
//!   every serializer flag (stateful flags, compact lengths, enum names, zlib, forbidden
//!   absence) and the property mask. Decoded engine bytes re-encode byte for byte.
//! - [`bind`]: `BINd` game files; [`xml`]: XML object files.
//! - [`codec`]: the uniform `decode(&[u8], &DecodeOptions)` and
//!   `encode(&Document, &EncodeOptions)` every gamewire format crate offers, with the type
//!   list in the options ([`DecodeOptions`], [`EncodeOptions`]).
//! - [`json`]: the lossless JSON mapping (see `docs/FORMATS.md`).
//! - [`typed`]: your own serde structs to and from documents.
//! - [`hash`]: `string_id` and djb2.
//! - [`wad`]: `KIWAD` archives: list, read (inflated on demand, CRC checked), build.
//! - [`view`]: a borrowed, allocation-light reading ([`View`]): every value navigable,
//!   strings borrowed from the input, no owned tree.
//! - [`validate`]: the bytes checked, nothing built.
//!
//! The bit stream is read by one walker (the private `walk` module), generic over what
//! it builds: the owned tree of [`decode`], the view's tape and [`validate`] are its
//! sinks, so every reader applies the same rules, limits and error messages.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bind;
pub mod bits;
pub mod bytes;
pub mod codec;
mod decode;
mod deep;
mod encode;
mod fields;
pub mod hash;
pub mod inspect;
pub mod json;
mod options;
pub mod properties;
pub mod recycle;
pub mod span;
mod stack;
pub mod typed;
pub mod types;
mod value;
pub mod view;
pub mod visit;
pub mod wad;
mod walk;
pub mod xml;
pub mod xml_span;
mod xmltypes;
pub mod zlib;

pub use codec::{DecodeOptions, EncodeOptions};
pub use decode::decode;
pub use encode::{encode, value_kind};
pub use hash::Game;
pub use options::Options;
pub use properties::Properties;
pub use stack::set_stack_budget;
pub use types::{ClassDef, Kind, PropertyDef, TypeList};
pub use value::{serializer_flags, Bytes, Document, KeptZlib, Object, Raw, Value};
pub use view::View;

/// Checks that `data` reads as [`decode`] (or, with the `BINd` magic, [`bind::decode`])
/// reads it, with the same errors, building nothing: the one walk of the grammar into
/// a sink that keeps nothing.
pub fn validate(data: &[u8], types: &TypeList, opts: &Options) -> gamewire_core::Result<()> {
    let (data, opts, shift) = if data.starts_with(bind::MAGIC) {
        (
            &data[bind::MAGIC.len()..],
            bind::options(opts),
            bind::MAGIC.len(),
        )
    } else {
        (data, *opts, 0)
    };
    let run = || {
        let u = walk::layers::unwrap(data, &opts, false)?;
        walk::root(
            u.stream(data),
            u.base,
            types,
            &opts,
            u.flags,
            &mut walk::Check,
        )
        .map(|_| ())
    };
    run().map_err(|e| if shift > 0 { e.shift_offset(shift) } else { e })
}

/// True when `data` (and the file name, when known) looks like this format.
///
/// Claims `BINd` files by their magic, and XML object files (`<Objects>` holding
/// `<Class Name=...>` elements, as `xml::write` writes them) by their content
/// ([`xml::looks_like_object_file`]). Bare blobs have no magic and are not claimed.
pub fn sniff(data: &[u8], file_name: Option<&str>) -> bool {
    let _ = file_name;
    data.starts_with(bind::MAGIC) || xml::looks_like_object_file(data)
}
