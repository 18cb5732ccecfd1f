"""Zeze beans (the ``ByteBuffer`` encoding) and protocol frame streams.

Without a schema a bean is a ``Bean``: a dict of field ids (``int``) to values, with the
base class's level in ``.base`` (a ``Bean`` or None). Wire values map to Python as:
integer ``int``, double ``float``, float ``Float`` (a ``float`` subclass, so the 4-byte
type survives), bytes ``str`` when valid UTF-8 else ``bytes``, list/set ``List``
(``.elem_type``), map ``Map`` (``.key_type``, ``.value_type``, a list of ``(key, value)``
pairs), dynamic ``Dynamic`` (``.type_id``, ``.bean``), vectors ``Vector2``,
``Vector2Int``, ``Vector3``, ``Vector3Int``, ``Vector4``. Inside lists and maps items
are compact, as in gamewire's schema-less Zeze JSON (docs/FORMATS.md): floats plain
numbers, vectors plain lists. NaN bit patterns stay ``{"float_bits": n}`` /
``{"double_bits": n}`` dicts. ``frames=True`` reads a frame stream (a list of dicts
whose ``bean`` is a ``Bean``). With ``schema`` (a solution XML, its text or path) and
``bean`` (the bean's name), values are the named schema JSON mapping. ``json=True``
gives the JSON mapping as it is; ``encode`` takes either.
"""
from ._gamewire import zeze as _z

encode = _z.encode


def decode(data, *, schema=None, bean=None, frames=False, json=False):
    """Decodes a bean (or, with ``frames=True``, a frame stream); see the module doc."""
    return _z.decode(data, schema=schema, bean=bean, frames=frames, json=json)


class Bean(dict):
    """A schema-less bean: field id (``int``) to value, ``base`` the base class's level."""

    __slots__ = ("base",)

    def __init__(self, fields=(), base=None):
        super().__init__(fields)
        self.base = base

    def __eq__(self, other):
        if isinstance(other, Bean):
            return self.base == other.base and dict.__eq__(self, other)
        return NotImplemented if not isinstance(other, dict) else False

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __repr__(self):
        b = f", base={self.base!r}" if self.base is not None else ""
        return f"Bean({dict.__repr__(self)}{b})"

    def __reduce__(self):
        return (Bean, (dict(self), self.base))

    def _gamewire_json(self):
        d = {str(k): v for k, v in self.items()}
        if self.base is not None:
            d["base"] = self.base
        return d


class Float(float):
    """A Zeze ``float`` (4 bytes on the wire); a plain Python ``float`` is a ``double``."""

    __slots__ = ()

    def __repr__(self):
        return f"Float({float.__repr__(self)})"

    def __reduce__(self):
        return (Float, (float(self),))

    def _gamewire_json(self):
        return {"float": float(self)}


class List(list):
    """A Zeze list or set: its items and their wire type (``elem_type``: ``"int"``,
    ``"bean"``, ``"vector3"`` ...)."""

    __slots__ = ("elem_type",)

    def __init__(self, items=(), elem_type="int"):
        super().__init__(items)
        self.elem_type = elem_type

    def __eq__(self, other):
        return isinstance(other, List) and self.elem_type == other.elem_type and list.__eq__(self, other)

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"List({list.__repr__(self)}, elem_type={self.elem_type!r})"

    def __reduce__(self):
        return (List, (list(self), self.elem_type))

    def _gamewire_json(self):
        return {"list": self.elem_type, "items": list(self)}


class Map(list):
    """A Zeze map: ``(key, value)`` pairs in wire order with ``key_type``/``value_type``."""

    __slots__ = ("key_type", "value_type")

    def __init__(self, entries=(), key_type="int", value_type="int"):
        super().__init__(tuple(e) for e in entries)
        self.key_type = key_type
        self.value_type = value_type

    def __eq__(self, other):
        return (
            isinstance(other, Map)
            and (self.key_type, self.value_type) == (other.key_type, other.value_type)
            and list.__eq__(self, other)
        )

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"Map({list.__repr__(self)}, key_type={self.key_type!r}, value_type={self.value_type!r})"

    def __reduce__(self):
        return (Map, (list(self), self.key_type, self.value_type))

    def _gamewire_json(self):
        return {"map": [self.key_type, self.value_type], "entries": [list(e) for e in self]}


class Dynamic:
    """A Zeze dynamic bean: its type id and the bean."""

    __slots__ = ("type_id", "bean")

    def __init__(self, type_id, bean):
        self.type_id = type_id
        self.bean = bean

    def __eq__(self, other):
        return isinstance(other, Dynamic) and (self.type_id, self.bean) == (other.type_id, other.bean)

    __hash__ = None

    def __repr__(self):
        return f"Dynamic({self.type_id!r}, {self.bean!r})"

    def __reduce__(self):
        return (Dynamic, (self.type_id, self.bean))

    def _gamewire_json(self):
        return {"dynamic": self.type_id, "bean": self.bean}


class _Vector(tuple):
    """Base of the Zeze vectors: a tuple of components."""

    __slots__ = ()
    kind = ""

    def __new__(cls, *components):
        if len(components) == 1 and not isinstance(components[0], (int, float)):
            components = tuple(components[0])
        return super().__new__(cls, components)

    def __eq__(self, other):
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __repr__(self):
        return f"{type(self).__name__}{tuple.__repr__(self)}"

    def __reduce__(self):
        return (type(self), tuple(self))

    def _gamewire_json(self):
        return {self.kind: list(self)}


_VECTORS = {}
for _name, _kind in [("Vector2", "vector2"), ("Vector2Int", "vector2int"), ("Vector3", "vector3"),
                     ("Vector3Int", "vector3int"), ("Vector4", "vector4")]:
    _VECTORS[_kind] = globals()[_name] = type(
        _name, (_Vector,), {"__slots__": (), "kind": _kind, "__doc__": f"A Zeze {_kind}."})


def _is_bean(d):
    return all(k == "base" or k.isdigit() for k in d)


def _from_json(d):
    """Builds the class for a schema-less JSON object (called by the decoder)."""
    if _is_bean(d):
        base = d.pop("base", None)
        return Bean({int(k): v for k, v in d.items()}, base)
    if len(d) == 1:
        ((k, v),) = d.items()
        if k == "float" and isinstance(v, (int, float)):
            return Float(v)
        if k == "bytes" and isinstance(v, str):
            return bytes.fromhex(v)
        if k in _VECTORS:
            return _VECTORS[k](v)
    if set(d) == {"list", "items"}:
        return List(d["items"], d["list"])
    if set(d) == {"map", "entries"}:
        return Map(d["entries"], *d["map"])
    if set(d) == {"dynamic", "bean"}:
        return Dynamic(d["dynamic"], d["bean"])
    return d


def load(path, **options):
    """Reads and decodes a file (options as for ``decode``). With no options, the file is
    opened as ``gamewire decode FILE`` opens it: frames by their name or content, typed by
    a solution found beside it (or in a parent folder) where it names the bean."""
    if not options:
        from . import open as _open

        return _open(path, as_format="zeze").value()
    with open(path, "rb") as f:
        return decode(f.read(), **options)


def save(path, value, **options):
    """Encodes ``value`` and writes it atomically (options as for ``encode``)."""
    from . import _save_atomic

    _save_atomic(path, encode(value, **options))
