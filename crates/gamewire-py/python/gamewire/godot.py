"""Godot Variant binary (3.x and 4.x).

Plain data is native Python: ``None``, ``bool``, ``int``, ``float`` (NaN and infinities
included), ``str``, untyped ``list`` and ``dict`` (String keys), ``bytes``
(PackedByteArray). Every other Variant type is an instance of a small class here:
``Vector2``, ``Vector3``, ``Color``, ``Transform3D``, ``NodePath``, ``StringName``, ``RID``,
``Object``, ... (``Variant`` subclasses holding the fields of gamewire's Godot JSON mapping,
docs/FORMATS.md: ``.value`` and, where the type has them, ``.precision``, ``.names`` ...),
typed arrays (``TypedArray``, a ``list`` with ``.element_type``) and packed arrays
(``PackedInt32Array`` ... ``PackedColorArray``, ``list`` subclasses). Godot 3 names
(``Quat``, ``Transform``, ``PoolIntArray``) read as their Godot 4 classes; ``encode``
writes the names of the chosen ``version``. ``decode(..., json=True)`` gives the
``"$type"``-tagged JSON mapping instead; ``encode`` takes either.
"""
import base64 as _base64
import math as _math
from collections.abc import Mapping as _Mapping

from ._gamewire import godot as _g

encode = _g.encode


def decode(data, *, version=4, allow_objects=False, json=False, framed=False):
    """Decodes one Variant (``version`` 3 or 4). ``allow_objects`` reads full objects;
    ``json=True`` returns the tagged JSON mapping instead of the classes; ``framed=True``
    reads every length-prefixed value of a ``store_var`` file, as a list."""
    return _g.decode(data, version=version, allow_objects=allow_objects, json=json, framed=framed)


def _make(cls, fields):
    obj = cls.__new__(cls)
    obj._fields = dict(fields)
    return obj


class Variant:
    """A Godot value with no native Python type. ``fields`` are the members of its
    tagged JSON form other than ``"$type"`` (``value``, ``precision``, ``id`` ...)."""

    __slots__ = ("_fields",)
    type_name = "Variant"

    def __init__(self, value=None, **fields):
        if value is not None:
            fields = {"value": value, **fields}
        self._fields = fields

    @property
    def value(self):
        """The ``value`` field (components, text or id), or None."""
        return self._fields.get("value")

    @property
    def fields(self):
        """All fields, as in the tagged JSON form."""
        return self._fields

    def __getattr__(self, name):
        try:
            return self._fields[name]
        except (KeyError, AttributeError):
            raise AttributeError(name) from None

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _same(self._fields, other._fields)

    def __hash__(self):
        return hash((type(self).__name__, repr(self._fields)))

    def __repr__(self):
        f = dict(self._fields)
        args = [repr(f.pop("value"))] if "value" in f else []
        args += [f"{k}={v!r}" for k, v in f.items()]
        return f"{type(self).__name__}({', '.join(args)})"

    def __reduce__(self):
        return (_make, (type(self), self._fields))

    def _gamewire_json(self):
        return {"$type": self.type_name, **self._fields}


def _same(a, b):
    """Equality that counts NaN equal to NaN (vectors may hold NaN)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (_math.isnan(a) and _math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


class _Components(Variant):
    """A math type whose ``value`` is its components in wire order."""

    __slots__ = ()
    _axes = ()

    def __iter__(self):
        return iter(self.value)

    def __len__(self):
        return len(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def __getattr__(self, name):
        if name in type(self)._axes:
            return self._fields["value"][type(self)._axes.index(name)]
        return Variant.__getattr__(self, name)


_CLASSES = {}


def _define(name, base, doc, axes=(), old=()):
    cls = type(name, (base,), {"__slots__": (), "__doc__": doc, "type_name": name, "_axes": axes})
    for n in (name,) + tuple(old):
        _CLASSES[n] = cls
    globals()[name] = cls
    return cls


for _n, _axes, _old in [
    ("Vector2", "xy", ()), ("Vector2i", "xy", ()), ("Vector3", "xyz", ()), ("Vector3i", "xyz", ()),
    ("Vector4", "xyzw", ()), ("Vector4i", "xyzw", ()), ("Quaternion", "xyzw", ("Quat",)),
    ("Color", "rgba", ()), ("Rect2", (), ()), ("Rect2i", (), ()), ("Plane", (), ()), ("AABB", (), ()),
    ("Transform2D", (), ()), ("Basis", (), ()), ("Transform3D", (), ("Transform",)), ("Projection", (), ()),
]:
    _define(_n, _Components, f"Godot {_n}: ``value`` holds its components in wire order.", tuple(_axes), _old)

for _n, _doc in [
    ("StringName", "Godot StringName: ``value`` is its text."),
    ("NodePath", "Godot NodePath: ``value`` is its text, or ``names``/``subnames``/``absolute``."),
    ("RID", "Godot RID: ``value`` is its id."),
    ("Object", "Godot Object: ``id`` (sent as id) or ``class`` and ``properties``."),
    ("Callable", "Godot Callable (no data on the wire)."),
    ("Signal", "Godot Signal: ``name`` and ``object``."),
]:
    _define(_n, Variant, _doc)


class Dictionary(Variant, _Mapping):
    """Godot Dictionary that a dict cannot hold (typed, non-String or repeated keys):
    ``entries`` as ``[key, value]`` pairs, ``key_type``/``value_type`` when typed.

    It is a read-only ``Mapping`` over its entries: ``d[1]``, ``d.get(k)``, ``k in d``,
    ``d.keys()``/``items()``/``values()``, ``dict(d)`` (keys that are lists need
    ``entries``). A key repeated on the wire reads as Godot reads it: the last value,
    in the place of the first. Lookups compare keys with ``==`` (so unhashable keys such
    as arrays work), scanning the entries. Equality and hashing stay a Variant's (type
    and fields), and ``entries`` is what ``encode`` writes."""

    __slots__ = ()
    type_name = "Dictionary"

    def _pairs(self):
        return self._fields.get("entries") or ()

    def __getitem__(self, key):
        for k, v in reversed(self._pairs()):
            if _same_key(k, key):
                return v
        raise KeyError(key)

    def __iter__(self):
        seen_hashable = set()
        seen_other = []
        for k, _ in self._pairs():
            try:
                marker = (type(k), k)
                if marker in seen_hashable:
                    continue
                seen_hashable.add(marker)
            except TypeError:
                if any(_same_key(o, k) for o in seen_other):
                    continue
                seen_other.append(k)
            yield k

    def __len__(self):
        return sum(1 for _ in self)

    def __contains__(self, key):
        return any(_same_key(k, key) for k, _ in self._pairs())

    __eq__ = Variant.__eq__
    __hash__ = Variant.__hash__


def _same_key(a, b):
    """Key equality as Godot's: ``1`` and ``True`` or ``1.0`` are different keys."""
    return type(a) is type(b) and _same(a, b)


_CLASSES["Dictionary"] = Dictionary


class TypedArray(list):
    """A typed Godot Array: a list with ``element_type`` (a type name such as ``"int"``,
    or ``{"class": ...}`` / ``{"script": ...}``)."""

    __slots__ = ("element_type",)

    def __init__(self, items=(), element_type="Variant"):
        super().__init__(items)
        self.element_type = element_type

    def __eq__(self, other):
        return isinstance(other, TypedArray) and self.element_type == other.element_type and list.__eq__(self, other)

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"TypedArray({list.__repr__(self)}, element_type={self.element_type!r})"

    def __reduce__(self):
        return (TypedArray, (list(self), self.element_type))

    def _gamewire_json(self):
        return {"$type": "Array", "element_type": self.element_type, "value": list(self)}


class PackedArray(list):
    """Base of the packed arrays: a list of their elements (vectors and colors as lists of
    components); ``precision`` is ``"double"`` for double-precision builds, else None."""

    __slots__ = ("precision",)
    type_name = "PackedArray"

    def __init__(self, items=(), precision=None):
        super().__init__(items)
        self.precision = precision

    def __eq__(self, other):
        return type(other) is type(self) and self.precision == other.precision and _same(list(self), list(other))

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        p = f", precision={self.precision!r}" if self.precision else ""
        return f"{type(self).__name__}({list.__repr__(self)}{p})"

    def __reduce__(self):
        return (type(self), (list(self), self.precision))

    def _gamewire_json(self):
        d = {"$type": self.type_name, "value": list(self)}
        if self.precision is not None:
            d["precision"] = self.precision
        return d


for _n, _old in [
    ("PackedInt32Array", "PoolIntArray"), ("PackedInt64Array", None), ("PackedFloat32Array", "PoolRealArray"),
    ("PackedFloat64Array", None), ("PackedStringArray", "PoolStringArray"), ("PackedVector2Array", "PoolVector2Array"),
    ("PackedVector3Array", "PoolVector3Array"), ("PackedVector4Array", None), ("PackedColorArray", "PoolColorArray"),
]:
    _define(_n, PackedArray, f"Godot {_n}: a list of its elements.", (), (_old,) if _old else ())

_FLOATS = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def _from_json(d):
    """Builds the class for a ``"$type"``-tagged dict (called by the decoder)."""
    t = d.pop("$type")
    if t == "float" and d.get("value") in _FLOATS:
        return _FLOATS[d["value"]]
    if t in ("PackedByteArray", "PoolByteArray") and set(d) == {"base64"}:
        return _base64.b64decode(d["base64"])
    if t == "Array" and set(d) == {"element_type", "value"}:
        return TypedArray(d["value"], d["element_type"])
    cls = _CLASSES.get(t)
    if cls is None:
        d["$type"] = t
        return d
    if issubclass(cls, PackedArray) and set(d) <= {"value", "precision"}:
        return cls(d["value"], d.get("precision"))
    return _make(cls, d)


def decode_project_binary(data, *, version=None, json=False):
    """Decodes a ``project.binary`` (magic ``ECFG``) to a dict of its settings
    (``"section/name": value``, in file order). ``version`` 3 or 4, or None to tell by
    the values; ``json=True`` gives the tagged JSON mapping instead of the classes."""
    return _g.decode_project_binary(data, version=version, json=json)


def encode_project_binary(settings, *, version=4):
    """Encodes a dict of settings (as ``decode_project_binary`` gives it) to a
    ``project.binary``, byte-exact with the engine's ``_save_settings_binary``."""
    return _g.encode_project_binary(settings, version=version)


class Pack:
    """A Godot resource pack (``.pck``, formats 0 to 4, Godot 2.x to 4.7; or an
    executable with a pack at its end). Entries are named with or without ``res://``;
    every entry's MD5 is checked where the pack gives one. Encrypted packs and entries
    are refused with an error saying so."""

    __slots__ = ("_p", "path")

    def __init__(self, data, path=None):
        self._p = _g.Pack(bytes(data))
        self.path = path

    @classmethod
    def open(cls, path):
        """Reads the pack at ``path``."""
        import os

        with open(path, "rb") as f:
            return cls(f.read(), os.fspath(path))

    def names(self):
        """The entries' paths without ``res://``, in directory order."""
        return self._p.names()

    @property
    def info(self):
        """The header: ``format``, ``version`` (major, minor, patch), ``flags``,
        ``embedded``, ``start`` and ``entries`` (their count)."""
        return self._p.info

    def entries(self):
        """Every entry as a dict: ``path``, ``name``, ``size``, ``md5``, ``flags``,
        ``format`` (what gamewire reads it as, or None) and ``error``."""
        return self._p.entries()

    def read(self, name):
        """The bytes of entry ``name``, MD5 checked."""
        return self._p.read(name)

    def open_entry(self, name, *, as_format=None, allow_objects=False):
        """Entry ``name`` opened through the library (a ``gamewire.File``)."""
        from . import File

        return File(self._p.open(name, as_format=as_format, allow_objects=allow_objects), None)

    def decode(self, name, *, json=False, **options):
        """The value of entry ``name`` (``project.binary``: a dict of its settings),
        as ``gamewire.load`` gives a file's."""
        return self.open_entry(name, **options).value(json=json)

    def __len__(self):
        return len(self._p)

    def __iter__(self):
        return iter(self.names())

    def __contains__(self, name):
        n = name[6:] if name.startswith("res://") else name
        return n in self.names()

    def __repr__(self):
        return repr(self._p)


def load(path, *, version=4, **options):
    """Reads and decodes a Variant file (options as for ``decode``)."""
    with open(path, "rb") as f:
        return decode(f.read(), version=version, **options)


def save(path, value, *, version=4):
    """Encodes ``value`` and writes it atomically (temporary file, then rename)."""
    from . import _save_atomic

    _save_atomic(path, encode(value, version=version))
