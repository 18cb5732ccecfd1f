//! XML object files: `<Objects><Class Name="class X"><m_prop>value</m_prop>...</Class></Objects>`.
//!
//! - A property is an element named after it; a container repeats the element once per
//!   item (an empty container is written `<m_list Count="0"/>`).
//! - A nested object is `<m_prop><Class Name="class Y">...</Class></m_prop>`; a null
//!   pointer is an empty element `<m_prop/>`.
//! - Numbers are decimal (floats in their shortest exact form), bools `true`/`false`,
//!   enums their value or their names (`A|B` for bit enums), strings their text.
//! - Leaf structs are their numbers separated by commas in the order of their JSON
//!   fields: Color `r,g,b,a`, Vector3D `x,y,z`, Euler `pitch,yaw,roll`, Quaternion
//!   `x,y,z,w`, Matrix3x3 nine numbers by rows, Point `x,y`, Size `width,height`,
//!   Rect `left,top,right,bottom`.

use crate::stack::{StackGuard, TOO_DEEP};
use crate::types::{ClassDef, Kind, PropertyDef, TypeList};
use crate::value::{Object, Value};
use gamewire_core::{Error, ErrorKind, Result};
use quick_xml::escape::escape;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::fmt::Write as _;

/// Deepest object nesting read from XML.
const MAX_DEPTH: usize = 1024;

// ---- writing -------------------------------------------------------------------------

/// Writes objects as an XML object file.
pub fn write(objects: &[Object], types: &TypeList) -> Result<String> {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n");
    for o in objects {
        write_object(&mut out, o, types, 1, StackGuard::new())?;
    }
    out.push_str("</Objects>\n");
    Ok(out)
}

/// Deepest indentation written: elements nested deeper line up at this level, so that a
/// file nested 1,000 objects deep is not mostly spaces (whitespace between elements means
/// nothing to the reader).
const MAX_INDENT: usize = 32;

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("  ");
    }
}

fn write_object(
    out: &mut String,
    o: &Object,
    types: &TypeList,
    depth: usize,
    g: StackGuard,
) -> Result<()> {
    // `depth` counts indentation: an object nested n deep is indented 1 + 2n.
    if depth > 1 + 2 * MAX_DEPTH {
        return Err(Error::new(ErrorKind::DepthLimit { limit: MAX_DEPTH }));
    }
    if !g.ok() {
        return Err(Error::msg(TOO_DEEP));
    }
    let class = types.get(o.hash).ok_or_else(|| {
        Error::msg(format!(
            "unknown type hash {}: not in the type list",
            o.hash
        ))
    })?;
    indent(out, depth);
    let _ = writeln!(out, "<Class Name=\"{}\">", escape(class.name.as_str()));
    for (h, v) in &o.properties {
        let p = class
            .properties
            .iter()
            .find(|p| p.hash == h)
            .ok_or_else(|| {
                Error::msg(format!(
                    "{} has no property with hash {h} (raw bits cannot be written as XML)",
                    class.name
                ))
            })?;
        write_property(out, p, v, types, depth + 1, g).map_err(|e| e.in_key(p.name.as_str()))?;
    }
    indent(out, depth);
    out.push_str("</Class>\n");
    Ok(())
}

fn write_property(
    out: &mut String,
    p: &PropertyDef,
    v: &Value,
    types: &TypeList,
    depth: usize,
    g: StackGuard,
) -> Result<()> {
    match (p.dynamic, v.list_items()) {
        (true, Some(items)) => {
            if items.is_empty() {
                indent(out, depth);
                let _ = writeln!(out, "<{} Count=\"0\"/>", p.name);
            }
            for (i, item) in items.iter().enumerate() {
                write_element(out, p, item, types, depth, g).map_err(|e| e.in_index(i))?;
            }
            Ok(())
        }
        (true, _) => Err(Error::msg("a container property needs a list")),
        (false, _) => write_element(out, p, v, types, depth, g),
    }
}

fn write_element(
    out: &mut String,
    p: &PropertyDef,
    v: &Value,
    types: &TypeList,
    depth: usize,
    g: StackGuard,
) -> Result<()> {
    indent(out, depth);
    match v {
        Value::Null => {
            let _ = writeln!(out, "<{}/>", p.name);
        }
        Value::Object(o) => {
            let _ = writeln!(out, "<{}>", p.name);
            write_object(out, o, types, depth + 1, g)?;
            indent(out, depth);
            let _ = writeln!(out, "</{}>", p.name);
        }
        other => {
            let text = text_of(other)?;
            let _ = writeln!(out, "<{0}>{1}</{0}>", p.name, escape(text.as_str()));
        }
    }
    Ok(())
}

fn join<T: std::fmt::Display>(items: &[T]) -> String {
    let mut s = String::new();
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{x}");
    }
    s
}

fn check_text(s: &str) -> Result<()> {
    match s.chars().find(|c| {
        (*c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || *c == '\u{FFFE}' || *c == '\u{FFFF}'
    }) {
        Some(c) => Err(Error::msg(format!(
            "character U+{:04X} cannot be written in XML",
            c as u32
        ))),
        None => Ok(()),
    }
}

fn text_of(v: &Value) -> Result<String> {
    Ok(match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(x) | Value::Enum(x) => x.to_string(),
        Value::UInt(x) => x.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Double(x) => x.to_string(),
        Value::String(b) => {
            let s = std::str::from_utf8(b)
                .map_err(|_| Error::msg("a string that is not UTF-8 cannot be written as XML"))?;
            check_text(s)?;
            s.to_owned()
        }
        Value::WString(w) => {
            let s = String::from_utf16(w).map_err(|_| {
                Error::msg("a wide string that is not valid UTF-16 cannot be written as XML")
            })?;
            check_text(&s)?;
            s
        }
        Value::EnumName(n) => n.clone(),
        Value::Color([b, g, r, a]) => join(&[r, g, b, a]),
        Value::Vec3(a) | Value::Euler(a) => join(a),
        Value::Quat([w, x, y, z]) => join(&[x, y, z, w]),
        Value::Matrix(m) => join(&m[..]),
        Value::PointInt(a) | Value::SizeInt(a) => join(a),
        Value::RectInt(a) => join(a),
        Value::PointUChar(a) => join(a),
        Value::PointUInt(a) => join(a),
        Value::PointFloat(a) => join(a),
        Value::RectFloat(a) => join(a),
        other => {
            return Err(Error::msg(format!(
                "{} cannot be written as XML text",
                crate::value_kind(other)
            )))
        }
    })
}

// ---- recognising -----------------------------------------------------------------------

/// True for XML text (the first character that is not blank, after a byte order mark,
/// is `<`): read as an XML object file ([`read`]), never as a bit stream.
pub fn is_xml_text(data: &[u8]) -> bool {
    let d = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    d.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

/// True when `data` looks like an XML object file by its content: after an optional byte
/// order mark, XML declaration, comments and white space, the root element is
/// `<Objects>` and its first child (if any) is a `<Class` element. Only the first 4 KiB
/// are looked at; other XML (a Zeze solution's `<solution>`) is not claimed.
pub fn looks_like_object_file(data: &[u8]) -> bool {
    let d = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let d = &d[..d.len().min(4096)];
    let Some(rest) = skip_prolog(d) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(b"<Objects") else {
        return false;
    };
    // `<Objects>` or `<Objects/>` or `<Objects attr...>`, not `<ObjectsX>`.
    let Some(end) = rest.iter().position(|&b| b == b'>') else {
        return false;
    };
    match rest.first() {
        Some(b'>' | b'/') => {}
        Some(b) if b.is_ascii_whitespace() => {}
        _ => return false,
    }
    if rest[..end].ends_with(b"/") {
        return true; // `<Objects/>`: an empty object file
    }
    let Some(rest) = skip_prolog(&rest[end + 1..]) else {
        // Cut off inside a comment within the first 4 KiB: the root decides.
        return true;
    };
    if rest.is_empty() || rest.starts_with(b"</Objects") {
        return true;
    }
    rest.strip_prefix(b"<Class").is_some_and(|r| {
        r.first()
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>')
    })
}

/// Skips white space, `<?...?>` processing instructions and `<!--...-->` comments;
/// `None` when one of them is not closed.
fn skip_prolog(mut d: &[u8]) -> Option<&[u8]> {
    loop {
        let start = d
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(d.len());
        d = &d[start..];
        if let Some(r) = d.strip_prefix(b"<?") {
            let end = r.windows(2).position(|w| w == b"?>")?;
            d = &r[end + 2..];
        } else if let Some(r) = d.strip_prefix(b"<!--") {
            let end = r.windows(3).position(|w| w == b"-->")?;
            d = &r[end + 3..];
        } else {
            return Some(d);
        }
    }
}

// ---- reading -------------------------------------------------------------------------

/// Reads every object of an XML object file.
pub fn read(data: &[u8], types: &TypeList) -> Result<Vec<Object>> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut x = Xml {
        data,
        r: Reader::from_reader(data),
        buf: Vec::new(),
        types,
    };
    // Find <Objects>.
    loop {
        match x.next()? {
            (Ev::Start(name, _), _) if name == "Objects" => break,
            (Ev::Empty(name, _), _) if name == "Objects" => return Ok(Vec::new()),
            (Ev::Start(name, _) | Ev::Empty(name, _), at) => {
                return Err(Error::unexpected_at(
                    at,
                    "the root element <Objects>",
                    format!("<{name}>"),
                ))
            }
            (Ev::Eof, at) => {
                return Err(Error::unexpected_at(at, "<Objects>", "the end of the file"))
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    loop {
        match x.next()? {
            (Ev::Start(name, class), at) if name == "Class" => {
                let i = out.len();
                out.push(x.object(class, at).map_err(|e| e.in_index(i))?);
            }
            (Ev::End(name), _) if name == "Objects" => return Ok(out),
            (Ev::Text(t), at) if !t.trim().is_empty() => {
                return Err(Error::unexpected_at(at, "<Class>", format!("text {t:?}")))
            }
            (Ev::Start(name, _) | Ev::Empty(name, _), at) => {
                return Err(Error::unexpected_at(at, "<Class>", format!("<{name}>")))
            }
            (Ev::Eof, at) => {
                return Err(Error::unexpected_at(
                    at,
                    "</Objects>",
                    "the end of the file",
                ))
            }
            _ => {}
        }
    }
}

enum Ev {
    Start(String, Option<String>),
    Empty(String, Option<String>),
    End(String),
    Text(String),
    Eof,
}

struct Xml<'a, 't> {
    data: &'a [u8],
    r: Reader<&'a [u8]>,
    buf: Vec<u8>,
    types: &'t TypeList,
}

fn name_attr(e: &BytesStart) -> Result<(Option<String>, bool)> {
    let mut name = None;
    let mut zero = false;
    for a in e.attributes() {
        let a = a.map_err(|err| Error::msg(format!("bad XML attribute: {err}")))?;
        let v = a
            .unescape_value()
            .map_err(|err| Error::msg(format!("bad XML attribute: {err}")))?;
        match a.key.as_ref() {
            b"Name" => name = Some(v.into_owned()),
            b"Count" => zero = v == "0",
            _ => {}
        }
    }
    Ok((name, zero))
}

enum Content {
    Empty { zero: bool },
    Text(String),
    Object(Object),
}

impl<'t> Xml<'_, 't> {
    fn next(&mut self) -> Result<(Ev, usize)> {
        self.buf.clear();
        let at = self.r.buffer_position() as usize;
        let ev = self
            .r
            .read_event_into(&mut self.buf)
            .map_err(|e| Error::msg_at(at, format!("invalid XML: {e}")))?;
        let tag = |e: &BytesStart| String::from_utf8_lossy(e.name().as_ref()).into_owned();
        let ev = match ev {
            Event::Start(e) => {
                let (n, zero) = name_attr(&e)?;
                Ev::Start(tag(&e), n.or(zero.then(|| "0".to_owned())))
            }
            Event::Empty(e) => {
                let (n, zero) = name_attr(&e)?;
                Ev::Empty(tag(&e), n.or(zero.then(|| "0".to_owned())))
            }
            Event::End(e) => Ev::End(String::from_utf8_lossy(e.name().as_ref()).into_owned()),
            Event::Text(t) => Ev::Text(
                t.unescape()
                    .map_err(|e| Error::msg_at(at, format!("invalid XML text: {e}")))?
                    .into_owned(),
            ),
            Event::CData(t) => Ev::Text(String::from_utf8_lossy(&t).into_owned()),
            Event::Eof => Ev::Eof,
            _ => Ev::Text(String::new()),
        };
        Ok((ev, at))
    }

    /// Reads one `<Class>` (its start tag already read, at byte `at`) up to its
    /// `</Class>`, nested objects included. A loop over an explicit stack, not
    /// recursion: nesting is bounded by [`MAX_DEPTH`] alone, whatever the thread's stack.
    fn object(&mut self, name: Option<String>, at: usize) -> Result<Object> {
        let mut stack = vec![open_class(self.types, self.data, name, at, 0)?];
        loop {
            match self.step(&mut stack) {
                Ok(Some(o)) => return Ok(o),
                Ok(None) => {}
                Err(mut e) => {
                    // The path: each open property element, innermost first.
                    for f in stack.iter().rev() {
                        if let Some(p) = &f.prop {
                            e = e.in_key(p.tag.as_str());
                        }
                    }
                    return Err(e);
                }
            }
        }
    }

    /// Reads one event into the innermost open class; returns the outermost object
    /// when its `</Class>` is read.
    fn step(&mut self, stack: &mut Vec<Open<'t>>) -> Result<Option<Object>> {
        let (ev, at) = self.next()?;
        let depth = stack.len();
        let top = stack.last_mut().expect("an open class");
        let Some(p) = &mut top.prop else {
            // Between the properties of a class.
            match ev {
                Ev::End(t) if t == "Class" => {
                    let done = stack.pop().expect("an open class");
                    let obj = Object::new(done.class.hash, done.props);
                    match stack.last_mut() {
                        None => return Ok(Some(obj)),
                        Some(parent) => {
                            let p = parent.prop.as_mut().expect("a class inside a property");
                            p.obj = Some(obj);
                        }
                    }
                }
                Ev::Start(tag, _) => {
                    top.prop = Some(Prop {
                        tag,
                        at,
                        text: String::new(),
                        obj: None,
                    })
                }
                Ev::Empty(tag, attr) => {
                    let zero = attr.as_deref() == Some("0");
                    add_property(top, &tag, at, Content::Empty { zero })?;
                }
                Ev::Text(t) if t.trim().is_empty() => {}
                Ev::Text(t) => {
                    return Err(Error::unexpected_at(
                        at,
                        "a property element",
                        format!("text {t:?}"),
                    ))
                }
                Ev::End(t) => return Err(Error::unexpected_at(at, "</Class>", format!("</{t}>"))),
                Ev::Eof => return Err(Error::unexpected_at(at, "</Class>", "the end of the file")),
            }
            return Ok(None);
        };
        // Inside a property element: text, or one <Class>.
        match ev {
            Ev::Text(t) => p.text.push_str(&t),
            Ev::Start(n, class) if n == "Class" && p.obj.is_none() => {
                let frame = open_class(self.types, self.data, class, at, depth)?;
                stack.push(frame);
            }
            Ev::End(n) if n == p.tag => {
                let p = top.prop.take().expect("an open property");
                let content = match p.obj {
                    Some(o) if p.text.trim().is_empty() => Content::Object(o),
                    Some(_) => {
                        return Err(Error::msg_at(p.at, "text beside a <Class>").in_key(p.tag))
                    }
                    None if p.text.is_empty() => Content::Empty { zero: false },
                    None => Content::Text(p.text),
                };
                add_property(top, &p.tag, p.at, content)?;
            }
            Ev::Start(n, _) | Ev::Empty(n, _) => {
                return Err(Error::unexpected_at(
                    at,
                    format!("text or one <Class> in <{}>", p.tag),
                    format!("<{n}>"),
                ))
            }
            Ev::End(n) => {
                return Err(Error::unexpected_at(
                    at,
                    format!("</{}>", p.tag),
                    format!("</{n}>"),
                ))
            }
            Ev::Eof => {
                return Err(Error::unexpected_at(
                    at,
                    format!("</{}>", p.tag),
                    "the end of the file",
                ))
            }
        }
        Ok(None)
    }
}

/// A `<Class>` being read.
struct Open<'t> {
    class: &'t ClassDef,
    props: Vec<(u32, Value)>,
    /// The property element open inside it, if any.
    prop: Option<Prop>,
}

/// A property element being read: its tag, where it starts, its text and object so far.
struct Prop {
    tag: String,
    at: usize,
    text: String,
    obj: Option<Object>,
}

/// Line and column (1-based) of byte `at` of `data`.
fn line_column(data: &[u8], at: usize) -> (usize, usize) {
    let before = &data[..at.min(data.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, at.min(data.len()) - start + 1)
}

/// Opens a `<Class Name=...>` at byte `at`, `depth` objects deep.
fn open_class<'t>(
    types: &'t TypeList,
    data: &[u8],
    name: Option<String>,
    at: usize,
    depth: usize,
) -> Result<Open<'t>> {
    if depth > MAX_DEPTH {
        let (line, column) = line_column(data, at);
        return Err(Error::msg_at(
            at,
            format!(
                "objects nested deeper than the limit of {MAX_DEPTH} (line {line}, column {column})"
            ),
        ));
    }
    let name = name.ok_or_else(|| Error::msg_at(at, "<Class> needs a Name attribute"))?;
    let class: &ClassDef = types.by_name(&name).ok_or_else(|| {
        Error::msg_at(at, format!("unknown class {name:?}: not in the type list"))
    })?;
    Ok(Open {
        class,
        props: Vec::new(),
        prop: None,
    })
}

/// Adds a property element read at byte `at` to the class being read.
fn add_property(o: &mut Open<'_>, tag: &str, at: usize, content: Content) -> Result<()> {
    let class = o.class;
    let (_, p) = class
        .property_by_name(tag)
        .ok_or_else(|| Error::msg_at(at, format!("{} has no property {tag:?}", class.name)))?;
    let slot = o.props.iter().position(|(h, _)| *h == p.hash);
    if p.dynamic {
        let i = match slot {
            Some(i) => i,
            None => {
                o.props.push((p.hash, Value::List(Vec::new())));
                o.props.len() - 1
            }
        };
        if matches!(content, Content::Empty { zero: true }) {
            return Ok(());
        }
        let v = element(p, content).map_err(|e| e.or_offset(at).in_key(tag))?;
        if let Value::List(items) = &mut o.props[i].1 {
            items.push(v);
        }
    } else {
        if slot.is_some() {
            return Err(Error::msg_at(
                at,
                format!("property {tag:?} is given twice"),
            ));
        }
        let v = element(p, content).map_err(|e| e.or_offset(at).in_key(tag))?;
        o.props.push((p.hash, v));
    }
    Ok(())
}

fn nums<T: std::str::FromStr + Copy + Default, const N: usize>(s: &str) -> Result<[T; N]> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(Error::msg(format!(
            "expected {N} numbers separated by commas, found {s:?}"
        )));
    }
    let mut out = [T::default(); N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = p
            .parse()
            .map_err(|_| Error::msg(format!("{p:?} is not a number of the right kind")))?;
    }
    Ok(out)
}

fn num<T: std::str::FromStr>(s: &str) -> Result<T> {
    s.trim()
        .parse()
        .map_err(|_| Error::msg(format!("{s:?} is not a number of the right kind")))
}

fn element(p: &PropertyDef, c: Content) -> Result<Value> {
    let text = match c {
        Content::Object(o) if p.kind == Kind::Object => return Ok(Value::Object(o)),
        Content::Object(_) => {
            return Err(Error::msg(format!(
                "a <Class> where {} expects text",
                p.type_name
            )))
        }
        Content::Empty { .. } if p.kind == Kind::Object => return Ok(Value::Null),
        Content::Empty { .. } => String::new(),
        Content::Text(t) if p.kind == Kind::Object && t.trim().is_empty() => {
            return Ok(Value::Null)
        }
        Content::Text(t) => t,
    };
    let t = text.as_str();
    Ok(match p.kind {
        Kind::Bool => match t.trim() {
            "true" | "1" => Value::Bool(true),
            "false" | "0" => Value::Bool(false),
            other => {
                return Err(Error::msg(format!(
                    "expected true or false, found {other:?}"
                )))
            }
        },
        Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64 | Kind::SBits(_) => Value::Int(num(t)?),
        Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64 | Kind::UBits(_) => Value::UInt(num(t)?),
        Kind::F32 => Value::Float(num(t)?),
        Kind::F64 => Value::Double(num(t)?),
        Kind::Str => Value::String(t.as_bytes().into()),
        Kind::WStr => Value::WString(t.encode_utf16().collect()),
        Kind::Enum => match t.trim().parse::<i64>() {
            Ok(v) => Value::Enum(v),
            Err(_) => {
                p.enum_from_names(t).map_err(|bad| {
                    Error::msg(format!("{bad:?} is no option of {}", p.enum_label()))
                })?;
                Value::EnumName(t.to_owned())
            }
        },
        Kind::Color => {
            let [r, g, b, a] = nums::<u8, 4>(t)?;
            Value::Color([b, g, r, a])
        }
        Kind::Vec3 => Value::Vec3(nums(t)?),
        Kind::Euler => Value::Euler(nums(t)?),
        Kind::Quat => {
            let [x, y, z, w] = nums::<f32, 4>(t)?;
            Value::Quat([w, x, y, z])
        }
        Kind::Matrix => Value::Matrix(Box::new(nums(t)?)),
        Kind::PointInt => Value::PointInt(nums(t)?),
        Kind::SizeInt => Value::SizeInt(nums(t)?),
        Kind::RectInt => Value::RectInt(nums(t)?),
        Kind::PointUChar => Value::PointUChar(nums(t)?),
        Kind::PointUInt => Value::PointUInt(nums(t)?),
        Kind::PointFloat => Value::PointFloat(nums(t)?),
        Kind::RectFloat => Value::RectFloat(nums(t)?),
        Kind::Object => unreachable!("handled above"),
    })
}
