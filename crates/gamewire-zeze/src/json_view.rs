//! The JSON of a schema-less tree written straight to a serializer, with no
//! `serde_json` tree built for its beans, lists and maps: `serde_json::to_writer(w,
//! &BeanView::new(&bean))` writes the very text that serializing
//! [`crate::json::bean_to_json`] gives, with memory for one leaf at a time.

use crate::frame::{Frame, Payload};
use crate::json::{bean_to_json, compact_scalar_json, scalar_to_json};
use crate::value::{Bean, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A bean as [`crate::json::bean_to_json`] writes it: an object keyed by field id,
/// the base level under `"base"`.
#[derive(Debug, Clone, Copy)]
pub struct BeanView<'a> {
    bean: &'a Bean,
}

impl<'a> BeanView<'a> {
    /// A view of `bean`.
    pub fn new(bean: &'a Bean) -> Self {
        BeanView { bean }
    }
}

/// A bean field's value in self-describing form, as
/// [`crate::json::value_to_json`] writes it.
#[derive(Debug, Clone, Copy)]
pub struct ValueView<'a> {
    value: &'a Value,
}

impl<'a> ValueView<'a> {
    /// A view of `value`.
    pub fn new(value: &'a Value) -> Self {
        ValueView { value }
    }
}

/// A list item or map key or value in compact form ([`crate::json::item_to_json`]).
#[derive(Debug, Clone, Copy)]
pub struct ItemView<'a> {
    value: &'a Value,
}

impl<'a> ItemView<'a> {
    /// A view of `value`.
    pub fn new(value: &'a Value) -> Self {
        ItemView { value }
    }
}

impl Serialize for BeanView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.bean;
        // Field ids as the wire gives them increase; a tree built by hand with a
        // repeated id is written through the JSON tree, which keeps one of each.
        if !b.fields.windows(2).all(|w| w[0].id < w[1].id) {
            return bean_to_json(b).serialize(s);
        }
        let mut m = s.serialize_map(Some(b.fields.len() + usize::from(b.base.is_some())))?;
        for f in &b.fields {
            m.serialize_entry(&f.id.to_string(), &ValueView::new(&f.value))?;
        }
        if let Some(base) = &b.base {
            m.serialize_entry("base", &BeanView::new(base))?;
        }
        m.end()
    }
}

impl Serialize for ValueView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Bean(b) => BeanView::new(b).serialize(s),
            v @ (Value::List { .. } | Value::Map { .. } | Value::Dynamic { .. }) => {
                ItemView::new(v).serialize(s)
            }
            v => scalar_to_json(v).serialize(s),
        }
    }
}

impl Serialize for ItemView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Bean(b) => BeanView::new(b).serialize(s),
            Value::List { elem, items } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("list", elem.name())?;
                m.serialize_entry("items", &Items(items))?;
                m.end()
            }
            Value::Map {
                key,
                value,
                entries,
            } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("map", &(key.name(), value.name()))?;
                m.serialize_entry("entries", &Entries(entries))?;
                m.end()
            }
            Value::Dynamic { type_id, bean } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("dynamic", type_id)?;
                m.serialize_entry("bean", &BeanView::new(bean))?;
                m.end()
            }
            v => compact_scalar_json(v).serialize(s),
        }
    }
}

/// List items, streamed.
struct Items<'a>(&'a [Value]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(ItemView::new))
    }
}

/// Map entries as `[key, value]` pairs, streamed.
struct Entries<'a>(&'a [(Value, Value)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .iter()
                .map(|(k, v)| (ItemView::new(k), ItemView::new(v))),
        )
    }
}

/// A protocol frame as [`crate::json::frame_to_json`] writes it, with its body bean
/// written by `bean` (a [`BeanView`], or a [`crate::schema_view::SchemaView`] of the
/// body's bytes) and, when given, the protocol's `"name"` last.
pub struct FrameView<'a, B> {
    frame: &'a Frame,
    bean: B,
    name: Option<&'a str>,
}

impl<'a, B: Serialize> FrameView<'a, B> {
    /// A view of `frame` whose body bean `bean` writes; `name` is added as `"name"`.
    pub fn new(frame: &'a Frame, bean: B, name: Option<&'a str>) -> Self {
        FrameView { frame, bean, name }
    }
}

impl<B: Serialize> Serialize for FrameView<'_, B> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.frame;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("module", &f.module_id)?;
        m.serialize_entry("protocol", &f.protocol_id)?;
        match &f.payload {
            Payload::Body(b) => {
                m.serialize_entry("family", b.family.name())?;
                if let Some(rc) = b.result_code {
                    m.serialize_entry("result_code", &rc)?;
                }
                if let Some(sid) = b.session_id {
                    m.serialize_entry("session_id", &sid)?;
                }
                m.serialize_entry("bean", &self.bean)?;
            }
            Payload::Raw(r) => {
                let mut raw = serde_json::Map::new();
                raw.insert("bytes".into(), serde_json::Value::from(crate::json::hex(r)));
                m.serialize_entry("raw", &raw)?;
            }
        }
        if let Some(n) = self.name {
            m.serialize_entry("name", n)?;
        }
        m.end()
    }
}
