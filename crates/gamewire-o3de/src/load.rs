//! Load: JSON to a typed value with O3DE's coercion rules (JsonDeserializer and the
//! built-in serializers).
//!
//! Like O3DE, loading writes onto an existing value (a default instance), reports
//! every step as a [`ResultCode`], and leaves a value untouched when its input is
//! rejected (`Unsupported` and worse).

use crate::duplicates::Duplicates;
use crate::math;
use crate::numbers::{strtod, strtoll, strtoull};
use crate::registry::{identity, int_range, Registry};
use crate::report::{
    Outcome as O, Processing, Report, Reporter, ResultCode, Seg, SharedReporting, Task as T,
};
use crate::types::{ClassId, TypeExpr};
use crate::uuid::{Uuid, NULL_UUID_TEXT};
use crate::value::{AssetRef, KeyIndex, Value};
use crate::LoadOptions;
use serde_json::Value as Json;

type Code = ResultCode;

/// True for `{}`, O3DE's explicit default.
pub fn is_explicit_default(j: &Json) -> bool {
    matches!(j, Json::Object(m) if m.is_empty())
}

fn is_double(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) if n.is_f64() => n.as_f64(),
        _ => None,
    }
}

/// A map being loaded: entries in arrival order and an index from key to entry.
pub(crate) struct MapBuild {
    entries: Vec<(Value, Value)>,
    index: KeyIndex,
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
    fn duplicate_members(&self) -> Option<Vec<(String, Json)>> {
        self.dups?.get(&self.rep.pointer()).cloned()
    }

    /// A loader at the same path and depth, for members owned by the caller.
    fn sub_loader<'k>(&self) -> Loader<'r, 'k> {
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

    fn report(&mut self, task: T, outcome: O, msg: &str) -> Code {
        self.rep.report(task, outcome, msg)
    }

    fn code(&mut self, code: Code, msg: &str) -> Code {
        self.rep.code(code, msg)
    }

    fn with_key<R>(&mut self, key: &'j str, f: impl FnOnce(&mut Self) -> R) -> R {
        self.rep.path.push(Seg::Key(key));
        let r = f(self);
        self.rep.path.pop();
        r
    }

    fn with_index<R>(&mut self, i: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        self.rep.path.push(Seg::Index(i));
        let r = f(self);
        self.rep.path.pop();
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
    fn explicit_default(&self, ty: &TypeExpr, out: &mut Value, new_instance: bool) -> Code {
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
            X::Enum(e) => self.load_enum(*e, json, out),
            _ => self.load_from_temp(ty, json.clone(), out),
        }
    }

    // ---- scalars ----

    fn load_bool(&mut self, json: &Json, out: &mut Value) -> Code {
        match json {
            Json::Array(_) | Json::Object(_) | Json::Null => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Booleans can't be read from arrays, objects or null.",
            ),
            Json::String(s) => {
                if s.is_empty() {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "The string used to read a boolean from was empty.",
                    );
                }
                if s.eq_ignore_ascii_case("true") {
                    *out = Value::Bool(true);
                    return ResultCode::new(T::ReadField, O::Success);
                }
                if s.eq_ignore_ascii_case("false") {
                    *out = Value::Bool(false);
                    return ResultCode::new(T::ReadField, O::Success);
                }
                let p = strtoll(s);
                if p.used > 0 {
                    *out = Value::Bool(p.value != 0);
                    return ResultCode::new(T::ReadField, O::Success);
                }
                self.report(
                    T::ReadField,
                    O::Unsupported,
                    "The string didn't contain anything that can be interpreted as a boolean.",
                )
            }
            Json::Bool(b) => {
                *out = Value::Bool(*b);
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Number(n) => {
                let b = if let Some(u) = n.as_u64() {
                    u != 0
                } else if let Some(i) = n.as_i64() {
                    i != 0
                } else {
                    n.as_f64().unwrap_or(0.0) != 0.0
                };
                *out = Value::Bool(b);
                ResultCode::new(T::ReadField, O::Success)
            }
        }
    }

    /// `JsonNumericCast` from an integer.
    fn cast_int(&mut self, ty: &TypeExpr, v: i128, out: &mut Value) -> Code {
        let (lo, hi) = int_range(ty);
        if v >= lo && v <= hi {
            *out = int_value(ty, v);
            ResultCode::new(T::Convert, O::Success)
        } else {
            self.report(
                T::Convert,
                O::Unsupported,
                &format!(
                    "Casted value could not be fitted in destination type {{{v}}} -> {{{ty}}}"
                ),
            )
        }
    }

    /// `JsonNumericCast` from a double: range-checked, then truncated.
    fn cast_double_to_int(&mut self, ty: &TypeExpr, v: f64, out: &mut Value) -> Code {
        let (lo, hi) = int_range(ty);
        // FitsInToType: not above the maximum nor below the lowest, both as doubles (so
        // 127.5 does not fit an i8). 2^63 and 2^64 pass that test for i64 and u64 but
        // are out of range (undefined in C++): rejected.
        let t = v as i128;
        if v >= lo as f64 && v <= hi as f64 && t >= lo && t <= hi {
            *out = int_value(ty, t);
            ResultCode::new(T::Convert, O::Success)
        } else {
            self.report(
                T::Convert,
                O::Unsupported,
                &format!(
                    "Casted value could not be fitted in destination type {{double}} -> {{{ty}}}"
                ),
            )
        }
    }

    fn load_int(&mut self, ty: &TypeExpr, json: &Json, out: &mut Value) -> Code {
        match json {
            Json::Array(_) | Json::Object(_) | Json::Null => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Integers can't be read from arrays, objects or null.",
            ),
            Json::String(s) => self.text_to_int(ty, s, out),
            Json::Bool(b) => {
                *out = int_value(ty, *b as i128);
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Number(n) => {
                let r = if let Some(i) = n.as_i64() {
                    self.cast_int(ty, i as i128, out)
                } else if let Some(u) = n.as_u64() {
                    self.cast_int(ty, u as i128, out)
                } else {
                    self.cast_double_to_int(ty, n.as_f64().unwrap_or(f64::NAN), out)
                };
                self.code(r, "Failed to read integer value from number field.")
            }
        }
    }

    /// `TextToValue` for integers: `strtoll`/`strtoull` with base 0.
    fn text_to_int(&mut self, ty: &TypeExpr, s: &str, out: &mut Value) -> Code {
        let signed = int_range(ty).0 < 0;
        if signed {
            let p = strtoll(s);
            if p.range_error {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Integer is too big or too small to fit in the target.",
                );
            }
            if p.used > 0 {
                let r = self.cast_int(ty, p.value as i128, out);
                return self.code(r, "Unable to read integer from string.");
            }
        } else {
            if strtoll(s).value < 0 {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unable to read negative integer as only positive numbers can be stored.",
                );
            }
            let p = strtoull(s);
            if p.range_error {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Integer is too big or too small to fit in the target.",
                );
            }
            if p.used > 0 {
                let r = self.cast_int(ty, p.value as i128, out);
                return self.code(r, "Unable to read integer value from string.");
            }
        }
        let msg = if s.is_empty() {
            "String used to read integer from was empty."
        } else {
            "Unable to read integer value from provided string."
        };
        self.report(T::ReadField, O::Unsupported, msg)
    }

    fn set_float(&mut self, is_f32: bool, v: f64, out: &mut Value) -> Code {
        if is_f32 {
            if v.is_finite() && v.abs() > f32::MAX as f64 || v.is_infinite() {
                return self.report(
                    T::Convert,
                    O::Unsupported,
                    "Casted value could not be fitted in destination type {double} -> {float}",
                );
            }
            *out = Value::F32(v as f32);
        } else {
            // JsonNumericCast<double>: infinity (from "inf" text) is above DBL_MAX.
            if v.is_infinite() {
                return self.report(
                    T::Convert,
                    O::Unsupported,
                    "Casted value could not be fitted in destination type {double} -> {double}",
                );
            }
            *out = Value::F64(v);
        }
        ResultCode::new(T::Convert, O::Success)
    }

    fn load_float(&mut self, is_f32: bool, json: &Json, out: &mut Value) -> Code {
        match json {
            Json::Array(_) | Json::Object(_) | Json::Null => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Floating point values can't be read from arrays, objects or null.",
            ),
            Json::String(s) => {
                let p = strtod(s);
                if p.range_error {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Floating point value it too big or too small to fit in the target.",
                    );
                }
                if p.used > 0 {
                    let r = self.set_float(is_f32, p.value, out);
                    return self.code(r, "Failed to read floating point number from string.");
                }
                let msg = if s.is_empty() {
                    "String used to read floating point value from was empty."
                } else {
                    "Unable to read floating point value from provided string."
                };
                self.report(T::ReadField, O::Unsupported, msg)
            }
            Json::Bool(b) => {
                let v = if *b { 1.0 } else { 0.0 };
                *out = if is_f32 { Value::F32(v as f32) } else { Value::F64(v) };
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Number(n) => {
                let v = if let Some(u) = n.as_u64() {
                    u as f64
                } else if let Some(i) = n.as_i64() {
                    i as f64
                } else {
                    n.as_f64().unwrap_or(0.0)
                };
                if is_f32 && !n.is_f64() {
                    // Integers always fit a float (rounded).
                    *out = Value::F32(if let Some(u) = n.as_u64() {
                        u as f32
                    } else {
                        n.as_i64().unwrap_or(0) as f32
                    });
                    return ResultCode::new(T::Convert, O::Success);
                }
                let r = self.set_float(is_f32, v, out);
                self.code(r, "Failed to read floating point value from number field.")
            }
        }
    }

    fn load_string(&mut self, json: &Json, out: &mut Value) -> Code {
        let s =
            match json {
                Json::Array(_) | Json::Object(_) | Json::Null => return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. String values can't be read from arrays, objects or null.",
                ),
                Json::String(s) => s.clone(),
                Json::Bool(false) => "False".to_string(),
                Json::Bool(true) => "True".to_string(),
                Json::Number(n) => {
                    if let Some(u) = n.as_u64() {
                        u.to_string()
                    } else if let Some(i) = n.as_i64() {
                        i.to_string()
                    } else {
                        format!("{:.6}", n.as_f64().unwrap_or(0.0))
                    }
                }
            };
        *out = Value::String(s);
        ResultCode::new(T::ReadField, O::Success)
    }

    /// The Uuid serializer's rules, without reporting.
    pub(crate) fn uuid_from_json(json: &Json) -> (Code, Option<Uuid>, &'static str) {
        if is_explicit_default(json) || json.as_str() == Some(NULL_UUID_TEXT) {
            return (
                ResultCode::new(T::ReadField, O::DefaultsUsed),
                Some(Uuid::NULL),
                "Uuid value set to default of null.",
            );
        }
        match json {
            Json::String(s) => match Uuid::search(s) {
                Some(u) if u.is_null() => (
                    ResultCode::new(T::ReadField, O::Unsupported),
                    None,
                    "Failed to create uuid from string.",
                ),
                Some(u) => (
                    ResultCode::new(T::ReadField, O::Success),
                    Some(u),
                    "Successfully read uuid.",
                ),
                None => (
                    ResultCode::new(T::ReadField, O::Unsupported),
                    None,
                    "No part of the string could be interpreted as a uuid.",
                ),
            },
            _ => (
                ResultCode::new(T::ReadField, O::Unsupported),
                None,
                "Unsupported type. Uuids can only be read from strings.",
            ),
        }
    }

    fn load_uuid(&mut self, json: &Json, out: &mut Value) -> Code {
        let (code, u, msg) = Self::uuid_from_json(json);
        if let Some(u) = u {
            *out = Value::Uuid(u);
        }
        self.code(code, msg)
    }

    // ---- math ----

    /// Loads one float through the float serializer; `None` when processing was not completed.
    fn float_at(&mut self, json: &'j Json) -> Result<f32, Code> {
        let mut v = Value::F32(0.0);
        let r = self.load_float(true, json, &mut v);
        if r.processing() != Processing::Completed {
            return Err(r);
        }
        Ok(match v {
            Value::F32(f) => f,
            _ => 0.0,
        })
    }

    fn load_vector(&mut self, n: usize, json: &'j Json, out: &mut Value) -> Code {
        const NAMES: [&str; 16] = [
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
        ];
        match json {
            Json::Array(a) => {
                if a.len() < n {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Not enough numbers in array to load math vector from.",
                    );
                }
                let mut vals = vec![0.0f32; n];
                for i in 0..n {
                    self.rep.path.push(Seg::Key(NAMES[i]));
                    let r = self.float_at(&a[i]);
                    self.rep.path.pop();
                    match r {
                        Ok(f) => vals[i] = f,
                        Err(code) => return code,
                    }
                }
                *out = Value::Math(vals.into());
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Object(m) => {
                const AXES: [[&str; 2]; 4] = [["X", "x"], ["Y", "y"], ["Z", "z"], ["W", "w"]];
                let mut vals = match out {
                    Value::Math(m) if m.len() == n => m.to_vec(),
                    _ => vec![0.0; n],
                };
                let mut result = ResultCode::empty(T::ReadField);
                for i in 0..n {
                    let found = AXES[i].iter().find_map(|k| m.get_key_value(*k));
                    match found {
                        None => {
                            result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
                        }
                        Some((k, v)) => {
                            self.rep.path.push(Seg::Key(k.as_str()));
                            let r = self.float_at(v);
                            self.rep.path.pop();
                            match r {
                                Ok(f) => vals[i] = f,
                                Err(code) => return code,
                            }
                            result.combine(ResultCode::new(T::ReadField, O::Success));
                        }
                    }
                }
                *out = Value::Math(vals.into());
                result
            }
            _ => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Math vectors can only be read from arrays or objects.",
            ),
        }
    }

    fn load_quaternion(&mut self, json: &'j Json, out: &mut Value) -> Code {
        if let Json::Object(m) = json {
            const NAMES: [&str; 3] = ["yaw", "pitch", "roll"];
            // O3DE assigns the members by position, not by name.
            let mut vals = [0.0f32; 3];
            for (i, (_, v)) in m.iter().take(3).enumerate() {
                self.rep.path.push(Seg::Key(NAMES[i]));
                let r = self.float_at(v);
                self.rep.path.pop();
                match r {
                    Ok(f) => vals[i] = f,
                    Err(code) => return code,
                }
            }
            *out = Value::Math(math::quat_from_euler_degrees(vals).to_vec().into());
            return ResultCode::new(T::ReadField, O::Success);
        }
        self.load_vector(4, json, out)
    }

    fn load_matrix(&mut self, rows: usize, cols: usize, json: &'j Json, out: &mut Value) -> Code {
        let n = rows * cols;
        match json {
            Json::Array(a) => {
                if a.len() < n {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Not enough numbers in JSON array to load math matrix from.",
                    );
                }
                let mut vals = vec![0.0f32; n];
                for (i, slot) in vals.iter_mut().enumerate() {
                    self.rep.path.push(Seg::Owned(i.to_string()));
                    let r = self.float_at(&a[i]);
                    self.rep.path.pop();
                    match r {
                        Ok(f) => *slot = f,
                        Err(code) => return code,
                    }
                }
                *out = Value::Math(vals.into());
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Object(m) => {
                // O3DE's LoadObject sets the identity before reading anything.
                *out = Value::Math(identity(rows, cols));
                let mut result = ResultCode::empty(T::ReadField);
                let mut get =
                    |this: &mut Self, names: [&'static str; 2], init: f32| -> Result<f32, Code> {
                        match names.iter().find_map(|k| m.get_key_value(*k)) {
                            None => {
                                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
                                Ok(init)
                            }
                            Some((k, v)) => {
                                this.rep.path.push(Seg::Key(k.as_str()));
                                let r = this.float_at(v);
                                this.rep.path.pop();
                                result.combine(ResultCode::new(T::ReadField, O::Success));
                                r
                            }
                        }
                    };
                let scale = match get(self, ["scale", "Scale"], 1.0) {
                    Ok(s) => s,
                    Err(c) => return c,
                };
                if scale.abs() <= f32::EPSILON {
                    return self.report(T::ReadField, O::Unsupported, "Scale can not be zero.");
                }
                let mut euler = [0.0f32; 3];
                for (slot, names) in
                    euler
                        .iter_mut()
                        .zip([["roll", "Roll"], ["pitch", "Pitch"], ["yaw", "Yaw"]])
                {
                    match get(self, names, 0.0) {
                        Ok(v) => *slot = v,
                        Err(c) => return c,
                    }
                }
                let mut t = [0.0f32; 3];
                if rows * cols != 9 {
                    for (slot, names) in t.iter_mut().zip([["x", "X"], ["y", "Y"], ["z", "Z"]]) {
                        match get(self, names, 0.0) {
                            Ok(v) => *slot = v,
                            Err(c) => return c,
                        }
                    }
                }
                let r = math::quat_to_matrix(math::quat_from_euler_degrees(euler));
                let mut m = identity(rows, cols).to_vec();
                for i in 0..3 {
                    for j in 0..3 {
                        m[i * cols + j] = r[i][j] * scale;
                    }
                    if cols == 4 {
                        m[i * cols + 3] = t[i];
                    }
                }
                if *m == *identity(rows, cols) {
                    *out = Value::Math(identity(rows, cols));
                    return ResultCode::new(T::ReadField, O::DefaultsUsed);
                }
                *out = Value::Math(m.into());
                result
            }
            _ => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Math matrix can only be read from arrays or objects.",
            ),
        }
    }

    fn load_color(&mut self, json: &'j Json, out: &mut Value) -> Code {
        let mut cur: [f32; 4] = match out {
            Value::Math(m) if m.len() == 4 => [m[0], m[1], m[2], m[3]],
            _ => [0.0; 4],
        };
        let r = match json {
            Json::Array(a) => self.color_floats(&mut cur, a, None),
            Json::Object(m) => {
                let mut result = ResultCode::new(T::ReadField, O::Unsupported);
                for (k, v) in m.iter().rev() {
                    let key = k.as_str();
                    let known = ["RGBA8", "RGB8", "RGBA", "RGB", "HEXA", "HEX"]
                        .into_iter()
                        .find(|n| key.eq_ignore_ascii_case(n));
                    let Some(name) = known else { continue };
                    self.rep.path.push(Seg::Key(name));
                    result = match (name, v) {
                        ("RGBA8", Json::Array(a)) => self.color_bytes(&mut cur, a, true),
                        ("RGB8", Json::Array(a)) => self.color_bytes(&mut cur, a, false),
                        ("RGBA", Json::Array(a)) => self.color_floats(&mut cur, a, Some(true)),
                        ("RGB", Json::Array(a)) => self.color_floats(&mut cur, a, Some(false)),
                        ("HEXA", Json::String(s)) => self.color_hex(&mut cur, s, true),
                        ("HEX", Json::String(s)) => self.color_hex(&mut cur, s, false),
                        _ => result,
                    };
                    self.rep.path.pop();
                    break;
                }
                let msg = if result.halted() {
                    "Problem encountered while reading color."
                } else {
                    "Successfully read color."
                };
                self.code(result, msg)
            }
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. Colors can only be read from arrays or objects.",
                )
            }
        };
        if r.processing() == Processing::Completed {
            *out = Value::Math(cur.to_vec().into());
        }
        r
    }

    /// `alpha`: None = if available, Some(true) = required, Some(false) = never.
    fn color_floats(&mut self, cur: &mut [f32; 4], a: &[Json], alpha: Option<bool>) -> Code {
        let min = if alpha == Some(true) { 4 } else { 3 };
        if a.len() < min {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough numbers in array to load color from.",
            );
        }
        let mut ch = [0.0f32; 4];
        const WHAT: [&str; 4] = [
            "Red channel couldn't be read because the value wasn't a decimal number.",
            "Green channel couldn't be read because the value wasn't a decimal number.",
            "Blue channel couldn't be read because the value wasn't a decimal number.",
            "Alpha channel couldn't be read because the value wasn't a decimal number.",
        ];
        let with_alpha = alpha == Some(true) || (alpha.is_none() && a.len() >= 4);
        for i in 0..if with_alpha { 4 } else { 3 } {
            match is_double(&a[i]) {
                Some(d) => ch[i] = d as f32,
                None => return self.report(T::ReadField, O::Unsupported, WHAT[i]),
            }
        }
        if !with_alpha {
            ch[3] = cur[3];
        }
        *cur = ch;
        let outcome = if alpha.is_none() && !with_alpha {
            O::PartialDefaults
        } else {
            O::Success
        };
        ResultCode::new(T::ReadField, outcome)
    }

    fn color_bytes(&mut self, cur: &mut [f32; 4], a: &[Json], alpha: bool) -> Code {
        let n = if alpha { 4 } else { 3 };
        if a.len() < n {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough numbers in array to load color from.",
            );
        }
        const WHAT: [&str; 4] = [
            "Red channel couldn't be read because the value wasn't a byte number.",
            "Green channel couldn't be read because the value wasn't a byte number.",
            "Blue channel couldn't be read because the value wasn't a byte number.",
            "Alpha channel couldn't be read because the value wasn't a byte number.",
        ];
        let mut ch = *cur;
        for i in 0..n {
            match a[i].as_i64() {
                Some(v) => ch[i] = v.clamp(0, 255) as f32 / 255.0,
                None => return self.report(T::ReadField, O::Unsupported, WHAT[i]),
            }
        }
        *cur = ch;
        ResultCode::new(T::ReadField, O::Success)
    }

    fn color_hex(&mut self, cur: &mut [f32; 4], s: &str, alpha: bool) -> Code {
        let n = if alpha { 8 } else { 6 };
        if s.len() < n {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "The hex text for color is too short.",
            );
        }
        let mut v: u32 = 0;
        for &c in &s.as_bytes()[..n] {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Failed to parse hex value. There might be an incorrect character in the string.",
                    )
                }
            };
            v = v << 4 | d as u32;
        }
        let b = |x: u32| (x & 0xff) as f32 / 255.0;
        if alpha {
            *cur = [b(v >> 24), b(v >> 16), b(v >> 8), b(v)];
        } else {
            cur[0] = b(v >> 16);
            cur[1] = b(v >> 8);
            cur[2] = b(v);
        }
        ResultCode::new(T::ReadField, O::Success)
    }

    fn load_transform(&mut self, json: &'j Json, out: &mut Value) -> Code {
        let (mut t, mut r, mut s) = match out {
            Value::Transform {
                translation,
                rotation,
                scale,
            } => (*translation, *rotation, *scale),
            _ => ([0.0; 3], [0.0, 0.0, 0.0, 1.0], 1.0),
        };
        let mut result = ResultCode::empty(T::ReadField);
        let m = match json {
            Json::Object(m) => m,
            _ => {
                for _ in 0..3 {
                    let c = self.report(T::ReadField, O::Unsupported, "Value is not an object");
                    result.combine(c);
                }
                return self.code(result, "Failed to load Transform information.");
            }
        };
        if let Some((k, v)) = m.get_key_value("Translation") {
            let mut tv = Value::Math(t.to_vec().into());
            let c = self.with_key(k, |this| {
                this.load_ro(&TypeExpr::Vector3, v, &mut tv, false)
            });
            if let Value::Math(x) = tv {
                t.copy_from_slice(&x[..3]);
            }
            result.combine(c);
        } else {
            result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
        }
        if let Some((k, v)) = m.get_key_value("Rotation") {
            let mut rv = Value::Math(r.to_vec().into());
            let c = self.with_key(k, |this| {
                this.load_ro(&TypeExpr::Quaternion, v, &mut rv, false)
            });
            if let Value::Math(x) = rv {
                r.copy_from_slice(&x[..4]);
            }
            result.combine(c);
        } else {
            result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
        }
        if let Some((k, v)) = m.get_key_value("Scale") {
            let mut sv = Value::F32(s);
            let c = self.with_key(k, |this| this.load_ro(&TypeExpr::F32, v, &mut sv, false));
            if let Value::F32(x) = sv {
                s = x;
            }
            result.combine(c);
        } else {
            result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
        }
        *out = Value::Transform {
            translation: t,
            rotation: r,
            scale: s,
        };
        let msg = if result.halted() {
            "Failed to load Transform information."
        } else {
            "Succesfully loaded Transform information."
        };
        self.code(result, msg)
    }

    // ---- containers ----

    fn load_seq(
        &mut self,
        elem: &TypeExpr,
        capacity: Option<usize>,
        is_set: bool,
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
        let arr = match json {
            Json::Array(a) => a,
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. Basic containers can only be read from an array.",
                )
            }
        };
        let mut seq = match std::mem::replace(out, Value::Bool(false)) {
            Value::Seq(v) => v,
            _ => Vec::new(),
        };
        let r = self.load_seq_into(elem, capacity, is_set, arr, &mut seq);
        *out = Value::Seq(seq);
        r
    }

    fn load_seq_into(
        &mut self,
        elem: &TypeExpr,
        capacity: Option<usize>,
        is_set: bool,
        arr: &'j mut [Json],
        seq: &mut Vec<Value>,
    ) -> Code {
        let mut ret = ResultCode::empty(T::ReadField);
        let mut start = seq.len();
        if start > 0 && self.opts.clear_containers {
            seq.clear();
            start = 0;
            ret.combine(ResultCode::new(T::Clear, O::Success));
        }
        // Sets: an index of the elements so duplicates are found in O(log n); the
        // elements are sorted once at the end.
        let mut index = KeyIndex::default();
        let arr_len = arr.len();
        for (i, item) in arr.iter_mut().enumerate() {
            self.rep.path.push(Seg::Index(i));
            let len = seq.len();
            if capacity.is_some_and(|c| len + 1 > c) {
                let c = self.report(
                    T::ReadField,
                    O::Skipped,
                    "Unable to load more entries in basic container because it's full.",
                );
                ret.combine(c);
                self.rep.path.pop();
                break;
            }
            let mut v = self.reg.zero(elem);
            let r = self.load(elem, item, &mut v, true);
            if r.halted() {
                self.rep.path.pop();
                // O3DE returns the container's result so far here.
                return self.code(ret, "Failed to read element for basic container.");
            } else if r.processing() == Processing::Altered {
                ret.combine(r);
            } else {
                if is_set {
                    if index.find(&v, seq.len(), |i| &seq[i]).is_none() {
                        index.insert(&v, seq.len());
                        seq.push(v);
                        ret.combine(r);
                    } else {
                        let c = self.report(
                            T::ReadField,
                            O::Unavailable,
                            "Unable to store element to basic container.",
                        );
                        ret.combine(c);
                    }
                } else {
                    seq.push(v);
                    ret.combine(r);
                }
            }
            self.rep.path.pop();
        }
        if is_set {
            seq.sort_by(|a, b| a.total_cmp(b));
        }
        if !ret.has_done_work() && arr_len == 0 {
            return ResultCode::new(T::ReadField, O::Success);
        }
        let added = seq.len().saturating_sub(start);
        if added > 0 {
            ret.combine(ResultCode::new(T::ReadField, O::Success));
        }
        let msg = if added >= arr_len {
            "Successfully read basic container."
        } else if added == 0 {
            "Unable to read data for basic container."
        } else {
            "Partially read data for basic container."
        };
        self.code(ret, msg)
    }

    /// `array<T,N>`: a fixed-size array, element `i` loaded from JSON element `i`.
    /// `array<T,N>`: element `i` from JSON entry `i`; fewer than N entries is
    /// `Unsupported`, extra entries are `Skipped` (O3DE's `JsonArraySerializer`).
    fn load_array(
        &mut self,
        elem: &TypeExpr,
        n: usize,
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
        let arr = match json {
            Json::Array(a) => a,
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. AZStd::array entries can only be read from an array.",
                )
            }
        };
        if arr.len() < n {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough entries in JSON array to load an AZStd::array from.",
            );
        }
        if !matches!(out, Value::Seq(s) if s.len() == n) {
            *out = self.reg.zero(&TypeExpr::Array(Box::new(elem.clone()), n));
        }
        let extra = arr.len() > n;
        let mut ret = ResultCode::empty(T::ReadField);
        for (i, item) in arr.iter_mut().take(n).enumerate() {
            let Value::Seq(seq) = out else { break };
            let r = self.with_index(i, |this| this.load(elem, item, &mut seq[i], false));
            if r.halted() {
                return self.code(r, "Failed to load data to element in AZStd::array.");
            }
            ret.combine(r);
        }
        if extra {
            ret.combine(ResultCode::new(T::ReadField, O::Skipped));
        }
        ret
    }

    fn load_map(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
        if !matches!(json, Json::Array(_) | Json::Object(_)) {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Associative containers can only be read from an array or object.",
            );
        }
        let mut map = match std::mem::replace(out, Value::Bool(false)) {
            Value::Map(v) => v,
            _ => Vec::new(),
        };
        let r = self.load_map_into(kty, vty, multi, json, &mut map);
        *out = Value::Map(map);
        r
    }

    fn load_map_into(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        json: &'j mut Json,
        out: &mut Vec<(Value, Value)>,
    ) -> Code {
        let mut ret = ResultCode::empty(T::ReadField);
        let mut start = out.len();
        if start > 0 && self.opts.clear_containers {
            out.clear();
            start = 0;
            ret.combine(ResultCode::new(T::Clear, O::Success));
        }
        let entries = std::mem::take(out);
        let index = KeyIndex::default();
        let mut build = MapBuild { entries, index };
        let r = self.load_map_entries(kty, vty, multi, json, &mut build, ret, start);
        let mut entries = build.entries;
        // Stable: multimap values keep their order within a key.
        entries.sort_by(|a, b| a.0.total_cmp(&b.0));
        *out = entries;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn load_map_entries(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        json: &'j mut Json,
        out: &mut MapBuild,
        ret: Code,
        start: usize,
    ) -> Code {
        let mut ret = ret;
        let max;
        match json {
            Json::Object(m) => {
                if let Some(mut members) = self.duplicate_members() {
                    // rapidjson keeps every member: each one is added, in document order.
                    max = members.len();
                    let mut sub = self.sub_loader();
                    let r = sub.map_members(
                        kty,
                        vty,
                        multi,
                        members.iter_mut().map(|(k, v)| (&**k, v)),
                        out,
                        &mut ret,
                    );
                    self.rep.issues.append(&mut sub.rep.issues);
                    if let Some(r) = r {
                        return r;
                    }
                } else {
                    max = m.len();
                    let r = self.map_members(
                        kty,
                        vty,
                        multi,
                        m.iter_mut().map(|(k, v)| (&**k, v)),
                        out,
                        &mut ret,
                    );
                    if let Some(r) = r {
                        return r;
                    }
                }
            }
            Json::Array(a) => {
                max = a.len();
                if a.is_empty() {
                    return if ret.has_done_work() {
                        ret
                    } else {
                        ResultCode::new(T::ReadField, O::Success)
                    };
                }
                for (i, item) in a.iter_mut().enumerate() {
                    self.rep.path.push(Seg::Index(i));
                    let r = match item {
                        Json::Object(o) => {
                            let (mut key, mut val) = (None, None);
                            for (k, v) in o.iter_mut() {
                                if k == "Key" && key.is_none() {
                                    key = Some(v);
                                } else if k == "Value" && val.is_none() {
                                    val = Some(v);
                                }
                            }
                            if multi {
                                self.load_multi_entry(kty, vty, key, val, out)
                            } else {
                                let key_loader = |this: &mut Self, key_out: &mut Value| match key {
                                    Some(k) => this.load(kty, k, key_out, true),
                                    None => this.load_from_temp(
                                        kty,
                                        Json::Object(serde_json::Map::new()),
                                        key_out,
                                    ),
                                };
                                self.load_map_value(kty, vty, multi, key_loader, val, out)
                            }
                        }
                        _ => self.report(
                            T::ReadField,
                            O::Unsupported,
                            "Unsupported type for elements in an associative container. If the array for is used, an object with \"Key\" and \"Value\" is expected",
                        ),
                    };
                    self.rep.path.pop();
                    if r.halted() {
                        return r;
                    }
                    ret.combine(r);
                }
            }
            _ => return unreachable_code(),
        }
        let added = out.entries.len().saturating_sub(start);
        if added > 0 {
            ret.combine(ResultCode::new(T::ReadField, O::Success));
        }
        let msg = if added >= max {
            if ret.processing() == Processing::Completed {
                "Successfully read associative container."
            } else {
                "Partially read element data for the associative container."
            }
        } else if added == 0 {
            "Unable to read data for the associative container."
        } else {
            "Partially read data for the associative container."
        };
        self.code(ret, msg)
    }

    /// A `{"Key", "Value"}` entry of a multimap: the values come in an array (or `{}`).
    fn load_multi_entry(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        key: Option<&'j mut Json>,
        val: Option<&'j mut Json>,
        out: &mut MapBuild,
    ) -> Code {
        let key_json = key
            .map(|k| k.clone())
            .unwrap_or_else(|| Json::Object(serde_json::Map::new()));
        let key_loader = |this: &mut Self, key_out: &mut Value| {
            this.load_from_temp(kty, key_json.clone(), key_out)
        };
        match val {
            Some(Json::Array(items)) => {
                let mut r = ResultCode::empty(T::ReadField);
                for item in items.iter_mut() {
                    let c = self.load_map_value(kty, vty, true, key_loader, Some(item), out);
                    r.combine(c);
                    if r.halted() {
                        return self
                            .code(r, "Unable to process the key or all values in multi-map.");
                    }
                }
                r
            }
            None => self.load_map_value(kty, vty, true, key_loader, None, out),
            Some(v) if is_explicit_default(v) => {
                self.load_map_value(kty, vty, true, key_loader, Some(v), out)
            }
            Some(_) => self.report(
                T::ReadField,
                O::Unsupported,
                "Values for multi-maps need to be stored in an array.",
            ),
        }
    }

    /// An object member of a map: the member name is the key (`"{}"` = default key).
    /// The members of a map given as an object; `Some` with the halting code when one
    /// halts.
    fn map_members(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        members: impl Iterator<Item = (&'j str, &'j mut Json)>,
        out: &mut MapBuild,
        ret: &mut Code,
    ) -> Option<Code> {
        for (k, v) in members {
            self.rep.path.push(Seg::Key(k));
            let r = self.load_map_entry_from_name(kty, vty, multi, k, v, out);
            self.rep.path.pop();
            if r.halted() {
                return Some(r);
            }
            ret.combine(r);
        }
        None
    }

    fn load_map_entry_from_name(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        name: &'j str,
        v: &'j mut Json,
        out: &mut MapBuild,
    ) -> Code {
        let key_loader = |this: &mut Self, key_out: &mut Value| -> Code {
            if name == "{}" {
                this.load_from_temp(kty, Json::Object(serde_json::Map::new()), key_out)
            } else {
                this.load_from_temp(kty, Json::String(name.to_string()), key_out)
            }
        };
        if multi {
            match v {
                Json::Array(items) => {
                    let mut r = ResultCode::empty(T::ReadField);
                    for item in items.iter_mut() {
                        let c = self.load_map_value(kty, vty, true, key_loader, Some(item), out);
                        r.combine(c);
                        if r.halted() {
                            return self
                                .code(r, "Unable to process the key or all values in multi-map.");
                        }
                    }
                    r
                }
                _ if is_explicit_default(v) => {
                    self.load_map_value(kty, vty, true, key_loader, Some(v), out)
                }
                _ => self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Values for multi-maps need to be stored in an array.",
                ),
            }
        } else {
            self.load_map_value(kty, vty, false, key_loader, Some(v), out)
        }
    }

    /// Loads from a JSON value made on the fly (a map key from a member name): the path
    /// is copied so issues still point at the right place.
    fn load_from_temp(&mut self, ty: &TypeExpr, json: Json, out: &mut Value) -> Code {
        if *ty == TypeExpr::String {
            // The common case (string keys): no temporary loader needed.
            if let Json::String(s) = json {
                *out = Value::String(s);
                return ResultCode::new(T::ReadField, O::Success);
            }
        }
        let path: Vec<Seg<'_>> = self.rep.path.clone();
        let mut sub = Loader {
            reg: self.reg,
            opts: self.opts,
            rep: Reporter {
                path,
                issues: Vec::new(),
            },
            depth: self.depth,
            // The temporary JSON is not part of the document.
            dups: None,
            reporting: self.reporting,
        };
        let mut json = json;
        let r = sub.load(ty, &mut json, out, true);
        self.rep.issues.extend(sub.rep.issues);
        r
    }

    fn load_map_value(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        key_loader: impl FnOnce(&mut Self, &mut Value) -> Code,
        v: Option<&'j mut Json>,
        map: &mut MapBuild,
    ) -> Code {
        let mut key = self.reg.zero(kty);
        let kr = key_loader(self, &mut key);
        if kr.halted() {
            return self.code(kr, "Failed to read key for associative container.");
        }
        let existing = if multi {
            None
        } else {
            let entries = &map.entries;
            map.index.find(&key, entries.len(), |i| &entries[i].0)
        };
        let load_value = |this: &mut Self, target: &mut Value| match v {
            Some(v) => this.load(vty, v, target, true),
            None => this.load_from_temp(vty, Json::Object(serde_json::Map::new()), target),
        };
        // A key already in the map (from the container's earlier content or an earlier
        // member) has the value loaded onto its existing value, as O3DE's MapSerializer
        // does since o3de PR #6832 (older O3DE kept the first value and reported the
        // entry Unavailable, as the tests Load_DuplicateKey_EntryIgnored and
        // Load_KeyAlreadyInContainer_EntryIgnored of that time expect). A new key's
        // value is read into a new element, stored only when it loaded.
        let (vr, new_value) = match existing {
            Some(i) => {
                let mut target = std::mem::replace(&mut map.entries[i].1, Value::Bool(false));
                let vr = load_value(self, &mut target);
                map.entries[i].1 = target;
                (vr, None)
            }
            None => {
                let mut nv = self.reg.zero(vty);
                (load_value(self, &mut nv), Some(nv))
            }
        };
        if vr.halted() {
            return self.code(vr, "Failed to read value for associative container.");
        }
        if kr.processing() == Processing::Altered || vr.processing() == Processing::Altered {
            return self.report(
                T::ReadField,
                O::Unavailable,
                "Unable to fully process an element for the associative container.",
            );
        }
        if let Some(nv) = new_value {
            if !multi {
                map.index.insert(&key, map.entries.len());
            }
            map.entries.push((key, nv));
        }
        self.code(
            ResultCode::combined(kr, vr),
            "Partially loaded an entry into the associative container.",
        )
    }

    fn load_tuple(&mut self, tys: &[TypeExpr], json: &'j mut Json, out: &mut Value) -> Code {
        let arr =
            match json {
                Json::Array(a) => a,
                _ => return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. AZStd::pair or AZStd::tuple can only be read from an array.",
                ),
            };
        if !matches!(out, Value::Tuple(t) if t.len() == tys.len()) {
            *out = Value::Tuple(tys.iter().map(|t| self.reg.zero(t)).collect());
        }
        if arr.len() < tys.len() {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough entries in array to load an AZStd::pair or AZStd::tuple from.",
            );
        }
        let mut ret = ResultCode::empty(T::ReadField);
        let mut items = arr.iter_mut();
        let mut written = 0;
        for (i, ty) in tys.iter().enumerate() {
            self.rep.path.push(Seg::Index(i));
            for item in items.by_ref() {
                let Value::Tuple(slots) = out else { break };
                let r = self.load(ty, item, &mut slots[i], false);
                ret.combine(r);
                if r.halted() {
                    self.rep.path.pop();
                    return self.code(
                        ret,
                        "Failed to read element for AZStd::pair or AZStd::tuple.",
                    );
                } else if r.processing() != Processing::Altered {
                    written += 1;
                    break;
                }
            }
            self.rep.path.pop();
        }
        let msg = if written < tys.len() {
            if written == 0 {
                "Unable to read data for AZStd::pair or AZStd::tuple."
            } else {
                "Partially read data for AZStd::pair or AZStd::tuple."
            }
        } else {
            "Successfully read AZStd::pair or AZStd::tuple."
        };
        self.code(ret, msg)
    }

    // ---- classes and enums ----

    fn load_class(&mut self, cid: ClassId, json: &'j mut Json, out: &mut Value) -> Code {
        let reg = self.reg;
        let class = &reg.classes[cid];
        let m = match json {
            Json::Object(m) => m,
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    &format!(
                        "Reading into targets of type '{}' is not supported.",
                        class.name
                    ),
                )
            }
        };
        if !matches!(out, Value::Object(f) if f.len() == class.fields.len()) {
            *out = class.default.clone();
        }
        if let Some(mut members) = self.duplicate_members() {
            // rapidjson keeps every member: each one loads, in document order.
            let mut sub = self.sub_loader();
            let r = sub.class_members(cid, members.iter_mut().map(|(k, v)| (&**k, v)), out);
            self.rep.issues.append(&mut sub.rep.issues);
            return r;
        }
        self.class_members(cid, m.iter_mut().map(|(k, v)| (&**k, v)), out)
    }

    /// `LoadClass`'s loop over the object's members.
    fn class_members(
        &mut self,
        cid: ClassId,
        members: impl Iterator<Item = (&'j str, &'j mut Json)>,
        out: &mut Value,
    ) -> Code {
        let reg = self.reg;
        let class = &reg.classes[cid];
        let mut ret = ResultCode::empty(T::ReadField);
        let mut loads = 0usize;
        for (name, val) in members {
            if name == "$type" {
                continue;
            }
            let found = class
                .lookup
                .iter()
                .copied()
                .find(|&i| class.names_unique_ci && class.fields[i].name == name)
                .or_else(|| {
                    class
                        .lookup
                        .iter()
                        .copied()
                        .find(|&i| class.fields[i].name.eq_ignore_ascii_case(name))
                });
            self.rep.path.push(Seg::Key(name));
            match found {
                Some(i) => {
                    let Value::Object(fields) = out else { break };
                    let r = self.load(&class.fields[i].ty, val, &mut fields[i], false);
                    ret.combine(r);
                    if r.halted() {
                        let c = self.code(r, "Loading of element has failed.");
                        self.rep.path.pop();
                        return c;
                    } else if r.processing() != Processing::Altered {
                        loads += 1;
                    }
                }
                None => {
                    let c = self.report(
                        T::ReadField,
                        O::Skipped,
                        "Skipping field as there's no matching variable in the target.",
                    );
                    ret.combine(c);
                }
            }
            self.rep.path.pop();
        }
        if class.fields.len() > loads {
            let o = if loads == 0 {
                O::DefaultsUsed
            } else {
                O::PartialDefaults
            };
            ret.combine(ResultCode::new(T::ReadField, o));
        }
        ret
    }

    fn load_enum(&mut self, eid: usize, json: &'j Json, out: &mut Value) -> Code {
        let reg = self.reg;
        let e = &reg.enums[eid];
        let ut = e.underlying.clone();
        if ut == TypeExpr::I8 {
            return self.report(
                T::Convert,
                O::Unknown,
                "Signed Underlying type with size=1 is not supported by Enum Serializer",
            );
        }
        match json {
            Json::Array(items) => {
                if items.is_empty() {
                    return ResultCode::new(T::ReadField, O::DefaultsUsed);
                }
                let mut acc: i128 = 0;
                let mut result = ResultCode::empty(T::ReadField);
                for (i, item) in items.iter().enumerate() {
                    self.rep.path.push(Seg::Index(i));
                    let mut v = int_value(&ut, 0);
                    let r = match item {
                        Json::String(s) => self.enum_from_string(eid, s, &mut v),
                        Json::Number(_) => self.enum_from_number(eid, item, &mut v),
                        _ => self.report(
                            T::ReadField,
                            O::Unsupported,
                            "Unsupported type. Enum values within an array must either be a string or a number.",
                        ),
                    };
                    result.combine(r);
                    if result.halted() {
                        let c = self.code(result, "Enum value could not be parsed from array");
                        self.rep.path.pop();
                        return c;
                    }
                    acc |= bits_of(&ut, &v);
                    self.rep.path.pop();
                }
                *out = int_value(&ut, acc);
                self.code(result, "Enum value has been parsed from array")
            }
            Json::String(s) => self.enum_from_string(eid, s, out),
            Json::Number(_) => self.enum_from_number(eid, json, out),
            _ => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Enums must be read from an array, string or number",
            ),
        }
    }

    fn enum_options(&self, eid: usize, message: &str) -> String {
        let e = &self.reg.enums[eid];
        let mut s = format!("{message} Available options are: ");
        for (i, (n, v)) in e.values.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let shown = if e.signed() {
                (*v as i64).to_string()
            } else {
                (*v as u64).to_string()
            };
            s.push_str(&format!("\"{n}\" ({shown})"));
        }
        s
    }

    fn enum_from_number(&mut self, eid: usize, json: &Json, out: &mut Value) -> Code {
        let ut = self.reg.enums[eid].underlying.clone();
        let n = match json {
            Json::Number(n) => n,
            _ => return ResultCode::new(T::ReadField, O::Unsupported),
        };
        let v = if let Some(u) = n.as_u64() {
            Some(u as i128)
        } else {
            n.as_i64().map(|i| i as i128)
        };
        let (lo, hi) = int_range(&ut);
        match v {
            Some(v) if v >= lo && v <= hi => {
                *out = int_value(&ut, v);
                ResultCode::new(T::Convert, O::Success)
            }
            Some(_) => {
                let msg = self.enum_options(eid, "Failed to read enum value from number field.");
                self.report(T::Convert, O::Unsupported, &msg)
            }
            None => {
                let msg = self.enum_options(eid, "Failed to read enum value from number field.");
                self.report(T::ReadField, O::Unsupported, &msg)
            }
        }
    }

    fn enum_from_string(&mut self, eid: usize, s: &str, out: &mut Value) -> Code {
        let reg = self.reg;
        let e = &reg.enums[eid];
        if s.is_empty() {
            return ResultCode::new(T::ReadField, O::DefaultsUsed);
        }
        // A numeric string first, quietly.
        {
            let mut sub = Loader::new(self.reg, self.opts);
            let mut v = int_value(&e.underlying, 0);
            let r = sub.text_to_int(&e.underlying, s, &mut v);
            if r.outcome() == O::Success {
                *out = v;
                return r;
            }
        }
        for (name, v) in &e.values {
            if name.eq_ignore_ascii_case(s) {
                *out = int_value(&e.underlying, *v);
                return ResultCode::new(T::ReadField, O::Success);
            }
        }
        let msg = self.enum_options(
            eid,
            "Unsupported value for string. Enum value could not read.",
        );
        self.report(T::ReadField, O::Unsupported, &msg)
    }

    // ---- types, pointers, any, assets ----

    /// Resolves a `$type` string: a UUID anywhere in it, else a (trimmed,
    /// case-insensitive) name; several classes of one name are narrowed to those
    /// deriving from `base`.
    pub(crate) fn type_from_string(&self, s: &str, base: Option<&TypeExpr>) -> TypeFound {
        // The Uuid serializer's rules: a {uuid} anywhere, but not the null one.
        if s != NULL_UUID_TEXT {
            if let Some(u) = Uuid::search(s).filter(|u| !u.is_null()) {
                if let Some(c) = self.reg.class_by_uuid(&u) {
                    return TypeFound::Explicit(TypeExpr::Class(c));
                }
                if let Some(e) = self.reg.enum_by_uuid(&u) {
                    return TypeFound::Explicit(TypeExpr::Enum(e));
                }
                if let Some(t) = crate::types::o3de_scalar("", Some(&u)) {
                    return TypeFound::Explicit(t);
                }
                return TypeFound::UnknownUuid(u);
            }
        }
        let name = s.trim();
        let classes = self.reg.classes_named(name);
        match classes.len() {
            0 => {
                let enums = self.reg.enums_named(name);
                if enums.len() == 1 {
                    return TypeFound::Explicit(TypeExpr::Enum(enums[0]));
                }
                if let Some(t) = crate::types::o3de_scalar(name, None) {
                    return TypeFound::Explicit(t);
                }
                match self.reg.parse_type(name) {
                    Ok(t) => TypeFound::Explicit(t),
                    Err(_) => TypeFound::Failed,
                }
            }
            1 => TypeFound::Explicit(TypeExpr::Class(classes[0])),
            _ => {
                if let Some(TypeExpr::Class(b)) = base {
                    let fits: Vec<_> = classes
                        .iter()
                        .filter(|&&c| self.reg.derives_from(c, *b))
                        .collect();
                    if fits.len() == 1 {
                        return TypeFound::Explicit(TypeExpr::Class(*fits[0]));
                    }
                }
                TypeFound::Ambiguous
            }
        }
    }

    /// `LoadTypeIdFromJsonObject`.
    pub(crate) fn type_from_object(&self, json: &Json, declared: &TypeExpr) -> TypeFound {
        match json {
            Json::Object(m) => match m.get("$type") {
                None => TypeFound::Implicit,
                Some(Json::String(s)) => self.type_from_string(s, Some(declared)),
                Some(_) => TypeFound::Failed,
            },
            _ => TypeFound::Implicit,
        }
    }

    fn is_abstract(&self, t: &TypeExpr) -> bool {
        matches!(t, TypeExpr::Class(c) if self.reg.classes[*c].is_abstract)
    }

    /// `LoadToPointer`: a raw pointer (`T*`), honouring `$type`.
    fn load_pointer(&mut self, declared: &TypeExpr, json: &'j mut Json, out: &mut Value) -> Code {
        if !matches!(out, Value::Ptr(_)) {
            *out = Value::Ptr(None);
        }
        if json.is_null() {
            *out = Value::Ptr(None);
            return ResultCode::new(T::ReadField, O::Success);
        }
        let found = self.type_from_object(json, declared);
        let (explicit, mut target) = match found {
            TypeFound::Implicit => (false, declared.clone()),
            TypeFound::Explicit(t) => (true, t),
            TypeFound::Failed => {
                return self.report(
                    T::RetrieveInfo,
                    O::Unknown,
                    "Unable to resolve provided type.",
                )
            }
            TypeFound::Ambiguous => return self.report(
                T::RetrieveInfo,
                O::Unknown,
                "Unable to resolve provided type because the same name points to multiple types.",
            ),
            TypeFound::UnknownUuid(u) => {
                return self.report(
                    T::RetrieveInfo,
                    O::Unknown,
                    &format!("Serialization information for target type {u} not found."),
                )
            }
        };
        if &target != declared {
            let fits = match (&target, declared) {
                (TypeExpr::Class(c), TypeExpr::Class(d)) => self.reg.derives_from(*c, *d),
                _ => false,
            };
            if !fits {
                return self.report(
                    T::Convert,
                    O::TypeMismatch,
                    "Requested type can't be cast to the type of the target value.",
                );
            }
        }
        let Value::Ptr(slot) = out else {
            return unreachable_code();
        };
        let was_null = slot.is_none();
        if let Some(inst) = slot.as_ref() {
            if explicit {
                if inst.0 != target {
                    *slot = None;
                }
            } else {
                target = inst.0.clone();
            }
        }
        if slot.is_none() {
            if self.is_abstract(&target) {
                return self.report(
                    T::CreateDefault,
                    O::Catastrophic,
                    "Unable to create an instance of a base class.",
                );
            }
            *slot = Some(Box::new((target.clone(), self.reg.zero(&target))));
        }
        let inst = slot.as_mut().map(|b| &mut b.1);
        let Some(inst) = inst else {
            return unreachable_code();
        };
        let status = self.load(&target, json, inst, true);
        if was_null
            && matches!(
                status.processing(),
                Processing::Halted | Processing::Altered
            )
        {
            *out = Value::Ptr(None);
        }
        status
    }

    /// Smart pointers (`unique_ptr`, `shared_ptr`).
    fn load_smart(&mut self, declared: &TypeExpr, json: &'j mut Json, out: &mut Value) -> Code {
        if !matches!(out, Value::Ptr(_)) {
            *out = Value::Ptr(None);
        }
        if json.is_null() {
            *out = Value::Ptr(None);
            return ResultCode::new(T::ReadField, O::Success);
        }
        let actual = match out {
            Value::Ptr(Some(inst)) => Some(inst.0.clone()),
            _ => None,
        };
        if let Some(actual) = actual {
            let (explicit, target) = if json.is_object() {
                match self.type_from_object(json, declared) {
                    TypeFound::Implicit => (false, declared.clone()),
                    TypeFound::Explicit(t) => (true, t),
                    _ => {
                        let c = self.report(
                            T::ReadField,
                            O::Unknown,
                            "Unable to find type id with the provided string.",
                        );
                        return self.code(
                            c,
                            "Failed to retrieve a target type for the data in the smart pointer.",
                        );
                    }
                }
            } else {
                (false, declared.clone())
            };
            if !explicit || actual == target {
                return self.load_pointer(declared, json, out);
            }
        }
        let mut fresh = Value::Ptr(None);
        let r = self.load_pointer(declared, json, &mut fresh);
        if !matches!(r.processing(), Processing::Halted | Processing::Altered) {
            *out = fresh;
        }
        r
    }

    /// `any` (O3DE's `JsonAnySerializer::Load`): an object with `$type` and the value
    /// in `Value` (or `value` when there is no `Value`). No `$type`, or a `$type` that
    /// names no type, leaves the any untouched with `DefaultsUsed` (the failed type
    /// lookup is still reported as `Unknown`).
    fn load_any(&mut self, json: &'j mut Json, out: &mut Value) -> Code {
        const EMPTY: &str = "JsonAnySerializer::Load created a default, empty AZStd::any";
        let Some(m) = json.as_object() else {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "JsonAnySerializer::Load only supports rapidjson::kObjectType",
            );
        };
        let Some(tv) = m.get("$type") else {
            return self.report(T::ReadField, O::DefaultsUsed, EMPTY);
        };
        let found = match tv {
            Json::String(s) => self.type_from_string(s, None),
            _ => TypeFound::Failed,
        };
        let ty = match found {
            TypeFound::Explicit(t) => t,
            TypeFound::Ambiguous => {
                self.report(
                    T::ReadField,
                    O::Unknown,
                    "The provided string points to multiple type ids. Use the uuid of the intended class instead.",
                );
                return self.report(T::ReadField, O::DefaultsUsed, EMPTY);
            }
            _ => {
                self.report(
                    T::ReadField,
                    O::Unknown,
                    "Unable to find type id with the provided string.",
                );
                return self.report(T::ReadField, O::DefaultsUsed, EMPTY);
            }
        };
        let field = if m.contains_key("Value") {
            "Value"
        } else {
            "value"
        };
        let mut result = ResultCode::new(T::ReadField, O::Success);
        let mut v = self.reg.zero(&ty);
        let member = json
            .as_object_mut()
            .and_then(|m| m.iter_mut().find(|(k, _)| k.as_str() == field));
        let r = match member {
            Some((k, val)) => self.with_key(k, |this| this.load(&ty, val, &mut v, false)),
            None => ResultCode::new(T::ReadField, O::DefaultsUsed),
        };
        result.combine(r);
        *out = Value::Any(Some(Box::new((ty, v))));
        let msg = if result.halted() {
            "JsonAnySerializer::Load failed to load AZStd::any"
        } else {
            "JsonAnySerializer::Load finished loading AZStd::any"
        };
        self.code(result, msg)
    }

    /// `Asset<T>` (O3DE's `AssetJsonSerializer`): `{"assetId": {"guid", "subId"},
    /// "assetHint"}`; the asset id loads like a class (names case-insensitive, unknown
    /// members skipped). `loadBehavior`, when present as a string, is kept.
    fn load_asset(&mut self, json: &'j Json, out: &mut Value) -> Code {
        let m = match json {
            Json::Object(m) => m,
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. Asset<T> can only be read from an object.",
                )
            }
        };
        let mut a = match out {
            Value::Asset(a) => (**a).clone(),
            _ => AssetRef::default(),
        };
        let mut result = ResultCode::empty(T::ReadField);
        match m.get_key_value("assetId") {
            Some((k, id_json)) => {
                self.rep.path.push(Seg::Key(k));
                let mut id = AssetRef {
                    guid: Uuid::NULL,
                    sub_id: 0,
                    ..AssetRef::default()
                };
                let r = self.load_asset_id(id_json, &mut id);
                if !id.guid.is_null() {
                    a.guid = id.guid;
                    a.sub_id = id.sub_id;
                    result = r;
                } else if r.processing() == Processing::Completed {
                    a.guid = Uuid::NULL;
                    a.sub_id = id.sub_id;
                    result =
                        ResultCode::combined(r, ResultCode::new(T::ReadField, O::DefaultsUsed));
                } else {
                    result = self.code(r, "Failed to retrieve asset id for Asset<T>.");
                }
                self.rep.path.pop();
            }
            None => {
                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
            }
        }
        if let Some(Json::String(s)) = m.get("loadBehavior") {
            a.load_behavior = Some(s.clone());
        }
        match m.get_key_value("assetHint") {
            Some((k, v)) => {
                let mut sv = Value::String(String::new());
                let r = self.with_key(k, |this| this.load_ro(&TypeExpr::String, v, &mut sv, true));
                if let Value::String(s) = sv {
                    a.hint = s;
                }
                result.combine(r);
            }
            None => {
                a.hint.clear();
                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
            }
        }
        *out = Value::Asset(Box::new(a));
        result
    }

    /// `AZ::Data::AssetId` as a class with the fields `guid` (Uuid) and `subId` (u32).
    fn load_asset_id(&mut self, json: &'j Json, id: &mut AssetRef) -> Code {
        if is_explicit_default(json) {
            return ResultCode::new(T::ReadField, O::DefaultsUsed);
        }
        let m = match json {
            Json::Object(m) => m,
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Reading into targets of type 'AssetId' is not supported.",
                )
            }
        };
        let mut ret = ResultCode::empty(T::ReadField);
        let mut loads = 0;
        for (k, v) in m {
            self.rep.path.push(Seg::Key(k));
            let r = if k.eq_ignore_ascii_case("guid") {
                let mut u = Value::Uuid(id.guid);
                let r = self.load_ro(&TypeExpr::Uuid, v, &mut u, false);
                if let Value::Uuid(u) = u {
                    id.guid = u;
                }
                Some(r)
            } else if k.eq_ignore_ascii_case("subId") {
                let mut n = Value::UInt(id.sub_id as u64);
                let r = self.load_ro(&TypeExpr::U32, v, &mut n, false);
                if let Value::UInt(n) = n {
                    id.sub_id = n as u32;
                }
                Some(r)
            } else {
                None
            };
            match r {
                Some(r) => {
                    ret.combine(r);
                    if r.halted() {
                        self.rep.path.pop();
                        return self.code(r, "Loading of element has failed.");
                    } else if r.processing() != Processing::Altered {
                        loads += 1;
                    }
                }
                None => {
                    let c = self.report(
                        T::ReadField,
                        O::Skipped,
                        "Skipping field as there's no matching variable in the target.",
                    );
                    ret.combine(c);
                }
            }
            self.rep.path.pop();
        }
        if loads < 2 {
            let o = if loads == 0 {
                O::DefaultsUsed
            } else {
                O::PartialDefaults
            };
            ret.combine(ResultCode::new(T::ReadField, o));
        }
        ret
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
fn bits_of(ty: &TypeExpr, v: &Value) -> i128 {
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
fn unreachable_code() -> Code {
    ResultCode::new(T::ReadField, O::Catastrophic)
}
