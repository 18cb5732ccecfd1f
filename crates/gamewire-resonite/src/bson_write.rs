//! Writing [`Value`]s as BSON, byte for byte as Newtonsoft.Json.Bson's writer lays them
//! out (array keys "0", "1", ...; string lengths counting the NUL).

use crate::value::{Document, Value};
use gamewire_core::{Error, ErrorKind, Result};

/// Appends `doc` as a BSON document. `max_depth` bounds nesting (an error, not a stack
/// overflow, for values built too deep).
pub fn write_document(doc: &Document<'_>, out: &mut Vec<u8>, max_depth: usize) -> Result<()> {
    let mut w = Writer { out, max_depth };
    w.document(doc, 1)
}

/// Encodes `doc` as a new BSON byte vector.
pub fn to_vec(doc: &Document<'_>, max_depth: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_document(doc, &mut out, max_depth)?;
    Ok(out)
}

struct Writer<'o> {
    out: &'o mut Vec<u8>,
    max_depth: usize,
}

fn too_big(what: &'static str, size: usize) -> Error {
    Error::new(ErrorKind::SizeLimit {
        what,
        size: size as u64,
        limit: i32::MAX as u64,
    })
}

impl Writer<'_> {
    fn begin(&mut self, depth: usize) -> Result<usize> {
        if depth > self.max_depth {
            return Err(Error::new(ErrorKind::DepthLimit {
                limit: self.max_depth,
            }));
        }
        let at = self.out.len();
        self.out.extend_from_slice(&[0; 4]);
        Ok(at)
    }

    fn end(&mut self, at: usize) -> Result<()> {
        self.out.push(0);
        let len = self.out.len() - at;
        let len32 = i32::try_from(len).map_err(|_| too_big("document", len))?;
        self.out[at..at + 4].copy_from_slice(&len32.to_le_bytes());
        Ok(())
    }

    fn cstring(&mut self, s: &str, what: &str) -> Result<()> {
        if s.as_bytes().contains(&0) {
            return Err(Error::unexpected_at(
                0,
                format!("a {what} without NUL characters"),
                format!("{s:?}"),
            )
            .no_offset());
        }
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        Ok(())
    }

    fn string(&mut self, s: &str) -> Result<()> {
        let len = s.len() + 1;
        let len32 = i32::try_from(len).map_err(|_| too_big("string", len))?;
        self.out.extend_from_slice(&len32.to_le_bytes());
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        Ok(())
    }

    fn document(&mut self, doc: &Document<'_>, depth: usize) -> Result<()> {
        let at = self.begin(depth)?;
        for (k, v) in &doc.entries {
            self.out.push(v.element_type());
            self.cstring(k, "key").map_err(|e| e.in_key(k.as_ref()))?;
            self.value(v, depth).map_err(|e| e.in_key(k.as_ref()))?;
        }
        self.end(at)
    }

    fn array(&mut self, items: &[Value<'_>], depth: usize) -> Result<()> {
        let at = self.begin(depth)?;
        let mut digits = [0u8; 20];
        for (i, v) in items.iter().enumerate() {
            self.out.push(v.element_type());
            // the decimal index as the key
            let mut n = i;
            let mut p = digits.len();
            loop {
                p -= 1;
                digits[p] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.out.extend_from_slice(&digits[p..]);
            self.out.push(0);
            self.value(v, depth).map_err(|e| e.in_index(i))?;
        }
        self.end(at)
    }

    fn value(&mut self, v: &Value<'_>, depth: usize) -> Result<()> {
        match v {
            Value::Double(d) => self.out.extend_from_slice(&d.to_le_bytes()),
            Value::String(s) | Value::JavaScript(s) | Value::Symbol(s) => self.string(s)?,
            Value::Document(d) => self.document(d, depth + 1)?,
            Value::Array(a) => self.array(a, depth + 1)?,
            Value::Binary { subtype, bytes } => {
                let len32 =
                    i32::try_from(bytes.len()).map_err(|_| too_big("binary", bytes.len()))?;
                self.out.extend_from_slice(&len32.to_le_bytes());
                self.out.push(*subtype);
                self.out.extend_from_slice(bytes);
            }
            Value::Undefined | Value::Null | Value::MinKey | Value::MaxKey => {}
            Value::ObjectId(id) => self.out.extend_from_slice(id),
            Value::Bool(b) => self.out.push(u8::from(*b)),
            Value::DateTime(t) => self.out.extend_from_slice(&t.to_le_bytes()),
            Value::Regex(r) => {
                self.cstring(&r.pattern, "regex pattern")?;
                self.cstring(&r.options, "regex options")?;
            }
            Value::DbPointer(p) => {
                self.string(&p.namespace)?;
                self.out.extend_from_slice(&p.id);
            }
            Value::JavaScriptWithScope(c) => {
                let (code, scope) = (&c.code, &c.scope);
                let at = self.out.len();
                self.out.extend_from_slice(&[0; 4]);
                self.string(code)?;
                self.document(scope, depth + 1)?;
                let len = self.out.len() - at;
                let len32 = i32::try_from(len).map_err(|_| too_big("code-with-scope", len))?;
                self.out[at..at + 4].copy_from_slice(&len32.to_le_bytes());
            }
            Value::Int32(i) => self.out.extend_from_slice(&i.to_le_bytes()),
            Value::Timestamp { time, increment } => {
                let raw = (u64::from(*time) << 32) | u64::from(*increment);
                self.out.extend_from_slice(&raw.to_le_bytes());
            }
            Value::Int64(i) => self.out.extend_from_slice(&i.to_le_bytes()),
            Value::Decimal128(b) => self.out.extend_from_slice(b),
        }
        Ok(())
    }
}

trait NoOffset {
    fn no_offset(self) -> Self;
}

impl NoOffset for Error {
    /// Encoding errors have no byte offset in an input; rebuild without one.
    fn no_offset(self) -> Self {
        match self.kind() {
            ErrorKind::Unexpected { expected, found } => Error::new(ErrorKind::Unexpected {
                expected: expected.clone(),
                found: found.clone(),
            }),
            _ => self,
        }
    }
}
