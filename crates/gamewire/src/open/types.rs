//! What an editor needs to know of a value in an opened file's JSON document: the
//! type its format gives it, beyond what JSON says. An integer's width (KingsIsle's
//! `unsigned char`, Zeze's `short`, Godot's 64-bit `int`), a float's, an enum's option
//! names (KingsIsle, from the type list), and the components of vectors, colours,
//! rectangles and transforms (Godot's tagged values, KingsIsle's leaf structs, Zeze's
//! vectors), with a check that a new value fits.
//!
//! The types come from where the library reads them: the tags on values (Godot's
//! `$type`, Zeze's schema-less `{"vector3": ..}`), the type list a KingsIsle file was
//! opened with, and the solution a Zeze bean was typed with. The rules of each format
//! (ranges, component names) live in its crate; this module walks the document.
//! Resonite numbers keep their BSON type (an int32 refuses 2^40, a double stays a
//! double, an int64 stays `{"$numberLong"}`), and the members the data model types for
//! certain (a slot's `Position`, `Rotation`, `Scale`; a `ValueField<T>`'s `Value`) are
//! typed as the engine stores them (`gamewire_resonite::fields`). O3DE's types come
//! from its registry, as hints.
//!
//! ```text
//! Opened --Types::of--> Types --at(data, pointer)--> ValueType (to_json for the page)
//!                             --check(data, pointer, new value)--> Ok | "300 is outside unsigned char's range 0 to 255"
//! ```

use super::{Opened, Settings};
use serde_json::{json, Value as Json};

/// The type of one value, as an editor needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueType {
    /// An integer of the format's type `name`, from `min` to `max`.
    Integer {
        /// The type's name in the format (`unsigned char`, `int`).
        name: String,
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: i128,
    },
    /// A float of `bits` (32 or 64) bits.
    Float {
        /// The type's name in the format.
        name: String,
        /// 32 or 64.
        bits: u8,
    },
    /// An enum: one of the options by name, or (`flags`) several joined by `|`.
    Enum {
        /// The type's name (`enum Rarity`).
        name: String,
        /// The option names, in the type list's order.
        options: Vec<String>,
        /// True for bit flags (`A|B`).
        flags: bool,
    },
    /// A value with numeric components (a vector, colour, rectangle, transform).
    Components {
        /// The type's name (`Vector3`, `class Color`).
        name: String,
        /// The components, in order.
        components: Vec<Component>,
        /// How a colour's components read, if it is a colour.
        colour: Option<Colour>,
    },
}

/// One component of a [`ValueType::Components`].
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    /// Its name (`x`, `r`, `position.x`).
    pub label: String,
    /// Its JSON Pointer relative to the value (`/value/0`, `/x`, `/i/0`).
    pub pointer: String,
    /// Its type (an integer or a float).
    pub ty: ValueType,
}

/// How a colour's components read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// Floats, 0 to 1 for the visible range (Godot's `Color`).
    Unit,
    /// Bytes, 0 to 255 (KingsIsle's `class Color`).
    Byte,
}

impl ValueType {
    /// The type as JSON for a front end: `{"kind": "integer", "name", "min", "max"}`
    /// (the bounds as decimal text: JavaScript cannot hold 64-bit integers),
    /// `{"kind": "float", "name", "bits"}`, `{"kind": "enum", "name", "options",
    /// "flags"}`, `{"kind": "components", "name", "components": [{"label", "pointer",
    /// "type"}], "colour": "unit" | "byte" | null}`.
    pub fn to_json(&self) -> Json {
        match self {
            ValueType::Integer { name, min, max } => json!({
                "kind": "integer", "name": name, "min": min.to_string(), "max": max.to_string()
            }),
            ValueType::Float { name, bits } => json!({"kind": "float", "name": name, "bits": bits}),
            ValueType::Enum {
                name,
                options,
                flags,
            } => json!({"kind": "enum", "name": name, "options": options, "flags": flags}),
            ValueType::Components {
                name,
                components,
                colour,
            } => json!({
                "kind": "components",
                "name": name,
                "components": components.iter().map(|c| json!({
                    "label": c.label, "pointer": c.pointer, "type": c.ty.to_json()
                })).collect::<Vec<_>>(),
                "colour": match colour {
                    Some(Colour::Unit) => json!("unit"),
                    Some(Colour::Byte) => json!("byte"),
                    None => Json::Null,
                },
            }),
        }
    }

    /// Checks that `v` is a value of this type: an integer within the range (not a
    /// float), a float (written with a decimal point or an exponent) that the width
    /// holds, an enum's option names (or its number), each component.
    pub fn check(&self, v: &Json) -> Result<(), String> {
        match self {
            ValueType::Integer { name, min, max } => {
                let n = match v {
                    Json::Number(n) if n.is_i64() => n.as_i64().map(i128::from),
                    Json::Number(n) if n.is_u64() => n.as_u64().map(i128::from),
                    _ => None,
                };
                match n {
                    Some(n) if !(*min..=*max).contains(&n) => {
                        Err(format!("{n} is outside {name}'s range ({min} to {max})"))
                    }
                    Some(_) => Ok(()),
                    None => Err(format!("{v} is not an integer, and {name} holds integers")),
                }
            }
            ValueType::Float { name, bits } => match v {
                Json::Number(n) if n.is_f64() => {
                    let x = n.as_f64().unwrap_or(f64::NAN);
                    if *bits == 32 && x.is_finite() && x.abs() > f32::MAX as f64 {
                        Err(format!(
                            "{v} is outside {name}'s range (a 32-bit float holds at most \
                             {:e})",
                            f32::MAX
                        ))
                    } else {
                        Ok(())
                    }
                }
                Json::Number(_) => Err(format!(
                    "{v} is an integer; {name} is a float (write {v}.0)"
                )),
                _ => Err(format!("{v} is not a number, and {name} is a float")),
            },
            ValueType::Enum {
                name,
                options,
                flags,
            } => match v {
                Json::String(s) => {
                    let names: Vec<&str> = if *flags {
                        s.split('|')
                            .map(str::trim)
                            .filter(|t| !t.is_empty())
                            .collect()
                    } else {
                        vec![s.as_str()]
                    };
                    match names.iter().find(|n| !options.iter().any(|o| o == *n)) {
                        Some(bad) => Err(format!(
                            "{bad:?} is not an option of {name} ({})",
                            options.join(", ")
                        )),
                        None => Ok(()),
                    }
                }
                Json::Number(n) if n.as_u64().is_some_and(|n| n <= u32::MAX as u64) => Ok(()),
                _ => Err(format!("{v} is not an option of {name}")),
            },
            ValueType::Components {
                name, components, ..
            } => {
                for c in components {
                    let part = v.pointer(&c.pointer).ok_or_else(|| {
                        format!("{name} has no component {} (at {})", c.label, c.pointer)
                    })?;
                    c.ty.check(part)
                        .map_err(|e| format!("{name}'s {}: {e}", c.label))?;
                }
                Ok(())
            }
        }
    }
}

/// Where the types of one opened file come from.
#[derive(Clone)]
enum Source {
    /// Tags on the values (Godot).
    Godot,
    /// The type list.
    #[cfg(feature = "kingsisle")]
    KingsIsle(std::sync::Arc<gamewire_kingsisle::TypeList>),
    /// The solution and the bean the file holds (`None`: schema-less, tags only).
    #[cfg(feature = "zeze")]
    Zeze(Option<(std::sync::Arc<gamewire_zeze::schema::Schema>, String)>),
    /// The registry an O3DE file was read with, and what it types in the file. Its
    /// types are hints for the editor only: O3DE reads more forms than the stored one
    /// (a number as text, a colour as `{"HEX"}`), so edits are checked when saved.
    #[cfg(feature = "o3de")]
    O3de(
        std::sync::Arc<gamewire_o3de::Registry>,
        gamewire_o3de::typing::Typing,
    ),
    /// A Resonite data tree: BSON number types, and the members its data model types.
    #[cfg(feature = "resonite")]
    Resonite,
    /// Nothing beyond JSON.
    None,
}

/// The types of one opened file's values (built by [`Types::of`]).
#[derive(Clone)]
pub struct Types {
    source: Source,
}

impl std::fmt::Debug for Types {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Types")
    }
}

impl Types {
    /// The types of `opened`'s document: from its tags, type list or solution.
    pub fn of(opened: &Opened) -> Types {
        let source = match opened.settings() {
            #[cfg(feature = "godot")]
            Settings::Godot3(_) | Settings::Godot4(_) => Source::Godot,
            #[cfg(feature = "kingsisle")]
            Settings::KingsIsle(_) => match opened.type_list() {
                Some(t) => Source::KingsIsle(t),
                None => Source::None,
            },
            #[cfg(feature = "zeze")]
            Settings::Zeze(z) => match (&z.layout, opened.solution(), &z.bean) {
                (super::ZezeLayout::Bean, Some(s), Some(b)) => Source::Zeze(Some((s, b.clone()))),
                (super::ZezeLayout::Bean, None, _) => Source::Zeze(None),
                _ => Source::None,
            },
            #[cfg(feature = "o3de")]
            Settings::O3de(_) => match opened.registry() {
                Some(r) => {
                    let typing = gamewire_o3de::typing::typing(&r, opened.data());
                    Source::O3de(r, typing)
                }
                None => Source::None,
            },
            #[cfg(feature = "resonite")]
            Settings::Resonite(_) => Source::Resonite,
            #[allow(unreachable_patterns)]
            _ => Source::None,
        };
        Types { source }
    }

    /// True when no value has a type beyond its JSON here (a format read without what
    /// types it).
    pub fn is_none(&self) -> bool {
        matches!(self.source, Source::None)
    }

    /// No types beyond JSON.
    pub fn none() -> Types {
        Types {
            source: Source::None,
        }
    }

    /// The type of the value at `pointer` (tokens, relative to the document's data) in
    /// `data`: declared by its place (a type list's property, a solution's variable, a
    /// component of a tagged value) or by its own tag.
    pub fn at(&self, data: &Json, pointer: &[String]) -> Option<ValueType> {
        if let Some(t) = self.declared(data, pointer) {
            return Some(t);
        }
        let v = get(data, pointer)?;
        match &self.source {
            #[cfg(feature = "godot")]
            Source::Godot => {
                // Numbers that are parts of a tagged object (an Object's id) are not
                // Variants of their own; a plain map never holds a `$type` key.
                let plain = match pointer.split_last() {
                    Some((_, up)) => get(data, up).and_then(|p| p.get("$type")).is_none(),
                    None => true,
                };
                godot_self(v, plain)
            }
            #[cfg(feature = "zeze")]
            Source::Zeze(None) => zeze_tagged(v),
            #[cfg(feature = "o3de")]
            Source::O3de(reg, typing) => o3de::at(reg, typing, data, pointer, v),
            #[cfg(feature = "resonite")]
            Source::Resonite => resonite::by_form(v),
            _ => None,
        }
    }

    /// The pointers (as tokens) whose values typing the value at `pointer` reads beyond
    /// the path to it and the value itself (a Resonite component's `Type` and the
    /// root's `Types`), for a front end that gives [`Types::at`] a part of the document
    /// only; and whether the scalars it lists must be in that part too (their number
    /// types are their types).
    pub fn context(&self, pointer: &[String]) -> (Vec<Vec<String>>, bool) {
        match &self.source {
            #[cfg(feature = "resonite")]
            Source::Resonite => (gamewire_resonite::fields::context(pointer), true),
            _ => {
                let _ = pointer;
                (Vec::new(), false)
            }
        }
    }

    /// Checks that `new` may be put at `pointer` in `data` (replacing what is there, or
    /// added there): it must fit the type its place declares. A value whose place
    /// declares nothing (a Godot value, which may change its type) is not checked here;
    /// the encoder still checks it on save.
    pub fn check(&self, data: &Json, pointer: &[String], new: &Json) -> Result<(), String> {
        #[cfg(feature = "resonite")]
        if let Source::Resonite = self.source {
            return resonite::check(data, pointer, new);
        }
        match self.declared(data, pointer) {
            Some(t) => t.check(new),
            None => Ok(()),
        }
    }

    /// The type the place of `pointer` declares (the value need not exist yet).
    fn declared(&self, data: &Json, pointer: &[String]) -> Option<ValueType> {
        match &self.source {
            #[cfg(feature = "godot")]
            Source::Godot => godot_declared(data, pointer),
            #[cfg(feature = "kingsisle")]
            Source::KingsIsle(t) => kingsisle::declared(t, data, pointer),
            #[cfg(feature = "zeze")]
            Source::Zeze(Some((s, bean))) => zeze::declared(s, bean, data, pointer),
            #[cfg(feature = "zeze")]
            Source::Zeze(None) => zeze_tag_declared(data, pointer),
            #[cfg(feature = "resonite")]
            Source::Resonite => resonite::declared(data, pointer),
            _ => None,
        }
    }
}

/// The value at `toks` in `v`.
fn get<'a>(mut v: &'a Json, toks: &[String]) -> Option<&'a Json> {
    for t in toks {
        v = child(v, t)?;
    }
    Some(v)
}

/// The child `t` of `v` (a key, or an index).
fn child<'a>(v: &'a Json, t: &str) -> Option<&'a Json> {
    match v {
        Json::Object(m) => m.get(t),
        Json::Array(a) => a.get(t.parse::<usize>().ok()?),
        _ => None,
    }
}

/// Components at `/{prefix}{i}` named `labels`, each of type `ty`.
fn components(
    name: &str,
    labels: &[&str],
    prefix: &str,
    ty: &ValueType,
    colour: Option<Colour>,
) -> ValueType {
    ValueType::Components {
        name: name.to_owned(),
        components: labels
            .iter()
            .enumerate()
            .map(|(i, l)| Component {
                label: (*l).to_owned(),
                pointer: format!("{prefix}{i}"),
                ty: ty.clone(),
            })
            .collect(),
        colour,
    }
}

fn integer(name: &str, (min, max): (i128, i128)) -> ValueType {
    ValueType::Integer {
        name: name.to_owned(),
        min,
        max,
    }
}

fn float(name: &str, bits: u8) -> ValueType {
    ValueType::Float {
        name: name.to_owned(),
        bits,
    }
}

#[cfg(feature = "godot")]
fn godot_element(e: gamewire_godot::components::Element, double: bool) -> Option<ValueType> {
    use gamewire_godot::components::Element;
    Some(match e {
        Element::Int32 => integer("int32", (i32::MIN.into(), i32::MAX.into())),
        Element::Int64 => integer("int", (i64::MIN.into(), i64::MAX.into())),
        Element::Real if double => float("real (double)", 64),
        Element::Real => float("real", 32),
        Element::Float32 => float("float32", 32),
        Element::Float64 => float("float", 64),
        Element::Compound(k) => godot_components(k, "", double)?,
        Element::Byte | Element::String => return None,
    })
}

/// A Godot value with components of kind `k`, its numbers at `{prefix}/i`.
#[cfg(feature = "godot")]
fn godot_components(k: gamewire_godot::Kind, prefix: &str, double: bool) -> Option<ValueType> {
    let labels = k.components()?;
    let ty = godot_element(k.component_type()?, double)?;
    let colour = (k == gamewire_godot::Kind::Color).then_some(Colour::Unit);
    Some(components(
        k.name(gamewire_godot::Version::V4),
        labels,
        &format!("{prefix}/"),
        &ty,
        colour,
    ))
}

/// The kind a Godot tagged object names, and whether it is double precision.
#[cfg(feature = "godot")]
fn godot_tag(v: &Json) -> Option<(gamewire_godot::Kind, bool)> {
    let m = v.as_object()?;
    let k = gamewire_godot::Kind::from_name(m.get("$type")?.as_str()?)?;
    Some((
        k,
        m.get("precision").and_then(Json::as_str) == Some("double"),
    ))
}

/// A Godot value's type by its own tag: a vector or colour (components), or a plain
/// integer or float (Variant `int` and `float` are 64-bit). `plain`: false where a
/// number is not a Variant of its own.
#[cfg(feature = "godot")]
fn godot_self(v: &Json, plain: bool) -> Option<ValueType> {
    match v {
        Json::Object(_) => {
            let (k, double) = godot_tag(v)?;
            godot_components(k, "/value", double)
        }
        Json::Number(n) if plain && n.is_f64() => Some(float("float", 64)),
        Json::Number(_) if plain => Some(integer("int", (i64::MIN.into(), i64::MAX.into()))),
        _ => None,
    }
}

/// The type a Godot tag gives a place inside it: a component (`/pos/value/1`), a packed
/// array's item (`/xs/value/3`) or an item's component (`/ps/value/3/0`).
#[cfg(feature = "godot")]
fn godot_declared(data: &Json, toks: &[String]) -> Option<ValueType> {
    let n = toks.len();
    if n >= 2 && toks[n - 2] == "value" {
        let (k, double) = godot_tag(get(data, &toks[..n - 2])?)?;
        if let Some(labels) = k.components() {
            toks[n - 1]
                .parse::<usize>()
                .ok()
                .filter(|i| *i < labels.len())?;
            return godot_element(k.component_type()?, double);
        }
        return godot_element(k.packed_element()?, double);
    }
    if n >= 3 && toks[n - 3] == "value" {
        let (k, double) = godot_tag(get(data, &toks[..n - 3])?)?;
        if let gamewire_godot::components::Element::Compound(c) = k.packed_element()? {
            return godot_element(c.component_type()?, double);
        }
    }
    // Values inside other tagged objects (an Object's id, a NodePath's parts) are not
    // Variants of their own.
    None
}

#[cfg(feature = "resonite")]
mod resonite {
    use super::{float, get, integer, Colour, Component, Json, ValueType};
    use gamewire_resonite::fields::{self, BsonNumber};
    use gamewire_resonite::tree::{Prim, TreeType};

    /// A number's own type: its BSON type (an int64 is a tagged object: edited as its
    /// text, its form checked).
    pub(super) fn by_form(v: &Json) -> Option<ValueType> {
        match BsonNumber::of(v)? {
            BsonNumber::Int32 => Some(integer("int32", (i32::MIN.into(), i32::MAX.into()))),
            BsonNumber::Double => Some(float("double", 64)),
            BsonNumber::Int64 => None,
        }
    }

    fn scalar(p: Prim) -> Option<ValueType> {
        if p.bson() == Some(BsonNumber::Int64) {
            // Written `{"$numberLong": ..}`: no plain number editor.
            return None;
        }
        if let Some(r) = p.integer_range() {
            return Some(integer(p.name(), r));
        }
        Some(float(p.name(), p.float_bits()?))
    }

    fn of_type(t: &TreeType) -> Option<ValueType> {
        match t {
            TreeType::Scalar(p) => scalar(*p),
            TreeType::Nullable(inner) => of_type(inner),
            t => {
                let parts = t.components()?;
                let components = parts
                    .into_iter()
                    .map(|p| {
                        Some(Component {
                            label: p.label,
                            pointer: p.pointer,
                            ty: scalar(p.prim)?,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(ValueType::Components {
                    name: t.name(),
                    components,
                    colour: match t {
                        TreeType::Color32 => Some(Colour::Byte),
                        t if t.is_colour() => Some(Colour::Unit),
                        _ => None,
                    },
                })
            }
        }
    }

    /// The type a place has: a member's declared type, or a component of one
    /// (`.../Position/Data/1`, a matrix's `.../Data/1/0`).
    pub(super) fn declared(data: &Json, toks: &[String]) -> Option<ValueType> {
        for up in 0..=2.min(toks.len()) {
            let (head, tail) = toks.split_at(toks.len() - up);
            let Some(t) = fields::declared(data, head) else {
                continue;
            };
            if up == 0 {
                // An integer the engine wrote in another width than the type's (Neos
                // wrote some `int`s as int64) keeps the width it has.
                if let (TreeType::Scalar(p), Some(b)) =
                    (&t, get(data, toks).and_then(BsonNumber::of))
                {
                    if p.bson() != Some(b) {
                        return by_form(get(data, toks)?);
                    }
                }
                return of_type(&t);
            }
            let want: String = tail.iter().map(|k| format!("/{k}")).collect();
            let part = t.components()?.into_iter().find(|p| p.pointer == want)?;
            return scalar(part.prim);
        }
        None
    }

    /// An edit at `toks` may put `new` there: it fits the declared type, and a number
    /// keeps its BSON type (`Nullable<T>`: null too).
    pub(super) fn check(data: &Json, toks: &[String], new: &Json) -> Result<(), String> {
        let nullable = (0..=2.min(toks.len())).any(|up| {
            matches!(
                fields::declared(data, &toks[..toks.len() - up]),
                Some(TreeType::Nullable(_))
            )
        });
        if nullable && new.is_null() {
            return Ok(());
        }
        if let Some(t) = declared(data, toks) {
            t.check(new)?;
        }
        if let Some(b) = get(data, toks).and_then(BsonNumber::of) {
            b.check(new)?;
        }
        // The text inside an int64's or an int32's tag.
        if let Some((tag, up)) = toks.split_last() {
            let wrapped = serde_json::json!({ tag.as_str(): new });
            match get(data, up).and_then(BsonNumber::of) {
                Some(b) if BsonNumber::of(&wrapped) == Some(b) => b.check(&wrapped)?,
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(feature = "kingsisle")]
mod kingsisle {
    use super::{components, float, get, integer, Colour, Component, Json, ValueType};
    use gamewire_kingsisle::types::{flags, Kind, PropertyDef};
    use gamewire_kingsisle::TypeList;

    /// What a place in a KingsIsle document is.
    #[derive(Clone, Copy)]
    enum Place<'a> {
        /// An object (its class from `$class` or `$hash`).
        Object,
        /// A container property's list.
        List(&'a PropertyDef),
        /// One value of a property.
        Value(&'a PropertyDef),
        /// A matrix row (`i`, `j`, `k`).
        Row,
        /// A number of this kind (a leaf struct's field).
        Number(Kind),
    }

    /// The property `name` of the object `obj`.
    fn property<'a>(types: &'a TypeList, obj: &Json, name: &str) -> Option<&'a PropertyDef> {
        let m = obj.as_object()?;
        let class = match (m.get("$class").and_then(Json::as_str), m.get("$hash")) {
            (Some(c), _) => types.by_name(c)?,
            (None, Some(h)) => types.get(u32::try_from(h.as_u64()?).ok()?)?,
            _ => return None,
        };
        Some(class.property_by_name(name)?.1)
    }

    pub(super) fn declared(types: &TypeList, data: &Json, toks: &[String]) -> Option<ValueType> {
        let mut place = Place::Object;
        for (i, t) in toks.iter().enumerate() {
            let here = || get(data, &toks[..i]);
            place = match place {
                Place::Object => {
                    let p = property(types, here()?, t)?;
                    if p.dynamic {
                        Place::List(p)
                    } else {
                        Place::Value(p)
                    }
                }
                Place::List(p) => {
                    if t != "-" {
                        t.parse::<usize>().ok()?;
                    }
                    Place::Value(p)
                }
                Place::Value(p) => match p.kind {
                    Kind::Object => {
                        let p = property(types, here()?, t)?;
                        if p.dynamic {
                            Place::List(p)
                        } else {
                            Place::Value(p)
                        }
                    }
                    Kind::Matrix if ["i", "j", "k"].contains(&t.as_str()) => Place::Row,
                    k => {
                        let (fields, of) = k.fields()?;
                        fields.contains(&t.as_str()).then_some(Place::Number(of))?
                    }
                },
                Place::Row => {
                    t.parse::<usize>().ok().filter(|i| *i < 3)?;
                    Place::Number(Kind::F32)
                }
                Place::Number(_) => return None,
            };
        }
        match place {
            Place::Value(p) => of_property(p),
            Place::Number(k) => number(k, k_name(k)),
            _ => None,
        }
    }

    fn k_name(k: Kind) -> &'static str {
        match k {
            Kind::U8 => "unsigned char",
            Kind::I32 => "int",
            Kind::U32 => "unsigned int",
            _ => "float",
        }
    }

    fn number(k: Kind, name: &str) -> Option<ValueType> {
        if let Some(r) = k.integer_range() {
            return Some(integer(name, r));
        }
        Some(float(name, k.float_bits()?))
    }

    fn of_property(p: &PropertyDef) -> Option<ValueType> {
        if p.kind == Kind::Enum {
            return Some(ValueType::Enum {
                name: p.type_name.clone(),
                options: p.enum_options.iter().map(|(n, _)| n.clone()).collect(),
                flags: p.flags & flags::BITS != 0,
            });
        }
        if let Some((fields, of)) = p.kind.fields() {
            let ty = number(of, k_name(of))?;
            let mut c = components(&p.type_name, fields, "/", &ty, None);
            if let ValueType::Components {
                components: cs,
                colour,
                ..
            } = &mut c
            {
                // Fields by key: `/x`, and the matrix's `/i/0`.
                *cs = fields
                    .iter()
                    .map(|f| Component {
                        label: (*f).to_owned(),
                        pointer: format!("/{}", f.replace('.', "/")),
                        ty: ty.clone(),
                    })
                    .collect();
                if p.kind == Kind::Color {
                    *colour = Some(Colour::Byte);
                }
            }
            return Some(c);
        }
        number(p.kind, &p.type_name)
    }
}

#[cfg(feature = "zeze")]
mod zeze {
    use super::{components, float, integer, Json, ValueType};
    use gamewire_zeze::schema::{Schema, Type};

    /// The variable `name` of bean `bean` (its base levels included).
    fn variable<'a>(s: &'a Schema, bean: &str, name: &str) -> Option<&'a Type> {
        let levels = s.levels(bean).ok()?;
        levels
            .into_iter()
            .flat_map(|b| b.vars.iter())
            .find(|v| v.name == name)
            .map(|v| &v.ty)
    }

    pub(super) fn declared(
        s: &Schema,
        bean: &str,
        _data: &Json,
        toks: &[String],
    ) -> Option<ValueType> {
        let root = Type::Bean(bean.to_owned());
        let mut ty: &Type = &root;
        let mut component: Option<bool> = None;
        for t in toks {
            if component.is_some() {
                return None;
            }
            ty = match ty {
                Type::Bean(b) => variable(s, b, t)?,
                Type::List(e) | Type::Set(e) => &**e,
                // Maps with string or integer keys are objects; others lists of pairs
                // (not typed here).
                Type::Map(k, v) if matches!(**k, Type::String) || k.integer_range().is_some() => {
                    &**v
                }
                v => {
                    let (labels, int) = v.components()?;
                    t.parse::<usize>().ok().filter(|i| *i < labels.len())?;
                    component = Some(int);
                    v
                }
            };
        }
        if let Some(int) = component {
            return Some(if int {
                integer("int", (i32::MIN.into(), i32::MAX.into()))
            } else {
                float("float", 32)
            });
        }
        of_type(ty)
    }

    fn name(ty: &Type) -> &'static str {
        ty.keyword().unwrap_or("")
    }

    fn of_type(ty: &Type) -> Option<ValueType> {
        if let Some(r) = ty.integer_range() {
            return Some(integer(name(ty), r));
        }
        if let Some(b) = ty.float_bits() {
            return Some(float(name(ty), b));
        }
        let (labels, int) = ty.components()?;
        let c = if int {
            integer("int", (i32::MIN.into(), i32::MAX.into()))
        } else {
            float("float", 32)
        };
        Some(components(name(ty), labels, "/", &c, None))
    }
}

#[cfg(feature = "o3de")]
mod o3de {
    use super::{components, float, get, integer, Colour, Json, ValueType};
    use gamewire_o3de::typing::Typing;
    use gamewire_o3de::{Registry, TypeExpr, Uuid};

    /// The class a `$type` names (`"{UUID} Name"` or `"Name"`).
    fn class_named(reg: &Registry, text: &str) -> Option<usize> {
        let text = text.trim();
        if let Some(rest) = text.strip_prefix('{') {
            let (uuid, name) = rest.split_once('}')?;
            if let Some(c) = Uuid::parse(&format!("{{{uuid}}}")).and_then(|u| reg.class_by_uuid(&u))
            {
                return Some(c);
            }
            return reg.classes_named(name).first().copied();
        }
        reg.classes_named(text).first().copied()
    }

    /// The type of member `name` of `value`, of type `ty`.
    fn member(reg: &Registry, ty: &TypeExpr, value: &Json, name: &str) -> Option<TypeExpr> {
        // An instance names its own class when it differs from the declared one.
        let own = value
            .get("$type")
            .and_then(Json::as_str)
            .and_then(|t| class_named(reg, t));
        match ty {
            TypeExpr::Class(c) => {
                let class = &reg.classes[own.unwrap_or(*c)];
                let f = class.fields.iter().find(|f| f.name == name).or_else(|| {
                    class
                        .fields
                        .iter()
                        .find(|f| f.name.eq_ignore_ascii_case(name))
                })?;
                Some(f.ty.clone())
            }
            TypeExpr::Pointer(t) | TypeExpr::UniquePtr(t) | TypeExpr::SharedPtr(t) => match own {
                Some(c) => member(reg, &TypeExpr::Class(c), value, name),
                None => member(reg, t, value, name),
            },
            TypeExpr::Transform => TypeExpr::transform_member(name),
            TypeExpr::Map(_, v) | TypeExpr::UnorderedMap(_, v) if value.is_object() => {
                Some((**v).clone())
            }
            t => {
                let e = t.element()?;
                name.parse::<usize>().ok()?;
                value.is_array().then(|| e.clone())
            }
        }
    }

    /// The type the registry gives the value at `toks`, as a hint for its editor, when
    /// the value is in the stored form (numbers, an array of numbers, an enum's name).
    pub(super) fn at(
        reg: &Registry,
        typing: &Typing,
        data: &Json,
        toks: &[String],
        v: &Json,
    ) -> Option<ValueType> {
        // Where typing starts: an envelope's ClassData, or a prefab entity's component.
        let (mut ty, start) = match typing {
            Typing::Envelope { ty, .. } if toks.first()? == "ClassData" => (ty.clone(), 1),
            Typing::Prefab => {
                let at = match toks.first()?.as_str() {
                    "ContainerEntity" => 1,
                    "Entities" => 2,
                    _ => return None,
                };
                if toks.get(at)? != "Components" || toks.len() < at + 3 {
                    return None;
                }
                let component = get(data, &toks[..at + 2])?;
                let c = class_named(reg, component.get("$type")?.as_str()?)?;
                (TypeExpr::Class(c), at + 2)
            }
            _ => return None,
        };
        for i in start..toks.len() {
            let here = get(data, &toks[..i])?;
            ty = member(reg, &ty, here, &toks[i])?;
        }
        hint(reg, &ty, v)
    }

    fn hint(reg: &Registry, ty: &TypeExpr, v: &Json) -> Option<ValueType> {
        let name = reg.type_to_string(ty);
        if let Some(r) = ty.integer_range() {
            return (v.is_i64() || v.is_u64()).then(|| integer(&name, r));
        }
        if let Some(b) = ty.float_bits() {
            return v.is_number().then(|| float(&name, b));
        }
        if let TypeExpr::Enum(e) = ty {
            let e = &reg.enums[*e];
            return v.is_string().then(|| ValueType::Enum {
                name: e.name.clone(),
                options: e.values.iter().map(|(n, _)| n.clone()).collect(),
                flags: false,
            });
        }
        let labels = ty.components()?;
        let all_numbers = v
            .as_array()
            .is_some_and(|a| a.len() == labels.len() && a.iter().all(Json::is_number));
        let colour = (*ty == TypeExpr::Color).then_some(Colour::Unit);
        all_numbers.then(|| components(&name, labels, "/", &float("f32", 32), colour))
    }
}

/// A schema-less Zeze value's type by its tag: `{"vector3": [..]}`.
#[cfg(feature = "zeze")]
fn zeze_tagged(v: &Json) -> Option<ValueType> {
    let m = v.as_object().filter(|m| m.len() == 1)?;
    let (tag, _) = m.iter().next()?;
    let (labels, int) = gamewire_zeze::fields::tag_components(tag)?;
    let c = if int {
        integer("int", (i32::MIN.into(), i32::MAX.into()))
    } else {
        float("float", 32)
    };
    Some(components(tag, labels, &format!("/{tag}/"), &c, None))
}

/// The type a schema-less Zeze tag gives a place inside it: `{"float": 1.5}`'s number,
/// a vector's component.
#[cfg(feature = "zeze")]
fn zeze_tag_declared(data: &Json, toks: &[String]) -> Option<ValueType> {
    let n = toks.len();
    if n >= 1 && toks[n - 1] == "float" {
        let parent = get(data, &toks[..n - 1])?.as_object()?;
        return (parent.len() == 1).then(|| float("float", 32));
    }
    if n >= 2 {
        let parent = get(data, &toks[..n - 2])?.as_object()?;
        if parent.len() == 1 {
            let (labels, int) = gamewire_zeze::fields::tag_components(&toks[n - 2])?;
            toks[n - 1]
                .parse::<usize>()
                .ok()
                .filter(|i| *i < labels.len())?;
            return Some(if int {
                integer("int", (i32::MIN.into(), i32::MAX.into()))
            } else {
                float("float", 32)
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(p: &str) -> Vec<String> {
        p.split('/').skip(1).map(str::to_owned).collect()
    }

    #[cfg(feature = "godot")]
    #[test]
    fn godot_tags_give_components_and_ranges() {
        let t = Types {
            source: Source::Godot,
        };
        let data = json!({
            "pos": {"$type": "Vector3", "value": [1.0, 2.0, 3.0]},
            "c": {"$type": "Color", "value": [1.0, 0.5, 0.0, 1.0]},
            "cells": {"$type": "PackedInt32Array", "value": [1, 2]},
            "ps": {"$type": "PackedVector2Array", "value": [[1.0, 2.0]], "precision": "double"},
            "n": 5, "f": 1.5,
            "o": {"$type": "Object", "id": 3}
        });
        let pos = t.at(&data, &toks("/pos")).unwrap();
        let j = pos.to_json();
        assert_eq!(j["kind"], "components");
        assert_eq!(j["components"][2]["label"], "z");
        assert_eq!(j["components"][2]["pointer"], "/value/2");
        assert_eq!(j["components"][2]["type"]["bits"], 32);
        assert_eq!(
            t.at(&data, &toks("/c")).unwrap().to_json()["colour"],
            "unit"
        );
        assert_eq!(
            t.at(&data, &toks("/n")).unwrap().to_json()["max"],
            i64::MAX.to_string()
        );
        assert_eq!(t.at(&data, &toks("/f")).unwrap().to_json()["bits"], 64);
        // A component must stay a 32-bit float, an item of a PackedInt32Array an i32.
        let e = t
            .check(&data, &toks("/pos/value/0"), &json!(1e300))
            .unwrap_err();
        assert!(e.contains("outside real's range"), "{e}");
        assert!(t.check(&data, &toks("/pos/value/0"), &json!(2)).is_err());
        assert!(t.check(&data, &toks("/pos/value/0"), &json!(2.5)).is_ok());
        let e = t
            .check(&data, &toks("/cells/value/1"), &json!(1u64 << 40))
            .unwrap_err();
        assert_eq!(
            e,
            "1099511627776 is outside int32's range (-2147483648 to 2147483647)"
        );
        let item = t.at(&data, &toks("/ps/value/0")).unwrap().to_json();
        assert_eq!(item["components"][1]["pointer"], "/1");
        assert_eq!(item["components"][1]["type"]["bits"], 64);
        // A Variant may change its type: a plain value's place declares nothing.
        assert!(t.check(&data, &toks("/n"), &json!("text")).is_ok());
        assert_eq!(t.at(&data, &toks("/o/id")), None);
    }

    /// A real Resonite item (tests/fixtures/resonite/real): numbers keep their BSON
    /// types, a slot's transform and a `DynamicValueVariable<colorX>`'s value have
    /// their components.
    #[cfg(feature = "resonite")]
    #[test]
    fn resonite_numbers_keep_their_bson_types_and_members_their_model_types() {
        let bytes = include_bytes!(
            "../../../../tests/fixtures/resonite/real/resonite-avatar-root-id.brson"
        );
        let o = crate::open::open(
            bytes.to_vec(),
            Some(std::path::Path::new("item.brson")),
            &crate::open::SideFiles::none(),
            &crate::open::OpenOptions::default(),
        )
        .unwrap();
        let t = Types::of(&o);
        assert!(!t.is_none());
        let data: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        let at = |p: &str| t.at(&data, &toks(p)).map(|v| v.to_json());
        let pos = at("/Object/Position/Data").unwrap();
        assert_eq!(pos["name"], "float3");
        assert_eq!(pos["components"][2]["label"], "z");
        assert_eq!(pos["components"][2]["type"]["bits"], 32);
        assert_eq!(at("/Object/Rotation/Data").unwrap()["name"], "floatQ");
        assert_eq!(at("/Object/Rotation/Data/3").unwrap()["bits"], 32);
        // A float stays a float; an integer is refused.
        let check = |p: &str, v: Json| t.check(&data, &toks(p), &v);
        check("/Object/Position/Data", json!([1.0, 2.5, -3.0])).unwrap();
        assert!(check("/Object/Position/Data", json!([1, 2, 3])).is_err());
        assert!(check("/Object/Scale/Data/0", json!(2)).is_err());
        // An int32 stays an int32: 2^40 is refused (it would be written as an int64).
        assert_eq!(at("/FeatureFlags/ProtoFlux").unwrap()["name"], "int32");
        let e = check("/FeatureFlags/ProtoFlux", json!(1u64 << 40)).unwrap_err();
        assert!(e.contains("int32"), "{e}");
        check("/FeatureFlags/ProtoFlux", json!(3)).unwrap();
        // An int64 (a slot's OrderOffset, a long) stays `{"$numberLong"}`.
        assert_eq!(at("/Object/OrderOffset/Data"), None);
        check(
            "/Object/OrderOffset/Data",
            json!({"$numberLong": "1099511627776"}),
        )
        .unwrap();
        assert!(check("/Object/OrderOffset/Data", json!(5)).is_err());
        check("/Object/OrderOffset/Data/$numberLong", json!("-12")).unwrap();
        assert!(check("/Object/OrderOffset/Data/$numberLong", json!("x")).is_err());
        // A component's member, typed by its component's type (found where it is).
        let types = data["Types"].as_array().unwrap();
        let colour_x = types
            .iter()
            .position(|n| {
                n.as_str()
                    .is_some_and(|n| n.ends_with("DynamicValueVariable<colorX>"))
            })
            .expect("the item has a colorX variable") as u64;
        fn find(v: &Json, at: String, ty: u64, out: &mut Vec<String>) {
            match v {
                Json::Object(m) => {
                    if m.get("Type").and_then(Json::as_u64) == Some(ty) && m.contains_key("Data") {
                        out.push(at.clone());
                    }
                    for (k, c) in m {
                        find(c, format!("{at}/{k}"), ty, out);
                    }
                }
                Json::Array(a) => {
                    for (i, c) in a.iter().enumerate() {
                        find(c, format!("{at}/{i}"), ty, out);
                    }
                }
                _ => {}
            }
        }
        let mut found = Vec::new();
        find(&data, String::new(), colour_x, &mut found);
        let comp = &found[0];
        let p = format!("{comp}/Data/Value/Data");
        let c = at(&p).unwrap();
        assert_eq!(c["name"], "colorX");
        assert_eq!(c["colour"], "unit");
        assert_eq!(c["components"][3]["label"], "a");
        assert_eq!(
            t.context(&toks(&p)),
            (vec![toks("/Types"), toks(&format!("{comp}/Type"))], true)
        );
        let u = format!("{comp}/Data/UpdateOrder/Data");
        assert_eq!(at(&u).unwrap()["name"], "int");
    }

    /// A real Neos item: components' types are names, and its `UpdateOrder`s (an `int`)
    /// were written as int64: they stay int64.
    #[cfg(feature = "resonite")]
    #[test]
    fn neos_int64_ints_keep_their_width() {
        let bytes = include_bytes!("../../../../tests/fixtures/resonite/real/neos-holder.7zbson");
        let o = crate::open::open(
            bytes.to_vec(),
            Some(std::path::Path::new("holder.7zbson")),
            &crate::open::SideFiles::none(),
            &crate::open::OpenOptions::default(),
        )
        .unwrap();
        let t = Types::of(&o);
        let data: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        let p = toks("/Object/Components/Data/0/Data/UpdateOrder/Data");
        assert_eq!(
            data.pointer("/Object/Components/Data/0/Data/UpdateOrder/Data"),
            Some(&json!({"$numberLong": "0"}))
        );
        assert_eq!(t.at(&data, &p), None);
        assert!(t.check(&data, &p, &json!(5)).is_err());
        t.check(&data, &p, &json!({"$numberLong": "5"})).unwrap();
        let pos = t
            .at(&data, &toks("/Object/Position/Data"))
            .unwrap()
            .to_json();
        assert_eq!(pos["name"], "float3");
    }

    #[cfg(feature = "kingsisle")]
    #[test]
    fn kingsisle_types_from_the_type_list() {
        let list = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../samples/kingsisle/types.json"),
        )
        .unwrap();
        let tl = gamewire_kingsisle::TypeList::from_bytes(&list).unwrap();
        let t = Types {
            source: Source::KingsIsle(std::sync::Arc::new(tl)),
        };
        let data = json!({
            "$class": "class SampleItem",
            "m_color": {"r": 1, "g": 2, "b": 3, "a": 255},
            "m_position": {"x": 1.0, "y": 2.0, "z": 3.0},
            "m_rarity": "RARITY_EPIC",
            "m_templateID": 5
        });
        let rarity = t.at(&data, &toks("/m_rarity")).unwrap();
        assert_eq!(
            rarity,
            ValueType::Enum {
                name: "enum Rarity".into(),
                options: vec![
                    "RARITY_COMMON".into(),
                    "RARITY_RARE".into(),
                    "RARITY_EPIC".into()
                ],
                flags: false
            }
        );
        let e = t
            .check(&data, &toks("/m_rarity"), &json!("RARITY_MYTHIC"))
            .unwrap_err();
        assert!(e.contains("not an option of enum Rarity"), "{e}");
        let colour = t.at(&data, &toks("/m_color")).unwrap().to_json();
        assert_eq!(colour["colour"], "byte");
        assert_eq!(colour["components"][0]["pointer"], "/r");
        let e = t
            .check(&data, &toks("/m_color/r"), &json!(300))
            .unwrap_err();
        assert_eq!(e, "300 is outside unsigned char's range (0 to 255)");
        let e = t
            .check(
                &data,
                &toks("/m_color"),
                &json!({"r": 1, "g": -1, "b": 3, "a": 4}),
            )
            .unwrap_err();
        assert!(e.contains("class Color's g: -1 is outside"), "{e}");
        let pos = t.at(&data, &toks("/m_position")).unwrap().to_json();
        assert_eq!(pos["components"][1]["type"]["kind"], "float");
        let id = t.at(&data, &toks("/m_templateID")).unwrap().to_json();
        assert_eq!(id["max"], u64::MAX.to_string());
        assert!(t.check(&data, &toks("/m_templateID"), &json!(-1)).is_err());
        assert_eq!(t.at(&data, &toks("/$class")), None);
    }

    #[test]
    fn bit_flag_enums_take_several_names() {
        let flags = ValueType::Enum {
            name: "enum Flags".into(),
            options: vec!["A".into(), "B".into(), "C".into()],
            flags: true,
        };
        assert!(flags.check(&json!("A|C")).is_ok());
        assert!(flags.check(&json!(5)).is_ok());
        let e = flags.check(&json!("A|D")).unwrap_err();
        assert_eq!(e, "\"D\" is not an option of enum Flags (A, B, C)");
        let one = ValueType::Enum {
            name: "enum Flags".into(),
            options: vec!["A".into(), "B".into(), "C".into()],
            flags: false,
        };
        assert!(one.check(&json!("A|C")).is_err());
        assert!(one.check(&json!(-1)).is_err());
        assert_eq!(flags.to_json()["flags"], true);
    }

    #[cfg(feature = "o3de")]
    #[test]
    fn o3de_hints_from_the_registry() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/o3de");
        let path = dir.join("sample-entity.json");
        let opened = crate::open(
            std::fs::read(&path).unwrap(),
            Some(&path),
            &crate::SideFiles::filesystem(),
            &crate::OpenOptions::default(),
        )
        .unwrap();
        let t = Types::of(&opened);
        let mut text = Vec::new();
        opened.write_document(&mut text, false, None).unwrap();
        let doc: Json = serde_json::from_slice(&text).unwrap();
        let data = &doc["data"];
        let rot = "/ClassData/Components/Component_[1001]/Transform Data/Rotation";
        let j = t.at(data, &toks(rot)).unwrap().to_json();
        assert_eq!(j["kind"], "components", "{j}");
        assert_eq!(j["components"][3]["label"], "w");
        // The stored form only: a translation with a number as text is not offered.
        let tr = "/ClassData/Components/Component_[1001]/Transform Data/Translation";
        assert_eq!(t.at(data, &toks(tr)), None);
        let id = t
            .at(data, &toks("/ClassData/Components/Component_[1002]/Id"))
            .unwrap()
            .to_json();
        assert_eq!(id["max"], u64::MAX.to_string(), "{id}");
        let shadows = "/ClassData/Components/Component_[1002]/Shadows";
        let j = t.at(data, &toks(shadows)).unwrap().to_json();
        assert_eq!(j["options"], json!(["None", "Cast", "Receive", "Both"]));
        // Hints only: a save checks what O3DE reads.
        assert!(t.check(data, &toks(rot), &json!("text")).is_ok());
    }

    #[cfg(feature = "zeze")]
    #[test]
    fn zeze_types_from_the_solution_and_tags() {
        let xml = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../samples/zeze/zeze-solution.xml"),
        )
        .unwrap();
        let s = gamewire_zeze::schema::Schema::from_xml(&xml).unwrap();
        let t = Types {
            source: Source::Zeze(Some((
                std::sync::Arc::new(s),
                "fixtures.outer.BOuter".into(),
            ))),
        };
        let data = json!({"inner": {"x": 1}, "ints": [1], "pos": [1.0, 2.0], "cell": [1, 2, 3]});
        let x = t.at(&data, &toks("/inner/x")).unwrap();
        assert_eq!(x, integer("int", (i32::MIN.into(), i32::MAX.into())));
        assert!(t
            .check(&data, &toks("/ints/0"), &json!(1u64 << 33))
            .is_err());
        let pos = t.at(&data, &toks("/pos")).unwrap().to_json();
        assert_eq!(pos["components"][1]["label"], "y");
        assert_eq!(pos["components"][1]["pointer"], "/1");
        assert!(t.check(&data, &toks("/cell/2"), &json!(1.5)).is_err());
        let tags = Types {
            source: Source::Zeze(None),
        };
        let data = json!({"4": {"float": 1.5}, "6": {"vector2": [1.0, 2.0]}});
        assert_eq!(tags.at(&data, &toks("/4/float")), Some(float("float", 32)));
        let v = tags.at(&data, &toks("/6")).unwrap().to_json();
        assert_eq!(v["components"][0]["pointer"], "/vector2/0");
    }
}
