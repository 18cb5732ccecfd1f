//! Reading BSON into the owned [`Document`] tree, borrowing strings, keys and binary
//! data from the input: the [`walk`](crate::walk) into its [`Build`] sink. The rules
//! and errors are the walk's.

use crate::value::Document;
use crate::walk::{walk, Build};
use gamewire_core::{Error, Result};

/// Reads one BSON document that fills all of `data`. `base` is the offset of `data` in
/// the file (for errors); `max_depth` bounds nesting of documents and arrays.
pub fn read_document(data: &[u8], base: usize, max_depth: usize) -> Result<Document<'_>> {
    let mut build = Build::new();
    walk(data, base, max_depth, &mut build)?;
    build
        .finish()
        .ok_or_else(|| Error::msg("the BSON walk ended without its root document"))
}
