//! Scalars: booleans, integers, floats, strings and UUIDs (O3DE's JsonBoolSerializer,
//! integer and floating point serializers, JsonStringSerializer and JsonUuidSerializer).

use super::*;

impl<'j> Loader<'_, 'j> {
    pub(super) fn load_bool(&mut self, json: &Json, out: &mut Value) -> Code {
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
    pub(super) fn cast_int(&mut self, ty: &TypeExpr, v: i128, out: &mut Value) -> Code {
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
    pub(super) fn cast_double_to_int(&mut self, ty: &TypeExpr, v: f64, out: &mut Value) -> Code {
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

    pub(super) fn load_int(&mut self, ty: &TypeExpr, json: &Json, out: &mut Value) -> Code {
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
    pub(super) fn text_to_int(&mut self, ty: &TypeExpr, s: &str, out: &mut Value) -> Code {
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

    pub(super) fn set_float(&mut self, is_f32: bool, v: f64, out: &mut Value) -> Code {
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

    pub(super) fn load_float(&mut self, is_f32: bool, json: &Json, out: &mut Value) -> Code {
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

    pub(super) fn load_string(&mut self, json: &Json, out: &mut Value) -> Code {
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

    pub(super) fn load_uuid(&mut self, json: &Json, out: &mut Value) -> Code {
        let (code, u, msg) = Self::uuid_from_json(json);
        if let Some(u) = u {
            *out = Value::Uuid(u);
        }
        self.code(code, msg)
    }
}
