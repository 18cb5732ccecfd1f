//! The schema's typed codec: bean bytes to JSON keyed by variable names (Zeze's
//! conversions on read, undeclared fields kept under `_unknown`) and back.

use super::*;
use crate::cursor::Cursor;
use crate::decode::{read_bean, read_value, skip_bean, Options};
use crate::json::{expected, f32_from, f32_json, f64_from, f64_json, hex, unhex};
use crate::value::WireType;
use crate::varint::{write_list_header, write_long, write_map_header, write_tag, write_uint};
use crate::walk::grammar::{check_depth, list_header, map_header, tag, Tag};
use gamewire_core::{Error, ErrorKind, Result};
use serde_json::{json, Map, Value as J};
/// The most values a bean's default (every variable at its default, nested beans
/// expanded) may hold. Bounds the work a missing nested bean costs while decoding.
pub const MAX_DEFAULT_VALUES: u64 = 1 << 16;

impl Schema {
    /// Decodes one bean `name` that fills `data`, to JSON keyed by variable names.
    pub fn decode(&self, name: &str, data: &[u8], opts: &Options) -> Result<J> {
        let mut c = Cursor::new(data);
        let mut budget = default_budget(data.len());
        let j = self.read_bean_in(&mut c, &self.bean(name)?.name, opts, 0, &mut budget)?;
        if !c.is_empty() {
            return Err(Error::at(
                c.offset(),
                ErrorKind::TrailingBytes {
                    count: c.remaining(),
                },
            ));
        }
        Ok(j)
    }

    /// Encodes JSON keyed by variable names as bean `name`.
    pub fn encode(&self, name: &str, j: &J) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_bean(&self.bean(name)?.name, j, &mut out)?;
        Ok(out)
    }

    /// Reads bean `name` from the cursor. The defaults filled in for absent variables
    /// may total [`DEFAULTS_PER_BYTE`] values per byte left in the cursor (plus
    /// [`MAX_DEFAULT_VALUES`]); past that the decode stops with an error, so a run of
    /// empty beans cannot grow the JSON out of proportion to the input.
    pub fn read_bean(
        &self,
        c: &mut Cursor<'_>,
        name: &str,
        opts: &Options,
        depth: usize,
    ) -> Result<J> {
        let mut budget = default_budget(c.remaining());
        self.read_bean_in(c, name, opts, depth, &mut budget)
    }

    pub(crate) fn read_bean_in(
        &self,
        c: &mut Cursor<'_>,
        name: &str,
        opts: &Options,
        depth: usize,
        budget: &mut u64,
    ) -> Result<J> {
        check_depth(c, opts, depth)?;
        let levels = self.levels(name)?;
        let mut obj = Map::new();
        for l in &levels {
            for v in &l.vars {
                let d = self
                    .default_json(&v.ty, budget)
                    .map_err(|e| e.or_offset(c.offset()))?;
                obj.insert(v.name.clone(), d);
            }
        }
        let mut li = 0;
        let mut id: u32 = 0;
        loop {
            let at = c.offset();
            let w = match tag(c, id)? {
                Tag::End => return Ok(J::Object(obj)),
                Tag::Level => {
                    if li + 1 < levels.len() {
                        li += 1;
                        id = 0;
                        continue;
                    }
                    // Past the last level Zeze skips the rest as unknown fields.
                    skip_bean(c, opts, depth)?;
                    return Ok(J::Object(obj));
                }
                Tag::Field { id: next, wire } => {
                    id = next;
                    wire
                }
            };
            match levels[li].vars.iter().find(|v| v.id == id) {
                Some(var) => {
                    let v = self
                        .read_typed(c, &var.ty, w, at, opts, depth + 1, budget)
                        .map_err(|e| e.in_key(var.name.clone()))?;
                    obj.insert(var.name.clone(), v);
                }
                None => {
                    // Unknown to the schema: kept (schema-less) so that bytes round-trip,
                    // as Zeze's beans generated with unknown-field support do.
                    let v =
                        read_value(c, w, opts, depth + 1).map_err(|e| e.in_key(id.to_string()))?;
                    let key = unknown_key(li);
                    let slot = obj.entry(key).or_insert_with(|| J::Object(Map::new()));
                    if let J::Object(m) = slot {
                        m.insert(id.to_string(), crate::json::value_to_json(&v));
                    }
                }
            }
        }
    }

    /// The default of a variable of type `ty`, each value taken from `budget`.
    pub(crate) fn default_json(&self, ty: &Type, budget: &mut u64) -> Result<J> {
        if *budget == 0 {
            return Err(Error::msg(
                "the defaults of absent variables expand past the limit (a run of empty \
                 beans much larger than the input); decode without --schema",
            ));
        }
        *budget -= 1;
        Ok(match ty {
            Type::Bool => J::Bool(false),
            Type::Byte | Type::Short | Type::Int | Type::Long => J::from(0),
            Type::Float | Type::Double => J::from(0.0),
            Type::String | Type::Decimal | Type::Binary => J::from(""),
            Type::List(_) | Type::Set(_) => J::Array(vec![]),
            Type::Map(k, _) => {
                if map_key_is_text(k) {
                    J::Object(Map::new())
                } else {
                    J::Array(vec![])
                }
            }
            Type::Bean(n) => {
                let mut m = Map::new();
                for l in self.levels(n)? {
                    for v in &l.vars {
                        m.insert(v.name.clone(), self.default_json(&v.ty, budget)?);
                    }
                }
                J::Object(m)
            }
            Type::Dynamic(_) => json!({ "type_id": 0 }),
            Type::Vector2 | Type::Vector2Int => json!([0, 0]).fix(ty),
            Type::Vector3 | Type::Vector3Int => json!([0, 0, 0]).fix(ty),
            Type::Vector4 | Type::Quaternion => json!([0, 0, 0, 0]).fix(ty),
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_typed(
        &self,
        c: &mut Cursor<'_>,
        ty: &Type,
        w: WireType,
        at: usize,
        opts: &Options,
        depth: usize,
        budget: &mut u64,
    ) -> Result<J> {
        let bad = |what: &str| {
            Error::unexpected_at(
                at,
                format!("a value Zeze reads as {what}"),
                format!("wire type {w}"),
            )
        };
        Ok(match ty {
            Type::Bool | Type::Byte | Type::Short | Type::Int | Type::Long => {
                if *ty == Type::Bool && w != WireType::Integer {
                    let x = match w {
                        WireType::Float => c.f32()? as f64,
                        WireType::Double => c.f64()?,
                        _ => return Err(bad("a bool")),
                    };
                    return Ok(J::Bool(x != 0.0));
                }
                let v: i64 = match w {
                    WireType::Integer => c.long()?,
                    WireType::Float => java_f2l(c.f32()? as f64, ty),
                    WireType::Double => java_f2l(c.f64()?, ty),
                    _ => return Err(bad("an integer")),
                };
                match ty {
                    Type::Bool => J::Bool(v != 0),
                    Type::Byte => J::from(v as i8),
                    Type::Short => J::from(v as i16),
                    Type::Int => J::from(v as i32),
                    _ => J::from(v),
                }
            }
            Type::Float | Type::Double => {
                let x: f64 = match w {
                    WireType::Float => c.f32()? as f64,
                    WireType::Double => c.f64()?,
                    WireType::Integer => c.long()? as f64,
                    _ => return Err(bad("a number")),
                };
                if *ty == Type::Float {
                    f32_json(x as f32)
                } else {
                    f64_json(x)
                }
            }
            Type::String | Type::Decimal | Type::Binary => {
                if w != WireType::Bytes {
                    return Err(bad("bytes"));
                }
                let b = c.len_bytes()?;
                if *ty == Type::Binary {
                    J::String(hex(b))
                } else {
                    J::String(String::from_utf8_lossy(b).into_owned())
                }
            }
            Type::List(e) | Type::Set(e) => {
                if w != WireType::List {
                    return Err(bad("a list"));
                }
                let (ew, n) = list_header(c)?;
                let mut items = Vec::with_capacity(n);
                for i in 0..n {
                    let iat = c.offset();
                    items.push(
                        self.read_typed(c, e, ew, iat, opts, depth + 1, budget)
                            .map_err(|x| x.in_index(i))?,
                    );
                }
                J::Array(items)
            }
            Type::Map(k, v) => {
                if w != WireType::Map {
                    return Err(bad("a map"));
                }
                let (kw, vw, n) = map_header(c)?;
                let text = map_key_is_text(k);
                let mut obj = Map::new();
                let mut pairs = Vec::new();
                for i in 0..n {
                    let kat = c.offset();
                    let kj = self
                        .read_typed(c, k, kw, kat, opts, depth + 1, budget)
                        .map_err(|x| x.in_index(i))?;
                    let vat = c.offset();
                    let vj = self
                        .read_typed(c, v, vw, vat, opts, depth + 1, budget)
                        .map_err(|x| x.in_index(i))?;
                    if text {
                        let key = match kj {
                            J::String(s) => s,
                            other => other.to_string(),
                        };
                        obj.insert(key, vj);
                    } else {
                        pairs.push(json!([kj, vj]));
                    }
                }
                if text {
                    J::Object(obj)
                } else {
                    J::Array(pairs)
                }
            }
            Type::Bean(n) => match w {
                WireType::Bean => self.read_bean_in(c, n, opts, depth, budget)?,
                WireType::Dynamic => {
                    c.long()?;
                    self.read_bean_in(c, n, opts, depth, budget)?
                }
                _ => return Err(bad("a bean")),
            },
            Type::Dynamic(ids) => {
                let type_id = match w {
                    WireType::Dynamic => c.long()?,
                    WireType::Bean => 0,
                    _ => return Err(bad("a dynamic bean")),
                };
                match ids.iter().find(|(i, _)| *i == type_id) {
                    Some((_, name)) => {
                        json!({ "type_id": type_id, "bean": name, "value": self.read_bean_in(c, name, opts, depth, budget)? })
                    }
                    None => {
                        let b = read_bean(c, opts, depth)?;
                        json!({ "type_id": type_id, "value": crate::json::bean_to_json(&b) })
                    }
                }
            }
            Type::Vector2
            | Type::Vector2Int
            | Type::Vector3
            | Type::Vector3Int
            | Type::Vector4
            | Type::Quaternion => {
                let (comps, ints): (Vec<f64>, bool) = match w {
                    WireType::Vector2 => (vec![c.f32()? as f64, c.f32()? as f64], false),
                    WireType::Vector3 => (
                        (0..3)
                            .map(|_| c.f32().map(|x| x as f64))
                            .collect::<Result<_>>()?,
                        false,
                    ),
                    WireType::Vector4 => (
                        (0..4)
                            .map(|_| c.f32().map(|x| x as f64))
                            .collect::<Result<_>>()?,
                        false,
                    ),
                    WireType::Vector2Int => {
                        (vec![c.long()? as i32 as f64, c.long()? as i32 as f64], true)
                    }
                    WireType::Vector3Int => (
                        (0..3)
                            .map(|_| c.long().map(|x| x as i32 as f64))
                            .collect::<Result<_>>()?,
                        true,
                    ),
                    WireType::Float => (vec![c.f32()? as f64], false),
                    WireType::Double => (vec![c.f64()? as f32 as f64], false),
                    WireType::Integer => (vec![c.long()? as f64], true),
                    _ => return Err(bad("a vector")),
                };
                let dims = match ty {
                    Type::Vector2 | Type::Vector2Int => 2,
                    Type::Vector3 | Type::Vector3Int => 3,
                    _ => 4,
                };
                let int_target = matches!(ty, Type::Vector2Int | Type::Vector3Int);
                let _ = ints;
                J::Array(
                    (0..dims)
                        .map(|i| {
                            let x = comps.get(i).copied().unwrap_or(0.0);
                            if int_target {
                                J::from(x as i32)
                            } else {
                                f32_json(x as f32)
                            }
                        })
                        .collect(),
                )
            }
        })
    }

    fn write_bean(&self, name: &str, j: &J, out: &mut Vec<u8>) -> Result<()> {
        let o = j
            .as_object()
            .ok_or_else(|| expected(&format!("a {name} object"), j))?;
        let levels = self.levels(name)?;
        for k in o.keys() {
            let known = levels.iter().any(|l| l.vars.iter().any(|v| &v.name == k))
                || (0..levels.len()).any(|li| *k == unknown_key(li));
            if !known {
                return Err(Error::msg(format!("bean {name} has no variable {k:?}")));
            }
        }
        for (li, l) in levels.iter().enumerate() {
            let mut last = 0u32;
            // Fields kept from bytes the schema did not know, merged by id.
            let mut unknown: Vec<(u32, crate::value::Value)> = Vec::new();
            let ukey = unknown_key(li);
            if let Some(u) = o.get(&ukey) {
                let u = u
                    .as_object()
                    .ok_or_else(|| expected("an object keyed by field id", u))?;
                for (k, v) in u {
                    let id: u32 = k
                        .parse()
                        .ok()
                        .filter(|&i| i >= 1 && i <= i32::MAX as u32)
                        .ok_or_else(|| {
                            Error::msg(format!("{ukey}: expected a field id, found {k:?}"))
                        })?;
                    if l.vars.iter().any(|v| v.id == id) {
                        return Err(Error::msg(format!(
                            "{ukey}: field id {id} is a declared variable"
                        )));
                    }
                    let v = crate::json::value_from_json(v)
                        .map_err(|e| e.in_key(k.clone()).in_key(ukey.clone()))?;
                    unknown.push((id, v));
                }
                unknown.sort_by_key(|u| std::cmp::Reverse(u.0));
            }
            for v in &l.vars {
                while unknown.last().is_some_and(|u| u.0 < v.id) {
                    if let Some((uid, uv)) = unknown.pop() {
                        write_tag(out, uid - last, uv.wire_type() as u8);
                        crate::encode::write_value(&uv, out)?;
                        last = uid;
                    }
                }
                let Some(x) = o.get(&v.name) else { continue };
                let mark = out.len();
                write_tag(out, v.id - last, v.ty.wire() as u8);
                let body = out.len();
                let written = self
                    .write_typed(&v.ty, x, out)
                    .map_err(|e| e.in_key(v.name.clone()))?;
                let empty_bean = matches!(v.ty, Type::Bean(_)) && out.len() == body + 1;
                if !written || empty_bean {
                    out.truncate(mark);
                } else {
                    last = v.id;
                }
            }
            while let Some((uid, uv)) = unknown.pop() {
                write_tag(out, uid - last, uv.wire_type() as u8);
                crate::encode::write_value(&uv, out)?;
                last = uid;
            }
            out.push(if li + 1 < levels.len() { 1 } else { 0 });
        }
        Ok(())
    }

    /// Writes a field value; returns false when it is the default (Zeze omits it).
    fn write_typed(&self, ty: &Type, j: &J, out: &mut Vec<u8>) -> Result<bool> {
        match ty {
            Type::Bool => {
                let b = j.as_bool().ok_or_else(|| expected("true or false", j))?;
                out.push(b as u8);
                Ok(b)
            }
            Type::Byte | Type::Short | Type::Int | Type::Long => {
                let v = j.as_i64().ok_or_else(|| expected("an integer", j))?;
                let ok = match ty {
                    Type::Byte => i8::try_from(v).is_ok(),
                    Type::Short => i16::try_from(v).is_ok(),
                    Type::Int => i32::try_from(v).is_ok(),
                    _ => true,
                };
                if !ok {
                    return Err(expected(
                        &format!("an integer in the range of {ty:?}").to_lowercase(),
                        j,
                    ));
                }
                write_long(out, v);
                Ok(v != 0)
            }
            Type::Float => {
                let f = f32_from(j)?;
                out.extend_from_slice(&f.to_le_bytes());
                Ok(f != 0.0)
            }
            Type::Double => {
                let d = f64_from(j)?;
                out.extend_from_slice(&d.to_le_bytes());
                Ok(d != 0.0)
            }
            Type::String | Type::Decimal | Type::Binary => {
                let s = j.as_str().ok_or_else(|| expected("a string", j))?;
                let b = if *ty == Type::Binary {
                    unhex(s)?
                } else {
                    s.as_bytes().to_vec()
                };
                write_uint(
                    out,
                    u32::try_from(b.len()).map_err(|_| Error::msg("bytes past 4 GiB"))?,
                );
                out.extend_from_slice(&b);
                Ok(!b.is_empty())
            }
            Type::List(e) | Type::Set(e) => {
                let a = j.as_array().ok_or_else(|| expected("an array", j))?;
                write_list_header(out, a.len() as u32, e.wire() as u8);
                for (i, x) in a.iter().enumerate() {
                    self.write_elem(e, x, out).map_err(|err| err.in_index(i))?;
                }
                Ok(!a.is_empty())
            }
            Type::Map(k, v) => {
                let pairs: Vec<(J, &J)> = match j {
                    J::Object(o) if map_key_is_text(k) => o
                        .iter()
                        .map(|(key, val)| Ok((text_key(k, key)?, val)))
                        .collect::<Result<_>>()?,
                    J::Array(a) => a
                        .iter()
                        .map(|p| match p.as_array().map(Vec::as_slice) {
                            Some([a, b]) => Ok((a.clone(), b)),
                            _ => Err(expected("a [key, value] pair", p)),
                        })
                        .collect::<Result<_>>()?,
                    _ => return Err(expected("a map (object or array of [key, value])", j)),
                };
                write_map_header(out, pairs.len() as u32, k.wire() as u8, v.wire() as u8);
                for (i, (kj, vj)) in pairs.iter().enumerate() {
                    self.write_elem(k, kj, out).map_err(|e| e.in_index(i))?;
                    self.write_elem(v, vj, out).map_err(|e| e.in_index(i))?;
                }
                Ok(!pairs.is_empty())
            }
            Type::Bean(n) => {
                self.write_bean(n, j, out)?;
                Ok(true)
            }
            Type::Dynamic(ids) => {
                let o = j
                    .as_object()
                    .ok_or_else(|| expected("{\"type_id\": n, \"value\": {..}}", j))?;
                let type_id = o
                    .get("type_id")
                    .map(crate::json::i64_from)
                    .transpose()?
                    .unwrap_or(0);
                let value = o.get("value");
                if type_id == 0 && value.is_none() {
                    return Ok(false);
                }
                write_long(out, type_id);
                let empty = json!({});
                let value = value.unwrap_or(&empty);
                match ids.iter().find(|(i, _)| *i == type_id) {
                    Some((_, name)) => self.write_bean(name, value, out)?,
                    None => crate::encode::encode_into(&crate::json::bean_from_json(value)?, out)?,
                }
                Ok(true)
            }
            Type::Vector2
            | Type::Vector3
            | Type::Vector4
            | Type::Quaternion
            | Type::Vector2Int
            | Type::Vector3Int => {
                let dims = match ty {
                    Type::Vector2 | Type::Vector2Int => 2,
                    Type::Vector3 | Type::Vector3Int => 3,
                    _ => 4,
                };
                let a = j
                    .as_array()
                    .filter(|a| a.len() == dims)
                    .ok_or_else(|| expected(&format!("an array of {dims} numbers"), j))?;
                let mut zero = true;
                for x in a {
                    if matches!(ty, Type::Vector2Int | Type::Vector3Int) {
                        let v = x
                            .as_i64()
                            .and_then(|v| i32::try_from(v).ok())
                            .ok_or_else(|| expected("an int", x))?;
                        zero &= v == 0;
                        write_long(out, v as i64);
                    } else {
                        let f = f32_from(x)?;
                        zero &= f == 0.0;
                        out.extend_from_slice(&f.to_le_bytes());
                    }
                }
                Ok(!zero)
            }
        }
    }

    /// Writes a collection element (Zeze's `EncodeElement`: always written).
    fn write_elem(&self, ty: &Type, j: &J, out: &mut Vec<u8>) -> Result<()> {
        match ty {
            Type::List(_) | Type::Set(_) | Type::Map(..) => Err(Error::msg(
                "Zeze does not allow collections as collection elements",
            )),
            Type::Dynamic(_) => {
                let mark = out.len();
                if !self.write_typed(ty, j, out)? {
                    out.truncate(mark);
                    out.extend_from_slice(&[0, 0]);
                }
                Ok(())
            }
            _ => self.write_typed(ty, j, out).map(|_| ()),
        }
    }
}

trait Fix {
    fn fix(self, ty: &Type) -> J;
}

impl Fix for J {
    /// Float vectors default to `[0.0, ..]`, int vectors to `[0, ..]`.
    fn fix(self, ty: &Type) -> J {
        match (self, ty) {
            (J::Array(a), Type::Vector2 | Type::Vector3 | Type::Vector4 | Type::Quaternion) => {
                J::Array(a.iter().map(|_| J::from(0.0)).collect())
            }
            (j, _) => j,
        }
    }
}

/// The JSON key holding the fields of inheritance level `li` that the schema does not
/// declare: `_unknown` for the bean's own level, `_unknown1`, `_unknown2`... for its bases.
pub fn unknown_key(li: usize) -> String {
    if li == 0 {
        "_unknown".to_owned()
    } else {
        format!("_unknown{li}")
    }
}

/// The defaults of absent variables a schema decode may fill in per input byte.
pub const DEFAULTS_PER_BYTE: u64 = 4;

pub(crate) fn default_budget(input: usize) -> u64 {
    (input as u64)
        .saturating_mul(DEFAULTS_PER_BYTE)
        .saturating_add(MAX_DEFAULT_VALUES)
}

/// Map keys that print as JSON object keys: strings and integers.
pub(crate) fn map_key_is_text(k: &Type) -> bool {
    matches!(
        k,
        Type::String
            | Type::Decimal
            | Type::Byte
            | Type::Short
            | Type::Int
            | Type::Long
            | Type::Bool
    )
}

fn text_key(k: &Type, key: &str) -> Result<J> {
    Ok(match k {
        Type::String | Type::Decimal => J::from(key),
        Type::Bool => J::Bool(key == "true"),
        _ => J::from(
            key.parse::<i64>()
                .map_err(|_| Error::msg(format!("expected an integer map key, found {key:?}")))?,
        ),
    })
}

/// Java's float-to-integer cast for the declared type (saturating, NaN is 0; byte and
/// short narrow from int).
fn java_f2l(x: f64, ty: &Type) -> i64 {
    match ty {
        Type::Long => x as i64,
        _ => x as i32 as i64,
    }
}
