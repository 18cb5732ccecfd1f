//! Bits of the 32-bit Variant header (core/io/marshalls.cpp).

/// Byte 0: the type id.
pub const TYPE_MASK: u32 = 0xFF;
/// Int, float and math types: 64-bit payload.
pub const FLAG_64: u32 = 1 << 16;
/// Object: sent as an instance id.
pub const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
/// Array (4.3+): element type kind, bits 16-17.
pub const ARRAY_TYPE_MASK: u32 = 0b11 << 16;
/// Shift of [`ARRAY_TYPE_MASK`].
pub const ARRAY_TYPE_SHIFT: u32 = 16;
/// Dictionary (4.4+): key type kind, bits 16-17.
pub const DICT_KEY_MASK: u32 = 0b11 << 16;
/// Shift of [`DICT_KEY_MASK`].
pub const DICT_KEY_SHIFT: u32 = 16;
/// Dictionary (4.4+): value type kind, bits 18-19.
pub const DICT_VALUE_MASK: u32 = 0b11 << 18;
/// Shift of [`DICT_VALUE_MASK`].
pub const DICT_VALUE_SHIFT: u32 = 18;
/// Container type kind: untyped.
pub const CONTAINER_NONE: u32 = 0b00;
/// Container type kind: a built-in type id follows (u32).
pub const CONTAINER_BUILTIN: u32 = 0b01;
/// Container type kind: a class name follows (string).
pub const CONTAINER_CLASS_NAME: u32 = 0b10;
/// Container type kind: a script path follows (string).
pub const CONTAINER_SCRIPT: u32 = 0b11;
