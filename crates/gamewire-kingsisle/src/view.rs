//! A borrowed, allocation-light reading of a blob: a tape of 16-byte nodes.
//!
//! [`View::decode`] reads the same bytes as [`crate::decode`], with the same checks and
//! the same errors (offset, path, message), but builds no owned tree: every object,
//! property and value becomes one node of a flat array, strings are borrowed from the
//! input (or from the caller's `scratch` buffer when the data is compressed), and
//! containers of 1..7-bit elements stay in the input and are read when visited. The
//! caller navigates it with [`View::root`], [`ObjectRef`], [`ListRef`] and [`Item`], or
//! turns it into the owned [`Document`] with [`View::to_document`].
//!
//! Memory: one allocation for the nodes (16 bytes per value), none per object or string.
//!
//! [`OwnedView`] keeps the nodes without the borrow: it owns the input (and the inflated
//! bytes of compressed data) and hands out views of itself; [`NodeId`]s name objects,
//! lists and elements across those views.

mod owned;
mod tape;
pub use owned::OwnedView;

use crate::bits::BitReader;
use crate::deep;
use crate::types::{ClassDef, PropertyDef, TypeList};
use crate::value::{Document, KeptZlib, Object, Raw, Value};
use crate::walk::{self, layers, NO_DEF};
use crate::{bind, Options};
use gamewire_core::{Error, Result};
use std::borrow::Cow;

/// What a node holds (`x` is its payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Op {
    Null,
    /// `x`: class index in the type list, then (high 32 bits) the index after its last property node.
    Object,
    /// `x`: element count, then (high 32 bits) the index after its last element node.
    List,
    /// A list of 1..7-bit elements left in the input: `x` is the bit position of the
    /// first element; the next node holds the count (`x`) and the width (`tag`).
    Bools,
    SmallInts,
    SmallUInts,
    Bool,
    Int,
    UInt,
    Float,
    Double,
    Enum,
    /// `x`: byte offset, then (high 32 bits) the byte length.
    Str,
    /// `x`: byte offset, then (high 32 bits) the number of UTF-16 units.
    WStr,
    /// `x`: byte offset, then (high 32 bits) the byte length (valid UTF-8).
    EnumName,
    /// Fixed-size leaf structs: `x` is the byte offset.
    Color,
    Vec3,
    Euler,
    Quat,
    Matrix,
    PointInt,
    PointUChar,
    PointUInt,
    PointFloat,
    SizeInt,
    RectInt,
    RectFloat,
    /// `x`: index into the view's raw blocks.
    Raw,
    /// The second node of a [`Op::Bools`], [`Op::SmallInts`] or [`Op::SmallUInts`] list:
    /// `x` the count, `tag` the width (never a value of its own).
    Count,
}

/// One value: the property tag it belongs to (0 for list elements and the root), what
/// it is, and its payload.
#[derive(Debug, Clone, Copy)]
struct Node {
    tag: u32,
    op: Op,
    /// The property's index in its class ([`NO_DEF`] for list elements, the root and
    /// raw properties).
    def: u16,
    x: u64,
}

const _: () = assert!(std::mem::size_of::<Node>() == 16);

#[inline]
fn pair(lo: usize, hi: usize) -> u64 {
    lo as u64 | ((hi as u64) << 32)
}

#[inline]
fn lo(x: u64) -> usize {
    (x & 0xFFFF_FFFF) as usize
}

#[inline]
fn hi(x: u64) -> usize {
    (x >> 32) as usize
}

/// A decoded blob, borrowed: its nodes, and the bytes they point into.
#[derive(Debug, Clone)]
pub struct View<'a, 't> {
    data: &'a [u8],
    types: &'t TypeList,
    // Borrowed when the view is one of an [`OwnedView`].
    nodes: Cow<'a, [Node]>,
    raws: Cow<'a, [Raw]>,
    flags: Option<u32>,
    zlib_marker: Option<u8>,
    padding: Cow<'a, [(u64, u8)]>,
    trailing: &'a [u8],
    bind: bool,
}

/// Where a view's bit stream lies, and the compressed streams it was inflated from
/// (what [`OwnedView`] keeps of a decode).
pub(crate) struct Located {
    /// `Some(at)`: the stream is the input from byte `at`; `None`: it is the scratch
    /// buffer from byte `scratch_at`.
    pub(crate) input_at: Option<usize>,
    pub(crate) scratch_at: usize,
    pub(crate) manual_zlib: Option<KeptZlib>,
    pub(crate) flag_zlib: Option<KeptZlib>,
    /// When asked for: the bits in the stream of each node's value (first bit, end).
    pub(crate) spans: Vec<[u64; 2]>,
}

/// A value of a view (an object, a list, a property or list element), named across the
/// views of one [`OwnedView`]: get it back with [`View::get`]. An id of another view
/// names another value there, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

/// The largest bit stream a view can point into (offsets are kept in 32 bits).
pub const MAX_STREAM: usize = u32::MAX as usize;

impl<'a, 't> View<'a, 't> {
    /// Reads one serialized object blob, as [`crate::decode`] does, into a view.
    ///
    /// When the data is compressed (manual framing or serializer flag 8), the inflated
    /// bytes are put in `scratch` and the view borrows them from there.
    pub fn decode(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
    ) -> Result<Self> {
        Self::decode_located(data, types, opts, scratch, false, false).map(|(v, _)| v)
    }

    /// [`View::decode`], also saying where the stream lies (and, when `keep_zlib`,
    /// copying the compressed streams as [`crate::decode`] keeps them; when `record`,
    /// the bits of every value, [`Located::spans`]).
    pub(crate) fn decode_located(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
        keep_zlib: bool,
        record: bool,
    ) -> Result<(Self, Located)> {
        // The layers, unwrapped as for every reader; the stream stays in the input or
        // moves to the caller's scratch buffer.
        let u = layers::unwrap(data, opts, keep_zlib)?;
        let mut located = Located {
            input_at: None,
            scratch_at: 0,
            manual_zlib: u.manual_zlib,
            flag_zlib: u.flag_zlib,
            spans: Vec::new(),
        };
        let (flags, base, at) = (u.flags, u.base, u.at);
        let stream: &'a [u8] = match u.inflated {
            Some(v) => {
                *scratch = v;
                located.scratch_at = at;
                &scratch[at..]
            }
            None => {
                located.input_at = Some(at);
                &data[at..]
            }
        };
        if stream.len() > MAX_STREAM {
            return Err(Error::msg(format!(
                "a view holds at most {MAX_STREAM} bytes of bit stream, this one has {}",
                stream.len()
            )));
        }
        let mut t = tape::Tape {
            // A hint: about one node per 4 bytes (untouched capacity costs no memory).
            nodes: Vec::with_capacity(stream.len() / 4 + 4),
            raws: Vec::new(),
            spans: record.then(Vec::new),
        };
        let walked = walk::root(stream, base, types, opts, flags, &mut t)?;
        if let Some(mut spans) = t.spans.take() {
            spans.resize(t.nodes.len(), [0, 0]);
            located.spans = spans;
        }
        Ok((
            View {
                data: stream,
                types,
                nodes: Cow::Owned(t.nodes),
                raws: Cow::Owned(t.raws),
                flags: u.flags_word,
                zlib_marker: u.zlib_marker,
                padding: Cow::Owned(walked.padding),
                trailing: walked.trailing,
                bind: false,
            },
            located,
        ))
    }

    /// Reads a `BINd` file (magic included), as [`bind::decode`] does, into a view.
    pub fn decode_bind(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
    ) -> Result<Self> {
        Self::decode_bind_located(data, types, opts, scratch, false, false).map(|(v, _)| v)
    }

    fn decode_bind_located(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
        keep_zlib: bool,
        record: bool,
    ) -> Result<(Self, Located)> {
        let body = bind::body(data)?;
        let (mut v, mut located) = Self::decode_located(
            body,
            types,
            &bind::options(opts),
            scratch,
            keep_zlib,
            record,
        )
        .map_err(|e| e.shift_offset(4))?;
        v.bind = true;
        located.input_at = located.input_at.map(|at| at + bind::MAGIC.len());
        Ok((v, located))
    }

    /// [`View::decode_any`] with [`Located`].
    pub(crate) fn decode_any_located(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
        keep_zlib: bool,
        record: bool,
    ) -> Result<(Self, Located)> {
        if data.starts_with(bind::MAGIC) {
            Self::decode_bind_located(data, types, opts, scratch, keep_zlib, record)
        } else {
            Self::decode_located(data, types, opts, scratch, keep_zlib, record)
        }
    }

    /// A `BINd` file when `data` starts with its magic, else a bare blob
    /// (as [`crate::inspect::decode_any`]).
    pub fn decode_any(
        data: &'a [u8],
        types: &'t TypeList,
        opts: &Options,
        scratch: &'a mut Vec<u8>,
    ) -> Result<Self> {
        if data.starts_with(bind::MAGIC) {
            Self::decode_bind(data, types, opts, scratch)
        } else {
            Self::decode(data, types, opts, scratch)
        }
    }

    /// The root object.
    pub fn root(&self) -> ObjectRef<'_, 'a, 't> {
        ObjectRef { view: self, at: 0 }
    }

    /// The number of nodes (values) in the tape.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The flags word read from the data when the serializer was stateful.
    pub fn flags(&self) -> Option<u32> {
        self.flags
    }

    /// The zlib marker byte read under serializer flag 8.
    pub fn zlib_marker(&self) -> Option<u8> {
        self.zlib_marker
    }

    /// Non-zero padding bits met while aligning: (bit position, value).
    pub fn padding(&self) -> &[(u64, u8)] {
        &self.padding
    }

    /// Whole bytes after the root object.
    pub fn trailing(&self) -> &'a [u8] {
        self.trailing
    }

    /// True when the view was read from a `BINd` file.
    pub fn is_bind(&self) -> bool {
        self.bind
    }

    /// The type list the view was read with.
    pub fn types(&self) -> &'t TypeList {
        self.types
    }

    /// How many values are bits kept raw (unknown types and properties).
    pub(crate) fn raw_count(&self) -> usize {
        self.raws.len()
    }

    /// The value named by `id` (see [`NodeId`]); `None` when this view has no value
    /// there.
    pub fn get(&self, id: NodeId) -> Option<Item<'_, 'a, 't>> {
        let at = id.0 as usize;
        match self.nodes.get(at)?.op {
            Op::Count => None,
            _ => Some(self.item(at)),
        }
    }

    /// The owned document of the same bytes ([`crate::decode`]'s result, except that
    /// the original zlib streams are not kept).
    pub fn to_document(&self) -> Document {
        Document {
            root: self.root().to_object(),
            flags: self.flags,
            zlib_marker: self.zlib_marker,
            padding: self.padding.to_vec(),
            trailing: self.trailing.to_vec(),
            bind: self.bind,
            manual_zlib: None,
            flag_zlib: None,
        }
    }

    #[inline]
    fn bytes(&self, x: u64, len: usize) -> &'a [u8] {
        let at = lo(x);
        &self.data[at..at + len]
    }

    #[inline]
    fn fixed<const N: usize>(&self, x: u64) -> [u8; N] {
        self.bytes(x, N).try_into().expect("N bytes")
    }

    /// The index after the subtree starting at `at`.
    #[inline]
    /// The node the JSON Pointer tokens `toks` (of the document's JSON, [`crate::json`])
    /// name, and what of it: for [`crate::span`].
    pub(crate) fn pointed(&self, toks: &[String]) -> std::result::Result<Pointed, String> {
        let mut at = 0;
        let mut own = true;
        let mut rest = toks;
        while let [tok, more @ ..] = rest {
            let n = self.nodes[at];
            match n.op {
                Op::Object => {
                    let class = &self.types.classes()[lo(n.x)];
                    if tok == "$hash" || tok == "$class" {
                        if !more.is_empty() {
                            break;
                        }
                        return Ok(Pointed::Hash(at, tok == "$hash"));
                    }
                    let (mut i, end) = (at + 1, hi(n.x));
                    let found = loop {
                        if i >= end {
                            break None;
                        }
                        let c = self.nodes[i];
                        let name = match c.def {
                            NO_DEF => class
                                .property_index(c.tag, 0)
                                .filter(|_| {
                                    c.op != Op::Raw || self.raws[c.x as usize].type_hash != 0
                                })
                                .map(|j| Cow::Borrowed(class.properties[j].name.as_str()))
                                .unwrap_or_else(|| Cow::Owned(format!("$prop:{}", c.tag))),
                            d => Cow::Borrowed(class.properties[usize::from(d)].name.as_str()),
                        };
                        if name == tok.as_str() {
                            break Some(i);
                        }
                        i = self.end(i);
                    };
                    at = found.ok_or_else(|| format!("the object has no {tok:?}"))?;
                }
                Op::List => {
                    let k: usize = tok
                        .parse()
                        .ok()
                        .filter(|&k| k < lo(n.x))
                        .ok_or_else(|| format!("no element {tok:?} of {}", lo(n.x)))?;
                    at += 1;
                    for _ in 0..k {
                        at = self.end(at);
                    }
                }
                Op::Bools | Op::SmallInts | Op::SmallUInts => {
                    let c = self.nodes[at + 1];
                    let k: u64 = tok
                        .parse()
                        .ok()
                        .filter(|&k| k < c.x && more.is_empty())
                        .ok_or_else(|| format!("no element {tok:?} of {}", c.x))?;
                    let w = u64::from(c.tag);
                    return Ok(Pointed::Bits(n.x + k * w, w));
                }
                // A part of a value read whole: the whole value's bits.
                op if parts(op).contains(&tok.as_str())
                    && match more {
                        [] => true,
                        // A matrix row's number, a non-finite float's bits.
                        [k] => {
                            (op == Op::Matrix && ["0", "1", "2"].contains(&k.as_str()))
                                || k == "$f32"
                        }
                        [k, f] => {
                            op == Op::Matrix && ["0", "1", "2"].contains(&k.as_str()) && f == "$f32"
                        }
                        _ => false,
                    } =>
                {
                    // A component of a fixed struct has bits of its own; a raw value's
                    // parts are the whole value's.
                    if let Some((first, count)) = part_bits(op, tok, more) {
                        return Ok(Pointed::Part(at, first, count));
                    }
                    own = false;
                }
                // The same value in another form (`{"$bytes": ..}`, `{"$f32": ..}`).
                Op::Str | Op::WStr | Op::Float | Op::Double
                    if more.is_empty()
                        && ["$bytes", "$utf16", "$f32", "$f64"].contains(&tok.as_str()) => {}
                _ => break,
            }
            rest = more;
            if !own {
                break;
            }
        }
        if !own || rest.is_empty() {
            return Ok(Pointed::Node(at, own));
        }
        Err(format!("no value {:?} inside", rest[0]))
    }

    fn end(&self, at: usize) -> usize {
        let n = self.nodes[at];
        match n.op {
            Op::Object | Op::List => hi(n.x),
            Op::Bools | Op::SmallInts | Op::SmallUInts => at + 2,
            _ => at + 1,
        }
    }

    fn item(&self, at: usize) -> Item<'_, 'a, 't> {
        let n = self.nodes[at];
        let x = n.x;
        match n.op {
            Op::Null => Item::Null,
            Op::Object => Item::Object(ObjectRef { view: self, at }),
            Op::List | Op::Bools | Op::SmallInts | Op::SmallUInts => {
                Item::List(ListRef { view: self, at })
            }
            Op::Bool => Item::Bool(x != 0),
            Op::Int => Item::Int(x as i64),
            Op::UInt => Item::UInt(x),
            Op::Float => Item::Float(f32::from_bits(x as u32)),
            Op::Double => Item::Double(f64::from_bits(x)),
            Op::Enum => Item::Enum(x as i64),
            Op::Str => Item::String(self.bytes(x, hi(x))),
            Op::WStr => Item::WString(WStr(self.bytes(x, 2 * hi(x)))),
            Op::EnumName => Item::EnumName(
                std::str::from_utf8(self.bytes(x, hi(x))).expect("checked when decoded"),
            ),
            Op::Color => Item::Color(self.fixed(x)),
            Op::Vec3 => Item::Vec3(deep::f32s(&self.fixed::<12>(x))),
            Op::Euler => Item::Euler(deep::f32s(&self.fixed::<12>(x))),
            Op::Quat => Item::Quat(deep::f32s(&self.fixed::<16>(x))),
            Op::Matrix => Item::Matrix(deep::f32s(&self.fixed::<36>(x))),
            Op::PointInt => Item::PointInt(deep::i32s(&self.fixed::<8>(x))),
            Op::PointUChar => Item::PointUChar(self.fixed(x)),
            Op::PointUInt => {
                let a = deep::i32s::<2, 8>(&self.fixed(x));
                Item::PointUInt([a[0] as u32, a[1] as u32])
            }
            Op::PointFloat => Item::PointFloat(deep::f32s(&self.fixed::<8>(x))),
            Op::SizeInt => Item::SizeInt(deep::i32s(&self.fixed::<8>(x))),
            Op::RectInt => Item::RectInt(deep::i32s(&self.fixed::<16>(x))),
            Op::RectFloat => Item::RectFloat(deep::f32s(&self.fixed::<16>(x))),
            Op::Raw => Item::Raw(&self.raws[x as usize]),
            Op::Count => Item::Null,
        }
    }
}

/// One value of a view, borrowed: scalars by value, strings and containers by reference.
#[derive(Debug, Clone, Copy)]
pub enum Item<'v, 'a, 't> {
    /// A null object pointer.
    Null,
    /// `bool`.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// An enum written as its value.
    Enum(i64),
    /// `std::string` bytes, borrowed from the input.
    String(&'a [u8]),
    /// `std::wstring`, borrowed from the input.
    WString(WStr<'a>),
    /// An enum written as names, borrowed from the input.
    EnumName(&'a str),
    /// `class Color`: b, g, r, a.
    Color([u8; 4]),
    /// `class Vector3D`.
    Vec3([f32; 3]),
    /// `class Euler`.
    Euler([f32; 3]),
    /// `class Quaternion`: w, x, y, z.
    Quat([f32; 4]),
    /// `class Matrix3x3`.
    Matrix([f32; 9]),
    /// `class Point<int>`.
    PointInt([i32; 2]),
    /// `class Point<unsigned char>`.
    PointUChar([u8; 2]),
    /// `class Point<unsigned int>`.
    PointUInt([u32; 2]),
    /// `class Point<float>`.
    PointFloat([f32; 2]),
    /// `class Size<int>`.
    SizeInt([i32; 2]),
    /// `class Rect<int>`.
    RectInt([i32; 4]),
    /// `class Rect<float>`.
    RectFloat([f32; 4]),
    /// A container property's elements.
    List(ListRef<'v, 'a, 't>),
    /// A nested object.
    Object(ObjectRef<'v, 'a, 't>),
    /// Bits of an unknown type or property, kept (deep mode with `skip_unknown`).
    Raw(&'v Raw),
}

impl Item<'_, '_, '_> {
    /// The owned value (as [`crate::decode`] builds it).
    pub fn to_value(&self) -> Value {
        match *self {
            Item::Null => Value::Null,
            Item::Bool(b) => Value::Bool(b),
            Item::Int(x) => Value::Int(x),
            Item::UInt(x) => Value::UInt(x),
            Item::Float(x) => Value::Float(x),
            Item::Double(x) => Value::Double(x),
            Item::Enum(x) => Value::Enum(x),
            Item::String(s) => Value::String(s.into()),
            Item::WString(w) => Value::WString(w.units().collect()),
            Item::EnumName(s) => Value::EnumName(s.to_owned()),
            Item::Color(a) => Value::Color(a),
            Item::Vec3(a) => Value::Vec3(a),
            Item::Euler(a) => Value::Euler(a),
            Item::Quat(a) => Value::Quat(a),
            Item::Matrix(a) => Value::Matrix(Box::new(a)),
            Item::PointInt(a) => Value::PointInt(a),
            Item::PointUChar(a) => Value::PointUChar(a),
            Item::PointUInt(a) => Value::PointUInt(a),
            Item::PointFloat(a) => Value::PointFloat(a),
            Item::SizeInt(a) => Value::SizeInt(a),
            Item::RectInt(a) => Value::RectInt(a),
            Item::RectFloat(a) => Value::RectFloat(a),
            Item::List(l) => l.to_value(),
            Item::Object(o) => Value::Object(o.to_object()),
            Item::Raw(r) => Value::Raw(Box::new(r.clone())),
        }
    }
}

/// A `std::wstring` borrowed from the input: UTF-16LE units, not necessarily valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WStr<'a>(pub(crate) &'a [u8]);

impl<'a> WStr<'a> {
    /// The UTF-16 code units.
    pub fn units(&self) -> impl Iterator<Item = u16> + 'a {
        self.0
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
    }

    /// The raw little-endian bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text, with invalid UTF-16 replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        char::decode_utf16(self.units())
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    }
}

/// An object of a view.
#[derive(Debug, Clone, Copy)]
pub struct ObjectRef<'v, 'a, 't> {
    view: &'v View<'a, 't>,
    at: usize,
}

/// One property of an object: its tag, its definition and its value.
#[derive(Debug, Clone, Copy)]
pub struct PropRef<'v, 'a, 't> {
    /// The property tag (hash).
    pub tag: u32,
    /// The definition in the type list (`None` for a property kept raw).
    pub def: Option<&'t PropertyDef>,
    /// The value.
    pub value: Item<'v, 'a, 't>,
}

impl<'v, 'a, 't> PropRef<'v, 'a, 't> {
    /// The property name (`None` for a property kept raw).
    pub fn name(&self) -> Option<&'t str> {
        self.def.map(|p| p.name.as_str())
    }
}

impl<'v, 'a, 't> ObjectRef<'v, 'a, 't> {
    /// The object's id (see [`NodeId`]).
    pub fn id(&self) -> NodeId {
        NodeId(self.at as u32)
    }

    /// The view the object belongs to.
    pub fn view(&self) -> &'v View<'a, 't> {
        self.view
    }

    /// The class hash.
    pub fn hash(&self) -> u32 {
        self.class().hash
    }

    /// The class (every object of a view has one).
    #[inline]
    pub fn class(&self) -> &'t ClassDef {
        &self.view.types.classes()[lo(self.view.nodes[self.at].x)]
    }

    /// Visits every property and value below this object, as a caller reading the whole
    /// file does, and gives a count that depends on all of them (so none is skipped by
    /// the optimiser): what `gamewire bench kingsisle --view` and the profile example
    /// time as "view, every value visited".
    pub fn visit_all(&self) -> u64 {
        fn item(i: Item<'_, '_, '_>) -> u64 {
            match i {
                Item::Object(o) => o.visit_all(),
                Item::List(l) => l.iter().map(item).sum::<u64>() + 1,
                Item::String(s) => s.len() as u64,
                Item::Int(x) => x as u64 & 1,
                Item::UInt(x) => x & 1,
                _ => 1,
            }
        }
        self.properties()
            .map(|p| item(p.value) + u64::from(p.def.is_some()))
            .sum::<u64>()
            + 1
    }

    /// The properties in wire order.
    pub fn properties(&self) -> Props<'v, 'a, 't> {
        Props {
            view: self.view,
            class: self.class(),
            at: self.at + 1,
            end: hi(self.view.nodes[self.at].x),
        }
    }

    /// The number of properties.
    pub fn len(&self) -> usize {
        self.properties().count()
    }

    /// True when the object has no properties.
    pub fn is_empty(&self) -> bool {
        self.at + 1 == hi(self.view.nodes[self.at].x)
    }

    /// The value of the property with tag `tag`.
    pub fn get(&self, tag: u32) -> Option<Item<'v, 'a, 't>> {
        self.properties().find(|p| p.tag == tag).map(|p| p.value)
    }

    /// The value of the property named `name`.
    pub fn get_named(&self, name: &str) -> Option<Item<'v, 'a, 't>> {
        let (_, def) = self.class().property_by_name(name)?;
        self.get(def.hash)
    }

    /// The owned object.
    pub fn to_object(&self) -> Object {
        Object::new(
            self.hash(),
            self.properties()
                .map(|p| (p.tag, p.value.to_value()))
                .collect(),
        )
    }
}

/// The properties of an object, in wire order.
#[derive(Debug, Clone)]
pub struct Props<'v, 'a, 't> {
    view: &'v View<'a, 't>,
    class: &'t ClassDef,
    at: usize,
    end: usize,
}

impl<'v, 'a, 't> Iterator for Props<'v, 'a, 't> {
    type Item = PropRef<'v, 'a, 't>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.end {
            return None;
        }
        let at = self.at;
        let n = self.view.nodes[at];
        self.at = self.view.end(at);
        let tag = n.tag;
        let def = match n.def {
            NO_DEF => match n.op {
                Op::Raw if self.view.raws[n.x as usize].type_hash == 0 => None,
                _ => self
                    .class
                    .property_index(tag, 0)
                    .map(|i| &self.class.properties[i]),
            },
            i => self.class.properties.get(usize::from(i)),
        };
        Some(PropRef {
            tag,
            def,
            value: self.view.item(at),
        })
    }
}

/// A container value of a view.
#[derive(Debug, Clone, Copy)]
pub struct ListRef<'v, 'a, 't> {
    view: &'v View<'a, 't>,
    at: usize,
}

impl<'v, 'a, 't> ListRef<'v, 'a, 't> {
    /// The list's id (see [`NodeId`]).
    pub fn id(&self) -> NodeId {
        NodeId(self.at as u32)
    }

    /// The view the list belongs to.
    pub fn view(&self) -> &'v View<'a, 't> {
        self.view
    }

    /// The ids of the elements, in order, for direct access with [`View::get`]; `None`
    /// for a list of 1..7-bit elements, which are read from the input
    /// ([`ListRef::get`] reaches any of those at once).
    pub fn element_ids(&self) -> Option<Vec<NodeId>> {
        if self.view.nodes[self.at].op != Op::List {
            return None;
        }
        let mut ids = Vec::with_capacity(self.len());
        let mut at = self.at + 1;
        for _ in 0..self.len() {
            ids.push(NodeId(at as u32));
            at = self.view.end(at);
        }
        Some(ids)
    }

    /// Element `i`: at once for a list of 1..7-bit elements, after skipping `i`
    /// elements otherwise.
    pub fn get(&self, i: usize) -> Option<Item<'v, 'a, 't>> {
        if i >= self.len() {
            return None;
        }
        let n = self.view.nodes[self.at];
        if n.op == Op::List {
            return self.iter().nth(i);
        }
        let width = self.view.nodes[self.at + 1].tag as usize;
        let mut e = self.iter();
        if let Some((r, _, _)) = &mut e.bits {
            r.skip_bits(i * width);
        }
        e.next()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        let n = self.view.nodes[self.at];
        match n.op {
            Op::List => lo(n.x),
            _ => self.view.nodes[self.at + 1].x as usize,
        }
    }

    /// True when the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements in order.
    pub fn iter(&self) -> Elements<'v, 'a, 't> {
        let n = self.view.nodes[self.at];
        let (at, bits) = match n.op {
            Op::List => (self.at + 1, None),
            _ => {
                let mut r = BitReader::new(self.view.data, 0);
                r.skip_bits(n.x as usize);
                (0, Some((r, self.view.nodes[self.at + 1].tag, n.op)))
            }
        };
        Elements {
            view: self.view,
            at,
            left: self.len(),
            bits,
        }
    }

    /// The owned value: [`Value::List`], or the compact list [`crate::decode`] builds
    /// for elements of a few bits.
    pub fn to_value(&self) -> Value {
        match self.view.nodes[self.at].op {
            Op::Bools => Value::Bools(self.iter().map(|i| matches!(i, Item::Bool(true))).collect()),
            Op::SmallInts => Value::SmallInts(
                self.iter()
                    .map(|i| match i {
                        Item::Int(x) => x as i8,
                        _ => 0,
                    })
                    .collect(),
            ),
            Op::SmallUInts => Value::SmallUInts(
                self.iter()
                    .map(|i| match i {
                        Item::UInt(x) => x as u8,
                        _ => 0,
                    })
                    .collect(),
            ),
            _ => Value::List(self.iter().map(|i| i.to_value()).collect()),
        }
    }
}

/// The elements of a list.
#[derive(Debug, Clone)]
pub struct Elements<'v, 'a, 't> {
    view: &'v View<'a, 't>,
    at: usize,
    left: usize,
    /// For lists of 1..7-bit elements: a reader at the next element, the width, the op.
    bits: Option<(BitReader<'a>, u32, Op)>,
}

impl<'v, 'a, 't> Iterator for Elements<'v, 'a, 't> {
    type Item = Item<'v, 'a, 't>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if let Some((r, width, op)) = &mut self.bits {
            // Checked when decoded: every element is in the input.
            return Some(match op {
                Op::Bools => Item::Bool(r.read_bit().unwrap_or(false)),
                Op::SmallInts => Item::Int(r.read_signed(*width).unwrap_or(0)),
                _ => Item::UInt(r.read_bits(*width).unwrap_or(0)),
            });
        }
        let at = self.at;
        self.at = self.view.end(at);
        Some(self.view.item(at))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// The keys of the JSON of a value read whole ([`crate::json`]): its parts.
fn parts(op: Op) -> &'static [&'static str] {
    match op {
        Op::Color => &["r", "g", "b", "a"],
        Op::Vec3 => &["x", "y", "z"],
        Op::Euler => &["pitch", "yaw", "roll"],
        Op::Quat => &["x", "y", "z", "w"],
        Op::Matrix => &["i", "j", "k"],
        Op::PointInt | Op::PointUChar | Op::PointUInt | Op::PointFloat => &["x", "y"],
        Op::SizeInt => &["width", "height"],
        Op::RectInt | Op::RectFloat => &["left", "top", "right", "bottom"],
        Op::Raw => &["$hash", "$bits", "$raw"],
        _ => &[],
    }
}

/// Where the component `tok` (and, in a matrix row, the number `more[0]`) of a fixed
/// struct read whole by `op` lies in its bits: the first bit from the value's start and
/// how many. Components are in wire order (a `Color` is b, g, r, a; a `Quaternion` w, x,
/// y, z); a non-finite float's `$f32` is the float's bits.
fn part_bits(op: Op, tok: &str, more: &[String]) -> Option<(u64, u64)> {
    let (wire, width): (&[&str], u64) = match op {
        Op::Color => (&["b", "g", "r", "a"], 8),
        Op::Vec3 => (&["x", "y", "z"], 32),
        Op::Euler => (&["pitch", "yaw", "roll"], 32),
        Op::Quat => (&["w", "x", "y", "z"], 32),
        Op::Matrix => (&["i", "j", "k"], 96),
        Op::PointUChar => (&["x", "y"], 8),
        Op::PointInt | Op::PointUInt | Op::PointFloat => (&["x", "y"], 32),
        Op::SizeInt => (&["width", "height"], 32),
        Op::RectInt | Op::RectFloat => (&["left", "top", "right", "bottom"], 32),
        _ => return None,
    };
    let first = wire.iter().position(|p| *p == tok)? as u64 * width;
    match (op, more.first().map(String::as_str)) {
        (Op::Matrix, Some(k @ ("0" | "1" | "2"))) => {
            Some((first + k.parse::<u64>().ok()? * 32, 32))
        }
        _ => Some((first, width)),
    }
}

/// What a JSON Pointer names in a view, for [`crate::span`].
pub(crate) enum Pointed {
    /// A component of a fixed struct at a node: its first bit from the value's start,
    /// and how many (a `Color`'s `r`, a `Vector3D`'s `x`).
    Part(usize, u64, u64),
    /// The value of a node (and whether the value is the pointer's own, not a part of it).
    Node(usize, bool),
    /// The type hash of the object at a node (own for `$hash`, not for `$class`).
    Hash(usize, bool),
    /// Bits in the stream: the first, and how many (an element of a small list).
    Bits(u64, u64),
}
