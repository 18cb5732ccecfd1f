//! [`Value`] to bytes: the engine's `encode_variant`, for both wire versions.

use crate::header::*;
use crate::value::*;
use crate::{Kind, Version};
use gamewire_core::{Error, ErrorKind, Result};

/// Options for encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The wire version.
    pub version: Version,
    /// Deepest nesting written (the engine refuses past 1024).
    pub max_depth: usize,
}

impl EncodeOptions {
    /// Defaults for `version`: depth 1024.
    pub fn new(version: Version) -> Self {
        EncodeOptions {
            version,
            max_depth: gamewire_core::Limits::DEFAULT.max_depth,
        }
    }
}

/// Encodes `value` as the engine's `var_to_bytes` would.
pub fn encode(value: &Value, opts: &EncodeOptions) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    encode_into(value, opts, &mut out)?;
    Ok(out)
}

/// Appends the encoding of `value` to `out`. On error, `out` holds a partial encoding
/// after its original contents.
pub fn encode_into(value: &Value, opts: &EncodeOptions, out: &mut Vec<u8>) -> Result<()> {
    Encoder {
        out,
        opts: *opts,
        vector3_header: Kind::Vector3
            .id(opts.version)
            .expect("Vector3 exists in every version"),
    }
    .value(value, 0)
}

struct Encoder<'a> {
    out: &'a mut Vec<u8>,
    opts: EncodeOptions,
    /// The header of a 32-bit Vector3 in this version.
    vector3_header: u32,
}

/// Copies `src` (at most 32 bytes) to the start of `dst` (at least 32 bytes) with two
/// fixed-size, possibly overlapping copies instead of a call to `memcpy`.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n >= 16 {
        dst[..16].copy_from_slice(&src[..16]);
        dst[n - 16..n].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..n].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..n].copy_from_slice(&src[n - 4..]);
    } else if n > 0 {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/// A header and a 4-byte payload as one array (one append instead of two).
#[inline(always)]
fn head4(header: u32, payload: [u8; 4]) -> [u8; 8] {
    let h = header.to_le_bytes();
    [
        h[0], h[1], h[2], h[3], payload[0], payload[1], payload[2], payload[3],
    ]
}

/// A header and an 8-byte payload as one array.
#[inline(always)]
fn head8(header: u32, payload: [u8; 8]) -> [u8; 12] {
    let mut a = [0u8; 12];
    a[..4].copy_from_slice(&header.to_le_bytes());
    a[4..].copy_from_slice(&payload);
    a
}

/// True when `d` must be written in 64 bits: the engine's `double(float(d)) != d`
/// (so NaN is always 64-bit).
#[inline]
pub(crate) fn float_needs_64(d: f64) -> bool {
    (d as f32) as f64 != d
}

/// Appends numbers as little-endian bytes: one copy of the whole slice on a
/// little-endian host, element by element elsewhere.
#[inline]
fn le_bulk<T: bytemuck::Pod, const N: usize>(out: &mut Vec<u8>, v: &[T], to_le: fn(T) -> [u8; N]) {
    if cfg!(target_endian = "little") {
        out.extend_from_slice(bytemuck::cast_slice(v));
    } else {
        out.reserve(v.len() * N);
        for &x in v {
            out.extend_from_slice(&to_le(x));
        }
    }
}

/// True when `i` must be written in 64 bits.
#[inline]
pub(crate) fn int_needs_64(i: i64) -> bool {
    i > i32::MAX as i64 || i < i32::MIN as i64
}

impl Encoder<'_> {
    #[inline]
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    #[inline]
    fn string(&mut self, s: &str) {
        let b = s.as_bytes();
        self.u32(b.len() as u32);
        self.text_padded(b);
    }

    /// A String value: header, length, text, zero padding to 4 bytes. A short one is
    /// put together in a 32-byte block, appended whole and cut to length (one append),
    /// when the output has room for the whole block: a caller that sized the output
    /// exactly must not see it grow.
    #[inline(always)]
    fn string_value(&mut self, s: &str) {
        let b = s.as_bytes();
        let head = head4(4, (b.len() as u32).to_le_bytes());
        if b.len() <= 24 && self.out.capacity() - self.out.len() >= 32 {
            let end = self.out.len() + 8 + ((b.len() + 3) & !3);
            let mut block = [0u8; 32];
            block[..8].copy_from_slice(&head);
            copy_short(&mut block[8..], b);
            self.out.extend_from_slice(&block);
            self.out.truncate(end);
        } else {
            self.out.extend_from_slice(&head);
            self.text_padded(b);
        }
    }

    /// `b` and zeros up to a multiple of 4 bytes: four zeros are appended and the
    /// excess cut, which is cheaper than a variable-length fill, when the output has
    /// room for them (so an output sized exactly never grows).
    #[inline(always)]
    fn text_padded(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
        if self.out.capacity() - self.out.len() >= 4 {
            let end = self.out.len() + (4 - b.len() % 4) % 4;
            self.out.extend_from_slice(&[0; 4]);
            self.out.truncate(end);
        } else {
            self.pad(b.len());
        }
    }

    #[inline]
    fn pad(&mut self, len: usize) {
        let pad = (4 - len % 4) % 4;
        self.out.extend_from_slice(&[0u8; 3][..pad]);
    }

    fn count(&mut self, n: usize, what: &str) -> Result<()> {
        self.count_checked(n, what)?;
        self.u32(n as u32);
        Ok(())
    }

    /// Checks that `n` elements fit the wire's count.
    #[inline]
    fn count_checked(&self, n: usize, what: &str) -> Result<()> {
        if n > i32::MAX as usize {
            return Err(Error::msg(format!(
                "{what} has {n} elements; the wire allows at most 2^31 - 1"
            )));
        }
        Ok(())
    }

    fn f32s(&mut self, v: &[f32]) {
        le_bulk(self.out, v, f32::to_le_bytes);
    }

    fn f64s(&mut self, v: &[f64]) {
        le_bulk(self.out, v, f64::to_le_bytes);
    }

    fn header(&mut self, kind: Kind, flags: u32) -> Result<()> {
        match kind.id(self.opts.version) {
            Some(id) => {
                self.u32(id | flags);
                Ok(())
            }
            None => Err(Error::new(ErrorKind::Unexpected {
                expected: format!("a type that exists in Godot {}", self.opts.version.major()),
                found: format!("{kind}, which Godot 3 does not have"),
            })),
        }
    }

    fn real<const N: usize>(&mut self, kind: Kind, r: &Real<N>) -> Result<()> {
        match r {
            Real::F32(a) => {
                self.header(kind, 0)?;
                self.f32s(a);
            }
            Real::F64(a) => {
                self.v4_only(kind, "64-bit (double-precision)")?;
                self.header(kind, FLAG_64)?;
                self.f64s(a);
            }
        }
        Ok(())
    }

    fn reals<const N: usize>(&mut self, kind: Kind, r: &Reals<N>) -> Result<()> {
        match r {
            Reals::F32(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), kind.name(self.opts.version))?;
                self.f32s(v.as_flattened());
            }
            Reals::F64(v) => {
                self.v4_only(kind, "64-bit (double-precision)")?;
                self.header(kind, FLAG_64)?;
                self.count(v.len(), kind.name(self.opts.version))?;
                self.f64s(v.as_flattened());
            }
        }
        Ok(())
    }

    fn v4_only(&self, kind: Kind, what: &str) -> Result<()> {
        if self.opts.version == Version::V3 {
            return Err(Error::new(ErrorKind::Unexpected {
                expected: "a value Godot 3 can hold".into(),
                found: format!("a {what} {kind}, which exists only in Godot 4"),
            }));
        }
        Ok(())
    }

    fn container_kind(&self, t: &ContainerType) -> Result<u32> {
        if !t.is_any() {
            self.v4_only(Kind::Array, "typed")?;
        }
        Ok(match t {
            ContainerType::Any => CONTAINER_NONE,
            ContainerType::Builtin(_) => CONTAINER_BUILTIN,
            ContainerType::ClassName(_) => CONTAINER_CLASS_NAME,
            ContainerType::Script(_) => CONTAINER_SCRIPT,
        })
    }

    fn container_type(&mut self, t: &ContainerType) {
        match t {
            ContainerType::Any => {}
            ContainerType::Builtin(id) => self.u32(*id),
            ContainerType::ClassName(s) | ContainerType::Script(s) => self.string(s),
        }
    }

    /// One Variant. The commonest plain types are written here, inline in the container
    /// loops, each as few appends as it can; everything else in [`Encoder::leaf`] and
    /// [`Encoder::container`]. Type ids 1 to 4 are the same in both versions.
    #[inline(always)]
    fn value(&mut self, v: &Value, depth: usize) -> Result<()> {
        if depth > self.opts.max_depth {
            return Err(Error::new(ErrorKind::DepthLimit {
                limit: self.opts.max_depth,
            }));
        }
        match v {
            Value::Bool(b) => self
                .out
                .extend_from_slice(&head4(1, (*b as u32).to_le_bytes())),
            Value::Int(i) if !int_needs_64(*i) => self
                .out
                .extend_from_slice(&head4(2, (*i as i32).to_le_bytes())),
            Value::Int(i) => self
                .out
                .extend_from_slice(&head8(2 | FLAG_64, i.to_le_bytes())),
            Value::Float(f) if !float_needs_64(*f) => self
                .out
                .extend_from_slice(&head4(3, (*f as f32).to_le_bytes())),
            Value::Float(f) => self
                .out
                .extend_from_slice(&head8(3 | FLAG_64, f.to_le_bytes())),
            Value::String(s) => self.string_value(s),
            Value::Vector3(Real::F32([x, y, z])) => {
                let mut a = [0u8; 16];
                a[..4].copy_from_slice(&self.vector3_header.to_le_bytes());
                a[4..8].copy_from_slice(&x.to_le_bytes());
                a[8..12].copy_from_slice(&y.to_le_bytes());
                a[12..].copy_from_slice(&z.to_le_bytes());
                self.out.extend_from_slice(&a);
            }
            Value::Object(_) | Value::Dictionary(_) | Value::Array(_) => {
                return self.container(v, depth)
            }
            _ => return self.leaf(v),
        }
        Ok(())
    }

    /// Every type that holds no other Variant: kept out of [`Encoder::value`] so the
    /// recursive frame stays small.
    #[inline(never)]
    fn leaf(&mut self, v: &Value) -> Result<()> {
        let kind = v.kind();
        match v {
            Value::Nil => self.header(kind, 0)?,
            Value::Bool(b) => {
                self.header(kind, 0)?;
                self.u32(*b as u32);
            }
            Value::Int(i) => {
                if int_needs_64(*i) {
                    self.header(kind, FLAG_64)?;
                    self.out.extend_from_slice(&i.to_le_bytes());
                } else {
                    self.header(kind, 0)?;
                    self.out.extend_from_slice(&(*i as i32).to_le_bytes());
                }
            }
            Value::Float(f) => {
                if float_needs_64(*f) {
                    self.header(kind, FLAG_64)?;
                    self.out.extend_from_slice(&f.to_le_bytes());
                } else {
                    self.header(kind, 0)?;
                    self.out.extend_from_slice(&(*f as f32).to_le_bytes());
                }
            }
            Value::String(s) | Value::StringName(s) => {
                self.header(kind, 0)?;
                self.string(s);
            }
            Value::Vector2(r) => self.real(kind, r)?,
            Value::Rect2(r) | Value::Vector4(r) | Value::Plane(r) | Value::Quaternion(r) => {
                self.real(kind, &**r)?
            }
            Value::Vector3(r) => self.real(kind, r)?,
            Value::Transform2D(r) | Value::Aabb(r) => self.real(kind, &**r)?,
            Value::Basis(r) => self.real(kind, &**r)?,
            Value::Transform3D(r) => self.real(kind, &**r)?,
            Value::Projection(r) => self.real(kind, &**r)?,
            Value::Vector2i(a) => self.ints(kind, a)?,
            Value::Vector3i(a) => self.ints(kind, a)?,
            Value::Rect2i(a) | Value::Vector4i(a) => self.ints(kind, a)?,
            Value::Color(c) => {
                self.header(kind, 0)?;
                self.f32s(c);
            }
            Value::NodePath(p) => {
                self.header(kind, 0)?;
                if p.names.len() > i32::MAX as usize || p.subnames.len() > i32::MAX as usize {
                    return Err(Error::msg("NodePath has too many names"));
                }
                self.u32(p.names.len() as u32 | 0x8000_0000);
                self.u32(p.subnames.len() as u32);
                self.u32(p.absolute as u32);
                let raw = p
                    .raw_padding
                    .as_deref()
                    .filter(|r| r.len() == p.padding_len());
                let mut at = 0;
                for s in p.names.iter().chain(&p.subnames) {
                    let b = s.as_bytes();
                    self.u32(b.len() as u32);
                    self.out.extend_from_slice(b);
                    let pad = (4 - b.len() % 4) % 4;
                    match raw {
                        Some(r) => self.out.extend_from_slice(&r[at..at + pad]),
                        None => self.pad(b.len()),
                    }
                    at += pad;
                }
            }
            Value::Rid(id) => {
                self.header(kind, 0)?;
                match self.opts.version {
                    Version::V4 => self.out.extend_from_slice(&id.to_le_bytes()),
                    Version::V3 if *id == 0 => {}
                    Version::V3 => {
                        return Err(Error::msg(format!(
                            "RID {id}: Godot 3 writes RIDs without their id, so only RID 0 can be written"
                        )))
                    }
                }
            }
            Value::Callable => self.header(kind, 0)?,
            Value::Signal(s) => {
                self.header(kind, 0)?;
                self.string(&s.0);
                self.out.extend_from_slice(&s.1.to_le_bytes());
            }
            Value::PackedByteArray(b) => {
                self.header(kind, 0)?;
                self.count(b.len(), "PackedByteArray")?;
                self.out.extend_from_slice(b);
                self.pad(b.len());
            }
            Value::PackedInt32Array(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedInt32Array")?;
                le_bulk(self.out, v, i32::to_le_bytes);
            }
            Value::PackedInt64Array(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedInt64Array")?;
                le_bulk(self.out, v, i64::to_le_bytes);
            }
            Value::PackedFloat32Array(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedFloat32Array")?;
                self.f32s(v);
            }
            Value::PackedFloat64Array(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedFloat64Array")?;
                self.f64s(v);
            }
            Value::PackedStringArray(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedStringArray")?;
                for s in v {
                    // The length counts a trailing NUL, which is written.
                    let b = s.as_bytes();
                    self.u32(b.len() as u32 + 1);
                    self.out.extend_from_slice(b);
                    self.out.push(0);
                    self.pad(b.len() + 1);
                }
            }
            Value::PackedVector2Array(r) => self.reals(kind, r)?,
            Value::PackedVector3Array(r) => self.reals(kind, r)?,
            Value::PackedColorArray(v) => {
                self.header(kind, 0)?;
                self.count(v.len(), "PackedColorArray")?;
                self.f32s(v.as_flattened());
            }
            Value::PackedVector4Array(r) => self.reals(kind, r)?,
            Value::Object(_) | Value::Dictionary(_) | Value::Array(_) => {
                unreachable!("containers are encoded by container()")
            }
        }
        Ok(())
    }

    fn container(&mut self, v: &Value, depth: usize) -> Result<()> {
        let kind = v.kind();
        match v {
            Value::Object(o) => match &**o {
                Object::Id(id) => {
                    self.header(kind, FLAG_OBJECT_AS_ID)?;
                    self.out.extend_from_slice(&id.to_le_bytes());
                }
                Object::Full { class, properties } => {
                    self.header(kind, 0)?;
                    self.string(class);
                    if !class.is_empty() {
                        self.count(properties.len(), "Object")?;
                        for (name, value) in properties {
                            self.string(name);
                            self.value(value, depth + 1)
                                .map_err(|e| e.in_key(name.clone()))?;
                        }
                    } else if !properties.is_empty() {
                        return Err(Error::msg(
                            "a null object (empty class name) cannot have properties",
                        ));
                    }
                }
            },
            Value::Dictionary(d) => {
                if d.key_type().is_any() && d.value_type().is_any() {
                    let id = kind.id(self.opts.version).expect("Dictionary exists");
                    self.count_checked(d.entries.len(), "Dictionary")?;
                    self.out
                        .extend_from_slice(&head4(id, (d.entries.len() as u32).to_le_bytes()));
                } else {
                    let flags = (self.container_kind(d.key_type())? << DICT_KEY_SHIFT)
                        | (self.container_kind(d.value_type())? << DICT_VALUE_SHIFT);
                    self.header(kind, flags)?;
                    self.container_type(d.key_type());
                    self.container_type(d.value_type());
                    self.count(d.entries.len(), "Dictionary")?;
                }
                for (i, (k, val)) in d.entries.iter().enumerate() {
                    self.value(k, depth + 1)
                        .map_err(|e| e.in_key(format!("<key {i}>")))?;
                    self.value(val, depth + 1).map_err(|e| match k.as_str() {
                        Some(s) => e.in_key(s),
                        None => e.in_key(format!("<key {i}>")),
                    })?;
                }
            }
            Value::Array(a) => {
                if a.element_type().is_any() {
                    let id = kind.id(self.opts.version).expect("Array exists");
                    self.count_checked(a.items.len(), "Array")?;
                    self.out
                        .extend_from_slice(&head4(id, (a.items.len() as u32).to_le_bytes()));
                } else {
                    let flags = self.container_kind(a.element_type())? << ARRAY_TYPE_SHIFT;
                    self.header(kind, flags)?;
                    self.container_type(a.element_type());
                    self.count(a.items.len(), "Array")?;
                }
                for (i, item) in a.items.iter().enumerate() {
                    self.value(item, depth + 1).map_err(|e| e.in_index(i))?;
                }
            }
            _ => unreachable!("leaves are encoded by leaf()"),
        }
        Ok(())
    }

    fn ints<const N: usize>(&mut self, kind: Kind, a: &[i32; N]) -> Result<()> {
        self.header(kind, 0)?;
        for x in a {
            self.out.extend_from_slice(&x.to_le_bytes());
        }
        Ok(())
    }
}
