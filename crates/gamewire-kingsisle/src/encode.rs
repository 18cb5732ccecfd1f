//! [`Document`] to bytes: the shallow and deep bit encoders.

use crate::bits::BitWriter;
use crate::stack::{StackGuard, TOO_DEEP};
use crate::types::{flags, ClassDef, Kind, PropertyDef, TypeList};
use crate::value::{serializer_flags as sf, Document, Object, Raw, Value};
use crate::walk::masked;
use crate::{zlib, Options};
use gamewire_core::{Error, Result};

/// Encodes a document: the reverse of [`crate::decode`], layer by layer.
///
/// With flag 1 the flags word written is the document's (when it has one), else
/// `opts.flags`; the serializer then follows that word. Non-zero padding and trailing
/// bytes recorded by the decoder are put back, so decoded engine bytes re-encode exactly.
pub fn encode(doc: &Document, types: &TypeList, opts: &Options) -> Result<Vec<u8>> {
    let mut fl = opts.flags;
    let mut out = Vec::new();
    if fl & sf::STATEFUL_FLAGS != 0 {
        fl = doc.flags.unwrap_or(fl);
        out.extend_from_slice(&fl.to_le_bytes());
    }
    let mut enc = Encoder {
        w: BitWriter::with_capacity(256),
        types,
        flags: fl,
        mask: opts.property_mask,
        shallow: opts.shallow,
        padding: &doc.padding,
        pad_at: 0,
        depth: 0,
        max_depth: opts.limits.max_depth,
        stack: StackGuard::new(),
    };
    enc.object_body(&doc.root)?;
    enc.align();
    let mut stream = enc.w.into_bytes();
    stream.extend_from_slice(&doc.trailing);
    if fl & sf::WITH_COMPRESSION != 0 {
        let marker = match doc.zlib_marker {
            Some(m) => m,
            None => {
                // Compress only when it helps.
                let packed = zlib::compress(&stream);
                if packed.len() + 4 < stream.len() {
                    out.push(1);
                    out.extend_from_slice(&(stream.len() as u32).to_le_bytes());
                    out.extend_from_slice(&packed);
                    return Ok(finish(out, doc, opts));
                }
                0
            }
        };
        out.push(marker);
        if marker != 0 {
            match &doc.flag_zlib {
                Some(k) if k.matches(&stream) => {
                    out.extend_from_slice(&k.size.to_le_bytes());
                    out.extend_from_slice(&k.stream);
                }
                _ => out.extend_from_slice(&zlib::frame(&stream)),
            }
        } else {
            out.extend_from_slice(&stream);
        }
    } else {
        out.extend_from_slice(&stream);
    }
    Ok(finish(out, doc, opts))
}

fn finish(out: Vec<u8>, doc: &Document, opts: &Options) -> Vec<u8> {
    if !opts.manual_zlib {
        return out;
    }
    match &doc.manual_zlib {
        Some(k) if k.matches(&out) => {
            let mut f = k.size.to_le_bytes().to_vec();
            f.extend_from_slice(&k.stream);
            f
        }
        _ => zlib::frame(&out),
    }
}

struct Encoder<'d, 't> {
    w: BitWriter,
    types: &'t TypeList,
    flags: u32,
    mask: u32,
    shallow: bool,
    padding: &'d [(u64, u8)],
    pad_at: usize,
    depth: usize,
    max_depth: usize,
    stack: StackGuard,
}

fn mismatch(p: &PropertyDef, v: &Value) -> Error {
    Error::msg(format!(
        "expected a value of type {} for this property, found {}",
        p.type_name,
        value_kind(v)
    ))
}

/// A short name of a value's variant, for error messages.
pub fn value_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "a null object",
        Value::Bool(_) => "a bool",
        Value::Int(_) => "a signed integer",
        Value::UInt(_) => "an unsigned integer",
        Value::Float(_) => "a float",
        Value::Double(_) => "a double",
        Value::String(_) => "a string",
        Value::WString(_) => "a wide string",
        Value::Enum(_) => "an enum value",
        Value::EnumName(_) => "an enum name",
        Value::Color(_) => "a Color",
        Value::Vec3(_) => "a Vector3D",
        Value::Euler(_) => "an Euler",
        Value::Quat(_) => "a Quaternion",
        Value::Matrix(_) => "a Matrix3x3",
        Value::PointInt(_) => "a Point<int>",
        Value::PointUChar(_) => "a Point<unsigned char>",
        Value::PointUInt(_) => "a Point<unsigned int>",
        Value::PointFloat(_) => "a Point<float>",
        Value::SizeInt(_) => "a Size<int>",
        Value::RectInt(_) => "a Rect<int>",
        Value::RectFloat(_) => "a Rect<float>",
        Value::List(_) | Value::Bools(_) | Value::SmallInts(_) | Value::SmallUInts(_) => "a list",
        Value::Object(_) => "an object",
        Value::Raw(_) => "raw bits",
    }
}

fn range(p: &PropertyDef, v: impl std::fmt::Display) -> Error {
    Error::msg(format!("value {v} does not fit in {}", p.type_name))
}

impl Encoder<'_, '_> {
    /// Aligns, putting back recorded padding at this bit position.
    #[inline]
    fn align(&mut self) {
        let width = self.w.pad_width();
        if width == 0 {
            return;
        }
        let mut pad = 0u8;
        if self.pad_at < self.padding.len() {
            let pos = self.w.pos() as u64;
            while self.pad_at < self.padding.len() && self.padding[self.pad_at].0 < pos {
                self.pad_at += 1;
            }
            if let Some(&(p, v)) = self.padding.get(self.pad_at) {
                if p == pos {
                    pad = v & ((1u16 << width) - 1) as u8;
                    self.pad_at += 1;
                }
            }
        }
        self.w.align_with(pad);
    }

    #[inline]
    fn u32_aligned(&mut self, v: u32) {
        self.align();
        self.w.write_bytes(&v.to_le_bytes());
    }

    fn bytes_aligned(&mut self, b: &[u8]) {
        self.align();
        self.w.write_bytes(b);
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Error::new(gamewire_core::ErrorKind::DepthLimit {
                limit: self.max_depth,
            }));
        }
        if !self.stack.ok() {
            return Err(Error::msg(TOO_DEEP));
        }
        Ok(())
    }

    fn class(&self, hash: u32) -> Result<&ClassDef> {
        self.types.get(hash).ok_or_else(|| {
            Error::msg(format!(
                "unknown type hash {hash} (0x{hash:08x}): not in the type list"
            ))
        })
    }

    /// Writes a nested object (or null, or raw bits of an unknown type).
    fn object(&mut self, v: &Value, p: &PropertyDef) -> Result<()> {
        match v {
            Value::Null => {
                self.u32_aligned(0);
                Ok(())
            }
            Value::Object(o) => self.object_body(o),
            Value::Raw(r) if r.type_hash != 0 && !self.shallow => {
                self.u32_aligned(r.type_hash);
                let size =
                    u32::try_from(r.bits + 32).map_err(|_| Error::msg("raw object too large"))?;
                self.w.write_bits(u64::from(size), 32);
                self.raw(r);
                Ok(())
            }
            _ => Err(mismatch(p, v)),
        }
    }

    fn raw(&mut self, r: &Raw) {
        let mut left = r.bits;
        for &b in &r.data {
            if left == 0 {
                break;
            }
            let n = left.min(8) as u32;
            self.w.write_bits(u64::from(b), n);
            left -= u64::from(n);
        }
        // Missing data bits (a hand-made Raw) are written as zeros.
        while left > 0 {
            let n = left.min(64) as u32;
            self.w.write_bits(0, n);
            left -= u64::from(n);
        }
    }

    fn object_body(&mut self, o: &Object) -> Result<()> {
        let types = self.types;
        let class = match types.get(o.hash) {
            Some(c) => c,
            None => return Err(self.class(o.hash).unwrap_err()),
        };
        self.u32_aligned(o.hash);
        self.enter()?;
        if self.shallow {
            self.shallow_props(class, o)?;
        } else {
            self.deep_props(class, o)?;
        }
        self.depth -= 1;
        Ok(())
    }

    fn shallow_props(&mut self, class: &ClassDef, o: &Object) -> Result<()> {
        let mut hint = 0usize;
        for p in &class.properties {
            if !masked(p, self.mask) {
                continue;
            }
            let found = match o.properties.get(hint) {
                Some((h, v)) if h == p.hash => {
                    hint += 1;
                    Some(v)
                }
                _ => o
                    .properties
                    .iter()
                    .enumerate()
                    .find(|(_, (h, _))| *h == p.hash)
                    .map(|(i, (_, v))| {
                        hint = i + 1;
                        v
                    }),
            };
            if p.flags & flags::DELTA_ENCODE != 0 {
                self.w.write_bit(found.is_some());
                if found.is_none() {
                    if self.flags & sf::FORBID_DELTA_ENCODE != 0 {
                        return Err(Error::msg(
                            "optional property is absent, but serializer flag 16 forbids absence",
                        )
                        .in_key(p.name.as_str()));
                    }
                    continue;
                }
            }
            let Some(v) = found else {
                return Err(Error::msg(format!(
                    "{} has no value for property {} (shallow mode writes every property the mask selects)",
                    class.name, p.name
                )));
            };
            self.property(p, v).map_err(|e| e.in_key(p.name.as_str()))?;
        }
        Ok(())
    }

    fn deep_props(&mut self, class: &ClassDef, o: &Object) -> Result<()> {
        let size_at = self.w.pos();
        self.w.write_bits(0, 32);
        let mut hint = 0usize;
        for (hash, v) in &o.properties {
            let start = self.w.pos();
            self.align();
            let psize_at = self.w.pos();
            self.w.write_bits(0, 32);
            self.w.write_bits(u64::from(hash), 32);
            match class.property_index(hash, hint) {
                Some(i) => {
                    hint = i + 1;
                    let p = &class.properties[i];
                    self.property(p, v).map_err(|e| e.in_key(p.name.as_str()))?;
                }
                None => match v {
                    Value::Raw(r) if r.type_hash == 0 => self.raw(r),
                    _ => {
                        return Err(Error::msg(format!(
                            "{} has no property with hash {hash} (0x{hash:08x})",
                            class.name
                        )))
                    }
                },
            }
            let size = u32::try_from(self.w.pos() - start)
                .map_err(|_| Error::msg("property larger than 4 Gbit"))?;
            self.w.patch_u32(psize_at, size);
        }
        let size = u32::try_from(self.w.pos() - size_at)
            .map_err(|_| Error::msg("object larger than 4 Gbit"))?;
        self.w.patch_u32(size_at, size);
        Ok(())
    }

    fn property(&mut self, p: &PropertyDef, v: &Value) -> Result<()> {
        if p.dynamic {
            let Some(items) = v.list_items() else {
                return Err(mismatch(p, v));
            };
            self.length(items.len(), false)?;
            self.enter()?;
            for (i, item) in items.iter().enumerate() {
                self.single(p, item).map_err(|e| e.in_index(i))?;
            }
            self.depth -= 1;
            Ok(())
        } else {
            self.single(p, v)
        }
    }

    fn length(&mut self, n: usize, string: bool) -> Result<()> {
        if self.flags & sf::COMPACT_LENGTH_PREFIXES != 0 {
            if n < 0x80 {
                self.w.write_bits(n as u64 * 2, 8);
            } else if n < 1 << 31 {
                self.w.write_bits(((n as u64) << 1) | 1, 32);
            } else {
                return Err(Error::msg(format!(
                    "length {n} does not fit a compact prefix"
                )));
            }
        } else if string {
            let n = u16::try_from(n)
                .map_err(|_| Error::msg(format!("string length {n} does not fit in u16")))?;
            self.bytes_aligned(&n.to_le_bytes());
        } else {
            let n = u32::try_from(n)
                .map_err(|_| Error::msg(format!("count {n} does not fit in u32")))?;
            self.u32_aligned(n);
        }
        Ok(())
    }

    fn string(&mut self, s: &[u8]) -> Result<()> {
        self.length(s.len(), true)?;
        if !s.is_empty() {
            self.bytes_aligned(s);
        }
        Ok(())
    }

    fn single(&mut self, p: &PropertyDef, v: &Value) -> Result<()> {
        macro_rules! int {
            ($t:ty, $x:expr) => {{
                let x = $x;
                let n = <$t>::try_from(x).map_err(|_| range(p, x))?;
                self.bytes_aligned(&n.to_le_bytes());
            }};
        }
        match (p.kind, v) {
            (Kind::Bool, Value::Bool(b)) => self.w.write_bit(*b),
            (Kind::I8, Value::Int(x)) => int!(i8, *x),
            (Kind::U8, Value::UInt(x)) => int!(u8, *x),
            (Kind::I16, Value::Int(x)) => int!(i16, *x),
            (Kind::U16, Value::UInt(x)) => int!(u16, *x),
            (Kind::I32, Value::Int(x)) => int!(i32, *x),
            (Kind::U32, Value::UInt(x)) => int!(u32, *x),
            (Kind::I64, Value::Int(x)) => int!(i64, *x),
            (Kind::U64, Value::UInt(x)) => int!(u64, *x),
            (Kind::F32, Value::Float(x)) => self.bytes_aligned(&x.to_le_bytes()),
            (Kind::F64, Value::Double(x)) => self.bytes_aligned(&x.to_le_bytes()),
            (Kind::SBits(n), Value::Int(x)) => {
                let lim = 1i64 << (n - 1);
                if *x < -lim || *x >= lim {
                    return Err(range(p, x));
                }
                self.w.write_bits(*x as u64, u32::from(n));
            }
            (Kind::UBits(n), Value::UInt(x)) => {
                if *x >> n != 0 {
                    return Err(range(p, x));
                }
                self.w.write_bits(*x, u32::from(n));
            }
            (Kind::Str, Value::String(s)) => self.string(s)?,
            (Kind::WStr, Value::WString(s)) => {
                self.length(s.len(), true)?;
                if !s.is_empty() {
                    self.align();
                    let mut b = Vec::with_capacity(s.len() * 2);
                    for u in s {
                        b.extend_from_slice(&u.to_le_bytes());
                    }
                    self.w.write_bytes(&b);
                }
            }
            (Kind::Enum, Value::Enum(x)) => {
                if self.flags & sf::HUMAN_READABLE_ENUMS != 0 {
                    let names = p.enum_to_names(*x).ok_or_else(|| {
                        Error::msg(format!("{x} is no option of {}", p.enum_label()))
                    })?;
                    self.string(names.as_bytes())?;
                } else {
                    if *x < i64::from(i32::MIN) || *x > i64::from(u32::MAX) {
                        return Err(range(p, x));
                    }
                    self.w.write_bits(*x as u64 & 0xFFFF_FFFF, 32);
                }
            }
            (Kind::Enum, Value::EnumName(s)) => {
                let x = p.enum_from_names(s).map_err(|bad| {
                    Error::msg(format!("{bad:?} is no option of {}", p.enum_label()))
                })?;
                if self.flags & sf::HUMAN_READABLE_ENUMS != 0 {
                    self.string(s.as_bytes())?;
                } else {
                    self.w.write_bits(x as u64 & 0xFFFF_FFFF, 32);
                }
            }
            (Kind::Color, Value::Color(c)) => self.bytes_aligned(c),
            (Kind::Vec3, Value::Vec3(a)) | (Kind::Euler, Value::Euler(a)) => self.floats(a),
            (Kind::Quat, Value::Quat(a)) | (Kind::RectFloat, Value::RectFloat(a)) => self.floats(a),
            (Kind::Matrix, Value::Matrix(a)) => self.floats(&a[..]),
            (Kind::PointFloat, Value::PointFloat(a)) => self.floats(a),
            (Kind::PointInt, Value::PointInt(a)) | (Kind::SizeInt, Value::SizeInt(a)) => {
                self.ints(a)
            }
            (Kind::RectInt, Value::RectInt(a)) => self.ints(a),
            (Kind::PointUChar, Value::PointUChar(a)) => self.bytes_aligned(a),
            (Kind::PointUInt, Value::PointUInt(a)) => {
                let mut b = [0u8; 8];
                b[..4].copy_from_slice(&a[0].to_le_bytes());
                b[4..].copy_from_slice(&a[1].to_le_bytes());
                self.bytes_aligned(&b);
            }
            (Kind::Object, v) => self.object(v, p)?,
            (_, v) => return Err(mismatch(p, v)),
        }
        Ok(())
    }

    fn floats(&mut self, a: &[f32]) {
        self.align();
        for x in a {
            self.w.write_bytes(&x.to_le_bytes());
        }
    }

    fn ints(&mut self, a: &[i32]) {
        self.align();
        for x in a {
            self.w.write_bytes(&x.to_le_bytes());
        }
    }
}
