//! What an editor needs of a value's type in a data tree's JSON (the lossless BSON
//! mapping of [`crate::json`]): the BSON number type each number has, the type the data
//! model gives a member where that is certain, and the ranges, widths and components
//! of those types.
//!
//! - **BSON numbers** ([`BsonNumber`]): a plain JSON integer is an int32, `{"$numberLong"}`
//!   an int64, a number with a fraction or exponent (or `{"$numberDouble"}`) a double.
//!   Writing JSON back gives a plain integer past int32's range an int64 and a plain
//!   integer where a double was an int32, so an edit keeps the BSON type only when it is
//!   written in the same form: [`BsonNumber::check`] says so.
//! - **Declared types** ([`declared`]): a slot's `Position` and `Scale` are `float3`, its
//!   `Rotation` a `floatQ`, `OrderOffset` a `long`, `Active` a `bool`, `Name` and `Tag`
//!   strings (FrooxEngine's `Slot` members, as [`crate::tree::Slot::typed`] reads them);
//!   every component's `UpdateOrder` is an `int` and `Enabled` a `bool` (the `Component`
//!   base class); and a member whose type its component's type names
//!   ([`TreeType::of_member`]: `ValueField<T>.Value`, `DynamicValueVariable<T>.Value`,
//!   ... are `T`). Nothing is guessed from a member's name alone.
//! - **Ranges, widths, components**: [`Prim::integer_range`] (the range the engine's type
//!   holds, as stored: `uint` and `ulong` are written cast to int32 and int64),
//!   [`Prim::float_bits`], [`TreeType::components`] (a vector's `x, y, z`, a colour's
//!   `r, g, b, a`, a matrix's rows) as Elements.Core's `LoadSaveHelper` stores them: an
//!   array of the elements, a matrix an array of rows.
//!
//! Slots are found by their place: the root's `Object`, then `Children` items; a
//! component is an item of a slot's `Components.Data` or of the root's `Assets`, and a
//! member's value is the `Data` of its `{"ID", "Data"}` pair.

use crate::tree::{Prim, TreeType};
use serde_json::Value as Json;

/// The BSON type of a number in the JSON mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BsonNumber {
    /// int32: a plain JSON integer (or `{"$numberInt": ".."}`).
    Int32,
    /// int64: `{"$numberLong": ".."}`.
    Int64,
    /// double: a number with a fraction or exponent, or `{"$numberDouble": ".."}`.
    Double,
}

impl BsonNumber {
    /// The BSON number type of `v`, or `None` when it is no number.
    pub fn of(v: &Json) -> Option<BsonNumber> {
        match v {
            Json::Number(n) if n.is_f64() => Some(BsonNumber::Double),
            Json::Number(_) => Some(BsonNumber::Int32),
            Json::Object(m) if m.len() == 1 => match m.keys().next().map(String::as_str) {
                Some("$numberLong") => Some(BsonNumber::Int64),
                Some("$numberInt") => Some(BsonNumber::Int32),
                Some("$numberDouble") => Some(BsonNumber::Double),
                _ => None,
            },
            _ => None,
        }
    }

    /// The BSON type's name.
    pub fn name(self) -> &'static str {
        match self {
            BsonNumber::Int32 => "int32",
            BsonNumber::Int64 => "int64",
            BsonNumber::Double => "double",
        }
    }

    /// Checks that `new` is a number of this BSON type, written so that it stays one:
    /// an int32 a plain integer within its range, an int64 `{"$numberLong": "N"}` within
    /// its range, a double a number with a fraction or exponent.
    pub fn check(self, new: &Json) -> Result<(), String> {
        let found = BsonNumber::of(new);
        match (self, new) {
            (BsonNumber::Int32, Json::Number(n)) if found == Some(BsonNumber::Int32) => {
                let fits = n.as_i64().is_some_and(|x| i32::try_from(x).is_ok());
                if fits {
                    Ok(())
                } else {
                    Err(format!(
                        "{n} is outside int32's range ({} to {}): this value is a BSON int32",
                        i32::MIN,
                        i32::MAX
                    ))
                }
            }
            (BsonNumber::Int64, Json::Object(m)) if found == Some(BsonNumber::Int64) => {
                match m["$numberLong"].as_str().map(str::parse::<i64>) {
                    Some(Ok(_)) => Ok(()),
                    _ => Err(format!(
                        "{new} is not an int64: write {{\"$numberLong\": \"N\"}} with N from {} to {}",
                        i64::MIN,
                        i64::MAX
                    )),
                }
            }
            (BsonNumber::Int32 | BsonNumber::Double, Json::Object(_)) if found == Some(self) => {
                Ok(())
            }
            (BsonNumber::Double, Json::Number(_)) if found == Some(BsonNumber::Double) => Ok(()),
            (BsonNumber::Double, Json::Number(n)) => Err(format!(
                "{n} is an integer, and this value is a BSON double (write {n}.0)"
            )),
            (BsonNumber::Int32, Json::Number(n)) => Err(format!(
                "{n} is not an integer, and this value is a BSON int32"
            )),
            (BsonNumber::Int64, Json::Number(n)) => Err(format!(
                "this value is a BSON int64: write {{\"$numberLong\": \"{}\"}}",
                n
            )),
            (_, other) => Err(format!(
                "{other} is not a number, and this value is a BSON {}",
                self.name()
            )),
        }
    }
}

impl Prim {
    /// The range of an integer type as the data tree stores it: `byte` 0 to 255 ...
    /// `int` int32's; `uint` int32's and `ulong` int64's (the engine writes them cast);
    /// `long` int64's. `None` for `bool` and the floats.
    pub fn integer_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Prim::Byte => (0, u8::MAX.into()),
            Prim::SByte => (i8::MIN.into(), i8::MAX.into()),
            Prim::Short => (i16::MIN.into(), i16::MAX.into()),
            Prim::UShort => (0, u16::MAX.into()),
            Prim::Int | Prim::UInt => (i32::MIN.into(), i32::MAX.into()),
            Prim::Long | Prim::ULong => (i64::MIN.into(), i64::MAX.into()),
            _ => return None,
        })
    }

    /// The width of a float type: `float` 32, `double` 64.
    pub fn float_bits(self) -> Option<u8> {
        match self {
            Prim::Float => Some(32),
            Prim::Double => Some(64),
            _ => None,
        }
    }

    /// The BSON number type the engine writes this type as (`None` for `bool`).
    pub fn bson(self) -> Option<BsonNumber> {
        match self {
            Prim::Bool => None,
            Prim::Float | Prim::Double => Some(BsonNumber::Double),
            Prim::Long | Prim::ULong => Some(BsonNumber::Int64),
            _ => Some(BsonNumber::Int32),
        }
    }
}

/// One number of a value with components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its name: `x`, `r`, `row 1 y`.
    pub label: String,
    /// Its JSON Pointer from the value: `/0`, `/1/2`.
    pub pointer: String,
    /// Its element type.
    pub prim: Prim,
}

impl TreeType {
    /// The numbers of a vector, quaternion, colour or matrix as the data tree stores it
    /// (an array of the elements; a matrix an array of rows; a `colorX` the colour's four
    /// then its profile name, which is no number), or `None`. A vector of `bool`s has no
    /// numbers.
    pub fn components(&self) -> Option<Vec<Part>> {
        const XYZW: [&str; 4] = ["x", "y", "z", "w"];
        const RGBA: [&str; 4] = ["r", "g", "b", "a"];
        let flat = |labels: &[&str], prim: Prim| {
            labels
                .iter()
                .enumerate()
                .map(|(i, l)| Part {
                    label: (*l).to_owned(),
                    pointer: format!("/{i}"),
                    prim,
                })
                .collect::<Vec<_>>()
        };
        Some(match self {
            TreeType::Vector(Prim::Bool, _) => return None,
            TreeType::Vector(p, n) => flat(&XYZW[..*n], *p),
            TreeType::Quaternion(p) => flat(&XYZW, *p),
            TreeType::Color | TreeType::ColorX => flat(&RGBA, Prim::Float),
            TreeType::Color32 => flat(&RGBA, Prim::Byte),
            TreeType::Matrix(p, n) => (0..*n)
                .flat_map(|r| {
                    (0..*n).map(move |c| Part {
                        label: format!("row {r} {}", XYZW[c]),
                        pointer: format!("/{r}/{c}"),
                        prim: *p,
                    })
                })
                .collect(),
            _ => return None,
        })
    }

    /// True for the colour types (`color`, `colorX`: floats; `color32`: bytes).
    pub fn is_colour(&self) -> bool {
        matches!(self, TreeType::Color | TreeType::ColorX | TreeType::Color32)
    }
}

/// The value at `toks` in `v`.
fn get<'a>(mut v: &'a Json, toks: &[String]) -> Option<&'a Json> {
    for t in toks {
        v = match v {
            Json::Object(m) => m.get(t)?,
            Json::Array(a) => a.get(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(v)
}

/// How many tokens of `toks` name a slot (`Object`, then `Children`, `N` pairs), or
/// `None` when `toks` does not start at the root slot.
fn slot_len(toks: &[String]) -> Option<usize> {
    if toks.first().map(String::as_str) != Some("Object") {
        return None;
    }
    let mut n = 1;
    while toks.get(n).map(String::as_str) == Some("Children")
        && toks.get(n + 1).is_some_and(|t| t.parse::<usize>().is_ok())
    {
        n += 2;
    }
    Some(n)
}

/// Where a component is in `toks`: the tokens up to the component (a slot's
/// `Components/Data/N` or the root's `Assets/N`), and the rest.
fn component_at(toks: &[String]) -> Option<(&[String], &[String])> {
    let is_index = |i: usize| toks.get(i).is_some_and(|t| t.parse::<usize>().is_ok());
    if toks.first().map(String::as_str) == Some("Assets") && is_index(1) {
        return Some(toks.split_at(2));
    }
    let n = slot_len(toks)?;
    let rest = &toks[n..];
    if rest.len() >= 3 && rest[0] == "Components" && rest[1] == "Data" && is_index(n + 2) {
        return Some(toks.split_at(n + 3));
    }
    None
}

/// The type name of the component at `comp` in `data`: its `Type`, an index into the
/// root's `Types` (Resonite) or the name itself (Neos).
pub fn component_type<'a>(data: &'a Json, comp: &[String]) -> Option<&'a str> {
    match get(data, comp)?.get("Type")? {
        Json::String(s) => Some(s),
        Json::Number(n) => data
            .get("Types")?
            .get(usize::try_from(n.as_u64()?).ok()?)?
            .as_str(),
        _ => None,
    }
}

/// The pointers (as tokens) whose values [`declared`] reads to type the value at
/// `toks`: the root's `Types` and the component's `Type`, for a component's member.
/// A front end holding only part of the document gives it these.
pub fn context(toks: &[String]) -> Vec<Vec<String>> {
    match component_at(toks) {
        Some((comp, _)) => {
            let mut ty = comp.to_vec();
            ty.push("Type".into());
            vec![vec!["Types".into()], ty]
        }
        None => Vec::new(),
    }
}

/// The type the data model gives the value at `toks` (a member's `Data`) in the data
/// tree `data` (the document's JSON), where it is certain: a slot's own members, every
/// component's `UpdateOrder` and `Enabled`, and the members whose type their
/// component's type names. `None` elsewhere.
pub fn declared(data: &Json, toks: &[String]) -> Option<TreeType> {
    let member = match toks {
        [.., m, d] if d == "Data" => m.as_str(),
        _ => return None,
    };
    let up = &toks[..toks.len() - 2];
    if let Some((comp, rest)) = component_at(toks) {
        // `.../Data/MEMBER/Data` inside the component.
        if rest.len() != 3 || rest[0] != "Data" {
            return None;
        }
        return match member {
            "UpdateOrder" => Some(TreeType::Scalar(Prim::Int)),
            "Enabled" => Some(TreeType::Scalar(Prim::Bool)),
            _ => TreeType::of_member(component_type(data, comp)?, member),
        };
    }
    if slot_len(up) != Some(up.len()) {
        return None;
    }
    Some(match member {
        "Position" | "Scale" => TreeType::Vector(Prim::Float, 3),
        "Rotation" => TreeType::Quaternion(Prim::Float),
        "OrderOffset" => TreeType::Scalar(Prim::Long),
        "Active" => TreeType::Scalar(Prim::Bool),
        "Name" | "Tag" => TreeType::String,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn toks(p: &str) -> Vec<String> {
        p.split('/').skip(1).map(str::to_owned).collect()
    }

    #[test]
    fn bson_numbers_keep_their_type() {
        let i = BsonNumber::of(&json!(5)).unwrap();
        assert_eq!(i, BsonNumber::Int32);
        i.check(&json!(-7)).unwrap();
        let e = i.check(&json!(1u64 << 40)).unwrap_err();
        assert!(e.contains("int32's range"), "{e}");
        assert!(i.check(&json!(1.5)).is_err());
        let d = BsonNumber::of(&json!(5.0)).unwrap();
        assert_eq!(d, BsonNumber::Double);
        d.check(&json!(2.5)).unwrap();
        assert!(d.check(&json!(3)).unwrap_err().contains("3.0"));
        let l = BsonNumber::of(&json!({"$numberLong": "5"})).unwrap();
        assert_eq!(l, BsonNumber::Int64);
        l.check(&json!({"$numberLong": "-9223372036854775808"}))
            .unwrap();
        assert!(l
            .check(&json!({"$numberLong": "9223372036854775808"}))
            .is_err());
        assert!(l.check(&json!(5)).unwrap_err().contains("$numberLong"));
        assert_eq!(BsonNumber::of(&json!("5")), None);
    }

    #[test]
    fn slots_and_components_declare_their_members() {
        let data = json!({
            "Types": ["[FrooxEngine]FrooxEngine.ValueField<int2>", "[FrooxEngine]FrooxEngine.Light"],
            "Object": {
                "Position": {"ID": "a", "Data": [0.0, 1.0, 2.0]},
                "Components": {"ID": "b", "Data": [
                    {"Type": 0, "Data": {"Value": {"ID": "c", "Data": [1, 2]},
                                         "UpdateOrder": {"ID": "d", "Data": 0}}},
                    {"Type": 1, "Data": {"Range": {"ID": "e", "Data": 5.0}}}
                ]},
                "Children": [{"Rotation": {"ID": "f", "Data": [0.0, 0.0, 0.0, 1.0]}}]
            },
            "Assets": [{"Type": "FrooxEngine.ValueField`1[[BaseX.color, BaseX]]",
                        "Data": {"Value": {"ID": "g", "Data": [1.0, 1.0, 1.0, 1.0]}}}]
        });
        let at = |p: &str| declared(&data, &toks(p));
        assert_eq!(
            at("/Object/Position/Data"),
            Some(TreeType::Vector(Prim::Float, 3))
        );
        assert_eq!(
            at("/Object/Children/0/Rotation/Data"),
            Some(TreeType::Quaternion(Prim::Float))
        );
        assert_eq!(
            at("/Object/Components/Data/0/Data/Value/Data"),
            Some(TreeType::Vector(Prim::Int, 2))
        );
        assert_eq!(
            at("/Object/Components/Data/0/Data/UpdateOrder/Data"),
            Some(TreeType::Scalar(Prim::Int))
        );
        // A member its component's type does not name is not guessed.
        assert_eq!(at("/Object/Components/Data/1/Data/Range/Data"), None);
        assert_eq!(at("/Assets/0/Data/Value/Data"), Some(TreeType::Color));
        // Not a slot's member: a key of the same name elsewhere.
        assert_eq!(at("/Assets/0/Data/Position/Data"), None);
        assert_eq!(at("/Other/Position/Data"), None);
        assert_eq!(
            context(&toks("/Object/Components/Data/0/Data/Value/Data")),
            vec![toks("/Types"), toks("/Object/Components/Data/0/Type")]
        );
        let parts = TreeType::Quaternion(Prim::Float).components().unwrap();
        assert_eq!(parts[3].label, "w");
        assert_eq!(parts[3].pointer, "/3");
        let m = TreeType::Matrix(Prim::Double, 2).components().unwrap();
        assert_eq!(m[3].pointer, "/1/1");
        assert_eq!(Prim::Byte.integer_range(), Some((0, 255)));
        assert_eq!(
            Prim::UInt.integer_range(),
            Some((i32::MIN.into(), i32::MAX.into()))
        );
    }
}
