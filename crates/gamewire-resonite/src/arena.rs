//! One allocation for a whole owned tree: [`Arena`].
//!
//! A document read with [`crate::read_bson_in`] (or [`crate::bson_read::read_document_in`])
//! keeps the entries of its documents and the items of its arrays in the arena, as
//! borrowed slices (`Cow::Borrowed`), beside its keys and text, which it borrows from the
//! BSON bytes. The arena takes memory from the allocator in a few large blocks; dropping
//! the tree frees nothing item by item, and dropping the arena returns the blocks.
//!
//! Only values that own nothing are put in an arena (it runs no destructors): a
//! container holding a value with heap memory of its own (the rare regex, DBPointer
//! and code-with-scope, which are boxed) is kept as an owned vector instead, and so is
//! every container around it, so nothing is ever leaked.
//!
//! ```
//! use gamewire_resonite::arena::Arena;
//! use gamewire_resonite::{bson_write, read_bson_in, Document, Options, Value};
//! let mut doc = Document::new();
//! doc.push("ID", Value::String("a".into()));
//! let bson = bson_write::to_vec(&doc, 64).unwrap();
//! let arena = Arena::new();
//! let back = read_bson_in(&bson, &arena, &Options::default()).unwrap();
//! assert_eq!(back, doc);
//! ```

/// Memory for the containers of trees read into it; see the [module](self).
#[derive(Debug, Default)]
pub struct Arena {
    bump: bumpalo::Bump,
}

impl Arena {
    /// An empty arena (it takes no memory until a tree is read into it).
    pub fn new() -> Self {
        Arena::default()
    }

    /// An arena with room for `bytes` before it needs another block.
    pub fn with_capacity(bytes: usize) -> Self {
        Arena {
            bump: bumpalo::Bump::with_capacity(bytes),
        }
    }

    /// The bytes the arena has taken from the allocator so far.
    pub fn allocated_bytes(&self) -> usize {
        self.bump.allocated_bytes()
    }

    /// Moves the items of `items` into the arena.
    pub(crate) fn slice<T, I>(&self, items: I) -> &[T]
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        self.bump.alloc_slice_fill_iter(items)
    }
}
