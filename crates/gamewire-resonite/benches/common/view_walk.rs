//! gamewire's borrowed view walked the way `bson_walk.rs` walks the `bson` crate's
//! `RawDocument` (every element touched, the same count), so the two are timed and
//! checked on equal terms. Included by the benches and examples that compare them.

use gamewire_resonite::bson_view::{DocumentRef, ValueRef};

/// Walks every element of `doc` at every depth; equal to `bson_walk::raw_walk` on the
/// same bytes.
pub fn view_walk(doc: DocumentRef<'_>) -> usize {
    doc.iter().map(|(k, v)| 1 + k.len() + view_value(v)).sum()
}

fn view_value(v: ValueRef<'_>) -> usize {
    match v {
        ValueRef::Document(d) => view_walk(d),
        ValueRef::Array(a) => a.iter().map(|x| 1 + view_value(x)).sum(),
        ValueRef::String(s) => s.len(),
        ValueRef::Double(d) => d.to_bits() as usize & 1,
        ValueRef::Int32(i) => i as usize & 1,
        ValueRef::Int64(i) => i as usize & 1,
        ValueRef::Bool(b) => b as usize,
        ValueRef::Binary { bytes, .. } => bytes.len(),
        _ => 0,
    }
}
