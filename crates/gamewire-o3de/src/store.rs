//! Store: a typed value to JSON, as O3DE's JsonSerializer writes it.
//!
//! Values equal to their default are left out (`DefaultsUsed`) unless keep-defaults
//! is asked; a value that is all defaults is written as `{}`.

use crate::compare::compare;
use crate::registry::Registry;
use crate::report::{
    Outcome as O, Processing, Report, Reporter, ResultCode, Seg, SharedReporting, Task as T,
};
use crate::types::{ClassId, TypeExpr};
use crate::value::Value;
use serde_json::{Map, Value as Json};

type Code = ResultCode;

fn empty() -> Json {
    Json::Object(Map::new())
}

fn f64_json(v: f64) -> Json {
    serde_json::Number::from_f64(v)
        .map(Json::Number)
        .unwrap_or(Json::Null)
}

/// The store machinery.
pub struct Storer<'r> {
    reg: &'r Registry,
    keep_defaults: bool,
    max_depth: usize,
    depth: usize,
    pub(crate) rep: Reporter<'static>,
    reporting: Option<&'r SharedReporting<'r>>,
    entity_id_aliases: bool,
}

impl<'r> Storer<'r> {
    /// A storer over `reg`.
    pub fn new(reg: &'r Registry, keep_defaults: bool, max_depth: usize) -> Self {
        Storer {
            reg,
            keep_defaults,
            max_depth,
            depth: 0,
            rep: Reporter::default(),
            reporting: None,
            entity_id_aliases: false,
        }
    }

    /// Writes `AZ::EntityId`s as a prefab's entity id mapper does: the alias a load
    /// read, `""` for no entity, written even when it equals the default.
    pub fn with_entity_id_aliases(mut self, on: bool) -> Self {
        self.entity_id_aliases = on;
        self
    }

    /// Passes the result of every value stored through `reporting` (O3DE's
    /// `JsonSerializerSettings::m_reporting`); processing goes on with what it returns.
    pub(crate) fn with_reporting(mut self, reporting: &'r SharedReporting<'r>) -> Self {
        self.reporting = Some(reporting);
        self
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

    fn with_seg<R>(&mut self, seg: Seg<'static>, f: impl FnOnce(&mut Self) -> R) -> R {
        self.rep.path.push(seg);
        let r = f(self);
        self.rep.path.pop();
        r
    }

    fn plain(&self, differs: bool, out: Json) -> (Json, Code) {
        if self.keep_defaults || differs {
            (out, ResultCode::new(T::WriteValue, O::Success))
        } else {
            (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed))
        }
    }

    /// The top-level store (`JsonSerializer::Store`): classes and enums compare against
    /// their default instance; other types have no default to compare with.
    pub fn store_root(
        &mut self,
        ty: &TypeExpr,
        v: &Value,
        default: Option<&Value>,
    ) -> (Json, Code) {
        let made;
        let default = match (default, ty) {
            (Some(d), _) => Some(d),
            (None, TypeExpr::Class(_) | TypeExpr::Enum(_)) if !self.keep_defaults => {
                made = self.reg.zero(ty);
                Some(&made)
            }
            _ => None,
        };
        match ty {
            TypeExpr::Pointer(inner) => self.store_pointer(inner, v, default),
            _ => self.store(ty, v, default),
        }
    }

    /// Stores `v` of type `ty` against `default` (None: no default to compare with).
    pub fn store(&mut self, ty: &TypeExpr, v: &Value, default: Option<&Value>) -> (Json, Code) {
        if self.depth >= self.max_depth {
            let c = self.report(
                T::WriteValue,
                O::Catastrophic,
                "Nesting deeper than the depth limit.",
            );
            return (empty(), c);
        }
        self.depth += 1;
        // JsonSerializer::Store makes a default instance for classes and enums.
        let made;
        let default = match (default, ty) {
            (None, TypeExpr::Class(_) | TypeExpr::Enum(_)) if !self.keep_defaults => {
                made = self.reg.zero(ty);
                Some(&made)
            }
            _ => default,
        };
        let (j, r) = self.store_inner(ty, v, default);
        self.depth -= 1;
        let r = match self.reporting {
            Some(cb) => {
                let path = self.rep.pointer();
                (cb.borrow_mut())(&r.describe(&path), r, &path)
            }
            None => r,
        };
        (j, r)
    }

    fn store_inner(&mut self, ty: &TypeExpr, v: &Value, default: Option<&Value>) -> (Json, Code) {
        use TypeExpr as X;
        let differs = default != Some(v);
        match (ty, v) {
            (X::Bool, Value::Bool(b)) => self.plain(differs, Json::Bool(*b)),
            (X::EntityId, _) => self.store_entity_id(v, default),
            (_, Value::Int(i)) if !matches!(ty, X::Enum(_)) => self.plain(differs, Json::from(*i)),
            (_, Value::UInt(u)) if !matches!(ty, X::Enum(_)) => self.plain(differs, Json::from(*u)),
            (X::F32, Value::F32(f)) => {
                let close = matches!(default, Some(Value::F32(d)) if (f - d).abs() <= f32::EPSILON);
                self.plain(!close, f64_json(*f as f64))
            }
            (X::F64, Value::F64(f)) => {
                let close = matches!(default, Some(Value::F64(d)) if (f - d).abs() <= f64::EPSILON);
                self.plain(!close, f64_json(*f))
            }
            (X::String, Value::String(s)) => self.plain(differs, Json::String(s.clone())),
            (X::Uuid, Value::Uuid(u)) => self.plain(differs, Json::String(u.to_string())),
            // Matrices too are written as their elements row by row (o3de/o3de#10495).
            (
                X::Vector2
                | X::Vector3
                | X::Vector4
                | X::Quaternion
                | X::Matrix3x3
                | X::Matrix3x4
                | X::Matrix4x4,
                Value::Math(m),
            ) => self.plain(
                differs,
                Json::Array(m.iter().map(|f| f64_json(*f as f64)).collect()),
            ),
            (X::Color, Value::Math(m)) => self.store_color(m, default),
            (X::Transform, Value::Transform { .. }) => self.store_transform(v, default),
            (X::Vector(e) | X::List(e) | X::FixedVector(e, _) | X::Set(e), Value::Seq(s)) => {
                self.store_seq(e, s, false)
            }
            (X::Array(e, _), Value::Seq(s)) => self.store_array(e, s, default),
            (X::UnorderedSet(e) | X::UnorderedMultiset(e), Value::Seq(s)) => {
                self.store_seq(e, s, true)
            }
            (X::Map(k, val), Value::Map(m)) => self.store_map(k, val, m, false, false),
            (X::UnorderedMap(k, val), Value::Map(m)) => self.store_map(k, val, m, true, false),
            (X::UnorderedMultimap(k, val), Value::Map(m)) => self.store_map(k, val, m, true, true),
            (X::Pair(a, b), Value::Tuple(t)) => {
                let tys = [(**a).clone(), (**b).clone()];
                self.store_tuple(&tys, t, default)
            }
            (X::Tuple(tys), Value::Tuple(t)) => self.store_tuple(tys, t, default),
            (X::Pointer(inner) | X::UniquePtr(inner) | X::SharedPtr(inner), Value::Ptr(_)) => {
                self.store_pointer(inner, v, default)
            }
            (X::Any, Value::Any(a)) => self.store_any(a.as_deref(), default),
            (X::Asset(_), Value::Asset(a)) => self.store_asset(a, default),
            (X::Class(c), Value::Object(fields)) => {
                let mut out = Map::new();
                let d = default.and_then(|d| d.as_object());
                let r = self.store_class(*c, fields, d, &mut out);
                (Json::Object(out), r)
            }
            (X::Enum(e), Value::Int(_) | Value::UInt(_)) => self.store_enum(*e, v, default),
            _ => {
                let c = self.report(
                    T::WriteValue,
                    O::TypeMismatch,
                    &format!("The value does not match the declared type {ty}."),
                );
                (empty(), c)
            }
        }
    }

    /// `Asset<T>` (O3DE's `AssetJsonSerializer`): the asset id as a class against the
    /// default's id, then the hint against "".
    fn store_asset(&mut self, a: &crate::value::AssetRef, default: Option<&Value>) -> (Json, Code) {
        let d = match default {
            Some(Value::Asset(d)) => Some(&**d),
            _ => None,
        };
        let keep = self.keep_defaults;
        let mut out = Map::new();
        let mut id = Map::new();
        let mut id_result = ResultCode::empty(T::WriteValue);
        let guid_default = d.map(|d| d.guid == a.guid).unwrap_or(a.guid.is_null());
        if keep || !guid_default {
            id.insert("guid".into(), Json::String(a.guid.to_string()));
            id_result.combine(ResultCode::new(T::WriteValue, O::Success));
        } else {
            id_result.combine(ResultCode::new(T::WriteValue, O::DefaultsUsed));
        }
        let sub_default = d.map(|d| d.sub_id == a.sub_id).unwrap_or(a.sub_id == 0);
        if keep || !sub_default {
            id.insert("subId".into(), Json::from(a.sub_id));
            id_result.combine(ResultCode::new(T::WriteValue, O::Success));
        } else {
            id_result.combine(ResultCode::new(T::WriteValue, O::DefaultsUsed));
        }
        if matches!(id_result.outcome(), O::Success | O::PartialDefaults) {
            out.insert("assetId".into(), Json::Object(id));
        }
        let mut result = id_result;
        if let Some(lb) = &a.load_behavior {
            out.insert("loadBehavior".into(), Json::String(lb.clone()));
        }
        if keep || !a.hint.is_empty() {
            out.insert("assetHint".into(), Json::String(a.hint.clone()));
            result.combine(ResultCode::new(T::WriteValue, O::Success));
        } else {
            result.combine(ResultCode::new(T::WriteValue, O::DefaultsUsed));
        }
        (Json::Object(out), result)
    }

    fn store_color(&mut self, m: &[f32], default: Option<&Value>) -> (Json, Code) {
        let d = match default {
            Some(Value::Math(d)) if d.len() == 4 => Some(d),
            _ => None,
        };
        if !self.keep_defaults && d.is_some_and(|d| **d == *m) {
            return (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed));
        }
        let mut a: Vec<Json> = m.iter().take(3).map(|f| f64_json(*f as f64)).collect();
        if self.keep_defaults || !d.is_some_and(|d| d[3] == m[3]) {
            a.push(f64_json(m[3] as f64));
            (Json::Array(a), ResultCode::new(T::WriteValue, O::Success))
        } else {
            (
                Json::Array(a),
                ResultCode::new(T::WriteValue, O::PartialDefaults),
            )
        }
    }

    fn store_transform(&mut self, v: &Value, default: Option<&Value>) -> (Json, Code) {
        let Value::Transform {
            translation,
            rotation,
            scale,
        } = v
        else {
            return (empty(), ResultCode::new(T::WriteValue, O::Catastrophic));
        };
        let d = match default {
            Some(Value::Transform {
                translation,
                rotation,
                scale,
            }) => Some((*translation, *rotation, *scale)),
            _ => None,
        };
        let mut out = Map::new();
        let mut result = ResultCode::empty(T::WriteValue);
        let parts: [(&'static str, TypeExpr, Value, Option<Value>); 3] = [
            (
                "Translation",
                TypeExpr::Vector3,
                Value::Math(translation.to_vec().into()),
                d.map(|d| Value::Math(d.0.to_vec().into())),
            ),
            (
                "Rotation",
                TypeExpr::Quaternion,
                Value::Math(rotation.to_vec().into()),
                d.map(|d| Value::Math(d.1.to_vec().into())),
            ),
            (
                "Scale",
                TypeExpr::F32,
                Value::F32(*scale),
                d.map(|d| Value::F32(d.2)),
            ),
        ];
        for (name, ty, val, dv) in parts {
            let (j, c) = self.with_seg(Seg::Key(name), |this| this.store(&ty, &val, dv.as_ref()));
            if !c.halted() && (self.keep_defaults || c.outcome() != O::DefaultsUsed) {
                out.insert(name.to_string(), j);
            }
            result.combine(c);
        }
        (Json::Object(out), result)
    }

    /// A container element: compared against a fresh default of its type
    /// (`ContinuationFlags::ReplaceDefault`), pointers against null.
    fn store_element(&mut self, ty: &TypeExpr, v: &Value) -> (Json, Code) {
        if self.keep_defaults {
            return self.store(ty, v, None);
        }
        match ty {
            TypeExpr::Pointer(inner) => self.store_pointer(inner, v, None),
            _ => {
                let d = self.reg.zero(ty);
                self.store(ty, v, Some(&d))
            }
        }
    }

    /// `JsonArraySerializer::Store`: each element is compared with the default array's
    /// element at the same index (none when keeping defaults or without a default), and
    /// nothing is written when every element is a default.
    fn store_array(
        &mut self,
        elem: &TypeExpr,
        items: &[Value],
        default: Option<&Value>,
    ) -> (Json, Code) {
        let defaults = match default {
            Some(Value::Seq(d)) if !self.keep_defaults => Some(d),
            _ => None,
        };
        let mut arr = Vec::with_capacity(items.len());
        let mut ret = ResultCode::empty(T::WriteValue);
        for (i, item) in items.iter().enumerate() {
            let d = defaults.and_then(|d| d.get(i));
            let (j, c) = self.with_seg(Seg::Index(i), |this| match elem {
                TypeExpr::Pointer(inner) => this.store_pointer(inner, item, d),
                _ => this.store(elem, item, d),
            });
            if c.halted() {
                return (
                    empty(),
                    self.rep
                        .code(c, "Failed to store data for element from AZStd::array."),
                );
            }
            arr.push(j);
            ret.combine(c);
        }
        if ret.outcome() != O::DefaultsUsed {
            (Json::Array(arr), ret)
        } else {
            (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed))
        }
    }

    fn store_seq(&mut self, elem: &TypeExpr, items: &[Value], sort: bool) -> (Json, Code) {
        let mut arr = Vec::with_capacity(items.len());
        let mut ret = ResultCode::empty(T::WriteValue);
        for (i, item) in items.iter().enumerate() {
            let (j, c) = self.with_seg(Seg::Index(i), |this| this.store_element(elem, item));
            if c.halted() {
                return (
                    empty(),
                    self.rep
                        .code(c, "Failed to store data for element in basic container."),
                );
            }
            arr.push(j);
            ret.combine(c);
        }
        if sort {
            arr.sort_by(compare);
        }
        if self.keep_defaults {
            if ret.has_done_work() {
                return (Json::Array(arr), ret);
            }
            return (Json::Array(arr), ResultCode::new(T::WriteValue, O::Success));
        }
        if ret.has_done_work() {
            ret.combine(ResultCode::new(T::WriteValue, O::Success));
            (Json::Array(arr), ret)
        } else {
            (empty(), ret)
        }
    }

    fn store_map(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        entries: &[(Value, Value)],
        sort: bool,
        multi: bool,
    ) -> (Json, Code) {
        let pair_ty = [kty.clone(), vty.clone()];
        let zero_pair = if self.keep_defaults {
            None
        } else {
            Some(Value::Tuple(vec![self.reg.zero(kty), self.reg.zero(vty)]))
        };
        let mut stored = Vec::with_capacity(entries.len());
        let mut ret = ResultCode::empty(T::WriteValue);
        for (i, (k, v)) in entries.iter().enumerate() {
            let pair = Value::Tuple(vec![k.clone(), v.clone()]);
            let (j, c) = self.with_seg(Seg::Index(i), |this| {
                this.store_tuple(
                    &pair_ty,
                    match &pair {
                        Value::Tuple(t) => t,
                        _ => &[],
                    },
                    zero_pair.as_ref(),
                )
            });
            if c.halted() {
                return (
                    empty(),
                    self.rep
                        .code(c, "Failed to store data for element in basic container."),
                );
            }
            stored.push(j);
            ret.combine(c);
        }
        if stored.is_empty() {
            if self.keep_defaults {
                return (
                    Json::Array(Vec::new()),
                    ResultCode::new(T::WriteValue, O::Success),
                );
            }
            return (empty(), ret);
        }
        if !self.keep_defaults {
            ret.combine(ResultCode::new(T::WriteValue, O::Success));
        }
        let as_object = stored.iter().all(|e| match e {
            Json::Array(a) if !a.is_empty() => {
                a[0].is_string() || crate::load::is_explicit_default(&a[0])
            }
            other => crate::load::is_explicit_default(other),
        });
        let split = |e: Json| -> (Json, Json) {
            match e {
                Json::Array(mut a) if a.len() >= 2 => {
                    let v = a.swap_remove(1);
                    let k = a.swap_remove(0);
                    (k, v)
                }
                _ => (empty(), empty()),
            }
        };
        if as_object {
            let mut members: Vec<(String, Json)> = stored
                .into_iter()
                .map(|e| {
                    let (k, v) = split(e);
                    let name = match k {
                        Json::String(s) => s,
                        _ => "{}".to_string(),
                    };
                    (name, v)
                })
                .collect();
            if sort {
                members.sort_by(|a, b| {
                    a.0.as_bytes()
                        .cmp(b.0.as_bytes())
                        .then_with(|| compare(&a.1, &b.1))
                });
            }
            let mut out = Map::new();
            if multi {
                if members.len() == 1 && crate::load::is_explicit_default(&members[0].1) {
                    let (k, v) = members.pop().unwrap_or_default();
                    out.insert(k, v);
                    return (Json::Object(out), ret);
                }
                let mut cur: Option<(String, Vec<Json>)> = None;
                for (k, v) in members {
                    match &mut cur {
                        Some((ck, vals)) if *ck == k => vals.push(v),
                        _ => {
                            if let Some((ck, vals)) = cur.take() {
                                out.insert(ck, Json::Array(vals));
                            }
                            cur = Some((k, vec![v]));
                        }
                    }
                }
                if let Some((ck, vals)) = cur {
                    out.insert(ck, Json::Array(vals));
                }
            } else {
                for (k, v) in members {
                    out.insert(k, v);
                }
            }
            (Json::Object(out), ret)
        } else {
            let mut items: Vec<(Json, Json)> = stored.into_iter().map(split).collect();
            let entry = |k: Json, v: Json| {
                let mut o = Map::new();
                o.insert("Key".into(), k);
                o.insert("Value".into(), v);
                Json::Object(o)
            };
            if sort {
                items.sort_by(|a, b| {
                    compare(
                        &entry(a.0.clone(), a.1.clone()),
                        &entry(b.0.clone(), b.1.clone()),
                    )
                });
            }
            let mut out = Vec::new();
            if multi && !(items.len() == 1 && crate::load::is_explicit_default(&items[0].1)) {
                let mut cur: Option<(Json, Vec<Json>)> = None;
                for (k, v) in items {
                    match &mut cur {
                        Some((ck, vals)) if compare(ck, &k).is_eq() => vals.push(v),
                        _ => {
                            if let Some((ck, vals)) = cur.take() {
                                out.push(entry(ck, Json::Array(vals)));
                            }
                            cur = Some((k, vec![v]));
                        }
                    }
                }
                if let Some((ck, vals)) = cur {
                    out.push(entry(ck, Json::Array(vals)));
                }
            } else {
                out.extend(items.into_iter().map(|(k, v)| entry(k, v)));
            }
            (Json::Array(out), ret)
        }
    }

    fn store_tuple(
        &mut self,
        tys: &[TypeExpr],
        vals: &[Value],
        default: Option<&Value>,
    ) -> (Json, Code) {
        let d = match default {
            Some(Value::Tuple(d)) if d.len() == vals.len() => Some(d),
            _ => None,
        };
        let mut ret = ResultCode::empty(T::WriteValue);
        let mut out = Vec::with_capacity(vals.len());
        for (i, (ty, v)) in tys.iter().zip(vals).enumerate() {
            let dv = d.map(|d| &d[i]);
            let (j, c) = self.with_seg(Seg::Index(i), |this| match ty {
                TypeExpr::Pointer(inner) => this.store_pointer(inner, v, dv),
                _ => this.store(ty, v, dv),
            });
            if c.halted() {
                return (
                    empty(),
                    self.rep.code(
                        c,
                        "Failed to store data for AZStd::pair or AZStd::tuple element.",
                    ),
                );
            }
            out.push(j);
            ret.combine(c);
        }
        if self.keep_defaults || ret.outcome() != O::DefaultsUsed {
            (Json::Array(out), ret)
        } else {
            (empty(), ret)
        }
    }

    fn store_pointer(
        &mut self,
        declared: &TypeExpr,
        v: &Value,
        default: Option<&Value>,
    ) -> (Json, Code) {
        let dptr = match default {
            Some(Value::Ptr(Some(d))) => Some(&**d),
            _ => None,
        };
        let inst = match v {
            Value::Ptr(Some(i)) => &**i,
            _ => {
                let o = if self.keep_defaults || dptr.is_some() {
                    O::Success
                } else {
                    O::DefaultsUsed
                };
                return (Json::Null, ResultCode::new(T::RetrieveInfo, o));
            }
        };
        let actual = &inst.0;
        let actual_default = dptr.map(|d| &d.0).unwrap_or(declared);
        let with_type = actual != declared && (actual != actual_default || self.keep_defaults);
        let made;
        let dv = if actual_default == actual {
            dptr.map(|d| &d.1)
        } else {
            None
        };
        let dv = match dv {
            Some(d) => Some(d),
            None if !self.keep_defaults => {
                made = self.reg.zero(actual);
                Some(&made)
            }
            None => None,
        };
        match (actual, &inst.1) {
            (TypeExpr::Class(c), Value::Object(fields)) => {
                let mut out = Map::new();
                let mut result = ResultCode::empty(T::WriteValue);
                if with_type {
                    out.insert("$type".into(), Json::String(self.reg.type_name(*c)));
                    result = ResultCode::new(T::WriteValue, O::Success);
                }
                let r = self.store_class(*c, fields, dv.and_then(|d| d.as_object()), &mut out);
                result.combine(r);
                (Json::Object(out), result)
            }
            (TypeExpr::Pointer(inner), _) => self.store_pointer(inner, &inst.1, dv),
            _ => self.store(actual, &inst.1, dv),
        }
    }

    fn type_name(&self, ty: &TypeExpr) -> String {
        match ty {
            TypeExpr::Class(c) => self.reg.type_name(*c),
            TypeExpr::Enum(e) => self.reg.enums[*e].name.clone(),
            other => match crate::types::o3de_scalar_name(other) {
                Some(n) => n.to_string(),
                None => other.to_string(),
            },
        }
    }

    fn store_any(
        &mut self,
        a: Option<&(TypeExpr, Value)>,
        default: Option<&Value>,
    ) -> (Json, Code) {
        let Some((ty, v)) = a else {
            // `JsonAnySerializer::Store`: an empty any is an empty object and a code that
            // has done no work (it reads as DefaultsUsed, and combines as nothing).
            return (empty(), ResultCode::empty(T::WriteValue));
        };
        let mut out = Map::new();
        out.insert("$type".into(), Json::String(self.type_name(ty)));
        let mut result = ResultCode::new(T::WriteValue, O::Success);
        let dv = match default {
            Some(Value::Any(Some(d))) if &d.0 == ty => Some(&d.1),
            _ => None,
        };
        let (j, c) = self.with_seg(Seg::Key("Value"), |this| match ty {
            TypeExpr::Pointer(inner) => this.store_pointer(inner, v, dv),
            _ => this.store(ty, v, dv),
        });
        if !c.halted() && (self.keep_defaults || c.outcome() != O::DefaultsUsed) {
            out.insert("Value".into(), j);
        }
        result.combine(c);
        (Json::Object(out), result)
    }

    /// `AZ::EntityId` (O3DE's `JsonEntityIdSerializer::Store`): an alias read through a
    /// prefab's entity id mapper is written back as it was, always (the mapper reports
    /// success, so the member is never left out); with the mapper an invalid id is
    /// `""`; otherwise `{"id": u64}`, left out when it equals the default.
    fn store_entity_id(&mut self, v: &Value, default: Option<&Value>) -> (Json, Code) {
        let invalid = crate::load::INVALID_ENTITY_ID;
        match v {
            Value::String(alias) => (
                Json::String(alias.clone()),
                ResultCode::new(T::WriteValue, O::Success),
            ),
            Value::UInt(id) if self.entity_id_aliases && *id == invalid => (
                Json::String(String::new()),
                ResultCode::new(T::WriteValue, O::Success),
            ),
            Value::UInt(id) => {
                let d = match default {
                    Some(Value::UInt(d)) => Some(*d),
                    _ => None,
                };
                if !self.keep_defaults && d == Some(*id) {
                    return (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed));
                }
                let mut m = Map::new();
                m.insert("id".into(), Json::from(*id));
                (Json::Object(m), ResultCode::new(T::WriteValue, O::Success))
            }
            _ => {
                let c = self.report(
                    T::WriteValue,
                    O::TypeMismatch,
                    "The value does not match the declared type EntityId.",
                );
                (empty(), c)
            }
        }
    }

    /// `StoreClass`: every field in layout order, defaults left out.
    fn store_class(
        &mut self,
        cid: ClassId,
        fields: &[Value],
        default: Option<&[Value]>,
        out: &mut Map<String, Json>,
    ) -> Code {
        let reg = self.reg;
        let class = &reg.classes[cid];
        if !class.defaults_known && !self.keep_defaults {
            // The registry does not know this class's defaults (an imported dump has
            // none): every value is written, so none O3DE would keep is left out.
            self.keep_defaults = true;
            let r = self.store_class(cid, fields, None, out);
            self.keep_defaults = false;
            return r;
        }
        if class.fields.is_empty() {
            let o = if self.keep_defaults {
                O::Success
            } else {
                O::DefaultsUsed
            };
            return ResultCode::new(T::WriteValue, o);
        }
        let mut result = ResultCode::empty(T::WriteValue);
        for (i, f) in class.fields.iter().enumerate() {
            let Some(v) = fields.get(i) else { break };
            // A field kept always is stored as if there were no default to compare with.
            let dv = default.and_then(|d| d.get(i)).filter(|_| !f.keep);
            self.rep.path.push(Seg::Owned(f.name.clone()));
            let (j, c) = match &f.ty {
                TypeExpr::Pointer(inner) => self.store_pointer(inner, v, dv),
                ty => self.store(ty, v, dv),
            };
            self.rep.path.pop();
            if !c.halted() && (self.keep_defaults || f.keep || c.outcome() != O::DefaultsUsed) {
                out.insert(f.name.clone(), j);
            }
            result.combine(c);
        }
        result
    }

    fn store_enum(&mut self, eid: usize, v: &Value, default: Option<&Value>) -> (Json, Code) {
        let e = &self.reg.enums[eid];
        let signed = e.signed();
        let bits = |x: i128| -> u64 { x as u64 };
        let input: i128 = match v {
            Value::Int(i) => *i as i128,
            Value::UInt(u) => *u as i128,
            _ => 0,
        };
        let dval: Option<i128> = match default {
            Some(Value::Int(i)) => Some(*i as i128),
            Some(Value::UInt(u)) => Some(*u as i128),
            _ => None,
        };
        let is_default = !self.keep_defaults && dval == Some(input);
        let mut flags: Vec<(u64, &str)> = Vec::new();
        for (name, c) in &e.values {
            if *c == input {
                if is_default {
                    return (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed));
                }
                return (
                    Json::String(name.clone()),
                    ResultCode::new(T::WriteValue, O::Success),
                );
            }
            if *c == 0 {
                continue;
            }
            if bits(*c) & bits(input) == bits(*c) && !flags.iter().any(|(b, _)| *b == bits(*c)) {
                flags.push((bits(*c), name.as_str()));
            }
        }
        if is_default {
            return (empty(), ResultCode::new(T::WriteValue, O::DefaultsUsed));
        }
        let int_json = |x: u64| -> Json {
            if signed {
                Json::from(x as i64)
            } else {
                Json::from(x)
            }
        };
        let width_mask = match e.underlying {
            TypeExpr::I8 | TypeExpr::U8 => 0xff,
            TypeExpr::I16 | TypeExpr::U16 => 0xffff,
            TypeExpr::I32 | TypeExpr::U32 => 0xffff_ffff,
            _ => u64::MAX,
        };
        if flags.is_empty() {
            return (
                int_json(bits(input)),
                ResultCode::new(T::WriteValue, O::Success),
            );
        }
        flags.sort_by_key(|f| std::cmp::Reverse(f.0));
        let mut left = bits(input);
        let mut arr = Vec::new();
        for (b, name) in &flags {
            left &= !b;
            arr.push(Json::String(name.to_string()));
        }
        if left & width_mask != 0 {
            let leftover = if signed {
                // Sign-extend from the underlying width.
                let w = width_mask.count_ones();
                let x = left & width_mask;
                if w < 64 && x >> (w - 1) & 1 == 1 {
                    Json::from((x | !width_mask) as i64)
                } else {
                    Json::from(x as i64)
                }
            } else {
                Json::from(left & width_mask)
            };
            arr.push(leftover);
        }
        (Json::Array(arr), ResultCode::new(T::WriteValue, O::Success))
    }
}

/// True when the processing of `c` did not halt.
pub fn completed_or_altered(c: Code) -> bool {
    c.processing() != Processing::Halted
}
