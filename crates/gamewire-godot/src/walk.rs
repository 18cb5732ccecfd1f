//! The one reader of the Variant grammar (the engine's `decode_variant`, 3.x and 4.x):
//! [`Walker`] reads and checks the bytes and hands what it finds to a [`Sink`], which
//! decides what it becomes. Every check, limit and error message of the wire format is
//! written here once; the sinks only build.
//!
//! Sinks, each compiled on its own (the walker is generic over them, as serde's
//! visitors are):
//! - the owned [`Value`](crate::Value) tree ([`crate::decode`]);
//! - the borrowed [`Tape`](crate::tape::Tape), one 8-byte entry per value.
//!
//! serde deserialization ([`crate::from_bytes`]) is driven by the target type, not by
//! the bytes, so it cannot be a push sink; it reads through the walker's primitives
//! ([`Walker::header`], [`Walker::leaf`], [`Walker::str_slice`], [`Walker::count`],
//! [`Walker::container_type`], [`Walker::node_path_head`]) and so shares every check
//! and message with the other readers.

use crate::header::*;
use crate::{DecodeOptions, Kind, Version};
use gamewire_core::{Error, ErrorKind, Reader, Result};

/// The element type of a typed container as read, borrowing class names and script
/// paths from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Elem<'a> {
    /// Untyped.
    Any,
    /// A built-in type id (checked to be a Godot 4 type).
    Builtin(u32),
    /// A native class name.
    ClassName(&'a str),
    /// A script path.
    Script(&'a str),
}

/// A value with no children and no text of its own, read and checked, its payload
/// borrowed from the input.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Leaf<'a> {
    /// `null`.
    Nil,
    /// A `bool`.
    Bool(bool),
    /// An `int`.
    Int(i64),
    /// A `float`.
    Float(f64),
    /// A math type with real components: its kind, whether they are 64-bit, and their
    /// bytes (exactly the kind's component count times 4 or 8).
    Reals(Kind, bool, &'a [u8]),
    /// Vector2i/3i/4i and Rect2i: their 32-bit integer components' bytes.
    Ints(Kind, &'a [u8]),
    /// A Color: four 32-bit floats' bytes.
    Color(&'a [u8]),
    /// An RID (always 0 in Godot 3, which sends none).
    Rid(u64),
    /// A Callable (the engine sends none of it).
    Callable,
    /// A Signal: its name and object id.
    Signal(&'a str, u64),
    /// An object sent as its instance id.
    ObjectId(u64),
    /// A PackedByteArray's bytes.
    Bytes(&'a [u8]),
    /// Any other packed array of fixed-size elements: its kind, whether its reals are
    /// 64-bit, and the elements' bytes (a whole number of elements).
    Packed(Kind, bool, &'a [u8]),
}

/// What the [`Walker`] hands a value's parts to. `Out` is what one value becomes;
/// the other types are containers being built. `start` is always the offset of the
/// value's header (for bare strings, of their length).
pub(crate) trait Sink<'a> {
    /// One value, built.
    type Out;
    /// An Array being built.
    type Seq;
    /// A Dictionary being built.
    type Map;
    /// A full Object being built.
    type Obj;
    /// A PackedStringArray being built.
    type Strings;
    /// A NodePath being built.
    type Path;

    /// A `bool`.
    fn bool(&mut self, start: usize, b: bool) -> Self::Out;
    /// An `int`.
    fn int(&mut self, start: usize, i: i64) -> Self::Out;
    /// A `float`.
    fn float(&mut self, start: usize, f: f64) -> Self::Out;
    /// A single-precision Vector3 (the commonest math type, read on the fast path).
    fn vector3(&mut self, start: usize, v: [f32; 3]) -> Self::Out;
    /// False for a sink that never reads the text of a String or StringName: the
    /// walker then checks the text (every rule still holds) and hands [`Sink::string`]
    /// an empty `text`, which saves making a `&str` of each.
    const NEEDS_TEXT: bool = true;
    /// A String (`name` false) or StringName (`name` true).
    fn string(&mut self, start: usize, name: bool, text: &'a str) -> Self::Out;
    /// Whether the sink keeps short strings by their wire form ([`Sink::cached`] and
    /// [`Sink::keyed`]); false skips computing the key.
    #[inline(always)]
    fn caches_strings(&self) -> bool {
        false
    }
    /// A short String (`name` false) or StringName already seen, by its whole wire form (`key`: length, text and
    /// padding as a little-endian `u128`); `None` when the sink does not have it (then
    /// the walker checks the text and calls [`Sink::keyed`]).
    #[inline(always)]
    fn cached(&mut self, _start: usize, _name: bool, _key: u128) -> Option<Self::Out> {
        None
    }
    /// A checked short String (`name` false) or StringName with its wire-form key.
    #[inline(always)]
    fn keyed(&mut self, start: usize, name: bool, _key: u128, text: &'a str) -> Self::Out {
        self.string(start, name, text)
    }
    /// Any other value with no children.
    fn leaf(&mut self, start: usize, leaf: Leaf<'a>) -> Self::Out;

    /// An Array of `count` items begins.
    fn array_begin(&mut self, start: usize, count: usize, elem: Elem<'a>) -> Self::Seq;
    /// The next item.
    fn array_item(&mut self, seq: &mut Self::Seq, item: Self::Out);
    /// The Array is complete.
    fn array_end(&mut self, seq: Self::Seq) -> Self::Out;

    /// A Dictionary of `count` entries begins; `types` for a typed one (4.4+).
    fn dict_begin(
        &mut self,
        start: usize,
        count: usize,
        types: Option<(Elem<'a>, Elem<'a>)>,
    ) -> Self::Map;
    /// The next entry.
    fn dict_entry(&mut self, map: &mut Self::Map, key: Self::Out, value: Self::Out);
    /// The Dictionary is complete.
    fn dict_end(&mut self, map: Self::Map) -> Self::Out;

    /// A full Object of class `class` with `count` properties begins (`count` is 0
    /// for the null object, whose class is empty).
    fn object_begin(&mut self, start: usize, class: &'a str, count: usize) -> Self::Obj;
    /// The next property's name (its length is at `at`); its value follows.
    fn object_name(&mut self, obj: &mut Self::Obj, at: usize, name: &'a str);
    /// The value of the property last named.
    fn object_value(&mut self, obj: &mut Self::Obj, value: Self::Out);
    /// The Object is complete.
    fn object_end(&mut self, obj: Self::Obj) -> Self::Out;

    /// A PackedStringArray of `count` elements begins.
    fn strings_begin(&mut self, start: usize, count: usize) -> Self::Strings;
    /// The next element (its length is at `at`; a trailing NUL already dropped).
    fn strings_item(&mut self, s: &mut Self::Strings, at: usize, text: &'a str);
    /// The PackedStringArray is complete.
    fn strings_end(&mut self, s: Self::Strings) -> Self::Out;

    /// A NodePath of `names` names then `subnames` subnames begins.
    fn path_begin(
        &mut self,
        start: usize,
        names: usize,
        subnames: usize,
        absolute: bool,
    ) -> Self::Path;
    /// The next name or subname and the padding bytes after it.
    fn path_name(&mut self, p: &mut Self::Path, text: &'a str, padding: &'a [u8]);
    /// The NodePath is complete.
    fn path_end(&mut self, p: Self::Path) -> Self::Out;
}

/// Reads the Variant grammar from a [`Reader`] into a [`Sink`]. See the module docs.
pub(crate) struct Walker<'a> {
    /// The input, positioned at the next value.
    pub r: Reader<'a>,
    /// The wire version, objects and depth limit.
    pub opts: DecodeOptions,
    /// The header of a 32-bit Vector3 in this version.
    vector3_header: u32,
}

/// The longest string whose wire form (length, text, padding) fits in 16 bytes: the
/// strings a caching sink keeps by that form.
pub(crate) const SHORT_STRING: usize = 12;

/// For each string length up to [`SHORT_STRING`]: the mask that keeps its wire form
/// out of 16 bytes read as a little-endian `u128`, and that form's length.
const SHORT_WIRE: [(u128, usize); SHORT_STRING + 1] = {
    let mut t = [(0u128, 0usize); SHORT_STRING + 1];
    let mut len = 0;
    while len <= SHORT_STRING {
        let total = 4 + ((len + 3) & !3);
        t[len] = (
            if total == 16 {
                u128::MAX
            } else {
                (1u128 << (total * 8)) - 1
            },
            total,
        );
        len += 1;
    }
    t
};

/// The wire-form key of the short string at the start of `rest` and the bytes that
/// form takes, when it is short and 16 bytes remain.
#[inline(always)]
fn short_key(rest: &[u8]) -> Option<(u128, usize)> {
    let head = rest.first_chunk::<16>()?;
    let wire = u128::from_le_bytes(*head);
    let &(mask, total) = SHORT_WIRE.get(wire as u32 as usize)?;
    Some((wire & mask, total))
}

/// `N` little-endian `f32`s from `b` (at least `4 * N` bytes).
#[inline]
pub(crate) fn array_f32<const N: usize>(b: &[u8]) -> [f32; N] {
    std::array::from_fn(|i| {
        f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

/// `N` little-endian `f64`s from `b` (at least `8 * N` bytes).
#[inline]
pub(crate) fn array_f64<const N: usize>(b: &[u8]) -> [f64; N] {
    std::array::from_fn(|i| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[8 * i..8 * i + 8]);
        f64::from_le_bytes(a)
    })
}

/// `N` little-endian `i32`s from `b` (at least `4 * N` bytes).
#[inline]
pub(crate) fn array_i32<const N: usize>(b: &[u8]) -> [i32; N] {
    std::array::from_fn(|i| {
        i32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

/// The number of real components of a math type (0 for other kinds).
pub(crate) fn real_components(kind: Kind) -> usize {
    match kind {
        Kind::Vector2 => 2,
        Kind::Vector3 => 3,
        Kind::Rect2 | Kind::Plane | Kind::Quaternion | Kind::Vector4 => 4,
        Kind::Transform2D | Kind::Aabb => 6,
        Kind::Basis => 9,
        Kind::Transform3D => 12,
        Kind::Projection => 16,
        _ => 0,
    }
}

impl<'a> Walker<'a> {
    /// A walker over `r` with `opts`.
    pub fn new(r: Reader<'a>, opts: &DecodeOptions) -> Self {
        Walker {
            r,
            opts: *opts,
            vector3_header: Kind::Vector3
                .id(opts.version)
                .expect("Vector3 exists in every version"),
        }
    }

    /// A little-endian u32, read inline (the reader's own read, out of line, reports
    /// the end of the input).
    #[inline(always)]
    fn u32(&mut self) -> Result<u32> {
        match self.r.rest().first_chunk::<4>() {
            Some(b) => {
                let x = u32::from_le_bytes(*b);
                self.r.advance(4);
                Ok(x)
            }
            None => self.r.read_u32(),
        }
    }

    /// A u32 element count as the engine reads it: an `int32_t` that must not be negative.
    #[inline]
    pub fn count(&mut self) -> Result<u32> {
        let at = self.r.pos();
        let c = self.u32()?;
        if c > i32::MAX as u32 {
            return Err(self.r.error_at(
                at,
                ErrorKind::Unexpected {
                    expected: "a count below 2^31".into(),
                    found: c.to_string(),
                },
            ));
        }
        Ok(c)
    }

    /// Reads an element count and checks that `count * elem_size` bytes remain; returns
    /// the count and that byte length. Errors point at the count.
    #[inline]
    pub fn counted(&mut self, elem_size: usize, what: &'static str) -> Result<(usize, usize)> {
        let at = self.r.pos();
        let count = self.count()?;
        let len = self.r.check_len_from(at, count as u64, elem_size, what)?;
        Ok((count as usize, len))
    }

    /// The text of a string (u32 byte length, UTF-8 bytes, zero padding to 4 bytes),
    /// borrowed from the input; one bounds check for the whole string.
    #[inline]
    pub fn str_slice(&mut self) -> Result<&'a str> {
        let at = self.r.pos();
        let rest = self.r.rest();
        let Some(head) = rest.get(..4) else {
            return Err(self.r.error(ErrorKind::UnexpectedEof {
                needed: 4 - rest.len(),
                remaining: rest.len(),
            }));
        };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let padded = (len + 3) & !3;
        let Some(body) = rest.get(4..4 + padded).filter(|_| len <= i32::MAX as usize) else {
            return Err(self.r.error_at(
                at,
                ErrorKind::LengthPastEnd {
                    what: "string length",
                    declared: len as u64,
                    remaining: rest.len() - 4,
                },
            ));
        };
        let text = std::str::from_utf8(&body[..len]).map_err(|e| {
            self.r.error_at(
                at + 4 + e.valid_up_to(),
                ErrorKind::InvalidText { encoding: "UTF-8" },
            )
        })?;
        // `body` is the `4 + padded` bytes after the length: all there.
        self.r.advance(4 + padded);
        // The text is all `len` bytes; cutting it to `len` (a no-op) makes the compiler
        // take the length from `len` and load only the pointer of `from_utf8`'s result.
        // Copied whole, the result was read as one 16-byte load over two 8-byte stores,
        // which stalls on store forwarding: it made serde 13-20% slower than before.
        Ok(text.get(..len).unwrap_or(text))
    }

    /// A String or StringName's text handed to the sink, through its cache when it
    /// keeps one. The reader is at the length.
    #[inline(always)]
    fn text<S: Sink<'a>>(&mut self, sink: &mut S, start: usize, name: bool) -> Result<S::Out> {
        if sink.caches_strings() {
            if let Some((key, total)) = short_key(self.r.rest()) {
                if let Some(out) = sink.cached(start, name, key) {
                    // `short_key` saw 16 bytes; the wire form takes `total` of them.
                    self.r.advance(total);
                    return Ok(out);
                }
                return self.text_keyed(sink, start, name, key);
            }
        }
        if !S::NEEDS_TEXT {
            self.check_str()?;
            return Ok(sink.string(start, name, ""));
        }
        let text = self.str_slice()?;
        Ok(sink.string(start, name, text))
    }

    /// Checks a string as [`Walker::str_slice`] does and skips it, without making a
    /// `&str`: short ASCII text (most keys and names) is checked inline; anything else
    /// goes through [`Walker::str_slice`], which also reports every fault.
    #[inline(always)]
    fn check_str(&mut self) -> Result<()> {
        let rest = self.r.rest();
        if let Some(head) = rest.first_chunk::<20>() {
            let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
            if len <= 16 {
                // The text's bytes (and what follows, masked off) as one number: ASCII
                // when no byte has its top bit set.
                let mut text = [0u8; 16];
                text.copy_from_slice(&head[4..]);
                let text = u128::from_le_bytes(text);
                let mask = if len == 16 {
                    u128::MAX
                } else {
                    (1u128 << (len * 8)) - 1
                };
                if text & mask & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0 {
                    // `len + 3 & !3` is at most 16, and 20 bytes are there.
                    self.r.advance(4 + ((len + 3) & !3));
                    return Ok(());
                }
            }
        }
        self.str_slice().map(|_| ())
    }

    /// [`Walker::text`] for a short string the sink does not have.
    #[inline(never)]
    fn text_keyed<S: Sink<'a>>(
        &mut self,
        sink: &mut S,
        start: usize,
        name: bool,
        key: u128,
    ) -> Result<S::Out> {
        let text = self.str_slice()?;
        Ok(sink.keyed(start, name, key, text))
    }

    /// A string whose padding bytes are returned with it (NodePath names).
    fn padded_string(&mut self) -> Result<(&'a str, &'a [u8])> {
        let len = self.count()? as usize;
        let padded = (len + 3) & !3;
        if padded > self.r.remaining() {
            return Err(self.r.error(ErrorKind::LengthPastEnd {
                what: "string length",
                declared: len as u64,
                remaining: self.r.remaining(),
            }));
        }
        let s = self.r.read_str(len)?;
        Ok((s, self.r.read_bytes(padded - len)?))
    }

    /// A PackedStringArray element: like a string, but the length counts a trailing NUL.
    #[inline]
    pub fn packed_string(&mut self) -> Result<&'a str> {
        let len = self.count()? as usize;
        let padded = (len + 3) & !3;
        if padded > self.r.remaining() {
            return Err(self.r.error(ErrorKind::LengthPastEnd {
                what: "string length",
                declared: len as u64,
                remaining: self.r.remaining(),
            }));
        }
        let bytes = self.r.rest();
        let text_len = if len > 0 && bytes[len - 1] == 0 {
            len - 1
        } else {
            len
        };
        let s = self.r.read_str(text_len)?;
        self.r.skip(padded - text_len)?;
        Ok(s)
    }

    /// A container element type (Godot 4.3+) of header kind `kind`: a type id, a class
    /// name or a script path.
    pub fn container_type(&mut self, kind: u32) -> Result<Elem<'a>> {
        Ok(match kind {
            CONTAINER_NONE => Elem::Any,
            CONTAINER_BUILTIN => {
                let at = self.r.pos();
                let id = self.r.read_u32()?;
                if Kind::from_id(id, Version::V4).is_none() {
                    return Err(self.r.error_at(
                        at,
                        ErrorKind::Unexpected {
                            expected: "a container element type id below 39".into(),
                            found: id.to_string(),
                        },
                    ));
                }
                Elem::Builtin(id)
            }
            CONTAINER_CLASS_NAME => Elem::ClassName(self.str_slice()?),
            _ => Elem::Script(self.str_slice()?),
        })
    }

    /// The element type of an Array with `header` (none in Godot 3).
    #[inline]
    pub fn array_type(&mut self, header: u32) -> Result<Elem<'a>> {
        if self.opts.version == Version::V3 || header & ARRAY_TYPE_MASK == 0 {
            return Ok(Elem::Any);
        }
        self.container_type((header & ARRAY_TYPE_MASK) >> ARRAY_TYPE_SHIFT)
    }

    /// The key and value types of a Dictionary with `header` (none in Godot 3, or
    /// when both are untyped).
    #[inline]
    pub fn dict_types(&mut self, header: u32) -> Result<Option<(Elem<'a>, Elem<'a>)>> {
        if self.opts.version == Version::V3 || header & (DICT_KEY_MASK | DICT_VALUE_MASK) == 0 {
            return Ok(None);
        }
        Ok(Some((
            self.container_type((header & DICT_KEY_MASK) >> DICT_KEY_SHIFT)?,
            self.container_type((header & DICT_VALUE_MASK) >> DICT_VALUE_SHIFT)?,
        )))
    }

    /// An Array's or Dictionary's count (the engine masks the shared flag bit) and the
    /// check that each element's least size (`per`: 4 for an item, 8 for an entry)
    /// fits in what remains.
    #[inline]
    pub fn container_count(&mut self, per: usize, what: &'static str) -> Result<usize> {
        let at = self.r.pos();
        let count = self.u32()? & 0x7FFF_FFFF;
        self.r.check_len_from(at, count as u64, per, what)?;
        Ok(count as usize)
    }

    /// A value's header: its kind, the whole header word and its offset. An unknown
    /// type id is an error naming the version's range.
    #[inline]
    pub fn header(&mut self) -> Result<(Kind, u32, usize)> {
        let start = self.r.pos();
        let header = self.u32()?;
        let id = header & TYPE_MASK;
        let Some(kind) = Kind::from_id(id, self.opts.version) else {
            return Err(self.r.error_at(
                start,
                ErrorKind::Unexpected {
                    expected: format!(
                        "a Godot {} type id (0 to {})",
                        self.opts.version.major(),
                        if self.opts.version == Version::V3 {
                            26
                        } else {
                            38
                        }
                    ),
                    found: format!("type id {id} (header 0x{header:08x})"),
                },
            ));
        };
        Ok((kind, header, start))
    }

    /// The refusal of a full object when objects are not allowed.
    pub fn objects_refused(&self, start: usize) -> Error {
        self.r.error_at(start, ErrorKind::Message(
            "a full object, which is refused unless objects are allowed (the engine's bytes_to_var_with_objects; --allow-objects)".into(),
        ))
    }

    /// The depth limit error.
    #[cold]
    pub fn depth_error(&self) -> Error {
        self.r.error(ErrorKind::DepthLimit {
            limit: self.opts.max_depth,
        })
    }

    /// A NodePath's head after its type header: names, subnames (the obsolete
    /// separate property counted in) and whether it is absolute; and the check that
    /// each name's least size (4 bytes) fits in what remains.
    pub fn node_path_head(&mut self) -> Result<(usize, usize, bool)> {
        let at = self.r.pos();
        let first = self.r.read_u32()?;
        if first & 0x8000_0000 == 0 {
            return Err(self.r.error_at(
                at,
                ErrorKind::Unexpected {
                    expected: "a NodePath in the new format (high bit of the name count set)"
                        .into(),
                    found: format!(
                        "0x{first:08x} (the obsolete string form, which the engine rejects)"
                    ),
                },
            ));
        }
        let name_count = first & 0x7FFF_FFFF;
        let mut sub_count = self.r.read_u32()?;
        let flags = self.r.read_u32()?;
        if flags & 2 != 0 {
            // Obsolete format: the property was stored apart from the subpath.
            sub_count = sub_count.wrapping_add(1);
        }
        let total = name_count as u64 + sub_count as u64;
        self.r.check_len_from(at, total, 4, "NodePath name count")?;
        Ok((name_count as usize, sub_count as usize, flags & 1 != 0))
    }

    /// The `i`th name of a NodePath with `names` names, and its padding; errors name
    /// where (`names[i]` or `subnames[i - names]`).
    pub fn node_path_name(&mut self, i: usize, names: usize) -> Result<(&'a str, &'a [u8])> {
        self.padded_string().map_err(|e| {
            if i < names {
                e.in_index(i).in_key("names")
            } else {
                e.in_index(i - names).in_key("subnames")
            }
        })
    }

    /// A packed array of fixed-size elements of `size` bytes: a count, then the
    /// elements, borrowed.
    #[inline]
    fn packed_bytes(&mut self, size: usize) -> Result<&'a [u8]> {
        let (_, n) = self.counted(size, "packed array count")?;
        self.r.read_bytes(n)
    }

    /// Nil, Bool, Int and Float after their header (`None` for other kinds): the part
    /// of [`Walker::leaf`] small enough to inline where a reader dispatches on the kind
    /// itself (serde).
    #[inline(always)]
    pub fn scalar(&mut self, kind: Kind, header: u32) -> Option<Result<Leaf<'a>>> {
        let r = &mut self.r;
        Some(match kind {
            Kind::Nil => Ok(Leaf::Nil),
            Kind::Bool => r.read_u32().map(|b| Leaf::Bool(b != 0)),
            Kind::Int if header & FLAG_64 != 0 => r.read_i64().map(Leaf::Int),
            Kind::Int => r.read_i32().map(|i| Leaf::Int(i as i64)),
            Kind::Float if header & FLAG_64 != 0 => r.read_f64().map(Leaf::Float),
            Kind::Float => r.read_f32().map(|f| Leaf::Float(f as f64)),
            _ => return None,
        })
    }

    /// Every kind with no children and no text of its own, after its header: read,
    /// checked and borrowed. Godot 3.x reads math types as 32-bit whatever the header
    /// says. Strings, NodePath, PackedStringArray and the containers are not leaves.
    pub fn leaf(&mut self, kind: Kind, header: u32) -> Result<Leaf<'a>> {
        let v3 = self.opts.version == Version::V3;
        let wide = !v3 && header & FLAG_64 != 0;
        let real = if wide { 8 } else { 4 };
        if let Some(scalar) = self.scalar(kind, header) {
            return scalar;
        }
        let r = &mut self.r;
        Ok(match kind {
            Kind::Nil | Kind::Bool | Kind::Int | Kind::Float => unreachable!("read above"),
            Kind::Vector2
            | Kind::Vector3
            | Kind::Rect2
            | Kind::Plane
            | Kind::Quaternion
            | Kind::Vector4
            | Kind::Transform2D
            | Kind::Aabb
            | Kind::Basis
            | Kind::Transform3D
            | Kind::Projection => {
                Leaf::Reals(kind, wide, r.read_bytes(real_components(kind) * real)?)
            }
            Kind::Vector2i => Leaf::Ints(kind, r.read_bytes(8)?),
            Kind::Vector3i => Leaf::Ints(kind, r.read_bytes(12)?),
            Kind::Rect2i | Kind::Vector4i => Leaf::Ints(kind, r.read_bytes(16)?),
            Kind::Color => Leaf::Color(r.read_bytes(16)?),
            Kind::Rid if v3 => Leaf::Rid(0),
            Kind::Rid => Leaf::Rid(r.read_u64()?),
            Kind::Callable => Leaf::Callable,
            Kind::Signal => {
                let name = self.str_slice()?;
                Leaf::Signal(name, self.r.read_u64()?)
            }
            Kind::Object => Leaf::ObjectId(r.read_u64()?),
            Kind::PackedByteArray => {
                let (count, n) = self.counted(1, "packed array count")?;
                let bytes = self.r.read_bytes(n)?;
                // Padding to 4 bytes; the engine tolerates its absence at the very end.
                let pad = (4 - count % 4) % 4;
                self.r.skip(pad.min(self.r.remaining()))?;
                Leaf::Bytes(bytes)
            }
            Kind::PackedInt32Array | Kind::PackedFloat32Array => {
                Leaf::Packed(kind, false, self.packed_bytes(4)?)
            }
            Kind::PackedInt64Array | Kind::PackedFloat64Array => {
                Leaf::Packed(kind, false, self.packed_bytes(8)?)
            }
            Kind::PackedColorArray => Leaf::Packed(kind, false, self.packed_bytes(16)?),
            Kind::PackedVector2Array => Leaf::Packed(kind, wide, self.packed_bytes(2 * real)?),
            Kind::PackedVector3Array => Leaf::Packed(kind, wide, self.packed_bytes(3 * real)?),
            Kind::PackedVector4Array => Leaf::Packed(kind, wide, self.packed_bytes(4 * real)?),
            Kind::String
            | Kind::StringName
            | Kind::NodePath
            | Kind::Dictionary
            | Kind::Array
            | Kind::PackedStringArray => {
                unreachable!("{kind:?} is read by the walker, not as a leaf")
            }
        })
    }

    /// One Variant and everything in it, into `sink`. The commonest plain types (Bool,
    /// Int, Float, String and Vector3 with no other header bits) are read here, inline
    /// in the container loops; everything else, and any of these cut short by the end
    /// of the input, in [`Walker::general`], which reports the error.
    #[inline(always)]
    pub fn value<S: Sink<'a>>(&mut self, sink: &mut S, depth: usize) -> Result<S::Out> {
        if depth > self.opts.max_depth {
            return Err(self.depth_error());
        }
        let start = self.r.pos();
        let rest = self.r.rest();
        let Some(head) = rest.first_chunk::<4>() else {
            return self.general(sink, depth);
        };
        let header = u32::from_le_bytes(*head);
        let body = &rest[4..];
        // Type ids 1 to 4 are the same in both versions. Each arm moves the reader
        // before the sink builds the value, so the value is built where it is returned.
        match header {
            1 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = u32::from_le_bytes(*b);
                    self.r.advance(8);
                    return Ok(sink.bool(start, x != 0));
                }
            }
            2 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = i32::from_le_bytes(*b);
                    self.r.advance(8);
                    return Ok(sink.int(start, x as i64));
                }
            }
            3 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = f32::from_le_bytes(*b);
                    self.r.advance(8);
                    return Ok(sink.float(start, x as f64));
                }
            }
            4 => {
                self.r.advance(4);
                return self.text(sink, start, false);
            }
            0x1_0002 => {
                if let Some(b) = body.first_chunk::<8>() {
                    let x = i64::from_le_bytes(*b);
                    self.r.advance(12);
                    return Ok(sink.int(start, x));
                }
            }
            0x1_0003 => {
                if let Some(b) = body.first_chunk::<8>() {
                    let x = f64::from_le_bytes(*b);
                    self.r.advance(12);
                    return Ok(sink.float(start, x));
                }
            }
            h if h == self.vector3_header => {
                if let Some(b) = body.first_chunk::<12>() {
                    let a = array_f32(b);
                    self.r.advance(16);
                    return Ok(sink.vector3(start, a));
                }
            }
            _ => {}
        }
        self.general(sink, depth)
    }

    /// Every value [`Walker::value`] does not read inline.
    #[inline(never)]
    fn general<S: Sink<'a>>(&mut self, sink: &mut S, depth: usize) -> Result<S::Out> {
        let (kind, header, start) = self.header()?;
        match kind {
            Kind::String => self.text(sink, start, false),
            Kind::StringName => self.text(sink, start, true),
            Kind::Object if header & FLAG_OBJECT_AS_ID == 0 => self.object(sink, start, depth),
            Kind::Dictionary => self.dictionary(sink, start, header, depth),
            Kind::Array => self.array(sink, start, header, depth),
            Kind::NodePath => self.node_path(sink, start),
            Kind::PackedStringArray => {
                // Each element takes at least 4 bytes.
                let (count, _) = self.counted(4, "packed string array count")?;
                let mut out = sink.strings_begin(start, count);
                for i in 0..count {
                    let at = self.r.pos();
                    let text = self.packed_string().map_err(|e| e.in_index(i))?;
                    sink.strings_item(&mut out, at, text);
                }
                Ok(sink.strings_end(out))
            }
            _ => {
                let leaf = self.leaf(kind, header)?;
                Ok(sink.leaf(start, leaf))
            }
        }
    }

    fn node_path<S: Sink<'a>>(&mut self, sink: &mut S, start: usize) -> Result<S::Out> {
        let (names, subnames, absolute) = self.node_path_head()?;
        let mut p = sink.path_begin(start, names, subnames, absolute);
        for i in 0..names + subnames {
            let (text, padding) = self.node_path_name(i, names)?;
            sink.path_name(&mut p, text, padding);
        }
        Ok(sink.path_end(p))
    }

    fn object<S: Sink<'a>>(&mut self, sink: &mut S, start: usize, depth: usize) -> Result<S::Out> {
        if !self.opts.allow_objects {
            return Err(self.objects_refused(start));
        }
        let class = self.str_slice()?;
        if class.is_empty() {
            let obj = sink.object_begin(start, class, 0);
            return Ok(sink.object_end(obj));
        }
        // Each property takes at least 8 bytes (name length, value header).
        let (count, _) = self.counted(8, "object property count")?;
        let mut obj = sink.object_begin(start, class, count);
        for i in 0..count {
            let at = self.r.pos();
            let name = self.str_slice().map_err(|e| e.in_index(i))?;
            sink.object_name(&mut obj, at, name);
            let value = self.value(sink, depth + 1).map_err(|e| e.in_key(name))?;
            sink.object_value(&mut obj, value);
        }
        Ok(sink.object_end(obj))
    }

    fn dictionary<S: Sink<'a>>(
        &mut self,
        sink: &mut S,
        start: usize,
        header: u32,
        depth: usize,
    ) -> Result<S::Out> {
        let types = self.dict_types(header)?;
        // Each entry takes at least 8 bytes (two headers).
        let count = self.container_count(8, "dictionary entry count")?;
        let mut map = sink.dict_begin(start, count, types);
        for i in 0..count {
            let key_at = self.r.pos();
            let key = self
                .value(sink, depth + 1)
                .map_err(|e| e.in_key(format!("<key {i}>")))?;
            let value = match self.value(sink, depth + 1) {
                Ok(v) => v,
                Err(e) => return Err(self.in_entry(e, key_at, i)),
            };
            sink.dict_entry(&mut map, key, value);
        }
        Ok(sink.dict_end(map))
    }

    /// `e`, from the value of entry `i` whose key was read at `key_at`, placed under
    /// that key when it is a String or StringName, else under `<key i>`.
    #[cold]
    fn in_entry(&self, e: Error, key_at: usize, i: usize) -> Error {
        let mut w = Walker::new(
            Reader::with_base(&self.r.data()[key_at..], self.r.base() + key_at),
            &self.opts,
        );
        match w.header() {
            Ok((Kind::String | Kind::StringName, _, _)) => match w.str_slice() {
                Ok(s) => e.in_key(s),
                Err(_) => e.in_key(format!("<key {i}>")),
            },
            _ => e.in_key(format!("<key {i}>")),
        }
    }

    fn array<S: Sink<'a>>(
        &mut self,
        sink: &mut S,
        start: usize,
        header: u32,
        depth: usize,
    ) -> Result<S::Out> {
        let elem = self.array_type(header)?;
        // Each element takes at least 4 bytes (its header).
        let count = self.container_count(4, "array count")?;
        let mut seq = sink.array_begin(start, count, elem);
        for i in 0..count {
            let item = self.value(sink, depth + 1).map_err(|e| e.in_index(i))?;
            sink.array_item(&mut seq, item);
        }
        Ok(sink.array_end(seq))
    }
}
