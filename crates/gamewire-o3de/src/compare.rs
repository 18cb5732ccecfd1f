//! `JsonSerialization::Compare`: the order O3DE sorts unordered sets and maps by.
//!
//! Values of different JSON types order by rapidjson's type number (null, false, true,
//! object, array, string, number); numbers compare as doubles; strings by bytes;
//! arrays by length, then element by element; objects by member count, then by
//! members sorted by name.

use serde_json::Value as Json;
use std::cmp::Ordering;

fn type_rank(v: &Json) -> u8 {
    match v {
        Json::Null => 0,
        Json::Bool(false) => 1,
        Json::Bool(true) => 2,
        Json::Object(_) => 3,
        Json::Array(_) => 4,
        Json::String(_) => 5,
        Json::Number(_) => 6,
    }
}

/// Compares two JSON values the way O3DE does.
pub fn compare(a: &Json, b: &Json) -> Ordering {
    let (ra, rb) = (type_rank(a), type_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        (Json::String(x), Json::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Json::Array(x), Json::Array(y)) => {
            if x.len() != y.len() {
                return x.len().cmp(&y.len());
            }
            for (p, q) in x.iter().zip(y) {
                match compare(p, q) {
                    Ordering::Equal => {}
                    o => return o,
                }
            }
            Ordering::Equal
        }
        (Json::Object(x), Json::Object(y)) => {
            if x.len() != y.len() {
                return x.len().cmp(&y.len());
            }
            let mut l: Vec<_> = x.iter().collect();
            let mut r: Vec<_> = y.iter().collect();
            l.sort_by(|p, q| p.0.as_bytes().cmp(q.0.as_bytes()));
            r.sort_by(|p, q| p.0.as_bytes().cmp(q.0.as_bytes()));
            for (p, q) in l.iter().zip(&r) {
                match p.0.as_bytes().cmp(q.0.as_bytes()) {
                    Ordering::Equal => match compare(p.1, q.1) {
                        Ordering::Equal => {}
                        o => return o,
                    },
                    o => return o,
                }
            }
            Ordering::Equal
        }
        _ => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn orders_like_o3de() {
        assert_eq!(compare(&json!(null), &json!(false)), Ordering::Less);
        assert_eq!(compare(&json!({}), &json!([])), Ordering::Less);
        assert_eq!(compare(&json!("z"), &json!(1)), Ordering::Less);
        assert_eq!(compare(&json!(2), &json!(10)), Ordering::Less);
        assert_eq!(compare(&json!("10"), &json!("2")), Ordering::Less);
        assert_eq!(compare(&json!([1, 2]), &json!([3])), Ordering::Greater);
        assert_eq!(
            compare(&json!({"b": 1, "a": 2}), &json!({"a": 2, "b": 1})),
            Ordering::Equal
        );
    }
}
