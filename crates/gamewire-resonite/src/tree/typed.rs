//! Typed values of the data tree, following Elements.Core's `LoadSaveHelper` (the
//! `Save`/`Load` pair per type that `Coder<T>` calls), `DataTreeValue` and
//! `DataTreeConverter.WriteValue`:
//!
//! - numbers are single BSON values: `bool` a boolean; `byte`, `sbyte`, `short`, `ushort`,
//!   `int` an int32; `uint` an int32 cast unchecked; `long` an int64; `ulong` an int64 cast
//!   unchecked; `float` and `double` a double (a float widened exactly);
//! - vectors (`float3`, `int2`, `bool4`, ...), `floatQ`/`doubleQ` and `color` are arrays of
//!   their elements in order (x, y, z, w / r, g, b, a); `color32` an array of four bytes;
//!   matrices (`float2x2` ...) an array of rows, each an array;
//! - `colorX` is the `color` array followed by its profile name (`Linear`, `sRGB`,
//!   `sRGBAlpha`); a 4-element array loads as `sRGBAlpha`;
//! - enums are their names (`ToString()`), URIs `@` followed by the URI, and a string that
//!   itself starts with `@` (and is longer than one character) gets a second `@` in front;
//! - references (`RefID`) are the target's ID string; `TimeSpan` its ticks (int64);
//!   `decimal` its invariant text; `char` a one-character string; null is BSON null.

use crate::value::Value;
use gamewire_core::{Error, Result};
use std::borrow::Cow;
use std::fmt;

/// An element type of scalars and vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// `bool`.
    Bool,
    /// `byte` (u8).
    Byte,
    /// `ushort` (u16).
    UShort,
    /// `uint` (u32).
    UInt,
    /// `ulong` (u64).
    ULong,
    /// `sbyte` (i8).
    SByte,
    /// `short` (i16).
    Short,
    /// `int` (i32).
    Int,
    /// `long` (i64).
    Long,
    /// `float` (f32).
    Float,
    /// `double` (f64).
    Double,
}

const PRIMS: [(Prim, &str, &str); 11] = [
    (Prim::Bool, "bool", "Boolean"),
    (Prim::Byte, "byte", "Byte"),
    (Prim::UShort, "ushort", "UInt16"),
    (Prim::UInt, "uint", "UInt32"),
    (Prim::ULong, "ulong", "UInt64"),
    (Prim::SByte, "sbyte", "SByte"),
    (Prim::Short, "short", "Int16"),
    (Prim::Int, "int", "Int32"),
    (Prim::Long, "long", "Int64"),
    (Prim::Float, "float", "Single"),
    (Prim::Double, "double", "Double"),
];

impl Prim {
    /// The engine's name (`float`, `int`, ...).
    pub fn name(self) -> &'static str {
        PRIMS.iter().find(|p| p.0 == self).map_or("", |p| p.1)
    }
    fn parse(s: &str) -> Option<Prim> {
        PRIMS.iter().find(|p| p.1 == s || p.2 == s).map(|p| p.0)
    }
}

/// One scalar, of its exact width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// `bool`.
    Bool(bool),
    /// `byte`.
    Byte(u8),
    /// `ushort`.
    UShort(u16),
    /// `uint`.
    UInt(u32),
    /// `ulong`.
    ULong(u64),
    /// `sbyte`.
    SByte(i8),
    /// `short`.
    Short(i16),
    /// `int`.
    Int(i32),
    /// `long`.
    Long(i64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
}

impl Scalar {
    /// The element type.
    pub fn prim(&self) -> Prim {
        match self {
            Scalar::Bool(_) => Prim::Bool,
            Scalar::Byte(_) => Prim::Byte,
            Scalar::UShort(_) => Prim::UShort,
            Scalar::UInt(_) => Prim::UInt,
            Scalar::ULong(_) => Prim::ULong,
            Scalar::SByte(_) => Prim::SByte,
            Scalar::Short(_) => Prim::Short,
            Scalar::Int(_) => Prim::Int,
            Scalar::Long(_) => Prim::Long,
            Scalar::Float(_) => Prim::Float,
            Scalar::Double(_) => Prim::Double,
        }
    }

    /// The BSON value Resonite writes for it.
    pub fn to_bson(&self) -> Value<'static> {
        match *self {
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Byte(v) => Value::Int32(v.into()),
            Scalar::UShort(v) => Value::Int32(v.into()),
            Scalar::UInt(v) => Value::Int32(v as i32),
            Scalar::ULong(v) => Value::Int64(v as i64),
            Scalar::SByte(v) => Value::Int32(v.into()),
            Scalar::Short(v) => Value::Int32(v.into()),
            Scalar::Int(v) => Value::Int32(v),
            Scalar::Long(v) => Value::Int64(v),
            Scalar::Float(v) => Value::Double(v.into()),
            Scalar::Double(v) => Value::Double(v),
        }
    }

    /// Reads a scalar of type `p` from one BSON value.
    pub fn read(v: &Value<'_>, p: Prim) -> Result<Scalar> {
        let bad = || Error::msg(format!("expected {}, found {}", p.name(), describe(v)));
        if p == Prim::Bool {
            return v.as_bool().map(Scalar::Bool).ok_or_else(bad);
        }
        // the reader turns every BSON integer into a long; a double is a double
        let int = match v {
            Value::Int32(i) => Some(i64::from(*i)),
            Value::Int64(i) => Some(*i),
            Value::Double(d) if matches!(p, Prim::Float | Prim::Double) => {
                return Ok(if p == Prim::Float {
                    Scalar::Float(*d as f32)
                } else {
                    Scalar::Double(*d)
                });
            }
            Value::Double(d) if d.fract() == 0.0 && d.abs() < 9.2e18 => Some(*d as i64),
            _ => None,
        }
        .ok_or_else(bad)?;
        let range = || Error::msg(format!("{int} does not fit in {}", p.name()));
        Ok(match p {
            Prim::Byte => Scalar::Byte(u8::try_from(int).map_err(|_| range())?),
            Prim::UShort => Scalar::UShort(u16::try_from(int).map_err(|_| range())?),
            // Extract<uint> and Extract<ulong> cast the stored int unchecked
            Prim::UInt => Scalar::UInt(int as u32),
            Prim::ULong => Scalar::ULong(int as u64),
            Prim::SByte => Scalar::SByte(i8::try_from(int).map_err(|_| range())?),
            Prim::Short => Scalar::Short(i16::try_from(int).map_err(|_| range())?),
            Prim::Int => Scalar::Int(i32::try_from(int).map_err(|_| range())?),
            Prim::Long => Scalar::Long(int),
            Prim::Float => Scalar::Float(int as f32),
            Prim::Double => Scalar::Double(int as f64),
            Prim::Bool => unreachable!("handled above"),
        })
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(v) => write!(f, "{v}"),
            Scalar::Byte(v) => write!(f, "{v}"),
            Scalar::UShort(v) => write!(f, "{v}"),
            Scalar::UInt(v) => write!(f, "{v}"),
            Scalar::ULong(v) => write!(f, "{v}"),
            Scalar::SByte(v) => write!(f, "{v}"),
            Scalar::Short(v) => write!(f, "{v}"),
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::Long(v) => write!(f, "{v}"),
            Scalar::Float(v) => write!(f, "{v}"),
            Scalar::Double(v) => write!(f, "{v}"),
        }
    }
}

/// A member's declared type, as the `Types` table spells it (`float3`, `colorX`, `Uri`, an
/// enum's name, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeType {
    /// A scalar.
    Scalar(Prim),
    /// A vector of 2, 3 or 4 elements (`float3`, `int2`, `bool4`, ...).
    Vector(Prim, usize),
    /// A square matrix (`float2x2`, `double4x4`, ...) of that size.
    Matrix(Prim, usize),
    /// `floatQ` (Float) or `doubleQ` (Double).
    Quaternion(Prim),
    /// `color` (four floats).
    Color,
    /// `color32` (four bytes).
    Color32,
    /// `colorX` (four floats and a profile).
    ColorX,
    /// `string`.
    String,
    /// `char`.
    Char,
    /// `Uri`.
    Uri,
    /// `decimal`.
    Decimal,
    /// `DateTime`.
    DateTime,
    /// `TimeSpan`.
    TimeSpan,
    /// A reference (`RefID`, or a `ReferenceField<T>`'s `Reference`).
    RefId,
    /// Any other named type: an enum, stored as its name.
    Enum(String),
    /// `Nullable<T>` (`T?`): null, or the value saved as `T` (`CoderNullable`).
    Nullable(Box<TreeType>),
}

impl TreeType {
    /// Parses a type name, with or without `[Assembly]` and namespace prefixes.
    pub fn parse(name: &str) -> TreeType {
        let t = Self::unqualified(name);
        if let Some(inner) = t
            .strip_prefix("Nullable<")
            .and_then(|r| r.strip_suffix('>'))
            .or_else(|| t.strip_suffix('?'))
        {
            // .NET has no nullable of a nullable: one level, no recursion
            return TreeType::Nullable(Box::new(Self::parse_plain(Self::unqualified(inner))));
        }
        Self::parse_plain(t)
    }

    /// Without `[Assembly]` and `System.` prefixes.
    fn unqualified(name: &str) -> &str {
        let t = name.trim();
        let t = match t.strip_prefix('[') {
            Some(rest) => rest.split_once(']').map_or(t, |(_, r)| r),
            None => t,
        };
        t.strip_prefix("System.").unwrap_or(t)
    }

    fn parse_plain(t: &str) -> TreeType {
        let n = strip_namespace(t);
        if let Some(p) = Prim::parse(n) {
            return TreeType::Scalar(p);
        }
        match n {
            "string" | "String" => return TreeType::String,
            "char" | "Char" => return TreeType::Char,
            "Uri" => return TreeType::Uri,
            "decimal" | "Decimal" => return TreeType::Decimal,
            "DateTime" => return TreeType::DateTime,
            "TimeSpan" => return TreeType::TimeSpan,
            "RefID" => return TreeType::RefId,
            "floatQ" => return TreeType::Quaternion(Prim::Float),
            "doubleQ" => return TreeType::Quaternion(Prim::Double),
            "color" => return TreeType::Color,
            "color32" => return TreeType::Color32,
            "colorX" => return TreeType::ColorX,
            _ => {}
        }
        let digits = n.trim_start_matches(|c: char| c.is_ascii_lowercase());
        if let Some(p) = Prim::parse(&n[..n.len() - digits.len()]) {
            match digits.as_bytes() {
                [d @ b'2'..=b'4'] => return TreeType::Vector(p, usize::from(d - b'0')),
                [a @ b'2'..=b'4', b'x', b] if a == b && matches!(p, Prim::Float | Prim::Double) => {
                    return TreeType::Matrix(p, usize::from(a - b'0'))
                }
                _ => {}
            }
        }
        TreeType::Enum(n.to_string())
    }

    /// The declared type of `member` in a component of type `component`, when the type
    /// name says it: `ValueField<T>` and the other single-value generics hold `Value: T`;
    /// `ReferenceField<T>` and `DynamicReferenceVariable<T>` hold `Reference: RefID`.
    /// Neos files spell generics the .NET way:
    /// ``FrooxEngine.ValueField`1[[BaseX.float3, BaseX, Version=…]]``.
    pub fn of_member(component: &str, member: &str) -> Option<TreeType> {
        let (base, arg) = if let Some((b, rest)) = component.split_once("`1[[") {
            let end = rest.find([',', ']']).unwrap_or(rest.len());
            (strip_namespace(b), &rest[..end])
        } else {
            let open = component.find('<')?;
            let close = component.rfind('>')?;
            if close <= open {
                return None;
            }
            (
                strip_namespace(&component[..open]),
                &component[open + 1..close],
            )
        };
        match (base, member) {
            (
                "ValueField"
                | "DynamicValueVariable"
                | "ValueRegister"
                | "ValueTag"
                | "ValueUserOverride",
                "Value",
            ) => Some(TreeType::parse(arg)),
            ("ReferenceField" | "DynamicReferenceVariable", "Reference") => Some(TreeType::RefId),
            _ => None,
        }
    }

    /// The engine's name of the type.
    pub fn name(&self) -> String {
        match self {
            TreeType::Scalar(p) => p.name().into(),
            TreeType::Vector(p, n) => format!("{}{n}", p.name()),
            TreeType::Matrix(p, n) => format!("{}{n}x{n}", p.name()),
            TreeType::Quaternion(p) => format!("{}Q", p.name()),
            TreeType::Color => "color".into(),
            TreeType::Color32 => "color32".into(),
            TreeType::ColorX => "colorX".into(),
            TreeType::String => "string".into(),
            TreeType::Char => "char".into(),
            TreeType::Uri => "Uri".into(),
            TreeType::Decimal => "decimal".into(),
            TreeType::DateTime => "DateTime".into(),
            TreeType::TimeSpan => "TimeSpan".into(),
            TreeType::RefId => "RefID".into(),
            TreeType::Enum(n) => n.clone(),
            TreeType::Nullable(t) => format!("Nullable<{}>", t.name()),
        }
    }
}

/// `[FrooxEngine]FrooxEngine.BlendMode` -> `BlendMode`; `System.Single` -> `Single`.
fn strip_namespace(s: &str) -> &str {
    let s = match s.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or(s, |(_, t)| t),
        None => s,
    };
    s.rsplit('.').next().unwrap_or(s)
}

/// A data-tree value read with its type.
#[derive(Debug, Clone, PartialEq)]
pub enum TreeValue {
    /// Null (a null string, URI or reference).
    Null,
    /// A scalar.
    Scalar(Scalar),
    /// A vector (2 to 4 elements of one type).
    Vector(Vec<Scalar>),
    /// A square matrix, row by row.
    Matrix(Vec<Vec<Scalar>>),
    /// `floatQ` (x, y, z, w).
    FloatQ([f32; 4]),
    /// `doubleQ` (x, y, z, w).
    DoubleQ([f64; 4]),
    /// `color` (r, g, b, a).
    Color([f32; 4]),
    /// `color32` (r, g, b, a).
    Color32([u8; 4]),
    /// `colorX`: the color and its profile's name.
    ColorX {
        /// r, g, b, a.
        rgba: [f32; 4],
        /// `Linear`, `sRGB` or `sRGBAlpha`.
        profile: String,
    },
    /// A string (a leading `@@` unescaped to `@`).
    String(String),
    /// A `char`.
    Char(char),
    /// A URI (without the `@` marker): `resdb:///...`, `local://...`, ...
    Uri(String),
    /// An enum value's name (flags: `A, B`).
    Enum(String),
    /// A reference: the target's ID.
    RefId(String),
    /// A `decimal` in its invariant text.
    Decimal(String),
    /// A `DateTime` (UTC milliseconds, BSON's datetime).
    DateTime(i64),
    /// A `TimeSpan` in ticks (100 ns).
    TimeSpan(i64),
}

/// A short description of a BSON value for error messages.
fn describe(v: &Value<'_>) -> String {
    match v {
        Value::Array(a) => format!("array of {}", a.len()),
        Value::String(s) => format!("string {:?}", s.chars().take(40).collect::<String>()),
        other => other.type_name().to_string(),
    }
}

fn array<'v, 'a>(v: &'v Value<'a>, what: &str, lens: &[usize]) -> Result<&'v [Value<'a>]> {
    match v {
        Value::Array(a) if lens.contains(&a.len()) => Ok(a),
        other => Err(Error::msg(format!(
            "expected {what} (an array of {}), found {}",
            lens.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" or "),
            describe(other)
        ))),
    }
}

fn scalars(a: &[Value<'_>], p: Prim) -> Result<Vec<Scalar>> {
    a.iter()
        .enumerate()
        .map(|(i, e)| Scalar::read(e, p).map_err(|e| e.in_index(i)))
        .collect()
}

fn f32x4(a: &[Value<'_>]) -> Result<[f32; 4]> {
    let mut out = [0f32; 4];
    for (i, s) in scalars(&a[..4], Prim::Float)?.into_iter().enumerate() {
        if let Scalar::Float(f) = s {
            out[i] = f;
        }
    }
    Ok(out)
}

fn text<'v>(v: &'v Value<'_>, what: &str) -> Result<&'v str> {
    v.as_str()
        .ok_or_else(|| Error::msg(format!("expected {what} (a string), found {}", describe(v))))
}

/// `Extract<string>`: a stored string longer than one character that starts with `@`
/// loses it (`@@x` -> `@x`).
fn unescape(s: &str) -> String {
    match s.strip_prefix('@') {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => s.to_string(),
    }
}

/// `IsURL`: starts with `@`, second character is not `@`.
fn is_url(s: &str) -> bool {
    let mut c = s.chars();
    c.next() == Some('@') && matches!(c.next(), Some(ch) if ch != '@')
}

impl TreeValue {
    /// Reads `v` as a value of type `ty`. A shape that does not fit is an error naming what
    /// was expected and found (array elements add their index to the error's path).
    pub fn read(v: &Value<'_>, ty: &TreeType) -> Result<TreeValue> {
        if matches!(v, Value::Null)
            && matches!(
                ty,
                TreeType::String
                    | TreeType::Uri
                    | TreeType::RefId
                    | TreeType::Enum(_)
                    | TreeType::Decimal
            )
        {
            return Ok(TreeValue::Null);
        }
        Ok(match ty {
            TreeType::Nullable(_) if matches!(v, Value::Null) => TreeValue::Null,
            TreeType::Nullable(t) => return TreeValue::read(v, t),
            TreeType::Scalar(p) => TreeValue::Scalar(Scalar::read(v, *p)?),
            TreeType::Vector(p, n) => TreeValue::Vector(scalars(array(v, &ty.name(), &[*n])?, *p)?),
            TreeType::Matrix(p, n) => {
                let rows = array(v, &ty.name(), &[*n])?;
                let mut out = Vec::with_capacity(*n);
                for (i, r) in rows.iter().enumerate() {
                    let row = array(r, "a matrix row", &[*n]).and_then(|r| scalars(r, *p));
                    out.push(row.map_err(|e| e.in_index(i))?);
                }
                TreeValue::Matrix(out)
            }
            TreeType::Quaternion(Prim::Double) => {
                let a = array(v, "doubleQ", &[4])?;
                let mut q = [0f64; 4];
                for (i, s) in scalars(a, Prim::Double)?.into_iter().enumerate() {
                    if let Scalar::Double(d) = s {
                        q[i] = d;
                    }
                }
                TreeValue::DoubleQ(q)
            }
            TreeType::Quaternion(_) => TreeValue::FloatQ(f32x4(array(v, "floatQ", &[4])?)?),
            TreeType::Color => TreeValue::Color(f32x4(array(v, "color", &[4])?)?),
            TreeType::Color32 => {
                let a = array(v, "color32", &[4])?;
                let mut c = [0u8; 4];
                for (i, s) in scalars(a, Prim::Byte)?.into_iter().enumerate() {
                    if let Scalar::Byte(b) = s {
                        c[i] = b;
                    }
                }
                TreeValue::Color32(c)
            }
            TreeType::ColorX => {
                let a = array(v, "colorX", &[4, 5])?;
                let rgba = f32x4(a)?;
                let profile = match a.get(4) {
                    Some(p) => text(p, "a color profile name")
                        .map_err(|e| e.in_index(4))?
                        .to_string(),
                    None => "sRGBAlpha".to_string(),
                };
                TreeValue::ColorX { rgba, profile }
            }
            TreeType::String => {
                let s = text(v, "string")?;
                if is_url(s) {
                    return Err(Error::msg(format!(
                        "expected string, found a URI {:?}",
                        s.chars().take(40).collect::<String>()
                    )));
                }
                TreeValue::String(unescape(s))
            }
            TreeType::Char => {
                let s = unescape(text(v, "char")?);
                let mut c = s.chars();
                match (c.next(), c.next()) {
                    (Some(ch), None) => TreeValue::Char(ch),
                    _ => return Err(Error::msg(format!("expected char, found string {s:?}"))),
                }
            }
            TreeType::Uri => {
                let s = text(v, "Uri")?;
                if !is_url(s) {
                    return Err(Error::msg(format!(
                        "expected Uri (a string starting with @), found string {:?}",
                        s.chars().take(40).collect::<String>()
                    )));
                }
                TreeValue::Uri(s[1..].to_string())
            }
            TreeType::Enum(_) => TreeValue::Enum(unescape(text(v, &ty.name())?)),
            TreeType::RefId => TreeValue::RefId(text(v, "RefID")?.to_string()),
            TreeType::Decimal => TreeValue::Decimal(unescape(text(v, "decimal")?)),
            TreeType::DateTime => match v {
                Value::DateTime(ms) => TreeValue::DateTime(*ms),
                other => {
                    return Err(Error::msg(format!(
                        "expected DateTime, found {}",
                        describe(other)
                    )))
                }
            },
            TreeType::TimeSpan => match Scalar::read(v, Prim::Long)? {
                Scalar::Long(t) => TreeValue::TimeSpan(t),
                _ => unreachable!("read as long"),
            },
        })
    }

    /// Reads `v` by its shape when no declared type is known: numbers by BSON type (a
    /// double that is an exact `float` reads as `float`), arrays of 2–4 numbers or booleans
    /// as vectors, 4 numbers and a string as `colorX`, `@` strings as URIs, ID-shaped
    /// strings (a GUID) as references. `None` for shapes with no convention (documents,
    /// binary, other arrays).
    pub fn infer(v: &Value<'_>) -> Option<TreeValue> {
        Some(match v {
            Value::Null => TreeValue::Null,
            Value::Bool(b) => TreeValue::Scalar(Scalar::Bool(*b)),
            Value::Int32(i) => TreeValue::Scalar(Scalar::Int(*i)),
            Value::Int64(i) => TreeValue::Scalar(Scalar::Long(*i)),
            Value::Double(d) => TreeValue::Scalar(float_or_double(*d)),
            Value::DateTime(ms) => TreeValue::DateTime(*ms),
            Value::String(s) if is_url(s) => TreeValue::Uri(s[1..].to_string()),
            Value::String(s) if is_guid(s) => TreeValue::RefId(s.to_string()),
            Value::String(s) => TreeValue::String(unescape(s)),
            Value::Array(a) => {
                if a.len() == 5 && a[4].as_str().is_some() && a[..4].iter().all(is_number) {
                    return TreeValue::read(v, &TreeType::ColorX).ok();
                }
                if !(2..=4).contains(&a.len()) {
                    return None;
                }
                let p = if a.iter().all(|e| matches!(e, Value::Bool(_))) {
                    Prim::Bool
                } else if a.iter().all(|e| matches!(e, Value::Int32(_))) {
                    Prim::Int
                } else if a
                    .iter()
                    .all(|e| matches!(e, Value::Int32(_) | Value::Int64(_)))
                {
                    Prim::Long
                } else if a.iter().all(is_number) {
                    match a.iter().all(|e| {
                        matches!(float_or_double(e.as_f64().unwrap_or(0.0)), Scalar::Float(_))
                    }) {
                        true => Prim::Float,
                        false => Prim::Double,
                    }
                } else {
                    return None;
                };
                TreeValue::Vector(scalars(a, p).ok()?)
            }
            _ => return None,
        })
    }

    /// The value's type name (`float3`, `colorX`, `Uri`, ...; `enum` for enum names).
    pub fn type_name(&self) -> String {
        match self {
            TreeValue::Null => "null".into(),
            TreeValue::Scalar(s) => s.prim().name().into(),
            TreeValue::Vector(v) => {
                let p = v.first().map_or(Prim::Float, Scalar::prim);
                format!("{}{}", p.name(), v.len())
            }
            TreeValue::Matrix(m) => {
                let p = m
                    .first()
                    .and_then(|r| r.first())
                    .map_or(Prim::Float, Scalar::prim);
                format!("{}{n}x{n}", p.name(), n = m.len())
            }
            TreeValue::FloatQ(_) => "floatQ".into(),
            TreeValue::DoubleQ(_) => "doubleQ".into(),
            TreeValue::Color(_) => "color".into(),
            TreeValue::Color32(_) => "color32".into(),
            TreeValue::ColorX { .. } => "colorX".into(),
            TreeValue::String(_) => "string".into(),
            TreeValue::Char(_) => "char".into(),
            TreeValue::Uri(_) => "Uri".into(),
            TreeValue::Enum(_) => "enum".into(),
            TreeValue::RefId(_) => "RefID".into(),
            TreeValue::Decimal(_) => "decimal".into(),
            TreeValue::DateTime(_) => "DateTime".into(),
            TreeValue::TimeSpan(_) => "TimeSpan".into(),
        }
    }

    /// The BSON value Resonite writes for this value.
    pub fn to_bson(&self) -> Value<'static> {
        let s = |t: String| Value::String(Cow::Owned(t));
        let floats = |f: &[f32]| {
            f.iter()
                .map(|x| Value::Double(f64::from(*x)))
                .collect::<Vec<_>>()
        };
        match self {
            TreeValue::Null => Value::Null,
            TreeValue::Scalar(x) => x.to_bson(),
            TreeValue::Vector(v) => Value::Array(v.iter().map(Scalar::to_bson).collect()),
            TreeValue::Matrix(m) => Value::Array(
                m.iter()
                    .map(|r| Value::Array(r.iter().map(Scalar::to_bson).collect()))
                    .collect(),
            ),
            TreeValue::FloatQ(q) | TreeValue::Color(q) => Value::Array(floats(q).into()),
            TreeValue::DoubleQ(q) => Value::Array(q.iter().map(|x| Value::Double(*x)).collect()),
            TreeValue::Color32(c) => {
                Value::Array(c.iter().map(|b| Value::Int32(i32::from(*b))).collect())
            }
            TreeValue::ColorX { rgba, profile } => {
                let mut a = floats(rgba);
                a.push(s(profile.clone()));
                Value::Array(a.into())
            }
            TreeValue::String(t) | TreeValue::Enum(t) | TreeValue::Decimal(t) => s(escape(t)),
            TreeValue::Char(c) => s(escape(&c.to_string())),
            TreeValue::Uri(u) => s(format!("@{u}")),
            TreeValue::RefId(id) => s(id.clone()),
            TreeValue::DateTime(ms) => Value::DateTime(*ms),
            TreeValue::TimeSpan(t) => Value::Int64(*t),
        }
    }
}

/// `PreprocessString`: a string longer than one character starting with `@` gets another.
fn escape(t: &str) -> String {
    if t.starts_with('@') && t.chars().nth(1).is_some() {
        format!("@{t}")
    } else {
        t.to_string()
    }
}

fn is_number(v: &Value<'_>) -> bool {
    matches!(v, Value::Int32(_) | Value::Int64(_) | Value::Double(_))
}

fn float_or_double(d: f64) -> Scalar {
    let f = d as f32;
    if f64::from(f) == d || d.is_nan() {
        Scalar::Float(f)
    } else {
        Scalar::Double(d)
    }
}

/// 8-4-4-4-12 hexadecimal digits.
fn is_guid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

impl fmt::Display for TreeValue {
    /// `float3 (1, 2, 3)`, `colorX (1, 0.5, 0, 1, sRGB)`, `Uri resdb:///x`, `string "a"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
            let parts: Vec<String> = items.iter().map(T::to_string).collect();
            write!(f, "({})", parts.join(", "))
        }
        if let TreeValue::Null = self {
            return write!(f, "null");
        }
        write!(f, "{} ", self.type_name())?;
        match self {
            TreeValue::Null => Ok(()),
            TreeValue::Scalar(s) => write!(f, "{s}"),
            TreeValue::Vector(v) => list(f, v),
            TreeValue::Matrix(m) => {
                let rows: Vec<String> = m
                    .iter()
                    .map(|r| {
                        let p: Vec<String> = r.iter().map(Scalar::to_string).collect();
                        format!("({})", p.join(", "))
                    })
                    .collect();
                write!(f, "({})", rows.join(", "))
            }
            TreeValue::FloatQ(q) | TreeValue::Color(q) => list(f, q),
            TreeValue::DoubleQ(q) => list(f, q),
            TreeValue::Color32(c) => list(f, c),
            TreeValue::ColorX { rgba, profile } => {
                let p: Vec<String> = rgba.iter().map(f32::to_string).collect();
                write!(f, "({}, {profile})", p.join(", "))
            }
            TreeValue::String(s) => write!(f, "{s:?}"),
            TreeValue::Char(c) => write!(f, "{c:?}"),
            TreeValue::Uri(u) | TreeValue::Enum(u) | TreeValue::RefId(u) => write!(f, "{u}"),
            TreeValue::Decimal(d) => write!(f, "{d}"),
            TreeValue::DateTime(ms) => write!(f, "{ms} ms"),
            TreeValue::TimeSpan(t) => write!(f, "{t} ticks"),
        }
    }
}
