//! The model: a lossless value of every ObjectProperty type, and a decoded document.

pub use crate::bytes::Bytes;
use crate::properties::Properties;

/// Serializer flag bits (the `flags` of [`crate::Options`]).
pub mod serializer_flags {
    /// The flags word is written first (u32) and replaces the caller's flags on read.
    pub const STATEFUL_FLAGS: u32 = 1;
    /// Lengths and counts use the compact prefix (1 bit, then 7 or 31 bits).
    pub const COMPACT_LENGTH_PREFIXES: u32 = 2;
    /// Enums are written as their names (a string) instead of a u32 value.
    pub const HUMAN_READABLE_ENUMS: u32 = 4;
    /// The object stream is preceded by a zlib marker byte (and compressed when not 0).
    pub const WITH_COMPRESSION: u32 = 8;
    /// Optional (delta-encoded) properties must be present.
    pub const FORBID_DELTA_ENCODE: u32 = 16;
}

/// A value of a property (or of a list element).
///
/// Integers keep their signedness; their width comes from the type list. Leaf structs
/// hold their fields in wire order (documented on each variant).
// `repr(u64)`: an 8-byte tag keeps every payload 8-byte aligned, so moving a Value is
// a few whole-word copies (a u8 tag packs small payloads at odd offsets, and copying
// those byte by byte stalls store forwarding on the decoder's hot path). Same size: 32.
//
// Equality treats a compact list ([`Value::Bools`], [`Value::SmallInts`],
// [`Value::SmallUInts`]) as the [`Value::List`] of the same elements.
#[derive(Debug, Clone)]
#[repr(u64)]
pub enum Value {
    /// A null object pointer (type hash 0).
    Null,
    /// `bool`.
    Bool(bool),
    /// A signed integer (`char`, `short`, `int`, `long`, `__int64`, `bi2`..`bi7`, `s24`).
    Int(i64),
    /// An unsigned integer (`unsigned char/short/int/long/__int64`, `wchar_t`, `gid`, `bui*`, `u24`).
    UInt(u64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `std::string`: bytes, not necessarily UTF-8 (up to 22 kept inline, see [`Bytes`]).
    String(Bytes),
    /// `std::wstring`: UTF-16 code units, not necessarily valid.
    WString(Vec<u16>),
    /// An enum written as its value (u32 on the wire).
    Enum(i64),
    /// An enum written as names (serializer flag 4), exactly as found: `A` or `A|B`.
    EnumName(String),
    /// `class Color` in wire order: b, g, r, a.
    Color([u8; 4]),
    /// `class Vector3D`: x, y, z.
    Vec3([f32; 3]),
    /// `class Euler`: pitch, yaw, roll.
    Euler([f32; 3]),
    /// `class Quaternion` in wire order: w, x, y, z.
    Quat([f32; 4]),
    /// `class Matrix3x3`: rows i, j, k of three floats each.
    Matrix(Box<[f32; 9]>),
    /// `class Point<int>`: x, y.
    PointInt([i32; 2]),
    /// `class Point<unsigned char>`: x, y.
    PointUChar([u8; 2]),
    /// `class Point<unsigned int>`: x, y.
    PointUInt([u32; 2]),
    /// `class Point<float>`: x, y.
    PointFloat([f32; 2]),
    /// `class Size<int>`: width, height.
    SizeInt([i32; 2]),
    /// `class Rect<int>`: left, top, right, bottom.
    RectInt([i32; 4]),
    /// `class Rect<float>`: left, top, right, bottom.
    RectFloat([f32; 4]),
    /// A container property's elements.
    List(Vec<Value>),
    /// A container of `bool` as the decoder builds it: one byte per element (a
    /// [`Value::List`] would take a 32-byte value per 1-bit element).
    Bools(Vec<bool>),
    /// A container of signed bit integers of at most 7 bits (`bi2`..`bi7`), compact.
    SmallInts(Vec<i8>),
    /// A container of unsigned bit integers of at most 7 bits (`bui2`..`bui7`), compact.
    SmallUInts(Vec<u8>),
    /// A nested object.
    Object(Object),
    /// Bits skipped because their type or property was unknown (deep mode, when asked).
    Raw(Box<Raw>),
}

impl Value {
    /// The elements of a container value (a [`Value::List`], or a compact list expanded
    /// to `Bool`/`Int`/`UInt` values); `None` for other values.
    pub fn list_items(&self) -> Option<std::borrow::Cow<'_, [Value]>> {
        use std::borrow::Cow;
        Some(match self {
            Value::List(items) => Cow::Borrowed(items.as_slice()),
            Value::Bools(b) => Cow::Owned(b.iter().map(|&x| Value::Bool(x)).collect()),
            Value::SmallInts(b) => Cow::Owned(b.iter().map(|&x| Value::Int(x.into())).collect()),
            Value::SmallUInts(b) => Cow::Owned(b.iter().map(|&x| Value::UInt(x.into())).collect()),
            _ => return None,
        })
    }

    /// The number of elements of a container value (`None` for other values).
    pub fn list_len(&self) -> Option<usize> {
        match self {
            Value::List(items) => Some(items.len()),
            Value::Bools(b) => Some(b.len()),
            Value::SmallInts(b) => Some(b.len()),
            Value::SmallUInts(b) => Some(b.len()),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        use Value as V;
        match (self, other) {
            (V::Null, V::Null) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Int(b)) | (V::Enum(a), V::Enum(b)) => a == b,
            (V::UInt(a), V::UInt(b)) => a == b,
            (V::Float(a), V::Float(b)) => a == b,
            (V::Double(a), V::Double(b)) => a == b,
            (V::String(a), V::String(b)) => a == b,
            (V::WString(a), V::WString(b)) => a == b,
            (V::EnumName(a), V::EnumName(b)) => a == b,
            (V::Color(a), V::Color(b)) => a == b,
            (V::Vec3(a), V::Vec3(b)) | (V::Euler(a), V::Euler(b)) => a == b,
            (V::Quat(a), V::Quat(b)) => a == b,
            (V::Matrix(a), V::Matrix(b)) => a == b,
            (V::PointInt(a), V::PointInt(b)) | (V::SizeInt(a), V::SizeInt(b)) => a == b,
            (V::PointUChar(a), V::PointUChar(b)) => a == b,
            (V::PointUInt(a), V::PointUInt(b)) => a == b,
            (V::PointFloat(a), V::PointFloat(b)) => a == b,
            (V::RectInt(a), V::RectInt(b)) => a == b,
            (V::RectFloat(a), V::RectFloat(b)) => a == b,
            (V::List(a), V::List(b)) => a == b,
            (V::Bools(a), V::Bools(b)) => a == b,
            (V::SmallInts(a), V::SmallInts(b)) => a == b,
            (V::SmallUInts(a), V::SmallUInts(b)) => a == b,
            (V::Object(a), V::Object(b)) => a == b,
            (V::Raw(a), V::Raw(b)) => a == b,
            (a, b) => match (a.list_items(), b.list_items()) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            },
        }
    }
}

/// Bits kept verbatim: an object of an unknown type or a property unknown to its class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raw {
    /// For an unknown object: its type hash; for an unknown property: 0.
    pub type_hash: u32,
    /// How many bits follow (the payload after the size and hash fields).
    pub bits: u64,
    /// The bits, least significant first, zero-padded to whole bytes.
    pub data: Vec<u8>,
}

/// An object: its type hash and its properties (tag and value) in wire order.
///
/// The properties pack small scalars (see [`Properties`]) and fit inside a [`Value`]
/// without a further allocation; edit them with `into_vec()` and `.into()`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// The class hash (`string_id` of the class name).
    pub hash: u32,
    /// Property tag and value, in the order they were read (or are to be written in deep mode).
    pub properties: Properties,
}

impl Object {
    /// An object of class `hash` with these properties.
    pub fn new(hash: u32, properties: Vec<(u32, Value)>) -> Self {
        Object {
            hash,
            properties: properties.into(),
        }
    }

    /// The value of the property with tag `hash`.
    pub fn get(&self, hash: u32) -> Option<&Value> {
        self.properties.find(hash)
    }
}

/// A decoded blob: the root object and what is needed to write back the same bytes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// The root object (never null).
    pub root: Object,
    /// The flags word read from the data when the serializer was stateful.
    pub flags: Option<u32>,
    /// The zlib marker byte read under serializer flag 8 (0 = not compressed).
    pub zlib_marker: Option<u8>,
    /// Non-zero padding bits met while aligning: (bit position in the object stream, value).
    pub padding: Vec<(u64, u8)>,
    /// Whole bytes after the root object (data the class did not account for).
    pub trailing: Vec<u8>,
    /// True when the document came from (or is to be written as) a `BINd` file.
    pub bind: bool,
    /// The original zlib stream of the manual framing, reused on encode when the data
    /// it wraps is unchanged (zlib implementations differ in their output).
    pub manual_zlib: Option<KeptZlib>,
    /// The original zlib stream under serializer flag 8, reused likewise.
    pub flag_zlib: Option<KeptZlib>,
}

/// A zlib stream kept from decoding, reused when re-encoding produces the same data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptZlib {
    /// The inflated size.
    pub size: u32,
    /// The zlib stream (header, deflate data, Adler-32).
    pub stream: Vec<u8>,
}

impl KeptZlib {
    /// True when `data` is what this stream inflates to, judged by size and the
    /// stream's Adler-32 checksum.
    pub fn matches(&self, data: &[u8]) -> bool {
        let n = self.stream.len();
        n >= 6
            && data.len() == self.size as usize
            && self.stream[n - 4..] == crate::zlib::adler32(data).to_be_bytes()
    }
}
