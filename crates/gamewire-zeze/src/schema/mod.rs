//! Zeze's solution XML as a schema, and named, typed decoding and encoding.
//!
//! Reads `<solution>`, nested `<module>`s, `<bean name=.. base=..>` and `<beankey>` with
//! `<variable id=.. name=.. type=..>` (`list[T]`, `set[T]`, `map[K,V]`, `type="list"
//! value=".."`, `type="map" key=".." value=".."`, `dynamic` with `<value bean="Name:id"/>`
//! children, vectors, nested beans). Bean names resolve like Zeze's generator: relative to
//! the enclosing module, then outwards, then absolute. [`Schema::from_file`] follows
//! `<import file=..>` as Gen does (each file once, mutual imports allowed); `sortedmap` is a
//! map, `gtable` a map of schema-less rows, `<external>` beans are schema-less, and a
//! dynamic `<value bean="Name"/>` without an id takes the bean's type id (`TypeId`, else
//! [`crate::hash::hash64`] of its full name).
//!
//! Decoding applies the conversions Zeze does on read (integer/float/double, bean read
//! from a dynamic and back, vectors of other sizes); fields the schema does not declare
//! are kept, schema-less, under `"_unknown"` (`"_unknown1"`... for base levels) so the
//! bytes still round-trip, and Zeze's own readers skip them; encoding
//! omits default values and empty nested beans exactly as Zeze's generated `encode` does.

mod codec;
mod model;
mod xml;

pub(crate) use codec::{default_budget, map_key_is_text};
pub use codec::{unknown_key, DEFAULTS_PER_BYTE, MAX_DEFAULT_VALUES};
pub use model::*;
pub use xml::{read_solution_file, MAX_BEAN_NESTING, MAX_SOLUTION_FILE, MAX_TYPE_NESTING};
