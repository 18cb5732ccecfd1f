//! gamewire: read, write, inspect and convert the data formats of five game engines,
//! byte-exact with the engines themselves.
//!
//! Each format lives in its own crate, re-exported here behind a feature of the same name:
//!
//! | module | format |
//! |---|---|
//! | [`godot`] | Godot Variant binary, 3.x and 4.x |
//! | [`kingsisle`] | KingsIsle ObjectProperty (Wizard101) |
//! | [`zeze`] | Zeze ByteBuffer beans and protocol frames |
//! | [`resonite`] | Resonite/Neos FrDT containers and BSON data trees |
//! | [`o3de`] | O3DE JSON serialization of reflected types |
//!
//! [`identify`] recognises the format of a file from its bytes and its name ([`detect`]
//! is its one-answer form): magic numbers, telling names, and for Godot's magic-less
//! Variant bytes a trial decode of every version and framing.
// With only some formats enabled, code that serves the others goes unused.
#![cfg_attr(
    not(all(
        feature = "godot",
        feature = "zeze",
        feature = "kingsisle",
        feature = "resonite",
        feature = "o3de"
    )),
    allow(unused, dead_code, irrefutable_let_patterns)
)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use gamewire_core as core;
pub use gamewire_core::{Error, ErrorKind, Limits, Result};

#[cfg(feature = "godot")]
pub use gamewire_godot as godot;
#[cfg(feature = "kingsisle")]
pub use gamewire_kingsisle as kingsisle;
#[cfg(feature = "o3de")]
pub use gamewire_o3de as o3de;
#[cfg(feature = "resonite")]
pub use gamewire_resonite as resonite;
#[cfg(feature = "zeze")]
pub use gamewire_zeze as zeze;

pub mod contract;
mod detect;
pub use detect::{
    archive_kind, detect, identify, ArchiveKind, Detection, Evidence, Format, Found, Layout,
};

pub mod json_tags;
pub mod open;
pub use open::{
    encode_document, open, read_document, OpenError, OpenOptions, Opened, Settings, SideFiles,
};

/// The README's Rust examples, compiled and run as doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
