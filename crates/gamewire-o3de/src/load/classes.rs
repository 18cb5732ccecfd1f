//! Reflected classes (members by name) and enums (by name, number or array of flags).

use super::*;

impl<'j> Loader<'_, 'j> {
    pub(super) fn load_class(&mut self, cid: ClassId, json: &'j mut Json, out: &mut Value) -> Code {
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
        refill(
            out,
            items_of,
            |fields| {
                if let Some(mut members) = self.duplicate_members() {
                    // rapidjson keeps every member: each one loads, in document order.
                    let mut sub = self.sub_loader();
                    let members = members.iter_mut().map(|(k, v)| (&**k, v));
                    let r = sub.class_members(cid, members, fields);
                    self.rep.issues.append(&mut sub.rep.issues);
                    return r;
                }
                self.class_members(cid, m.iter_mut().map(|(k, v)| (&**k, v)), fields)
            },
            Value::Object,
        )
    }

    /// `LoadClass`'s loop over the object's members.
    pub(super) fn class_members(
        &mut self,
        cid: ClassId,
        members: impl Iterator<Item = (&'j str, &'j mut Json)>,
        fields: &mut [Value],
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
            let failed = self.with_key(name, |this| match found {
                Some(i) => {
                    let r = this.load(&class.fields[i].ty, val, &mut fields[i], false);
                    ret.combine(r);
                    if r.halted() {
                        return Some(this.code(r, "Loading of element has failed."));
                    } else if r.processing() != Processing::Altered {
                        loads += 1;
                    }
                    None
                }
                None => {
                    let c = this.report(
                        T::ReadField,
                        O::Skipped,
                        "Skipping field as there's no matching variable in the target.",
                    );
                    ret.combine(c);
                    None
                }
            });
            if let Some(c) = failed {
                return c;
            }
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

    pub(super) fn load_enum(&mut self, eid: usize, json: &'j Json, out: &mut Value) -> Code {
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
                    let failed = self.with_index(i, |this| {
                        let mut v = int_value(&ut, 0);
                        let r = match item {
                            Json::String(s) => this.enum_from_string(eid, s, &mut v),
                            Json::Number(_) => this.enum_from_number(eid, item, &mut v),
                            _ => this.report(
                                T::ReadField,
                                O::Unsupported,
                                "Unsupported type. Enum values within an array must either be a string or a number.",
                            ),
                        };
                        result.combine(r);
                        if result.halted() {
                            return Some(this.code(result, "Enum value could not be parsed from array"));
                        }
                        acc |= bits_of(&ut, &v);
                        None
                    });
                    if let Some(c) = failed {
                        return c;
                    }
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

    pub(super) fn enum_options(&self, eid: usize, message: &str) -> String {
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

    pub(super) fn enum_from_number(&mut self, eid: usize, json: &Json, out: &mut Value) -> Code {
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

    pub(super) fn enum_from_string(&mut self, eid: usize, s: &str, out: &mut Value) -> Code {
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
}
