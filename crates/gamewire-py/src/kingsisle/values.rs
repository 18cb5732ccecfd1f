//! Python values straight from a KingsIsle [`View`]: the mapping of the crate's JSON
//! (`gamewire_kingsisle::json`, as `PySer` turns it into Python) with no document or
//! serde pass in between, and class and property names made once per type list.
//!
//! Objects become `gamewire.kingsisle.Object`, non-UTF-8 strings `bytes`, leaf structs
//! dicts (`Color` as `r g b a`, `Vector3D` as `x y z`, ...), non-finite floats
//! `{"$f32": hex}` / `{"$f64": hex}`, invalid UTF-16 `{"$utf16": [units]}`, kept raw
//! bits `{"$hash", "$bits", "$raw"}`, enums their option names where the name reads
//! back as the same value.

use gamewire::kingsisle::view::{Item, ListRef, ObjectRef, OwnedView, View};
use gamewire::kingsisle::{ClassDef, KeptZlib, PropertyDef, TypeList};
use gamewire_core::hex::to_hex as hex;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyList, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};
use std::cell::{Cell, RefCell};

// A dict subclass made here so that the decode builds it with one allocation and no
// Python call; `gamewire/kingsisle.py` gives it its constructor, equality, `repr` and
// pickling. Its doc comment is the class's `__doc__`.
/// A KingsIsle object: its properties by name, with its class name (``type_name``) and
/// class hash (``type_hash``). ``Object("ClassName", {"m_x": 1})``; the hash is looked
/// up in the type list when ``encode`` meets ``type_hash=None``.
#[pyclass(name = "Object", module = "gamewire.kingsisle", extends = PyDict, subclass)]
pub struct KiObject {
    /// `(type_name, type_hash)`: one tuple shared by every object of a class that the
    /// decode made (one field: a smaller object, one reference count to take), a new
    /// one when either is set.
    head: Py<PyTuple>,
}

impl KiObject {
    /// An object of the class `head`, `(type_name, type_hash)`.
    fn with_head(head: Py<PyTuple>) -> Self {
        KiObject { head }
    }

    /// `(value, type_hash)` or `(type_name, value)`.
    fn set_head(&mut self, py: Python<'_>, at: usize, value: PyObject) -> PyResult<()> {
        let old = self.head.bind(py);
        let mut pair = [old.get_item(0)?.unbind(), old.get_item(1)?.unbind()];
        pair[at] = value;
        self.head = PyTuple::new(py, pair)?.unbind();
        Ok(())
    }
}

#[pymethods]
impl KiObject {
    /// An empty object; `__init__` (set in `kingsisle.py`) fills it from its arguments.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        py: Python<'_>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Self {
        KiObject::with_head(none_pair(py))
    }

    /// The class name (a `str`, or `None`).
    #[getter]
    fn type_name(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self.head.bind(py).get_item(0)?.unbind())
    }

    #[setter]
    fn set_type_name(&mut self, py: Python<'_>, value: PyObject) -> PyResult<()> {
        self.set_head(py, 0, value)
    }

    /// The class hash (an `int`, or `None`: `encode` looks it up by name).
    #[getter]
    fn type_hash(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self.head.bind(py).get_item(1)?.unbind())
    }

    #[setter]
    fn set_type_hash(&mut self, py: Python<'_>, value: PyObject) -> PyResult<()> {
        self.set_head(py, 1, value)
    }

    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        visit.call(&self.head)
    }

    fn __clear__(&mut self) {
        Python::with_gil(|py| self.head = none_pair(py))
    }
}

/// `(None, None)`.
fn none_pair(py: Python<'_>) -> Py<PyTuple> {
    PyTuple::new(py, [py.None(), py.None()])
        .expect("a tuple of two")
        .unbind()
}

/// A type list with the Python strings of its names, each made once on first use and
/// shared by every value that names it (dict keys, `type_name`).
pub struct Types {
    /// The type list.
    pub list: TypeList,
    names: Vec<GILOnceCell<ClassNames>>,
}

/// The Python strings of one class: its name and its properties' names (by index).
struct ClassNames {
    name: Py<PyString>,
    /// `(name, hash)`: the head of every `Object` of the class (the hash a Python
    /// `int`).
    head: Py<PyTuple>,
    props: Vec<Py<PyString>>,
}

impl Types {
    /// Wraps `list`.
    pub fn new(list: TypeList) -> Self {
        let names = (0..list.classes().len())
            .map(|_| GILOnceCell::new())
            .collect();
        Types { list, names }
    }

    fn class_names<'a>(&'a self, py: Python<'_>, class: &ClassDef) -> Option<&'a ClassNames> {
        let i = self.list.index_of_class(class)?;
        Some(self.names[i].get_or_init(py, || {
            ClassNames {
                name: PyString::intern(py, &class.name).unbind(),
                head: PyTuple::new(
                    py,
                    [
                        PyString::intern(py, &class.name).into_any().unbind(),
                        class.hash.into_py_any(py).expect("a u32 converts to int"),
                    ],
                )
                .expect("a tuple of two")
                .unbind(),
                props: class
                    .properties
                    .iter()
                    .map(|p| PyString::intern(py, &p.name).unbind())
                    .collect(),
            }
        }))
    }

    /// The class name as a shared Python string.
    pub fn class_name<'py>(&self, py: Python<'py>, class: &ClassDef) -> Bound<'py, PyString> {
        match self.class_names(py, class) {
            Some(n) => n.name.bind(py).clone(),
            None => PyString::new(py, &class.name),
        }
    }

    /// `(name, hash)` of `class`, shared by its objects.
    fn class_head(&self, py: Python<'_>, class: &ClassDef) -> PyResult<Py<PyTuple>> {
        match self.class_names(py, class) {
            Some(n) => Ok(n.head.clone_ref(py)),
            None => Ok(PyTuple::new(
                py,
                [
                    PyString::new(py, &class.name).into_any().unbind(),
                    class.hash.into_py_any(py)?,
                ],
            )?
            .unbind()),
        }
    }

    /// The property names of `class`, found once for all its properties.
    pub fn prop_names<'a, 'c>(&'a self, py: Python<'_>, class: &'c ClassDef) -> PropNames<'a, 'c> {
        PropNames {
            class,
            names: self.class_names(py, class),
        }
    }
}

/// The shared property name strings of one class.
pub struct PropNames<'a, 'c> {
    class: &'c ClassDef,
    names: Option<&'a ClassNames>,
}

impl PropNames<'_, '_> {
    /// The name of `def` (a property of the class) as a shared Python string.
    #[inline]
    pub fn get<'py>(&self, py: Python<'py>, def: &PropertyDef) -> Bound<'py, PyString> {
        match (self.names, self.class.index_of_property(def)) {
            (Some(n), Some(i)) => n.props[i].bind(py).clone(),
            _ => PyString::new(py, &def.name),
        }
    }

    /// The shared name of the class's property at `index`, borrowed (no reference
    /// count taken); `None` when the class has no shared names.
    #[inline(always)]
    pub fn at<'py>(&self, py: Python<'py>, index: usize) -> Option<&Bound<'py, PyString>> {
        Some(self.names?.props.get(index)?.bind(py))
    }
}

impl AsRef<TypeList> for Types {
    fn as_ref(&self) -> &TypeList {
        &self.list
    }
}

/// The key under which a property without a definition (kept raw) is listed.
pub fn raw_prop_key(tag: u32) -> String {
    format!("$prop:{tag}")
}

/// Strings up to this many bytes go through [`Strings`].
const SHORT: usize = 16;
/// The most slots [`Strings`] has (a power of two).
const MAX_SLOTS: usize = 4096;

/// The Python strings of short UTF-8 `std::string` values made during one conversion,
/// so that a text met again (a name, a template, a tag) is shared, not made anew: a
/// two-way table by a hash of the bytes, each set of two slots holding the last two
/// strings that fell there. The bytes are checked as UTF-8 only when they are not found (bytes
/// found are those of a string made before).
struct Strings<'py> {
    /// Made on the first short string.
    slots: Vec<Option<Slot<'py>>>,
    /// The number of slots to make.
    size: usize,
}

/// A string of [`Strings`]: its key ([`key`]) and its Python string.
type Slot<'py> = ([u64; 3], Bound<'py, PyString>);

/// Up to 16 bytes as two words and their length, with no copy: for 8 bytes or more the
/// first 8 and the last 8 (overlapping), for 4 to 7 the first 4 and the last 4, below
/// that the bytes one by one. Given the length, the words give the bytes back, so equal
/// keys are equal bytes.
#[inline(always)]
fn key(b: &[u8]) -> [u64; 3] {
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(b[at..at + 4].try_into().expect("4")));
    if n >= 8 {
        [word(0), word(n - 8), n as u64]
    } else if n >= 4 {
        [half(0) | (half(n - 4) << 32), 0, n as u64]
    } else {
        let mut x = 0u64;
        for (i, c) in b.iter().enumerate() {
            x |= u64::from(*c) << (8 * i);
        }
        [x, 0, n as u64]
    }
}

impl<'py> Strings<'py> {
    /// A table for a build of about `values` values (more slots for more values, up to
    /// [`MAX_SLOTS`]).
    fn new(values: usize) -> Self {
        Strings {
            slots: Vec::new(),
            size: (values / 2).next_power_of_two().clamp(64, MAX_SLOTS),
        }
    }

    /// The Python value of the `std::string` bytes `b` (at most [`SHORT`]): a string,
    /// shared when it was made before and is still in its slot, or `bytes` when they
    /// are not UTF-8.
    fn get(&mut self, py: Python<'py>, b: &[u8]) -> Bound<'py, PyAny> {
        let k = key(b);
        let h = (k[0] ^ k[1].rotate_left(29) ^ k[2]).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if self.slots.is_empty() {
            self.slots.resize_with(self.size, || None);
        }
        // The top bits of the product, the best mixed (the table has 64 or more slots):
        // a set of two slots, the newer string first.
        let at = (h >> (64 - self.slots.len().trailing_zeros())) as usize & !1;
        for way in [at, at + 1] {
            if let Some((sk, v)) = &self.slots[way] {
                if *sk == k {
                    return v.clone().into_any();
                }
            }
        }
        match std::str::from_utf8(b) {
            Ok(s) => {
                let v = PyString::new(py, s);
                self.slots[at + 1] = self.slots[at].take();
                self.slots[at] = Some((k, v.clone()));
                v.into_any()
            }
            Err(_) => PyBytes::new(py, b).into_any(),
        }
    }
}

/// Builds Python values from a view's items.
pub struct Conv<'py, 'x> {
    py: Python<'py>,
    types: &'x Types,
    /// Short strings made so far (for the eager decode; see [`Conv::share_strings`]).
    strings: Option<RefCell<Strings<'py>>>,
    /// The deepest nesting of objects and lists built (see [`Conv::limit`]).
    limit: usize,
    /// Objects and lists open now.
    depth: Cell<usize>,
    /// An object or list was refused past `limit`.
    over: Cell<bool>,
}

type R<'py> = PyResult<Bound<'py, PyAny>>;

impl<'py, 'x> Conv<'py, 'x> {
    /// A converter naming things through `types`.
    pub fn new(py: Python<'py>, types: &'x Types) -> PyResult<Self> {
        Ok(Conv {
            py,
            types,
            strings: None,
            limit: usize::MAX,
            depth: Cell::new(0),
            over: Cell::new(false),
        })
    }

    /// Shares the Python strings of short texts met more than once (worth it when many
    /// values are built in one go, as the eager decode does), for a build of about
    /// `values` values.
    pub fn share_strings(self, values: usize) -> Self {
        Conv {
            strings: Some(RefCell::new(Strings::new(values))),
            ..self
        }
    }

    /// Refuses (with an error, and [`Conv::went_over`] true) to build objects and lists
    /// nested deeper than `limit` levels (for [`crate::build_deep`]).
    pub fn limit(self, limit: usize) -> Self {
        Conv { limit, ..self }
    }

    /// The interpreter the values are made in.
    pub fn py(&self) -> Python<'py> {
        self.py
    }

    /// The type list's names.
    pub fn types(&self) -> &'x Types {
        self.types
    }

    /// True when a conversion stopped at the depth limit.
    pub fn went_over(&self) -> bool {
        self.over.get()
    }

    /// Runs `f` one level deeper, refused past the limit.
    fn nested(&self, f: impl FnOnce() -> R<'py>) -> R<'py> {
        let d = self.depth.get();
        if d >= self.limit {
            self.over.set(true);
            return Err(pyo3::exceptions::PyValueError::new_err(
                "nested past the depth limit",
            ));
        }
        self.depth.set(d + 1);
        let r = f();
        self.depth.set(d);
        r
    }

    fn f32(&self, x: f32) -> R<'py> {
        if x.is_finite() {
            Ok(PyFloat::new(self.py, f64::from(x)).into_any())
        } else {
            let d = PyDict::new(self.py);
            d.set_item(intern!(self.py, "$f32"), format!("{:08x}", x.to_bits()))?;
            Ok(d.into_any())
        }
    }

    fn f32s(&self, names: &[&Bound<'py, PyString>], v: &[f32]) -> R<'py> {
        let d = PyDict::new(self.py);
        for (n, x) in names.iter().zip(v) {
            d.set_item(n, self.f32(*x)?)?;
        }
        Ok(d.into_any())
    }

    fn ints<T: Copy + IntoPyObject<'py>>(
        &self,
        names: &[&Bound<'py, PyString>],
        v: &[T],
    ) -> R<'py> {
        let d = PyDict::new(self.py);
        for (n, x) in names.iter().zip(v) {
            d.set_item(n, *x)?;
        }
        Ok(d.into_any())
    }

    fn enum_value(&self, x: i64, def: Option<&PropertyDef>) -> R<'py> {
        if let Some(p) = def.filter(|p| !p.enum_options.is_empty()) {
            if let Some(name) = p.enum_to_names(x) {
                if !name.is_empty() && p.enum_from_names(&name) == Ok(x) {
                    return Ok(PyString::new(self.py, &name).into_any());
                }
            }
        }
        x.into_bound_py_any(self.py)
    }

    /// A value, objects and lists built whole. `def` is the property it belongs to
    /// (enums are named by it).
    pub fn value(&self, item: Item<'_, '_, '_>, def: Option<&PropertyDef>) -> R<'py> {
        let py = self.py;
        macro_rules! k {
            ($s:literal) => {
                intern!(py, $s)
            };
        }
        match item {
            Item::Null => Ok(py.None().into_bound(py)),
            Item::Bool(b) => b.into_bound_py_any(py),
            Item::Int(x) => x.into_bound_py_any(py),
            Item::UInt(x) => x.into_bound_py_any(py),
            Item::Float(x) => self.f32(x),
            Item::Double(x) => {
                if x.is_finite() {
                    Ok(PyFloat::new(py, x).into_any())
                } else {
                    let d = PyDict::new(py);
                    d.set_item(k!("$f64"), format!("{:016x}", x.to_bits()))?;
                    Ok(d.into_any())
                }
            }
            Item::Enum(x) => self.enum_value(x, def),
            Item::String(b) => match &self.strings {
                Some(cache) if b.len() <= SHORT => Ok(cache.borrow_mut().get(py, b)),
                _ => match std::str::from_utf8(b) {
                    Ok(s) => Ok(PyString::new(py, s).into_any()),
                    Err(_) => Ok(PyBytes::new(py, b).into_any()),
                },
            },
            Item::WString(w) => {
                let units: Vec<u16> = w.units().collect();
                match String::from_utf16(&units) {
                    Ok(s) => Ok(PyString::new(py, &s).into_any()),
                    Err(_) => {
                        let d = PyDict::new(py);
                        d.set_item(k!("$utf16"), units)?;
                        Ok(d.into_any())
                    }
                }
            }
            Item::EnumName(s) => Ok(PyString::new(py, s).into_any()),
            Item::Color([b, g, r, a]) => {
                self.ints(&[k!("r"), k!("g"), k!("b"), k!("a")], &[r, g, b, a])
            }
            Item::Vec3(v) => self.f32s(&[k!("x"), k!("y"), k!("z")], &v),
            Item::Euler(v) => self.f32s(&[k!("pitch"), k!("yaw"), k!("roll")], &v),
            Item::Quat([w, x, y, z]) => {
                self.f32s(&[k!("x"), k!("y"), k!("z"), k!("w")], &[x, y, z, w])
            }
            Item::Matrix(m) => {
                let d = PyDict::new(py);
                for (n, row) in [k!("i"), k!("j"), k!("k")].into_iter().zip(m.chunks(3)) {
                    let row = row
                        .iter()
                        .map(|x| self.f32(*x))
                        .collect::<PyResult<Vec<_>>>()?;
                    d.set_item(n, PyList::new(py, row)?)?;
                }
                Ok(d.into_any())
            }
            Item::PointInt(v) => self.ints(&[k!("x"), k!("y")], &v),
            Item::PointUChar(v) => self.ints(&[k!("x"), k!("y")], &v),
            Item::PointUInt(v) => self.ints(&[k!("x"), k!("y")], &v),
            Item::PointFloat(v) => self.f32s(&[k!("x"), k!("y")], &v),
            Item::SizeInt(v) => self.ints(&[k!("width"), k!("height")], &v),
            Item::RectInt(v) => self.ints(&[k!("left"), k!("top"), k!("right"), k!("bottom")], &v),
            Item::RectFloat(v) => {
                self.f32s(&[k!("left"), k!("top"), k!("right"), k!("bottom")], &v)
            }
            Item::Raw(r) => {
                let d = PyDict::new(py);
                if r.type_hash != 0 {
                    d.set_item(k!("$hash"), r.type_hash)?;
                }
                d.set_item(k!("$bits"), r.bits)?;
                d.set_item(k!("$raw"), hex(&r.data))?;
                Ok(d.into_any())
            }
            Item::List(l) => self.list(l, def),
            Item::Object(o) => self.object(o),
        }
    }

    /// A list, built whole.
    pub fn list(&self, l: ListRef<'_, '_, '_>, def: Option<&PropertyDef>) -> R<'py> {
        self.nested(|| {
            let items = l
                .iter()
                .map(|e| self.value(e, def))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyList::new(self.py, items)?.into_any())
        })
    }

    /// An object, built whole, as a `gamewire.kingsisle.Object`.
    pub fn object(&self, o: ObjectRef<'_, '_, '_>) -> R<'py> {
        self.nested(|| {
            let (obj, dict) = self.empty_object(o)?;
            self.fill(o, &dict)?;
            Ok(obj)
        })
    }

    /// An empty `Object` with the class of `o` set.
    fn empty_object(
        &self,
        o: ObjectRef<'_, '_, '_>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        self.new_object(o.class())
    }

    /// An empty `Object` of `class`, and the dict it is.
    pub fn new_object(
        &self,
        class: &ClassDef,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let head = self.types.class_head(self.py, class)?;
        let obj = Bound::new(self.py, KiObject::with_head(head))?;
        let dict = obj.as_super().clone();
        Ok((obj.into_any(), dict))
    }

    /// Puts the properties of `o` into `dict`.
    fn fill(&self, o: ObjectRef<'_, '_, '_>, dict: &Bound<'py, PyDict>) -> PyResult<()> {
        let names = self.types.prop_names(self.py, o.class());
        for p in o.properties() {
            let v = self.value(p.value, p.def)?;
            match p.def {
                Some(def) => dict.set_item(names.get(self.py, def), v)?,
                None => dict.set_item(raw_prop_key(p.tag), v)?,
            }
        }
        Ok(())
    }

    /// The root object of `owned`, built whole, with its `$` entries.
    pub fn root<B: AsRef<[u8]>, T: AsRef<TypeList>>(&self, owned: &OwnedView<B, T>) -> R<'py> {
        let view = owned.view();
        let (obj, dict) = self.empty_object(view.root())?;
        self.fill(view.root(), &dict)?;
        for (k, v) in self.root_extras(&view, owned.manual_zlib(), owned.flag_zlib())? {
            dict.set_item(k, v)?;
        }
        Ok(obj)
    }

    /// The root object's `$` entries (`$bind`, `$flags`, `$zlib_marker`, `$padding`,
    /// `$trailing`, `$manual_zlib`, `$flag_zlib`), only those present.
    pub fn root_extras(
        &self,
        view: &View<'_, '_>,
        manual: Option<&KeptZlib>,
        flag: Option<&KeptZlib>,
    ) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
        self.extras(&Extras {
            bind: view.is_bind(),
            flags: view.flags(),
            zlib_marker: view.zlib_marker(),
            padding: view.padding(),
            trailing: view.trailing(),
            manual,
            flag,
        })
    }

    /// The root object's `$` entries of `e`, only those present.
    pub fn extras(&self, e: &Extras<'_>) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
        let py = self.py;
        let mut out = Vec::new();
        if e.bind {
            out.push(("$bind", true.into_bound_py_any(py)?));
        }
        if let Some(f) = e.flags {
            out.push(("$flags", f.into_bound_py_any(py)?));
        }
        if let Some(z) = e.zlib_marker {
            out.push(("$zlib_marker", z.into_bound_py_any(py)?));
        }
        if !e.padding.is_empty() {
            let pairs = e
                .padding
                .iter()
                .map(|&(bit, v)| PyList::new(py, [bit, u64::from(v)]))
                .collect::<PyResult<Vec<_>>>()?;
            out.push(("$padding", PyList::new(py, pairs)?.into_any()));
        }
        if !e.trailing.is_empty() {
            out.push(("$trailing", hex(e.trailing).into_bound_py_any(py)?));
        }
        for (key, k) in [("$manual_zlib", e.manual), ("$flag_zlib", e.flag)] {
            if let Some(k) = k {
                let pair = PyList::new(
                    py,
                    [
                        k.size.into_bound_py_any(py)?,
                        hex(&k.stream).into_bound_py_any(py)?,
                    ],
                )?;
                out.push((key, pair.into_any()));
            }
        }
        Ok(out)
    }
}

/// What lies around a root object, for its `$` entries ([`Conv::extras`]).
pub struct Extras<'e> {
    /// Read from a `BINd` file.
    pub bind: bool,
    /// The flags word.
    pub flags: Option<u32>,
    /// The zlib marker byte.
    pub zlib_marker: Option<u8>,
    /// Non-zero padding bits: (bit position, value).
    pub padding: &'e [(u64, u8)],
    /// The bytes after the root object.
    pub trailing: &'e [u8],
    /// The manual zlib framing's stream.
    pub manual: Option<&'e KeptZlib>,
    /// The stream behind serializer flag 8's marker.
    pub flag: Option<&'e KeptZlib>,
}
