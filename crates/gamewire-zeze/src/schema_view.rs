//! A schema decode written straight to a JSON serializer: [`SchemaView`] reads the bytes
//! with the solution's types and writes the very text that serializing
//! [`Schema::decode`]'s `serde_json` value gives, without building that value. Defaults
//! of absent variables are written as they are reached (never built), so the memory is
//! that of the decoder's state, not of the JSON: a list of empty beans of many variables
//! costs next to nothing however many defaults it prints.
//!
//! [`SchemaView::new`] first walks the whole input writing nowhere, which finds every
//! error (the same error, offset and path as [`Schema::decode`]) before any text is
//! written; serializing the view then walks it again for the text.
//!
//! Two rare shapes are handled apart: a map with text keys that repeats a key (JSON keeps
//! one member, at the first key's place, with the last value) is written in two steps,
//! keys first; a bean whose levels declare one name twice, or a variable named like
//! `_unknown`, goes through [`Schema::decode`]'s value (their members merge).

use crate::cursor::Cursor;
use crate::decode::Options;
use crate::decode::{read_bean, read_value, skip_bean, skip_value};
use crate::json_view::{BeanView, ValueView};
use crate::schema::{map_key_is_text, unknown_key, BeanDef, Schema, Type};
use crate::value::WireType;
use crate::walk::grammar::{depth_error, list_header, map_header, tag, Tag};
use gamewire_core::{Error, ErrorKind, Result};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value as J;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

/// A bean decoded with a schema, as JSON text: serialize it (with `serde_json`) to write
/// the text [`Schema::decode`] gives.
pub struct SchemaView<'a> {
    walk: Walk<'a>,
    bean: String,
}

impl<'a> SchemaView<'a> {
    /// Checks that `data` holds one bean `name` (full or unique short name), as
    /// [`Schema::decode`] does, with its errors; the view then writes its JSON.
    pub fn new(schema: &'a Schema, name: &str, data: &'a [u8], opts: &Options) -> Result<Self> {
        let bean = schema.bean(name)?.name.clone();
        let walk = Walk {
            schema,
            data,
            opts: *opts,
            pos: Cell::new(0),
            budget: Cell::new(crate::schema::default_budget(data.len())),
            checking: Cell::new(true),
            err: RefCell::new(None),
            repeated_keys: RefCell::new(HashSet::new()),
            info: RefCell::new(HashMap::new()),
        };
        let r = serde_json::to_writer(std::io::sink(), &Root(&walk, &bean));
        if let Err(e) = r {
            return Err(walk.take_err(e));
        }
        let end = walk.pos.get();
        if end != data.len() {
            return Err(Error::at(
                end,
                ErrorKind::TrailingBytes {
                    count: data.len() - end,
                },
            ));
        }
        Ok(SchemaView { walk, bean })
    }
}

impl Serialize for SchemaView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let w = &self.walk;
        w.pos.set(0);
        w.budget.set(u64::MAX);
        w.checking.set(false);
        Root(w, &self.bean).serialize(s)
    }
}

/// What a bean's levels need: whether they go through the value (a repeated name or an
/// `_unknown...` name), and the values its default holds.
#[derive(Clone, Copy)]
struct Info {
    merged: bool,
    cost: u64,
}

/// The walk over the bytes, shared by the views of its parts.
struct Walk<'a> {
    schema: &'a Schema,
    data: &'a [u8],
    opts: Options,
    /// The next byte to read.
    pos: Cell<usize>,
    /// Defaults left to fill (as [`Schema::decode`] counts them).
    budget: Cell<u64>,
    /// The first walk: writes nowhere, finds errors and maps that repeat a key.
    checking: Cell<bool>,
    /// The error that stopped the walk, with its path.
    err: RefCell<Option<Error>>,
    /// Maps (by the offset of their header) that repeat a key.
    repeated_keys: RefCell<HashSet<usize>>,
    info: RefCell<HashMap<String, Info>>,
}

type SResult<S> = std::result::Result<<S as Serializer>::Ok, <S as Serializer>::Error>;

impl<'a> Walk<'a> {
    fn cursor(&self) -> Cursor<'a> {
        let p = self.pos.get();
        Cursor::with_base(&self.data[p..], p)
    }

    /// Options for skipping what the first walk read: its depth limit counts levels as
    /// the schema-less reader does, so it gets room (the first walk held the limit).
    fn skip_opts(&self) -> Options {
        Options {
            max_depth: self.opts.max_depth.saturating_mul(2).saturating_add(16),
        }
    }

    fn fail<E: serde::ser::Error>(&self, e: Error) -> E {
        let msg = e.to_string();
        *self.err.borrow_mut() = Some(e);
        E::custom(msg)
    }

    /// Adds to the path of the error that `r` carries.
    fn note<T, E>(
        &self,
        r: std::result::Result<T, E>,
        f: impl FnOnce(Error) -> Error,
    ) -> std::result::Result<T, E> {
        if r.is_err() {
            let mut g = self.err.borrow_mut();
            if let Some(e) = g.take() {
                *g = Some(f(e));
            }
        }
        r
    }

    fn take_err(&self, e: serde_json::Error) -> Error {
        self.err
            .borrow_mut()
            .take()
            .unwrap_or_else(|| Error::msg(e.to_string()))
    }

    fn info(&self, name: &str, levels: &[&BeanDef]) -> Info {
        if let Some(i) = self.info.borrow().get(name) {
            return *i;
        }
        let mut names = HashSet::new();
        let merged = levels
            .iter()
            .flat_map(|l| &l.vars)
            .any(|v| v.name.starts_with("_unknown") || !names.insert(v.name.as_str()));
        let cost = levels
            .iter()
            .flat_map(|l| &l.vars)
            .fold(0u64, |n, v| n.saturating_add(self.default_cost(&v.ty)));
        let i = Info { merged, cost };
        self.info.borrow_mut().insert(name.to_owned(), i);
        i
    }

    /// The values the default of `ty` holds (one per variable, beans expanded).
    fn default_cost(&self, ty: &Type) -> u64 {
        match ty {
            Type::Bean(n) => match self.schema.levels(n) {
                Ok(levels) => 1u64.saturating_add(self.info(n, &levels).cost),
                Err(_) => 1,
            },
            _ => 1,
        }
    }

    fn bad(&self, at: usize, what: &str, w: WireType) -> Error {
        Error::unexpected_at(
            at,
            format!("a value Zeze reads as {what}"),
            format!("wire type {w}"),
        )
    }

    /// Writes bean `name` read at the current position.
    fn bean<S: Serializer>(&self, s: S, name: &str, depth: usize) -> SResult<S> {
        let start = self.pos.get();
        if depth >= self.opts.max_depth {
            return Err(self.fail(depth_error(start, &self.opts)));
        }
        let levels = self.schema.levels(name).map_err(|e| self.fail(e))?;
        let info = self.info(name, &levels);
        if info.merged {
            let mut c = self.cursor();
            let mut budget = self.budget.get();
            let j = self
                .schema
                .read_bean_in(&mut c, name, &self.opts, depth, &mut budget)
                .map_err(|e| self.fail(e))?;
            self.budget.set(budget);
            self.pos.set(c.offset());
            return j.serialize(s);
        }
        let budget = self.budget.get();
        if budget < info.cost {
            return Err(self.fail(Error::msg(DEFAULTS_PAST_LIMIT).or_offset(start)));
        }
        self.budget.set(budget - info.cost);
        let mut m = s.serialize_map(None)?;
        let mut tags = Tags {
            li: 0,
            id: 0,
            levels: levels.len(),
        };
        // Fields the schema does not declare: (level, id, value offset, wire type).
        let mut unknown: Vec<(usize, u32, usize, WireType)> = Vec::new();
        let mut next = tags.next(self, depth).map_err(|e| self.fail(e))?;
        for (li, l) in levels.iter().enumerate() {
            for v in &l.vars {
                loop {
                    match next {
                        Some(f) if f.li < li || (f.li == li && f.id < v.id) => {
                            self.unknown(&mut unknown, f, depth)?;
                            next = tags.next(self, depth).map_err(|e| self.fail(e))?;
                        }
                        Some(f) if f.li == li && f.id == v.id => {
                            let r = m.serialize_entry(
                                &v.name,
                                &Typed {
                                    walk: self,
                                    ty: &v.ty,
                                    w: f.w,
                                    at: Some(f.at),
                                    depth: depth + 1,
                                },
                            );
                            self.note(r, |e| e.in_key(v.name.clone()))?;
                            next = tags.next(self, depth).map_err(|e| self.fail(e))?;
                            break;
                        }
                        _ => {
                            m.serialize_entry(&v.name, &Default(self, &v.ty))?;
                            break;
                        }
                    }
                }
            }
        }
        while let Some(f) = next {
            self.unknown(&mut unknown, f, depth)?;
            next = tags.next(self, depth).map_err(|e| self.fail(e))?;
        }
        let end = self.pos.get();
        let mut rest = unknown.as_slice();
        while let Some(first) = rest.first() {
            let n = rest.iter().take_while(|u| u.0 == first.0).count();
            m.serialize_entry(
                &unknown_key(first.0),
                &Unknown {
                    walk: self,
                    fields: &rest[..n],
                    depth,
                },
            )?;
            rest = &rest[n..];
        }
        self.pos.set(end);
        m.end()
    }

    /// Passes over a field the schema does not declare (read, for its errors, on the
    /// first walk) and notes it to write at the end of its bean.
    fn unknown<E: serde::ser::Error>(
        &self,
        out: &mut Vec<(usize, u32, usize, WireType)>,
        f: FieldTag,
        depth: usize,
    ) -> std::result::Result<(), E> {
        let mut c = self.cursor();
        let at = c.offset();
        let r = if self.checking.get() {
            read_value(&mut c, f.w, &self.opts, depth + 1).map(drop)
        } else {
            skip_value(&mut c, f.w, &self.skip_opts(), depth + 1)
        };
        r.map_err(|e| self.fail(e.in_key(f.id.to_string())))?;
        self.pos.set(c.offset());
        out.push((f.li, f.id, at, f.w));
        Ok(())
    }

    /// Writes a value of type `ty` and wire type `w` at the current position.
    fn typed<S: Serializer>(
        &self,
        s: S,
        ty: &Type,
        w: WireType,
        at: usize,
        depth: usize,
    ) -> SResult<S> {
        match ty {
            Type::List(e) | Type::Set(e) => {
                if w != WireType::List {
                    return Err(self.fail(self.bad(at, "a list", w)));
                }
                let mut c = self.cursor();
                let (ew, n) = list_header(&mut c).map_err(|x| self.fail(x))?;
                self.pos.set(c.offset());
                let mut seq = s.serialize_seq(Some(n))?;
                for i in 0..n {
                    let r = seq.serialize_element(&Typed {
                        walk: self,
                        ty: e,
                        w: ew,
                        at: None,
                        depth: depth + 1,
                    });
                    self.note(r, |x| x.in_index(i))?;
                }
                seq.end()
            }
            Type::Map(k, v) => self.map(s, k, v, w, at, depth),
            Type::Bean(n) => match w {
                WireType::Bean => self.bean(s, n, depth),
                WireType::Dynamic => {
                    let mut c = self.cursor();
                    c.long().map_err(|e| self.fail(e))?;
                    self.pos.set(c.offset());
                    self.bean(s, n, depth)
                }
                _ => Err(self.fail(self.bad(at, "a bean", w))),
            },
            Type::Dynamic(ids) => {
                let mut c = self.cursor();
                let type_id = match w {
                    WireType::Dynamic => c.long().map_err(|e| self.fail(e))?,
                    WireType::Bean => 0,
                    _ => return Err(self.fail(self.bad(at, "a dynamic bean", w))),
                };
                self.pos.set(c.offset());
                let mut m = s.serialize_map(Some(if ids.iter().any(|(i, _)| *i == type_id) {
                    3
                } else {
                    2
                }))?;
                m.serialize_entry("type_id", &type_id)?;
                match ids.iter().find(|(i, _)| *i == type_id) {
                    Some((_, name)) => {
                        m.serialize_entry("bean", name)?;
                        m.serialize_entry(
                            "value",
                            &BeanAt {
                                walk: self,
                                name,
                                depth,
                            },
                        )?;
                    }
                    None => {
                        let b = read_bean(&mut c, &self.opts, depth).map_err(|e| self.fail(e))?;
                        self.pos.set(c.offset());
                        m.serialize_entry("value", &BeanView::new(&b))?;
                    }
                }
                m.end()
            }
            // Scalars and vectors: one small value.
            _ => {
                let mut c = self.cursor();
                let mut budget = u64::MAX;
                let j = self
                    .schema
                    .read_typed(&mut c, ty, w, at, &self.opts, depth, &mut budget)
                    .map_err(|e| self.fail(e))?;
                self.pos.set(c.offset());
                j.serialize(s)
            }
        }
    }

    /// Reads a map key (a scalar) as the JSON text of an object key.
    fn key_text(&self, k: &Type, kw: WireType, depth: usize) -> Result<String> {
        let mut c = self.cursor();
        let kat = c.offset();
        let mut budget = u64::MAX;
        let kj = self
            .schema
            .read_typed(&mut c, k, kw, kat, &self.opts, depth + 1, &mut budget)?;
        self.pos.set(c.offset());
        Ok(match kj {
            J::String(s) => s,
            other => other.to_string(),
        })
    }

    fn map<S: Serializer>(
        &self,
        s: S,
        k: &Type,
        v: &Type,
        w: WireType,
        at: usize,
        depth: usize,
    ) -> SResult<S> {
        if w != WireType::Map {
            return Err(self.fail(self.bad(at, "a map", w)));
        }
        let mut c = self.cursor();
        let hat = c.offset();
        let (kw, vw, n) = map_header(&mut c).map_err(|x| self.fail(x))?;
        self.pos.set(c.offset());
        let value = Typed {
            walk: self,
            ty: v,
            w: vw,
            at: None,
            depth: depth + 1,
        };
        if !map_key_is_text(k) {
            let mut seq = s.serialize_seq(Some(n))?;
            for i in 0..n {
                let r = seq.serialize_element(&Pair {
                    walk: self,
                    k,
                    kw,
                    v: value,
                });
                self.note(r, |x| x.in_index(i))?;
            }
            return seq.end();
        }
        if !self.checking.get() && self.repeated_keys.borrow().contains(&hat) {
            return self.map_with_repeats(s, k, kw, v, vw, n, depth);
        }
        let mut seen: HashSet<u64> = HashSet::new();
        let mut m = s.serialize_map(None)?;
        for i in 0..n {
            let key = self
                .key_text(k, kw, depth)
                .map_err(|x| self.fail(x.in_index(i)))?;
            if self.checking.get() {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut h);
                if !seen.insert(h.finish()) {
                    self.repeated_keys.borrow_mut().insert(hat);
                }
            }
            let r = m.serialize_entry(&key, &value);
            self.note(r, |x| x.in_index(i))?;
        }
        m.end()
    }

    /// A text-keyed map that repeats a key: one member per key, at the key's first
    /// place, with its last value (as a JSON object built by inserting).
    #[allow(clippy::too_many_arguments)]
    fn map_with_repeats<S: Serializer>(
        &self,
        s: S,
        k: &Type,
        kw: WireType,
        v: &Type,
        vw: WireType,
        n: usize,
        depth: usize,
    ) -> SResult<S> {
        // Checked by the first walk: these reads do not fail.
        let skip_opts = self.skip_opts();
        let mut last: serde_json::Map<String, J> = serde_json::Map::new();
        for _ in 0..n {
            let key = self.key_text(k, kw, depth).map_err(|x| self.fail(x))?;
            let mut c = self.cursor();
            let vat = c.offset();
            skip_value(&mut c, vw, &skip_opts, depth + 1).map_err(|x| self.fail(x))?;
            self.pos.set(c.offset());
            last.insert(key, J::from(vat as u64));
        }
        let end = self.pos.get();
        let mut m = s.serialize_map(Some(last.len()))?;
        for (key, vat) in &last {
            let vat = vat.as_u64().unwrap_or(0) as usize;
            self.pos.set(vat);
            m.serialize_entry(
                key,
                &Typed {
                    walk: self,
                    ty: v,
                    w: vw,
                    at: None,
                    depth: depth + 1,
                },
            )?;
        }
        self.pos.set(end);
        m.end()
    }

    /// Writes the default of `ty` (as [`Schema::decode`] fills it in).
    fn default<S: Serializer>(&self, s: S, ty: &Type) -> SResult<S> {
        match ty {
            Type::Bean(n) => {
                let levels = self.schema.levels(n).map_err(|e| self.fail(e))?;
                let vars = levels.iter().flat_map(|l| &l.vars);
                if !self.info(n, &levels).merged {
                    let mut m = s.serialize_map(None)?;
                    for v in vars {
                        m.serialize_entry(&v.name, &Default(self, &v.ty))?;
                    }
                    return m.end();
                }
                // A name declared twice: one member, at its first place, the last default.
                let mut order: Vec<(&str, &Type)> = Vec::new();
                for v in vars {
                    match order.iter_mut().find(|o| o.0 == v.name) {
                        Some(o) => o.1 = &v.ty,
                        None => order.push((&v.name, &v.ty)),
                    }
                }
                let mut m = s.serialize_map(Some(order.len()))?;
                for (name, ty) in order {
                    m.serialize_entry(name, &Default(self, ty))?;
                }
                m.end()
            }
            _ => {
                let mut budget = u64::MAX;
                let j = self
                    .schema
                    .default_json(ty, &mut budget)
                    .map_err(|e| self.fail(e))?;
                j.serialize(s)
            }
        }
    }
}

/// The error [`Schema::decode`] gives when the defaults pass their budget.
const DEFAULTS_PAST_LIMIT: &str = "the defaults of absent variables expand past the limit (a \
     run of empty beans much larger than the input); decode without --schema";

/// A field tag read from a bean: its level, id, wire type and the tag's offset.
#[derive(Clone, Copy)]
struct FieldTag {
    li: usize,
    id: u32,
    w: WireType,
    at: usize,
}

/// The tag reader of one bean, level by level.
struct Tags {
    li: usize,
    id: u32,
    levels: usize,
}

impl Tags {
    /// The next field, or `None` after the bean's end (levels past the schema's skipped).
    fn next(&mut self, walk: &Walk<'_>, depth: usize) -> Result<Option<FieldTag>> {
        let mut c = walk.cursor();
        loop {
            let at = c.offset();
            let w = match tag(&mut c, self.id)? {
                Tag::End => {
                    walk.pos.set(c.offset());
                    return Ok(None);
                }
                Tag::Level => {
                    if self.li + 1 < self.levels {
                        self.li += 1;
                        self.id = 0;
                        continue;
                    }
                    skip_bean(&mut c, &walk.opts, depth)?;
                    walk.pos.set(c.offset());
                    return Ok(None);
                }
                Tag::Field { id, wire } => {
                    self.id = id;
                    wire
                }
            };
            walk.pos.set(c.offset());
            return Ok(Some(FieldTag {
                li: self.li,
                id: self.id,
                w,
                at,
            }));
        }
    }
}

struct Root<'w, 'a>(&'w Walk<'a>, &'w str);

impl Serialize for Root<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        self.0.bean(s, self.1, 0)
    }
}

struct BeanAt<'w, 'a> {
    walk: &'w Walk<'a>,
    name: &'w str,
    depth: usize,
}

impl Serialize for BeanAt<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        self.walk.bean(s, self.name, self.depth)
    }
}

#[derive(Clone, Copy)]
struct Typed<'w, 'a> {
    walk: &'w Walk<'a>,
    ty: &'w Type,
    w: WireType,
    /// The offset errors name: the field's tag; `None` for the value's own offset.
    at: Option<usize>,
    depth: usize,
}

impl Serialize for Typed<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        let at = self.at.unwrap_or(self.walk.pos.get());
        self.walk.typed(s, self.ty, self.w, at, self.depth)
    }
}

/// A `[key, value]` pair of a map whose keys are not text.
struct Pair<'w, 'a> {
    walk: &'w Walk<'a>,
    k: &'w Type,
    kw: WireType,
    v: Typed<'w, 'a>,
}

impl Serialize for Pair<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        let mut seq = s.serialize_seq(Some(2))?;
        seq.serialize_element(&Typed {
            walk: self.walk,
            ty: self.k,
            w: self.kw,
            at: None,
            depth: self.v.depth,
        })?;
        seq.serialize_element(&self.v)?;
        seq.end()
    }
}

struct Default<'w, 'a>(&'w Walk<'a>, &'w Type);

impl Serialize for Default<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        self.0.default(s, self.1)
    }
}

/// The fields of one level the schema does not declare, by id, schema-less.
struct Unknown<'w, 'a> {
    walk: &'w Walk<'a>,
    fields: &'w [(usize, u32, usize, WireType)],
    depth: usize,
}

impl Serialize for Unknown<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> SResult<S> {
        let w = self.walk;
        let mut m = s.serialize_map(Some(self.fields.len()))?;
        for &(_, id, at, wt) in self.fields {
            w.pos.set(at);
            let mut c = w.cursor();
            let v = read_value(&mut c, wt, &w.opts, self.depth + 1).map_err(|e| w.fail(e))?;
            m.serialize_entry(&id.to_string(), &ValueView::new(&v))?;
        }
        m.end()
    }
}
