//! Load: JSON to a typed value with O3DE's coercion rules (JsonDeserializer and the
//! built-in serializers).
//!
//! Like O3DE, loading writes onto an existing value (a default instance), reports
//! every step as a [`ResultCode`], and leaves a value untouched when its input is
//! rejected (`Unsupported` and worse).
//!
//! This module holds the [`Loader`], the dispatch by type and what every kind of type
//! shares (path segments, explicit defaults, `refill`); each kind loads in its own
//! module: `scalars`, `math`, `containers`, `classes` (classes and enums), `pointers`
//! (`$type`, pointers, `any`), `assets` and `entity` (`AZ::EntityId`).

use crate::duplicates::Duplicates;
use crate::numbers::{strtod, strtoll, strtoull};
use crate::registry::{identity, int_range, Registry};
use crate::report::{
    Outcome as O, Processing, Report, Reporter, ResultCode, Seg, SharedReporting, Task as T,
};
use crate::types::{ClassId, TypeExpr};
use crate::uuid::{Uuid, NULL_UUID_TEXT};
use crate::value::{AssetRef, KeyIndex, Value};
use crate::LoadOptions;
pub use entity::INVALID_ENTITY_ID;
use serde_json::Value as Json;

mod assets;
mod classes;
mod containers;
mod entity;
mod math;
mod pointers;
mod scalars;

pub(super) type Code = ResultCode;

/// True for `{}`, O3DE's explicit default.
pub fn is_explicit_default(j: &Json) -> bool {
    matches!(j, Json::Object(m) if m.is_empty())
}

pub(super) fn is_double(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) if n.is_f64() => n.as_f64(),
        _ => None,
    }
}

/// How a `$type` was found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TypeFound {
    /// No `$type`: the declared type.
    Implicit,
    /// `$type` named a registered type.
    Explicit(TypeExpr),
    /// `$type` held a UUID no registered type has.
    UnknownUuid(Uuid),
    /// Nothing matched.
    Failed,
    /// The name matched several classes and no single one fits the declared base.
    Ambiguous,
}

/// The load machinery: registry, options, reports and the current path.
pub struct Loader<'r, 'j> {
    reg: &'r Registry,
    opts: &'r LoadOptions,
    pub(crate) rep: Reporter<'j>,
    depth: usize,
    dups: Option<&'r Duplicates>,
    reporting: Option<&'r SharedReporting<'r>>,
}

impl<'r, 'j> Loader<'r, 'j> {
    /// A loader over `reg`.
    pub fn new(reg: &'r Registry, opts: &'r LoadOptions) -> Self {
        Loader {
            reg,
            opts,
            rep: Reporter::default(),
            depth: 0,
            dups: None,
            reporting: None,
        }
    }

    /// Passes the result of every value loaded through `reporting` (O3DE's
    /// `JsonDeserializerSettings::m_reporting`); processing goes on with what it returns.
    pub(crate) fn with_reporting(mut self, reporting: &'r SharedReporting<'r>) -> Self {
        self.reporting = Some(reporting);
        self
    }

    /// Reads the objects listed in `dups` member by member, duplicates included.
    pub fn with_duplicates(mut self, dups: &'r Duplicates) -> Self {
        self.dups = (!dups.is_empty()).then_some(dups);
        self
    }

    /// Every member, in document order, of the object being loaded, when it had
    /// duplicate names.
    pub(super) fn duplicate_members(&self) -> Option<Vec<(String, Json)>> {
        self.dups?.get(&self.rep.pointer()).cloned()
    }

    /// A loader at the same path and depth, for members owned by the caller.
    pub(super) fn sub_loader<'k>(&self) -> Loader<'r, 'k> {
        Loader {
            reg: self.reg,
            opts: self.opts,
            rep: Reporter {
                path: self.rep.path.iter().map(|s| s.to_owned_seg()).collect(),
                issues: Vec::new(),
            },
            depth: self.depth,
            dups: self.dups,
            reporting: self.reporting,
        }
    }

    /// The report for `result` with the issues collected so far.
    pub fn finish(self, result: ResultCode) -> Report {
        Report {
            result,
            issues: self.rep.issues,
        }
    }

    pub(super) fn report(&mut self, task: T, outcome: O, msg: &str) -> Code {
        self.rep.report(task, outcome, msg)
    }

    pub(super) fn code(&mut self, code: Code, msg: &str) -> Code {
        self.rep.code(code, msg)
    }

    /// Runs `f` with `seg` added to the path, so issues it reports point below it.
    pub(super) fn at<R>(&mut self, seg: Seg<'j>, f: impl FnOnce(&mut Self) -> R) -> R {
        self.rep.path.push(seg);
        let r = f(self);
        self.rep.path.pop();
        r
    }

    pub(super) fn with_key<R>(&mut self, key: &'j str, f: impl FnOnce(&mut Self) -> R) -> R {
        self.at(Seg::Key(key), f)
    }

    pub(super) fn with_index<R>(&mut self, i: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        self.at(Seg::Index(i), f)
    }

    /// Loads `json` as `ty` onto `part`, a piece of a larger value kept outside a
    /// [`Value`] (a transform's translation, an asset id's guid): `wrap` makes the
    /// value the load works on, `unwrap` gives the piece back when the load left the
    /// value's kind as it was.
    pub(super) fn load_part<P: Default>(
        &mut self,
        ty: &TypeExpr,
        json: &'j Json,
        part: &mut P,
        wrap: impl FnOnce(P) -> Value,
        unwrap: impl FnOnce(Value) -> Option<P>,
    ) -> Code {
        let mut v = wrap(std::mem::take(part));
        let r = self.load_ro(ty, json, &mut v, false);
        if let Some(p) = unwrap(v) {
            *part = p;
        }
        r
    }

    /// Loads `json` onto `out`, a value of type `ty`. `new_instance` is true when `out`
    /// was just created for this load (container elements, pointees).
    pub fn load(
        &mut self,
        ty: &TypeExpr,
        json: &'j mut Json,
        out: &mut Value,
        new_instance: bool,
    ) -> Code {
        if self.depth >= self.opts.max_depth {
            return self.report(
                T::ReadField,
                O::Catastrophic,
                "Nesting deeper than the depth limit.",
            );
        }
        self.depth += 1;
        let r = self.load_inner(ty, json, out, new_instance);
        self.depth -= 1;
        match self.reporting {
            Some(cb) => {
                let path = self.rep.pointer();
                (cb.borrow_mut())(&r.describe(&path), r, &path)
            }
            None => r,
        }
    }

    fn load_inner(
        &mut self,
        ty: &TypeExpr,
        json: &'j mut Json,
        out: &mut Value,
        new_instance: bool,
    ) -> Code {
        use TypeExpr as X;
        match ty {
            X::Pointer(inner) => return self.load_pointer(inner, json, out),
            X::UniquePtr(inner) | X::SharedPtr(inner) => return self.load_smart(inner, json, out),
            _ => {}
        }
        if is_explicit_default(json) {
            return self.explicit_default(ty, out, new_instance);
        }
        if let X::String = ty {
            // Owned input: the string moves into the value.
            return match json {
                Json::String(s) => {
                    *out = Value::String(std::mem::take(s));
                    ResultCode::new(T::ReadField, O::Success)
                }
                other => self.load_string(other, out),
            };
        }
        match ty {
            X::Bool => self.load_bool(json, out),
            X::I8 | X::I16 | X::I32 | X::I64 | X::U8 | X::U16 | X::U32 | X::U64 => {
                self.load_int(ty, json, out)
            }
            X::F32 | X::F64 => self.load_float(ty == &X::F32, json, out),
            X::String => self.load_string(json, out),
            X::Uuid => self.load_uuid(json, out),
            X::Color => self.load_color(json, out),
            X::Vector2 | X::Vector3 | X::Vector4 => {
                self.load_vector(ty.math_len().unwrap_or(0), json, out)
            }
            X::Quaternion => self.load_quaternion(json, out),
            X::Matrix3x3 => self.load_matrix(3, 3, json, out),
            X::Matrix3x4 => self.load_matrix(3, 4, json, out),
            X::Matrix4x4 => self.load_matrix(4, 4, json, out),
            X::Transform => self.load_transform(json, out),
            X::EntityId => self.load_entity_id(json, out),
            X::Vector(e) | X::List(e) | X::UnorderedMultiset(e) => {
                self.load_seq(e, None, false, json, out)
            }
            X::FixedVector(e, n) => self.load_seq(e, Some(*n), false, json, out),
            X::Set(e) | X::UnorderedSet(e) => self.load_seq(e, None, true, json, out),
            X::Array(e, n) => self.load_array(e, *n, json, out),
            X::Map(k, v) | X::UnorderedMap(k, v) => self.load_map(k, v, false, json, out),
            X::UnorderedMultimap(k, v) => self.load_map(k, v, true, json, out),
            X::Pair(a, b) => {
                let tys = [(**a).clone(), (**b).clone()];
                self.load_tuple(&tys, json, out)
            }
            X::Tuple(ts) => self.load_tuple(ts, json, out),
            X::Any => self.load_any(json, out),
            X::Asset(_) => self.load_asset(json, out),
            X::Class(c) => self.load_class(*c, json, out),
            X::Enum(e) => self.load_enum(*e, json, out),
            X::Pointer(_) | X::UniquePtr(_) | X::SharedPtr(_) => unreachable_code(),
        }
    }

    /// `{}`: O3DE's explicit default, by the serializer's operation flags.
    pub(super) fn explicit_default(
        &self,
        ty: &TypeExpr,
        out: &mut Value,
        new_instance: bool,
    ) -> Code {
        use TypeExpr as X;
        match ty {
            // Serializers flagged "initialize new instance": reset only new instances.
            X::Bool
            | X::I8
            | X::I16
            | X::I32
            | X::I64
            | X::U8
            | X::U16
            | X::U32
            | X::U64
            | X::F32
            | X::F64
            | X::Uuid
            | X::Color
            | X::Vector2
            | X::Vector3
            | X::Vector4
            | X::Quaternion
            | X::Matrix3x3
            | X::Matrix3x4
            | X::Matrix4x4
            | X::Transform
            | X::Array(..)
            | X::Pair(..)
            | X::Tuple(_) => {
                if new_instance {
                    *out = self.reg.zero(ty);
                }
                ResultCode::new(T::ReadField, O::DefaultsUsed)
            }
            _ => ResultCode::new(T::ReadField, O::DefaultsUsed),
        }
    }

    /// Loads a scalar or math type from a shared JSON value (no strings to move).
    pub(crate) fn load_ro(
        &mut self,
        ty: &TypeExpr,
        json: &'j Json,
        out: &mut Value,
        new_instance: bool,
    ) -> Code {
        use TypeExpr as X;
        if is_explicit_default(json) {
            return self.explicit_default(ty, out, new_instance);
        }
        match ty {
            X::Bool => self.load_bool(json, out),
            X::I8 | X::I16 | X::I32 | X::I64 | X::U8 | X::U16 | X::U32 | X::U64 => {
                self.load_int(ty, json, out)
            }
            X::F32 | X::F64 => self.load_float(ty == &X::F32, json, out),
            X::String => self.load_string(json, out),
            X::Uuid => self.load_uuid(json, out),
            X::Color => self.load_color(json, out),
            X::Vector2 | X::Vector3 | X::Vector4 => {
                self.load_vector(ty.math_len().unwrap_or(0), json, out)
            }
            X::Quaternion => self.load_quaternion(json, out),
            X::Matrix3x3 => self.load_matrix(3, 3, json, out),
            X::Matrix3x4 => self.load_matrix(3, 4, json, out),
            X::Matrix4x4 => self.load_matrix(4, 4, json, out),
            X::EntityId => self.load_entity_id(json, out),
            X::Enum(e) => self.load_enum(*e, json, out),
            _ => self.load_from_temp(ty, json.clone(), out),
        }
    }
}

/// Takes the part `out` holds out of it, lets `fill` work on it and puts it back: the
/// one shape of every load that edits a container or a compound value in place.
/// `take` gets the part from the old value (a new one when `out` held another kind),
/// `put` wraps the filled part again.
pub(super) fn refill<P, R>(
    out: &mut Value,
    take: impl FnOnce(Value) -> P,
    fill: impl FnOnce(&mut P) -> R,
    put: impl FnOnce(P) -> Value,
) -> R {
    let mut part = take(std::mem::replace(out, Value::Bool(false)));
    let r = fill(&mut part);
    *out = put(part);
    r
}

/// The elements of a sequence value, or none for any other kind.
pub(super) fn seq_of(v: Value) -> Vec<Value> {
    match v {
        Value::Seq(s) => s,
        _ => Vec::new(),
    }
}

/// The parts of a sequence, tuple or object value, or none for any other kind.
pub(super) fn items_of(v: Value) -> Vec<Value> {
    match v {
        Value::Seq(s) | Value::Tuple(s) | Value::Object(s) => s,
        _ => Vec::new(),
    }
}

/// What one element's load tells the loop over a container's elements.
pub(super) enum Step {
    /// Go on with the next element.
    Next,
    /// Stop reading elements (the container is full).
    Stop,
    /// An element halted: the container's load fails.
    Fail,
}

/// The entries of a map value, or none for any other kind.
pub(super) fn map_of(v: Value) -> Vec<(Value, Value)> {
    match v {
        Value::Map(m) => m,
        _ => Vec::new(),
    }
}

/// The floats of a math value of `n` floats, or `n` zeros.
pub(super) fn floats_of<const N: usize>(v: &Value, zero: [f32; N]) -> [f32; N] {
    match v {
        Value::Math(m) if m.len() == N => m[..].try_into().unwrap_or(zero),
        _ => zero,
    }
}

/// The integer value of `ty` holding `v` (already range-checked, or bits for enums).
pub(crate) fn int_value(ty: &TypeExpr, v: i128) -> Value {
    if int_range(ty).0 < 0 {
        Value::Int(v as i64)
    } else {
        Value::UInt(v as u64)
    }
}

/// The bits of an integer value as i128, masked to the width of `ty` for OR-ing.
pub(super) fn bits_of(ty: &TypeExpr, v: &Value) -> i128 {
    match v {
        Value::Int(i) => *i as i128,
        Value::UInt(u) => {
            let _ = ty;
            *u as i128
        }
        _ => 0,
    }
}

#[cold]
pub(super) fn unreachable_code() -> Code {
    ResultCode::new(T::ReadField, O::Catastrophic)
}
