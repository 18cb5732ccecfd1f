//! `$type` resolution, raw and smart pointers, and `any`.

use super::*;

impl<'j> Loader<'_, 'j> {
    /// Resolves a `$type` string: a UUID anywhere in it, else a (trimmed,
    /// case-insensitive) name; several classes of one name are narrowed to those
    /// deriving from `base`.
    pub(crate) fn type_from_string(&self, s: &str, base: Option<&TypeExpr>) -> TypeFound {
        // The Uuid serializer's rules: a {uuid} anywhere, but not the null one.
        if s != NULL_UUID_TEXT {
            if let Some(u) = Uuid::search(s).filter(|u| !u.is_null()) {
                // O3DE picks a serializer by type id: a type with its own serializer is
                // read by it even when a registry (an imported dump) lists it as a class.
                if let Some(t) = crate::types::o3de_builtin(&u) {
                    return TypeFound::Explicit(t);
                }
                if let Some(c) = self.reg.class_by_uuid(&u) {
                    return TypeFound::Explicit(TypeExpr::Class(c));
                }
                if let Some(e) = self.reg.enum_by_uuid(&u) {
                    return TypeFound::Explicit(TypeExpr::Enum(e));
                }
                return TypeFound::UnknownUuid(u);
            }
        }
        let name = s.trim();
        if let Some(t @ TypeExpr::EntityId) = crate::types::builtin(name) {
            return TypeFound::Explicit(t);
        }
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

    pub(super) fn is_abstract(&self, t: &TypeExpr) -> bool {
        matches!(t, TypeExpr::Class(c) if self.reg.classes[*c].is_abstract)
    }

    /// `LoadToPointer`: a raw pointer (`T*`), honouring `$type`.
    pub(super) fn load_pointer(
        &mut self,
        declared: &TypeExpr,
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
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
    pub(super) fn load_smart(
        &mut self,
        declared: &TypeExpr,
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
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
    pub(super) fn load_any(&mut self, json: &'j mut Json, out: &mut Value) -> Code {
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
}
