//! [`OwnedView`]: a view's nodes kept with the bytes they point into, with no borrow.

use super::{Located, Node, View};
use crate::value::{Document, KeptZlib, Raw};
use crate::{Options, TypeList};
use gamewire_core::Result;
use std::borrow::Cow;

/// Where the bit stream lies.
#[derive(Debug, Clone)]
enum Stream {
    /// In the input, from this byte.
    Input(usize),
    /// In bytes inflated from the input (compressed data), from this byte.
    Inflated(Vec<u8>, usize),
}

/// A decoded blob that owns its input, its type list and its nodes: [`OwnedView::view`]
/// re-attaches the nodes to the bytes as a [`View`] (a few words copied, nothing
/// decoded again). For holding a view where a borrow cannot live, e.g. in objects of
/// another language; values are named across views by [`super::NodeId`].
///
/// `B` is the input (anything that gives bytes: `Vec<u8>`, `Arc<[u8]>`, ...), `T` the
/// type list (`TypeList`, `Arc<TypeList>`, ...).
#[derive(Debug, Clone)]
pub struct OwnedView<B, T> {
    data: B,
    types: T,
    stream: Stream,
    nodes: Vec<Node>,
    raws: Vec<Raw>,
    flags: Option<u32>,
    zlib_marker: Option<u8>,
    padding: Vec<(u64, u8)>,
    trailing_len: usize,
    bind: bool,
    manual_zlib: Option<KeptZlib>,
    flag_zlib: Option<KeptZlib>,
}

impl<B: AsRef<[u8]>, T: AsRef<TypeList>> OwnedView<B, T> {
    /// Reads `data` as [`View::decode_any`] does (a `BINd` file when it starts with the
    /// magic, else a bare blob), with the same checks and errors, and keeps it.
    pub fn decode_any(data: B, types: T, opts: &Options) -> Result<Self> {
        Self::decode_any_with(data, types, opts, true, false).map(|(v, _)| v)
    }

    /// [`OwnedView::decode_any`], keeping the zlib streams when `keep_zlib`, and with
    /// each node's bits in the stream when `record` (for [`crate::span`]).
    pub(crate) fn decode_any_with(
        data: B,
        types: T,
        opts: &Options,
        keep_zlib: bool,
        record: bool,
    ) -> Result<(Self, Vec<[u64; 2]>)> {
        let mut scratch = Vec::new();
        let (parts, located) = {
            let (v, located) = View::decode_any_located(
                data.as_ref(),
                types.as_ref(),
                opts,
                &mut scratch,
                keep_zlib,
                record,
            )?;
            let trailing_len = v.trailing.len();
            let parts = (
                v.nodes.into_owned(),
                v.raws.into_owned(),
                v.flags,
                v.zlib_marker,
                v.padding.into_owned(),
                trailing_len,
                v.bind,
            );
            (parts, located)
        };
        let (nodes, raws, flags, zlib_marker, padding, trailing_len, bind) = parts;
        let Located {
            input_at,
            scratch_at,
            manual_zlib,
            flag_zlib,
            spans,
        } = located;
        let stream = match input_at {
            Some(at) => Stream::Input(at),
            None => Stream::Inflated(scratch, scratch_at),
        };
        let owned = OwnedView {
            data,
            types,
            stream,
            nodes,
            raws,
            flags,
            zlib_marker,
            padding,
            trailing_len,
            bind,
            manual_zlib,
            flag_zlib,
        };
        Ok((owned, spans))
    }

    /// Where the bit stream is: `Some(at)` when it is the input from byte `at`, `None`
    /// when it was inflated; the bytes it lies in (the input or the inflated data), and
    /// its first byte there.
    pub(crate) fn stream(&self) -> (Option<usize>, &[u8], usize) {
        match &self.stream {
            Stream::Input(at) => (Some(*at), self.data.as_ref(), *at),
            Stream::Inflated(v, at) => (None, v, *at),
        }
    }

    /// The view of the kept bytes.
    pub fn view(&self) -> View<'_, '_> {
        let data: &[u8] = match &self.stream {
            Stream::Input(at) => &self.data.as_ref()[*at..],
            Stream::Inflated(v, at) => &v[*at..],
        };
        View {
            data,
            types: self.types.as_ref(),
            nodes: Cow::Borrowed(&self.nodes),
            raws: Cow::Borrowed(&self.raws),
            flags: self.flags,
            zlib_marker: self.zlib_marker,
            padding: Cow::Borrowed(&self.padding),
            trailing: &data[data.len() - self.trailing_len..],
            bind: self.bind,
        }
    }

    /// The input, as given.
    pub fn data(&self) -> &B {
        &self.data
    }

    /// The type list, as given.
    pub fn types(&self) -> &T {
        &self.types
    }

    /// The manual zlib framing's stream (when [`Options::manual_zlib`]), as
    /// [`crate::decode`] keeps it in [`Document::manual_zlib`].
    pub fn manual_zlib(&self) -> Option<&KeptZlib> {
        self.manual_zlib.as_ref()
    }

    /// The stream behind serializer flag 8's marker, as [`Document::flag_zlib`].
    pub fn flag_zlib(&self) -> Option<&KeptZlib> {
        self.flag_zlib.as_ref()
    }

    /// The owned document, equal to [`crate::decode`]'s (the zlib streams included).
    pub fn to_document(&self) -> Document {
        let mut doc = self.view().to_document();
        doc.manual_zlib = self.manual_zlib.clone();
        doc.flag_zlib = self.flag_zlib.clone();
        doc
    }
}
