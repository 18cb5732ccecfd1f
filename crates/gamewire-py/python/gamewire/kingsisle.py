"""KingsIsle ObjectProperty blobs (Wizard101, Pirate101) and ``BINd`` files.

An object is an ``Object``: a dict of its properties by name (wire order) that keeps its
class in ``.type_name`` and ``.type_hash``. A ``std::string`` that is not UTF-8 is
``bytes``; other values follow gamewire's KingsIsle JSON (docs/FORMATS.md): numbers,
strings, lists, enum names, dicts for Color/Vector3D/..., and ``"$"`` keys on the root
object for what a byte-exact re-encode needs (``$bind``, ``$flags``, ``$padding`` ...).
``decode(..., json=True)`` gives that JSON mapping as it is (objects as dicts with
``"$class"``/``"$hash"``); ``encode`` takes either. An XML object file
(``<Objects><Class Name=...>``) decodes to a list of such values, one per object.

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


Object = _k.Object
# Object is a dict subclass made in Rust (the decode builds it with no Python call); its
# constructor, equality, repr and pickling are these.


def _object_init(self, type_name=None, properties=(), type_hash=None):
    dict.__init__(self, properties)
    self.type_name = type_name
    self.type_hash = type_hash


def _object_eq(self, other):
    if isinstance(other, Object):
        return self.type_name == other.type_name and self.type_hash == other.type_hash and dict.__eq__(self, other)
    return NotImplemented if not isinstance(other, dict) else False


def _object_ne(self, other):
    r = _object_eq(self, other)
    return r if r is NotImplemented else not r


def _object_repr(self):
    return f"Object({self.type_name!r}, {dict.__repr__(self)}, type_hash={self.type_hash!r})"


def _object_reduce(self):
    return (Object, (self.type_name, dict(self), self.type_hash))


def _object_json(self):
    head = {}
    if self.type_name is not None:
        head["$class"] = self.type_name
    if self.type_hash is not None:
        head["$hash"] = self.type_hash
    return {**head, **self}


_object_init.__doc__ = """``Object("ClassName", {"m_x": 1})``; the hash is looked up in the type list when
``encode`` meets ``type_hash=None``."""
for _name, _fn in (
    ("__init__", _object_init),
    ("__eq__", _object_eq),
    ("__ne__", _object_ne),
    ("__repr__", _object_repr),
    ("__reduce__", _object_reduce),
    ("_gamewire_json", _object_json),
):
    _fn.__name__, _fn.__qualname__ = _name, f"Object.{_name}"
    setattr(Object, _name, _fn)
Object.__hash__ = None
del _name, _fn


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


class Wad(_abc.Mapping):
    """A KIWAD archive (Wizard101's and Pirate101's ``.wad``), memory-mapped: a read-only
    mapping from entry name to bytes. The journal is read and checked once; an entry is
    read (CRC checked, inflated) when asked for. ``wad[name]`` and ``read(name)`` give
    its bytes (``None`` for a placeholder entry, which holds nothing);
    ``decode(name, types=...)`` gives what ``decode`` gives for those bytes."""

    __slots__ = ("_w", "path")

    def __init__(self, path):
        import os

        self.path = os.fspath(path)
        self._w = _k._Wad(self.path)

    def names(self):
        """The entry names, in journal order."""
        return self._w.names()

    def header(self):
        """``{"version": 1 or 2, "flags": int or None}``."""
        return self._w.header()

    def info(self, name):
        """The journal record of ``name``: ``name``, ``offset``, ``size``,
        ``compressed_size``, ``compressed``, ``crc``. KeyError when there is none."""
        return self._w.info(name)

    def read(self, name):
        """The bytes of ``name`` (CRC checked, inflated), or ``None`` for a placeholder."""
        return self._w.read(name)

    def decode(self, name, *, types, **options):
        """Decodes the entry ``name`` as ``decode(wad.read(name), types=types, **options)``
        does: a ``BINd`` file (whatever the options say) or blob gives its root object, an
        XML object file a list of its objects."""
        data = self._w.read(name)
        if data is None:
            raise ValueError(f"entry {name!r} is a placeholder: it holds nothing to decode")
        return decode(data, types=types, **options)

    def __getitem__(self, name):
        return self._w.read(name)

    def __iter__(self):
        return iter(self._w.names())

    def __len__(self):
        return len(self._w)

    def __contains__(self, name):
        return isinstance(name, str) and name in self._w

    def __repr__(self):
        return f"Wad({self.path!r}, <{len(self._w)} entries>)"


def pack(folder, path, *, version=2, flags=None, level=9):
    """Packs every file under ``folder`` into a KIWAD archive at ``path`` (written
    atomically): names relative to the folder with ``/``, sorted; zlib at ``level``
    except ``.mp3`` and ``.ogg`` files, stored as the game's tools store them. ``version``
    1 or 2; ``flags`` (version 2 only) defaults to 1. Returns the number of entries."""
    import os

    return _k.pack_folder(os.fspath(folder), os.fspath(path), version=version, flags=flags, level=level)
