//! `Asset<T>` references and their asset ids.

use super::*;

impl<'j> Loader<'_, 'j> {
    /// `Asset<T>` (O3DE's `AssetJsonSerializer`): `{"assetId": {"guid", "subId"},
    /// "assetHint"}`; the asset id loads like a class (names case-insensitive, unknown
    /// members skipped). `loadBehavior`, when present as a string, is kept.
    pub(super) fn load_asset(&mut self, json: &'j Json, out: &mut Value) -> Code {
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
            Value::Asset(a) => std::mem::take(&mut **a),
            _ => AssetRef::default(),
        };
        let mut result = ResultCode::empty(T::ReadField);
        match m.get_key_value("assetId") {
            Some((k, id_json)) => self.with_key(k, |this| {
                let mut id = AssetRef {
                    guid: Uuid::NULL,
                    sub_id: 0,
                    ..AssetRef::default()
                };
                let r = this.load_asset_id(id_json, &mut id);
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
                    result = this.code(r, "Failed to retrieve asset id for Asset<T>.");
                }
            }),
            None => {
                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
            }
        }
        // `AssetLoadBehavior` (AzCore/Asset/AssetCommon.h), read by the enum serializer:
        // by name, or by value (PreLoad = 0, QueueLoad = 1, NoLoad = 2), kept by name.
        match m.get_key_value("loadBehavior") {
            None => {}
            Some((_, Json::String(s))) => a.load_behavior = Some(s.clone()),
            Some((k, v)) => {
                let name = match v.as_u64() {
                    Some(0) => Some("PreLoad"),
                    Some(1) => Some("QueueLoad"),
                    Some(2) => Some("NoLoad"),
                    _ => None,
                };
                match name {
                    Some(n) => a.load_behavior = Some(n.to_string()),
                    None => {
                        let r = self.with_key(k, |this| {
                            this.report(
                                T::ReadField,
                                O::Unsupported,
                                "The asset's load behavior is a name (PreLoad, QueueLoad, \
                                 NoLoad) or its value (0, 1, 2).",
                            )
                        });
                        result.combine(r);
                    }
                }
            }
        }
        match m.get_key_value("assetHint") {
            Some((k, v)) => {
                // The hint is read afresh: `{}` leaves it empty.
                let mut hint = String::new();
                let r = self.with_key(k, |this| {
                    this.load_part(
                        &TypeExpr::String,
                        v,
                        &mut hint,
                        Value::String,
                        |v| match v {
                            Value::String(s) => Some(s),
                            _ => None,
                        },
                    )
                });
                a.hint = hint;
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
    pub(super) fn load_asset_id(&mut self, json: &'j Json, id: &mut AssetRef) -> Code {
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
            let r = self.with_key(k, |this| {
                let r = if k.eq_ignore_ascii_case("guid") {
                    this.load_part(&TypeExpr::Uuid, v, &mut id.guid, Value::Uuid, |v| match v {
                        Value::Uuid(u) => Some(u),
                        _ => None,
                    })
                } else if k.eq_ignore_ascii_case("subId") {
                    let wrap = |n: u32| Value::UInt(n as u64);
                    this.load_part(&TypeExpr::U32, v, &mut id.sub_id, wrap, |v| match v {
                        Value::UInt(n) => Some(n as u32),
                        _ => None,
                    })
                } else {
                    let c = this.report(
                        T::ReadField,
                        O::Skipped,
                        "Skipping field as there's no matching variable in the target.",
                    );
                    ret.combine(c);
                    return None;
                };
                ret.combine(r);
                Some(r)
            });
            if let Some(r) = r {
                if r.halted() {
                    return self.code(r, "Loading of element has failed.");
                } else if r.processing() != Processing::Altered {
                    loads += 1;
                }
            }
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
