//! Bytes to [`Value`]: the engine's `decode_variant`, for both wire versions.

use crate::header::*;
use crate::value::*;
use crate::{Kind, Version};
use gamewire_core::{Error, ErrorKind, Reader, Result};

/// Options for decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The wire version.
    pub version: Version,
    /// Accept full objects (like `bytes_to_var_with_objects`); otherwise they are an error.
    /// Objects sent as instance ids (`OBJECT_AS_ID`) are always accepted.
    pub allow_objects: bool,
    /// Deepest nesting accepted (the engine uses 1024).
    pub max_depth: usize,
}

impl DecodeOptions {
    /// Defaults for `version`: no full objects, depth 1024.
    pub fn new(version: Version) -> Self {
        DecodeOptions {
            version,
            allow_objects: false,
            max_depth: gamewire_core::Limits::DEFAULT.max_depth,
        }
    }

    /// Sets [`DecodeOptions::allow_objects`].
    pub fn allow_objects(mut self, allow: bool) -> Self {
        self.allow_objects = allow;
        self
    }

    /// Sets [`DecodeOptions::max_depth`].
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }
}

/// Decodes one Variant that fills `data` exactly (trailing bytes are an error).
pub fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Value> {
    let (value, used) = decode_prefix(data, opts)?;
    if used != data.len() {
        return Err(Error::at(
            used,
            ErrorKind::TrailingBytes {
                count: data.len() - used,
            },
        ));
    }
    Ok(value)
}

/// Decodes one Variant from the start of `data`; returns it and the bytes it used
/// (the engine's `bytes_to_var`, which ignores what follows).
pub fn decode_prefix(data: &[u8], opts: &DecodeOptions) -> Result<(Value, usize)> {
    let mut d = Decoder::new(Reader::new(data), opts);
    let v = d.value(0)?;
    Ok((v, d.r.pos()))
}

/// Like [`decode_prefix`], with error offsets counted from `base`.
pub(crate) fn decode_prefix_at(
    data: &[u8],
    base: usize,
    opts: &DecodeOptions,
) -> Result<(Value, usize)> {
    let mut d = Decoder::new(Reader::with_base(data, base), opts);
    let v = d.value(0)?;
    Ok((v, d.r.pos()))
}

struct Decoder<'a> {
    r: Reader<'a>,
    opts: DecodeOptions,
    strings: StrCache,
    /// The header of a 32-bit Vector3 in this version.
    vector3_header: u32,
}

impl<'a> Decoder<'a> {
    fn new(r: Reader<'a>, opts: &DecodeOptions) -> Self {
        Decoder {
            strings: StrCache::for_input(r.remaining()),
            r,
            opts: *opts,
            vector3_header: Kind::Vector3
                .id(opts.version)
                .expect("Vector3 exists in every version"),
        }
    }
}

/// Slots in [`StrCache`] (a power of two).
const STR_CACHE_SLOTS: usize = 64;

/// The longest string [`StrCache`] holds: its whole wire form (length, text, padding)
/// fits in 16 bytes.
const STR_CACHE_MAX_LEN: usize = 12;

/// For each string length up to [`STR_CACHE_MAX_LEN`]: the mask that keeps its wire
/// form out of 16 bytes read as a little-endian `u128`, and that form's length.
const STR_CACHE_WIRE: [(u128, usize); STR_CACHE_MAX_LEN + 1] = {
    let mut t = [(0u128, 0usize); STR_CACHE_MAX_LEN + 1];
    let mut len = 0;
    while len <= STR_CACHE_MAX_LEN {
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

/// Recently decoded short strings, keyed by their whole wire form (length, text and
/// padding read as one `u128`), so a repeated Dictionary key or tag is copied from here
/// instead of being validated as UTF-8 and built again. Two-way: a string lives in its
/// slot or the slot's pair (`i ^ 1`), newest in its own slot. Made only for inputs of
/// [`STR_CACHE_MIN_INPUT`] bytes or more, so a small Variant does not pay for it. An empty slot holds the key 0 with the text "", which is exactly the wire
/// form of the empty string, so it needs no separate "empty" mark.
struct StrCache {
    slots: Option<Box<[(u128, GString); STR_CACHE_SLOTS]>>,
}

/// The smallest input for which [`StrCache`] is made: making it costs about as much as
/// decoding 20 short strings (a few hundred bytes of input), and a hit saves most of one.
const STR_CACHE_MIN_INPUT: usize = 2048;

impl StrCache {
    /// A cache for an input of `len` bytes (none for a small input).
    fn for_input(len: usize) -> Self {
        StrCache {
            slots: (len >= STR_CACHE_MIN_INPUT)
                .then(|| Box::new(std::array::from_fn(|_| (0, GString::const_new(""))))),
        }
    }
}

impl StrCache {
    /// The string in slot `i` (which [`Decoder::cached_string`] found).
    #[inline(always)]
    fn get(&self, i: usize) -> &GString {
        match &self.slots {
            Some(slots) => &slots[i].1,
            None => unreachable!("a slot was found"),
        }
    }

    #[inline]
    fn slot(key: u128) -> usize {
        let x = key as u64 ^ (key >> 64) as u64;
        let h = (x ^ (x >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - STR_CACHE_SLOTS.trailing_zeros())) as usize
    }
}

macro_rules! reals {
    ($self:ident, $header:expr, $n:literal) => {{
        if $header & FLAG_64 != 0 {
            Real::F64(array_f64::<$n>($self.r.read_bytes($n * 8)?))
        } else {
            Real::F32(array_f32::<$n>($self.r.read_bytes($n * 4)?))
        }
    }};
}

macro_rules! packed_reals {
    ($self:ident, $header:expr, $n:literal) => {{
        let at = $self.r.pos();
        let count = $self.count()?;
        if $header & FLAG_64 != 0 {
            let n = $self
                .r
                .check_len_from(at, count as u64, $n * 8, "packed array count")?;
            Reals::F64(
                $self
                    .r
                    .read_bytes(n)?
                    .chunks_exact($n * 8)
                    .map(array_f64::<$n>)
                    .collect(),
            )
        } else {
            let n = $self
                .r
                .check_len_from(at, count as u64, $n * 4, "packed array count")?;
            Reals::F32(
                $self
                    .r
                    .read_bytes(n)?
                    .chunks_exact($n * 4)
                    .map(array_f32::<$n>)
                    .collect(),
            )
        }
    }};
}

#[inline]
fn array_f32<const N: usize>(b: &[u8]) -> [f32; N] {
    std::array::from_fn(|i| {
        f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

#[inline]
fn array_f64<const N: usize>(b: &[u8]) -> [f64; N] {
    std::array::from_fn(|i| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[8 * i..8 * i + 8]);
        f64::from_le_bytes(a)
    })
}

#[inline]
fn array_i32<const N: usize>(b: &[u8]) -> [i32; N] {
    std::array::from_fn(|i| {
        i32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

impl<'a> Decoder<'a> {
    /// A u32 element count as the engine reads it: an `int32_t` that must not be negative.
    #[inline]
    fn count(&mut self) -> Result<u32> {
        let at = self.r.pos();
        let c = self.r.read_u32()?;
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
    fn counted(&mut self, elem_size: usize, what: &'static str) -> Result<(usize, usize)> {
        let at = self.r.pos();
        let count = self.count()?;
        let len = self.r.check_len_from(at, count as u64, elem_size, what)?;
        Ok((count as usize, len))
    }

    /// A packed array of fixed-size numbers: a count, then the elements, read in bulk.
    #[inline]
    fn packed<T, const N: usize>(&mut self, from_le: impl Fn([u8; N]) -> T) -> Result<Vec<T>> {
        let (_, n) = self.counted(N, "packed array count")?;
        Ok(self
            .r
            .read_bytes(n)?
            .chunks_exact(N)
            .map(|c| from_le(c.try_into().expect("chunks of N bytes")))
            .collect())
    }

    /// The text of a string (u32 byte length, UTF-8 bytes, zero padding to 4 bytes),
    /// borrowed from the input; one bounds check for the whole string.
    #[inline]
    fn str_slice(&mut self) -> Result<&'a str> {
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
        self.r.skip(4 + padded)?;
        Ok(text)
    }

    /// A string as a [`GString`] (inline when short). Strings of up to
    /// [`STR_CACHE_MAX_LEN`] bytes go through [`StrCache`].
    #[inline(always)]
    fn gstring(&mut self) -> Result<GString> {
        match self.cached_string(0) {
            Some((i, total)) => {
                let s = self.strings.get(i).clone();
                self.r.skip(total)?;
                Ok(s)
            }
            None => self.gstring_uncached(),
        }
    }

    /// Where the string `skip` bytes ahead is in [`StrCache`], if it is short and there:
    /// its slot, and the bytes its wire form takes. Reads nothing.
    #[inline(always)]
    fn cached_string(&self, skip: usize) -> Option<(usize, usize)> {
        let head = self.r.rest().get(skip..)?.first_chunk::<16>()?;
        let wire = u128::from_le_bytes(*head);
        let &(mask, total) = STR_CACHE_WIRE.get(wire as u32 as usize)?;
        let key = wire & mask;
        let slots = self.strings.slots.as_deref()?;
        let i = StrCache::slot(key);
        if slots[i].0 == key {
            Some((i, total))
        } else if slots[i ^ 1].0 == key {
            Some((i ^ 1, total))
        } else {
            None
        }
    }

    /// [`Decoder::gstring`] for a string not in the cache: decodes it, and puts it in
    /// the cache when it is short and there is a cache (newest in its own slot, the
    /// old entry moved to the pair slot).
    #[inline(never)]
    fn gstring_uncached(&mut self) -> Result<GString> {
        if self.strings.slots.is_none() {
            return self.str_slice().map(GString::from);
        }
        let key = self.r.rest().first_chunk::<16>().and_then(|head| {
            let wire = u128::from_le_bytes(*head);
            let &(mask, _) = STR_CACHE_WIRE.get(wire as u32 as usize)?;
            Some(wire & mask)
        });
        let s = GString::from(self.str_slice()?);
        if let (Some(key), Some(slots)) = (key, self.strings.slots.as_deref_mut()) {
            let i = StrCache::slot(key);
            let old = std::mem::replace(&mut slots[i], (key, s.clone()));
            slots[i ^ 1] = old;
        }
        Ok(s)
    }

    /// A string as a `String`.
    #[inline]
    fn string(&mut self) -> Result<String> {
        self.str_slice().map(str::to_owned)
    }

    /// A string whose padding bytes are appended to `padding` (NodePath names).
    fn padded_string(&mut self, padding: &mut Vec<u8>) -> Result<String> {
        let len = self.count()? as usize;
        let padded = (len + 3) & !3;
        if padded > self.r.remaining() {
            return Err(self.r.error(ErrorKind::LengthPastEnd {
                what: "string length",
                declared: len as u64,
                remaining: self.r.remaining(),
            }));
        }
        let s = self.r.read_str(len)?.to_owned();
        padding.extend_from_slice(self.r.read_bytes(padded - len)?);
        Ok(s)
    }

    /// A PackedStringArray element: like a string, but the length counts a trailing NUL.
    #[inline]
    fn packed_string(&mut self) -> Result<GString> {
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
        let s = GString::from(self.r.read_str(text_len)?);
        self.r.skip(padded - text_len)?;
        Ok(s)
    }

    fn container_type(&mut self, kind: u32) -> Result<ContainerType> {
        Ok(match kind {
            CONTAINER_NONE => ContainerType::Any,
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
                ContainerType::Builtin(id)
            }
            CONTAINER_CLASS_NAME => ContainerType::ClassName(self.string()?),
            _ => ContainerType::Script(self.string()?),
        })
    }

    /// One Variant. The commonest plain types (Bool, Int, Float, String and Vector3
    /// with no other header bits) are read here, inline in the container loops;
    /// everything else, and any of these cut short by the end of the input, in
    /// [`Decoder::value_general`], which reports the error.
    #[inline(always)]
    fn value(&mut self, depth: usize) -> Result<Value> {
        if depth > self.opts.max_depth {
            return Err(self.depth_error());
        }
        let rest = self.r.rest();
        let Some(head) = rest.first_chunk::<4>() else {
            return self.value_general(depth);
        };
        let header = u32::from_le_bytes(*head);
        let body = &rest[4..];
        // Type ids 1 to 4 are the same in both versions. Each arm moves the reader
        // before it builds the value, so the value is built where it is returned.
        match header {
            1 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = u32::from_le_bytes(*b);
                    self.r.skip(8)?;
                    return Ok(Value::Bool(x != 0));
                }
            }
            2 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = i32::from_le_bytes(*b);
                    self.r.skip(8)?;
                    return Ok(Value::Int(x as i64));
                }
            }
            3 => {
                if let Some(b) = body.first_chunk::<4>() {
                    let x = f32::from_le_bytes(*b);
                    self.r.skip(8)?;
                    return Ok(Value::Float(x as f64));
                }
            }
            4 => {
                if let Some((i, total)) = self.cached_string(4) {
                    self.r.skip(4 + total)?;
                    return Ok(Value::String(self.strings.get(i).clone()));
                }
                self.r.skip(4)?;
                return self.gstring_uncached().map(Value::String);
            }
            0x1_0002 => {
                if let Some(b) = body.first_chunk::<8>() {
                    let x = i64::from_le_bytes(*b);
                    self.r.skip(12)?;
                    return Ok(Value::Int(x));
                }
            }
            0x1_0003 => {
                if let Some(b) = body.first_chunk::<8>() {
                    let x = f64::from_le_bytes(*b);
                    self.r.skip(12)?;
                    return Ok(Value::Float(x));
                }
            }
            h if h == self.vector3_header => {
                if let Some(b) = body.first_chunk::<12>() {
                    let a = array_f32(b);
                    self.r.skip(16)?;
                    return Ok(Value::Vector3(Real::F32(a)));
                }
            }
            _ => {}
        }
        self.value_general(depth)
    }

    #[cold]
    fn depth_error(&self) -> Error {
        self.r.error(ErrorKind::DepthLimit {
            limit: self.opts.max_depth,
        })
    }

    #[inline(never)]
    fn value_general(&mut self, depth: usize) -> Result<Value> {
        let start = self.r.pos();
        let header = self.r.read_u32()?;
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
        let v3 = self.opts.version == Version::V3;
        match kind {
            // The commonest scalars inline; everything else out of line.
            Kind::String => Ok(Value::String(self.gstring()?)),
            Kind::Int if header & FLAG_64 == 0 => Ok(Value::Int(self.r.read_i32()? as i64)),
            Kind::Float if header & FLAG_64 == 0 => Ok(Value::Float(self.r.read_f32()? as f64)),
            Kind::Object => Ok(Value::Object(Box::new(self.object(header, start, depth)?))),
            // Godot 3 has no typed containers: the upper header bits mean nothing there.
            Kind::Dictionary if v3 => Ok(Value::Dictionary(self.dictionary(0, depth)?)),
            Kind::Dictionary => Ok(Value::Dictionary(self.dictionary(header, depth)?)),
            Kind::Array if v3 => Ok(Value::Array(self.array(0, depth)?)),
            Kind::Array => Ok(Value::Array(self.array(header, depth)?)),
            _ => self.leaf(kind, header),
        }
    }

    /// Every type that holds no other Variant: kept out of [`Decoder::value`] so the
    /// recursive frame stays small.
    #[inline(never)]
    fn leaf(&mut self, kind: Kind, header: u32) -> Result<Value> {
        let v3 = self.opts.version == Version::V3;
        let r = &mut self.r;
        Ok(match kind {
            Kind::Nil => Value::Nil,
            Kind::Bool => Value::Bool(r.read_u32()? != 0),
            Kind::Int => {
                if header & FLAG_64 != 0 {
                    Value::Int(r.read_i64()?)
                } else {
                    Value::Int(r.read_i32()? as i64)
                }
            }
            Kind::Float => {
                if header & FLAG_64 != 0 {
                    Value::Float(r.read_f64()?)
                } else {
                    Value::Float(r.read_f32()? as f64)
                }
            }
            Kind::String => Value::String(self.gstring()?),
            // Godot 3.x reads math types as 32-bit whatever the header says.
            Kind::Vector2 if v3 => Value::Vector2(Real::F32(array_f32(r.read_bytes(8)?))),
            Kind::Vector2 => Value::Vector2(reals!(self, header, 2)),
            Kind::Vector2i => Value::Vector2i(array_i32(r.read_bytes(8)?)),
            Kind::Rect2 if v3 => Value::Rect2(Box::new(Real::F32(array_f32(r.read_bytes(16)?)))),
            Kind::Rect2 => Value::Rect2(Box::new(reals!(self, header, 4))),
            Kind::Rect2i => Value::Rect2i(array_i32(r.read_bytes(16)?)),
            Kind::Vector3 if v3 => Value::Vector3(Real::F32(array_f32(r.read_bytes(12)?))),
            Kind::Vector3 => Value::Vector3(reals!(self, header, 3)),
            Kind::Vector3i => Value::Vector3i(array_i32(r.read_bytes(12)?)),
            Kind::Transform2D if v3 => {
                Value::Transform2D(Box::new(Real::F32(array_f32(r.read_bytes(24)?))))
            }
            Kind::Transform2D => Value::Transform2D(Box::new(reals!(self, header, 6))),
            Kind::Vector4 => Value::Vector4(Box::new(reals!(self, header, 4))),
            Kind::Vector4i => Value::Vector4i(array_i32(r.read_bytes(16)?)),
            Kind::Plane if v3 => Value::Plane(Box::new(Real::F32(array_f32(r.read_bytes(16)?)))),
            Kind::Plane => Value::Plane(Box::new(reals!(self, header, 4))),
            Kind::Quaternion if v3 => {
                Value::Quaternion(Box::new(Real::F32(array_f32(r.read_bytes(16)?))))
            }
            Kind::Quaternion => Value::Quaternion(Box::new(reals!(self, header, 4))),
            Kind::Aabb if v3 => Value::Aabb(Box::new(Real::F32(array_f32(r.read_bytes(24)?)))),
            Kind::Aabb => Value::Aabb(Box::new(reals!(self, header, 6))),
            Kind::Basis if v3 => Value::Basis(Box::new(Real::F32(array_f32(r.read_bytes(36)?)))),
            Kind::Basis => Value::Basis(Box::new(reals!(self, header, 9))),
            Kind::Transform3D if v3 => {
                Value::Transform3D(Box::new(Real::F32(array_f32(r.read_bytes(48)?))))
            }
            Kind::Transform3D => Value::Transform3D(Box::new(reals!(self, header, 12))),
            Kind::Projection => Value::Projection(Box::new(reals!(self, header, 16))),
            Kind::Color => Value::Color(array_f32(r.read_bytes(16)?)),
            Kind::StringName => Value::StringName(self.gstring()?),
            Kind::NodePath => Value::NodePath(Box::new(self.node_path()?)),
            Kind::Rid if v3 => Value::Rid(0),
            Kind::Rid => Value::Rid(r.read_u64()?),
            Kind::Object | Kind::Dictionary | Kind::Array => {
                unreachable!("containers are decoded by value()")
            }
            Kind::Callable => Value::Callable,
            Kind::Signal => {
                let name = self.string()?;
                let id = self.r.read_u64()?;
                Value::Signal(Box::new((name, id)))
            }
            Kind::PackedByteArray => {
                let (count, n) = self.counted(1, "packed array count")?;
                let bytes = self.r.read_bytes(n)?.to_vec();
                // Padding to 4 bytes; the engine tolerates its absence at the very end.
                let pad = (4 - count % 4) % 4;
                self.r.skip(pad.min(self.r.remaining()))?;
                Value::PackedByteArray(bytes)
            }
            Kind::PackedInt32Array => Value::PackedInt32Array(self.packed(i32::from_le_bytes)?),
            Kind::PackedInt64Array => Value::PackedInt64Array(self.packed(i64::from_le_bytes)?),
            Kind::PackedFloat32Array => Value::PackedFloat32Array(self.packed(f32::from_le_bytes)?),
            Kind::PackedFloat64Array => Value::PackedFloat64Array(self.packed(f64::from_le_bytes)?),
            Kind::PackedStringArray => {
                // Each element takes at least 4 bytes.
                let (count, _) = self.counted(4, "packed string array count")?;
                let mut out = Vec::with_capacity(count);
                for i in 0..count {
                    out.push(self.packed_string().map_err(|e| e.in_index(i))?);
                }
                Value::PackedStringArray(out)
            }
            Kind::PackedVector2Array if v3 => {
                Value::PackedVector2Array(packed_reals!(self, 0u32, 2))
            }
            Kind::PackedVector2Array => Value::PackedVector2Array(packed_reals!(self, header, 2)),
            Kind::PackedVector3Array if v3 => {
                Value::PackedVector3Array(packed_reals!(self, 0u32, 3))
            }
            Kind::PackedVector3Array => Value::PackedVector3Array(packed_reals!(self, header, 3)),
            Kind::PackedColorArray => {
                let (_, n) = self.counted(16, "packed array count")?;
                Value::PackedColorArray(
                    self.r
                        .read_bytes(n)?
                        .chunks_exact(16)
                        .map(array_f32::<4>)
                        .collect(),
                )
            }
            Kind::PackedVector4Array => Value::PackedVector4Array(packed_reals!(self, header, 4)),
        })
    }

    fn node_path(&mut self) -> Result<NodePath> {
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
        let mut padding = Vec::new();
        let mut names = Vec::with_capacity(name_count as usize);
        for i in 0..name_count as usize {
            names.push(
                self.padded_string(&mut padding)
                    .map_err(|e| e.in_index(i).in_key("names"))?,
            );
        }
        let mut subnames = Vec::with_capacity(sub_count as usize);
        for i in 0..sub_count as usize {
            subnames.push(
                self.padded_string(&mut padding)
                    .map_err(|e| e.in_index(i).in_key("subnames"))?,
            );
        }
        Ok(NodePath {
            names,
            subnames,
            absolute: flags & 1 != 0,
            raw_padding: padding.iter().any(|&b| b != 0).then_some(padding),
        })
    }

    fn object(&mut self, header: u32, start: usize, depth: usize) -> Result<Object> {
        if header & FLAG_OBJECT_AS_ID != 0 {
            return Ok(Object::Id(self.r.read_u64()?));
        }
        if !self.opts.allow_objects {
            return Err(self.r.error_at(start, ErrorKind::Message(
                "a full object, which is refused unless objects are allowed (the engine's bytes_to_var_with_objects; --allow-objects)".into(),
            )));
        }
        let class = self.string()?;
        if class.is_empty() {
            return Ok(Object::Full {
                class,
                properties: Vec::new(),
            });
        }
        // Each property takes at least 8 bytes (name length, value header).
        let (count, _) = self.counted(8, "object property count")?;
        let mut properties = Vec::with_capacity(count);
        for i in 0..count {
            let name = self.string().map_err(|e| e.in_index(i))?;
            let value = self.value(depth + 1).map_err(|e| e.in_key(name.clone()))?;
            properties.push((name, value));
        }
        Ok(Object::Full { class, properties })
    }

    fn dictionary(&mut self, header: u32, depth: usize) -> Result<Dictionary> {
        let types = if header & (DICT_KEY_MASK | DICT_VALUE_MASK) == 0 {
            None
        } else {
            Some((
                self.container_type((header & DICT_KEY_MASK) >> DICT_KEY_SHIFT)?,
                self.container_type((header & DICT_VALUE_MASK) >> DICT_VALUE_SHIFT)?,
            ))
        };
        let at = self.r.pos();
        let count = self.r.read_u32()? & 0x7FFF_FFFF;
        // Each entry takes at least 8 bytes (two headers).
        self.r
            .check_len_from(at, count as u64, 8, "dictionary entry count")?;
        let mut entries = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let key = self
                .value(depth + 1)
                .map_err(|e| e.in_key(format!("<key {i}>")))?;
            let value = match self.value(depth + 1) {
                Ok(v) => v,
                Err(e) => {
                    return Err(match key.as_str() {
                        Some(s) => e.in_key(s),
                        None => e.in_key(format!("<key {i}>")),
                    })
                }
            };
            entries.push((key, value));
        }
        Ok(match types {
            None => Dictionary::new(entries),
            Some((key_type, value_type)) => Dictionary::typed(entries, key_type, value_type),
        })
    }

    fn array(&mut self, header: u32, depth: usize) -> Result<Array> {
        let element_type = if header & ARRAY_TYPE_MASK == 0 {
            None
        } else {
            Some(self.container_type((header & ARRAY_TYPE_MASK) >> ARRAY_TYPE_SHIFT)?)
        };
        let at = self.r.pos();
        let count = self.r.read_u32()? & 0x7FFF_FFFF;
        // Each element takes at least 4 bytes (its header).
        self.r.check_len_from(at, count as u64, 4, "array count")?;
        let mut items = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            items.push(self.value(depth + 1).map_err(|e| e.in_index(i))?);
        }
        Ok(match element_type {
            None => Array::new(items),
            Some(t) => Array::typed(items, t),
        })
    }
}
