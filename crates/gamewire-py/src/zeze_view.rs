//! A schema-less bean's JSON (the mapping of `gamewire::zeze::json::bean_to_json`)
//! serialized straight from the borrowed byte view ([`gamewire::zeze::view`]): no owned
//! tree and no JSON tree, so `zeze.decode` holds only the input and the Python values it
//! makes. Scalars are written by the crate's own JSON views of one owned scalar.

use gamewire::zeze::json_view::{ItemView, ValueView as OwnedJson};
use gamewire::zeze::view::{BeanView, FieldView, Fields, ValueView};
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use std::cell::RefCell;

/// A bean: its fields of the most derived level, the next level under `"base"`.
pub struct Bean<'a>(pub BeanView<'a>);

impl Serialize for Bean<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Level {
            fields: RefCell::new(self.0.fields()),
            first: RefCell::new(None),
            level: 0,
        }
        .serialize(s)
    }
}

/// The fields of one inheritance level: `first` (when the level before read it) then
/// the rest of `fields`. The levels come in wire order, each level's fields before the
/// next level's, so one pass over the bean writes them all.
struct Level<'a> {
    fields: RefCell<Fields<'a>>,
    first: RefCell<Option<FieldView<'a>>>,
    level: u32,
}

impl Serialize for Level<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut it = self.fields.borrow_mut();
        let mut next = self.first.borrow_mut().take();
        let mut m = s.serialize_map(None)?;
        let base = loop {
            let f = match next.take() {
                Some(f) => f,
                None => match it.next() {
                    Some(f) => f.map_err(S::Error::custom)?,
                    // Levels left with no fields: empty bases.
                    None => break (it.level() > self.level).then_some(None),
                },
            };
            if f.level > self.level {
                break Some(Some(f));
            }
            m.serialize_entry(&f.id.to_string(), &Field(&f.value))?;
        };
        if let Some(first) = base {
            let next = Level {
                fields: RefCell::new(it.clone()),
                first: RefCell::new(first),
                level: self.level + 1,
            };
            m.serialize_entry("base", &next)?;
        }
        m.end()
    }
}

/// A bean field's value, self-describing (`json_view::ValueView`).
struct Field<'v, 'a>(&'v ValueView<'a>);

impl Serialize for Field<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            ValueView::Bean(_)
            | ValueView::List(_)
            | ValueView::Map(_)
            | ValueView::Dynamic { .. } => Item(self.0).serialize(s),
            v => OwnedJson::new(&v.to_value().map_err(S::Error::custom)?).serialize(s),
        }
    }
}

/// A list item or map key or value, compact (`json_view::ItemView`).
struct Item<'v, 'a>(&'v ValueView<'a>);

impl Serialize for Item<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            ValueView::Bean(b) => Bean(b.clone()).serialize(s),
            ValueView::List(l) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("list", l.elem().name())?;
                m.serialize_entry("items", &Seq(RefCell::new(Some(l.iter()))))?;
                m.end()
            }
            ValueView::Map(x) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("map", &(x.key_type().name(), x.value_type().name()))?;
                m.serialize_entry("entries", &Pairs(RefCell::new(Some(x.iter()))))?;
                m.end()
            }
            ValueView::Dynamic { type_id, bean } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("dynamic", type_id)?;
                m.serialize_entry("bean", &Bean(bean.clone()))?;
                m.end()
            }
            v => ItemView::new(&v.to_value().map_err(S::Error::custom)?).serialize(s),
        }
    }
}

/// List items, streamed once.
struct Seq<I>(RefCell<Option<I>>);

impl<'a, I: Iterator<Item = gamewire::Result<ValueView<'a>>>> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let it = self
            .0
            .borrow_mut()
            .take()
            .ok_or_else(|| S::Error::custom("items taken"))?;
        let mut q = s.serialize_seq(None)?;
        for v in it {
            q.serialize_element(&Item(&v.map_err(S::Error::custom)?))?;
        }
        q.end()
    }
}

/// Map entries as `[key, value]` pairs, streamed once.
struct Pairs<I>(RefCell<Option<I>>);

impl<'a, I: Iterator<Item = gamewire::Result<(ValueView<'a>, ValueView<'a>)>>> Serialize
    for Pairs<I>
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let it = self
            .0
            .borrow_mut()
            .take()
            .ok_or_else(|| S::Error::custom("entries taken"))?;
        let mut q = s.serialize_seq(None)?;
        for e in it {
            let (k, v) = e.map_err(S::Error::custom)?;
            q.serialize_element(&(Item(&k), Item(&v)))?;
        }
        q.end()
    }
}
