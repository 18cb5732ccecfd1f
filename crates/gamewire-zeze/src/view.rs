//! A borrowed, schema-less view over a bean's bytes: fields visited by id with their
//! wire type, strings and byte arrays borrowed from the input, nested beans, lists and
//! maps navigable without building the owned [`Value`] tree.
//!
//! Built on the one walk ([`crate::walk`]) with the sink that keeps nothing: [`view`]
//! walks the whole input once (so a view exists only over bytes the walk accepts), and
//! when an iteration moves past a bean, list or map it steps over it with the same walk
//! (a value the caller navigates into is not walked before). Nothing is allocated. A
//! caller that visits every value of a list of beans reads each bean's bytes about twice
//! (the fields, then the step to the next item), plus the first walk. Navigation reads
//! tags and list and map headers through [`crate::walk::grammar`].
//!
//! A view means what the owned decode means, errors included: the walk is the owned
//! decode's, so the offset, path and message are the ones [`crate::decode`] reports.
//! Errors from a nested view carry the path from that view (field ids as keys, list and
//! map positions as indexes).

use crate::cursor::Cursor;
use crate::decode::{skip_value, Options};
use crate::value::{Bean, Field, Value, WireType};
use crate::walk::{
    self, grammar::check_depth, grammar::list_header, grammar::map_header, grammar::tag, Tag,
};
use gamewire_core::Result;

/// A view of the one bean that fills `data`, checked by the walk that keeps nothing
/// (the walk of [`crate::decode`], so the same errors: offset, path and message).
pub fn view<'a>(data: &'a [u8], opts: &Options) -> Result<BeanView<'a>> {
    walk::whole(data, opts, &mut walk::Skip)?;
    Ok(BeanView {
        c: Cursor::new(data),
        opts: *opts,
        depth: 0,
    })
}

/// Steps `c` over one value of wire type `ty` at nesting `depth` with the walk that
/// keeps nothing.
#[inline]
fn span(c: &mut Cursor<'_>, ty: WireType, opts: &Options, depth: usize) -> Result<()> {
    skip_value(c, ty, opts, depth)
}

/// Reads one value of wire type `ty` as a view: a scalar is read (strings borrowed) and
/// `c` moves past it, with `None` returned beside it; for a bean, list or map only what
/// comes before its items is read (a dynamic bean's type id, a list's or map's header),
/// `c` stays at the value's start and the wire type to step over it with [`span`] is
/// returned: the caller steps over it only when it moves on, so a value the caller
/// navigates into is not walked first.
#[inline]
fn read_view<'a>(
    c: &mut Cursor<'a>,
    ty: WireType,
    opts: &Options,
    depth: usize,
) -> Result<(ValueView<'a>, Option<WireType>)> {
    let v = match ty {
        WireType::Integer => ValueView::Integer(c.long()?),
        WireType::Float => ValueView::Float(c.f32()?),
        WireType::Double => ValueView::Double(c.f64()?),
        WireType::Bytes => ValueView::Bytes(c.len_bytes()?),
        WireType::Vector2 => ValueView::Vector2([c.f32()?, c.f32()?]),
        WireType::Vector2Int => ValueView::Vector2Int([c.long()?, c.long()?]),
        WireType::Vector3 => ValueView::Vector3([c.f32()?, c.f32()?, c.f32()?]),
        WireType::Vector3Int => ValueView::Vector3Int([c.long()?, c.long()?, c.long()?]),
        WireType::Vector4 => ValueView::Vector4([c.f32()?, c.f32()?, c.f32()?, c.f32()?]),
        WireType::Bean => {
            return Ok((
                ValueView::Bean(BeanView {
                    c: c.clone(),
                    opts: *opts,
                    depth,
                }),
                Some(WireType::Bean),
            ))
        }
        WireType::Dynamic => {
            let type_id = c.long()?;
            return Ok((
                ValueView::Dynamic {
                    type_id,
                    bean: BeanView {
                        c: c.clone(),
                        opts: *opts,
                        depth,
                    },
                },
                Some(WireType::Bean),
            ));
        }
        WireType::List => {
            let mut h = c.clone();
            check_depth(&h, opts, depth)?;
            let (elem, len) = list_header(&mut h)?;
            return Ok((
                ValueView::List(ListView {
                    elem,
                    len,
                    c: h,
                    opts: *opts,
                    depth: depth + 1,
                }),
                Some(WireType::List),
            ));
        }
        WireType::Map => {
            let mut h = c.clone();
            check_depth(&h, opts, depth)?;
            let (key, value, len) = map_header(&mut h)?;
            return Ok((
                ValueView::Map(MapView {
                    key,
                    value,
                    len,
                    c: h,
                    opts: *opts,
                    depth: depth + 1,
                }),
                Some(WireType::Map),
            ));
        }
    };
    Ok((v, None))
}

/// A value as the wire types it, borrowing from the input.
#[derive(Debug, Clone)]
pub enum ValueView<'a> {
    /// Wire type 0: any integer or bool.
    Integer(i64),
    /// Wire type 1.
    Float(f32),
    /// Wire type 2.
    Double(f64),
    /// Wire type 3: a string's UTF-8 bytes or a binary, borrowed.
    Bytes(&'a [u8]),
    /// Wire type 4: a list or set.
    List(ListView<'a>),
    /// Wire type 5: a map.
    Map(MapView<'a>),
    /// Wire type 6.
    Bean(BeanView<'a>),
    /// Wire type 7: the dynamic type id and the bean.
    Dynamic {
        /// Zeze's "special type id" of the concrete bean.
        type_id: i64,
        /// The bean.
        bean: BeanView<'a>,
    },
    /// Wire type 8.
    Vector2([f32; 2]),
    /// Wire type 9.
    Vector2Int([i64; 2]),
    /// Wire type 10.
    Vector3([f32; 3]),
    /// Wire type 11.
    Vector3Int([i64; 3]),
    /// Wire type 12.
    Vector4([f32; 4]),
}

impl<'a> ValueView<'a> {
    /// The wire type of this value.
    pub fn wire_type(&self) -> WireType {
        match self {
            ValueView::Integer(_) => WireType::Integer,
            ValueView::Float(_) => WireType::Float,
            ValueView::Double(_) => WireType::Double,
            ValueView::Bytes(_) => WireType::Bytes,
            ValueView::List(_) => WireType::List,
            ValueView::Map(_) => WireType::Map,
            ValueView::Bean(_) => WireType::Bean,
            ValueView::Dynamic { .. } => WireType::Dynamic,
            ValueView::Vector2(_) => WireType::Vector2,
            ValueView::Vector2Int(_) => WireType::Vector2Int,
            ValueView::Vector3(_) => WireType::Vector3,
            ValueView::Vector3Int(_) => WireType::Vector3Int,
            ValueView::Vector4(_) => WireType::Vector4,
        }
    }

    /// The integer, if this is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            ValueView::Integer(x) => Some(*x),
            _ => None,
        }
    }

    /// The borrowed bytes, if this is a byte string.
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
        match self {
            ValueView::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The borrowed text, if this is a byte string holding UTF-8.
    pub fn as_str(&self) -> Option<&'a str> {
        self.as_bytes().and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The bean (of a bean or a dynamic bean), if this is one.
    pub fn as_bean(&self) -> Option<&BeanView<'a>> {
        match self {
            ValueView::Bean(b) | ValueView::Dynamic { bean: b, .. } => Some(b),
            _ => None,
        }
    }

    /// The list, if this is one.
    pub fn as_list(&self) -> Option<&ListView<'a>> {
        match self {
            ValueView::List(l) => Some(l),
            _ => None,
        }
    }

    /// The map, if this is one.
    pub fn as_map(&self) -> Option<&MapView<'a>> {
        match self {
            ValueView::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The owned value (what [`crate::decode`] builds for the same bytes).
    pub fn to_value(&self) -> Result<Value> {
        Ok(match self {
            ValueView::Integer(x) => Value::Integer(*x),
            ValueView::Float(x) => Value::Float(*x),
            ValueView::Double(x) => Value::Double(*x),
            ValueView::Bytes(b) => Value::Bytes(b.to_vec()),
            ValueView::Vector2(v) => Value::Vector2(*v),
            ValueView::Vector2Int(v) => Value::Vector2Int(*v),
            ValueView::Vector3(v) => Value::Vector3(*v),
            ValueView::Vector3Int(v) => Value::Vector3Int(*v),
            ValueView::Vector4(v) => Value::Vector4(*v),
            ValueView::Bean(b) => Value::Bean(b.to_bean()?),
            ValueView::Dynamic { type_id, bean } => Value::Dynamic {
                type_id: *type_id,
                bean: bean.to_bean()?,
            },
            ValueView::List(l) => {
                let mut items = Vec::with_capacity(l.len);
                for (i, item) in l.iter().enumerate() {
                    items.push(item?.to_value().map_err(|e| e.in_index(i))?);
                }
                Value::List {
                    elem: l.elem,
                    items,
                }
            }
            ValueView::Map(m) => {
                let mut entries = Vec::with_capacity(m.len);
                for (i, entry) in m.iter().enumerate() {
                    let (k, v) = entry?;
                    let k = k.to_value().map_err(|e| e.in_index(i))?;
                    let v = v.to_value().map_err(|e| e.in_index(i))?;
                    entries.push((k, v));
                }
                Value::Map {
                    key: m.key,
                    value: m.value,
                    entries,
                }
            }
        })
    }
}

/// A bean's bytes: its fields, level by level, visited in wire order.
#[derive(Debug, Clone)]
pub struct BeanView<'a> {
    /// At the bean's first tag.
    c: Cursor<'a>,
    opts: Options,
    depth: usize,
}

impl<'a> BeanView<'a> {
    /// Absolute offset of the bean's first tag.
    pub fn offset(&self) -> usize {
        self.c.offset()
    }

    /// The fields of every level in wire order (the most derived level first).
    pub fn fields(&self) -> Fields<'a> {
        Fields {
            c: self.c.clone(),
            opts: self.opts,
            depth: self.depth,
            level: 0,
            id: 0,
            pending: None,
            started: false,
            done: false,
        }
    }

    /// The value of field `id` in the first (most derived) level, as [`Bean::get`].
    pub fn get(&self, id: u32) -> Result<Option<ValueView<'a>>> {
        for f in self.fields() {
            let f = f?;
            if f.level > 0 {
                break;
            }
            if f.id == id {
                return Ok(Some(f.value));
            }
        }
        Ok(None)
    }

    /// The owned bean (what [`crate::decode`] builds for the same bytes).
    pub fn to_bean(&self) -> Result<Bean> {
        let mut levels: Vec<Vec<Field>> = Vec::new();
        let mut fields = Vec::new();
        let mut it = self.fields();
        for f in it.by_ref() {
            let f = f?;
            while levels.len() < f.level as usize {
                levels.push(std::mem::take(&mut fields));
            }
            let value = f.value.to_value().map_err(|e| e.in_key(f.id.to_string()))?;
            fields.push(Field { id: f.id, value });
        }
        while levels.len() < it.level as usize {
            levels.push(std::mem::take(&mut fields));
        }
        let mut bean = Bean { fields, base: None };
        while let Some(f) = levels.pop() {
            bean = Bean {
                fields: f,
                base: Some(Box::new(bean)),
            };
        }
        Ok(bean)
    }
}

/// One field met in a [`BeanView`].
#[derive(Debug, Clone)]
pub struct FieldView<'a> {
    /// The inheritance level: 0 for the most derived class, one more after each `0x01`.
    pub level: u32,
    /// The variable id (ids start again from 0 at each level).
    pub id: u32,
    /// The value.
    pub value: ValueView<'a>,
}

impl FieldView<'_> {
    /// The wire type of the value.
    pub fn wire_type(&self) -> WireType {
        self.value.wire_type()
    }
}

/// The fields of a [`BeanView`]; an error ends the iteration.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    c: Cursor<'a>,
    opts: Options,
    depth: usize,
    level: u32,
    id: u32,
    /// The wire type of the last field's bean, list or map, not yet stepped over (the
    /// cursor is at its start).
    pending: Option<WireType>,
    started: bool,
    done: bool,
}

impl Fields<'_> {
    /// The inheritance levels passed so far (the number of `0x01` bytes read).
    pub fn level(&self) -> u32 {
        self.level
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<FieldView<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.step();
        match r {
            Ok(Some(f)) => Some(Ok(f)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl<'a> Fields<'a> {
    /// The next field, as the owned decode reads it.
    #[inline]
    fn step(&mut self) -> Result<Option<FieldView<'a>>> {
        let c = &mut self.c;
        if !self.started {
            self.started = true;
            check_depth(c, &self.opts, self.depth)?;
        }
        if let Some(ty) = self.pending.take() {
            let id = self.id;
            span(c, ty, &self.opts, self.depth + 1).map_err(|e| e.in_key(id.to_string()))?;
        }
        loop {
            let (id, wire) = match tag(c, self.id)? {
                Tag::End => return Ok(None),
                Tag::Level => {
                    self.level += 1;
                    self.id = 0;
                    continue;
                }
                Tag::Field { id, wire } => (id, wire),
            };
            self.id = id;
            // Integers and byte strings (the common fields) are read here.
            let value = match wire {
                WireType::Integer => {
                    ValueView::Integer(c.long().map_err(|e| e.in_key(id.to_string()))?)
                }
                WireType::Bytes => {
                    ValueView::Bytes(c.len_bytes().map_err(|e| e.in_key(id.to_string()))?)
                }
                _ => {
                    let (v, pending) = read_view(c, wire, &self.opts, self.depth + 1)
                        .map_err(|e| e.in_key(id.to_string()))?;
                    self.pending = pending;
                    v
                }
            };
            return Ok(Some(FieldView {
                level: self.level,
                id,
                value,
            }));
        }
    }
}

/// A list's items, all of one wire type.
#[derive(Debug, Clone)]
pub struct ListView<'a> {
    elem: WireType,
    len: usize,
    /// At the first item.
    c: Cursor<'a>,
    opts: Options,
    /// Nesting of the items.
    depth: usize,
}

impl<'a> ListView<'a> {
    /// The items' wire type.
    pub fn elem(&self) -> WireType {
        self.elem
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for an empty list.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items in order; an error ends the iteration.
    pub fn iter(&self) -> Items<'a> {
        Items {
            c: self.c.clone(),
            elem: self.elem,
            opts: self.opts,
            depth: self.depth,
            index: 0,
            len: self.len,
            pending: None,
        }
    }
}

/// The items of a [`ListView`].
#[derive(Debug, Clone)]
pub struct Items<'a> {
    c: Cursor<'a>,
    elem: WireType,
    opts: Options,
    depth: usize,
    index: usize,
    len: usize,
    /// The last item's bean, list or map, not yet stepped over.
    pending: Option<WireType>,
}

impl<'a> Iterator for Items<'a> {
    type Item = Result<ValueView<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.index >= self.len {
            return None;
        }
        let r = self.step();
        if r.is_err() {
            self.index = self.len;
        }
        Some(r)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.len - self.index))
    }
}

impl<'a> Items<'a> {
    #[inline]
    fn step(&mut self) -> Result<ValueView<'a>> {
        if let Some(ty) = self.pending.take() {
            let i = self.index - 1;
            span(&mut self.c, ty, &self.opts, self.depth).map_err(|e| e.in_index(i))?;
        }
        let i = self.index;
        self.index += 1;
        if self.elem == WireType::Integer {
            return self
                .c
                .long()
                .map(ValueView::Integer)
                .map_err(|e| e.in_index(i));
        }
        let (v, pending) =
            read_view(&mut self.c, self.elem, &self.opts, self.depth).map_err(|e| e.in_index(i))?;
        self.pending = pending;
        Ok(v)
    }
}

/// A map's entries in wire order, keys and values each of one wire type.
#[derive(Debug, Clone)]
pub struct MapView<'a> {
    key: WireType,
    value: WireType,
    len: usize,
    /// At the first key.
    c: Cursor<'a>,
    opts: Options,
    depth: usize,
}

impl<'a> MapView<'a> {
    /// The keys' wire type.
    pub fn key_type(&self) -> WireType {
        self.key
    }

    /// The values' wire type.
    pub fn value_type(&self) -> WireType {
        self.value
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for an empty map.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries in wire order; an error ends the iteration.
    pub fn iter(&self) -> Entries<'a> {
        Entries {
            c: self.c.clone(),
            key: self.key,
            value: self.value,
            opts: self.opts,
            depth: self.depth,
            index: 0,
            len: self.len,
            pending: None,
        }
    }
}

/// The entries of a [`MapView`].
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    c: Cursor<'a>,
    key: WireType,
    value: WireType,
    opts: Options,
    depth: usize,
    index: usize,
    len: usize,
    /// The last value's bean, list or map, not yet stepped over.
    pending: Option<WireType>,
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<(ValueView<'a>, ValueView<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.index >= self.len {
            return None;
        }
        let r = self.step();
        if r.is_err() {
            self.index = self.len;
        }
        Some(r)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.len - self.index))
    }
}

impl<'a> Entries<'a> {
    fn step(&mut self) -> Result<(ValueView<'a>, ValueView<'a>)> {
        if let Some(ty) = self.pending.take() {
            let i = self.index - 1;
            span(&mut self.c, ty, &self.opts, self.depth).map_err(|e| e.in_index(i))?;
        }
        let i = self.index;
        self.index += 1;
        let (opts, depth) = (self.opts, self.depth);
        let (k, pending) =
            read_view(&mut self.c, self.key, &opts, depth).map_err(|e| e.in_index(i))?;
        if let Some(ty) = pending {
            // The key is stepped over now: the value follows it.
            span(&mut self.c, ty, &opts, depth).map_err(|e| e.in_index(i))?;
        }
        let (v, pending) =
            read_view(&mut self.c, self.value, &opts, depth).map_err(|e| e.in_index(i))?;
        self.pending = pending;
        Ok((k, v))
    }
}
