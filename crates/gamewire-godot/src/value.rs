//! The Variant model: one Rust value for everything the wire can say, losslessly.

use crate::Kind;

/// The string type of Variant text (`String`, `StringName`, PackedStringArray elements):
/// strings up to 24 bytes are stored inline, with no allocation, which is most keys and
/// names in game data. It derefs to `str` and converts from `&str` and `String`.
pub type GString = compact_str::CompactString;

/// Real numbers of a math type: single precision (the default build) or double
/// precision (`HEADER_DATA_FLAG_64`, written by double-precision engine builds).
///
/// `N` is the number of components: 2 for Vector2, 6 for Transform2D, 16 for Projection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Real<const N: usize> {
    /// 32-bit components.
    F32([f32; N]),
    /// 64-bit components.
    F64([f64; N]),
}

impl<const N: usize> Real<N> {
    /// Component `i` as `f64`.
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Real::F32(a) => a[i] as f64,
            Real::F64(a) => a[i],
        }
    }

    /// All components as `f64`.
    pub fn to_f64(&self) -> [f64; N] {
        match self {
            Real::F32(a) => a.map(|x| x as f64),
            Real::F64(a) => *a,
        }
    }

    /// True for double precision.
    pub fn is_f64(&self) -> bool {
        matches!(self, Real::F64(_))
    }
}

/// A packed array of math vectors with `N` components each, in one precision.
#[derive(Debug, Clone, PartialEq)]
pub enum Reals<const N: usize> {
    /// 32-bit components.
    F32(Vec<[f32; N]>),
    /// 64-bit components (double-precision builds).
    F64(Vec<[f64; N]>),
}

impl<const N: usize> Reals<N> {
    /// Number of vectors.
    pub fn len(&self) -> usize {
        match self {
            Reals::F32(v) => v.len(),
            Reals::F64(v) => v.len(),
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True for double precision.
    pub fn is_f64(&self) -> bool {
        matches!(self, Reals::F64(_))
    }
}

/// The element type of a typed Array, or the key or value type of a typed Dictionary
/// (Godot 4.3+ / 4.4+).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ContainerType {
    /// Untyped (Variant).
    #[default]
    Any,
    /// A built-in type, by Godot 4 type id (`Array[int]` is `Builtin(2)`).
    Builtin(u32),
    /// Objects of a native class (`Array[Node]`).
    ClassName(String),
    /// Objects of a script class, by resource path (`res://player.gd`).
    Script(String),
}

impl ContainerType {
    /// True when untyped.
    pub fn is_any(&self) -> bool {
        matches!(self, ContainerType::Any)
    }
}

static ANY: ContainerType = ContainerType::Any;

/// An Array: its elements and, in Godot 4.3+, its element type.
///
/// Dropping a deeply nested Array does not recurse (no stack overflow).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Array {
    /// The elements, in order.
    pub items: Vec<Value>,
    /// The element type; boxed and absent for untyped Arrays, to keep [`Value`] small.
    typed: Option<Box<ContainerType>>,
}

impl Array {
    /// An untyped Array of `items`.
    pub fn new(items: Vec<Value>) -> Self {
        Array { items, typed: None }
    }

    /// An Array of `items` with element type `element_type`.
    pub fn typed(items: Vec<Value>, element_type: ContainerType) -> Self {
        let mut a = Array::new(items);
        a.set_element_type(element_type);
        a
    }

    /// The element type (`Any` for an untyped Array).
    pub fn element_type(&self) -> &ContainerType {
        self.typed.as_deref().unwrap_or(&ANY)
    }

    /// Sets the element type.
    pub fn set_element_type(&mut self, t: ContainerType) {
        self.typed = (!t.is_any()).then(|| Box::new(t));
    }

    /// Takes the elements out, leaving the Array empty.
    pub fn take_items(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.items)
    }
}

/// A Dictionary: entries in wire order and, in Godot 4.4+, key and value types.
///
/// Entries are a list, not a map: the wire order is kept, and so is every entry of input
/// that repeats a key (the engine keeps the last), so decoding and re-encoding gives the
/// same bytes. Dropping a deeply nested Dictionary does not recurse.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dictionary {
    /// The entries, in order.
    pub entries: Vec<(Value, Value)>,
    /// Key and value types; boxed and absent for untyped Dictionaries.
    typed: Option<Box<[ContainerType; 2]>>,
}

impl Dictionary {
    /// An untyped Dictionary of `entries`.
    pub fn new(entries: Vec<(Value, Value)>) -> Self {
        Dictionary {
            entries,
            typed: None,
        }
    }

    /// A Dictionary of `entries` with key and value types.
    pub fn typed(
        entries: Vec<(Value, Value)>,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Self {
        let mut d = Dictionary::new(entries);
        d.set_types(key_type, value_type);
        d
    }

    /// The key type (`Any` when untyped).
    pub fn key_type(&self) -> &ContainerType {
        self.typed.as_deref().map_or(&ANY, |t| &t[0])
    }

    /// The value type (`Any` when untyped).
    pub fn value_type(&self) -> &ContainerType {
        self.typed.as_deref().map_or(&ANY, |t| &t[1])
    }

    /// Sets the key and value types.
    pub fn set_types(&mut self, key_type: ContainerType, value_type: ContainerType) {
        self.typed =
            (!key_type.is_any() || !value_type.is_any()).then(|| Box::new([key_type, value_type]));
    }

    /// The value of the last entry whose key is the String (or StringName) `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// Takes the entries out, leaving the Dictionary empty.
    pub fn take_entries(&mut self) -> Vec<(Value, Value)> {
        std::mem::take(&mut self.entries)
    }
}

/// A NodePath: names, subnames (property path after `:`), and whether it is absolute.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodePath {
    /// Node names (`root`, `Player`).
    pub names: Vec<String>,
    /// Subnames (`position`, `x`).
    pub subnames: Vec<String>,
    /// True for a path starting with `/`.
    pub absolute: bool,
    /// The padding bytes after each name and subname, in order, when any of them is not
    /// zero. Godot 3.x leaves uninitialised memory there; keeping it lets engine bytes
    /// round-trip exactly. `None` (the usual case) writes zeros.
    pub raw_padding: Option<Vec<u8>>,
}

impl NodePath {
    /// Parses the engine's text form: `/root/Player:position:x`, `../x`, `:prop`.
    pub fn parse(text: &str) -> NodePath {
        let absolute = text.starts_with('/');
        let (path, sub) = match text.find(':') {
            Some(i) => (&text[..i], Some(&text[i + 1..])),
            None => (text, None),
        };
        let names = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let subnames = sub
            .map(|s| {
                s.split(':')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        NodePath {
            names,
            subnames,
            absolute,
            raw_padding: None,
        }
    }

    /// The number of padding bytes the names and subnames take on the wire.
    pub fn padding_len(&self) -> usize {
        self.names
            .iter()
            .chain(&self.subnames)
            .map(|s| (4 - s.len() % 4) % 4)
            .sum()
    }

    /// True when both name the same path (padding aside).
    pub fn same_path(&self, other: &NodePath) -> bool {
        self.names == other.names
            && self.subnames == other.subnames
            && self.absolute == other.absolute
    }
}

impl std::fmt::Display for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.absolute {
            f.write_str("/")?;
        }
        f.write_str(&self.names.join("/"))?;
        for s in &self.subnames {
            write!(f, ":{s}")?;
        }
        Ok(())
    }
}

/// An Object on the wire.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// `OBJECT_AS_ID`: an instance id (0 is a null object).
    Id(u64),
    /// A full object (`var_to_bytes_with_objects`): its class and stored properties.
    /// An empty class name is a null object.
    Full {
        /// The class name (`Node`, `Resource`); empty for null.
        class: String,
        /// Stored properties, in wire order.
        properties: Vec<(String, Value)>,
    },
}

/// A Godot Variant.
///
/// Plain data (`Nil`, `Bool`, `Int`, `Float`, `String`, `Array`, `Dictionary`) maps to
/// plain JSON; every other type keeps its exact wire meaning (`Vector2i` is not a
/// `Vector2`, `StringName` is not a `String`, f64 math types stay f64).
///
/// The tag is a whole word (`repr(u64)`), so every payload starts 8 bytes in, where it is
/// written: with a one-byte tag the compiler moved values (out of `Result`, into a `Vec`)
/// as bytes 1 to 31, loads that straddled the stores just made and stalled on store
/// forwarding; the word tag made the owned decode 18% faster (docs/PERFORMANCE.md). The
/// size is the same 40 bytes.
#[derive(Debug, Clone, PartialEq, Default)]
#[repr(u64)]
pub enum Value {
    /// `null`.
    #[default]
    Nil,
    /// `bool`.
    Bool(bool),
    /// `int` (64-bit; written in 32 bits when it fits, as the engine does).
    Int(i64),
    /// `float` (64-bit; written in 32 bits when that loses nothing, as the engine does).
    Float(f64),
    /// `String`.
    String(GString),
    /// `Vector2` (x, y).
    Vector2(Real<2>),
    /// `Vector2i` (Godot 4).
    Vector2i([i32; 2]),
    /// `Rect2` (position x, y, size x, y).
    Rect2(Box<Real<4>>),
    /// `Rect2i` (Godot 4).
    Rect2i([i32; 4]),
    /// `Vector3` (x, y, z).
    Vector3(Real<3>),
    /// `Vector3i` (Godot 4).
    Vector3i([i32; 3]),
    /// `Transform2D`: three columns of two (x axis, y axis, origin).
    Transform2D(Box<Real<6>>),
    /// `Vector4` (Godot 4).
    Vector4(Box<Real<4>>),
    /// `Vector4i` (Godot 4).
    Vector4i([i32; 4]),
    /// `Plane` (normal x, y, z, d).
    Plane(Box<Real<4>>),
    /// `Quaternion` (`Quat` in 3.x): x, y, z, w.
    Quaternion(Box<Real<4>>),
    /// `AABB` (position x, y, z, size x, y, z).
    Aabb(Box<Real<6>>),
    /// `Basis`: three rows of three.
    Basis(Box<Real<9>>),
    /// `Transform3D` (`Transform` in 3.x): basis rows, then origin.
    Transform3D(Box<Real<12>>),
    /// `Projection` (Godot 4): four columns of four.
    Projection(Box<Real<16>>),
    /// `Color` (r, g, b, a), always 32-bit.
    Color([f32; 4]),
    /// `StringName` (Godot 4).
    StringName(GString),
    /// `NodePath`.
    NodePath(Box<NodePath>),
    /// `RID`: its id in Godot 4; Godot 3 writes no payload (read as 0).
    Rid(u64),
    /// `Object`.
    Object(Box<Object>),
    /// `Callable` (Godot 4): written with no payload.
    Callable,
    /// `Signal` (Godot 4): name and object id.
    Signal(Box<(String, u64)>),
    /// `Dictionary`.
    Dictionary(Dictionary),
    /// `Array`.
    Array(Array),
    /// `PackedByteArray` (`PoolByteArray`).
    PackedByteArray(Vec<u8>),
    /// `PackedInt32Array` (`PoolIntArray`).
    PackedInt32Array(Vec<i32>),
    /// `PackedInt64Array` (Godot 4).
    PackedInt64Array(Vec<i64>),
    /// `PackedFloat32Array` (`PoolRealArray`).
    PackedFloat32Array(Vec<f32>),
    /// `PackedFloat64Array` (Godot 4).
    PackedFloat64Array(Vec<f64>),
    /// `PackedStringArray` (`PoolStringArray`).
    PackedStringArray(Vec<GString>),
    /// `PackedVector2Array` (`PoolVector2Array`).
    PackedVector2Array(Reals<2>),
    /// `PackedVector3Array` (`PoolVector3Array`).
    PackedVector3Array(Reals<3>),
    /// `PackedColorArray` (`PoolColorArray`), always 32-bit.
    PackedColorArray(Vec<[f32; 4]>),
    /// `PackedVector4Array` (Godot 4.3+).
    PackedVector4Array(Reals<4>),
}

impl Value {
    /// The type of this value.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Nil => Kind::Nil,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::String(_) => Kind::String,
            Value::Vector2(_) => Kind::Vector2,
            Value::Vector2i(_) => Kind::Vector2i,
            Value::Rect2(_) => Kind::Rect2,
            Value::Rect2i(_) => Kind::Rect2i,
            Value::Vector3(_) => Kind::Vector3,
            Value::Vector3i(_) => Kind::Vector3i,
            Value::Transform2D(_) => Kind::Transform2D,
            Value::Vector4(_) => Kind::Vector4,
            Value::Vector4i(_) => Kind::Vector4i,
            Value::Plane(_) => Kind::Plane,
            Value::Quaternion(_) => Kind::Quaternion,
            Value::Aabb(_) => Kind::Aabb,
            Value::Basis(_) => Kind::Basis,
            Value::Transform3D(_) => Kind::Transform3D,
            Value::Projection(_) => Kind::Projection,
            Value::Color(_) => Kind::Color,
            Value::StringName(_) => Kind::StringName,
            Value::NodePath(_) => Kind::NodePath,
            Value::Rid(_) => Kind::Rid,
            Value::Object(_) => Kind::Object,
            Value::Callable => Kind::Callable,
            Value::Signal(_) => Kind::Signal,
            Value::Dictionary(_) => Kind::Dictionary,
            Value::Array(_) => Kind::Array,
            Value::PackedByteArray(_) => Kind::PackedByteArray,
            Value::PackedInt32Array(_) => Kind::PackedInt32Array,
            Value::PackedInt64Array(_) => Kind::PackedInt64Array,
            Value::PackedFloat32Array(_) => Kind::PackedFloat32Array,
            Value::PackedFloat64Array(_) => Kind::PackedFloat64Array,
            Value::PackedStringArray(_) => Kind::PackedStringArray,
            Value::PackedVector2Array(_) => Kind::PackedVector2Array,
            Value::PackedVector3Array(_) => Kind::PackedVector3Array,
            Value::PackedColorArray(_) => Kind::PackedColorArray,
            Value::PackedVector4Array(_) => Kind::PackedVector4Array,
        }
    }

    /// The text of a `String` or `StringName`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) | Value::StringName(s) => Some(s),
            _ => None,
        }
    }

    /// The value of an `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value of a `Float`.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::String(v.into())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::String(v.into())
    }
}
impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Value::Array(Array::new(v))
    }
}

/// Moves the containers held by `v` onto `stack` (so they drop from the loop, not by recursion).
fn drain_children(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::Array(a) => stack.append(&mut a.items),
        Value::Dictionary(d) => {
            for (k, val) in d.entries.drain(..) {
                stack.push(k);
                stack.push(val);
            }
        }
        Value::Object(o) => {
            if let Object::Full { properties, .. } = &mut **o {
                stack.extend(properties.drain(..).map(|(_, v)| v));
            }
        }
        _ => {}
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Dictionary(_) | Value::Object(_))
}

fn drop_iteratively(mut stack: Vec<Value>) {
    while let Some(mut v) = stack.pop() {
        drain_children(&mut v, &mut stack);
    }
}

thread_local! {
    /// How many container drops are under way on this thread.
    static DROP_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Containers nested deeper than this drop through an explicit stack.
const RECURSIVE_DROP_LIMIT: usize = 256;

/// Drops `children` recursively while the nesting is shallow (the fast, usual case), and
/// through an explicit stack past [`RECURSIVE_DROP_LIMIT`] levels, so no input can
/// overflow the stack when its value is dropped.
fn drop_children(children: Vec<Value>) {
    DROP_DEPTH.with(|d| {
        let depth = d.get();
        if depth < RECURSIVE_DROP_LIMIT {
            d.set(depth + 1);
            drop(children);
            d.set(depth);
        } else {
            drop_iteratively(children);
        }
    })
}

impl Drop for Array {
    fn drop(&mut self) {
        // Elements that hold no other Variant drop as a plain Vec, with no depth count.
        if self.items.iter().any(is_container) {
            drop_children(std::mem::take(&mut self.items));
        }
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        if self
            .entries
            .iter()
            .any(|(k, v)| is_container(k) || is_container(v))
        {
            let deep = DROP_DEPTH.with(|d| d.get() >= RECURSIVE_DROP_LIMIT);
            if deep {
                let mut stack = Vec::with_capacity(self.entries.len() * 2);
                for (k, v) in self.entries.drain(..) {
                    stack.push(k);
                    stack.push(v);
                }
                drop_iteratively(stack);
            } else {
                DROP_DEPTH.with(|d| d.set(d.get() + 1));
                self.entries.clear();
                DROP_DEPTH.with(|d| d.set(d.get() - 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_stays_small() {
        assert!(
            std::mem::size_of::<Value>() <= 40,
            "{}",
            std::mem::size_of::<Value>()
        );
    }

    #[test]
    fn deep_nesting_drops_without_overflow() {
        let mut v = Value::Nil;
        for i in 0..200_000 {
            v = if i % 2 == 0 {
                Value::Array(Array::new(vec![v]))
            } else {
                Value::Dictionary(Dictionary::new(vec![(Value::Int(1), v)]))
            };
        }
        drop(v);
    }

    #[test]
    fn node_path_text_round_trips() {
        for text in ["/root/Player:position:x", "../x:y:z", ":prop", "a/b", ""] {
            assert_eq!(NodePath::parse(text).to_string(), text);
        }
        let p = NodePath::parse("/root/a:b");
        assert_eq!(p.names, ["root", "a"]);
        assert_eq!(p.subnames, ["b"]);
        assert!(p.absolute);
    }
}
