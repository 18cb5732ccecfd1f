//! The eager decode's Python values built straight from the one walk of the grammar
//! (`gamewire::kingsisle::visit`), with no view tape in between: each object is made when
//! the walk meets it and each value is put into its object or list as it is read. The
//! values are the same as [`Conv`] builds from a view (the same [`Conv::value`] for
//! every leaf).

use super::values::{raw_prop_key, Conv, Extras, PropNames};
use gamewire::kingsisle::types::{ClassDef, PropertyDef};
use gamewire::kingsisle::view::Item;
use gamewire::kingsisle::visit::{self, At, Visitor};
use gamewire::kingsisle::{Options, TypeList};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// An object or list being filled.
enum Frame<'py, 'x, 't> {
    Object {
        dict: Bound<'py, PyDict>,
        names: PropNames<'x, 't>,
    },
    List {
        /// Where the list goes when it is closed.
        at: At<'t>,
        /// The container's property (its elements' enums are named by it).
        def: Option<&'t PropertyDef>,
        items: Vec<Bound<'py, PyAny>>,
    },
}

/// The [`Visitor`] that builds Python values.
struct Build<'c, 'py, 'x, 't> {
    conv: &'c Conv<'py, 'x>,
    stack: Vec<Frame<'py, 'x, 't>>,
    root: Option<(Bound<'py, PyAny>, Bound<'py, PyDict>)>,
    /// The first Python error met (the walk stops at the next close).
    err: Option<PyErr>,
}

impl<'py, 't> Build<'_, 'py, '_, 't> {
    /// Puts `v` where `at` says, in the innermost open object or list.
    #[inline(always)]
    fn put(&mut self, at: At<'t>, v: Bound<'py, PyAny>) {
        let py = self.conv.py();
        let r = match self.stack.last_mut() {
            Some(Frame::Object { dict, names }) => match at {
                At::Property(p, i) => match names.at(py, i) {
                    Some(name) => dict.set_item(name, v),
                    None => dict.set_item(names.get(py, p), v),
                },
                At::Unknown(tag) => dict.set_item(raw_prop_key(tag), v),
                // Only lists hold elements, only the root has no parent.
                At::Element | At::Root => Ok(()),
            },
            Some(Frame::List { items, .. }) => {
                items.push(v);
                Ok(())
            }
            None => Ok(()),
        };
        self.fail(r);
    }

    #[inline(always)]
    fn fail(&mut self, r: PyResult<()>) {
        if let Err(e) = r {
            self.err.get_or_insert(e);
        }
    }
}

impl<'t> Visitor<'t> for Build<'_, '_, '_, 't> {
    #[inline]
    fn begin_object(&mut self, at: At<'t>, class: &'t ClassDef) {
        if self.err.is_some() {
            return;
        }
        match self.conv.new_object(class) {
            Ok((obj, dict)) => {
                if self.stack.is_empty() && matches!(at, At::Root) {
                    self.root = Some((obj, dict.clone()));
                } else {
                    self.put(at, obj);
                }
                let names = self.conv.types().prop_names(self.conv.py(), class);
                self.stack.push(Frame::Object { dict, names });
            }
            Err(e) => {
                self.err.get_or_insert(e);
            }
        }
    }

    #[inline]
    fn end_object(&mut self) {
        if self.err.is_none() {
            self.stack.pop();
        }
    }

    #[inline]
    fn begin_list(&mut self, at: At<'t>, room: usize) {
        if self.err.is_some() {
            return;
        }
        let def = match at {
            At::Property(p, _) => Some(p),
            _ => None,
        };
        self.stack.push(Frame::List {
            at,
            def,
            items: Vec::with_capacity(room),
        });
    }

    #[inline]
    fn end_list(&mut self) {
        if self.err.is_some() {
            return;
        }
        if let Some(Frame::List { at, items, .. }) = self.stack.pop() {
            match PyList::new(self.conv.py(), items) {
                Ok(l) => self.put(at, l.into_any()),
                Err(e) => {
                    self.err.get_or_insert(e);
                }
            }
        }
    }

    #[inline]
    fn value(&mut self, at: At<'t>, item: Item<'_, '_, 't>) {
        if self.err.is_some() {
            return;
        }
        let def = match at {
            At::Property(p, _) => Some(p),
            At::Element => match self.stack.last() {
                Some(Frame::List { def, .. }) => *def,
                _ => None,
            },
            _ => None,
        };
        match self.conv.value(item, def) {
            Ok(v) => self.put(at, v),
            Err(e) => {
                self.err.get_or_insert(e);
            }
        }
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.err.is_some()
    }
}

/// What [`eager`] gives: the root object, or the walk's own error (the bytes are bad,
/// or the walk ran out of its stack budget).
pub enum Built {
    /// The root `Object`.
    Value(PyObject),
    /// The walk failed (its error is the view's, which the caller's fallback gives).
    Walk,
}

/// The root object of `data` (a `BINd` file or a bare blob read with `opts`) built
/// whole, with its `$` entries; a Python error when making a value failed.
pub fn eager(
    conv: &Conv<'_, '_>,
    data: &[u8],
    types: &TypeList,
    opts: &Options,
) -> PyResult<Built> {
    let mut b = Build {
        conv,
        stack: Vec::new(),
        root: None,
        err: None,
    };
    let walked = visit::visit_any(data, types, opts, &mut b);
    if let Some(e) = b.err {
        return Err(e);
    }
    let walked = match walked {
        Ok(w) => w,
        Err(_) => return Ok(Built::Walk),
    };
    let Some((obj, dict)) = b.root else {
        return Ok(Built::Walk);
    };
    for (k, v) in conv.extras(&Extras {
        bind: walked.bind,
        flags: walked.flags,
        zlib_marker: walked.zlib_marker,
        padding: &walked.padding,
        trailing: &walked.trailing,
        manual: walked.manual_zlib.as_ref(),
        flag: walked.flag_zlib.as_ref(),
    })? {
        dict.set_item(k, v)?;
    }
    Ok(Built::Value(obj.unbind()))
}
