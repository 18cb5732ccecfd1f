//! Where a value's bytes are in a bean read with its schema: the byte range of the value
//! at a JSON Pointer of the typed JSON ([`crate::schema::Schema::decode`],
//! [`crate::schema_view::SchemaView`]: variables by name, lists as arrays, maps with
//! text keys as objects and others as `[key, value]` pairs, dynamic beans as
//! `{"type_id", "bean", "value"}`, vectors as arrays).
//!
//! The same walk as the schema-less spans (the one grammar, values before the path
//! stepped over, nothing built), led by the schema: a name is looked up among the
//! bean's levels and found by its field id on its level. A variable absent from the
//! bytes is shown with its default by the typed JSON: it has no bytes (`Ok(None)`), nor
//! does anything inside it, nor a vector component the bytes do not hold (a `vector3`
//! read from a `vector2`). Fields the schema does not declare (`"_unknown"`,
//! `"_unknown1"`... by level) are schema-less inside ([`super::bean_span`]'s keys).
//! A dynamic bean's `"type_id"` is its id's bytes; `"bean"`, named from that id, spans
//! the id too, marked not its own.

use super::{err, in_bean, in_value, index, missing, own, Span};
use crate::cursor::Cursor;
use crate::decode::{skip_bean, skip_value, Options};
use crate::schema::{map_key_is_text, unknown_key, Schema, Type};
use crate::value::WireType;
use crate::walk::grammar::{list_header, map_header, tag};
use crate::walk::Tag;
use serde_json::Value as J;

/// The span of the value at JSON Pointer tokens `toks` of the typed JSON of the bean
/// `bean` (full or unique short name) that fills `data`: `Ok(None)` for a value the
/// bytes do not hold (an absent variable, shown with its default). Errors name the
/// pointer that is not there, or the byte offset where the bytes do not read.
pub fn typed_bean_span(
    schema: &Schema,
    bean: &str,
    data: &[u8],
    toks: &[String],
    opts: &Options,
) -> Result<Option<Span>, String> {
    let name = schema.bean(bean).map_err(err)?.name.clone();
    let mut c = Cursor::new(data);
    Walk { schema, opts }
        .bean(&mut c, &name, toks, 0)
        .map_err(|e| missing(toks, e))
}

/// The span inside bean `name` (full or unique short name) whose fields start at `c`
/// (a typed frame's body).
pub(super) fn bean_at(
    schema: &Schema,
    name: &str,
    c: &mut Cursor<'_>,
    toks: &[String],
    opts: &Options,
) -> Result<Option<Span>, String> {
    let name = schema.bean(name).map_err(err)?.name.clone();
    Walk { schema, opts }.bean(c, &name, toks, 0)
}

/// The schema and options of one walk.
struct Walk<'s> {
    schema: &'s Schema,
    opts: &'s Options,
}

impl Walk<'_> {
    /// The span inside bean `name` whose fields start at `c`.
    fn bean(
        &self,
        c: &mut Cursor<'_>,
        name: &str,
        toks: &[String],
        depth: usize,
    ) -> Result<Option<Span>, String> {
        let start = c.offset();
        let Some(key) = toks.first() else {
            skip_bean(c, self.opts, depth).map_err(err)?;
            return Ok(Some(own(start..c.offset())));
        };
        let rest = &toks[1..];
        let levels = self.schema.levels(name).map_err(err)?;
        // The variable's (level, id, type), or the level whose unknown fields it names.
        let var = levels.iter().enumerate().find_map(|(li, l)| {
            l.vars
                .iter()
                .find(|v| v.name == *key)
                .map(|v| (li, v.id, &v.ty))
        });
        let unknown = (0..levels.len()).find(|&li| unknown_key(li) == *key);
        if var.is_none() && unknown.is_none() {
            return Err(format!("the bean {name} has no variable {key:?}"));
        }
        // An unknown field is named by its id, under its level's key.
        let unknown_id: Option<u32> = match (unknown, rest.first()) {
            (Some(_), Some(id)) => Some(
                id.parse()
                    .map_err(|_| format!("unknown fields are keyed by their id, not {id:?}"))?,
            ),
            // The unknown fields together are not one run of bytes.
            (Some(_), None) => return Ok(None),
            _ => None,
        };
        let mut li = 0;
        let mut last = 0;
        loop {
            match tag(c, last).map_err(err)? {
                Tag::End => return Ok(None),
                Tag::Level if li + 1 < levels.len() => {
                    li += 1;
                    last = 0;
                }
                // Past the last level Zeze skips the rest: it is not in the JSON.
                Tag::Level => return Ok(None),
                Tag::Field { id, wire } => {
                    last = id;
                    if let Some((_, _, ty)) = var.filter(|&(l, i, _)| l == li && i == id) {
                        return self.value(c, ty, wire, rest, depth + 1);
                    }
                    let declared = levels[li].vars.iter().any(|v| v.id == id);
                    if unknown == Some(li) && !declared && unknown_id == Some(id) {
                        return in_value(c, wire, &rest[1..], false, self.opts, depth + 1)
                            .map(Some);
                    }
                    skip_value(c, wire, self.opts, depth + 1).map_err(err)?;
                }
            }
        }
    }

    /// The span inside a value of type `ty` read from wire type `wire` at `c`.
    fn value(
        &self,
        c: &mut Cursor<'_>,
        ty: &Type,
        wire: WireType,
        toks: &[String],
        depth: usize,
    ) -> Result<Option<Span>, String> {
        let start = c.offset();
        let Some(first) = toks.first() else {
            skip_value(c, wire, self.opts, depth).map_err(err)?;
            return Ok(Some(own(start..c.offset())));
        };
        let rest = &toks[1..];
        let opts = self.opts;
        match (ty, wire) {
            (Type::List(e) | Type::Set(e), WireType::List) => {
                let (ew, n) = list_header(c).map_err(err)?;
                let i = index(first, n)?;
                for _ in 0..i {
                    skip_value(c, ew, opts, depth).map_err(err)?;
                }
                self.value(c, e, ew, rest, depth + 1)
            }
            (Type::Map(k, v), WireType::Map) => {
                let (kw, vw, n) = map_header(c).map_err(err)?;
                if map_key_is_text(k) {
                    // A key read twice keeps its last value, as in the JSON.
                    let mut found = None;
                    let mut budget = u64::MAX;
                    for _ in 0..n {
                        let at = c.offset();
                        let key = self
                            .schema
                            .read_typed(c, k, kw, at, opts, depth + 1, &mut budget)
                            .map_err(err)?;
                        let key = match key {
                            J::String(s) => s,
                            other => other.to_string(),
                        };
                        if key == *first {
                            found = Some(c.clone());
                        }
                        skip_value(c, vw, opts, depth + 1).map_err(err)?;
                    }
                    let mut at = found.ok_or_else(|| format!("the map has no key {first:?}"))?;
                    return self.value(&mut at, v, vw, rest, depth + 1);
                }
                let i = index(first, n)?;
                for _ in 0..i {
                    skip_value(c, kw, opts, depth + 1).map_err(err)?;
                    skip_value(c, vw, opts, depth + 1).map_err(err)?;
                }
                let s = c.offset();
                match rest {
                    [] => {
                        skip_value(c, kw, opts, depth + 1).map_err(err)?;
                        skip_value(c, vw, opts, depth + 1).map_err(err)?;
                        Ok(Some(own(s..c.offset())))
                    }
                    [j, more @ ..] if j == "0" => self.value(c, k, kw, more, depth + 1),
                    [j, more @ ..] if j == "1" => {
                        skip_value(c, kw, opts, depth + 1).map_err(err)?;
                        self.value(c, v, vw, more, depth + 1)
                    }
                    _ => Err("an entry is [key, value]: 0 or 1".into()),
                }
            }
            (Type::Bean(n), WireType::Bean) => self.bean(c, n, toks, depth),
            (Type::Bean(n), WireType::Dynamic) => {
                c.skip_long().map_err(err)?;
                self.bean(c, n, toks, depth)
            }
            (Type::Dynamic(ids), WireType::Dynamic | WireType::Bean) => {
                let type_id = match wire {
                    WireType::Dynamic => c.long().map_err(err)?,
                    _ => 0,
                };
                let id = start..c.offset();
                let known = ids.iter().find(|(i, _)| *i == type_id);
                match (first.as_str(), rest) {
                    ("type_id", []) => Ok((!id.is_empty()).then(|| own(id))),
                    ("bean", []) if known.is_some() => Ok((!id.is_empty()).then_some(Span {
                        range: id,
                        own: false,
                    })),
                    ("value", rest) => match known {
                        Some((_, name)) => self.bean(c, name, rest, depth),
                        None => in_bean(c, rest, opts, depth).map(Some),
                    },
                    _ => Err(format!(
                        "a dynamic bean holds \"type_id\", \"bean\" and \"value\", not {first:?}"
                    )),
                }
            }
            (
                Type::Vector2
                | Type::Vector2Int
                | Type::Vector3
                | Type::Vector3Int
                | Type::Vector4
                | Type::Quaternion,
                _,
            ) if rest.is_empty() => {
                let dims = match ty {
                    Type::Vector2 | Type::Vector2Int => 2,
                    Type::Vector3 | Type::Vector3Int => 3,
                    _ => 4,
                };
                let i = index(first, dims)?;
                // The components the bytes hold, and how each is read.
                let (held, read): (usize, fn(&mut Cursor<'_>) -> gamewire_core::Result<()>) =
                    match wire {
                        WireType::Vector2 => (2, |c| c.f32().map(drop)),
                        WireType::Vector3 => (3, |c| c.f32().map(drop)),
                        WireType::Vector4 => (4, |c| c.f32().map(drop)),
                        WireType::Vector2Int => (2, |c| c.skip_long()),
                        WireType::Vector3Int => (3, |c| c.skip_long()),
                        WireType::Float => (1, |c| c.f32().map(drop)),
                        WireType::Double => (1, |c| c.f64().map(drop)),
                        WireType::Integer => (1, |c| c.skip_long()),
                        w => return Err(format!("a vector is not read from wire type {w}")),
                    };
                if i >= held {
                    return Ok(None);
                }
                for _ in 0..i {
                    read(c).map_err(err)?;
                }
                let s = c.offset();
                read(c).map_err(err)?;
                Ok(Some(own(s..c.offset())))
            }
            _ => Err(format!("a {} value holds no {first:?}", wire.name())),
        }
    }
}
