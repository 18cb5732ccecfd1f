//! Reading a derived bean: a struct whose last field is [`crate::types::BASE_FIELD`].
//!
//! Zeze writes a bean with a base as its own variables, a `1` byte, then the base bean
//! (its variables, its own base past another `1`, the end `0`); its generated `decode`
//! skips unknown fields until the `1` and reads the base there, or keeps the base at its
//! default when the level ends with `0` first. This reads the same.

use super::{idx, De, Ids, Seen, Zero, R};
use serde::de::{self, DeserializeSeed, Visitor};

/// Deserializes the derived bean at `de` (its own fields, then the base field).
pub(super) fn derived<'de, V: Visitor<'de>>(
    de: &mut De<'de>,
    fields: &'static [&'static str],
    visitor: V,
) -> R<V::Value> {
    de.bean_start()?;
    de.enter()?;
    let own = &fields[..fields.len() - 1];
    let n = own.len();
    let v = visitor.visit_map(LevelAccess {
        de: &mut *de,
        ids: Ids::of(own),
        n,
        id: 0,
        seen: Seen::new(n),
        next: Next::Own,
        base_seen: false,
        next_default: 0,
        value: Value::Wire,
    })?;
    de.depth -= 1;
    Ok(v)
}

#[derive(Clone, Copy, PartialEq)]
enum Next {
    /// Reading this level's fields.
    Own,
    /// The level ended (at the base, or at `0`): absent fields take their defaults.
    Defaults,
}

#[derive(Clone, Copy, PartialEq)]
enum Value {
    /// An own field read from the bytes.
    Wire,
    /// The base, read from the bytes.
    Base,
    /// An absent field or base: its default.
    Default,
}

struct LevelAccess<'a, 'de> {
    de: &'a mut De<'de>,
    ids: Ids,
    /// Own fields; the base is field `n`.
    n: usize,
    id: u32,
    seen: Seen,
    next: Next,
    base_seen: bool,
    next_default: usize,
    value: Value,
}

impl<'de> de::MapAccess<'de> for LevelAccess<'_, 'de> {
    type Error = super::SerdeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        while self.next == Next::Own {
            if self.de.c.peek() == Some(1) {
                self.de.c.u8()?;
                self.next = Next::Defaults;
                self.base_seen = true;
                self.value = Value::Base;
                return seed.deserialize(idx(self.n as u64)).map(Some);
            }
            let at = self.de.c.offset();
            match self.de.tag()? {
                None => self.next = Next::Defaults,
                Some((d, w)) => {
                    self.id = crate::walk::grammar::field_id(at, self.id, d)?;
                    match self.ids.index(self.id) {
                        Some(i) if !self.seen.get(i) => {
                            self.seen.set(i);
                            self.de.wire = w;
                            self.value = Value::Wire;
                            return seed.deserialize(idx(i as u64)).map(Some);
                        }
                        _ => self.de.skip(w)?,
                    }
                }
            }
        }
        while self.next_default < self.n {
            let i = self.next_default;
            self.next_default += 1;
            if !self.seen.get(i) {
                self.value = Value::Default;
                return seed.deserialize(idx(i as u64)).map(Some);
            }
        }
        if !self.base_seen {
            self.base_seen = true;
            self.value = Value::Default;
            return seed.deserialize(idx(self.n as u64)).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        match self.value {
            Value::Default => seed.deserialize(Zero),
            Value::Base => {
                self.de.wire = crate::WireType::Bean;
                seed.deserialize(&mut *self.de)
                    .map_err(|e| super::SerdeError(e.0.in_key("(base)")))
            }
            Value::Wire => {
                let id = self.id;
                seed.deserialize(&mut *self.de)
                    .map_err(|e| super::SerdeError(e.0.in_key(id.to_string())))
            }
        }
    }
}
