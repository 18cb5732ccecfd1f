//! Containers: sequences, sets, fixed arrays, maps, pairs and tuples.

use super::*;

/// A map being loaded: entries in arrival order and an index from key to entry.
pub(crate) struct MapBuild {
    entries: Vec<(Value, Value)>,
    index: KeyIndex,
}

impl<'j> Loader<'_, 'j> {
    pub(super) fn load_seq(
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
        refill(
            out,
            seq_of,
            |seq| self.load_seq_into(elem, capacity, is_set, arr, seq),
            Value::Seq,
        )
    }

    pub(super) fn load_seq_into(
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
            let step = self.at(Seg::Index(i), |this| {
                if capacity.is_some_and(|c| seq.len() + 1 > c) {
                    let c = this.report(
                        T::ReadField,
                        O::Skipped,
                        "Unable to load more entries in basic container because it's full.",
                    );
                    ret.combine(c);
                    return Step::Stop;
                }
                let mut v = this.reg.zero(elem);
                let r = this.load(elem, item, &mut v, true);
                if r.halted() {
                    return Step::Fail;
                } else if r.processing() == Processing::Altered {
                    ret.combine(r);
                } else if is_set && index.find(&v, seq.len(), |i| &seq[i]).is_some() {
                    let c = this.report(
                        T::ReadField,
                        O::Unavailable,
                        "Unable to store element to basic container.",
                    );
                    ret.combine(c);
                } else {
                    if is_set {
                        index.insert(&v, seq.len());
                    }
                    seq.push(v);
                    ret.combine(r);
                }
                Step::Next
            });
            match step {
                Step::Next => {}
                Step::Stop => break,
                // O3DE returns the container's result so far here.
                Step::Fail => return self.code(ret, "Failed to read element for basic container."),
            }
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
    pub(super) fn load_array(
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
        let halted = refill(
            out,
            seq_of,
            |seq| {
                for (i, (item, slot)) in arr.iter_mut().zip(seq.iter_mut()).enumerate() {
                    let r = self.with_index(i, |this| this.load(elem, item, slot, false));
                    if r.halted() {
                        return Some(r);
                    }
                    ret.combine(r);
                }
                None
            },
            Value::Seq,
        );
        if let Some(r) = halted {
            return self.code(r, "Failed to load data to element in AZStd::array.");
        }
        if extra {
            ret.combine(ResultCode::new(T::ReadField, O::Skipped));
        }
        ret
    }

    pub(super) fn load_map(
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
        refill(
            out,
            map_of,
            |map| self.load_map_into(kty, vty, multi, json, map),
            Value::Map,
        )
    }

    pub(super) fn load_map_into(
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
    pub(super) fn load_map_entries(
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
                    let r = self.at(Seg::Index(i), |this| match item {
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
                                this.load_multi_entry(kty, vty, key, val, out)
                            } else {
                                let key_loader = |this: &mut Self, key_out: &mut Value| match key {
                                    Some(k) => this.load(kty, k, key_out, true),
                                    None => this.load_from_temp(
                                        kty,
                                        Json::Object(serde_json::Map::new()),
                                        key_out,
                                    ),
                                };
                                this.load_map_value(kty, vty, multi, key_loader, val, out)
                            }
                        }
                        _ => this.report(
                            T::ReadField,
                            O::Unsupported,
                            "Unsupported type for elements in an associative container. If the array for is used, an object with \"Key\" and \"Value\" is expected",
                        ),
                    });
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
    pub(super) fn load_multi_entry(
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
    pub(super) fn map_members(
        &mut self,
        kty: &TypeExpr,
        vty: &TypeExpr,
        multi: bool,
        members: impl Iterator<Item = (&'j str, &'j mut Json)>,
        out: &mut MapBuild,
        ret: &mut Code,
    ) -> Option<Code> {
        for (k, v) in members {
            let r = self.with_key(k, |this| {
                this.load_map_entry_from_name(kty, vty, multi, k, v, out)
            });
            if r.halted() {
                return Some(r);
            }
            ret.combine(r);
        }
        None
    }

    pub(super) fn load_map_entry_from_name(
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
    pub(super) fn load_from_temp(&mut self, ty: &TypeExpr, json: Json, out: &mut Value) -> Code {
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

    pub(super) fn load_map_value(
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
            Some(i) => (load_value(self, &mut map.entries[i].1), None),
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

    pub(super) fn load_tuple(
        &mut self,
        tys: &[TypeExpr],
        json: &'j mut Json,
        out: &mut Value,
    ) -> Code {
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
        let mut written = 0;
        let failed = refill(
            out,
            items_of,
            |slots| {
                let mut items = arr.iter_mut();
                for (i, (ty, slot)) in tys.iter().zip(slots.iter_mut()).enumerate() {
                    let step = self.at(Seg::Index(i), |this| {
                        // An element that could not be stored moves on to the next JSON entry.
                        for item in items.by_ref() {
                            let r = this.load(ty, item, slot, false);
                            ret.combine(r);
                            if r.halted() {
                                return Step::Fail;
                            } else if r.processing() != Processing::Altered {
                                written += 1;
                                break;
                            }
                        }
                        Step::Next
                    });
                    if let Step::Fail = step {
                        return true;
                    }
                }
                false
            },
            Value::Tuple,
        );
        if failed {
            return self.code(
                ret,
                "Failed to read element for AZStd::pair or AZStd::tuple.",
            );
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
}
