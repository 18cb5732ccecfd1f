//! The model: a lossless value of every ObjectProperty type, and a decoded document.

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
#[derive(Debug, Clone, PartialEq)]
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
    /// `std::string`: bytes, not necessarily UTF-8.
    String(Vec<u8>),
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
    /// A nested object.
    Object(Object),
    /// Bits skipped because their type or property was unknown (deep mode, when asked).
    Raw(Box<Raw>),
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
/// The properties are a boxed slice (not a `Vec`) so that an object fits inside a
/// [`Value`] without a further allocation; edit them with `into_vec()` and `.into()`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// The class hash (`string_id` of the class name).
    pub hash: u32,
    /// Property tag and value, in the order they were read (or are to be written in deep mode).
    pub properties: Box<[(u32, Value)]>,
}

impl Object {
    /// An object of class `hash` with these properties.
    pub fn new(hash: u32, properties: Vec<(u32, Value)>) -> Self {
        Object {
            hash,
            properties: properties.into_boxed_slice(),
        }
    }

    /// The value of the property with tag `hash`.
    pub fn get(&self, hash: u32) -> Option<&Value> {
        self.properties
            .iter()
            .find(|(h, _)| *h == hash)
            .map(|(_, v)| v)
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
