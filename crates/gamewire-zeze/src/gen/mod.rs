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
//!
//! Nothing from the solution can become code of its own: names and comments copied into
//! doc comments have their control characters (newlines among them) and bidirectional
//! controls written as `\u{..}`, and those in string literals are escaped. Rust names
//! are made of ASCII letters, digits and `_` only, and follow stated rules:
//!
//! - types (beans, protocols, dynamic enums) in camel case (`a_b` and `aB` -> `AB`,
//!   `Bé` -> `B`), with `_` appended to a keyword or a name of Rust's prelude or of the
//!   generated code (`Option` -> `Option_`, `Self` -> `Self_`, `Vec` -> `Vec_`);
//! - fields in snake case, a keyword raw (`r#type`), `self`/`super`/`crate` with `_`
//!   appended, and a name with no letter or digit `field_`;
//! - constants' modules in snake case, with `_consts` appended to a keyword, a crate the
//!   code names (`std`, `core`, `alloc`, `serde`, `gamewire_zeze`) or a name taken.
//!
//! Two beans or protocols, or two variables of one bean, that still get the same Rust
//! name are an error naming both (the CLI exits 1): nothing is written.

mod pairs;
mod writer;

pub use pairs::Pairs;
pub use writer::generate;

use crate::schema::Schema;
use gamewire_core::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Loads the solution XML at `schema` (and the files it imports) and writes the generated
/// Rust to `out`, returning the path written. `out` is a folder that gets `zeze_gen.rs`
/// when it is one, ends with `/`, or does not exist and has no `.rs` extension; missing
/// folders are created. Otherwise it is the file to write (its folder is created too).
/// For a `build.rs`:
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
    let path = output_path(out.as_ref());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create folder {}", dir.display()), e))?;
    }
    // Written whole to a temporary file then renamed: never half an output. The temporary
    // file is created exclusively under an unpredictable name in the output's folder (a
    // link planted there cannot redirect the write), and removed on failure.
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".zeze_gen.").suffix(".rs.tmp");
    // As readable as a file `std::fs::write` creates (the umask applies), not 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| Error::io(format!("cannot create a file in {}", dir.display()), e))?;
    tmp.write_all(code.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io(tmp.path().display().to_string(), e))?;
    tmp.persist(&path)
        .map_err(|e| Error::io(path.display().to_string(), e.error))?;
    Ok(path)
}

/// The file [`gen`] writes for `out`: `out/zeze_gen.rs` when `out` is a folder (an
/// existing one, a path ending with a separator, or a path that does not exist and has
/// no `.rs` extension), else `out` itself.
pub fn output_path(out: &Path) -> PathBuf {
    let text = out.as_os_str().to_string_lossy();
    let ends_with_separator = text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR);
    let folder = out.is_dir()
        || ends_with_separator
        || (!out.exists() && !matches!(out.extension(), Some(e) if e == "rs"));
    if folder {
        out.join("zeze_gen.rs")
    } else {
        out.to_path_buf()
    }
}
