//! Type lists: the reflected classes of a game, read from wiztype JSON dumps (v1, v2) or
//! KingsIsle's own XML dump form, merged from several files.

use crate::hash::{self, Game};
use gamewire_core::{Error, Result};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys that are already hashes (class hashes): one multiply.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type IdMap = HashMap<u32, usize, BuildHasherDefault<IdHasher>>;

/// Property flag bits of a type list (`flags` of a property).
pub mod flags {
    /// Saved to persistent state.
    pub const SAVE: u32 = 1 << 0;
    /// Copied with the object.
    pub const COPY: u32 = 1 << 1;
    /// Public.
    pub const PUBLIC: u32 = 1 << 2;
    /// Sent over the network.
    pub const TRANSMIT: u32 = 1 << 3;
    /// Sent over the network to privileged clients.
    pub const PRIVILEGED_TRANSMIT: u32 = 1 << 4;
    /// Persisted.
    pub const PERSIST: u32 = 1 << 5;
    /// Deprecated: never serialized.
    pub const DEPRECATED: u32 = 1 << 6;
    /// Hidden from scripts.
    pub const NOSCRIPT: u32 = 1 << 7;
    /// Optional: preceded by a presence bit in shallow mode.
    pub const DELTA_ENCODE: u32 = 1 << 8;
    /// Binary blob.
    pub const BLOB: u32 = 1 << 9;
    /// The property holds bit flags of an enum (`A|B` as names).
    pub const BITS: u32 = 1 << 20;
    /// The property holds an enum value.
    pub const ENUM: u32 = 1 << 21;
}

/// How a property's value is laid out in the bit stream, derived from its type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `bool`: one bit.
    Bool,
    /// `char`: aligned signed 8 bits.
    I8,
    /// `unsigned char`: aligned unsigned 8 bits.
    U8,
    /// `short`: aligned signed 16 bits.
    I16,
    /// `unsigned short`, `wchar_t`: aligned unsigned 16 bits.
    U16,
    /// `int`, `long`: aligned signed 32 bits.
    I32,
    /// `unsigned int`, `unsigned long`: aligned unsigned 32 bits.
    U32,
    /// `__int64`: aligned signed 64 bits.
    I64,
    /// `unsigned __int64`, `gid`, `union gid`: aligned unsigned 64 bits.
    U64,
    /// `float`: aligned 32-bit float.
    F32,
    /// `double`: aligned 64-bit float.
    F64,
    /// `bi2`..`bi7`, `s24`: unaligned signed integer of this many bits.
    SBits(u8),
    /// `bui2`..`bui7`, `u24`: unaligned unsigned integer of this many bits.
    UBits(u8),
    /// `std::string`: length (u16, or compact) and bytes.
    Str,
    /// `std::wstring`: length in UTF-16 units and the units.
    WStr,
    /// An enum (flags `ENUM`/`BITS`, or a type name starting with `enum`).
    Enum,
    /// `class Color`: b, g, r, a bytes.
    Color,
    /// `class Vector3D`: x, y, z floats.
    Vec3,
    /// `class Euler`: pitch, yaw, roll floats.
    Euler,
    /// `class Quaternion`: w, x, y, z floats (katsuba's order).
    Quat,
    /// `class Matrix3x3`: nine floats, rows i, j, k.
    Matrix,
    /// `class Point<int>`.
    PointInt,
    /// `class Point<unsigned char>`.
    PointUChar,
    /// `class Point<unsigned int>`.
    PointUInt,
    /// `class Point<float>`.
    PointFloat,
    /// `class Size<int>`: width, height.
    SizeInt,
    /// `class Rect<int>`: left, top, right, bottom.
    RectInt,
    /// `class Rect<float>`: left, top, right, bottom.
    RectFloat,
    /// Any other type: a nested object (type hash, 0 = null).
    Object,
}

impl Kind {
    /// The kind of a property of type `type_name` with property `flags`.
    pub fn of(type_name: &str, prop_flags: u32) -> Kind {
        if prop_flags & (flags::ENUM | flags::BITS) != 0 || type_name.starts_with("enum") {
            return Kind::Enum;
        }
        match type_name {
            "bool" => Kind::Bool,
            "char" => Kind::I8,
            "unsigned char" => Kind::U8,
            "short" => Kind::I16,
            "unsigned short" | "wchar_t" => Kind::U16,
            "int" | "long" => Kind::I32,
            "unsigned int" | "unsigned long" => Kind::U32,
            "__int64" => Kind::I64,
            "unsigned __int64" | "gid" | "union gid" => Kind::U64,
            "float" => Kind::F32,
            "double" => Kind::F64,
            "bi2" => Kind::SBits(2),
            "bi3" => Kind::SBits(3),
            "bi4" => Kind::SBits(4),
            "bi5" => Kind::SBits(5),
            "bi6" => Kind::SBits(6),
            "bi7" => Kind::SBits(7),
            "s24" => Kind::SBits(24),
            "bui2" => Kind::UBits(2),
            "bui3" => Kind::UBits(3),
            "bui4" => Kind::UBits(4),
            "bui5" => Kind::UBits(5),
            "bui6" => Kind::UBits(6),
            "bui7" => Kind::UBits(7),
            "u24" => Kind::UBits(24),
            "std::string" => Kind::Str,
            "std::wstring" => Kind::WStr,
            "class Color" => Kind::Color,
            "class Vector3D" => Kind::Vec3,
            "class Euler" => Kind::Euler,
            "class Quaternion" => Kind::Quat,
            "class Matrix3x3" => Kind::Matrix,
            "class Point<int>" => Kind::PointInt,
            "class Point<unsigned char>" => Kind::PointUChar,
            "class Point<unsigned int>" => Kind::PointUInt,
            "class Point<float>" => Kind::PointFloat,
            "class Size<int>" => Kind::SizeInt,
            "class Rect<int>" => Kind::RectInt,
            "class Rect<float>" => Kind::RectFloat,
            _ => Kind::Object,
        }
    }
}

/// One property (member) of a class.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyDef {
    /// The member name, e.g. `m_name`.
    pub name: String,
    /// The C++ type name, e.g. `unsigned int` or `class SharedPointer<class Foo>`.
    pub type_name: String,
    /// The property id (shallow mode writes properties in id order).
    pub id: u32,
    /// The member's offset in the C++ object (informational).
    pub offset: u32,
    /// Property flags (see [`flags`]).
    pub flags: u32,
    /// Container name: `Static`, `Vector`, `List`, ...
    pub container: String,
    /// True when the property is a container (u32 or compact count, then elements).
    pub dynamic: bool,
    /// True when the member is a pointer.
    pub pointer: bool,
    /// The property tag: `string_id(type) + djb2(name)`.
    pub hash: u32,
    /// Enum options, name and value, in the order of the type list.
    pub enum_options: Vec<(String, i64)>,
    /// The wire layout derived from the type name and flags.
    pub kind: Kind,
}

impl PropertyDef {
    /// A property with the hash computed from its type and name.
    pub fn new(name: &str, type_name: &str, id: u32, prop_flags: u32, dynamic: bool) -> Self {
        PropertyDef {
            name: name.to_owned(),
            type_name: type_name.to_owned(),
            id,
            offset: 0,
            flags: prop_flags,
            container: if dynamic {
                "Vector".into()
            } else {
                "Static".into()
            },
            dynamic,
            pointer: false,
            hash: hash::property_hash(type_name, name),
            enum_options: Vec::new(),
            kind: Kind::of(type_name, prop_flags),
        }
    }

    /// The value of enum option `name`.
    pub fn enum_value(&self, name: &str) -> Option<i64> {
        self.enum_options
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }

    /// The enum's type as a message names it: `enum Rarity`, whether the type list
    /// spells the type `enum Rarity` (as it does) or `Rarity`.
    pub fn enum_label(&self) -> String {
        if self.type_name.starts_with("enum ") {
            self.type_name.clone()
        } else {
            format!("enum {}", self.type_name)
        }
    }

    /// Resolves an enum written as names (`A`, or `A|B` for bit enums) to its value.
    pub fn enum_from_names(&self, text: &str) -> std::result::Result<i64, String> {
        if self.flags & flags::BITS != 0 {
            let mut v = 0i64;
            if !text.is_empty() {
                for part in text.split('|') {
                    let part = part.trim();
                    v |= self.enum_value(part).ok_or_else(|| part.to_owned())?;
                }
            }
            Ok(v)
        } else {
            self.enum_value(text).ok_or_else(|| text.to_owned())
        }
    }

    /// Writes an enum value as names: the option with that value, or for bit enums the
    /// options whose bits are set, joined by `|` in type-list order.
    pub fn enum_to_names(&self, value: i64) -> Option<String> {
        if self.flags & flags::BITS != 0 {
            let mut s = String::new();
            for (n, v) in &self.enum_options {
                if value & v != 0 {
                    if !s.is_empty() {
                        s.push('|');
                    }
                    s.push_str(n);
                }
            }
            Some(s)
        } else {
            self.enum_options
                .iter()
                .find(|(_, v)| *v == value)
                .map(|(n, _)| n.clone())
        }
    }
}

/// One class of a type list.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassDef {
    /// The class name, e.g. `class WizItemTemplate`.
    pub name: String,
    /// The class hash: `string_id(name)`.
    pub hash: u32,
    /// Base class names, as dumped.
    pub bases: Vec<String>,
    /// True for singletons.
    pub singleton: bool,
    /// The properties, sorted by id.
    pub properties: Vec<PropertyDef>,
}

impl ClassDef {
    /// A class with no properties; the hash is computed from the name.
    pub fn new(name: &str) -> Self {
        ClassDef {
            name: name.to_owned(),
            hash: hash::string_id(name.as_bytes()),
            bases: Vec::new(),
            singleton: false,
            properties: Vec::new(),
        }
    }

    /// The index in [`ClassDef::properties`] of `def` when it is one of this class's
    /// properties (compared by address, no lookup).
    pub fn index_of_property(&self, def: &PropertyDef) -> Option<usize> {
        let size = std::mem::size_of::<PropertyDef>();
        let at =
            (def as *const PropertyDef as usize).checked_sub(self.properties.as_ptr() as usize)?;
        let i = at / size;
        (at % size == 0 && self.properties.get(i).is_some_and(|p| std::ptr::eq(p, def)))
            .then_some(i)
    }

    /// The index of the property with tag `hash`, trying `hint` first.
    #[inline]
    pub fn property_index(&self, hash: u32, hint: usize) -> Option<usize> {
        if self.properties.get(hint).is_some_and(|p| p.hash == hash) {
            return Some(hint);
        }
        self.properties.iter().position(|p| p.hash == hash)
    }

    /// The property named `name`.
    pub fn property_by_name(&self, name: &str) -> Option<(usize, &PropertyDef)> {
        self.properties
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
    }

    fn sort(&mut self) {
        self.properties.sort_by_key(|p| p.id);
    }
}

/// A list of classes by hash (and by name), merged from one or more dumps.
#[derive(Debug, Clone, Default)]
pub struct TypeList {
    classes: Vec<ClassDef>,
    by_hash: IdMap,
    by_name: HashMap<String, usize>,
}

impl TypeList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a class, replacing one with the same hash (later files win, like katsuba).
    pub fn insert(&mut self, mut class: ClassDef) {
        class.sort();
        if let Some(&i) = self.by_hash.get(&class.hash) {
            self.by_name.remove(&self.classes[i].name);
            self.by_name.insert(class.name.clone(), i);
            self.classes[i] = class;
        } else {
            let i = self.classes.len();
            self.by_hash.insert(class.hash, i);
            self.by_name.insert(class.name.clone(), i);
            self.classes.push(class);
        }
    }

    /// Merges every class of `other` into this list.
    pub fn merge(&mut self, other: TypeList) {
        for c in other.classes {
            self.insert(c);
        }
    }

    /// The class index in [`TypeList::classes`] of `class` when it is one of this
    /// list's classes (compared by address, no lookup).
    pub fn index_of_class(&self, class: &ClassDef) -> Option<usize> {
        let size = std::mem::size_of::<ClassDef>();
        let at = (class as *const ClassDef as usize).checked_sub(self.classes.as_ptr() as usize)?;
        let i = at / size;
        (at % size == 0 && self.classes.get(i).is_some_and(|c| std::ptr::eq(c, class))).then_some(i)
    }

    /// The class with hash `hash`.
    #[inline]
    pub fn get(&self, hash: u32) -> Option<&ClassDef> {
        self.by_hash.get(&hash).map(|&i| &self.classes[i])
    }

    /// The index in [`TypeList::classes`] of the class with hash `hash`.
    #[inline]
    pub fn index_of(&self, hash: u32) -> Option<usize> {
        self.by_hash.get(&hash).copied()
    }

    /// The class named `name` (e.g. `class Foo`).
    pub fn by_name(&self, name: &str) -> Option<&ClassDef> {
        self.by_name.get(name).map(|&i| &self.classes[i])
    }

    /// Every class, in insertion order.
    pub fn classes(&self) -> &[ClassDef] {
        &self.classes
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// True when the list has no class.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Rehashes for `game` the classes and properties whose hashes were computed for
    /// Wizard101 (from the name, because the list gave none: XML dumps, hand-written
    /// lists); hashes the list gave for another game are left as they are.
    pub fn set_game(&mut self, game: Game) {
        if game == Game::Wizard101 {
            return;
        }
        let w = Game::Wizard101;
        for c in &mut self.classes {
            if c.hash == w.type_hash(c.name.as_bytes()) {
                c.hash = game.type_hash(c.name.as_bytes());
            }
            for p in &mut c.properties {
                if p.hash == w.property_hash(&p.type_name, &p.name) {
                    p.hash = game.property_hash(&p.type_name, &p.name);
                }
            }
        }
        self.by_hash = IdMap::default();
        for (i, c) in self.classes.iter().enumerate() {
            self.by_hash.insert(c.hash, i);
        }
    }

    /// The game whose class-name hash every class's hash is (see [`Game`]), when the
    /// list says: `None` for an empty list, or one whose hashes fit neither game (or
    /// both).
    pub fn game(&self) -> Option<Game> {
        let fits = |g: Game| {
            self.classes
                .iter()
                .all(|c| c.hash == g.type_hash(c.name.as_bytes()))
        };
        match (fits(Game::Wizard101), fits(Game::Pirate101)) {
            _ if self.classes.is_empty() => None,
            (true, false) => Some(Game::Wizard101),
            (false, true) => Some(Game::Pirate101),
            _ => None,
        }
    }

    /// Reads a type list: JSON (wiztype v1 or v2) or KingsIsle's XML dump, by its first
    /// non-blank character.
    pub fn from_bytes(data: &[u8]) -> Result<TypeList> {
        let first = data
            .iter()
            .find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF);
        match first {
            Some(b'<') => crate::xmltypes::parse(data),
            _ => Self::from_json(data),
        }
    }

    /// Puts the properties of base classes into classes that do not list them.
    ///
    /// Shallow mode writes the base classes' properties too (first, base before derived).
    /// wiztype dumps already list them in every class; a dump that lists only a class's
    /// own properties (as an XML dump may) gets its bases' properties (found by name,
    /// with or without the `class ` prefix, recursively) put first. Properties a class
    /// already has (by name) are not added again. Called by [`TypeList::from_files`]
    /// after merging, so bases may come from another file.
    pub fn include_bases(&mut self) {
        fn collect(
            list: &TypeList,
            name: &str,
            seen: &mut Vec<String>,
            out: &mut Vec<PropertyDef>,
        ) {
            let Some(c) = list
                .by_name(name)
                .or_else(|| list.by_name(&format!("class {name}")))
            else {
                return;
            };
            if seen.contains(&c.name) {
                return;
            }
            seen.push(c.name.clone());
            for b in &c.bases {
                collect(list, b, seen, out);
            }
            for p in &c.properties {
                if !out.iter().any(|q| q.name == p.name) {
                    out.push(p.clone());
                }
            }
        }
        let mut changes = Vec::new();
        for (i, c) in self.classes.iter().enumerate() {
            if c.bases.is_empty() {
                continue;
            }
            let mut inherited = Vec::new();
            let mut seen = vec![c.name.clone()];
            for b in &c.bases {
                collect(self, b, &mut seen, &mut inherited);
            }
            inherited.retain(|p| !c.properties.iter().any(|q| q.name == p.name));
            if !inherited.is_empty() {
                inherited.extend(c.properties.iter().cloned());
                changes.push((i, inherited));
            }
        }
        for (i, props) in changes {
            self.classes[i].properties = props;
        }
    }

    /// Reads and merges several type list files (later files win on equal hashes), then
    /// puts base-class properties where a dump left them out ([`TypeList::include_bases`]).
    pub fn from_files<P: AsRef<std::path::Path>>(paths: &[P]) -> Result<TypeList> {
        let mut list = TypeList::new();
        for p in paths {
            let p = p.as_ref();
            let data = gamewire_core::files::read_regular(
                p,
                "type list",
                gamewire_core::files::MAX_SIDE_FILE,
            )?;
            let one = Self::from_bytes(&data)
                .map_err(|e| Error::msg(format!("type list {}: {e}", p.display())))?;
            list.merge(one);
        }
        list.include_bases();
        Ok(list)
    }

    /// Reads a wiztype JSON type list, v1 (`{"class X": {...}}`) or v2
    /// (`{"version": 2, "classes": {"hash": {...}}}`).
    pub fn from_json(data: &[u8]) -> Result<TypeList> {
        let root: serde_json::Value = serde_json::from_slice(data)
            .map_err(|e| Error::msg(format!("invalid type list JSON: {e}")))?;
        let obj = root
            .as_object()
            .ok_or_else(|| Error::msg("a type list must be a JSON object"))?;
        let mut list = TypeList::new();
        match obj.get("version") {
            Some(v) => {
                let version = v.as_u64().unwrap_or(0);
                if version != 2 {
                    return Err(Error::msg(format!("unknown type list version {v}")));
                }
                let classes = obj
                    .get("classes")
                    .and_then(|c| c.as_object())
                    .ok_or_else(|| Error::msg("a v2 type list needs a `classes` object"))?;
                for (key, c) in classes {
                    let name = c.get("name").and_then(|n| n.as_str()).unwrap_or(key);
                    list.insert(class_from_json(name, c)?);
                }
            }
            None => {
                for (name, c) in obj {
                    list.insert(class_from_json(name, c)?);
                }
            }
        }
        Ok(list)
    }
}

fn json_u32(v: Option<&serde_json::Value>, what: &str, owner: &str) -> Result<u32> {
    match v {
        None => Ok(0),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                Error::msg(format!(
                    "{owner}: `{what}` must be an unsigned 32-bit integer, found {v}"
                ))
            }),
    }
}

fn class_from_json(name: &str, c: &serde_json::Value) -> Result<ClassDef> {
    let mut class = ClassDef::new(name);
    if let Some(h) = c.get("hash") {
        class.hash = json_u32(Some(h), "hash", name)?;
    }
    if let Some(b) = c.get("bases").and_then(|b| b.as_array()) {
        class.bases = b
            .iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect();
    }
    class.singleton = c
        .get("singleton")
        .and_then(|s| s.as_bool())
        .unwrap_or(false);
    if let Some(props) = c.get("properties").and_then(|p| p.as_object()) {
        for (pname, p) in props {
            let owner = format!("{name}.{pname}");
            let type_name = p
                .get("type")
                .and_then(|t| t.as_str())
                .ok_or_else(|| Error::msg(format!("{owner}: property needs a `type` string")))?;
            let pflags = json_u32(p.get("flags"), "flags", &owner)?;
            let dynamic = p.get("dynamic").and_then(|d| d.as_bool()).unwrap_or(false);
            let mut prop = PropertyDef::new(
                pname,
                type_name,
                json_u32(p.get("id"), "id", &owner)?,
                pflags,
                dynamic,
            );
            if let Some(h) = p.get("hash") {
                prop.hash = json_u32(Some(h), "hash", &owner)?;
            }
            prop.offset = json_u32(p.get("offset"), "offset", &owner)?;
            prop.pointer = p.get("pointer").and_then(|d| d.as_bool()).unwrap_or(false);
            if let Some(cn) = p.get("container").and_then(|c| c.as_str()) {
                prop.container = cn.to_owned();
            }
            if let Some(opts) = p.get("enum_options").and_then(|o| o.as_object()) {
                for (oname, ov) in opts {
                    let v = match ov {
                        serde_json::Value::Number(n) => n.as_i64(),
                        serde_json::Value::String(s) => s.trim().parse::<i64>().ok(),
                        _ => None,
                    };
                    // katsuba ignores options whose value is not an integer; so do we.
                    if let Some(v) = v {
                        prop.enum_options.push((oname.clone(), v));
                    }
                }
            }
            class.properties.push(prop);
        }
    }
    Ok(class)
}

impl AsRef<TypeList> for TypeList {
    fn as_ref(&self) -> &TypeList {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_and_v2_read_the_same_classes() {
        let v1 = br#"{"class A": {"bases": ["PropertyClass"], "hash": 5, "properties": {
            "m_b": {"type": "MyEnum", "id": 1, "offset": 8, "flags": 2097152, "dynamic": false, "hash": 9,
                    "enum_options": {"X": 1, "Y": "2", "Z": "junk"}},
            "m_a": {"type": "int", "id": 0, "offset": 4, "flags": 7, "dynamic": true, "hash": 7}}}}"#;
        let v2 = br#"{"version": 2, "classes": {"5": {"name": "class A", "bases": ["PropertyClass"], "hash": 5, "properties": {
            "m_b": {"type": "MyEnum", "id": 1, "offset": 8, "flags": 2097152, "dynamic": false, "hash": 9,
                    "enum_options": {"X": 1, "Y": "2", "Z": "junk"}},
            "m_a": {"type": "int", "id": 0, "offset": 4, "flags": 7, "dynamic": true, "hash": 7}}}}}"#;
        let a = TypeList::from_json(v1).unwrap();
        let b = TypeList::from_json(v2).unwrap();
        assert_eq!(a.classes(), b.classes());
        let c = a.get(5).unwrap();
        assert_eq!(c.name, "class A");
        assert_eq!(c.properties[0].name, "m_a");
        assert_eq!(c.properties[0].kind, Kind::I32);
        assert!(c.properties[0].dynamic);
        assert_eq!(c.properties[1].kind, Kind::Enum);
        assert_eq!(
            c.properties[1].enum_options,
            vec![("X".into(), 1), ("Y".into(), 2)]
        );
        assert!(TypeList::from_json(br#"{"version": 3, "classes": {}}"#).is_err());
    }

    #[test]
    fn base_properties_come_first_when_a_dump_leaves_them_out() {
        let xml = br#"<ClassList>
            <Class Name="class Base"><Property Name="m_a" PropertyId="0" Type="int" Flags="7"/></Class>
            <Class Name="class Mid" Base="class Base"><Property Name="m_b" PropertyId="0" Type="bool" Flags="7"/></Class>
            <Class Name="class Leaf" Base="class Mid"><Property Name="m_c" PropertyId="0" Type="float" Flags="7"/>
              <Property Name="m_a" PropertyId="1" Type="int" Flags="7"/></Class>
        </ClassList>"#;
        let mut list = TypeList::from_bytes(xml).unwrap();
        list.include_bases();
        let names = |n: &str| {
            list.by_name(n)
                .unwrap()
                .properties
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names("class Base"), ["m_a"]);
        assert_eq!(names("class Mid"), ["m_a", "m_b"]);
        // m_a is listed by Leaf itself, so only m_b is added, before Leaf's own.
        assert_eq!(names("class Leaf"), ["m_b", "m_c", "m_a"]);
        // A wiztype-style list (bases already included, bases named without `class `) is unchanged.
        let json = br#"{"class B": {"bases": [], "hash": 1, "properties": {"m_a": {"type": "int", "id": 0, "flags": 7}}},
            "class D": {"bases": ["B"], "hash": 2, "properties": {"m_a": {"type": "int", "id": 0, "flags": 7},
                                                                 "m_x": {"type": "int", "id": 1, "flags": 7}}}}"#;
        let mut l = TypeList::from_json(json).unwrap();
        let before = l.classes().to_vec();
        l.include_bases();
        assert_eq!(l.classes(), &before[..]);
    }

    #[test]
    fn bit_enum_names() {
        let mut p = PropertyDef::new("m_f", "MyFlags", 0, flags::BITS, false);
        p.enum_options = vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 4)];
        assert_eq!(p.enum_from_names("B | C"), Ok(6));
        assert_eq!(p.enum_from_names(""), Ok(0));
        assert_eq!(p.enum_from_names("D"), Err("D".into()));
        assert_eq!(p.enum_to_names(5).as_deref(), Some("A|C"));
    }
}
