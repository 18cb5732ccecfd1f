//! The one walk of the ObjectProperty grammar (issue 29): [`Walker`] reads the bit
//! stream of a serialized object (shallow or deep mode, every serializer flag: compact
//! length prefixes, names for enums, forbidden absence) and hands what it finds to a
//! [`Sink`], which decides what it becomes. Every check, limit and error message of the
//! grammar is written here once (with the deep mode's property checks in
//! [`crate::deep`]); the sinks only build.
//!
//! Sinks, each compiled on its own (the walker is generic over them, as serde's
//! visitors are):
//! - `decode::Tree`: the owned [`crate::Document`] ([`crate::decode`], [`crate::bind::decode`]);
//! - `view::tape::Tape`: the borrowed [`crate::View`]'s nodes (and, when asked, each
//!   value's bits for [`crate::span`]);
//! - [`Check`]: nothing kept, the bytes only checked ([`crate::validate`]).
//!
//! What lies in front of the bit stream (manual zlib framing, the flags word, the zlib
//! marker and its stream) is unwrapped once, by [`layers::unwrap`], for every sink.

pub(crate) mod layers;
mod sink;

pub(crate) use sink::{Check, Fixed, Sink, Slot, Small, NO_DEF};

use crate::bits::BitReader;
use crate::deep;
use crate::stack::{StackGuard, TOO_DEEP};
use crate::types::{flags, ClassDef, Kind, PropertyDef, TypeList};
use crate::value::{serializer_flags as sf, Raw};
use crate::Options;
use gamewire_core::{Error, ErrorKind, Result};

/// What a walk of a whole stream leaves besides what its sink built.
pub(crate) struct Walked<'a> {
    /// Non-zero padding bits met while aligning: (bit position, value).
    pub padding: Vec<(u64, u8)>,
    /// The whole bytes after the root object.
    pub trailing: &'a [u8],
}

/// Walks the root object of the bit stream `stream` (error offsets count from `base`;
/// `flags`: the serializer flags in effect, [`layers::Unwrapped::flags`]) into `sink`.
/// The root must be an object of a known class.
pub(crate) fn root<'a, 't, S: Sink<'a, 't>>(
    stream: &'a [u8],
    base: usize,
    types: &'t TypeList,
    opts: &Options,
    flags: u32,
    sink: &mut S,
) -> Result<Walked<'a>> {
    let mut w = Walker {
        r: BitReader::new(stream, base),
        types,
        flags,
        mask: opts.property_mask,
        shallow: opts.shallow,
        skip: opts.skip_unknown && !opts.shallow,
        depth: 0,
        max_depth: opts.limits.max_depth,
        last: None,
        stack: StackGuard::new(),
        sink,
    };
    let m = w.sink.mark(w.r.pos());
    let found = w.object(Slot::ROOT)?;
    w.marked(m, None);
    match found {
        Found::Object => {}
        Found::Null => {
            return Err(Error::at(
                base,
                ErrorKind::Message("the root object is null (type hash 0)".into()),
            ))
        }
        Found::Raw(hash) => return Err(deep::unknown_root(base, hash)),
    }
    w.r.align();
    Ok(Walked {
        trailing: w.r.rest_bytes(),
        padding: std::mem::take(&mut w.r.padding),
    })
}

/// What an object pointer turned out to be.
enum Found {
    /// Type hash 0.
    Null,
    /// An object of a known class.
    Object,
    /// An object of an unknown type kept raw: its type hash.
    Raw(u32),
}

/// True when shallow mode writes `p` under `mask`.
#[inline]
pub(crate) fn masked(p: &PropertyDef, mask: u32) -> bool {
    p.flags & mask == mask && p.flags & flags::DEPRECATED == 0
}

/// The reader of one bit stream, handing what it reads to `sink`.
struct Walker<'a, 't, 's, S> {
    r: BitReader<'a>,
    types: &'t TypeList,
    flags: u32,
    mask: u32,
    shallow: bool,
    skip: bool,
    depth: usize,
    max_depth: usize,
    /// The class met last, and its index (lists usually hold one class).
    last: Option<(&'t ClassDef, usize)>,
    stack: StackGuard,
    sink: &'s mut S,
}

impl<'a, 't, S: Sink<'a, 't>> Walker<'a, 't, '_, S> {
    /// One nesting level more (objects and containers), within the depth limit and the
    /// stack budget.
    #[inline]
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.r.error(ErrorKind::DepthLimit {
                limit: self.max_depth,
            }));
        }
        if !self.stack.ok() {
            return Err(self.r.error(ErrorKind::Message(TOO_DEEP.into())));
        }
        Ok(())
    }

    /// Tells the sink the bits of the value that started at `m`, when it keeps them:
    /// of property `p` (`true`: one element of it), or aligned (`None`: an object, raw
    /// bits).
    #[inline(always)]
    fn marked(&mut self, m: S::Mark, p: Option<(&PropertyDef, bool)>) {
        if !self.sink.wants_spans() {
            return;
        }
        let aligned = match p {
            Some((p, element)) => self.starts_aligned(p, element),
            None => true,
        };
        self.sink.span(m, aligned, self.r.pos());
    }

    /// True when the first read of a value of `p` aligns to a byte (`element`: one
    /// element of a container, else the property, a container's count first).
    fn starts_aligned(&self, p: &PropertyDef, element: bool) -> bool {
        let compact = self.flags & sf::COMPACT_LENGTH_PREFIXES != 0;
        if p.dynamic && !element {
            return !compact;
        }
        match p.kind {
            Kind::Bool | Kind::SBits(_) | Kind::UBits(_) => false,
            Kind::Enum => self.flags & sf::HUMAN_READABLE_ENUMS != 0 && !compact,
            Kind::Str | Kind::WStr => !compact,
            _ => true,
        }
    }

    /// An object pointer: its type hash (0: null), then, for a known class, its
    /// properties; an unknown type is kept raw in deep mode when asked, else an error.
    fn object(&mut self, slot: Slot) -> Result<Found> {
        let start = self.r.pos();
        let hash = self.r.read_u32_aligned()?;
        if hash == 0 {
            self.sink.null(slot);
            return Ok(Found::Null);
        }
        let found = match self.last {
            Some((c, i)) if c.hash == hash => Some((c, i)),
            _ => self
                .types
                .index_of(hash)
                .map(|i| (&self.types.classes()[i], i)),
        };
        let Some((class, index)) = found else {
            if self.skip {
                let size = self.r.object_size()?;
                let data = self.r.read_raw(size)?;
                self.sink.raw(
                    slot,
                    Raw {
                        type_hash: hash,
                        bits: size as u64,
                        data,
                    },
                );
                return Ok(Found::Raw(hash));
            }
            return Err(deep::unknown_type(&self.r, start, hash, self.shallow));
        };
        self.last = Some((class, index));
        self.enter()?;
        let open = self.sink.begin_object(slot, class, index);
        if self.shallow {
            self.shallow_props(class)?;
        } else {
            self.deep_props(class)?;
        }
        self.sink.end_object(open, &self.r)?;
        self.depth -= 1;
        Ok(Found::Object)
    }

    /// Shallow mode: the class's properties the mask selects, in order, an optional
    /// one preceded by its presence bit.
    fn shallow_props(&mut self, class: &'t ClassDef) -> Result<()> {
        for (i, p) in class.properties.iter().enumerate() {
            if !masked(p, self.mask) {
                continue;
            }
            if p.flags & flags::DELTA_ENCODE != 0 {
                let at = self.r.pos();
                if !self.r.read_bit().map_err(|e| e.in_key(p.name.as_str()))? {
                    if self.flags & sf::FORBID_DELTA_ENCODE != 0 {
                        return Err(self
                            .r
                            .error_at(at, ErrorKind::Message("optional property is absent, but serializer flag 16 forbids absence".into()))
                            .in_key(p.name.as_str()));
                    }
                    continue;
                }
            }
            let slot = Slot::property(p.hash, def_index(i));
            let m = self.sink.mark(self.r.pos());
            self.property(p, slot)
                .map_err(|e| e.in_key(p.name.as_str()))?;
            self.marked(m, Some((p, false)));
        }
        Ok(())
    }

    /// Deep mode: the object's size, then properties (size, tag, value) until it is
    /// used up; a tag the class does not know is kept raw when asked, else an error.
    fn deep_props(&mut self, class: &'t ClassDef) -> Result<()> {
        let mut left = self.r.object_size()?;
        let mut hint = 0usize;
        while left > 0 {
            let start = self.r.pos();
            let size = self.r.read_u32_aligned()? as usize;
            // Aligned already: the size field was.
            let hash = self.r.read_u32_aligned()?;
            match class.property_index(hash, hint) {
                Some(i) => {
                    hint = i + 1;
                    let p = &class.properties[i];
                    let slot = Slot::property(hash, def_index(i));
                    let m = self.sink.mark(self.r.pos());
                    self.property(p, slot)
                        .map_err(|e| e.in_key(p.name.as_str()))?;
                    self.marked(m, Some((p, false)));
                    deep::check_size(&self.r, start, size, p.name.as_str())?;
                }
                None if self.skip => {
                    let m = self.sink.mark(self.r.pos());
                    let raw = deep::read_unknown(&mut self.r, start, size, hash)?;
                    self.sink.raw(Slot::property(hash, NO_DEF), raw);
                    self.marked(m, None);
                }
                None => return Err(deep::unknown_hash(&self.r, start, hash, class)),
            }
            left = deep::take(&self.r, start, left, size)?;
        }
        Ok(())
    }

    /// A property's value: one value, or a container (count, then the elements).
    #[inline(always)]
    fn property(&mut self, p: &'t PropertyDef, slot: Slot) -> Result<()> {
        if !p.dynamic {
            if self.scalar(p, slot)? {
                return Ok(());
            }
            return self.single(p, slot);
        }
        self.list(p, slot)
    }

    /// The common byte-aligned scalars, read in the property loop itself; `false`
    /// (nothing read) for every other kind.
    #[inline(always)]
    fn scalar(&mut self, p: &'t PropertyDef, slot: Slot) -> Result<bool> {
        let r = &mut self.r;
        match p.kind {
            Kind::U32 => self.sink.uint(slot, u64::from(r.read_u32_aligned()?)),
            Kind::I32 => self.sink.int(slot, i64::from(r.read_u32_aligned()? as i32)),
            Kind::F32 => self.sink.float(slot, f32::from_bits(r.read_u32_aligned()?)),
            Kind::Bool => self.sink.bool(slot, r.read_bit()?),
            Kind::Str => {
                let (at, b) = self.string()?;
                self.sink.string(slot, at, b);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A container: its count (checked against the bits left: every element takes at
    /// least one), then its elements, one nesting level down.
    fn list(&mut self, p: &'t PropertyDef, slot: Slot) -> Result<()> {
        let at = self.r.pos();
        let n = self.length(false)?;
        if n > self.r.remaining_bits() {
            return Err(self.r.error_at(
                at,
                ErrorKind::LengthPastEnd {
                    what: "element count",
                    declared: n as u64,
                    remaining: self.r.remaining_bits() / 8,
                },
            ));
        }
        self.enter()?;
        let small = match p.kind {
            Kind::Bool => Some((Small::Bools, 1)),
            Kind::SBits(b) if b <= 7 => Some((Small::Ints, u32::from(b))),
            Kind::UBits(b) if b <= 7 => Some((Small::UInts, u32::from(b))),
            _ => None,
        };
        if let Some((kind, width)) = small {
            // Elements of a few bits: checked here, left for the sink to read.
            let first = self.r.pos();
            let need = n * width as usize;
            if need > self.r.remaining_bits() {
                // The element that runs out, at its own bit.
                let i = self.r.remaining_bits() / width as usize;
                self.r.skip_bits(i * width as usize);
                return Err(self
                    .r
                    .read_bits(width)
                    .expect_err("past the end")
                    .in_index(i));
            }
            self.r.skip_bits(need);
            self.sink
                .small_list(slot, kind, width, first, n, self.r.data());
            self.depth -= 1;
            return Ok(());
        }
        // At most as many elements as the bits left hold at the kind's smallest size.
        let room = n.min(self.r.remaining_bits() / self.min_bits(p.kind));
        let open = self.sink.begin_list(slot, n, room);
        for i in 0..n {
            let m = self.sink.mark(self.r.pos());
            self.single(p, Slot::ELEMENT).map_err(|e| e.in_index(i))?;
            self.marked(m, Some((p, true)));
        }
        self.sink.end_list(open, &self.r)?;
        self.depth -= 1;
        Ok(())
    }

    /// The fewest bits a value of `kind` takes (a string or enum name its length
    /// prefix, an object its type hash).
    fn min_bits(&self, kind: Kind) -> usize {
        let prefix = if self.flags & sf::COMPACT_LENGTH_PREFIXES != 0 {
            8
        } else {
            16
        };
        match kind {
            Kind::Bool => 1,
            Kind::SBits(n) | Kind::UBits(n) => usize::from(n.max(1)),
            Kind::I8 | Kind::U8 => 8,
            Kind::I16 | Kind::U16 | Kind::PointUChar => 16,
            Kind::Str | Kind::WStr => prefix,
            Kind::Enum if self.flags & sf::HUMAN_READABLE_ENUMS != 0 => prefix,
            Kind::I32 | Kind::U32 | Kind::F32 | Kind::Color | Kind::Enum | Kind::Object => 32,
            Kind::I64
            | Kind::U64
            | Kind::F64
            | Kind::PointInt
            | Kind::SizeInt
            | Kind::PointUInt
            | Kind::PointFloat => 64,
            Kind::Vec3 | Kind::Euler => 96,
            Kind::Quat | Kind::RectInt | Kind::RectFloat => 128,
            Kind::Matrix => 288,
        }
    }

    /// A length prefix: compact (flag 2) or aligned u16 (strings) / u32 (containers).
    #[inline]
    fn length(&mut self, string: bool) -> Result<usize> {
        deep::length(&mut self.r, self.flags, string)
    }

    /// A string's byte offset and bytes.
    #[inline]
    fn string(&mut self) -> Result<(usize, &'a [u8])> {
        let len = self.length(true)?;
        if len == 0 {
            return Ok((0, &[]));
        }
        let b = self.r.read_bytes(len, "string length")?;
        Ok((self.r.pos() / 8 - len, b))
    }

    /// Aligns and reads `N` bytes for a fixed-size struct.
    #[inline]
    fn fixed<const N: usize>(&mut self, slot: Slot, kind: Fixed) -> Result<()> {
        self.r.read_array::<N>()?;
        let at = self.r.pos() / 8 - N;
        self.sink.fixed(slot, kind, at, &self.r.data()[at..at + N]);
        Ok(())
    }

    /// One value of property `p`'s type (a property's, or one element of a container).
    fn single(&mut self, p: &'t PropertyDef, slot: Slot) -> Result<()> {
        let r = &mut self.r;
        let s = &mut *self.sink;
        match p.kind {
            Kind::Bool => s.bool(slot, r.read_bit()?),
            Kind::I8 => s.int(slot, i64::from(i8::from_le_bytes(r.read_array()?))),
            Kind::U8 => s.uint(slot, u64::from(r.read_array::<1>()?[0])),
            Kind::I16 => s.int(slot, i64::from(i16::from_le_bytes(r.read_array()?))),
            Kind::U16 => s.uint(slot, u64::from(u16::from_le_bytes(r.read_array()?))),
            Kind::I32 => s.int(slot, i64::from(i32::from_le_bytes(r.read_array()?))),
            Kind::U32 => s.uint(slot, u64::from(u32::from_le_bytes(r.read_array()?))),
            Kind::I64 => s.int(slot, i64::from_le_bytes(r.read_array()?)),
            Kind::U64 => s.uint(slot, u64::from_le_bytes(r.read_array()?)),
            Kind::F32 => s.float(slot, f32::from_le_bytes(r.read_array()?)),
            Kind::F64 => s.double(slot, f64::from_le_bytes(r.read_array()?)),
            Kind::SBits(n) => s.int(slot, r.read_signed(u32::from(n))?),
            Kind::UBits(n) => s.uint(slot, r.read_bits(u32::from(n))?),
            Kind::Str => {
                let (at, b) = self.string()?;
                self.sink.string(slot, at, b);
            }
            Kind::WStr => {
                let len = self.length(true)?;
                if len == 0 {
                    self.sink.wstring(slot, 0, &[]);
                } else {
                    let b = self
                        .r
                        .read_bytes(len.saturating_mul(2), "wide string length")?;
                    self.sink.wstring(slot, self.r.pos() / 8 - b.len(), b);
                }
            }
            Kind::Enum => {
                if self.flags & sf::HUMAN_READABLE_ENUMS != 0 {
                    let at = self.r.pos();
                    let (off, raw) = self.string()?;
                    let text = std::str::from_utf8(raw).map_err(|_| {
                        self.r
                            .error_at(at, ErrorKind::InvalidText { encoding: "UTF-8" })
                    })?;
                    match p.enum_from_names(text) {
                        Err(bad) => {
                            return Err(self.r.error_at(
                                at,
                                ErrorKind::Unexpected {
                                    expected: format!("an option of {}", p.enum_label()),
                                    found: format!("{bad:?}"),
                                },
                            ));
                        }
                        // Written exactly as the encoder writes this value: keep the
                        // value (JSON names it the same way); any other spelling is
                        // kept as text so it is written back as it was.
                        Ok(v) if p.enum_to_names(v).as_deref() == Some(text) => {
                            self.sink.enum_value(slot, v)
                        }
                        Ok(_) => self.sink.enum_name(slot, off, text),
                    }
                } else {
                    let v = self.r.read_bits(32)? as i64;
                    self.sink.enum_value(slot, v);
                }
            }
            Kind::Color => self.fixed::<4>(slot, Fixed::Color)?,
            Kind::Vec3 => self.fixed::<12>(slot, Fixed::Vec3)?,
            Kind::Euler => self.fixed::<12>(slot, Fixed::Euler)?,
            Kind::Quat => self.fixed::<16>(slot, Fixed::Quat)?,
            Kind::Matrix => self.fixed::<36>(slot, Fixed::Matrix)?,
            Kind::PointInt => self.fixed::<8>(slot, Fixed::PointInt)?,
            Kind::SizeInt => self.fixed::<8>(slot, Fixed::SizeInt)?,
            Kind::RectInt => self.fixed::<16>(slot, Fixed::RectInt)?,
            Kind::PointUChar => self.fixed::<2>(slot, Fixed::PointUChar)?,
            Kind::PointUInt => self.fixed::<8>(slot, Fixed::PointUInt)?,
            Kind::PointFloat => self.fixed::<8>(slot, Fixed::PointFloat)?,
            Kind::RectFloat => self.fixed::<16>(slot, Fixed::RectFloat)?,
            Kind::Object => {
                self.object(slot)?;
            }
        }
        Ok(())
    }
}

/// A property's index as a [`Slot::def`] ([`NO_DEF`] when it does not fit).
#[inline]
fn def_index(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(NO_DEF)
}
