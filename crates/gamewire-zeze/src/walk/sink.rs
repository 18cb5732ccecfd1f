//! What the walker produces: a [`Sink`] receives the values of a bean as the walker reads
//! them, and builds what it likes (the owned tree, nothing at all for validation). The
//! walker is compiled once per sink, so a sink that drops a value costs nothing for it.

use crate::cursor::Cursor;
use crate::value::WireType;
use gamewire_core::Result;

/// The receiver of one walk. The walker reads every byte and makes every check; the sink
/// only builds. Integers are read by the sink from the cursor (through its checked
/// reads), so a sink that keeps nothing can step over them without decoding them.
pub trait Sink<'a> {
    /// A value of any wire type.
    type Value;
    /// A bean under construction.
    type Bean;
    /// A finished bean.
    type BeanOut;
    /// A list under construction.
    type Items;
    /// A map under construction.
    type Entries;

    /// Reads one compact integer (`c.long()`, or `c.skip_long()` to keep nothing).
    fn integer(&mut self, c: &mut Cursor<'a>) -> Result<Self::Value>;
    /// A float.
    fn float(&mut self, v: f32) -> Self::Value;
    /// A double.
    fn double(&mut self, v: f64) -> Self::Value;
    /// A byte string, borrowed from the input.
    fn bytes(&mut self, b: &'a [u8]) -> Self::Value;
    /// A vector of two floats.
    fn vector2(&mut self, v: [f32; 2]) -> Self::Value;
    /// A vector of two integers.
    fn vector2_int(&mut self, v: [i64; 2]) -> Self::Value;
    /// A vector of three floats.
    fn vector3(&mut self, v: [f32; 3]) -> Self::Value;
    /// A vector of three integers.
    fn vector3_int(&mut self, v: [i64; 3]) -> Self::Value;
    /// A vector of four floats.
    fn vector4(&mut self, v: [f32; 4]) -> Self::Value;

    /// A bean starts.
    fn begin_bean(&mut self) -> Self::Bean;
    /// A field of the bean's current level.
    fn field(&mut self, bean: &mut Self::Bean, id: u32, value: Self::Value);
    /// The current level ends (`0x01`); the next one's fields follow.
    fn level(&mut self, bean: &mut Self::Bean);
    /// The bean ends (`0x00`).
    fn end_bean(&mut self, bean: Self::Bean) -> Self::BeanOut;
    /// A bean as a value.
    fn bean(&mut self, bean: Self::BeanOut) -> Self::Value;
    /// A dynamic bean as a value.
    fn dynamic(&mut self, type_id: i64, bean: Self::BeanOut) -> Self::Value;

    /// A list of `len` items of wire type `elem` starts.
    fn begin_list(&mut self, elem: WireType, len: usize) -> Self::Items;
    /// One item of a list.
    fn item(&mut self, items: &mut Self::Items, value: Self::Value);
    /// The list ends.
    fn end_list(&mut self, elem: WireType, items: Self::Items) -> Self::Value;
    /// A map of `len` entries starts.
    fn begin_map(&mut self, key: WireType, value: WireType, len: usize) -> Self::Entries;
    /// One entry of a map.
    fn entry(&mut self, entries: &mut Self::Entries, key: Self::Value, value: Self::Value);
    /// The map ends.
    fn end_map(&mut self, key: WireType, value: WireType, entries: Self::Entries) -> Self::Value;
}

/// The sink that keeps nothing: the walk then only validates (Zeze's `SkipUnknownField`
/// over a whole value, and every check made).
#[derive(Debug, Default, Clone, Copy)]
pub struct Skip;

impl<'a> Sink<'a> for Skip {
    type Value = ();
    type Bean = ();
    type BeanOut = ();
    type Items = ();
    type Entries = ();

    #[inline(always)]
    fn integer(&mut self, c: &mut Cursor<'a>) -> Result<()> {
        c.skip_long()
    }
    #[inline(always)]
    fn float(&mut self, _: f32) {}
    #[inline(always)]
    fn double(&mut self, _: f64) {}
    #[inline(always)]
    fn bytes(&mut self, _: &'a [u8]) {}
    #[inline(always)]
    fn vector2(&mut self, _: [f32; 2]) {}
    #[inline(always)]
    fn vector2_int(&mut self, _: [i64; 2]) {}
    #[inline(always)]
    fn vector3(&mut self, _: [f32; 3]) {}
    #[inline(always)]
    fn vector3_int(&mut self, _: [i64; 3]) {}
    #[inline(always)]
    fn vector4(&mut self, _: [f32; 4]) {}
    #[inline(always)]
    fn begin_bean(&mut self) {}
    #[inline(always)]
    fn field(&mut self, _: &mut (), _: u32, _: ()) {}
    #[inline(always)]
    fn level(&mut self, _: &mut ()) {}
    #[inline(always)]
    fn end_bean(&mut self, _: ()) {}
    #[inline(always)]
    fn bean(&mut self, _: ()) {}
    #[inline(always)]
    fn dynamic(&mut self, _: i64, _: ()) {}
    #[inline(always)]
    fn begin_list(&mut self, _: WireType, _: usize) {}
    #[inline(always)]
    fn item(&mut self, _: &mut (), _: ()) {}
    #[inline(always)]
    fn end_list(&mut self, _: WireType, _: ()) {}
    #[inline(always)]
    fn begin_map(&mut self, _: WireType, _: WireType, _: usize) {}
    #[inline(always)]
    fn entry(&mut self, _: &mut (), _: (), _: ()) {}
    #[inline(always)]
    fn end_map(&mut self, _: WireType, _: WireType, _: ()) {}
}
