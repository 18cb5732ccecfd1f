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

/// The seed of a live-engine test: `GAMEWIRE_SEED` when set (to replay a failure), else
/// a fresh one from the clock. Printed with the test's name.
pub fn seed(test: &str) -> u64 {
    let seed = std::env::var("GAMEWIRE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    eprintln!("{test} seed: {seed} (set GAMEWIRE_SEED={seed} to replay)");
    seed
}

/// True when `v` holds a NodePath anywhere: Godot 3.2.3's encoder writes uninitialised
/// padding after a NodePath, so the engine's bytes of one may differ from run to run.
pub fn has_node_path(v: &Value) -> bool {
    match v {
        Value::NodePath(_) => true,
        Value::Array(a) => a.items.iter().any(has_node_path),
        Value::Dictionary(d) => d
            .entries
            .iter()
            .any(|(k, v)| has_node_path(k) || has_node_path(v)),
        _ => false,
    }
}

/// Forgets the padding bytes read after every NodePath in `v` (see [`has_node_path`]).
pub fn strip_padding(v: &mut Value) {
    match v {
        Value::NodePath(p) => p.raw_padding = None,
        Value::Array(a) => a.items.iter_mut().for_each(strip_padding),
        Value::Dictionary(d) => d.entries.iter_mut().for_each(|(k, v)| {
            strip_padding(k);
            strip_padding(v);
        }),
        _ => {}
    }
}

/// Makes the Dictionary keys Godot 3 would merge (equal keys; float, Array and
/// Dictionary keys) distinct Ints, through all of `v`.
pub fn distinct_keys_v3(v: &mut Value) {
    match v {
        Value::Array(a) => a.items.iter_mut().for_each(distinct_keys_v3),
        Value::Dictionary(d) => {
            for i in 0..d.entries.len() {
                distinct_keys_v3(&mut d.entries[i].1);
                let dup = d.entries[..i].iter().any(|(k, _)| *k == d.entries[i].0)
                    || matches!(
                        d.entries[i].0,
                        Value::Float(_) | Value::Array(_) | Value::Dictionary(_)
                    );
                if dup {
                    d.entries[i].0 = Value::Int(1_000_000 + i as i64);
                }
            }
        }
        _ => {}
    }
}
