//! The lossless JSON mapping of BSON values (see `docs/FORMATS.md`).
//!
//! Plain data is plain JSON: documents are objects, arrays are arrays, strings,
//! booleans and null are themselves, int32 is a JSON integer and a finite double is a
//! JSON number that always has a fraction or exponent (`1.0`). Everything else is a
//! tagged object in MongoDB Extended JSON (canonical) form: `{"$numberLong": "5"}`,
//! `{"$binary": {"base64": "..", "subType": "00"}}`, `{"$date": {"$numberLong": ".."}}`,
//! and so on. A document with a key starting with `$`, or with a repeated key, is
//! written as `{"$entries": [[key, value], ...]}` so no document is mistaken for a tag.

use crate::value::{CodeWithScope, DbPointer, Document, Regex, Seq, Value};
use gamewire_core::hex::to_hex as hex;
pub use gamewire_core::json_text::TextOptions;
use gamewire_core::{Error, ErrorKind, Result};
use serde_json::{Map, Number, Value as Json};
use std::borrow::Cow;

const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

/// Converts a document to JSON. `max_depth` bounds nesting.
pub fn document_to_json(doc: &Document<'_>, max_depth: usize) -> Result<Json> {
    doc_json(doc, 1, max_depth)
}

/// Converts a value to JSON. `max_depth` bounds nesting.
pub fn value_to_json(v: &Value<'_>, max_depth: usize) -> Result<Json> {
    value_to_json_at(v, 0, max_depth)
}

fn depth_check(depth: usize, max: usize) -> Result<()> {
    if depth > max {
        return Err(Error::new(ErrorKind::DepthLimit { limit: max }));
    }
    Ok(())
}

fn tag(key: &str, value: Json) -> Json {
    let mut m = Map::with_capacity(1);
    m.insert(key.to_owned(), value);
    Json::Object(m)
}

/// True when a document maps to a plain JSON object: no key starts with `$` and no
/// key repeats.
pub(crate) fn is_plain(doc: &Document<'_>) -> bool {
    if doc.entries.iter().any(|(k, _)| k.starts_with('$')) {
        return false;
    }
    if doc.entries.len() <= 16 {
        doc.entries
            .iter()
            .enumerate()
            .all(|(i, (k, _))| doc.entries[..i].iter().all(|(p, _)| p != k))
    } else {
        let mut seen = std::collections::HashSet::with_capacity(doc.entries.len());
        doc.entries.iter().all(|(k, _)| seen.insert(k.as_ref()))
    }
}

/// A container being converted to JSON.
enum Out<'v, 'a> {
    Doc {
        src: &'v Document<'a>,
        next: usize,
        plain: bool,
        map: Map<String, Json>,
        list: Vec<Json>,
        code: Option<&'v str>,
    },
    Arr {
        src: &'v [Value<'a>],
        next: usize,
        out: Vec<Json>,
    },
}

impl<'v, 'a> Out<'v, 'a> {
    fn doc(src: &'v Document<'a>, code: Option<&'v str>) -> Self {
        let plain = is_plain(src);
        Out::Doc {
            src,
            next: 0,
            plain,
            map: if plain {
                Map::with_capacity(src.len())
            } else {
                Map::new()
            },
            list: if plain {
                Vec::new()
            } else {
                Vec::with_capacity(src.len())
            },
            code,
        }
    }

    /// The next child and where it goes.
    fn next_child(&mut self) -> Option<&'v Value<'a>> {
        match self {
            Out::Doc { src, next, .. } => {
                let v = src.entries.get(*next).map(|(_, v)| v);
                *next += 1;
                v
            }
            Out::Arr { src, next, out: _ } => {
                let v = src.get(*next);
                *next += 1;
                v
            }
        }
    }

    fn add(&mut self, j: Json) {
        match self {
            Out::Doc {
                src,
                next,
                plain,
                map,
                list,
                ..
            } => {
                let key = src.entries[*next - 1].0.to_string();
                if *plain {
                    map.insert(key, j);
                } else {
                    list.push(Json::Array(vec![Json::String(key), j]));
                }
            }
            Out::Arr { out, .. } => out.push(j),
        }
    }

    fn finish(self) -> Json {
        match self {
            Out::Doc {
                plain,
                map,
                list,
                code,
                ..
            } => {
                let d = if plain {
                    Json::Object(map)
                } else {
                    tag("$entries", Json::Array(list))
                };
                match code {
                    None => d,
                    Some(c) => {
                        let mut m = Map::new();
                        m.insert("$code".into(), Json::String(c.to_owned()));
                        m.insert("$scope".into(), d);
                        Json::Object(m)
                    }
                }
            }
            Out::Arr { out, .. } => Json::Array(out),
        }
    }

    fn error_path(&self, e: Error) -> Error {
        match self {
            Out::Doc { src, next, .. } => e.in_key(src.entries[*next - 1].0.as_ref()),
            Out::Arr { next, .. } => e.in_index(*next - 1),
        }
    }
}

/// Converts with an explicit stack: any depth up to `max` is safe on any thread.
fn doc_json(doc: &Document<'_>, depth: usize, max: usize) -> Result<Json> {
    depth_check(depth, max)?;
    let mut stack = vec![Out::doc(doc, None)];
    loop {
        let top = stack.last_mut().unwrap_or_else(|| unreachable!());
        match top.next_child() {
            None => {
                let done = stack.pop().unwrap_or_else(|| unreachable!()).finish();
                match stack.last_mut() {
                    None => return Ok(done),
                    Some(parent) => parent.add(done),
                }
            }
            Some(v) => {
                let frame = match v {
                    Value::Document(d) => Out::doc(d, None),
                    Value::JavaScriptWithScope(c) => Out::doc(&c.scope, Some(&c.code)),
                    Value::Array(a) => Out::Arr {
                        src: a,
                        next: 0,
                        out: Vec::with_capacity(a.len()),
                    },
                    other => {
                        let j = scalar_json(other);
                        top.add(j);
                        continue;
                    }
                };
                if let Err(e) = depth_check(depth + stack.len(), max) {
                    return Err(stack.iter().rev().fold(e, |e, f| f.error_path(e)));
                }
                stack.push(frame);
            }
        }
    }
}

fn long(n: i64) -> Json {
    tag("$numberLong", Json::String(n.to_string()))
}

fn value_to_json_at(v: &Value<'_>, depth: usize, max: usize) -> Result<Json> {
    match v {
        Value::Document(d) => doc_json(d, depth + 1, max),
        Value::Array(_) | Value::JavaScriptWithScope { .. } => {
            // wrap in a one-entry document and take the entry back out
            let mut d = Document::new();
            d.push("", v.clone());
            match doc_json(&d, depth, max)? {
                Json::Object(mut m) => Ok(m.remove("").unwrap_or(Json::Null)),
                other => Ok(other),
            }
        }
        other => Ok(scalar_json(other)),
    }
}

/// The non-recursive cases, kept out of `to_json` so its stack frame stays small.
#[inline(never)]
pub(crate) fn scalar_json(v: &Value<'_>) -> Json {
    match v {
        Value::Double(d) => match Number::from_f64(*d) {
            Some(n) => Json::Number(n),
            None if d.is_nan() && d.to_bits() != CANONICAL_NAN => {
                tag("$doubleBits", Json::String(format!("{:016x}", d.to_bits())))
            }
            None if d.is_nan() => tag("$numberDouble", Json::String("NaN".into())),
            None if *d > 0.0 => tag("$numberDouble", Json::String("Infinity".into())),
            None => tag("$numberDouble", Json::String("-Infinity".into())),
        },
        Value::Binary { subtype, bytes } => {
            let mut m = Map::new();
            m.insert("base64".into(), Json::String(base64_encode(bytes)));
            m.insert("subType".into(), Json::String(format!("{subtype:02x}")));
            tag("$binary", Json::Object(m))
        }
        Value::Undefined => tag("$undefined", Json::Bool(true)),
        Value::ObjectId(id) => tag("$oid", Json::String(hex(id))),
        Value::DateTime(t) => tag("$date", long(*t)),
        Value::Regex(r) => {
            let (pattern, options) = (&r.pattern, &r.options);
            let mut m = Map::new();
            m.insert("pattern".into(), Json::String(pattern.to_string()));
            m.insert("options".into(), Json::String(options.to_string()));
            tag("$regularExpression", Json::Object(m))
        }
        Value::DbPointer(p) => {
            let (namespace, id) = (&p.namespace, &p.id);
            let mut m = Map::new();
            m.insert("$ref".into(), Json::String(namespace.to_string()));
            m.insert("$id".into(), tag("$oid", Json::String(hex(id))));
            tag("$dbPointer", Json::Object(m))
        }
        Value::JavaScript(s) => tag("$code", Json::String(s.to_string())),
        Value::Symbol(s) => tag("$symbol", Json::String(s.to_string())),
        Value::Timestamp { time, increment } => {
            let mut m = Map::new();
            m.insert("t".into(), Json::Number((*time).into()));
            m.insert("i".into(), Json::Number((*increment).into()));
            tag("$timestamp", Json::Object(m))
        }
        Value::Int64(i) => long(*i),
        Value::Decimal128(b) => tag("$decimal128", Json::String(hex(b))),
        Value::MinKey => tag("$minKey", Json::Number(1.into())),
        Value::MaxKey => tag("$maxKey", Json::Number(1.into())),
        Value::String(s) => Json::String(s.to_string()),
        Value::Int32(i) => Json::Number((*i).into()),
        Value::Bool(b) => Json::Bool(*b),
        Value::Null => Json::Null,
        Value::Document(_) | Value::Array(_) | Value::JavaScriptWithScope { .. } => Json::Null,
    }
}

/// Converts JSON (as written by [`document_to_json`], or edited by hand) back to a
/// document. The top level must be an object.
pub fn document_from_json(j: &Json, max_depth: usize) -> Result<Document<'static>> {
    match value_from_json_at(j, 1, max_depth)? {
        Value::Document(d) => Ok(d),
        other => Err(Error::new(ErrorKind::Unexpected {
            expected: "a JSON object (a BSON document) at the top level".into(),
            found: other.type_name().into(),
        })),
    }
}

/// Converts JSON back to a value.
pub fn value_from_json(j: &Json, max_depth: usize) -> Result<Value<'static>> {
    value_from_json_at(j, 0, max_depth)
}

fn bad(expected: impl Into<String>, found: &Json) -> Error {
    let mut f = found.to_string();
    if f.len() > 60 {
        let mut cut = 57;
        while !f.is_char_boundary(cut) {
            cut -= 1;
        }
        f.truncate(cut);
        f.push_str("...");
    }
    Error::new(ErrorKind::Unexpected {
        expected: expected.into(),
        found: f,
    })
}

fn str_field<'j>(m: &'j Map<String, Json>, key: &str, ctx: &str) -> Result<&'j str> {
    m.get(key).and_then(Json::as_str).ok_or_else(|| {
        bad(
            format!("a string \"{key}\" in {ctx}"),
            &Json::Object(m.clone()),
        )
    })
}

/// A JSON container being converted to a value.
enum In<'j> {
    Obj {
        it: serde_json::map::Iter<'j>,
        key: Option<&'j str>,
        doc: Document<'static>,
    },
    Entries {
        it: std::slice::Iter<'j, Json>,
        index: usize,
        key: Option<&'j str>,
        doc: Document<'static>,
    },
    Arr {
        it: std::slice::Iter<'j, Json>,
        index: usize,
        items: Vec<Value<'static>>,
    },
    Scope {
        code: &'j str,
        it: Option<&'j Json>,
        scope: Document<'static>,
    },
}

/// What a JSON value becomes: a finished value, or a container to descend into.
enum Next<'j> {
    Done(Value<'static>),
    Open(In<'j>),
}

fn classify(j: &Json) -> Result<Next<'_>> {
    Ok(match j {
        Json::Array(a) => Next::Open(In::Arr {
            it: a.iter(),
            index: 0,
            items: Vec::with_capacity(a.len()),
        }),
        Json::Object(m) if !m.keys().any(|k| k.starts_with('$')) => Next::Open(In::Obj {
            it: m.iter(),
            key: None,
            doc: Document {
                entries: Seq::Owned(Vec::with_capacity(m.len())),
            },
        }),
        Json::Object(m) if m.len() == 1 && m.contains_key("$entries") => {
            let list = m["$entries"]
                .as_array()
                .ok_or_else(|| bad("{\"$entries\": [[key, value], ...]}", j))?;
            Next::Open(In::Entries {
                it: list.iter(),
                index: 0,
                key: None,
                doc: Document {
                    entries: Seq::Owned(Vec::with_capacity(list.len())),
                },
            })
        }
        Json::Object(m) if m.len() == 2 && m.contains_key("$code") && m.contains_key("$scope") => {
            let code = str_field(m, "$code", "$code")?;
            if !m["$scope"].is_object() {
                return Err(bad("a document as $scope", j));
            }
            Next::Open(In::Scope {
                code,
                it: Some(&m["$scope"]),
                scope: Document::new(),
            })
        }
        Json::Object(m) => Next::Done(tagged(m, j)?),
        other => Next::Done(scalar_from_json(other)?),
    })
}

fn scalar_from_json(j: &Json) -> Result<Value<'static>> {
    Ok(match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                match i32::try_from(i) {
                    Ok(i) => Value::Int32(i),
                    Err(_) => Value::Int64(i),
                }
            } else if n.is_u64() {
                return Err(bad("an integer that fits in int64", j));
            } else {
                Value::Double(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::String(Cow::Owned(s.clone())),
        _ => Value::Null,
    })
}

impl<'j> In<'j> {
    /// The next child JSON value, remembering its key or index.
    fn next_child(&mut self) -> Result<Option<&'j Json>> {
        Ok(match self {
            In::Obj { it, key, .. } => it.next().map(|(k, v)| {
                *key = Some(k.as_str());
                v
            }),
            In::Entries { it, index, key, .. } => match it.next() {
                None => None,
                Some(e) => {
                    *index += 1;
                    match e.as_array().map(Vec::as_slice) {
                        Some([Json::String(k), v]) => {
                            *key = Some(k.as_str());
                            Some(v)
                        }
                        _ => {
                            return Err(bad("a [key, value] pair", e)
                                .in_index(*index - 1)
                                .in_key("$entries"))
                        }
                    }
                }
            },
            In::Arr { it, index, .. } => {
                let v = it.next();
                if v.is_some() {
                    *index += 1;
                }
                v
            }
            In::Scope { it, .. } => it.take(),
        })
    }

    fn add(&mut self, v: Value<'static>) {
        match self {
            In::Obj { key, doc, .. } | In::Entries { key, doc, .. } => {
                doc.entries
                    .to_mut()
                    .push((Cow::Owned(key.unwrap_or_default().to_owned()), v));
            }
            In::Arr { items, .. } => items.push(v),
            In::Scope { scope, .. } => {
                if let Value::Document(d) = v {
                    *scope = d;
                }
            }
        }
    }

    fn finish(self) -> Value<'static> {
        match self {
            In::Obj { doc, .. } | In::Entries { doc, .. } => Value::Document(doc),
            In::Arr { items, .. } => Value::Array(Seq::Owned(items)),
            In::Scope { code, scope, .. } => Value::JavaScriptWithScope(Box::new(CodeWithScope {
                code: Cow::Owned(code.to_owned()),
                scope,
            })),
        }
    }

    fn error_path(&self, e: Error) -> Error {
        match self {
            In::Obj { key, .. } | In::Entries { key, .. } => e.in_key(key.unwrap_or_default()),
            In::Arr { index, .. } => e.in_index(index.saturating_sub(1)),
            In::Scope { .. } => e.in_key("$scope"),
        }
    }
}

/// Converts with an explicit stack: any depth up to `max` is safe on any thread.
fn value_from_json_at(j: &Json, depth: usize, max: usize) -> Result<Value<'static>> {
    let first = match classify(j)? {
        Next::Done(v) => return Ok(v),
        Next::Open(f) => f,
    };
    depth_check(depth + 1, max)?;
    let mut stack = vec![first];
    loop {
        let top = stack.last_mut().unwrap_or_else(|| unreachable!());
        let child = match top.next_child() {
            Ok(c) => c,
            Err(e) => return Err(stack.iter().rev().skip(1).fold(e, |e, f| f.error_path(e))),
        };
        match child {
            None => {
                let done = stack.pop().unwrap_or_else(|| unreachable!()).finish();
                match stack.last_mut() {
                    None => return Ok(done),
                    Some(parent) => parent.add(done),
                }
            }
            Some(c) => match classify(c) {
                Ok(Next::Done(v)) => top.add(v),
                Ok(Next::Open(f)) => {
                    if let Err(e) = depth_check(depth + stack.len() + 1, max) {
                        return Err(stack.iter().rev().fold(e, |e, f| f.error_path(e)));
                    }
                    stack.push(f);
                }
                Err(e) => return Err(stack.iter().rev().fold(e, |e, f| f.error_path(e))),
            },
        }
    }
}

fn parse_i64(s: &str, j: &Json) -> Result<i64> {
    s.parse::<i64>()
        .map_err(|_| bad("an int64 in a decimal string", j))
}

fn tagged(m: &Map<String, Json>, j: &Json) -> Result<Value<'static>> {
    let mut keys: Vec<&str> = m.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let one = |name: &str| m.get(name).filter(|_| m.len() == 1);
    let v = match keys.as_slice() {
        ["$numberLong"] => Value::Int64(parse_i64(one("$numberLong").and_then(Json::as_str).ok_or_else(|| bad("{\"$numberLong\": \"<digits>\"}", j))?, j)?),
        ["$numberInt"] => {
            let s = one("$numberInt").and_then(Json::as_str).ok_or_else(|| bad("{\"$numberInt\": \"<digits>\"}", j))?;
            Value::Int32(s.parse().map_err(|_| bad("an int32 in a decimal string", j))?)
        }
        ["$numberDouble"] => {
            let s = one("$numberDouble").and_then(Json::as_str).ok_or_else(|| bad("{\"$numberDouble\": \"<number>\"}", j))?;
            Value::Double(match s {
                "NaN" => f64::from_bits(CANONICAL_NAN),
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                other => other.parse().map_err(|_| bad("a number, NaN, Infinity or -Infinity", j))?,
            })
        }
        ["$doubleBits"] => {
            let s = one("$doubleBits").and_then(Json::as_str).ok_or_else(|| bad("{\"$doubleBits\": \"<16 hex digits>\"}", j))?;
            let b: [u8; 8] = unhex(s).ok_or_else(|| bad("16 hex digits", j))?;
            Value::Double(f64::from_bits(u64::from_be_bytes(b)))
        }
        ["$binary"] => {
            let b = m.get("$binary").and_then(Json::as_object).ok_or_else(|| bad("{\"$binary\": {\"base64\", \"subType\"}}", j))?;
            let data = base64_decode(str_field(b, "base64", "$binary")?).ok_or_else(|| bad("valid base64", j))?;
            let st: [u8; 1] = unhex(str_field(b, "subType", "$binary")?).ok_or_else(|| bad("a subType of 2 hex digits", j))?;
            Value::Binary { subtype: st[0], bytes: Cow::Owned(data) }
        }
        ["$undefined"] => Value::Undefined,
        ["$oid"] => Value::ObjectId(oid(m.get("$oid"), j)?),
        ["$date"] => {
            let d = &m["$date"];
            let ms = match d {
                Json::Object(o) if o.len() == 1 => parse_i64(str_field(o, "$numberLong", "$date")?, j)?,
                Json::Number(n) => n.as_i64().ok_or_else(|| bad("milliseconds as an integer", j))?,
                _ => return Err(bad("{\"$date\": {\"$numberLong\": \"<ms>\"}}", j)),
            };
            Value::DateTime(ms)
        }
        ["$regularExpression"] => {
            let r = m["$regularExpression"].as_object().ok_or_else(|| bad("{\"$regularExpression\": {pattern, options}}", j))?;
            Value::Regex(Box::new(Regex {
                pattern: Cow::Owned(str_field(r, "pattern", "$regularExpression")?.to_owned()),
                options: Cow::Owned(str_field(r, "options", "$regularExpression")?.to_owned()),
            }))
        }
        ["$dbPointer"] => {
            let r = m["$dbPointer"].as_object().ok_or_else(|| bad("{\"$dbPointer\": {$ref, $id}}", j))?;
            let id = match r.get("$id") {
                Some(Json::Object(o)) => oid(o.get("$oid"), j)?,
                _ => return Err(bad("\"$id\": {\"$oid\": ..} in $dbPointer", j)),
            };
            Value::DbPointer(Box::new(DbPointer { namespace: Cow::Owned(str_field(r, "$ref", "$dbPointer")?.to_owned()), id }))
        }
        ["$code"] => Value::JavaScript(Cow::Owned(str_field(m, "$code", "$code")?.to_owned())),
        ["$symbol"] => Value::Symbol(Cow::Owned(str_field(m, "$symbol", "$symbol")?.to_owned())),
        ["$timestamp"] => {
            let t = m["$timestamp"].as_object().ok_or_else(|| bad("{\"$timestamp\": {t, i}}", j))?;
            let get = |k: &str| t.get(k).and_then(Json::as_u64).and_then(|n| u32::try_from(n).ok());
            match (get("t"), get("i")) {
                (Some(time), Some(increment)) => Value::Timestamp { time, increment },
                _ => return Err(bad("\"t\" and \"i\" as 32-bit unsigned integers", j)),
            }
        }
        ["$decimal128"] => {
            let s = m["$decimal128"].as_str().ok_or_else(|| bad("{\"$decimal128\": \"<32 hex digits>\"}", j))?;
            Value::Decimal128(unhex(s).ok_or_else(|| bad("32 hex digits", j))?)
        }
        ["$minKey"] => Value::MinKey,
        ["$maxKey"] => Value::MaxKey,
        _ => {
            return Err(bad(
                "a tag object ($numberLong, $numberDouble, $binary, $date, $oid, $entries, ...) — keys starting with '$' are tags",
                j,
            ))
        }
    };
    Ok(v)
}

fn oid(v: Option<&Json>, j: &Json) -> Result<[u8; 12]> {
    v.and_then(Json::as_str)
        .and_then(unhex)
        .ok_or_else(|| bad("an ObjectId of 24 hex digits", j))
}

/// The contract's name for [`document_to_json`]: a document's JSON tree.
pub use self::document_to_json as to_json;

/// The contract's name for [`document_from_json`]: a document from its JSON tree.
pub use self::document_from_json as from_json;

/// Writes a document's JSON to `w`, streamed from [`crate::json_view::DocumentView`]
/// (no JSON tree is built), pretty or on one line.
pub fn write_json<W: std::io::Write>(w: W, doc: &Document<'_>, pretty: bool) -> Result<()> {
    gamewire_core::json_out::write(w, &crate::json_view::DocumentView::new(doc), pretty)
        .map_err(gamewire_core::json_out::write_error)
}

fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    gamewire_core::hex::from_hex_array(s)
}

/// Standard base64 with padding ([`gamewire_core::base64::encode`]).
pub fn base64_encode(data: &[u8]) -> String {
    gamewire_core::base64::encode(data)
}

/// Decodes standard base64 (padding required, no whitespace:
/// [`gamewire_core::base64::decode`]).
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    gamewire_core::base64::decode(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_known() {
        for (raw, enc) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(raw), enc);
            assert_eq!(base64_decode(enc).unwrap(), raw);
        }
        assert!(base64_decode("Zg=").is_none());
        assert!(base64_decode("Z===").is_none());
    }
}

/// Parses JSON text strictly with nesting up to `max_depth` (serde_json alone stops at
/// 128, less than a deep slot hierarchy needs): see [`parse_text_with`].
pub fn parse_text(text: &[u8], max_depth: usize) -> Result<Json> {
    parse_text_with(text, &TextOptions::new(max_depth))
}

/// Parses JSON text with [`gamewire_core::json_text`]: the depth is checked by a scan
/// of the text before parsing (deep input is an error, never a stack overflow), an
/// integer literal past 64 bits is an error rather than a float, and a key repeated in
/// one object is an error unless `opts.last_key_wins`; errors name line and column.
pub fn parse_text_with(text: &[u8], opts: &TextOptions) -> Result<Json> {
    Ok(gamewire_core::json_text::parse(text, opts)?)
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn deep_json_within_the_limit_parses_and_past_it_is_an_error() {
        let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
        assert!(parse_text(deep.as_bytes(), 1024).is_ok());
        let e = parse_text(deep.as_bytes(), 100).unwrap_err();
        assert!(e.to_string().contains("at line 1 column 101"), "{e}");
        // brackets inside strings do not count
        assert!(parse_text(br#"{"a": "[[[[\"[[["}"#, 2).is_ok());
    }

    #[test]
    fn big_integers_and_repeated_keys_are_errors() {
        let e = parse_text(b"{\"v\": 18446744073709551616}", 8).unwrap_err();
        assert!(e.to_string().contains("outside the 64-bit range"), "{e}");
        let e = parse_text(b"{\"v\": 1, \"v\": 2}", 8).unwrap_err();
        assert!(e.to_string().contains("appears twice"), "{e}");
        let v = parse_text_with(
            b"{\"v\": 1, \"v\": 2}",
            &TextOptions::new(8).last_key_wins(true),
        )
        .unwrap();
        assert_eq!(v["v"], 2);
    }
}
