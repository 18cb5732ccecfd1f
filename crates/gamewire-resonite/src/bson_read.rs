//! Reading BSON into the owned [`Document`] tree, borrowing strings, keys and binary
//! data from the input: the [`walk`](crate::walk) into its [`Build`] sink. The rules
//! and errors are the walk's.

use crate::arena::Arena;
use crate::value::Document;
use crate::walk::{walk, Build};
use gamewire_core::{Error, Result};

/// Reads one BSON document that fills all of `data`. `base` is the offset of `data` in
/// the file (for errors); `max_depth` bounds nesting of documents and arrays. Every
/// document and array is its own vector ([`read_document_in`] puts them in an arena).
pub fn read_document(data: &[u8], base: usize, max_depth: usize) -> Result<Document<'_>> {
    build(data, base, max_depth, Build::new())
}

/// [`read_document`] with the entries of documents and the items of arrays in `arena`
/// (see [`crate::arena`]): one allocation for the whole tree in practice, and nothing
/// to free item by item when it is dropped.
pub fn read_document_in<'a>(
    data: &'a [u8],
    arena: &'a Arena,
    base: usize,
    max_depth: usize,
) -> Result<Document<'a>> {
    build(data, base, max_depth, Build::in_arena(arena))
}

fn build<'a>(
    data: &'a [u8],
    base: usize,
    max_depth: usize,
    mut build: Build<'a>,
) -> Result<Document<'a>> {
    walk(data, base, max_depth, &mut build)?;
    build
        .finish()
        .ok_or_else(|| Error::msg("the BSON walk ended without its root document"))
}
