//! Bytes to [`Document`]: the shallow and deep bit decoders.

use crate::bits::BitReader;
use crate::deep;
use crate::layers;
use crate::properties::Builder;
use crate::stack::{StackGuard, TOO_DEEP};
use crate::types::{flags, ClassDef, Kind, PropertyDef, TypeList};
use crate::value::{serializer_flags as sf, Document, KeptZlib, Object, Raw, Value};
use crate::{zlib, Options};
use gamewire_core::{Error, ErrorKind, Result};
use std::borrow::Cow;

/// Decodes one serialized object blob.
///
/// Order of layers, as the game reads them: manual zlib framing (when
/// [`Options::manual_zlib`]), the flags word (when flag 1), the zlib marker (when flag 8),
/// then the bit stream holding the root object.
pub fn decode(data: &[u8], types: &TypeList, opts: &Options) -> Result<Document> {
    let mut doc = Document::default();
    let data: Cow<[u8]> = if opts.manual_zlib {
        let inflated = zlib::unframe(data, 0, opts.limits.decompress_cap(data.len()))?;
        doc.manual_zlib = Some(KeptZlib {
            size: inflated.len() as u32,
            stream: data[4..].to_vec(),
        });
        Cow::Owned(inflated)
    } else {
        Cow::Borrowed(data)
    };
    let layers = layers::read(&data, opts)?;
    let (fl, at, base) = (layers.flags, layers.at, layers.base);
    doc.flags = layers.flags_word;
    doc.zlib_marker = layers.zlib_marker;
    let inner: Cow<[u8]> = match layers.inflated {
        Some(inflated) => {
            doc.flag_zlib = Some(KeptZlib {
                size: inflated.len() as u32,
                stream: data[at + 4..].to_vec(),
            });
            Cow::Owned(inflated)
        }
        None => Cow::Borrowed(&data[at..]),
    };
    let mut de = Decoder {
        r: BitReader::new(&inner, base),
        types,
        flags: fl,
        mask: opts.property_mask,
        shallow: opts.shallow,
        skip: opts.skip_unknown && !opts.shallow,
        depth: 0,
        max_depth: opts.limits.max_depth,
        last: None,
        stack: StackGuard::new(),
    };
    let root = match de.object()? {
        Value::Object(o) => o,
        Value::Null => {
            return Err(Error::at(
                base,
                ErrorKind::Message("the root object is null (type hash 0)".into()),
            ))
        }
        Value::Raw(r) => return Err(deep::unknown_root(base, r.type_hash)),
        _ => {
            return Err(Error::at(
                base,
                ErrorKind::Message("the root object has an unknown type".into()),
            ))
        }
    };
    de.r.align();
    doc.trailing = de.r.rest_bytes().to_vec();
    doc.padding = std::mem::take(&mut de.r.padding);
    doc.root = root;
    Ok(doc)
}

struct Decoder<'a, 't> {
    r: BitReader<'a>,
    types: &'t TypeList,
    flags: u32,
    mask: u32,
    shallow: bool,
    skip: bool,
    depth: usize,
    max_depth: usize,
    /// The class met last (lists usually hold one class).
    last: Option<&'t ClassDef>,
    stack: StackGuard,
}

/// True when shallow mode writes `p` under `mask`.
#[inline]
pub(crate) fn masked(p: &PropertyDef, mask: u32) -> bool {
    p.flags & mask == mask && p.flags & flags::DEPRECATED == 0
}

impl<'a, 't> Decoder<'a, 't> {
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

    fn object(&mut self) -> Result<Value> {
        let start = self.r.pos();
        let hash = self.r.read_u32_aligned()?;
        if hash == 0 {
            return Ok(Value::Null);
        }
        let class = match self.last {
            Some(c) if c.hash == hash => Some(c),
            _ => self.types.get(hash),
        };
        let Some(class) = class else {
            if self.skip {
                let size = self.r.object_size()?;
                let raw = self.r.read_raw(size)?;
                return Ok(Value::Raw(Box::new(Raw {
                    type_hash: hash,
                    bits: size as u64,
                    data: raw,
                })));
            }
            return Err(deep::unknown_type(&self.r, start, hash, self.shallow));
        };
        self.last = Some(class);
        self.enter()?;
        let obj = if self.shallow {
            self.shallow_props(class)?
        } else {
            self.deep_props(class)?
        };
        self.depth -= 1;
        Ok(Value::Object(obj))
    }

    fn shallow_props(&mut self, class: &ClassDef) -> Result<Object> {
        let mut props = Builder::with_capacity(class.properties.len());
        for p in &class.properties {
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
            let v = match self.fast_scalar(p) {
                Some(Ok(v)) => v,
                Some(Err(e)) => return Err(e.in_key(p.name.as_str())),
                None => self.property(p).map_err(|e| e.in_key(p.name.as_str()))?,
            };
            props.push(p.hash, v);
        }
        Ok(Object {
            hash: class.hash,
            properties: props.finish(),
        })
    }

    fn deep_props(&mut self, class: &ClassDef) -> Result<Object> {
        let mut left = self.r.object_size()?;
        let mut props = Builder::with_capacity(class.properties.len());
        let mut hint = 0usize;
        while left > 0 {
            let start = self.r.pos();
            let size = self.r.read_u32_aligned()? as usize;
            // Aligned already: the size field was.
            let hash = self.r.read_u32_aligned()?;
            let value = match class.property_index(hash, hint) {
                Some(i) => {
                    hint = i + 1;
                    let p = &class.properties[i];
                    let v = match self.fast_scalar(p) {
                        Some(Ok(v)) => v,
                        Some(Err(e)) => return Err(e.in_key(p.name.as_str())),
                        None => self.property(p).map_err(|e| e.in_key(p.name.as_str()))?,
                    };
                    deep::check_size(&self.r, start, size, p.name.as_str())?;
                    v
                }
                None if self.skip => Value::Raw(Box::new(deep::read_unknown(
                    &mut self.r,
                    start,
                    size,
                    hash,
                )?)),
                None => return Err(deep::unknown_hash(&self.r, start, hash, class)),
            };
            left = deep::take(&self.r, start, left, size)?;
            props.push(hash, value);
        }
        Ok(Object {
            hash: class.hash,
            properties: props.finish(),
        })
    }

    /// The common byte-aligned scalars, read in the property loop itself (no call, no
    /// `Result<Value>` moved through memory); `None` for everything else.
    #[inline(always)]
    fn fast_scalar(&mut self, p: &PropertyDef) -> Option<Result<Value>> {
        if p.dynamic {
            return None;
        }
        let r = &mut self.r;
        Some(match p.kind {
            Kind::U32 => r.read_u32_aligned().map(|x| Value::UInt(u64::from(x))),
            Kind::I32 => r
                .read_u32_aligned()
                .map(|x| Value::Int(i64::from(x as i32))),
            Kind::F32 => r
                .read_u32_aligned()
                .map(|x| Value::Float(f32::from_bits(x))),
            Kind::U64 => r.read_array().map(|a| Value::UInt(u64::from_le_bytes(a))),
            Kind::Bool => r.read_bit().map(Value::Bool),
            Kind::F64 => r.read_array().map(|a| Value::Double(f64::from_le_bytes(a))),
            Kind::I64 => r.read_array().map(|a| Value::Int(i64::from_le_bytes(a))),
            Kind::U8 => r.read_array::<1>().map(|a| Value::UInt(u64::from(a[0]))),
            Kind::U16 => r
                .read_array()
                .map(|a| Value::UInt(u64::from(u16::from_le_bytes(a)))),
            Kind::Str => self.string().map(|b| Value::String(b.to_vec())),
            _ => return None,
        })
    }

    fn property(&mut self, p: &PropertyDef) -> Result<Value> {
        if p.dynamic {
            let at = self.r.pos();
            let n = self.length(false)?;
            // Every element takes at least one bit.
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
            // Elements of a few bits are kept compact (one byte each), so memory stays
            // in proportion to the input.
            match p.kind {
                Kind::Bool => {
                    let mut items = Vec::with_capacity(n.min(1 << 16));
                    for i in 0..n {
                        items.push(self.r.read_bit().map_err(|e| e.in_index(i))?);
                    }
                    self.depth -= 1;
                    return Ok(Value::Bools(items));
                }
                Kind::SBits(b) if b <= 7 => {
                    let mut items = Vec::with_capacity(n.min(1 << 16));
                    for i in 0..n {
                        let x = self
                            .r
                            .read_signed(u32::from(b))
                            .map_err(|e| e.in_index(i))?;
                        items.push(x as i8);
                    }
                    self.depth -= 1;
                    return Ok(Value::SmallInts(items));
                }
                Kind::UBits(b) if b <= 7 => {
                    let mut items = Vec::with_capacity(n.min(1 << 16));
                    for i in 0..n {
                        let x = self.r.read_bits(u32::from(b)).map_err(|e| e.in_index(i))?;
                        items.push(x as u8);
                    }
                    self.depth -= 1;
                    return Ok(Value::SmallUInts(items));
                }
                _ => {}
            }
            let mut items = Vec::with_capacity(n.min(1 << 16));
            for i in 0..n {
                items.push(self.single(p).map_err(|e| e.in_index(i))?);
            }
            self.depth -= 1;
            Ok(Value::List(items))
        } else {
            self.single(p)
        }
    }

    /// A length prefix: compact (flag 2) or aligned u16 (strings) / u32 (containers).
    #[inline]
    fn length(&mut self, string: bool) -> Result<usize> {
        deep::length(&mut self.r, self.flags, string)
    }

    fn string(&mut self) -> Result<&'a [u8]> {
        let len = self.length(true)?;
        if len == 0 {
            return Ok(&[]);
        }
        self.r.read_bytes(len, "string length")
    }

    fn single(&mut self, p: &PropertyDef) -> Result<Value> {
        let r = &mut self.r;
        Ok(match p.kind {
            Kind::Bool => Value::Bool(r.read_bit()?),
            Kind::I8 => Value::Int(i64::from(i8::from_le_bytes(r.read_array()?))),
            Kind::U8 => Value::UInt(u64::from(r.read_array::<1>()?[0])),
            Kind::I16 => Value::Int(i64::from(i16::from_le_bytes(r.read_array()?))),
            Kind::U16 => Value::UInt(u64::from(u16::from_le_bytes(r.read_array()?))),
            Kind::I32 => Value::Int(i64::from(i32::from_le_bytes(r.read_array()?))),
            Kind::U32 => Value::UInt(u64::from(u32::from_le_bytes(r.read_array()?))),
            Kind::I64 => Value::Int(i64::from_le_bytes(r.read_array()?)),
            Kind::U64 => Value::UInt(u64::from_le_bytes(r.read_array()?)),
            Kind::F32 => Value::Float(f32::from_le_bytes(r.read_array()?)),
            Kind::F64 => Value::Double(f64::from_le_bytes(r.read_array()?)),
            Kind::SBits(n) => Value::Int(r.read_signed(u32::from(n))?),
            Kind::UBits(n) => Value::UInt(r.read_bits(u32::from(n))?),
            Kind::Str => Value::String(self.string()?.to_vec()),
            Kind::WStr => {
                let len = self.length(true)?;
                if len == 0 {
                    Value::WString(Vec::new())
                } else {
                    let b = self
                        .r
                        .read_bytes(len.saturating_mul(2), "wide string length")?;
                    Value::WString(
                        b.chunks_exact(2)
                            .map(|c| u16::from_le_bytes([c[0], c[1]]))
                            .collect(),
                    )
                }
            }
            Kind::Enum => {
                if self.flags & sf::HUMAN_READABLE_ENUMS != 0 {
                    let at = self.r.pos();
                    let raw = self.string()?;
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
                        Ok(v) if p.enum_to_names(v).as_deref() == Some(text) => Value::Enum(v),
                        Ok(_) => Value::EnumName(text.to_owned()),
                    }
                } else {
                    Value::Enum(self.r.read_bits(32)? as i64)
                }
            }
            Kind::Color => Value::Color(r.read_array()?),
            Kind::Vec3 => Value::Vec3(deep::f32s(&r.read_array::<12>()?)),
            Kind::Euler => Value::Euler(deep::f32s(&r.read_array::<12>()?)),
            Kind::Quat => Value::Quat(deep::f32s(&r.read_array::<16>()?)),
            Kind::Matrix => Value::Matrix(Box::new(deep::f32s(&r.read_array::<36>()?))),
            Kind::PointInt => Value::PointInt(deep::i32s(&r.read_array::<8>()?)),
            Kind::SizeInt => Value::SizeInt(deep::i32s(&r.read_array::<8>()?)),
            Kind::RectInt => Value::RectInt(deep::i32s(&r.read_array::<16>()?)),
            Kind::PointUChar => Value::PointUChar(r.read_array()?),
            Kind::PointUInt => {
                let a: [u8; 8] = r.read_array()?;
                Value::PointUInt([
                    u32::from_le_bytes([a[0], a[1], a[2], a[3]]),
                    u32::from_le_bytes([a[4], a[5], a[6], a[7]]),
                ])
            }
            Kind::PointFloat => Value::PointFloat(deep::f32s(&r.read_array::<8>()?)),
            Kind::RectFloat => Value::RectFloat(deep::f32s(&r.read_array::<16>()?)),
            Kind::Object => self.object()?,
        })
    }
}
