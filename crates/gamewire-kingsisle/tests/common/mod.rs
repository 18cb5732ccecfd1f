//! Random type lists and random objects over them, shared by the round-trip tests.
#![allow(dead_code)]

use gamewire_kingsisle::types::flags as pf;
use gamewire_kingsisle::{Object, PropertyDef, TypeList, Value};
use serde_json::{json, Value as Json};

// ---- random type lists and objects ---------------------------------------------------

/// A xorshift generator (deterministic from its seed).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn f32(&mut self) -> f32 {
        loop {
            let x = f32::from_bits(self.next() as u32);
            if x.is_finite() {
                return x;
            }
        }
    }
}

const SIMPLE: &[&str] = &[
    "bool",
    "char",
    "unsigned char",
    "short",
    "unsigned short",
    "wchar_t",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "float",
    "double",
    "unsigned __int64",
    "gid",
    "bi2",
    "bui2",
    "bi3",
    "bui3",
    "bi4",
    "bui4",
    "bi5",
    "bui5",
    "bi6",
    "bui6",
    "bi7",
    "bui7",
    "s24",
    "u24",
    "std::string",
    "std::wstring",
    "class Color",
    "class Vector3D",
    "class Euler",
    "class Quaternion",
    "class Matrix3x3",
    "class Point<int>",
    "class Point<float>",
    "class Size<int>",
    "class Rect<int>",
    "class Rect<float>",
];

pub fn random_types(rng: &mut Rng) -> Json {
    let n = 2 + rng.below(4) as usize;
    let names: Vec<String> = (0..n)
        .map(|i| format!("class Rand{}_{i}", rng.below(1000)))
        .collect();
    let mut classes = serde_json::Map::new();
    for (ci, name) in names.iter().enumerate() {
        let mut props = serde_json::Map::new();
        for id in 0..(1 + rng.below(7)) {
            let pname = format!("m_p{id}");
            let (ty, mut fl, opts) = match rng.below(10) {
                0 if ci + 1 < n => (
                    names[ci + 1 + rng.below((n - ci - 1) as u64) as usize].clone(),
                    7,
                    json!({}),
                ),
                1 => (
                    "enum Kind".to_string(),
                    7 | pf::ENUM,
                    json!({"A": 0, "B": "1", "C": 2, "D": 7}),
                ),
                2 => (
                    "Flags".to_string(),
                    7 | pf::BITS,
                    json!({"X": 1, "Y": 2, "Z": "8"}),
                ),
                _ => (
                    SIMPLE[rng.below(SIMPLE.len() as u64) as usize].to_string(),
                    7,
                    json!({}),
                ),
            };
            if rng.chance(15) {
                fl |= pf::DELTA_ENCODE;
            }
            if rng.chance(8) {
                fl |= pf::DEPRECATED;
            }
            if rng.chance(10) {
                fl &= !4;
            }
            let hash = gamewire_kingsisle::hash::property_hash(&ty, &pname);
            props.insert(
                pname,
                json!({"type": ty, "id": id, "offset": 0, "flags": fl, "container": "Vector",
                       "dynamic": rng.chance(25), "pointer": false, "hash": hash, "enum_options": opts}),
            );
        }
        let hash = gamewire_kingsisle::hash::string_id(name.as_bytes());
        classes.insert(hash.to_string(), json!({"name": name, "bases": [], "hash": hash, "singleton": false, "properties": props}));
    }
    json!({"version": 2, "classes": classes})
}

pub fn random_single(
    rng: &mut Rng,
    p: &PropertyDef,
    types: &TypeList,
    human_enums: bool,
    shallow: bool,
) -> Value {
    use gamewire_kingsisle::Kind as K;
    match p.kind {
        K::Bool => Value::Bool(rng.chance(50)),
        K::I8 => Value::Int(rng.next() as i8 as i64),
        K::I16 => Value::Int(rng.next() as i16 as i64),
        K::I32 => Value::Int(rng.next() as i32 as i64),
        K::I64 => Value::Int(rng.next() as i64),
        K::U8 => Value::UInt(rng.next() as u8 as u64),
        K::U16 => Value::UInt(rng.next() as u16 as u64),
        K::U32 => Value::UInt(rng.next() as u32 as u64),
        K::U64 => Value::UInt(rng.next()),
        K::F32 => Value::Float(rng.f32()),
        K::F64 => Value::Double(f64::from(rng.f32()) * 3.5),
        K::SBits(n) => Value::Int(((rng.next() << (64 - n)) as i64) >> (64 - n)),
        K::UBits(n) => Value::UInt(rng.next() >> (64 - n)),
        K::Str => {
            let big = rng.chance(10);
            let n = rng.below(if big { 300 } else { 12 });
            Value::String((0..n).map(|_| rng.next() as u8).collect::<Vec<u8>>().into())
        }
        K::WStr => {
            let big = rng.chance(10);
            let n = rng.below(if big { 200 } else { 10 });
            let s: String = (0..n)
                .map(|_| char::from_u32(rng.below(0x1_0000) as u32).unwrap_or('é'))
                .collect();
            let s = if rng.chance(20) { s + "😀" } else { s };
            Value::WString(s.encode_utf16().collect())
        }
        K::Enum => {
            let bits = p.flags & pf::BITS != 0;
            let v = if bits {
                p.enum_options
                    .iter()
                    .filter(|_| rng.chance(50))
                    .fold(0, |a, (_, v)| a | v)
            } else {
                p.enum_options[rng.below(p.enum_options.len() as u64) as usize].1
            };
            if human_enums && rng.chance(50) {
                Value::EnumName(p.enum_to_names(v).unwrap())
            } else {
                Value::Enum(v)
            }
        }
        K::Color => Value::Color((rng.next() as u32).to_le_bytes()),
        K::Vec3 => Value::Vec3([rng.f32(), rng.f32(), rng.f32()]),
        K::Euler => Value::Euler([rng.f32(), rng.f32(), rng.f32()]),
        K::Quat => Value::Quat([rng.f32(), rng.f32(), rng.f32(), rng.f32()]),
        K::Matrix => Value::Matrix(Box::new(std::array::from_fn(|_| rng.f32()))),
        K::PointInt => Value::PointInt([rng.next() as i32, rng.next() as i32]),
        K::PointUChar => Value::PointUChar([rng.next() as u8, rng.next() as u8]),
        K::PointUInt => Value::PointUInt([rng.next() as u32, rng.next() as u32]),
        K::PointFloat => Value::PointFloat([rng.f32(), rng.f32()]),
        K::SizeInt => Value::SizeInt([rng.next() as i32, rng.next() as i32]),
        K::RectInt => Value::RectInt(std::array::from_fn(|_| rng.next() as i32)),
        K::RectFloat => Value::RectFloat(std::array::from_fn(|_| rng.f32())),
        K::Object => {
            if rng.chance(15) {
                Value::Null
            } else {
                let c = types.by_name(&p.type_name).unwrap();
                Value::Object(random_object(rng, c.hash, types, human_enums, shallow))
            }
        }
    }
}

pub fn random_object(
    rng: &mut Rng,
    hash: u32,
    types: &TypeList,
    human_enums: bool,
    shallow: bool,
) -> Object {
    let class = types.get(hash).unwrap();
    let mut props = Vec::new();
    for p in &class.properties {
        if p.flags & pf::DEPRECATED != 0
            || (shallow && p.flags & 7 != 7)
            || (p.flags & pf::DELTA_ENCODE != 0 && rng.chance(40))
        {
            continue;
        }
        let v = if p.dynamic {
            let big = rng.chance(5);
            let n = rng.below(if big { 140 } else { 4 });
            Value::List(
                (0..n)
                    .map(|_| random_single(rng, p, types, human_enums, shallow))
                    .collect(),
            )
        } else {
            random_single(rng, p, types, human_enums, shallow)
        };
        props.push((p.hash, v));
    }
    Object::new(hash, props)
}

/// Random type lists (as JSON and parsed) and their merge.
pub fn random_lists(rng: &mut Rng, n: usize) -> (Vec<Json>, Vec<TypeList>, TypeList) {
    let mut jsons = Vec::new();
    let mut lists = Vec::new();
    let mut merged = TypeList::new();
    for _ in 0..n {
        let j = random_types(rng);
        let l = TypeList::from_json(j.to_string().as_bytes()).unwrap();
        merged.merge(l.clone());
        lists.push(l);
        jsons.push(j);
    }
    (jsons, lists, merged)
}
