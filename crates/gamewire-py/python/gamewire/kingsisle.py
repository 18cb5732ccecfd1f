"""KingsIsle ObjectProperty blobs (Wizard101, Pirate101) and ``BINd`` files.

An object is an ``Object``: a dict of its properties by name (wire order) that keeps its
class in ``.type_name`` and ``.type_hash``. A ``std::string`` that is not UTF-8 is
``bytes``; other values follow gamewire's KingsIsle JSON (docs/FORMATS.md): numbers,
strings, lists, enum names, dicts for Color/Vector3D/..., and ``"$"`` keys on the root
object for what a byte-exact re-encode needs (``$bind``, ``$flags``, ``$padding`` ...).
``decode(..., json=True)`` gives that JSON mapping as it is (objects as dicts with
``"$class"``/``"$hash"``); ``encode`` takes either.

``decode(..., lazy=True)`` reads and checks the whole input at once but makes Python
values only when they are read: it returns a ``LazyObject`` (a read-only mapping with
``type_name``/``type_hash``; nested objects ``LazyObject``, lists ``LazyList``) that
keeps the input and the decoded node index alive. ``to_python()`` gives the eager
value; ``encode`` takes lazy values; pickling stores the eager value.

Names come from a type list: ``types`` is a wiztype JSON or KingsIsle XML dump, its text
or its path, or a ``TypeList`` read once from either (a path or text is read again at
every call). The serializer options (``shallow``, ``flags``, ``property_mask``, ``zlib``)
are those the data was written with.
"""
import collections.abc as _abc

from ._gamewire import kingsisle as _k

decode = _k.decode
check_types = _k.check_types
encode = _k.encode
TypeList = _k.TypeList
LazyObject = _k.LazyObject
LazyList = _k.LazyList

# Lazy values read like the eager ones: a mapping and a sequence.
_abc.Mapping.register(LazyObject)
_abc.Sequence.register(LazyList)


class Object(dict):
    """A KingsIsle object: its properties by name, with its class name (``type_name``)
    and class hash (``type_hash``). ``Object("ClassName", {"m_x": 1})``; the hash is looked
    up in the type list when ``encode`` meets ``type_hash=None``."""

    __slots__ = ("type_name", "type_hash")

    def __init__(self, type_name=None, properties=(), type_hash=None):
        super().__init__(properties)
        self.type_name = type_name
        self.type_hash = type_hash

    def __eq__(self, other):
        if isinstance(other, Object):
            return self.type_name == other.type_name and self.type_hash == other.type_hash and dict.__eq__(self, other)
        return NotImplemented if not isinstance(other, dict) else False

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __repr__(self):
        return f"Object({self.type_name!r}, {dict.__repr__(self)}, type_hash={self.type_hash!r})"

    def __reduce__(self):
        return (Object, (self.type_name, dict(self), self.type_hash))

    def _gamewire_json(self):
        head = {}
        if self.type_name is not None:
            head["$class"] = self.type_name
        if self.type_hash is not None:
            head["$hash"] = self.type_hash
        return {**head, **self}


def load(path, *, types=None, **options):
    """Reads and decodes a file. Without ``types``, the type list is looked for as
    ``gamewire decode`` does: ``<name>.types.json``, ``<stem>.types.json``, ``types.json``
    or ``types.xml`` in the file's folder, then in each parent folder."""
    if types is None:
        from . import open as _open

        types = _open(path, as_format="kingsisle").settings["types"]["path"]
    with open(path, "rb") as f:
        return decode(f.read(), types=types, **options)


def save(path, value, *, types, **options):
    """Encodes ``value`` and writes it atomically."""
    from . import _save_atomic

    _save_atomic(path, encode(value, types=types, **options))
