//! KingsIsle's XML type dump: `<ClassList><Class Name=".." Base=".."><Property Name=".."
//! PropertyId=".." Type=".." Flags=".." Container=".." Dynamic="true" Pointer="true">
//! <Enum><Option Name=".." Value=".."/></Enum></Property></Class></ClassList>`.
//!
//! The dump has no hashes: class hashes are `string_id(name)` and property tags
//! `string_id(type) + djb2(name)`. Base-class properties a dump leaves out are added by
//! [`TypeList::include_bases`] (run by [`TypeList::from_files`]).

use crate::types::{ClassDef, PropertyDef, TypeList};
use gamewire_core::{Error, Result};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

fn attr(e: &BytesStart, name: &[u8]) -> Result<Option<String>> {
    for a in e.attributes() {
        let a = a.map_err(|err| Error::msg(format!("bad XML attribute: {err}")))?;
        if a.key.as_ref() == name {
            let v = a
                .unescape_value()
                .map_err(|err| Error::msg(format!("bad XML attribute value: {err}")))?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

fn num(e: &BytesStart, name: &[u8], what: &str) -> Result<u32> {
    match attr(e, name)? {
        None => Ok(0),
        Some(s) => s.trim().parse::<u32>().map_err(|_| {
            Error::msg(format!(
                "{what}: attribute {} must be a number, found {s:?}",
                String::from_utf8_lossy(name)
            ))
        }),
    }
}

/// Parses an XML type dump.
pub fn parse(data: &[u8]) -> Result<TypeList> {
    let mut reader = Reader::from_reader(data);
    let mut list = TypeList::new();
    let mut class: Option<ClassDef> = None;
    let mut prop: Option<PropertyDef> = None;
    let mut buf = Vec::new();
    loop {
        let pos = reader.buffer_position() as usize;
        let ev = reader
            .read_event_into(&mut buf)
            .map_err(|e| Error::msg_at(pos, format!("invalid XML type dump: {e}")))?;
        let empty = matches!(ev, Event::Empty(_));
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => match e.name().as_ref() {
                b"Class" => {
                    let name = attr(e, b"Name")?
                        .ok_or_else(|| Error::msg_at(pos, "<Class> needs a Name"))?;
                    let mut c = ClassDef::new(&name);
                    if let Some(b) = attr(e, b"Base")? {
                        c.bases = b
                            .split(',')
                            .map(|s| s.trim().to_owned())
                            .filter(|s| !s.is_empty())
                            .collect();
                    }
                    if empty {
                        list.insert(c);
                    } else {
                        class = Some(c);
                    }
                }
                b"Property" => {
                    let name = attr(e, b"Name")?
                        .ok_or_else(|| Error::msg_at(pos, "<Property> needs a Name"))?;
                    let ty = attr(e, b"Type")?
                        .ok_or_else(|| Error::msg_at(pos, "<Property> needs a Type"))?;
                    let dynamic = attr(e, b"Dynamic")?.is_some_and(|d| d == "true");
                    let mut p = PropertyDef::new(
                        &name,
                        &ty,
                        num(e, b"PropertyId", &name)?,
                        num(e, b"Flags", &name)?,
                        dynamic,
                    );
                    p.offset = num(e, b"Offset", &name)?;
                    p.pointer = attr(e, b"Pointer")?.is_some_and(|d| d == "true");
                    if let Some(c) = attr(e, b"Container")? {
                        p.container = c;
                    }
                    if empty {
                        if let Some(c) = class.as_mut() {
                            c.properties.push(p);
                        }
                    } else {
                        prop = Some(p);
                    }
                }
                b"Option" => {
                    if let Some(p) = prop.as_mut() {
                        let name = attr(e, b"Name")?.unwrap_or_default();
                        if let Some(v) =
                            attr(e, b"Value")?.and_then(|v| v.trim().parse::<i64>().ok())
                        {
                            p.enum_options.push((name, v));
                        }
                    }
                }
                _ => {}
            },
            Event::End(ref e) => match e.name().as_ref() {
                b"Property" => {
                    if let (Some(p), Some(c)) = (prop.take(), class.as_mut()) {
                        c.properties.push(p);
                    }
                }
                b"Class" => {
                    if let Some(c) = class.take() {
                        list.insert(c);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(list)
}
