//! A decoded file that owns its tree: [`Decoded`].
//!
//! [`crate::decode`] reads the document into an [`Arena`] (its documents' entries and its
//! arrays' items) borrowing keys, strings and binary data from the BSON bytes, the
//! fastest tree this crate builds ([`crate::read_bson_in`]). The [`Decoded`] it returns
//! owns both, the bytes (decompressed, or copied once from a stored file) and the arena,
//! beside the [`Document`] that borrows them: a self-referential value, built without
//! `unsafe` in this crate by the `self_cell` crate (one small allocation holds the three
//! together, so moving a `Decoded` moves a pointer).
//!
//! A `Decoded` is also made from an owned document ([`Decoded::new`]: from JSON, built by
//! hand). Reading goes through [`Decoded::document`]; editing through
//! [`Decoded::edit`] (in place: a list of the arena is copied out only where it is
//! changed, [`Seq::to_mut`](crate::Seq::to_mut)), [`Decoded::document_mut`] (the whole
//! tree made owned first, then a `&mut Document<'static>`), or
//! [`Decoded::into_document`].
//!
//! ```
//! use gamewire_resonite::{decode, encode, Compression, Decoded, Document, EncodeOptions, Options, Seq, Value};
//! let mut doc = Document::new();
//! doc.push("Slots", Value::Array(vec![Value::Int32(1), Value::Int32(2)].into()));
//! let bytes = encode(&doc, &EncodeOptions::new(Compression::Lz4)).unwrap();
//! let mut back = decode(&bytes, None, &Options::default()).unwrap();
//! assert_eq!(back.document(), &doc);
//! // Read into the arena: the entries are a borrowed slice.
//! assert!(matches!(back.document().entries, Seq::Borrowed(_)));
//! back.edit(|d| d.push("Name", Value::String("root".into())));
//! assert_eq!(back.document().len(), 2);
//! let same = Decoded::new(back.container, back.into_document());
//! assert_eq!(same.document().get("Name").and_then(|v| v.as_str()), Some("root"));
//! ```

use crate::arena::Arena;
use crate::container::Container;
use crate::value::Document;
use gamewire_core::Result;
use std::fmt;

/// What a document read by [`crate::decode`] borrows: its BSON bytes and its arena.
struct Backing {
    bson: Vec<u8>,
    arena: Arena,
}

self_cell::self_cell!(
    /// The BSON bytes and arena, and the document read from them.
    struct ArenaTree {
        owner: Backing,
        #[covariant]
        dependent: Document,
    }
);

enum Tree {
    /// Read by [`crate::decode`]: borrows from its own bytes and arena.
    Arena(ArenaTree),
    /// Built from an owned document, or made owned to be edited.
    Owned(Document<'static>),
}

/// A decoded file: its container and its root document, which it owns.
///
/// The document [`crate::decode`] reads borrows from bytes and an arena kept inside
/// the `Decoded` (see the [module](self)); one made with [`Decoded::new`] is an owned
/// tree. Both read the same through [`Decoded::document`].
///
/// A `Decoded` is `Send` but not `Sync`: the arena (bumpalo's) may not be shared between
/// threads. To share a tree, share an owned one ([`Decoded::into_document`]).
pub struct Decoded {
    /// Header or legacy, and the compression.
    pub container: Container,
    tree: Tree,
}

impl Decoded {
    /// A decoded file from an owned document (read from JSON, built by hand).
    pub fn new(container: Container, document: Document<'static>) -> Self {
        Decoded {
            container,
            tree: Tree::Owned(document),
        }
    }

    /// Reads `bson` (unpacked from a file of `file_len` bytes in `container`) into an
    /// arena, both kept with the document; errors as [`crate::read_unpacked`]'s.
    pub(crate) fn read(
        file_len: usize,
        container: Container,
        bson: Vec<u8>,
        opts: &crate::Options,
    ) -> Result<Self> {
        let backing = Backing {
            bson,
            arena: Arena::new(),
        };
        let tree = ArenaTree::try_new(backing, |b| {
            crate::read_unpacked_in(file_len, &container, &b.bson, &b.arena, opts)
        })?;
        Ok(Decoded {
            container,
            tree: Tree::Arena(tree),
        })
    }

    /// The root document, to read.
    pub fn document(&self) -> &Document<'_> {
        match &self.tree {
            Tree::Arena(t) => t.borrow_dependent(),
            Tree::Owned(d) => d,
        }
    }

    /// Calls `f` with the root document to edit it in place. Values put in must own
    /// their text (or borrow it for `'static`); lists read into the arena are copied
    /// out only where they are changed ([`Seq::to_mut`](crate::Seq::to_mut)), the rest
    /// of the tree stays where it was read.
    pub fn edit<R>(&mut self, f: impl for<'a> FnOnce(&mut Document<'a>) -> R) -> R {
        match &mut self.tree {
            Tree::Arena(t) => t.with_dependent_mut(|_, d| f(d)),
            Tree::Owned(d) => f(d),
        }
    }

    /// The root document as an owned tree to edit freely: a document read into the
    /// arena is copied out first, once (every string and list; the bytes and the arena
    /// are then freed).
    pub fn document_mut(&mut self) -> &mut Document<'static> {
        if let Tree::Arena(t) = &self.tree {
            let owned = t.borrow_dependent().clone().into_owned();
            self.tree = Tree::Owned(owned);
        }
        match &mut self.tree {
            Tree::Owned(d) => d,
            Tree::Arena(_) => unreachable!("made owned above"),
        }
    }

    /// The root document as an owned tree (copied out of the arena if read into one).
    pub fn into_document(self) -> Document<'static> {
        match self.tree {
            Tree::Arena(t) => t.borrow_dependent().clone().into_owned(),
            Tree::Owned(d) => d,
        }
    }

    /// The BSON bytes the document was read from, when it was read by
    /// [`crate::decode`] (decompressed); `None` for a document made with
    /// [`Decoded::new`] or [`Decoded::document_mut`].
    pub fn bson(&self) -> Option<&[u8]> {
        match &self.tree {
            Tree::Arena(t) => Some(&t.borrow_owner().bson),
            Tree::Owned(_) => None,
        }
    }

    /// The bytes the arena holding the document's lists has taken (0 for an owned
    /// document).
    pub fn arena_bytes(&self) -> usize {
        match &self.tree {
            Tree::Arena(t) => t.borrow_owner().arena.allocated_bytes(),
            Tree::Owned(_) => 0,
        }
    }
}

impl Clone for Decoded {
    /// An owned copy of the document (every string and list copied).
    fn clone(&self) -> Self {
        Decoded::new(self.container, self.document().clone().into_owned())
    }
}

impl PartialEq for Decoded {
    /// The same container and the same document, wherever each is kept.
    fn eq(&self, other: &Self) -> bool {
        self.container == other.container && self.document() == other.document()
    }
}

impl fmt::Debug for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoded")
            .field("container", &self.container)
            .field("document", self.document())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Regex, Seq, Value};
    use crate::{decode, encode, Compression, EncodeOptions, Options};

    fn sample() -> Document<'static> {
        let mut inner = Document::new();
        inner.push("ID", Value::String("slot-1".into()));
        inner.push("Name", Value::String("Root".into()));
        let mut doc = Document::new();
        doc.push("VersionNumber", Value::String("2024.1.1.1".into()));
        doc.push("Object", Value::Document(inner));
        doc.push(
            "Types",
            Value::Array(vec![Value::String("A".into()), Value::Int64(7)].into()),
        );
        doc
    }

    fn decoded(doc: &Document<'_>, c: Compression) -> Decoded {
        let bytes = encode(doc, &EncodeOptions::new(c)).unwrap();
        decode(&bytes, None, &Options::default()).unwrap()
    }

    #[test]
    fn edits_in_place_copy_only_the_lists_changed() {
        for c in [Compression::None, Compression::Lz4] {
            let mut d = decoded(&sample(), c);
            d.edit(|doc| {
                let Some((_, Value::Document(o))) = doc.entries.to_mut().get_mut(1) else {
                    panic!("Object")
                };
                o.push("Active", Value::Bool(true));
            });
            let doc = d.document();
            // The root and "Object" were changed: owned now; "Types" is still in the arena.
            assert!(matches!(doc.entries, Seq::Owned(_)));
            assert!(matches!(
                doc.get("Object").unwrap().as_document().unwrap().entries,
                Seq::Owned(_)
            ));
            assert!(matches!(
                doc.get("Types"),
                Some(Value::Array(Seq::Borrowed(_)))
            ));
            let mut want = sample();
            let Some((_, Value::Document(o))) = want.entries.to_mut().get_mut(1) else {
                panic!("Object")
            };
            o.push("Active", Value::Bool(true));
            assert_eq!(*d.document(), want);
            // Still the bytes it was read from.
            assert!(d.bson().is_some());
        }
    }

    #[test]
    fn document_mut_and_into_document_give_owned_trees() {
        let mut d = decoded(&sample(), Compression::Brotli);
        assert!(d.arena_bytes() > 0);
        d.document_mut()
            .push("Extra", Value::String(String::from("x").into()));
        assert_eq!(d.bson(), None);
        assert_eq!(d.arena_bytes(), 0);
        assert_eq!(d.document().len(), 4);
        let owned: Document<'static> = decoded(&sample(), Compression::Lz4).into_document();
        assert!(matches!(owned.entries, Seq::Owned(_)));
        assert_eq!(owned, sample());
    }

    #[test]
    fn new_clone_and_eq_compare_trees_wherever_kept() {
        let d = decoded(&sample(), Compression::Lzma);
        let copy = d.clone();
        assert_eq!(copy.bson(), None, "a clone is an owned tree");
        assert_eq!(copy, d);
        let made = Decoded::new(d.container, sample());
        assert_eq!(made, d);
        let other = Decoded::new(d.container, Document::new());
        assert_ne!(other, d);
        assert!(format!("{d:?}").contains("2024.1.1.1"));
    }

    #[test]
    fn is_send() {
        // Moved to another thread (Python releases the GIL around decode; a server
        // hands files to workers).
        fn send<T: Send>(_: T) {}
        send(decoded(&sample(), Compression::None));
        let d = decoded(&sample(), Compression::Lz4);
        let n = std::thread::spawn(move || d.document().len())
            .join()
            .unwrap();
        assert_eq!(n, 3);
    }

    #[test]
    fn a_list_holding_a_boxed_value_stays_a_vector() {
        // The arena runs no destructors: a regex (boxed) and the lists around it are
        // vectors; the lists beside them are in the arena.
        let mut doc = sample();
        let re = Value::Regex(Box::new(Regex {
            pattern: "a+".into(),
            options: "i".into(),
        }));
        doc.push("Rare", Value::Array(vec![re].into()));
        let d = decoded(&doc, Compression::None);
        assert_eq!(*d.document(), doc);
        assert!(matches!(d.document().entries, Seq::Owned(_)));
        assert!(matches!(
            d.document().get("Rare"),
            Some(Value::Array(Seq::Owned(_)))
        ));
        assert!(matches!(
            d.document().get("Types"),
            Some(Value::Array(Seq::Borrowed(_)))
        ));
    }
}
