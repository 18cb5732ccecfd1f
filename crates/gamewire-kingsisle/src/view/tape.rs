//! The view's tape as a sink of the one walk ([`crate::walk`]): one 16-byte node per
//! object, property and value, strings and fixed-size structs pointed at in the stream.

use super::{pair, Node, Op};
use crate::bits::BitReader;
use crate::types::ClassDef;
use crate::value::Raw;
use crate::walk::{Fixed, Sink, Slot, Small, NO_DEF};
use gamewire_core::{ErrorKind, Result};

/// The nodes of a view, built as the walker reads.
pub(super) struct Tape {
    pub(super) nodes: Vec<Node>,
    pub(super) raws: Vec<Raw>,
    /// When asked for ([`crate::span`]): each value node's bits in the stream, from its
    /// first bit (after alignment padding) to the bit after it; `[0, 0]` for the others.
    pub(super) spans: Option<Vec<[u64; 2]>>,
}

impl Tape {
    #[inline(always)]
    fn push(&mut self, slot: Slot, op: Op, x: u64) {
        self.nodes.push(Node {
            tag: slot.tag,
            op,
            def: slot.def,
            x,
        });
    }

    /// Sets the end index of the container node at `at` to the current length.
    #[inline]
    fn close(&mut self, at: usize, r: &BitReader<'_>) -> Result<()> {
        let end = self.nodes.len();
        if end > u32::MAX as usize {
            return Err(r.error(ErrorKind::Message(
                "too many values for a view (more than 2^32 nodes)".into(),
            )));
        }
        let n = &mut self.nodes[at];
        n.x = (n.x & 0xFFFF_FFFF) | ((end as u64) << 32);
        Ok(())
    }
}

impl<'a, 't> Sink<'a, 't> for Tape {
    /// The container's node.
    type Open = usize;
    /// The next node's index and the bit position.
    type Mark = (usize, usize);

    #[inline(always)]
    fn null(&mut self, slot: Slot) {
        self.push(slot, Op::Null, 0);
    }

    #[inline(always)]
    fn begin_object(&mut self, slot: Slot, _: &'t ClassDef, index: usize) -> usize {
        let at = self.nodes.len();
        self.push(slot, Op::Object, index as u64);
        at
    }

    #[inline]
    fn end_object(&mut self, at: usize, r: &BitReader<'a>) -> Result<()> {
        self.close(at, r)
    }

    #[inline(always)]
    fn begin_list(&mut self, slot: Slot, n: usize, _: usize) -> usize {
        let at = self.nodes.len();
        self.push(slot, Op::List, n as u64);
        at
    }

    #[inline]
    fn end_list(&mut self, at: usize, r: &BitReader<'a>) -> Result<()> {
        self.close(at, r)
    }

    #[inline]
    fn small_list(
        &mut self,
        slot: Slot,
        kind: Small,
        width: u32,
        first: usize,
        n: usize,
        _: &'a [u8],
    ) {
        let op = match kind {
            Small::Bools => Op::Bools,
            Small::Ints => Op::SmallInts,
            Small::UInts => Op::SmallUInts,
        };
        self.push(slot, op, first as u64);
        self.push(Slot::property(width, NO_DEF), Op::Count, n as u64);
    }

    #[inline]
    fn raw(&mut self, slot: Slot, raw: Raw) {
        self.raws.push(raw);
        self.push(slot, Op::Raw, (self.raws.len() - 1) as u64);
    }

    #[inline(always)]
    fn bool(&mut self, slot: Slot, v: bool) {
        self.push(slot, Op::Bool, u64::from(v));
    }

    #[inline(always)]
    fn int(&mut self, slot: Slot, v: i64) {
        self.push(slot, Op::Int, v as u64);
    }

    #[inline(always)]
    fn uint(&mut self, slot: Slot, v: u64) {
        self.push(slot, Op::UInt, v);
    }

    #[inline(always)]
    fn float(&mut self, slot: Slot, v: f32) {
        self.push(slot, Op::Float, u64::from(v.to_bits()));
    }

    #[inline(always)]
    fn double(&mut self, slot: Slot, v: f64) {
        self.push(slot, Op::Double, v.to_bits());
    }

    #[inline(always)]
    fn enum_value(&mut self, slot: Slot, v: i64) {
        self.push(slot, Op::Enum, v as u64);
    }

    #[inline(always)]
    fn string(&mut self, slot: Slot, at: usize, bytes: &'a [u8]) {
        self.push(slot, Op::Str, pair(at, bytes.len()));
    }

    #[inline]
    fn wstring(&mut self, slot: Slot, at: usize, bytes: &'a [u8]) {
        self.push(slot, Op::WStr, pair(at, bytes.len() / 2));
    }

    #[inline]
    fn enum_name(&mut self, slot: Slot, at: usize, text: &'a str) {
        self.push(slot, Op::EnumName, pair(at, text.len()));
    }

    #[inline]
    fn fixed(&mut self, slot: Slot, kind: Fixed, at: usize, _: &'a [u8]) {
        let op = match kind {
            Fixed::Color => Op::Color,
            Fixed::Vec3 => Op::Vec3,
            Fixed::Euler => Op::Euler,
            Fixed::Quat => Op::Quat,
            Fixed::Matrix => Op::Matrix,
            Fixed::PointInt => Op::PointInt,
            Fixed::SizeInt => Op::SizeInt,
            Fixed::RectInt => Op::RectInt,
            Fixed::PointUChar => Op::PointUChar,
            Fixed::PointUInt => Op::PointUInt,
            Fixed::PointFloat => Op::PointFloat,
            Fixed::RectFloat => Op::RectFloat,
        };
        self.push(slot, op, at as u64);
    }

    #[inline(always)]
    fn mark(&self, pos: usize) -> (usize, usize) {
        (self.nodes.len(), pos)
    }

    #[inline(always)]
    fn wants_spans(&self) -> bool {
        self.spans.is_some()
    }

    #[inline]
    fn span(&mut self, (at, start): (usize, usize), aligned: bool, end: usize) {
        if let Some(spans) = self.spans.as_mut() {
            let start = if aligned {
                start.div_ceil(8) * 8
            } else {
                start
            };
            spans.resize(self.nodes.len(), [0, 0]);
            if let Some(s) = spans.get_mut(at) {
                *s = [start as u64, end as u64];
            }
        }
    }
}
