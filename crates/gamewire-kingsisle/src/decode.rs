//! Bytes to [`Document`]: the owned tree, built by the sink [`Tree`] from the one walk
//! of the grammar ([`crate::walk`]).

use crate::bits::BitReader;
use crate::properties::Properties;
use crate::recycle::Spare;
use crate::types::{ClassDef, TypeList};
use crate::value::{Document, Object, Raw, Value};
use crate::walk::{self, layers, Fixed, Sink, Slot, Small};
use crate::{deep, Options};
use gamewire_core::Result;

/// Decodes one serialized object blob.
///
/// Order of layers, as the game reads them: manual zlib framing (when
/// [`Options::manual_zlib`]), the flags word (when flag 1), the zlib marker (when flag 8),
/// then the bit stream holding the root object.
pub fn decode(data: &[u8], types: &TypeList, opts: &Options) -> Result<Document> {
    decode_in(data, types, opts, Spare::default()).0
}

/// [`decode`], building the tree in the allocations of `spare` ([`crate::recycle`]);
/// gives back what is left of them.
pub(crate) fn decode_in(
    data: &[u8],
    types: &TypeList,
    opts: &Options,
    spare: Spare,
) -> (Result<Document>, Spare) {
    let mut tree = Tree {
        spare,
        ..Tree::default()
    };
    let doc = build(data, types, opts, &mut tree);
    (doc, std::mem::take(&mut tree.spare))
}

fn build(data: &[u8], types: &TypeList, opts: &Options, tree: &mut Tree) -> Result<Document> {
    let u = layers::unwrap(data, opts, true)?;
    let walked = walk::root(u.stream(data), u.base, types, opts, u.flags, tree)?;
    let trailing = walked.trailing.to_vec();
    Ok(Document {
        root: tree.root(),
        flags: u.flags_word,
        zlib_marker: u.zlib_marker,
        padding: walked.padding,
        trailing,
        bind: false,
        manual_zlib: u.manual_zlib,
        flag_zlib: u.flag_zlib,
    })
}

/// The owned tree as a sink: the properties of every open object wait on one scratch
/// stack (with their tags), and each object takes its own off at its end, in one
/// allocation of its exact size; a container's elements go straight into its own
/// vector (room for all of them, as many as the bits left can hold, made at its start).
#[derive(Default)]
pub(crate) struct Tree {
    scratch: Vec<(u32, Value)>,
    /// How many of the scratch values are small scalars (kept packed when an object
    /// has [`crate::properties::PACK_MIN`] of them).
    small: usize,
    /// The elements of the open containers (the innermost last).
    lists: Vec<Vec<Value>>,
    /// Allocations of earlier trees to build this one in ([`crate::recycle`]).
    spare: Spare,
}

/// What the tree keeps from the start of an object or a container to its end.
pub(crate) struct Open {
    /// Where the object's properties start on the scratch stack.
    start: usize,
    /// The small scalars on the scratch stack before them.
    small: usize,
    /// Where the object or container goes.
    slot: Slot,
    /// The object's class hash.
    hash: u32,
}

impl Tree {
    /// The root object, once the walk found it.
    fn root(&mut self) -> Object {
        match self.scratch.pop() {
            Some((_, Value::Object(o))) => o,
            _ => Object::default(),
        }
    }

    #[inline(always)]
    fn push(&mut self, slot: Slot, v: Value) {
        if slot.element {
            if let Some(items) = self.lists.last_mut() {
                items.push(v);
                return;
            }
        }
        self.scratch.push((slot.tag, v));
    }

    /// Counts a property's small scalar (an element's is not on the scratch stack).
    #[inline(always)]
    fn count_small(&mut self, slot: Slot, small: bool) {
        self.small += usize::from(small && !slot.element);
    }
}

impl<'a, 't> Sink<'a, 't> for Tree {
    type Open = Open;
    type Mark = ();

    #[inline(always)]
    fn null(&mut self, slot: Slot) {
        self.push(slot, Value::Null);
    }

    #[inline(always)]
    fn begin_object(&mut self, slot: Slot, class: &'t ClassDef, _: usize) -> Open {
        Open {
            start: self.scratch.len(),
            small: self.small,
            slot,
            hash: class.hash,
        }
    }

    #[inline]
    fn end_object(&mut self, open: Open, _: &BitReader<'a>) -> Result<()> {
        let own = self.small - open.small;
        self.small = open.small;
        let properties = Properties::take_tail(&mut self.scratch, open.start, own, &mut self.spare);
        self.push(
            open.slot,
            Value::Object(Object {
                hash: open.hash,
                properties,
            }),
        );
        Ok(())
    }

    #[inline(always)]
    fn begin_list(&mut self, slot: Slot, _: usize, room: usize) -> Open {
        // Room for every element the bits left can hold, at once: for the outermost
        // container only, so that containers nested in its elements, each starting
        // before the bits it claims are read, do not each reserve that much (they
        // start with room for up to 65,536 and grow with what they read).
        let outermost = self.lists.is_empty();
        let room = if outermost { room } else { room.min(1 << 16) };
        // A kept vector grows as it must rather than to `room` (a bound from the bits
        // left, often far above the count), so that its memory is reused, not moved.
        let items = match self.spare.take_list(outermost) {
            Some(v) => v,
            None => Vec::with_capacity(room),
        };
        self.lists.push(items);
        Open {
            start: self.scratch.len(),
            small: self.small,
            slot,
            hash: 0,
        }
    }

    #[inline]
    fn end_list(&mut self, open: Open, _: &BitReader<'a>) -> Result<()> {
        let items = self.lists.pop().unwrap_or_default();
        self.push(open.slot, Value::List(items));
        Ok(())
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
        // Every element is in the stream (the walker checked): the reads cannot fail.
        let mut r = BitReader::new(data, 0);
        r.skip_bits(first);
        let v = match kind {
            Small::Bools => Value::Bools((0..n).map(|_| r.read_bit().unwrap_or(false)).collect()),
            Small::Ints => Value::SmallInts(
                (0..n)
                    .map(|_| r.read_signed(width).unwrap_or(0) as i8)
                    .collect(),
            ),
            Small::UInts => Value::SmallUInts(
                (0..n)
                    .map(|_| r.read_bits(width).unwrap_or(0) as u8)
                    .collect(),
            ),
        };
        self.push(slot, v);
    }

    #[inline]
    fn raw(&mut self, slot: Slot, raw: Raw) {
        self.push(slot, Value::Raw(Box::new(raw)));
    }

    #[inline(always)]
    fn bool(&mut self, slot: Slot, v: bool) {
        self.count_small(slot, true);
        self.push(slot, Value::Bool(v));
    }

    #[inline(always)]
    fn int(&mut self, slot: Slot, v: i64) {
        self.count_small(slot, (-64..=63).contains(&v));
        self.push(slot, Value::Int(v));
    }

    #[inline(always)]
    fn uint(&mut self, slot: Slot, v: u64) {
        self.count_small(slot, v <= 124);
        self.push(slot, Value::UInt(v));
    }

    #[inline(always)]
    fn float(&mut self, slot: Slot, v: f32) {
        self.push(slot, Value::Float(v));
    }

    #[inline(always)]
    fn double(&mut self, slot: Slot, v: f64) {
        self.push(slot, Value::Double(v));
    }

    #[inline(always)]
    fn enum_value(&mut self, slot: Slot, v: i64) {
        self.push(slot, Value::Enum(v));
    }

    #[inline(always)]
    fn string(&mut self, slot: Slot, _: usize, bytes: &'a [u8]) {
        self.push(slot, Value::String(bytes.into()));
    }

    #[inline]
    fn wstring(&mut self, slot: Slot, _: usize, bytes: &'a [u8]) {
        let units = bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        self.push(slot, Value::WString(units));
    }

    #[inline]
    fn enum_name(&mut self, slot: Slot, _: usize, text: &'a str) {
        self.push(slot, Value::EnumName(text.to_owned()));
    }

    #[inline]
    fn fixed(&mut self, slot: Slot, kind: Fixed, _: usize, b: &'a [u8]) {
        self.push(slot, fixed_value(kind, b));
    }

    #[inline(always)]
    fn mark(&self, _: usize) {}
}

/// The value of a fixed-size struct from its bytes (as many as `kind` takes).
pub(crate) fn fixed_value(kind: Fixed, b: &[u8]) -> Value {
    fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
        let mut a = [0; N];
        a.copy_from_slice(&b[..N]);
        a
    }
    match kind {
        Fixed::Color => Value::Color(arr(b)),
        Fixed::Vec3 => Value::Vec3(deep::f32s(&arr::<12>(b))),
        Fixed::Euler => Value::Euler(deep::f32s(&arr::<12>(b))),
        Fixed::Quat => Value::Quat(deep::f32s(&arr::<16>(b))),
        Fixed::Matrix => Value::Matrix(Box::new(deep::f32s(&arr::<36>(b)))),
        Fixed::PointInt => Value::PointInt(deep::i32s(&arr::<8>(b))),
        Fixed::SizeInt => Value::SizeInt(deep::i32s(&arr::<8>(b))),
        Fixed::RectInt => Value::RectInt(deep::i32s(&arr::<16>(b))),
        Fixed::PointUChar => Value::PointUChar(arr(b)),
        Fixed::PointUInt => {
            let a = deep::i32s::<2, 8>(&arr(b));
            Value::PointUInt([a[0] as u32, a[1] as u32])
        }
        Fixed::PointFloat => Value::PointFloat(deep::f32s(&arr::<8>(b))),
        Fixed::RectFloat => Value::RectFloat(deep::f32s(&arr::<16>(b))),
    }
}
