//! Every value of a blob handed to the caller as the one walk ([`crate::walk`]) reads
//! it, with no tree or tape in between: for a caller that builds values of its own (the
//! Python package's eager decode builds Python objects straight from the walk).
//!
//! [`visit_any`] reads what [`crate::view::OwnedView::decode_any`] reads (a `BINd` file
//! or a bare blob, every layer and serializer flag), with the same checks and errors, and
//! calls a [`Visitor`] in stream order: objects and lists open and close around their
//! properties and elements, every other value comes as one [`Item`] (the view's), named
//! by [`At`] as the view's properties are.

use crate::bits::BitReader;
use crate::deep;
use crate::types::{ClassDef, PropertyDef, TypeList};
use crate::value::{KeptZlib, Raw};
use crate::view::{Item, WStr};
use crate::walk::{self, layers, Fixed, Sink, Slot, Small, NO_DEF};
use crate::{bind, Options};
use gamewire_core::{Error, Result};

/// Where a value goes.
#[derive(Debug, Clone, Copy)]
pub enum At<'t> {
    /// The root object.
    Root,
    /// The value of a property of the enclosing object (of a container property: the
    /// container): its definition and its index in the object's class.
    Property(&'t PropertyDef, usize),
    /// The value of a property the enclosing object's class does not define (kept
    /// raw): its tag. [`crate::view::PropRef::def`] is `None` for the same values.
    Unknown(u32),
    /// An element of the enclosing list.
    Element,
}

/// What [`visit_any`] calls, in stream order. Values come only after the walk checked
/// them; the visitor builds, it checks nothing of the grammar.
///
/// A visitor that cannot go on (its own error) says so through [`Visitor::stopped`]:
/// the walk then ends with an error at the next close of an object or list, and the
/// visitor keeps its own error to report.
pub trait Visitor<'t> {
    /// An object of `class` begins; its properties follow, then [`Visitor::end_object`].
    fn begin_object(&mut self, at: At<'t>, class: &'t ClassDef);
    /// The object begun last ends.
    fn end_object(&mut self);
    /// A container begins: at most `room` elements follow (its declared count, bounded
    /// by what the bytes left can hold), then [`Visitor::end_list`].
    fn begin_list(&mut self, at: At<'t>, room: usize);
    /// The container begun last ends.
    fn end_list(&mut self);
    /// Any other value (never [`Item::Object`] or [`Item::List`]: those open and close).
    fn value(&mut self, at: At<'t>, item: Item<'_, '_, 't>);
    /// True when the visitor cannot go on: the walk stops with an error.
    fn stopped(&self) -> bool {
        false
    }
}

/// What lies around the root object (the root's `$` entries of the JSON mapping).
#[derive(Debug, Clone, Default)]
pub struct Visited {
    /// The data was a `BINd` file.
    pub bind: bool,
    /// The flags word, when the serializer was stateful.
    pub flags: Option<u32>,
    /// The zlib marker byte read under serializer flag 8.
    pub zlib_marker: Option<u8>,
    /// Non-zero padding bits met while aligning: (bit position, value).
    pub padding: Vec<(u64, u8)>,
    /// The whole bytes after the root object.
    pub trailing: Vec<u8>,
    /// The manual zlib framing's stream (when [`Options::manual_zlib`]).
    pub manual_zlib: Option<KeptZlib>,
    /// The stream behind serializer flag 8's marker.
    pub flag_zlib: Option<KeptZlib>,
}

/// The message of the error a walk ends with when its visitor stopped it.
pub const STOPPED: &str = "the visitor stopped the walk";

/// Walks `data` (a `BINd` file when it starts with the magic, else a bare blob read
/// with `opts`) into `visitor`, with the checks, limits and errors of
/// [`crate::view::OwnedView::decode_any`].
pub fn visit_any<'t, V: Visitor<'t>>(
    data: &[u8],
    types: &'t TypeList,
    opts: &Options,
    visitor: &mut V,
) -> Result<Visited> {
    if data.starts_with(bind::MAGIC) {
        let body = bind::body(data)?;
        let mut v = visit(body, types, &bind::options(opts), visitor)
            .map_err(|e| e.shift_offset(bind::MAGIC.len()))?;
        v.bind = true;
        Ok(v)
    } else {
        visit(data, types, opts, visitor)
    }
}

/// A bare blob into `visitor`.
fn visit<'t, V: Visitor<'t>>(
    data: &[u8],
    types: &'t TypeList,
    opts: &Options,
    visitor: &mut V,
) -> Result<Visited> {
    let u = layers::unwrap(data, opts, true)?;
    let stream = u.stream(data);
    let mut sink = Adapter {
        v: visitor,
        classes: Vec::new(),
    };
    let walked = walk::root(stream, u.base, types, opts, u.flags, &mut sink)?;
    Ok(Visited {
        bind: false,
        flags: u.flags_word,
        zlib_marker: u.zlib_marker,
        padding: walked.padding,
        trailing: walked.trailing.to_vec(),
        manual_zlib: u.manual_zlib,
        flag_zlib: u.flag_zlib,
    })
}

/// The walker's sink that names each slot and hands the visitor its items.
struct Adapter<'v, 't, V> {
    v: &'v mut V,
    /// The classes of the objects open now, innermost last.
    classes: Vec<&'t ClassDef>,
}

impl<'t, V: Visitor<'t>> Adapter<'_, 't, V> {
    /// Where the value of `slot` goes; `raw_hash`: the type hash of a value kept raw
    /// (a property kept raw with no type is [`At::Unknown`] even when its tag names one).
    #[inline(always)]
    fn at(&self, slot: Slot, raw_hash: Option<u32>) -> At<'t> {
        if slot.element {
            return At::Element;
        }
        let Some(class) = self.classes.last() else {
            return At::Root;
        };
        let def = match slot.def {
            NO_DEF => match raw_hash {
                Some(0) => None,
                _ => class.property_index(slot.tag, 0),
            },
            i => Some(usize::from(i)),
        };
        match def.and_then(|i| Some((class.properties.get(i)?, i))) {
            Some((p, i)) => At::Property(p, i),
            None => At::Unknown(slot.tag),
        }
    }

    #[inline(always)]
    fn item(&mut self, slot: Slot, item: Item<'_, '_, 't>) {
        let at = self.at(slot, None);
        self.v.value(at, item);
    }

    /// An error when the visitor stopped.
    #[inline(always)]
    fn go_on(&self) -> Result<()> {
        if self.v.stopped() {
            return Err(Error::msg(STOPPED));
        }
        Ok(())
    }
}

impl<'a, 't, V: Visitor<'t>> Sink<'a, 't> for Adapter<'_, 't, V> {
    type Open = ();
    type Mark = ();

    #[inline(always)]
    fn null(&mut self, slot: Slot) {
        self.item(slot, Item::Null);
    }

    #[inline(always)]
    fn begin_object(&mut self, slot: Slot, class: &'t ClassDef, _: usize) {
        let at = self.at(slot, None);
        self.v.begin_object(at, class);
        self.classes.push(class);
    }

    #[inline(always)]
    fn end_object(&mut self, _: (), _: &BitReader<'a>) -> Result<()> {
        self.classes.pop();
        self.v.end_object();
        self.go_on()
    }

    #[inline(always)]
    fn begin_list(&mut self, slot: Slot, _: usize, room: usize) {
        let at = self.at(slot, None);
        self.v.begin_list(at, room);
    }

    #[inline(always)]
    fn end_list(&mut self, _: (), _: &BitReader<'a>) -> Result<()> {
        self.v.end_list();
        self.go_on()
    }

    fn small_list(
        &mut self,
        slot: Slot,
        kind: Small,
        width: u32,
        first: usize,
        n: usize,
        data: &'a [u8],
    ) {
        let at = self.at(slot, None);
        self.v.begin_list(at, n);
        let mut r = BitReader::new(data, 0);
        r.skip_bits(first);
        // Checked by the walker: every element is in the stream.
        for _ in 0..n {
            let item = match kind {
                Small::Bools => Item::Bool(r.read_bit().unwrap_or(false)),
                Small::Ints => Item::Int(r.read_signed(width).unwrap_or(0)),
                Small::UInts => Item::UInt(r.read_bits(width).unwrap_or(0)),
            };
            self.v.value(At::Element, item);
        }
        self.v.end_list();
    }

    #[inline]
    fn raw(&mut self, slot: Slot, raw: Raw) {
        let at = self.at(slot, Some(raw.type_hash));
        self.v.value(at, Item::Raw(&raw));
    }

    #[inline(always)]
    fn bool(&mut self, slot: Slot, v: bool) {
        self.item(slot, Item::Bool(v));
    }

    #[inline(always)]
    fn int(&mut self, slot: Slot, v: i64) {
        self.item(slot, Item::Int(v));
    }

    #[inline(always)]
    fn uint(&mut self, slot: Slot, v: u64) {
        self.item(slot, Item::UInt(v));
    }

    #[inline(always)]
    fn float(&mut self, slot: Slot, v: f32) {
        self.item(slot, Item::Float(v));
    }

    #[inline(always)]
    fn double(&mut self, slot: Slot, v: f64) {
        self.item(slot, Item::Double(v));
    }

    #[inline(always)]
    fn enum_value(&mut self, slot: Slot, v: i64) {
        self.item(slot, Item::Enum(v));
    }

    #[inline(always)]
    fn string(&mut self, slot: Slot, _: usize, bytes: &'a [u8]) {
        self.item(slot, Item::String(bytes));
    }

    #[inline]
    fn wstring(&mut self, slot: Slot, _: usize, bytes: &'a [u8]) {
        self.item(slot, Item::WString(WStr(bytes)));
    }

    #[inline]
    fn enum_name(&mut self, slot: Slot, _: usize, text: &'a str) {
        self.item(slot, Item::EnumName(text));
    }

    #[inline]
    fn fixed(&mut self, slot: Slot, kind: Fixed, _: usize, b: &'a [u8]) {
        let item = fixed_item(kind, b);
        self.item(slot, item);
    }

    #[inline(always)]
    fn mark(&self, _: usize) {}
}

/// The item of a fixed-size struct's bytes (as many as `kind` takes), as the view
/// gives it.
fn fixed_item<'v, 'a, 't>(kind: Fixed, b: &'a [u8]) -> Item<'v, 'a, 't> {
    fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
        b[..N].try_into().expect("the walker hands N bytes")
    }
    match kind {
        Fixed::Color => Item::Color(arr(b)),
        Fixed::Vec3 => Item::Vec3(deep::f32s(&arr::<12>(b))),
        Fixed::Euler => Item::Euler(deep::f32s(&arr::<12>(b))),
        Fixed::Quat => Item::Quat(deep::f32s(&arr::<16>(b))),
        Fixed::Matrix => Item::Matrix(deep::f32s(&arr::<36>(b))),
        Fixed::PointInt => Item::PointInt(deep::i32s(&arr::<8>(b))),
        Fixed::PointUChar => Item::PointUChar(arr(b)),
        Fixed::PointUInt => {
            let a = deep::i32s::<2, 8>(&arr(b));
            Item::PointUInt([a[0] as u32, a[1] as u32])
        }
        Fixed::PointFloat => Item::PointFloat(deep::f32s(&arr::<8>(b))),
        Fixed::SizeInt => Item::SizeInt(deep::i32s(&arr::<8>(b))),
        Fixed::RectInt => Item::RectInt(deep::i32s(&arr::<16>(b))),
        Fixed::RectFloat => Item::RectFloat(deep::f32s(&arr::<16>(b))),
    }
}
