//! Keeping what a typed load did not take: members written as they were.
//!
//! A typed load takes what its registry describes. A member no class declares is
//! skipped (`Skipped`), and a value the load could not read (`Unsupported`,
//! `TypeMismatch`, ...) leaves the typed value as it was, so a store of the loaded value
//! would lose both. [`keep_as_written`] puts them back into the stored JSON, each at its
//! place, exactly as the input wrote them, and says which it kept and which (if any) it
//! could not place: nothing is dropped without being named.
//!
//! The place of a member in the stored JSON is found by walking the type: a class's
//! member by its field name (O3DE's case-insensitive lookup), a pointer's by its
//! `$type`, a sequence's element by its index when the stored sequence has the input's
//! length. Where an issue lies inside a value whose stored form does not line up with
//! the input (a set or a map, whose elements a store sorts; a math value; an asset; an
//! `any`), that whole value is kept as written.

use crate::load::{Loader, TypeFound};
use crate::registry::Registry;
use crate::report::{Issue, Outcome, Processing};
use crate::types::TypeExpr;
use crate::LoadOptions;
use serde_json::Value as Json;

/// A member (or value) kept as the input wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptMember {
    /// JSON Pointer to it, from the value's root (the stored JSON's spelling of member names).
    pub path: String,
    /// Why the typed form did not hold it (the load's message).
    pub why: String,
}

/// What [`keep_as_written`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kept {
    /// Members and values put back as written.
    pub kept: Vec<KeptMember>,
    /// Members the load did not take that could not be put back (their place in the
    /// stored JSON was not found): lost from the stored JSON. A caller must not call
    /// such a store complete.
    pub lost: Vec<KeptMember>,
}

/// True for an issue where the load did not take the input: a member skipped, or a
/// value whose load failed (its own failure, not a container's summary of a child's).
pub fn not_taken(i: &Issue) -> bool {
    i.code.outcome() == Outcome::Skipped
        || matches!(
            i.code.processing(),
            Processing::Altered | Processing::Halted
        )
}

/// The segments of a JSON Pointer, unescaped.
fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// Puts back into `stored` (the store of the value loaded from `input` as `ty`) every
/// member or value the load's `issues` say it did not take, as `input` wrote it.
pub fn keep_as_written(
    reg: &Registry,
    ty: &TypeExpr,
    input: &Json,
    stored: &mut Json,
    issues: &[Issue],
) -> Kept {
    let mut paths: Vec<(&str, &str)> = issues
        .iter()
        .filter(|i| not_taken(i))
        .map(|i| (i.path.as_str(), i.message.as_str()))
        .collect();
    paths.sort_by(|a, b| a.0.cmp(b.0));
    paths.dedup_by(|a, b| a.0 == b.0);
    let mut out = Kept::default();
    let mut done: Vec<String> = Vec::new();
    for (path, why) in paths {
        // Inside a value already kept whole: nothing more to do.
        if done
            .iter()
            .any(|d| path == d || path.starts_with(&format!("{d}/")) || d.is_empty())
        {
            continue;
        }
        let segs = segments(path);
        let mut placer = Placer {
            reg,
            placed: String::new(),
        };
        match placer.place(ty, input, stored, &segs, 0) {
            Ok(()) => {
                done.push(placer.placed.clone());
                out.kept.push(KeptMember {
                    path: placer.placed,
                    why: why.to_string(),
                });
            }
            Err(e) => out.lost.push(KeptMember {
                path: path.to_string(),
                why: format!("{why} It could not be kept: {e}."),
            }),
        }
    }
    out
}

struct Placer<'r> {
    reg: &'r Registry,
    /// The pointer (stored spelling) of the value being placed so far.
    placed: String,
}

impl Placer<'_> {
    fn push(&mut self, seg: &str) {
        self.placed.push('/');
        self.placed.push_str(&escape(seg));
    }

    fn place(
        &mut self,
        ty: &TypeExpr,
        input: &Json,
        out: &mut Json,
        segs: &[String],
        depth: usize,
    ) -> Result<(), String> {
        if segs.is_empty() || depth > 256 {
            *out = input.clone();
            return Ok(());
        }
        use TypeExpr as X;
        match ty {
            X::Pointer(inner) | X::UniquePtr(inner) | X::SharedPtr(inner) => {
                let actual = match input.get("$type") {
                    Some(Json::String(s)) => {
                        let opts = LoadOptions::default();
                        match Loader::new(self.reg, &opts).type_from_string(s, Some(inner)) {
                            TypeFound::Explicit(t) => t,
                            _ => {
                                *out = input.clone();
                                return Ok(());
                            }
                        }
                    }
                    _ => (**inner).clone(),
                };
                if matches!(actual, X::Pointer(_) | X::UniquePtr(_) | X::SharedPtr(_)) {
                    *out = input.clone();
                    return Ok(());
                }
                self.place(&actual, input, out, segs, depth + 1)
            }
            X::Class(c) => {
                let Json::Object(inp) = input else {
                    return Err("the input here is not an object".into());
                };
                let key = &segs[0];
                let Some(val) = inp.get(key) else {
                    return Err(format!("the input has no member '{key}'"));
                };
                let class = &self.reg.classes[*c];
                let field = class.fields.iter().find(|f| f.name == *key).or_else(|| {
                    class
                        .fields
                        .iter()
                        .find(|f| f.name.eq_ignore_ascii_case(key))
                });
                if !out.is_object() {
                    *out = Json::Object(Default::default());
                }
                let Json::Object(o) = out else {
                    return Err("the stored value is not an object".into());
                };
                match field {
                    // A member no field declares: kept under its own name.
                    None => {
                        self.push(key);
                        o.insert(key.clone(), val.clone());
                        Ok(())
                    }
                    Some(f) => {
                        self.push(&f.name);
                        match o.get_mut(&f.name) {
                            Some(slot) => self.place(&f.ty, val, slot, &segs[1..], depth + 1),
                            None => {
                                o.insert(f.name.clone(), val.clone());
                                Ok(())
                            }
                        }
                    }
                }
            }
            X::Vector(e) | X::List(e) | X::FixedVector(e, _) | X::Array(e, _) => {
                self.element(std::slice::from_ref(&**e), input, out, segs, depth)
            }
            X::Pair(a, b) => {
                let tys = [(**a).clone(), (**b).clone()];
                self.element(&tys, input, out, segs, depth)
            }
            X::Tuple(ts) => self.element(ts, input, out, segs, depth),
            // Sets and maps (sorted by a store), math values, assets, `any`, scalars:
            // the whole value is kept as written.
            _ => {
                *out = input.clone();
                Ok(())
            }
        }
    }

    /// An element of a sequence (`tys` holds one type) or of a tuple (one per element).
    fn element(
        &mut self,
        tys: &[TypeExpr],
        input: &Json,
        out: &mut Json,
        segs: &[String],
        depth: usize,
    ) -> Result<(), String> {
        let (Json::Array(inp), Json::Array(o)) = (input, &mut *out) else {
            *out = input.clone();
            return Ok(());
        };
        let index = segs[0].parse::<usize>().ok();
        match index {
            Some(i) if inp.len() == o.len() && i < inp.len() && !tys.is_empty() => {
                let ty = if tys.len() == 1 {
                    &tys[0]
                } else {
                    &tys[i.min(tys.len() - 1)]
                };
                self.push(&segs[0]);
                let (val, slot) = (&inp[i], &mut o[i]);
                self.place(ty, val, slot, &segs[1..], depth + 1)
            }
            _ => {
                *out = input.clone();
                Ok(())
            }
        }
    }
}

/// The canonical JSON of a value of `ty` loaded from `input`, given its `stored` JSON,
/// where the registry does not know some classes' defaults
/// ([`crate::registry::Class::defaults_known`] false, as for classes imported from the
/// engine's dumps). A store compares a value with its default to leave it out, and a
/// value read onto an unknown default (a color given three channels, a transform given
/// its translation, a map entry) holds parts the input never gave. So inside such a
/// class: a member the input left out stays out (O3DE's own default applies to it); a
/// scalar member (numbers, strings, booleans, UUIDs, entity ids, enums) is written in
/// its stored form, coerced as O3DE's store writes it; a class, a pointer's class and
/// the elements of a sequence of the input's length follow the same rule; any other
/// value (math types, colors, transforms, assets, maps, sets, `any`) is kept exactly as
/// the input wrote it. Classes whose defaults are known keep their stored form.
pub fn canonical_with_unknown_defaults(
    reg: &Registry,
    ty: &TypeExpr,
    input: &Json,
    stored: Json,
) -> Json {
    canon(reg, ty, input, Some(stored), false, 0).unwrap_or_else(|| input.clone())
}

fn is_scalar(ty: &TypeExpr) -> bool {
    use TypeExpr as X;
    matches!(
        ty,
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
            | X::String
            | X::Uuid
            | X::EntityId
            | X::Enum(_)
    )
}

fn canon(
    reg: &Registry,
    ty: &TypeExpr,
    input: &Json,
    stored: Option<Json>,
    unknown: bool,
    depth: usize,
) -> Option<Json> {
    use TypeExpr as X;
    if depth > 256 {
        return stored;
    }
    match ty {
        X::Pointer(inner) | X::UniquePtr(inner) | X::SharedPtr(inner) => {
            let actual = match input.get("$type") {
                Some(Json::String(s)) => {
                    let opts = LoadOptions::default();
                    match Loader::new(reg, &opts).type_from_string(s, Some(inner)) {
                        TypeFound::Explicit(t) => t,
                        _ => return if unknown { Some(input.clone()) } else { stored },
                    }
                }
                _ => (**inner).clone(),
            };
            if matches!(actual, X::Pointer(_) | X::UniquePtr(_) | X::SharedPtr(_)) {
                return if unknown { Some(input.clone()) } else { stored };
            }
            canon(reg, &actual, input, stored, unknown, depth + 1)
        }
        X::Class(c) => {
            let class = &reg.classes[*c];
            let unknown = unknown || !class.defaults_known;
            let Json::Object(inp) = input else {
                return if unknown { Some(input.clone()) } else { stored };
            };
            let mut st = match stored {
                Some(Json::Object(m)) => m,
                Some(other) if !unknown => return Some(other),
                _ => Default::default(),
            };
            let field_of = |k: &str| {
                class
                    .fields
                    .iter()
                    .find(|f| f.name == k)
                    .or_else(|| class.fields.iter().find(|f| f.name.eq_ignore_ascii_case(k)))
            };
            if !unknown {
                // The stored form stands; classes inside it may still be unknown ones.
                for (k, v) in inp {
                    if let Some(f) = field_of(k) {
                        if let Some(slot) = st.get_mut(&f.name) {
                            let sv = std::mem::take(slot);
                            if let Some(j) = canon(reg, &f.ty, v, Some(sv), false, depth + 1) {
                                *slot = j;
                            }
                        }
                    }
                }
                return Some(Json::Object(st));
            }
            let mut out = serde_json::Map::new();
            if let Some(t) = st.get("$type") {
                out.insert("$type".into(), t.clone());
            }
            for (k, v) in inp {
                if k == "$type" {
                    if !out.contains_key("$type") {
                        out.insert(k.clone(), v.clone());
                    }
                    continue;
                }
                match field_of(k) {
                    None => {
                        out.insert(k.clone(), v.clone());
                    }
                    Some(f) => {
                        let sv = st.remove(&f.name);
                        let j =
                            canon(reg, &f.ty, v, sv, true, depth + 1).unwrap_or_else(|| v.clone());
                        out.insert(f.name.clone(), j);
                    }
                }
            }
            Some(Json::Object(out))
        }
        _ if !unknown => stored,
        t if is_scalar(t) => Some(stored.unwrap_or_else(|| input.clone())),
        X::Vector(e) | X::List(e) | X::FixedVector(e, _) | X::Array(e, _) => {
            match (input, stored) {
                (Json::Array(inp), Some(Json::Array(st))) if inp.len() == st.len() => {
                    Some(Json::Array(
                        inp.iter()
                            .zip(st)
                            .map(|(i, s)| {
                                canon(reg, e, i, Some(s), true, depth + 1)
                                    .unwrap_or_else(|| i.clone())
                            })
                            .collect(),
                    ))
                }
                _ => Some(input.clone()),
            }
        }
        _ => Some(input.clone()),
    }
}
