//! Rust code generation from a Zeze solution: one serde struct per bean, one enum per
//! dynamic variable, one struct per protocol and Rpc, and `pub const`s for `<enum>`s.
//!
//! The generated code uses only `serde` and this crate: fields carry their Zeze ids
//! through `#[serde(rename = "name#ID")]` (see [`crate::ser`]), so [`crate::to_bytes`]
//! and [`crate::from_bytes`] write and read exactly the bytes Zeze's own generated
//! `Encode`/`Decode` do. A dynamic variable becomes an enum whose variants are the
//! beans it may hold, renamed `"Bean#TYPEID"`, with an `Empty` default. Maps whose key
//! type has no total order (floats, vectors, beans) use [`Pairs`].
//!
//! A bean with a `base` gets its own variables and, last, a `base` field holding the base
//! bean, renamed [`crate::types::BASE_FIELD`]: this crate's serde writes it as Zeze writes
//! an inheritance level (a `1` byte, then the base's bytes) and reads it back the way
//! Zeze's generated `decode` does; `Deref`/`DerefMut` to the base make the base's
//! variables reachable as fields (`final.base_int`).
//!
//! `<enum name=.. value=.. [type=..]>`s become `pub const`s with names in upper snake
//! case (`eTestEnum` -> `E_TEST_ENUM`, the Zeze name in the doc comment): a bean's on the
//! bean's type, a protocol's on the protocol's type, a module's in a `pub mod` named
//! after the module's full name (`demo.Module1` -> `demo_module1`).
//!
//! Every bean has `FULL_NAME` and `TYPE_ID` (Zeze's `TYPEID`). A variable's
//! `default="..."` becomes the generated `Default` (what Zeze's constructor sets); an
//! absent variable still reads as zero, as Zeze's generated `decode` does.
//!
//! The schema is loaded and the whole output generated before anything is written, so a
//! schema with errors writes nothing (the errors name the file, line and element).

mod pairs;
mod writer;

pub use pairs::Pairs;
pub use writer::generate;

use crate::schema::Schema;
use gamewire_core::{Error, Result};
use std::path::Path;

/// Loads the solution XML at `schema` (and the files it imports) and writes the generated Rust to `out` (a file
/// path, or a directory that gets `zeze_gen.rs`). For a `build.rs`:
///
/// ```no_run
/// let out = std::env::var("OUT_DIR").unwrap();
/// gamewire_zeze::gen::gen("solution.xml", &out).unwrap();
/// // then in the crate: include!(concat!(env!("OUT_DIR"), "/zeze_gen.rs"));
/// ```
pub fn gen(schema: impl AsRef<Path>, out: impl AsRef<Path>) -> Result<std::path::PathBuf> {
    // Imports are followed as Zeze's Gen does (each file once).
    let s = Schema::from_file(schema.as_ref())?;
    let code = generate(&s)?;
    let out = out.as_ref();
    let path = if out.is_dir() {
        out.join("zeze_gen.rs")
    } else {
        out.to_path_buf()
    };
    // Written whole to a temporary file then renamed: never half an output.
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, code).map_err(|e| Error::msg(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &path).map_err(|e| Error::msg(format!("{}: {e}", path.display())))?;
    Ok(path)
}
