//! The schema-less model: a bean is a list of (field id, typed value) per inheritance
//! level, and every value carries the type the wire says.

use std::fmt;

/// The wire type in the low 4 bits of a tag (Zeze's `IByteBuffer` constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum WireType {
    /// 0: compact signed integer (byte, short, int, long, bool).
    Integer = 0,
    /// 1: little-endian f32.
    Float = 1,
    /// 2: little-endian f64.
    Double = 2,
    /// 3: length and bytes (binary, string).
    Bytes = 3,
    /// 4: list or set.
    List = 4,
    /// 5: map.
    Map = 5,
    /// 6: bean.
    Bean = 6,
    /// 7: dynamic bean (type id, then the bean).
    Dynamic = 7,
    /// 8: two f32.
    Vector2 = 8,
    /// 9: two compact ints.
    Vector2Int = 9,
    /// 10: three f32.
    Vector3 = 10,
    /// 11: three compact ints.
    Vector3Int = 11,
    /// 12: four f32 (vector4 and quaternion).
    Vector4 = 12,
}

impl WireType {
    /// Every wire type, by number.
    pub const ALL: [WireType; 13] = [
        WireType::Integer,
        WireType::Float,
        WireType::Double,
        WireType::Bytes,
        WireType::List,
        WireType::Map,
        WireType::Bean,
        WireType::Dynamic,
        WireType::Vector2,
        WireType::Vector2Int,
        WireType::Vector3,
        WireType::Vector3Int,
        WireType::Vector4,
    ];

    /// The wire type numbered `n`, if any (13 to 15 are not defined).
    #[inline]
    pub fn from_u8(n: u8) -> Option<WireType> {
        // A match whose arms are the discriminants compiles to one range check (the
        // `ALL` table cost a load per tag on the decoders' hot paths).
        Some(match n {
            0 => WireType::Integer,
            1 => WireType::Float,
            2 => WireType::Double,
            3 => WireType::Bytes,
            4 => WireType::List,
            5 => WireType::Map,
            6 => WireType::Bean,
            7 => WireType::Dynamic,
            8 => WireType::Vector2,
            9 => WireType::Vector2Int,
            10 => WireType::Vector3,
            11 => WireType::Vector3Int,
            12 => WireType::Vector4,
            _ => return None,
        })
    }

    /// The name used in JSON (`int`, `float`, `double`, `bytes`, `list`, `map`, `bean`,
    /// `dynamic`, `vector2`, `vector2int`, `vector3`, `vector3int`, `vector4`).
    pub fn name(self) -> &'static str {
        match self {
            WireType::Integer => "int",
            WireType::Float => "float",
            WireType::Double => "double",
            WireType::Bytes => "bytes",
            WireType::List => "list",
            WireType::Map => "map",
            WireType::Bean => "bean",
            WireType::Dynamic => "dynamic",
            WireType::Vector2 => "vector2",
            WireType::Vector2Int => "vector2int",
            WireType::Vector3 => "vector3",
            WireType::Vector3Int => "vector3int",
            WireType::Vector4 => "vector4",
        }
    }

    /// The wire type named `name` (see [`WireType::name`]).
    pub fn from_name(name: &str) -> Option<WireType> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// The fewest bytes one value of this type takes on the wire (used to check counts
    /// against the bytes that remain before allocating).
    #[inline]
    pub const fn min_size(self) -> usize {
        match self {
            WireType::Integer | WireType::Bytes | WireType::List | WireType::Bean => 1,
            WireType::Map | WireType::Dynamic | WireType::Vector2Int => 2,
            WireType::Vector3Int => 3,
            WireType::Float => 4,
            WireType::Double | WireType::Vector2 => 8,
            WireType::Vector3 => 12,
            WireType::Vector4 => 16,
        }
    }
}

impl fmt::Display for WireType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One field of a bean level: its id and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The variable id (1 or more, increasing within a level).
    pub id: u32,
    /// The value, typed as the wire says.
    pub value: Value,
}

/// A bean as the wire holds it: the fields of the most derived level, then (after a
/// `0x01` byte) the levels of its base classes, the last level ending with `0x00`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bean {
    /// Fields of this level, in increasing id order.
    pub fields: Vec<Field>,
    /// The next inheritance level (the base class's fields), if the bean has one.
    pub base: Option<Box<Bean>>,
}

impl Bean {
    /// A bean of one level with these fields.
    pub fn new(fields: Vec<Field>) -> Self {
        Bean { fields, base: None }
    }

    /// The value of field `id` in this level.
    pub fn get(&self, id: u32) -> Option<&Value> {
        self.fields.iter().find(|f| f.id == id).map(|f| &f.value)
    }

    /// Number of inheritance levels (1 for a bean without base).
    pub fn levels(&self) -> usize {
        let mut n = 1;
        let mut b = &self.base;
        while let Some(x) = b {
            n += 1;
            b = &x.base;
        }
        n
    }
}

/// A value as the wire types it. Integers keep the full 64 bits the wire can hold, so
/// decoding then encoding gives the same bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Wire type 0: any integer or bool.
    Integer(i64),
    /// Wire type 1.
    Float(f32),
    /// Wire type 2.
    Double(f64),
    /// Wire type 3: a string's UTF-8 bytes or a binary.
    Bytes(Vec<u8>),
    /// Wire type 4: a list or set; every item has the element type.
    List {
        /// Element type from the header.
        elem: WireType,
        /// The items.
        items: Vec<Value>,
    },
    /// Wire type 5: key and value types, and the entries in wire order.
    Map {
        /// Key type from the header.
        key: WireType,
        /// Value type from the header.
        value: WireType,
        /// The entries.
        entries: Vec<(Value, Value)>,
    },
    /// Wire type 6.
    Bean(Bean),
    /// Wire type 7: the dynamic type id and the bean.
    Dynamic {
        /// Zeze's "special type id" of the concrete bean.
        type_id: i64,
        /// The bean.
        bean: Bean,
    },
    /// Wire type 8.
    Vector2([f32; 2]),
    /// Wire type 9 (each component a compact integer).
    Vector2Int([i64; 2]),
    /// Wire type 10.
    Vector3([f32; 3]),
    /// Wire type 11.
    Vector3Int([i64; 3]),
    /// Wire type 12 (vector4 or quaternion).
    Vector4([f32; 4]),
}

impl Value {
    /// The wire type of this value.
    pub fn wire_type(&self) -> WireType {
        match self {
            Value::Integer(_) => WireType::Integer,
            Value::Float(_) => WireType::Float,
            Value::Double(_) => WireType::Double,
            Value::Bytes(_) => WireType::Bytes,
            Value::List { .. } => WireType::List,
            Value::Map { .. } => WireType::Map,
            Value::Bean(_) => WireType::Bean,
            Value::Dynamic { .. } => WireType::Dynamic,
            Value::Vector2(_) => WireType::Vector2,
            Value::Vector2Int(_) => WireType::Vector2Int,
            Value::Vector3(_) => WireType::Vector3,
            Value::Vector3Int(_) => WireType::Vector3Int,
            Value::Vector4(_) => WireType::Vector4,
        }
    }

    /// A string value (its UTF-8 bytes).
    pub fn string(s: &str) -> Value {
        Value::Bytes(s.as_bytes().to_vec())
    }
}
