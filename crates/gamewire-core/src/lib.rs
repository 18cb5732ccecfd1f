//! Shared pieces of gamewire used by two or more format crates.
//!
//! - [`Error`]: one decode/encode error type carrying the byte offset (and bit offset
//!   for bit-packed formats), a path such as `$.players[3].name`, and what went wrong.
//! - [`Limits`]: the bounds a decoder applies to untrusted input (depth, sizes).
//! - [`Reader`]: a little-endian byte cursor over a slice that checks every length
//!   against the bytes that remain before anything is allocated.
//! - [`inspect`]: the inspect tree every format fills and every front end shows.
//! - [`json_gaps`]: the text between a JSON value's tokens that a file's layout keeps
//!   (O3DE's comments, trailing commas, odd spacing), for the O3DE crate and the
//!   library's settings alike.
//! - [`json_text`]: reading JSON text strictly (integers past 64 bits, repeated keys,
//!   nesting), with line and column in every error.
//! - [`hex`] and [`base64`]: text of raw bytes, as the JSON mappings write them (the one
//!   copy every format and front end uses).
//! - [`peers`]: helpers for tests that need a live peer (an engine, a Python library).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod base64;
mod error;
pub mod files;
pub mod hex;
pub mod inspect;
pub mod json_gaps;
pub mod json_out;
pub mod json_span;
pub mod json_text;
pub mod lazy_json;
mod limits;
pub mod peers;
mod reader;

pub use error::{Error, ErrorKind, PathSegment, Result};
pub use limits::Limits;
pub use reader::Reader;
