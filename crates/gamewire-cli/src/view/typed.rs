//! The types of values, as the library gives them ([`gamewire::open::types`]): each
//! listed value carries its type for the page's editors (an integer's range, a float's
//! width, an enum's options, a vector's components), and an edit whose value does not
//! fit its place's type is refused with the library's message.

use gamewire::open::types::{Types, ValueType};
use serde_json::Value;

/// Adds `"type"` to a listing (`node`: the value at `pointer` with its `children`)
/// wherever the library knows the type.
pub fn annotate(types: &Types, data: &Value, pointer: &str, node: &mut Value) {
    let Ok(toks) = super::doc::tokens(pointer) else {
        return;
    };
    if let Some(t) = types.at(data, &toks) {
        node["type"] = t.to_json();
        add_parts(&t, value_at(data, &toks), node);
    }
    if let Some(children) = node.get_mut("children").and_then(Value::as_array_mut) {
        for c in children {
            let key = match &c["key"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let mut t = toks.clone();
            t.push(key);
            if let Some(ty) = types.at(data, &t) {
                c["type"] = ty.to_json();
                add_parts(&ty, value_at(data, &t), c);
            }
        }
    }
}

/// The value at `toks`.
fn value_at<'a>(data: &'a Value, toks: &[String]) -> Option<&'a Value> {
    let mut v = data;
    for t in toks {
        v = match v {
            Value::Object(m) => m.get(t)?,
            Value::Array(a) => a.get(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(v)
}

/// A value with components lists their numbers as text (`"parts": ["1.0", "0.5"]`), for
/// the tree's row.
fn add_parts(t: &ValueType, v: Option<&Value>, node: &mut Value) {
    let (ValueType::Components { components, .. }, Some(v)) = (t, v) else {
        return;
    };
    let parts: Option<Vec<Value>> = components
        .iter()
        .map(|c| v.pointer(&c.pointer).map(|x| Value::String(x.to_string())))
        .collect();
    if let Some(parts) = parts {
        node["parts"] = Value::Array(parts);
    }
}

/// Checks the value an operation (`add`, `replace`) puts in `data` against the type
/// of its place.
pub fn check_op(types: &Types, data: &Value, op: &Value) -> Result<(), String> {
    let (Some(name), Some(path), Some(value)) =
        (op["op"].as_str(), op["path"].as_str(), op.get("value"))
    else {
        return Ok(());
    };
    if name != "add" && name != "replace" {
        return Ok(());
    }
    let toks = super::doc::tokens(path)?;
    types
        .check(data, &toks, value)
        .map_err(|e| format!("{path}: {e}"))
}
