//! Fills an inspect tree from anything that implements [`serde::Serialize`], without
//! building a value first: a format whose decoder writes JSON through serde (a borrowed
//! view that reads its bytes as it is serialized) gets its inspect tree from the same
//! walk, and the tree keeps only what it shows.
//!
//! Containers past the tree's `max_items` children are elided as [`TreeBuilder::keep`]
//! does, but their items are still serialized (into nothing), because a view that reads
//! its input as it goes must be walked to the end. Labels and types follow the JSON
//! shape: object members are labelled with their keys, array items `[i]`, leaves typed
//! `string`, `integer`, `number`, `bool` or `null`.
//!
//! ```
//! use gamewire_core::inspect::{render_text, TreeBuilder};
//! let mut t = TreeBuilder::new(2);
//! let v = serde_json::json!({"hp": 87, "tags": [1, 2, 3]});
//! gamewire_core::inspect::add_serialize("player", "Player", &v, &mut t).unwrap();
//! assert_eq!(
//!     render_text(&t.finish()),
//!     "  player: Player (2 items)\n    hp: integer = 87\n    tags: array (3 items)\n      \
//!      [0]: integer = 1\n      [1]: integer = 2\n      … 1 more\n"
//! );
//! ```

use super::{short_str, TreeBuilder};
use crate::Error;
use serde::ser::{self, Serialize};

/// Adds `value` to `tree` under `label`, typed `ty` (empty: its JSON kind), serializing
/// it once. An error the value's own `serialize` returns comes back as is.
pub fn add_serialize<T: Serialize + ?Sized>(
    label: &str,
    ty: &str,
    value: &T,
    tree: &mut TreeBuilder,
) -> Result<(), Error> {
    value.serialize(Node {
        tree,
        label,
        ty,
        mute: false,
    })
}

/// One value to add: where, under which label, or nowhere (`mute`: an elided item,
/// still walked).
struct Node<'t, 'l> {
    tree: &'t mut TreeBuilder,
    label: &'l str,
    ty: &'l str,
    mute: bool,
}

impl<'t> Node<'t, '_> {
    fn leaf(self, kind: &str, text: impl FnOnce() -> String) -> Result<(), Error> {
        if !self.mute {
            let ty = if self.ty.is_empty() { kind } else { self.ty };
            self.tree.leaf(self.label, ty, &text());
        }
        Ok(())
    }

    fn open(self, kind: &str, len: Option<usize>) -> Container<'t> {
        if !self.mute {
            let ty = if self.ty.is_empty() { kind } else { self.ty };
            self.tree.open(self.label, ty, len);
        }
        Container {
            tree: self.tree,
            mute: self.mute,
            len,
            index: 0,
            key: String::new(),
        }
    }
}

/// An open array or object: counts its items and elides those past `max_items`.
struct Container<'t> {
    tree: &'t mut TreeBuilder,
    mute: bool,
    len: Option<usize>,
    index: usize,
    /// The label of the member whose value comes next.
    key: String,
}

impl Container<'_> {
    /// Whether the next item is shown.
    fn shows_next(&mut self) -> bool {
        if self.mute {
            return false;
        }
        match self.len {
            Some(len) => self.tree.keep(self.index, len),
            None => self.index < self.tree.max_items(),
        }
    }

    fn item<T: Serialize + ?Sized>(&mut self, label: &str, value: &T) -> Result<(), Error> {
        let shown = self.shows_next();
        self.index += 1;
        value.serialize(Node {
            tree: self.tree,
            label,
            ty: "",
            mute: !shown,
        })
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let label = if self.mute {
            String::new()
        } else {
            format!("[{}]", self.index)
        };
        self.item(&label, value)
    }

    fn member<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.item(key, value)
    }

    fn end(self) -> Result<(), Error> {
        if !self.mute {
            self.tree.close_counted(self.index);
        }
        Ok(())
    }
}

macro_rules! leaf_as {
    ($($method:ident: $t:ty => $kind:literal,)*) => {
        $(fn $method(self, v: $t) -> Result<(), Error> {
            self.leaf($kind, || v.to_string())
        })*
    };
}

impl<'t, 'l> ser::Serializer for Node<'t, 'l> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Container<'t>;
    type SerializeTuple = Container<'t>;
    type SerializeTupleStruct = Container<'t>;
    type SerializeTupleVariant = Container<'t>;
    type SerializeMap = Container<'t>;
    type SerializeStruct = Container<'t>;
    type SerializeStructVariant = Container<'t>;

    leaf_as! {
        serialize_bool: bool => "bool",
        serialize_i8: i8 => "integer",
        serialize_i16: i16 => "integer",
        serialize_i32: i32 => "integer",
        serialize_i64: i64 => "integer",
        serialize_i128: i128 => "integer",
        serialize_u8: u8 => "integer",
        serialize_u16: u16 => "integer",
        serialize_u32: u32 => "integer",
        serialize_u64: u64 => "integer",
        serialize_u128: u128 => "integer",
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.leaf("number", || json_number(&v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.leaf("number", || json_number(&v))
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.leaf("string", || short_str(v.encode_utf8(&mut [0; 4]), 60))
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.leaf("string", || short_str(v, 60))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.leaf("bytes", || format!("{} bytes", v.len()))
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.leaf("null", || "null".into())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), Error> {
        self.serialize_str(v)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let mut c = self.open("object", Some(1));
        c.member(variant, value)?;
        c.end()
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Container<'t>, Error> {
        Ok(self.open("array", len))
    }

    fn serialize_tuple(self, len: usize) -> Result<Container<'t>, Error> {
        Ok(self.open("array", Some(len)))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Container<'t>, Error> {
        Ok(self.open("array", Some(len)))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Container<'t>, Error> {
        Ok(self.open(variant, Some(len)))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Container<'t>, Error> {
        Ok(self.open("object", len))
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Container<'t>, Error> {
        Ok(self.open("object", Some(len)))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Container<'t>, Error> {
        Ok(self.open(variant, Some(len)))
    }
}

/// A number as JSON writes it.
fn json_number<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

/// The sequence traits: each item is an element labelled `[i]`.
macro_rules! elements {
    ($($tr:ident::$method:ident),*) => {$(
        impl ser::$tr for Container<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                Container::end(self)
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Container<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = key.serialize(KeyText)?;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = std::mem::take(&mut self.key);
        self.member(&key, value)
    }
    fn end(self) -> Result<(), Error> {
        Container::end(self)
    }
}

/// The struct traits: each field is a member labelled with its name.
macro_rules! members {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Container<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.member(key, value)
            }
            fn end(self) -> Result<(), Error> {
                Container::end(self)
            }
        }
    )*};
}

members!(SerializeStruct, SerializeStructVariant);

/// A map key as the label text (JSON keys: text, numbers and booleans as their text).
struct KeyText;

fn not_a_key<T>() -> Result<T, Error> {
    Err(Error::msg("a map key that is not text, a number or a bool"))
}

macro_rules! key_as_text {
    ($($method:ident: $t:ty,)*) => {
        $(fn $method(self, v: $t) -> Result<String, Error> {
            Ok(v.to_string())
        })*
    };
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = ser::Impossible<String, Error>;
    type SerializeTuple = ser::Impossible<String, Error>;
    type SerializeTupleStruct = ser::Impossible<String, Error>;
    type SerializeTupleVariant = ser::Impossible<String, Error>;
    type SerializeMap = ser::Impossible<String, Error>;
    type SerializeStruct = ser::Impossible<String, Error>;
    type SerializeStructVariant = ser::Impossible<String, Error>;

    key_as_text! {
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128,
        serialize_char: char,
        serialize_str: &str,
    }

    fn serialize_f32(self, v: f32) -> Result<String, Error> {
        Ok(json_number(&v))
    }
    fn serialize_f64(self, v: f64) -> Result<String, Error> {
        Ok(json_number(&v))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Error> {
        not_a_key()
    }
    fn serialize_none(self) -> Result<String, Error> {
        not_a_key()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, Error> {
        not_a_key()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Error> {
        not_a_key()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Error> {
        not_a_key()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        not_a_key()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        not_a_key()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        not_a_key()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        not_a_key()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        not_a_key()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        not_a_key()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        not_a_key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::render_text;

    /// The tree from serializing a JSON value is the one a walk of the value gives.
    #[test]
    fn elides_labels_and_types_like_a_json_walk() {
        let v = serde_json::json!({
            "alive": true, "bag": [[1, 2], [], [3], [4], "x"], "hp": 87,
            "name": "Ann", "pet": null, "speed": 1.5
        });
        let mut t = TreeBuilder::new(3);
        add_serialize("player", "", &v, &mut t).unwrap();
        assert_eq!(
            render_text(&t.finish()),
            "  player: object (6 items)\n    alive: bool = true\n    bag: array (5 items)\n      \
             [0]: array (2 items)\n        [0]: integer = 1\n        [1]: integer = 2\n      \
             [1]: array (0 items)\n      [2]: array (1 item)\n        [0]: integer = 3\n      \
             … 2 more\n    hp: integer = 87\n    … 3 more\n"
        );
    }

    /// Items of unknown count are counted as they come, and elided past `max_items`.
    #[test]
    fn counts_containers_of_unknown_length() {
        struct Stream(usize);
        impl Serialize for Stream {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeSeq;
                let mut seq = s.serialize_seq(None)?;
                for i in 0..self.0 {
                    seq.serialize_element(&i)?;
                }
                seq.end()
            }
        }
        let mut t = TreeBuilder::new(2);
        add_serialize("n", "", &Stream(5), &mut t).unwrap();
        let nodes = t.finish();
        assert_eq!(nodes[0].count, Some(5));
        assert_eq!(nodes[0].elided, 3);
        assert_eq!(nodes[0].children.len(), 2);
    }
}
