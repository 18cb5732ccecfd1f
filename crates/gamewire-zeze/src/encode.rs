//! Encoding a [`Bean`] tree back to Zeze bytes.

use crate::value::{Bean, Value, WireType};
use crate::varint::{write_list_header, write_long, write_map_header, write_tag, write_uint};
use gamewire_core::{Error, Result};

/// Encodes a bean to a new vector.
pub fn encode(bean: &Bean) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    encode_into(bean, &mut out)?;
    Ok(out)
}

/// Appends a bean's bytes to `out`.
pub fn encode_into(bean: &Bean, out: &mut Vec<u8>) -> Result<()> {
    let mut level = bean;
    loop {
        let mut last = 0u32;
        for f in &level.fields {
            if f.id <= last {
                return Err(Error::msg(format!(
                    "field ids must increase within a bean level: {} after {}",
                    f.id, last
                )));
            }
            if f.id > i32::MAX as u32 {
                return Err(Error::msg(format!("field id {} is past 2147483647", f.id)));
            }
            let delta = f.id - last;
            last = f.id;
            // Integers and byte strings (most fields) are written here, the rest by
            // `write_value`.
            match &f.value {
                Value::Integer(i) => {
                    write_tag(out, delta, WireType::Integer as u8);
                    write_long(out, *i);
                }
                Value::Bytes(b) => {
                    write_tag(out, delta, WireType::Bytes as u8);
                    write_bytes(b, out).map_err(|e| e.in_key(f.id.to_string()))?;
                }
                v => {
                    write_tag(out, delta, v.wire_type() as u8);
                    write_value(v, out).map_err(|e| e.in_key(f.id.to_string()))?;
                }
            }
        }
        match &level.base {
            Some(b) => {
                out.push(1);
                level = b;
            }
            None => {
                out.push(0);
                return Ok(());
            }
        }
    }
}

fn count_u32(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::msg(format!("{n} items do not fit a Zeze count")))
}

#[inline]
fn write_bytes(b: &[u8], out: &mut Vec<u8>) -> Result<()> {
    write_uint(out, count_u32(b.len())?);
    out.extend_from_slice(b);
    Ok(())
}

fn check_type(v: &Value, want: WireType) -> Result<()> {
    if v.wire_type() != want {
        return Err(Error::msg(format!(
            "expected a {want} item as the header says, found a {}",
            v.wire_type()
        )));
    }
    Ok(())
}

/// Appends one value (without a tag).
pub fn write_value(v: &Value, out: &mut Vec<u8>) -> Result<()> {
    match v {
        Value::Integer(i) => write_long(out, *i),
        Value::Float(f) => out.extend_from_slice(&f.to_le_bytes()),
        Value::Double(d) => out.extend_from_slice(&d.to_le_bytes()),
        Value::Bytes(b) => write_bytes(b, out)?,
        Value::List { elem, items } => {
            write_list_header(out, count_u32(items.len())?, *elem as u8);
            if *elem == WireType::Integer {
                for (i, it) in items.iter().enumerate() {
                    match it {
                        Value::Integer(x) => write_long(out, *x),
                        _ => check_type(it, *elem).map_err(|e| e.in_index(i))?,
                    }
                }
                return Ok(());
            }
            for (i, it) in items.iter().enumerate() {
                check_type(it, *elem).map_err(|e| e.in_index(i))?;
                write_value(it, out).map_err(|e| e.in_index(i))?;
            }
        }
        Value::Map {
            key,
            value,
            entries,
        } => {
            write_map_header(out, count_u32(entries.len())?, *key as u8, *value as u8);
            for (i, (k, v)) in entries.iter().enumerate() {
                check_type(k, *key).map_err(|e| e.in_index(i))?;
                check_type(v, *value).map_err(|e| e.in_index(i))?;
                write_value(k, out).map_err(|e| e.in_index(i))?;
                write_value(v, out).map_err(|e| e.in_index(i))?;
            }
        }
        Value::Bean(b) => encode_into(b, out)?,
        Value::Dynamic { type_id, bean } => {
            write_long(out, *type_id);
            encode_into(bean, out)?;
        }
        Value::Vector2(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Value::Vector3(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Value::Vector4(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Value::Vector2Int(a) => a.iter().for_each(|x| write_long(out, *x)),
        Value::Vector3Int(a) => a.iter().for_each(|x| write_long(out, *x)),
    }
    Ok(())
}
