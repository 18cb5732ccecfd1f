//! What the walker hands its findings to: the [`Sink`] trait, the [`Slot`] a value
//! fills, and [`Check`], the sink that keeps nothing (validation).

use crate::bits::BitReader;
use crate::types::ClassDef;
use crate::value::Raw;
use gamewire_core::Result;

/// Where a value goes: the property tag it is the value of (0 for a list element and
/// the root), the property's index in its class ([`NO_DEF`] for list elements, the
/// root and properties kept raw), and whether it is an element of a container.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    /// The property tag (hash), 0 when the value is no property's.
    pub tag: u32,
    /// The property's index in its class, or [`NO_DEF`].
    pub def: u16,
    /// True for an element of a container (between `begin_list` and `end_list`).
    pub element: bool,
}

/// [`Slot::def`] of a value that is not a property, or whose index does not fit.
pub(crate) const NO_DEF: u16 = u16::MAX;

impl Slot {
    /// The slot of the root object.
    pub(crate) const ROOT: Slot = Slot {
        tag: 0,
        def: NO_DEF,
        element: false,
    };
    /// The slot of an element of a container.
    pub(crate) const ELEMENT: Slot = Slot {
        tag: 0,
        def: NO_DEF,
        element: true,
    };

    /// The slot of a property: its tag and its index in its class.
    #[inline(always)]
    pub(crate) fn property(tag: u32, def: u16) -> Slot {
        Slot {
            tag,
            def,
            element: false,
        }
    }
}

/// A fixed-size struct read whole (its bytes, aligned, come with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fixed {
    /// `class Color`: 4 bytes.
    Color,
    /// `class Vector3D`: 12 bytes.
    Vec3,
    /// `class Euler`: 12 bytes.
    Euler,
    /// `class Quaternion`: 16 bytes.
    Quat,
    /// `class Matrix3x3`: 36 bytes.
    Matrix,
    /// `class Point<int>`: 8 bytes.
    PointInt,
    /// `class Size<int>`: 8 bytes.
    SizeInt,
    /// `class Rect<int>`: 16 bytes.
    RectInt,
    /// `class Point<unsigned char>`: 2 bytes.
    PointUChar,
    /// `class Point<unsigned int>`: 8 bytes.
    PointUInt,
    /// `class Point<float>`: 8 bytes.
    PointFloat,
    /// `class Rect<float>`: 16 bytes.
    RectFloat,
}

/// A container of elements of a few bits, left in the stream by the walker (checked to
/// be there): `bool`s, or signed or unsigned integers of 1..=7 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Small {
    /// One bit each.
    Bools,
    /// Signed, `width` bits each.
    Ints,
    /// Unsigned, `width` bits each.
    UInts,
}

/// What the walker reports, in stream order. Every method is called only after the
/// walker checked what it hands over; a sink builds, it checks nothing of the grammar.
///
/// Objects and lists open with `begin_*`, which returns what the sink needs to close
/// them (`Self::Open`), and close with `end_*` after their properties or elements.
pub(crate) trait Sink<'a, 't> {
    /// What a sink keeps from the opening of an object or a list until its end.
    type Open;
    /// What a sink notes at the start of a value (for the bits of each value).
    type Mark: Copy;

    /// A null object pointer (type hash 0).
    fn null(&mut self, slot: Slot);
    /// An object of `class` (at `index` in the type list) begins.
    fn begin_object(&mut self, slot: Slot, class: &'t ClassDef, index: usize) -> Self::Open;
    /// The object begun with `open` ends (`r`: the reader there, for errors).
    fn end_object(&mut self, open: Self::Open, r: &BitReader<'a>) -> Result<()>;
    /// A container of `n` elements (values of their own) begins; `room`: how many of
    /// them the bits left can hold (at most `n`; memory in proportion to the input).
    fn begin_list(&mut self, slot: Slot, n: usize, room: usize) -> Self::Open;
    /// The container begun with `open` ends.
    fn end_list(&mut self, open: Self::Open, r: &BitReader<'a>) -> Result<()>;
    /// A container of `n` elements of `width` bits each, from bit `first` of `data` (the
    /// stream; every element is there).
    fn small_list(
        &mut self,
        slot: Slot,
        kind: Small,
        width: u32,
        first: usize,
        n: usize,
        data: &'a [u8],
    );
    /// Bits kept raw: an object of an unknown type or a property unknown to its class.
    fn raw(&mut self, slot: Slot, raw: Raw);
    /// A `bool`.
    fn bool(&mut self, slot: Slot, v: bool);
    /// A signed integer.
    fn int(&mut self, slot: Slot, v: i64);
    /// An unsigned integer.
    fn uint(&mut self, slot: Slot, v: u64);
    /// A `float`.
    fn float(&mut self, slot: Slot, v: f32);
    /// A `double`.
    fn double(&mut self, slot: Slot, v: f64);
    /// An enum written as its value.
    fn enum_value(&mut self, slot: Slot, v: i64);
    /// A `std::string`: its bytes, from byte `at` of the stream.
    fn string(&mut self, slot: Slot, at: usize, bytes: &'a [u8]);
    /// A `std::wstring`: its UTF-16LE bytes (an even number), from byte `at`.
    fn wstring(&mut self, slot: Slot, at: usize, bytes: &'a [u8]);
    /// An enum written as names, not as the encoder writes its value: the text (valid
    /// UTF-8), from byte `at`.
    fn enum_name(&mut self, slot: Slot, at: usize, text: &'a str);
    /// A fixed-size struct: its bytes (as many as `kind` takes), from byte `at`.
    fn fixed(&mut self, slot: Slot, kind: Fixed, at: usize, bytes: &'a [u8]);

    /// Notes where a value starts (bit `pos`, before any alignment).
    fn mark(&self, pos: usize) -> Self::Mark;
    /// True when the sink keeps each value's bits ([`Sink::span`] is called then).
    #[inline(always)]
    fn wants_spans(&self) -> bool {
        false
    }
    /// The value that started at `mark` ends at bit `end`; `aligned`: its first read
    /// aligned to a byte (the padding before it is not its own).
    #[inline(always)]
    fn span(&mut self, mark: Self::Mark, aligned: bool, end: usize) {
        let _ = (mark, aligned, end);
    }
}

/// The sink that keeps nothing: the walk alone checks the bytes ([`crate::validate`]).
pub(crate) struct Check;

impl<'a, 't> Sink<'a, 't> for Check {
    type Open = ();
    type Mark = ();

    #[inline(always)]
    fn null(&mut self, _: Slot) {}
    #[inline(always)]
    fn begin_object(&mut self, _: Slot, _: &'t ClassDef, _: usize) {}
    #[inline(always)]
    fn end_object(&mut self, _: (), _: &BitReader<'a>) -> Result<()> {
        Ok(())
    }
    #[inline(always)]
    fn begin_list(&mut self, _: Slot, _: usize, _: usize) {}
    #[inline(always)]
    fn end_list(&mut self, _: (), _: &BitReader<'a>) -> Result<()> {
        Ok(())
    }
    #[inline(always)]
    fn small_list(&mut self, _: Slot, _: Small, _: u32, _: usize, _: usize, _: &'a [u8]) {}
    #[inline(always)]
    fn raw(&mut self, _: Slot, _: Raw) {}
    #[inline(always)]
    fn bool(&mut self, _: Slot, _: bool) {}
    #[inline(always)]
    fn int(&mut self, _: Slot, _: i64) {}
    #[inline(always)]
    fn uint(&mut self, _: Slot, _: u64) {}
    #[inline(always)]
    fn float(&mut self, _: Slot, _: f32) {}
    #[inline(always)]
    fn double(&mut self, _: Slot, _: f64) {}
    #[inline(always)]
    fn enum_value(&mut self, _: Slot, _: i64) {}
    #[inline(always)]
    fn string(&mut self, _: Slot, _: usize, _: &'a [u8]) {}
    #[inline(always)]
    fn wstring(&mut self, _: Slot, _: usize, _: &'a [u8]) {}
    #[inline(always)]
    fn enum_name(&mut self, _: Slot, _: usize, _: &'a str) {}
    #[inline(always)]
    fn fixed(&mut self, _: Slot, _: Fixed, _: usize, _: &'a [u8]) {}
    #[inline(always)]
    fn mark(&self, _: usize) {}
}
