//! A seeded generator of random Variants, shared by the property and live-engine tests.
#![allow(dead_code)]

use gamewire_godot::*;

/// xorshift64*: small, seedable, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn f32(&mut self) -> f32 {
        match self.below(4) {
            0 => (self.below(8001) as f32 - 4000.0) / 8.0,
            1 => f32::from_bits(self.next() as u32 & 0xBF7F_FFFF), // finite
            2 => [0.0, -0.0, 1.0, f32::MAX, f32::MIN_POSITIVE][self.below(5) as usize],
            _ => self.below(1000) as f32 / 1000.0,
        }
    }
    pub fn f64(&mut self) -> f64 {
        match self.below(4) {
            0 => self.f32() as f64,
            1 => (self.next() as i64 as f64) / 1e9,
            2 => [0.1, -0.0, 1e300, -1e-300, f64::MAX][self.below(5) as usize],
            _ => f64::from_bits(self.next() & 0xBFEF_FFFF_FFFF_FFFF),
        }
    }
    pub fn int(&mut self) -> i64 {
        match self.below(4) {
            0 => self.below(129) as i64 - 64,
            1 => self.next() as i32 as i64,
            2 => self.next() as i64,
            _ => [
                0,
                i32::MAX as i64,
                i32::MIN as i64,
                1 << 31,
                -(1 << 31) - 1,
                i64::MAX,
                i64::MIN,
            ][self.below(7) as usize],
        }
    }
    pub fn string(&mut self) -> GString {
        const ALPHABET: [&str; 12] = [
            "a", "b", "Z", "0", " ", "_", "é", "ß", "中", "😀", "\n", "\"",
        ];
        (0..self.below(10))
            .map(|_| ALPHABET[self.below(12) as usize])
            .collect()
    }
    fn f32s<const N: usize>(&mut self) -> [f32; N] {
        std::array::from_fn(|_| self.f32())
    }
    fn f64s<const N: usize>(&mut self) -> [f64; N] {
        std::array::from_fn(|_| self.f64())
    }
    fn real<const N: usize>(&mut self, v4: bool) -> Real<N> {
        if v4 && self.below(4) == 0 {
            Real::F64(self.f64s())
        } else {
            Real::F32(self.f32s())
        }
    }
    fn reals<const N: usize>(&mut self, v4: bool) -> Reals<N> {
        let n = self.below(5) as usize;
        if v4 && self.below(4) == 0 {
            Reals::F64((0..n).map(|_| self.f64s()).collect())
        } else {
            Reals::F32((0..n).map(|_| self.f32s()).collect())
        }
    }
    fn ints<const N: usize>(&mut self) -> [i32; N] {
        std::array::from_fn(|_| self.next() as i32)
    }

    /// A random leaf value of a type `version` has.
    pub fn leaf(&mut self, version: Version) -> Value {
        let v4 = version == Version::V4;
        loop {
            let kind = Kind::ALL[self.below(Kind::ALL.len() as u64) as usize];
            if kind.id(version).is_none()
                || matches!(kind, Kind::Array | Kind::Dictionary | Kind::Object)
            {
                continue;
            }
            return match kind {
                Kind::Nil => Value::Nil,
                Kind::Bool => Value::Bool(self.below(2) == 1),
                Kind::Int => Value::Int(self.int()),
                Kind::Float => Value::Float(self.f64()),
                Kind::String => Value::String(self.string()),
                Kind::Vector2 => Value::Vector2(self.real(v4)),
                Kind::Vector2i => Value::Vector2i(self.ints()),
                Kind::Rect2 => Value::Rect2(Box::new(self.real(v4))),
                Kind::Rect2i => Value::Rect2i(self.ints()),
                Kind::Vector3 => Value::Vector3(self.real(v4)),
                Kind::Vector3i => Value::Vector3i(self.ints()),
                Kind::Transform2D => Value::Transform2D(Box::new(self.real(v4))),
                Kind::Vector4 => Value::Vector4(Box::new(self.real(v4))),
                Kind::Vector4i => Value::Vector4i(self.ints()),
                Kind::Plane => Value::Plane(Box::new(self.real(v4))),
                Kind::Quaternion => Value::Quaternion(Box::new(self.real(v4))),
                Kind::Aabb => Value::Aabb(Box::new(self.real(v4))),
                Kind::Basis => Value::Basis(Box::new(self.real(v4))),
                Kind::Transform3D => Value::Transform3D(Box::new(self.real(v4))),
                Kind::Projection => Value::Projection(Box::new(self.real(v4))),
                Kind::Color => Value::Color(self.f32s()),
                Kind::StringName => Value::StringName(self.string()),
                Kind::NodePath => Value::NodePath(Box::new(NodePath::parse(
                    [
                        "",
                        "/root/",
                        "a/b",
                        "../x:y:z",
                        "Player/Sprite:position:x",
                        ":prop",
                    ][self.below(6) as usize],
                ))),
                Kind::Rid => Value::Rid(if v4 { self.next() } else { 0 }),
                Kind::Callable => Value::Callable,
                Kind::Signal => Value::Signal(Box::new((self.string().to_string(), self.next()))),
                Kind::PackedByteArray => {
                    Value::PackedByteArray((0..self.below(10)).map(|_| self.next() as u8).collect())
                }
                Kind::PackedInt32Array => Value::PackedInt32Array(
                    (0..self.below(7)).map(|_| self.next() as i32).collect(),
                ),
                Kind::PackedInt64Array => Value::PackedInt64Array(
                    (0..self.below(7)).map(|_| self.next() as i64).collect(),
                ),
                Kind::PackedFloat32Array => {
                    Value::PackedFloat32Array((0..self.below(7)).map(|_| self.f32()).collect())
                }
                Kind::PackedFloat64Array => {
                    Value::PackedFloat64Array((0..self.below(7)).map(|_| self.f64()).collect())
                }
                Kind::PackedStringArray => {
                    Value::PackedStringArray((0..self.below(6)).map(|_| self.string()).collect())
                }
                Kind::PackedVector2Array => Value::PackedVector2Array(self.reals(v4)),
                Kind::PackedVector3Array => Value::PackedVector3Array(self.reals(v4)),
                Kind::PackedColorArray => {
                    Value::PackedColorArray((0..self.below(5)).map(|_| self.f32s()).collect())
                }
                Kind::PackedVector4Array => Value::PackedVector4Array(self.reals(v4)),
                Kind::Array | Kind::Dictionary | Kind::Object => unreachable!(),
            };
        }
    }

    /// A random value, nesting Arrays and Dictionaries up to `depth` levels.
    pub fn value(&mut self, version: Version, depth: u32) -> Value {
        if depth == 0 || self.below(3) > 0 {
            return self.leaf(version);
        }
        let n = self.below(5);
        match self.below(if version == Version::V4 { 4 } else { 2 }) {
            0 => Value::from(
                (0..n)
                    .map(|_| self.value(version, depth - 1))
                    .collect::<Vec<_>>(),
            ),
            1 => Value::Dictionary(Dictionary::new(
                (0..n)
                    .map(|i| {
                        let k = if i % 2 == 0 {
                            Value::String(self.string())
                        } else {
                            self.leaf(version)
                        };
                        (k, self.value(version, depth - 1))
                    })
                    .collect(),
            )),
            2 => Value::Array(Array::typed(
                (0..n).map(|_| Value::Int(self.int())).collect(),
                ContainerType::Builtin(2),
            )),
            _ => Value::Dictionary(Dictionary::typed(
                (0..n)
                    .map(|_| (Value::String(self.string()), Value::Float(self.f64())))
                    .collect(),
                ContainerType::Builtin(4),
                ContainerType::Builtin(3),
            )),
        }
    }
}

/// Equality that treats NaN as equal to NaN (random floats may be NaN only by design).
pub fn same(a: &Value, b: &Value) -> bool {
    a == b
}
