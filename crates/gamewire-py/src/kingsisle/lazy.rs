//! Lazy decode (`decode(..., lazy=True)`): `LazyObject` and `LazyList` keep the input,
//! the decoded node index ([`OwnedView`]) and the type list alive, and make Python
//! values only when they are read.
//!
//! The whole input is read and checked up front (the view is built), so bad input fails
//! in `decode` with its offset, as the eager decode does; after that, reading a value
//! cannot fail. Objects and lists read from a lazy value are lazy too; other values are
//! the eager decode's (`Conv::value`). `to_python()` builds the eager classes.

use super::values::{raw_prop_key, Conv, Types};
use gamewire::kingsisle::view::{Item, ListRef, NodeId, ObjectRef, OwnedView};
use gamewire::kingsisle::{PropertyDef, TypeList};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyList, PySlice, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use std::sync::{Arc, OnceLock};

/// A type list shared between calls and lazy values.
#[derive(Clone)]
pub struct SharedTypes(pub Arc<Types>);

impl AsRef<TypeList> for SharedTypes {
    fn as_ref(&self) -> &TypeList {
        &self.0.list
    }
}

/// One lazily decoded input: its bytes, node index and type list.
pub struct Doc {
    owned: OwnedView<PyBackedBytes, SharedTypes>,
}

impl Doc {
    /// Decodes `data` (all of it is read and checked) and keeps it.
    pub fn new(owned: OwnedView<PyBackedBytes, SharedTypes>) -> Arc<Self> {
        Arc::new(Doc { owned })
    }

    fn types(&self) -> &Types {
        &self.owned.types().0
    }

    fn conv<'py>(&self, py: Python<'py>) -> PyResult<Conv<'py, '_>> {
        Conv::new(py, self.types())
    }

    /// The root object, lazy.
    pub fn root(self: &Arc<Self>) -> LazyObject {
        let id = self.owned.view().root().id();
        LazyObject {
            doc: self.clone(),
            id,
            root: true,
        }
    }
}

/// A key and (when asked for) its value.
type Entry<'py> = (Bound<'py, PyAny>, Option<Bound<'py, PyAny>>);

/// The (class, property) indices of a property definition, to find it again.
type DefAt = Option<(usize, usize)>;

fn def_at(types: &TypeList, o: &ObjectRef<'_, '_, '_>, def: Option<&PropertyDef>) -> DefAt {
    let class = o.class();
    Some((types.index_of_class(class)?, class.index_of_property(def?)?))
}

fn def_of(types: &TypeList, at: DefAt) -> Option<&PropertyDef> {
    let (c, p) = at?;
    types.classes().get(c)?.properties.get(p)
}

/// A value read from a lazy value: objects and lists lazy, the rest built.
fn lazy_value<'py>(
    py: Python<'py>,
    doc: &Arc<Doc>,
    conv: &Conv<'py, '_>,
    item: Item<'_, '_, '_>,
    def: Option<&PropertyDef>,
    def_at: DefAt,
) -> PyResult<Bound<'py, PyAny>> {
    match item {
        Item::Object(o) => Bound::new(
            py,
            LazyObject {
                doc: doc.clone(),
                id: o.id(),
                root: false,
            },
        )
        .map(Bound::into_any),
        Item::List(l) => Bound::new(
            py,
            LazyList {
                doc: doc.clone(),
                id: l.id(),
                def: def_at,
                ids: OnceLock::new(),
            },
        )
        .map(Bound::into_any),
        other => conv.value(other, def),
    }
}

/// A KingsIsle object decoded lazily: a read-only mapping of its properties by name
/// (wire order) whose values are made when read; nested objects and lists are lazy too.
#[pyclass(name = "LazyObject", module = "gamewire.kingsisle", frozen, mapping)]
pub struct LazyObject {
    doc: Arc<Doc>,
    id: NodeId,
    /// The root object also lists the `$` entries of the eager decode.
    root: bool,
}

impl LazyObject {
    fn with<T>(&self, f: impl FnOnce(ObjectRef<'_, '_, '_>) -> T) -> T {
        let view = self.doc.owned.view();
        match view.get(self.id) {
            Some(Item::Object(o)) => f(o),
            // Ids come from this document's own objects.
            _ => unreachable!("a LazyObject names an object of its document"),
        }
    }

    /// The `$` entries of the root (none for other objects).
    fn extras<'py>(
        &self,
        conv: &Conv<'py, '_>,
    ) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
        if !self.root {
            return Ok(Vec::new());
        }
        let o = &self.doc.owned;
        conv.root_extras(&o.view(), o.manual_zlib(), o.flag_zlib())
    }

    /// (key, value) of every entry, values lazy.
    fn entries<'py>(&self, py: Python<'py>, values: bool) -> PyResult<Vec<Entry<'py>>> {
        let conv = self.doc.conv(py)?;
        let types = self.doc.types();
        let mut out = self.with(|o| -> PyResult<Vec<_>> {
            let names = types.prop_names(py, o.class());
            let class_at = types.list.index_of_class(o.class());
            // The class's property count: every property of most objects, no count pass.
            let mut out = Vec::with_capacity(o.class().properties.len());
            for p in o.properties() {
                let key = match p.def {
                    Some(def) => names.get(py, def).into_any(),
                    None => PyString::new(py, &raw_prop_key(p.tag)).into_any(),
                };
                let value = if values {
                    let at = match (class_at, p.def) {
                        (Some(c), Some(def)) => o.class().index_of_property(def).map(|i| (c, i)),
                        _ => None,
                    };
                    Some(lazy_value(py, &self.doc, &conv, p.value, p.def, at)?)
                } else {
                    None
                };
                out.push((key, value));
            }
            Ok(out)
        })?;
        for (k, v) in self.extras(&conv)? {
            out.push((PyString::new(py, k).into_any(), values.then_some(v)));
        }
        Ok(out)
    }

    fn lookup<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let conv = self.doc.conv(py)?;
        let types = self.doc.types();
        let found = self.with(|o| -> PyResult<Option<Bound<'py, PyAny>>> {
            if let Some((_, def)) = o.class().property_by_name(key) {
                return match o.get(def.hash) {
                    Some(item) => {
                        let at = def_at(&types.list, &o, Some(def));
                        lazy_value(py, &self.doc, &conv, item, Some(def), at).map(Some)
                    }
                    None => Ok(None),
                };
            }
            if let Some(tag) = key
                .strip_prefix("$prop:")
                .and_then(|t| t.parse::<u32>().ok())
            {
                if let Some(p) = o.properties().find(|p| p.def.is_none() && p.tag == tag) {
                    return conv.value(p.value, None).map(Some);
                }
            }
            Ok(None)
        })?;
        if found.is_some() || !key.starts_with('$') {
            return Ok(found);
        }
        Ok(self
            .extras(&conv)?
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v))
    }
}

#[pymethods]
impl LazyObject {
    /// The class name.
    #[getter]
    fn type_name<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.with(|o| self.doc.types().class_name(py, o.class()))
    }

    /// The class hash.
    #[getter]
    fn type_hash(&self) -> u32 {
        self.with(|o| o.hash())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let conv = self.doc.conv(py)?;
        Ok(self.with(|o| o.len()) + self.extras(&conv)?.len())
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let k: &str = key
            .extract()
            .map_err(|_| PyKeyError::new_err(key.clone().unbind()))?;
        self.lookup(py, k)?
            .ok_or_else(|| PyKeyError::new_err(key.clone().unbind()))
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        match key.extract::<&str>() {
            Ok(k) => Ok(self.lookup(py, k)?.is_some()),
            Err(_) => Ok(false),
        }
    }

    /// The value of `key`, or `default`.
    #[pyo3(signature = (key, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let found = match key.extract::<&str>() {
            Ok(k) => self.lookup(py, k)?,
            Err(_) => None,
        };
        Ok(found.unwrap_or_else(|| default.unwrap_or_else(|| py.None().into_bound(py))))
    }

    /// The property names (wire order), then the root's `$` entries.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let keys: Vec<_> = self
            .entries(py, false)?
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        PyList::new(py, keys)
    }

    /// The values, in the order of `keys()`.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let values: Vec<_> = self
            .entries(py, true)?
            .into_iter()
            .filter_map(|(_, v)| v)
            .collect();
        PyList::new(py, values)
    }

    /// (name, value) pairs, in the order of `keys()`.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pairs = self
            .entries(py, true)?
            .into_iter()
            .map(|(k, v)| PyTuple::new(py, [k, v.unwrap_or_else(|| py.None().into_bound(py))]));
        PyList::new(py, pairs.collect::<PyResult<Vec<_>>>()?)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.keys(py)?.try_iter().map(Bound::into_any)
    }

    /// The eager `Object` (nested values built too), equal to `decode(..., lazy=False)`.
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = crate::build_deep(py, |py, limit| {
            // A table for the whole document at the root, a small one below.
            let values = if self.root {
                self.doc.owned.view().node_count()
            } else {
                0
            };
            let conv = self.doc.conv(py)?.share_strings(values).limit(limit);
            let r = if self.root {
                conv.root(&self.doc.owned)
            } else {
                self.with(|o| conv.object(o))
            };
            super::limited(&conv, r)
        })?;
        Ok(value.into_bound(py))
    }

    /// For `encode` nested in other values: the eager object.
    fn _gamewire_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_python(py)
    }

    /// Pickles as the eager `Object`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_python(py)?.call_method0("__reduce__")
    }

    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<bool> {
        let other = match other.downcast::<LazyObject>() {
            Ok(l) => l.get().to_python(py)?,
            Err(_) => other.clone(),
        };
        self.to_python(py)?.eq(other)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "LazyObject({}, <{} properties>)",
            self.type_name(py).repr()?,
            self.with(|o| o.len())
        ))
    }
}

impl LazyObject {
    /// The owned document of this object (the root: the whole input's), for `encode`.
    pub fn document(&self) -> gamewire::kingsisle::Document {
        if self.root {
            return self.doc.owned.to_document();
        }
        gamewire::kingsisle::Document {
            root: self.with(|o| o.to_object()),
            ..Default::default()
        }
    }
}

/// A list decoded lazily: its elements are made when read (objects and lists lazy).
#[pyclass(name = "LazyList", module = "gamewire.kingsisle", frozen, sequence)]
pub struct LazyList {
    doc: Arc<Doc>,
    id: NodeId,
    /// The property the list belongs to (its enums are named through it).
    def: DefAt,
    /// The element ids, found on first indexed access (`None`: a list of 1..7-bit
    /// elements, read directly).
    ids: OnceLock<Option<Arc<[NodeId]>>>,
}

impl LazyList {
    fn with<T>(&self, f: impl FnOnce(ListRef<'_, '_, '_>) -> T) -> T {
        let view = self.doc.owned.view();
        match view.get(self.id) {
            Some(Item::List(l)) => f(l),
            _ => unreachable!("a LazyList names a list of its document"),
        }
    }

    fn len(&self) -> usize {
        self.with(|l| l.len())
    }

    fn ids(&self) -> Option<Arc<[NodeId]>> {
        self.ids
            .get_or_init(|| self.with(|l| l.element_ids().map(Arc::from)))
            .clone()
    }

    fn element<'py>(
        &self,
        py: Python<'py>,
        conv: &Conv<'py, '_>,
        i: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.element_in(py, conv, self.ids().as_deref(), i)
    }

    /// Element `i`, found through `ids` (this list's [`LazyList::ids`]).
    fn element_in<'py>(
        &self,
        py: Python<'py>,
        conv: &Conv<'py, '_>,
        ids: Option<&[NodeId]>,
        i: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let types = &self.doc.types().list;
        let def = def_of(types, self.def);
        let view = self.doc.owned.view();
        let item = match ids {
            Some(ids) => view.get(ids[i]),
            None => match view.get(self.id) {
                Some(Item::List(l)) => l.get(i),
                _ => None,
            },
        };
        let item = item.ok_or_else(|| PyIndexError::new_err("list index out of range"))?;
        lazy_value(py, &self.doc, conv, item, def, self.def)
    }
}

#[pymethods]
impl LazyList {
    fn __len__(&self) -> usize {
        self.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.len();
        let conv = self.doc.conv(py)?;
        if let Ok(s) = index.downcast::<PySlice>() {
            let ix = s.indices(n as isize)?;
            let mut out = Vec::with_capacity(ix.slicelength);
            let mut at = ix.start;
            for _ in 0..ix.slicelength {
                out.push(self.element(py, &conv, at as usize)?);
                at += ix.step;
            }
            return PyList::new(py, out).map(Bound::into_any);
        }
        let i: isize = index
            .extract()
            .map_err(|_| PyTypeError::new_err("list indices must be integers or slices"))?;
        let i = if i < 0 { i + n as isize } else { i };
        if i < 0 || i as usize >= n {
            return Err(PyIndexError::new_err("list index out of range"));
        }
        self.element(py, &conv, i as usize)
    }

    fn __iter__(slf: Bound<'_, Self>) -> LazyListIter {
        let ids = slf.get().ids();
        LazyListIter {
            ids,
            list: slf.unbind(),
            at: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn __contains__(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<bool> {
        let conv = self.doc.conv(py)?;
        for i in 0..self.len() {
            if self.element(py, &conv, i)?.eq(value)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The eager list (nested values built too).
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = crate::build_deep(py, |py, limit| {
            let conv = self.doc.conv(py)?.share_strings(self.len()).limit(limit);
            let def = def_of(&self.doc.types().list, self.def);
            let r = self.with(|l| conv.list(l, def));
            super::limited(&conv, r)
        })?;
        Ok(value.into_bound(py))
    }

    /// For `encode`: the eager list.
    fn _gamewire_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_python(py)
    }

    /// Pickles as the eager list.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = self.to_python(py)?;
        (py.get_type::<PyList>(), (list,)).into_bound_py_any(py)
    }

    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<bool> {
        let other = match other.downcast::<LazyList>() {
            Ok(l) => l.get().to_python(py)?,
            Err(_) => other.clone(),
        };
        self.to_python(py)?.eq(other)
    }

    fn __repr__(&self) -> String {
        format!("LazyList(<{} elements>)", self.len())
    }
}

/// Iterates a `LazyList`.
#[pyclass(module = "gamewire.kingsisle", frozen)]
pub struct LazyListIter {
    list: Py<LazyList>,
    /// The list's element ids, fetched once for the whole iteration.
    ids: Option<Arc<[NodeId]>>,
    at: std::sync::atomic::AtomicUsize,
}

#[pymethods]
impl LazyListIter {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let list = self.list.get();
        let i = self.at.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if i >= list.len() {
            self.at.store(i, std::sync::atomic::Ordering::Relaxed);
            return Ok(None);
        }
        let conv = list.doc.conv(py)?;
        list.element_in(py, &conv, self.ids.as_deref(), i).map(Some)
    }
}
