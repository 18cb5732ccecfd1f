//! Where a value is in an XML object file ([`crate::xml`]): the text of the value at a
//! JSON Pointer of the file's JSON (what `gamewire decode` writes: the one object, or an
//! array of the objects when the file holds another number), as a byte offset and length
//! in the file, with its line and column.
//!
//! - A value written as text (a number, a string, an enum) is its element's text,
//!   between the start and end tags.
//! - A component of a leaf struct (a `Color`'s `r`, a `Vector3D`'s `x`, a `Matrix3x3`'s
//!   row `i` or its number `i/1`) is its number in the comma-separated text.
//! - An object is its `<Class>` element; its `$class` is the `Name` attribute's value,
//!   and so is its `$hash` (computed from the name: not its own).
//! - A null pointer (`<m_prop/>`) and an empty list (`<m_list Count="0"/>`) are their
//!   element; a list is its elements, from the first's start to the last's end; its
//!   items are each element's text or `<Class>`.
//! - The whole file of several objects is its `<Objects>` element.
//!
//! [`XmlIndex`] reads the file once into a flat list of its elements (where each starts
//! and ends, and its first child and next sibling) and where each line starts: no value
//! is built, and later requests only follow the pointer.

use crate::types::{Kind, PropertyDef, TypeList};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::ops::Range;

/// Where the text of one value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextSpan {
    /// The first byte, in the file.
    pub offset: usize,
    /// The number of bytes.
    pub length: usize,
    /// False when the text says more than the value (an object's `$hash`, given by the
    /// class name).
    pub own: bool,
    /// The line of the first byte (from 1).
    pub line: usize,
    /// The column of the first byte (from 1, in characters).
    pub column: usize,
}

/// No element.
const NONE: u32 = u32::MAX;

/// One element of the file.
#[derive(Debug, Clone)]
struct El {
    /// The tag's name, in the file.
    name: Range<usize>,
    /// From its `<` to the end of its end tag (or of the empty tag).
    outer: Range<usize>,
    /// Between its start and end tags; `None` for an empty-element tag (`<a/>`).
    inner: Option<Range<usize>>,
    /// The value of its `Name` attribute, in the file.
    name_attr: Option<Range<usize>>,
    /// True for `Count="0"` (an empty list).
    zero: bool,
    first_child: u32,
    next: u32,
}

/// The elements of an XML object file, read once. See the module docs.
#[derive(Debug, Clone)]
pub struct XmlIndex {
    els: Vec<El>,
    /// The `<Objects>` element.
    objects: u32,
    /// Where each line starts (the first at 0).
    lines: Vec<usize>,
}

/// The span of the value at JSON Pointer tokens `toks` of the JSON of the XML object
/// file `data`, whose classes `types` names. Reads the file on each call: a program
/// asking often keeps an [`XmlIndex`].
pub fn span(data: &[u8], types: &TypeList, toks: &[String]) -> Result<TextSpan, String> {
    XmlIndex::new(data)?.span(data, types, toks)
}

/// The offset of `part` in `data`, when `part` is borrowed from it.
fn offset_in(data: &[u8], part: &[u8]) -> Option<Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(data.as_ptr() as usize)?;
    (start + part.len() <= data.len()).then(|| start..start + part.len())
}

impl XmlIndex {
    /// Reads the elements of `data`. Errors: XML that does not read (with its byte
    /// offset), or no `<Objects>` root.
    pub fn new(data: &[u8]) -> Result<XmlIndex, String> {
        // The reader counts from after a byte order mark: offsets are the file's.
        let bom = if data.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let mut r = Reader::from_reader(&data[bom..]);
        let mut els: Vec<El> = Vec::new();
        // Open elements, and the last child of each so far.
        let mut open: Vec<(u32, u32)> = Vec::new();
        loop {
            let before = bom + r.buffer_position() as usize;
            let ev = r
                .read_event()
                .map_err(|e| format!("invalid XML at byte {before}: {e}"))?;
            let after = bom + r.buffer_position() as usize;
            let (e, empty) = match ev {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(_) => {
                    let (i, _) = open
                        .pop()
                        .ok_or_else(|| format!("an end tag with no start at byte {before}"))?;
                    let el = &mut els[i as usize];
                    el.inner = el.inner.take().map(|r| r.start..before);
                    el.outer.end = after;
                    continue;
                }
                Event::Eof => break,
                _ => continue,
            };
            let i = els.len() as u32;
            els.push(element(data, &e, before..after, empty)?);
            if let Some((parent, last)) = open.last_mut() {
                if *last == NONE {
                    els[*parent as usize].first_child = i;
                } else {
                    els[*last as usize].next = i;
                }
                *last = i;
            }
            if !empty {
                open.push((i, NONE));
            }
        }
        if !open.is_empty() {
            return Err("the XML ends inside an element".into());
        }
        match els.first() {
            Some(root) if &data[root.name.clone()] == b"Objects" => {}
            _ => return Err("not an XML object file: the root is not <Objects>".into()),
        }
        let lines = std::iter::once(0)
            .chain(
                data.iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        Ok(XmlIndex {
            els,
            objects: 0,
            lines,
        })
    }

    /// The children of element `i`.
    fn children(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.els[i as usize].first_child;
        std::iter::from_fn(move || {
            (at != NONE).then(|| {
                let here = at;
                at = self.els[here as usize].next;
                here
            })
        })
    }

    /// The children of element `i` named `name`.
    fn named<'s>(
        &'s self,
        data: &'s [u8],
        i: u32,
        name: &'s str,
    ) -> impl Iterator<Item = u32> + 's {
        self.children(i)
            .filter(move |&c| &data[self.els[c as usize].name.clone()] == name.as_bytes())
    }

    /// The span of the value at JSON Pointer tokens `toks` of the JSON of `data` (the
    /// bytes this index was read from), whose classes `types` names; an error names a
    /// pointer that is not there.
    pub fn span(&self, data: &[u8], types: &TypeList, toks: &[String]) -> Result<TextSpan, String> {
        let (range, own) = self
            .find(data, types, toks)
            .map_err(|why| crate::span::missing(toks, why))?;
        // The line from the kept line starts; the column in characters.
        let line = self.lines.partition_point(|&start| start <= range.start);
        let start = self.lines[line - 1];
        let column = 1 + data[start..range.start]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Ok(TextSpan {
            offset: range.start,
            length: range.len(),
            own,
            line,
            column,
        })
    }

    fn find(
        &self,
        data: &[u8],
        types: &TypeList,
        toks: &[String],
    ) -> Result<(Range<usize>, bool), String> {
        let objects: Vec<u32> = self.named(data, self.objects, "Class").collect();
        let (object, toks) = match (objects.as_slice(), toks) {
            ([one], toks) => (*one, toks),
            (_, []) => return Ok((self.els[self.objects as usize].outer.clone(), true)),
            (all, [i, rest @ ..]) => (all[index(i, all.len())?], rest),
        };
        self.in_object(data, types, object, toks)
    }

    /// The span inside the `<Class>` element `el`.
    fn in_object(
        &self,
        data: &[u8],
        types: &TypeList,
        mut el: u32,
        mut toks: &[String],
    ) -> Result<(Range<usize>, bool), String> {
        loop {
            let e = &self.els[el as usize];
            let Some((tok, rest)) = toks.split_first() else {
                return Ok((e.outer.clone(), true));
            };
            let name = e.name_attr.clone().ok_or("a <Class> with no Name")?;
            if tok == "$class" || tok == "$hash" {
                if !rest.is_empty() {
                    return Err(format!("{tok} holds no {:?}", rest[0]));
                }
                return Ok((name, tok == "$class"));
            }
            let class_name = String::from_utf8_lossy(&data[name]).into_owned();
            let class = types
                .by_name(&class_name)
                .ok_or_else(|| format!("unknown class {class_name:?}"))?;
            let (_, p) = class
                .property_by_name(tok)
                .ok_or_else(|| format!("the object has no {tok:?}"))?;
            let found: Vec<u32> = self.named(data, el, tok).collect();
            let item = if p.dynamic {
                let items: Vec<u32> = found
                    .iter()
                    .copied()
                    .filter(|&i| !self.els[i as usize].zero)
                    .collect();
                match rest.split_first() {
                    None => {
                        let (first, last) = match (items.first(), items.last()) {
                            (Some(a), Some(b)) => (*a, *b),
                            _ => {
                                let z = *found.first().ok_or("the object has no such list")?;
                                (z, z)
                            }
                        };
                        let start = self.els[first as usize].outer.start;
                        return Ok((start..self.els[last as usize].outer.end, true));
                    }
                    Some((i, more)) => {
                        toks = more;
                        items[index(i, items.len())?]
                    }
                }
            } else {
                toks = rest;
                *found
                    .first()
                    .ok_or_else(|| format!("the object has no {tok:?}"))?
            };
            // The property element: a nested object, or text.
            match self.named(data, item, "Class").next() {
                Some(inner) => el = inner,
                None => return self.in_text(data, item, p, toks),
            }
        }
    }

    /// The span inside the property element `el` holding text (or nothing).
    fn in_text(
        &self,
        data: &[u8],
        el: u32,
        p: &PropertyDef,
        toks: &[String],
    ) -> Result<(Range<usize>, bool), String> {
        let e = &self.els[el as usize];
        let Some(text) = e.inner.clone() else {
            // `<m_prop/>`: a null pointer or an empty value.
            return match toks {
                [] => Ok((e.outer.clone(), true)),
                [t, ..] => Err(format!("an empty element holds no {t:?}")),
            };
        };
        match toks {
            [] => Ok((text, true)),
            // The same value in another form.
            [t] if ["$f32", "$f64", "$bytes", "$utf16"].contains(&t.as_str()) => Ok((text, true)),
            [t, more @ ..] => {
                let (names, per): (&[&str], usize) = match p.kind {
                    Kind::Color => (&["r", "g", "b", "a"], 1),
                    Kind::Vec3 => (&["x", "y", "z"], 1),
                    Kind::Euler => (&["pitch", "yaw", "roll"], 1),
                    Kind::Quat => (&["x", "y", "z", "w"], 1),
                    Kind::Matrix => (&["i", "j", "k"], 3),
                    Kind::PointInt | Kind::PointUChar | Kind::PointUInt | Kind::PointFloat => {
                        (&["x", "y"], 1)
                    }
                    Kind::SizeInt => (&["width", "height"], 1),
                    Kind::RectInt | Kind::RectFloat => (&["left", "top", "right", "bottom"], 1),
                    _ => return Err(format!("a {} holds no {t:?}", p.type_name)),
                };
                let k = names
                    .iter()
                    .position(|n| n == t)
                    .ok_or_else(|| format!("a {} holds no {t:?}", p.type_name))?;
                let numbers = numbers(data, text);
                if numbers.len() != names.len() * per {
                    return Err(format!("the text holds {} numbers", numbers.len()));
                }
                let (first, count) = match (per, more) {
                    (1, [] | [_]) if more.iter().all(|m| m == "$f32") => (k, 1),
                    (3, []) => (3 * k, 3),
                    (3, [j, rest @ ..]) if rest.iter().all(|m| m == "$f32") => {
                        (3 * k + index(j, 3)?, 1)
                    }
                    _ => return Err(format!("no value {:?} inside", more[0])),
                };
                let start = numbers[first].start;
                Ok((start..numbers[first + count - 1].end, true))
            }
        }
    }
}

/// An element read from its tag, at `outer` (its end set when it closes).
fn element(data: &[u8], e: &BytesStart, outer: Range<usize>, empty: bool) -> Result<El, String> {
    let at = outer.start;
    let name = offset_in(data, e.name().into_inner())
        .ok_or_else(|| format!("an element name at byte {at} outside the file"))?;
    let mut name_attr = None;
    let mut zero = false;
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad XML attribute at byte {at}: {err}"))?;
        match a.key.as_ref() {
            b"Name" => name_attr = offset_in(data, &a.value),
            b"Count" => zero = &*a.value == b"0",
            _ => {}
        }
    }
    Ok(El {
        name,
        inner: (!empty).then_some(outer.end..outer.end),
        outer,
        name_attr,
        zero,
        first_child: NONE,
        next: NONE,
    })
}

/// The numbers of a comma-separated text, each without the blanks around it.
fn numbers(data: &[u8], text: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = text.start;
    for i in text.start..=text.end {
        if i == text.end || data[i] == b',' {
            let mut a = start;
            let mut b = i;
            while a < b && data[a].is_ascii_whitespace() {
                a += 1;
            }
            while b > a && data[b - 1].is_ascii_whitespace() {
                b -= 1;
            }
            out.push(a..b);
            start = i + 1;
        }
    }
    out
}

/// An index token below `n`.
fn index(t: &str, n: usize) -> Result<usize, String> {
    match t.parse::<usize>() {
        Ok(i) if i < n && (t == "0" || !t.starts_with('0')) => Ok(i),
        _ => Err(format!("no item {t:?} of {n}")),
    }
}
