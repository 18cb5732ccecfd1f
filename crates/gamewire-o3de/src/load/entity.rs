//! `AZ::EntityId`, after O3DE's `JsonEntityIdSerializer`
//! (Code/Framework/AzCore/AzCore/Component/EntityIdSerializer.cpp).
//!
//! Without an entity id mapper the id is an object `{"id": u64}` (a missing `id` leaves
//! the value and reports `DefaultsUsed`). A prefab is loaded with the prefab's mapper
//! (`InstanceEntityIdMapper`, [`LoadOptions::entity_id_aliases`]): there an entity id is
//! the entity's alias as a string (`"Entity_[1234]"`, `"ContainerEntity"`, or a path to
//! an entity of a nested instance), and `""` is no entity.
//!
//! Where O3DE would silently leave the id invalid (a string read without the mapper, an
//! object read with it) gamewire reports `Unsupported` and leaves the value as it was,
//! so a caller that keeps failed members as written ([`crate::keep`]) loses nothing.

use super::*;

/// `AZ::EntityId::InvalidEntityId`: the id of a default-constructed `EntityId`.
pub const INVALID_ENTITY_ID: u64 = u64::MAX;

impl<'j> Loader<'_, 'j> {
    /// Loads an `AZ::EntityId` (see the module docs).
    pub(super) fn load_entity_id(&mut self, json: &'j Json, out: &mut Value) -> Code {
        if self.opts.entity_id_aliases {
            return match json {
                Json::String(s) if s.is_empty() => {
                    *out = Value::UInt(INVALID_ENTITY_ID);
                    ResultCode::new(T::ReadField, O::Success)
                }
                Json::String(s) => {
                    *out = Value::String(s.clone());
                    ResultCode::new(T::ReadField, O::Success)
                }
                _ => self.report(
                    T::ReadField,
                    O::Unsupported,
                    "An entity id in a prefab is the entity's alias, a string; this value is \
                     left as it was (O3DE's prefab entity id mapper would make it no entity).",
                ),
            };
        }
        let m = match json {
            Json::Object(m) => m,
            Json::String(_) => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "An entity alias (a string) is read through a prefab's entity id mapper, \
                     in a prefab load; the id is left as it was.",
                )
            }
            _ => return ResultCode::new(T::ReadField, O::DefaultsUsed),
        };
        let mut result = ResultCode::empty(T::ReadField);
        match m.get_key_value("id") {
            Some((k, v)) => {
                let mut id = match out {
                    Value::UInt(n) => *n,
                    _ => INVALID_ENTITY_ID,
                };
                let r = self.with_key(k, |this| {
                    this.load_part(&TypeExpr::U64, v, &mut id, Value::UInt, |v| match v {
                        Value::UInt(n) => Some(n),
                        _ => None,
                    })
                });
                if !r.halted() && r.outcome() <= O::PartialDefaults {
                    *out = Value::UInt(id);
                }
                result.combine(r);
            }
            None => {
                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
            }
        }
        let msg = if result.processing() == Processing::Completed {
            "Succesfully loaded Entity Id information."
        } else {
            "Failed to load Entity Id information."
        };
        self.code(result, msg)
    }
}
