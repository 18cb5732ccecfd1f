//! The floor the Resonite readers are measured against: the `bson` crate's
//! `RawDocument` walk, touching every element (keys, string lengths, scalars) without
//! building anything. One copy, included by the benches and examples that time it
//! (`#[path = ...] mod bson_walk;`).

use bson::{RawBsonRef, RawDocument};

/// Walks every element of `doc` at every depth; the result depends on each one, so
/// none is skipped.
pub fn raw_walk(doc: &RawDocument) -> usize {
    let mut n = 0;
    for el in doc {
        let (k, v) = el.expect("valid BSON");
        n += 1 + k.len() + raw_value(v);
    }
    n
}

fn raw_value(v: RawBsonRef<'_>) -> usize {
    match v {
        RawBsonRef::Document(d) => raw_walk(d),
        RawBsonRef::Array(a) => a
            .into_iter()
            .map(|x| 1 + raw_value(x.expect("valid BSON")))
            .sum(),
        RawBsonRef::String(s) => s.len(),
        RawBsonRef::Double(d) => d.to_bits() as usize & 1,
        RawBsonRef::Int32(i) => i as usize & 1,
        RawBsonRef::Int64(i) => i as usize & 1,
        RawBsonRef::Boolean(b) => b as usize,
        RawBsonRef::Binary(b) => b.bytes.len(),
        _ => 0,
    }
}
