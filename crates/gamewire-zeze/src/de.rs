//! serde deserialization: Zeze bean bytes straight into Rust values (strings and byte
//! slices can borrow from the input). The mapping is the one of [`crate::ser`]; fields
//! absent from the bytes (Zeze leaves out default values) take their zero value (0,
//! false, "", empty list or map, a struct of zero values, `None`); unknown field ids are
//! skipped; integers, floats and doubles convert into each other as Zeze's `ReadInt(tag)`
//! and friends do. Beans with base classes: fields after the first `0x01` are skipped,
//! unless the struct's last field is [`crate::types::BASE_FIELD`], which reads that level.

use crate::cursor::Cursor;
use crate::decode::{read_tag_delta, skip_bean, skip_value, wire_type, Options};
use crate::ser::{explicit_id, SerdeError};
use crate::value::WireType;
use crate::walk::grammar;
use gamewire_core::{Error, ErrorKind};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::Deserialize;

mod base;

type R<T> = std::result::Result<T, SerdeError>;

#[inline]
fn idx(i: u64) -> serde::de::value::U64Deserializer<SerdeError> {
    i.into_deserializer()
}

/// Deserializes one bean that fills `data`.
pub fn from_bytes<'de, T: Deserialize<'de>>(data: &'de [u8]) -> gamewire_core::Result<T> {
    from_bytes_with(data, &Options::default())
}

/// [`from_bytes`] with options.
pub fn from_bytes_with<'de, T: Deserialize<'de>>(
    data: &'de [u8],
    opts: &Options,
) -> gamewire_core::Result<T> {
    let mut de = De::new(data, *opts);
    let v = T::deserialize(&mut de).map_err(|e| e.0)?;
    if !de.c.is_empty() {
        return Err(Error::at(
            de.c.offset(),
            ErrorKind::TrailingBytes {
                count: de.c.remaining(),
            },
        ));
    }
    Ok(v)
}

/// The deserializer: a cursor and the wire type of the value at it.
pub struct De<'de> {
    c: Cursor<'de>,
    wire: WireType,
    depth: usize,
    opts: Options,
}

impl<'de> De<'de> {
    /// A deserializer of one bean at the start of `data`.
    pub fn new(data: &'de [u8], opts: Options) -> Self {
        De {
            c: Cursor::new(data),
            wire: WireType::Bean,
            depth: 0,
            opts,
        }
    }

    #[cold]
    fn mismatch(&self, want: &str) -> SerdeError {
        SerdeError(Error::unexpected_at(
            self.c.offset(),
            format!("a value Zeze reads as {want}"),
            format!("wire type {}", self.wire),
        ))
    }

    #[inline(always)]
    fn int(&mut self) -> R<i64> {
        if self.wire == WireType::Integer {
            return Ok(self.c.long_fast()?);
        }
        self.int_other()
    }

    /// [`De::int`] of a float, a double or a wrong wire type: out of line, so the
    /// integer path stays small enough to inline into a derived visitor.
    #[inline(never)]
    fn int_other(&mut self) -> R<i64> {
        match self.wire {
            WireType::Integer => Ok(self.c.long()?),
            WireType::Float => Ok(self.c.f32()? as i64),
            WireType::Double => Ok(self.c.f64()? as i64),
            _ => Err(self.mismatch("an integer")),
        }
    }

    #[inline]
    fn float(&mut self) -> R<f64> {
        match self.wire {
            WireType::Float => Ok(self.c.f32()? as f64),
            WireType::Double => Ok(self.c.f64()?),
            WireType::Integer => Ok(self.c.long()? as f64),
            _ => Err(self.mismatch("a number")),
        }
    }

    #[inline]
    fn bytes(&mut self) -> R<&'de [u8]> {
        if self.wire != WireType::Bytes {
            return Err(self.mismatch("bytes"));
        }
        Ok(self.c.len_bytes()?)
    }

    #[inline]
    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth >= self.opts.max_depth {
            return Err(SerdeError(grammar::depth_error(
                self.c.offset(),
                &self.opts,
            )));
        }
        Ok(())
    }

    /// Positions at the first tag of a bean (skipping a dynamic's type id).
    #[inline]
    fn bean_start(&mut self) -> R<()> {
        match self.wire {
            WireType::Bean => Ok(()),
            WireType::Dynamic => {
                self.c.long()?;
                Ok(())
            }
            _ => Err(self.mismatch("a bean")),
        }
    }

    /// Reads the next tag: `None` at the end of the bean, else the id delta and type.
    /// After a `0x01` (base level) the rest is skipped.
    #[inline(always)]
    fn tag(&mut self) -> R<Option<(u32, WireType)>> {
        let t = self.c.u8()?;
        if (0x10..0xf0).contains(&t) {
            if let Some(w) = WireType::from_u8(t & 15) {
                return Ok(Some(((t >> 4) as u32, w)));
            }
        }
        self.tag_slow(t)
    }

    #[inline(never)]
    fn tag_slow(&mut self, t: u8) -> R<Option<(u32, WireType)>> {
        let at = self.c.offset() - 1;
        if t >= 0x10 {
            let d = read_tag_delta(&mut self.c, t)?;
            return Ok(Some((d, wire_type(at, t & 15)?)));
        }
        match t {
            0 => Ok(None),
            1 => {
                skip_bean(&mut self.c, &self.opts, self.depth)?;
                Ok(None)
            }
            _ => Err(SerdeError(grammar::bad_tag(at, t))),
        }
    }

    /// Reads a list header ([`grammar::list_header`]).
    #[inline(always)]
    fn list_header(&mut self) -> R<(WireType, usize)> {
        Ok(grammar::list_header(&mut self.c)?)
    }

    /// `b` (the byte string just read, ending at the cursor) as UTF-8 text; an error
    /// names the offset of the first byte that is not.
    #[inline(always)]
    fn utf8(&self, b: &'de [u8]) -> R<&'de str> {
        if let Some(s) = crate::ascii::short_ascii(b) {
            return Ok(s);
        }
        std::str::from_utf8(b).map_err(|e| {
            SerdeError(Error::at(
                self.c.offset() - b.len() + e.valid_up_to(),
                ErrorKind::InvalidText { encoding: "UTF-8" },
            ))
        })
    }

    fn skip(&mut self, w: WireType) -> R<()> {
        Ok(skip_value(&mut self.c, w, &self.opts, self.depth)?)
    }
}

/// Field ids of a struct's fields (declaration order unless renamed `"N"`/`"name#N"`).
enum Ids {
    Auto(usize),
    Listed(Vec<u32>),
}

impl Ids {
    #[inline]
    fn of(fields: &[&str]) -> Ids {
        if fields
            .iter()
            .all(|f| !f.as_bytes().last().is_some_and(u8::is_ascii_digit))
        {
            return Ids::Auto(fields.len());
        }
        let mut auto = 0;
        Ids::Listed(
            fields
                .iter()
                .map(|f| {
                    auto = explicit_id(f).unwrap_or(auto + 1);
                    auto
                })
                .collect(),
        )
    }

    #[inline]
    fn index(&self, id: u32) -> Option<usize> {
        match self {
            Ids::Auto(n) => (id >= 1 && (id as usize) <= *n).then(|| id as usize - 1),
            Ids::Listed(v) => v.iter().position(|&x| x == id),
        }
    }

    #[inline]
    fn increasing(&self) -> bool {
        match self {
            Ids::Auto(_) => true,
            Ids::Listed(v) => v.windows(2).all(|w| w[0] < w[1]),
        }
    }

    #[inline]
    fn len(&self) -> usize {
        match self {
            Ids::Auto(n) => *n,
            Ids::Listed(v) => v.len(),
        }
    }
}

/// Which fields were read: a bit mask for up to 64 fields, a vector beyond.
enum Seen {
    Bits(u64),
    Many(Vec<bool>),
}

impl Seen {
    #[inline]
    fn new(n: usize) -> Seen {
        if n <= 64 {
            Seen::Bits(0)
        } else {
            Seen::Many(vec![false; n])
        }
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        match self {
            Seen::Bits(b) => b >> i & 1 != 0,
            Seen::Many(v) => v[i],
        }
    }

    /// True when all of the first `n` fields were read.
    #[inline]
    fn all(&self, n: usize) -> bool {
        match self {
            Seen::Bits(b) => n == 64 && *b == u64::MAX || n < 64 && *b == (1u64 << n) - 1,
            Seen::Many(v) => v.iter().all(|&x| x),
        }
    }

    #[inline]
    fn set(&mut self, i: usize) {
        match self {
            Seen::Bits(b) => *b |= 1 << i,
            Seen::Many(v) => v[i] = true,
        }
    }
}

struct StructAccess<'a, 'de> {
    de: &'a mut De<'de>,
    ids: Ids,
    id: u32,
    seen: Seen,
    done: bool,
    next_default: usize,
    default: bool,
}

impl<'de> de::MapAccess<'de> for StructAccess<'_, 'de> {
    type Error = SerdeError;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        while !self.done {
            let at = self.de.c.offset();
            match self.de.tag()? {
                None => self.done = true,
                Some((d, w)) => {
                    self.id = grammar::field_id(at, self.id, d)?;
                    match self.ids.index(self.id) {
                        Some(i) if !self.seen.get(i) => {
                            self.seen.set(i);
                            self.de.wire = w;
                            self.default = false;
                            return seed.deserialize(idx(i as u64)).map(Some);
                        }
                        _ => self.de.skip(w)?,
                    }
                }
            }
        }
        if self.seen.all(self.ids.len()) {
            return Ok(None);
        }
        while self.next_default < self.ids.len() {
            let i = self.next_default;
            self.next_default += 1;
            if !self.seen.get(i) {
                self.default = true;
                return seed.deserialize(idx(i as u64)).map(Some);
            }
        }
        Ok(None)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        if self.default {
            seed.deserialize(Zero)
        } else {
            let id = self.id;
            seed.deserialize(&mut *self.de)
                .map_err(|e| SerdeError(e.0.in_key(id.to_string())))
        }
    }
}

/// A bean read as a sequence of its fields in declaration order (a tuple, or a struct
/// whose ids increase): absent fields are zero, unknown ids skipped.
struct TupleAccess<'a, 'de> {
    de: &'a mut De<'de>,
    index: u32,
    len: u32,
    ids: Ids,
    /// Id of the last tag read.
    id: u32,
    /// True when a tag was read and its value not yet (its type is `wire`).
    pending: bool,
    wire: WireType,
    /// True once the bean's end (`0x00`, or a `0x01` and the base skipped) is read.
    done: bool,
    /// `id` while neither `pending` nor `done`, else [`NO_BASE`]: what the fast path
    /// of [`TupleAccess::field`] counts the next tag's delta from.
    base: u64,
}

/// [`TupleAccess::base`] when no tag may be read: farther than 14 from any `u32` id.
const NO_BASE: u64 = 1 << 40;

impl<'de> TupleAccess<'_, 'de> {
    /// Reads field `want` (its value, or its zero when the bytes do not hold it).
    #[inline(always)]
    fn field<T: DeserializeSeed<'de>>(&mut self, seed: T, want: u32) -> R<T::Value> {
        let mut hit = false;
        // Fast path: the next tag is one byte naming exactly the wanted field (its id
        // delta is `want - id`, 1 to 14) with a defined wire type; one compare checks
        // both. Anything else goes to `seek`, which reads the same tag. (`base` is far
        // from any id while a tag is pending or the bean has ended, so the delta check
        // also stands for those two flags.)
        let d = (want as u64).wrapping_sub(self.base);
        if d.wrapping_sub(1) < 14 {
            if let Some(t) = self.de.c.peek() {
                let x = (t as u64).wrapping_sub(d << 4);
                if x < 13 {
                    if let Some(w) = WireType::from_u8(x as u8) {
                        self.de.c.step(1);
                        self.id = want;
                        self.base = want as u64;
                        self.de.wire = w;
                        hit = true;
                    }
                }
            }
        }
        if !hit {
            let st = Seek {
                id: self.id,
                wire: self.wire,
                pending: self.pending,
                done: self.done,
                hit: false,
            };
            let st = seek(self.de, st, want)?;
            (self.id, self.wire, self.pending, self.done) = (st.id, st.wire, st.pending, st.done);
            self.base = if st.pending || st.done {
                NO_BASE
            } else {
                st.id as u64
            };
            hit = st.hit;
        }
        // One call of each deserializer per field (two sites made the optimizer stop
        // inlining the integer ones).
        if hit {
            seed.deserialize(&mut *self.de)
                .map_err(|e| SerdeError(e.0.in_key(want.to_string())))
        } else {
            seed.deserialize(Zero)
        }
    }

    /// Reads the rest of the bean: a pending field's value, unknown fields, the end.
    /// Run right after the last field, so a derived visitor's value needs no
    /// fallible step after it is built; [`TupleAccess::finish`] then has nothing left.
    #[inline(always)]
    fn close(&mut self) -> R<()> {
        self.base = NO_BASE;
        if !self.pending && !self.done && self.de.c.eat_zero() {
            self.done = true;
            return Ok(());
        }
        let (pending, done) = (self.pending, self.done);
        self.pending = false;
        self.done = true;
        Self::close_slow(self.de, pending, self.wire, done)
    }

    /// [`TupleAccess::close`] past the fast path; takes the state by value so the
    /// access itself stays in registers.
    #[inline(never)]
    fn close_slow(de: &mut De<'de>, pending: bool, wire: WireType, done: bool) -> R<()> {
        if pending {
            de.skip(wire)?;
        }
        if !done && !de.c.eat_zero() {
            skip_bean(&mut de.c, &de.opts, de.depth)?;
        }
        Ok(())
    }

    /// After the visitor: reads what it left of the bean (nothing when it read every
    /// field, as derived visitors do).
    #[inline(always)]
    fn finish(self) -> R<()> {
        if self.done && !self.pending {
            return Ok(());
        }
        Self::close_slow(self.de, self.pending, self.wire, self.done)
    }
}

/// The tag state of a [`TupleAccess`], passed by value to [`seek`] (so the access
/// stays in registers) and back, with `hit` set when the wanted field was found.
#[derive(Clone, Copy)]
struct Seek {
    id: u32,
    wire: WireType,
    pending: bool,
    done: bool,
    hit: bool,
}

/// Reads tags until field `want` (then `hit`, with `de.wire` set to its type), a
/// larger id (kept pending), or the bean's end; unknown fields in between are skipped.
#[inline(never)]
fn seek(de: &mut De<'_>, mut st: Seek, want: u32) -> R<Seek> {
    loop {
        if !st.pending {
            if st.done {
                return Ok(st);
            }
            let at = de.c.offset();
            match de.tag()? {
                None => {
                    st.done = true;
                    return Ok(st);
                }
                Some((d, w)) => {
                    st.id = grammar::field_id(at, st.id, d)?;
                    st.wire = w;
                    st.pending = true;
                }
            }
        }
        if st.id == want {
            st.pending = false;
            st.hit = true;
            de.wire = st.wire;
            return Ok(st);
        }
        if st.id > want {
            return Ok(st);
        }
        st.pending = false;
        de.skip(st.wire)?;
    }
}

impl<'de> de::SeqAccess<'de> for TupleAccess<'_, 'de> {
    type Error = SerdeError;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        if self.index >= self.len {
            return Ok(None);
        }
        let want = match &self.ids {
            Ids::Auto(_) => self.index + 1,
            Ids::Listed(v) => v[self.index as usize],
        };
        self.index += 1;
        let v = self.field(seed, want)?;
        if self.index == self.len {
            self.close()?;
        }
        Ok(Some(v))
    }
}

/// [`TupleAccess`] handed to the visitor by reference: its own `SeqAccess` (not serde's
/// blanket one for `&mut A`, which was not inlined) so a derived visitor's per-field
/// calls inline.
struct TupleSeq<'b, 'a, 'de>(&'b mut TupleAccess<'a, 'de>);

impl<'de> de::SeqAccess<'de> for TupleSeq<'_, '_, 'de> {
    type Error = SerdeError;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        self.0.next_element_seed(seed)
    }

    #[inline(always)]
    fn next_element<T: Deserialize<'de>>(&mut self) -> R<Option<T>> {
        self.0.next_element_seed(std::marker::PhantomData)
    }
}

/// The integer methods of a deserializer: each width reads an `i64` with the method
/// `$read` of the deserializer (a compact integer, or a zero) and hands it to the
/// visitor cast to that width, as Zeze's generated code casts `ReadLong`.
macro_rules! deserialize_ints {
    ($attr:meta, $read:ident) => {
        deserialize_ints!(@each $attr, $read; i8 deserialize_i8 visit_i8,
            i16 deserialize_i16 visit_i16, i32 deserialize_i32 visit_i32,
            i64 deserialize_i64 visit_i64, u8 deserialize_u8 visit_u8,
            u16 deserialize_u16 visit_u16, u32 deserialize_u32 visit_u32,
            u64 deserialize_u64 visit_u64);
    };
    (@each $attr:meta, $read:ident; $($t:ident $m:ident $v:ident),*) => {$(
        #[$attr]
        fn $m<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
            let x = self.$read()?;
            visitor.$v(x as $t)
        }
    )*};
}

/// The items of a list not read yet, and the index of the next one (for error paths).
struct Countdown {
    left: usize,
    index: usize,
}

impl Countdown {
    fn new(n: usize) -> Countdown {
        Countdown { left: n, index: 0 }
    }

    /// The index of the next item, or `None` after the last.
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.index += 1;
        Some(self.index - 1)
    }
}

/// Reads one list item with `read` (the index is added to an error's path).
#[inline(always)]
fn list_item<T>(i: usize, read: impl FnOnce() -> R<T>) -> R<Option<T>> {
    read().map(Some).map_err(|e| SerdeError(e.0.in_index(i)))
}

/// The items of a list (or the entries of a map). With `ints`, a list whose items are
/// integers (`Vec<i32>`, `Vec<i64>`, ...): each item is read by [`IntItem`], without the
/// per-item wire-type dispatch. (A flag, not a type parameter: one instance of the
/// visitor's loop per item type, not two.)
struct ListAccess<'a, 'de> {
    de: &'a mut De<'de>,
    items: Countdown,
    elem: WireType,
    key: Option<WireType>,
    ints: bool,
}

impl<'de> de::SeqAccess<'de> for ListAccess<'_, 'de> {
    type Error = SerdeError;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        let Some(i) = self.items.next() else {
            return Ok(None);
        };
        self.de.wire = self.elem;
        if self.ints {
            list_item(i, || seed.deserialize(IntItem(&mut *self.de)))
        } else {
            list_item(i, || seed.deserialize(&mut *self.de))
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.left)
    }
}

/// One item of a list of integers (the deserializer's wire type is already
/// [`WireType::Integer`]): Rust integers and `bool` read the compact integer directly,
/// any other type goes through the general deserializer.
struct IntItem<'a, 'de>(&'a mut De<'de>);

impl IntItem<'_, '_> {
    /// The item's compact integer.
    #[inline(always)]
    fn long(self) -> R<i64> {
        Ok(self.0.c.long_fast()?)
    }
}

macro_rules! forward {
    ($($m:ident ($($a:ident : $t:ty),*)),*) => {$(
        fn $m<V: Visitor<'de>>(self, $($a: $t,)* visitor: V) -> R<V::Value> {
            self.0.$m($($a,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for IntItem<'_, 'de> {
    type Error = SerdeError;

    deserialize_ints!(inline(always), long);

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let x = self.0.c.long()?;
        visitor.visit_bool(x != 0)
    }

    forward!(
        deserialize_any(),
        deserialize_f32(),
        deserialize_f64(),
        deserialize_char(),
        deserialize_str(),
        deserialize_string(),
        deserialize_bytes(),
        deserialize_byte_buf(),
        deserialize_option(),
        deserialize_unit(),
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_seq(),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_map(),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(),
        deserialize_ignored_any()
    );
}

impl<'de> de::MapAccess<'de> for ListAccess<'_, 'de> {
    type Error = SerdeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        if self.items.next().is_none() {
            return Ok(None);
        }
        self.de.wire = self.key.unwrap_or(WireType::Integer);
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        self.de.wire = self.elem;
        seed.deserialize(&mut *self.de)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.left)
    }
}

/// A bean read as a map keyed by field id (for `deserialize_any` and maps).
struct BeanMapAccess<'a, 'de> {
    de: &'a mut De<'de>,
    id: u32,
}

impl<'de> de::MapAccess<'de> for BeanMapAccess<'_, 'de> {
    type Error = SerdeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        let at = self.de.c.offset();
        match self.de.tag()? {
            None => Ok(None),
            Some((d, w)) => {
                self.id = grammar::field_id(at, self.id, d)?;
                self.de.wire = w;
                seed.deserialize(idx(self.id as u64)).map(Some)
            }
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        seed.deserialize(&mut *self.de)
    }
}

impl<'de> de::Deserializer<'de> for &mut De<'de> {
    type Error = SerdeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.wire {
            WireType::Integer => visitor.visit_i64(self.c.long()?),
            WireType::Float => visitor.visit_f32(self.c.f32()?),
            WireType::Double => visitor.visit_f64(self.c.f64()?),
            WireType::Bytes => {
                let b = self.c.len_bytes()?;
                match std::str::from_utf8(b) {
                    Ok(s) => visitor.visit_borrowed_str(s),
                    Err(_) => visitor.visit_borrowed_bytes(b),
                }
            }
            WireType::List => self.deserialize_seq(visitor),
            WireType::Map => self.deserialize_map(visitor),
            WireType::Bean | WireType::Dynamic => {
                self.bean_start()?;
                self.enter()?;
                let v = visitor.visit_map(BeanMapAccess {
                    de: &mut *self,
                    id: 0,
                })?;
                self.depth -= 1;
                Ok(v)
            }
            WireType::Vector2 | WireType::Vector3 | WireType::Vector4 => {
                let n = match self.wire {
                    WireType::Vector2 => 2,
                    WireType::Vector3 => 3,
                    _ => 4,
                };
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.c.f32()?);
                }
                visitor.visit_seq(v.into_deserializer())
            }
            WireType::Vector2Int | WireType::Vector3Int => {
                let n = if self.wire == WireType::Vector2Int {
                    2
                } else {
                    3
                };
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.c.long()?);
                }
                visitor.visit_seq(v.into_deserializer())
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let b = match self.wire {
            WireType::Integer => self.c.long()? != 0,
            _ => self.float()? != 0.0,
        };
        visitor.visit_bool(b)
    }

    deserialize_ints!(inline(always), int);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let x = self.float()?;
        visitor.visit_f32(x as f32)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let x = self.float()?;
        visitor.visit_f64(x)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.deserialize_str(visitor)
    }
    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let b = self.bytes()?;
        visitor.visit_borrowed_str(self.utf8(b)?)
    }
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let b = self.bytes()?;
        visitor.visit_borrowed_bytes(b)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.deserialize_bytes(visitor)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_some(self)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let w = self.wire;
        self.skip(w)?;
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        self.deserialize_unit(visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        if let Some(want) = crate::types::marker(name) {
            if self.wire != want {
                return Err(self.mismatch(want.name()));
            }
            let w = self.wire;
            return match w {
                WireType::Vector2Int | WireType::Vector3Int => {
                    let n = if w == WireType::Vector2Int { 2 } else { 3 };
                    let mut v = Vec::with_capacity(n);
                    for _ in 0..n {
                        v.push(self.c.long()? as i32);
                    }
                    visitor.visit_seq(v.into_deserializer())
                }
                _ => {
                    let n = match w {
                        WireType::Vector2 => 2,
                        WireType::Vector3 => 3,
                        _ => 4,
                    };
                    let mut v = Vec::with_capacity(n);
                    for _ in 0..n {
                        v.push(self.c.f32()?);
                    }
                    visitor.visit_seq(v.into_deserializer())
                }
            };
        }
        visitor.visit_newtype_struct(self)
    }
    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if self.wire != WireType::List {
            return Err(self.mismatch("a list"));
        }
        let (elem, n) = self.list_header()?;
        self.enter()?;
        let v = visitor.visit_seq(ListAccess {
            de: &mut *self,
            items: Countdown::new(n),
            elem,
            key: None,
            ints: elem == WireType::Integer,
        })?;
        self.depth -= 1;
        Ok(v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> R<V::Value> {
        self.bean_start()?;
        self.enter()?;
        let mut acc = TupleAccess {
            de: &mut *self,
            index: 0,
            len: len as u32,
            ids: Ids::Auto(len),
            id: 0,
            pending: false,
            wire: WireType::Integer,
            done: false,
            base: 0,
        };
        let v = visitor.visit_seq(TupleSeq(&mut acc))?;
        acc.finish()?;
        self.depth -= 1;
        Ok(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> R<V::Value> {
        self.deserialize_tuple(len, visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        if matches!(self.wire, WireType::Bean | WireType::Dynamic) {
            return self.deserialize_any(visitor);
        }
        if self.wire != WireType::Map {
            return Err(self.mismatch("a map"));
        }
        let (k, v, n) = grammar::map_header(&mut self.c)?;
        self.enter()?;
        let out = visitor.visit_map(ListAccess {
            de: &mut *self,
            items: Countdown::new(n),
            elem: v,
            key: Some(k),
            ints: false,
        })?;
        self.depth -= 1;
        Ok(out)
    }
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        if fields.last() == Some(&crate::types::BASE_FIELD) {
            return base::derived(self, fields, visitor);
        }
        self.bean_start()?;
        self.enter()?;
        let ids = Ids::of(fields);
        let n = ids.len();
        if ids.increasing() {
            // Fields arrive in declaration order: read them as a sequence (cheaper for
            // derived visitors than keyed access).
            let mut acc = TupleAccess {
                de: &mut *self,
                index: 0,
                len: n as u32,
                ids,
                id: 0,
                pending: false,
                wire: WireType::Integer,
                done: false,
                base: 0,
            };
            let v = visitor.visit_seq(TupleSeq(&mut acc))?;
            acc.finish()?;
            self.depth -= 1;
            return Ok(v);
        }
        let v = visitor.visit_map(StructAccess {
            de: &mut *self,
            ids,
            id: 0,
            seen: Seen::new(n),
            done: false,
            next_default: 0,
            default: false,
        })?;
        self.depth -= 1;
        Ok(v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        let (type_id, dynamic) = match self.wire {
            WireType::Integer => (self.c.long()?, false),
            WireType::Dynamic => (self.c.long()?, true),
            _ => return Err(self.mismatch("an enum (integer or dynamic bean)")),
        };
        let index = variants
            .iter()
            .position(|v| explicit_id(v).map(i64::from) == Some(type_id))
            .map(|i| i as u64)
            .unwrap_or(type_id as u64);
        self.wire = WireType::Bean;
        visitor.visit_enum(EnumAccess {
            de: self,
            index,
            dynamic,
        })
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        self.deserialize_any(visitor)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let w = self.wire;
        self.skip(w)?;
        visitor.visit_unit()
    }
}

struct EnumAccess<'a, 'de> {
    de: &'a mut De<'de>,
    index: u64,
    dynamic: bool,
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = SerdeError;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> R<(S::Value, Self)> {
        let v = seed.deserialize(idx(self.index))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for EnumAccess<'_, 'de> {
    type Error = SerdeError;
    fn unit_variant(self) -> R<()> {
        if self.dynamic {
            skip_bean(&mut self.de.c, &self.de.opts, self.de.depth)?;
        }
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> R<T::Value> {
        if !self.dynamic {
            return seed.deserialize(Zero);
        }
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> R<V::Value> {
        if !self.dynamic {
            return de::Deserializer::deserialize_tuple(Zero, len, visitor);
        }
        de::Deserializer::deserialize_tuple(&mut *self.de, len, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        if !self.dynamic {
            return de::Deserializer::deserialize_struct(Zero, "", fields, visitor);
        }
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// Gives the zero value of whatever type asks: what an absent Zeze field means.
#[derive(Clone, Copy)]
struct Zero;

impl Zero {
    /// The zero of every integer width.
    #[inline]
    fn zero(self) -> R<i64> {
        Ok(0)
    }
}

struct ZeroSeq(usize);

impl<'de> de::SeqAccess<'de> for ZeroSeq {
    type Error = SerdeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        if self.0 == 0 {
            return Ok(None);
        }
        self.0 -= 1;
        seed.deserialize(Zero).map(Some)
    }
}

struct ZeroStruct(usize, usize, bool);

impl<'de> de::MapAccess<'de> for ZeroStruct {
    type Error = SerdeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        if self.2 || self.0 >= self.1 {
            return Ok(None);
        }
        self.0 += 1;
        seed.deserialize(idx((self.0 - 1) as u64)).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        seed.deserialize(Zero)
    }
}

impl<'de> de::Deserializer<'de> for Zero {
    type Error = SerdeError;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_bool(false)
    }
    deserialize_ints!(inline, zero);
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_f32(0.0)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_f64(0.0)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_char('\0')
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_borrowed_str("")
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_borrowed_str("")
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_borrowed_bytes(&[])
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_borrowed_bytes(&[])
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_none()
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _n: &'static str, visitor: V) -> R<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _n: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_seq(ZeroSeq(0))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> R<V::Value> {
        visitor.visit_seq(ZeroSeq(len))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _n: &'static str,
        len: usize,
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_seq(ZeroSeq(len))
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_map(ZeroStruct(0, 0, true))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _n: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_map(ZeroStruct(0, fields.len(), false))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _n: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        let index = variants
            .iter()
            .position(|v| explicit_id(v) == Some(0))
            .unwrap_or(0) as u64;
        visitor.visit_enum(ZeroEnum(index))
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_u64(0)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_unit()
    }
}

struct ZeroEnum(u64);

impl<'de> de::EnumAccess<'de> for ZeroEnum {
    type Error = SerdeError;
    type Variant = Zero;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> R<(S::Value, Zero)> {
        Ok((seed.deserialize(idx(self.0))?, Zero))
    }
}

impl<'de> de::VariantAccess<'de> for Zero {
    type Error = SerdeError;
    fn unit_variant(self) -> R<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> R<T::Value> {
        seed.deserialize(Zero)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> R<V::Value> {
        visitor.visit_seq(ZeroSeq(len))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        visitor.visit_map(ZeroStruct(0, fields.len(), false))
    }
}
