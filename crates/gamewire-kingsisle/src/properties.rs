//! The properties of an object: (tag, value) pairs in wire order, stored compactly when
//! many of them are small scalars.
//!
//! A `(u32, Value)` pair takes 40 bytes, so an object made of 1-bit `bool` (or 2..7-bit
//! `bi*`/`bui*`) properties would cost 320 bits of memory per input bit. An object with
//! at least [`PACK_MIN`] small scalar values instead keeps its tags in one array and a
//! one-byte code per property (5 bytes each); the other values stay whole [`Value`]s.

use crate::recycle::Spare;
use crate::Value;
use std::sync::LazyLock;

/// The fewest small scalar values for which an object's properties are packed (below
/// this the packed form's four allocations cost more than they save).
pub const PACK_MIN: usize = 4;

/// The code of a property whose value is kept whole (not a small scalar).
const FULL: u8 = 0;

/// The code of a small scalar value: 1 and 2 are `Bool(false)` and `Bool(true)`,
/// 3..=130 are `Int(-64..=63)`, 131..=255 are `UInt(0..=124)`; `None` for other values.
fn code_of(v: &Value) -> Option<u8> {
    match *v {
        Value::Bool(b) => Some(1 + u8::from(b)),
        Value::Int(x) if (-64..=63).contains(&x) => Some((x + 67) as u8),
        Value::UInt(x) if x <= 124 => Some(131 + x as u8),
        _ => None,
    }
}

/// The values of the codes (index = code; code 0 is unused).
static SMALL: LazyLock<Vec<Value>> = LazyLock::new(|| {
    (0..=255u8)
        .map(|c| match c {
            FULL => Value::Null,
            1 | 2 => Value::Bool(c == 2),
            3..=130 => Value::Int(i64::from(c) - 67),
            _ => Value::UInt(u64::from(c) - 131),
        })
        .collect()
});

/// An object's properties: tag and value, in wire order.
///
/// Build them from a `Vec<(u32, Value)>` (`.into()` or `collect()`), read them with
/// [`Properties::iter`] or [`Properties::get`] (pairs of tag and `&Value`), and take them
/// back with [`Properties::into_vec`] to edit. Two lists of the same pairs are equal
/// whatever their storage.
#[derive(Clone, Default)]
pub struct Properties(Repr);

#[derive(Clone)]
enum Repr {
    /// Each pair whole.
    Full(Box<[(u32, Value)]>),
    /// Tags and codes (small scalars packed), the other values whole.
    Packed(Box<Packed>),
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Full(Box::default())
    }
}

#[derive(Clone)]
struct Packed {
    /// The tag of each property.
    tags: Box<[u32]>,
    /// The code of each property's value ([`FULL`]: the value is in `values`).
    codes: Box<[u8]>,
    /// The values that are not small scalars, in order.
    values: Box<[Value]>,
    /// The property index of each of `values` (ascending).
    full_at: Box<[u32]>,
}

impl Properties {
    /// The number of properties.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Full(p) => p.len(),
            Repr::Packed(p) => p.tags.len(),
        }
    }

    /// True when there are no properties.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tag and value of the property at index `i` (in wire order).
    pub fn get(&self, i: usize) -> Option<(u32, &Value)> {
        match &self.0 {
            Repr::Full(p) => p.get(i).map(|(h, v)| (*h, v)),
            Repr::Packed(p) => {
                let tag = *p.tags.get(i)?;
                let code = p.codes[i];
                if code != FULL {
                    return Some((tag, &SMALL[usize::from(code)]));
                }
                let k = p.full_at.binary_search(&(i as u32)).ok()?;
                Some((tag, &p.values[k]))
            }
        }
    }

    /// The value of the first property with tag `hash`.
    pub fn find(&self, hash: u32) -> Option<&Value> {
        self.iter().find(|(h, _)| *h == hash).map(|(_, v)| v)
    }

    /// The properties in order: tag and value.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            props: self,
            next: 0,
            full: 0,
        }
    }

    /// The pairs as one array when they are kept whole, else the values that are not
    /// small scalars (for [`crate::recycle`]).
    pub(crate) fn into_pairs(self) -> Result<Box<[(u32, Value)]>, Vec<Value>> {
        match self.0 {
            Repr::Full(p) => Ok(p),
            Repr::Packed(p) => Err(p.values.into_vec()),
        }
    }

    /// The pairs, to edit (turn them back with `.into()`).
    pub fn into_vec(self) -> Vec<(u32, Value)> {
        match self.0 {
            Repr::Full(p) => p.into_vec(),
            Repr::Packed(p) => {
                let mut values = p.values.into_vec().into_iter();
                p.tags
                    .iter()
                    .zip(p.codes.iter())
                    .map(|(&h, &c)| match c {
                        FULL => (h, values.next().unwrap_or(Value::Null)),
                        _ => (h, SMALL[usize::from(c)].clone()),
                    })
                    .collect()
            }
        }
    }
}

/// Collects properties into their compact form as they come (the decoder's path: no
/// 40-byte pair per small scalar, even for a moment).
pub(crate) struct Builder {
    tags: Vec<u32>,
    codes: Vec<u8>,
    values: Vec<Value>,
    full_at: Vec<u32>,
}

impl Builder {
    /// A builder with room for `n` properties.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Builder {
            tags: Vec::with_capacity(n),
            codes: Vec::with_capacity(n),
            values: Vec::new(),
            full_at: Vec::new(),
        }
    }

    /// Appends a property.
    pub(crate) fn push(&mut self, tag: u32, v: Value) {
        match code_of(&v) {
            Some(c) => self.codes.push(c),
            None => {
                self.full_at.push(self.tags.len() as u32);
                self.values.push(v);
                self.codes.push(FULL);
            }
        }
        self.tags.push(tag);
    }

    /// The properties: packed when at least [`PACK_MIN`] are small scalars.
    pub(crate) fn finish(self) -> Properties {
        let small = self.tags.len() - self.values.len();
        if small < PACK_MIN || u32::try_from(self.tags.len()).is_err() {
            let mut values = self.values.into_iter();
            let pairs = self
                .tags
                .iter()
                .zip(&self.codes)
                .map(|(&h, &c)| match c {
                    FULL => (h, values.next().unwrap_or(Value::Null)),
                    _ => (h, SMALL[usize::from(c)].clone()),
                })
                .collect();
            return Properties(Repr::Full(pairs));
        }
        Properties(Repr::Packed(Box::new(Packed {
            tags: self.tags.into_boxed_slice(),
            codes: self.codes.into_boxed_slice(),
            values: self.values.into_boxed_slice(),
            full_at: self.full_at.into_boxed_slice(),
        })))
    }
}

impl Properties {
    /// The pairs from `start` to the end of `scratch`, taken off it: packed when at
    /// least [`PACK_MIN`] are small scalars, else whole in one allocation of their
    /// exact size (the owned decode's path: no growing, no second copy).
    /// `small`: how many of them are small scalars (a `bool`, an `Int` in -64..=63, a
    /// `UInt` up to 124: what packs into one byte), counted by the caller as it pushed.
    /// Pairs kept whole go into an array `spare` kept, when it has one of their length.
    #[inline]
    pub(crate) fn take_tail(
        scratch: &mut Vec<(u32, Value)>,
        start: usize,
        small: usize,
        spare: &mut Spare,
    ) -> Properties {
        let n = scratch.len() - start;
        debug_assert_eq!(
            scratch[start..]
                .iter()
                .filter(|(_, v)| code_of(v).is_some())
                .count(),
            small
        );
        if small < PACK_MIN || u32::try_from(n).is_err() {
            if let Some(mut pairs) = spare.take_props(n) {
                for (slot, p) in pairs.iter_mut().zip(scratch.drain(start..)) {
                    *slot = p;
                }
                return Properties(Repr::Full(pairs));
            }
            // `split_off` allocates exactly the tail's length: no second allocation.
            return Properties(Repr::Full(scratch.split_off(start).into_boxed_slice()));
        }
        let mut b = Builder {
            tags: Vec::with_capacity(n),
            codes: Vec::with_capacity(n),
            values: Vec::with_capacity(n - small),
            full_at: Vec::with_capacity(n - small),
        };
        for (h, v) in scratch.drain(start..) {
            b.push(h, v);
        }
        b.finish()
    }
}

impl From<Vec<(u32, Value)>> for Properties {
    fn from(pairs: Vec<(u32, Value)>) -> Self {
        pairs.into_iter().collect()
    }
}

impl FromIterator<(u32, Value)> for Properties {
    fn from_iter<I: IntoIterator<Item = (u32, Value)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut b = Builder::with_capacity(iter.size_hint().0);
        for (h, v) in iter {
            b.push(h, v);
        }
        b.finish()
    }
}

impl PartialEq for Properties {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Properties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The properties of an object in order (see [`Properties::iter`]).
pub struct Iter<'a> {
    props: &'a Properties,
    next: usize,
    /// Packed: the index in `values` of the next whole value.
    full: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (u32, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        let item = match &self.props.0 {
            Repr::Full(p) => p.get(i).map(|(h, v)| (*h, v))?,
            Repr::Packed(p) => {
                let tag = *p.tags.get(i)?;
                match p.codes[i] {
                    FULL => {
                        self.full += 1;
                        (tag, &p.values[self.full - 1])
                    }
                    c => (tag, &SMALL[usize::from(c)]),
                }
            }
        };
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.props.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Properties {
    type Item = (u32, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixed(n: usize) -> Vec<(u32, Value)> {
        (0..n as u32)
            .map(|i| {
                let v = match i % 6 {
                    0 => Value::Bool(i % 4 == 0),
                    1 => Value::Int(i64::from(i % 128) - 64),
                    2 => Value::UInt(u64::from(i % 200)),
                    3 => Value::String(format!("s{i}").into()),
                    4 => Value::Int(-65 - i64::from(i)),
                    _ => Value::Float(i as f32),
                };
                (i * 7 + 1, v)
            })
            .collect()
    }

    #[test]
    fn packed_and_whole_properties_read_back_the_same_pairs() {
        for n in [0, 1, 3, 4, 5, 40] {
            let pairs = mixed(n);
            let p = Properties::from(pairs.clone());
            assert_eq!(p.len(), n);
            assert_eq!(matches!(p.0, Repr::Packed(_)), n >= 10, "n = {n}");
            let read: Vec<_> = p.iter().map(|(h, v)| (h, v.clone())).collect();
            assert_eq!(read, pairs);
            for (i, (h, v)) in pairs.iter().enumerate() {
                assert_eq!(p.get(i), Some((*h, v)));
                assert_eq!(p.find(*h), Some(v));
            }
            assert_eq!(p.get(n), None);
            assert_eq!(p.clone().into_vec(), pairs);
            // Equal to the same pairs kept whole.
            assert_eq!(p, Properties(Repr::Full(pairs.into_boxed_slice())));
        }
    }

    #[test]
    fn small_codes_cover_bools_and_7_bit_integers() {
        for v in [Value::Bool(false), Value::Bool(true)]
            .into_iter()
            .chain((-64..=63).map(Value::Int))
            .chain((0..=124).map(Value::UInt))
        {
            let c = code_of(&v).unwrap();
            assert_eq!(SMALL[usize::from(c)], v);
        }
        for v in [
            Value::Int(-65),
            Value::Int(64),
            Value::UInt(125),
            Value::Null,
        ] {
            assert_eq!(code_of(&v), None);
        }
    }

    #[test]
    fn an_object_stays_within_a_value() {
        assert_eq!(std::mem::size_of::<Properties>(), 16);
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }
}
