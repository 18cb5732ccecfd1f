"""Resonite/FrooxEngine BSON files (FrDT container with LZ4, LZMA or Brotli, or legacy).

Documents are dicts; BSON int32 is ``int``, int64 ``Int64`` (an ``int`` subclass),
double ``float`` (NaN and infinities included), binary of subtype 0 ``bytes``, a document
with a key starting with ``$`` or a repeated key ``Entries`` (a list of ``(key, value)``
pairs). The other BSON types (datetime, ObjectId, ...) stay MongoDB canonical Extended
JSON dicts (``{"$date": {"$numberLong": "..."}}``), as in gamewire's Resonite JSON
(docs/FORMATS.md). Encoding, a plain ``int`` is int32 when it fits, else int64.
``decode(..., json=True)`` gives the whole Extended JSON mapping; ``encode`` takes
either. ``container(data)`` gives the ``compression``/``legacy`` that ``encode`` needs to
write the same bytes again.
"""
import base64 as _base64
import os as _os

from ._gamewire import resonite as _r

encode = _r.encode
container = _r.container


def decode(data, *, name=None, json=False):
    """Decodes a file's bytes to its document (``name``, the file name, picks the
    compression of headerless legacy files); ``json=True`` gives Extended JSON."""
    return _r.decode(data, name=name, json=json)


class Int64(int):
    """A BSON int64 (a plain ``int`` is written as int32 when it fits)."""

    __slots__ = ()

    def __repr__(self):
        return f"Int64({int.__repr__(self)})"

    def __reduce__(self):
        return (Int64, (int(self),))

    def _gamewire_json(self):
        return {"$numberLong": str(int(self))}


class Entries(list):
    """A BSON document a dict cannot hold (a key starting with ``$`` or repeated keys):
    its ``(key, value)`` pairs in order."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, Entries) and list.__eq__(self, other)

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"Entries({list.__repr__(self)})"

    def __reduce__(self):
        return (Entries, (list(self),))

    def _gamewire_json(self):
        return {"$entries": [list(e) for e in self]}


_DOUBLES = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


def _from_json(d):
    """Builds the Python value for an Extended JSON dict (called by the decoder)."""
    if len(d) == 1:
        ((k, v),) = d.items()
        if k == "$numberLong" and isinstance(v, str):
            return Int64(v)
        if k == "$numberDouble" and v in _DOUBLES:
            return _DOUBLES[v]
        if k == "$entries" and isinstance(v, list):
            return Entries(tuple(e) for e in v)
        if k == "$binary" and isinstance(v, dict) and v.get("subType") == "00":
            return _base64.b64decode(v["base64"])
    return d

_EXT = {".brson": "brotli", ".7zbson": "lzma", ".lz4bson": "lz4", ".frdt": "none"}


def load(path, *, json=False):
    """Reads and decodes a file (the name picks a legacy file's compression);
    ``json=True`` gives Extended JSON, as for ``decode``."""
    with open(path, "rb") as f:
        return decode(f.read(), name=_os.path.basename(path), json=json)


def save(path, value, *, compression=None, legacy=False):
    """Encodes ``value`` and writes it atomically. ``compression`` defaults to the one the
    extension means (``.brson`` Brotli, ``.7zbson`` LZMA, ``.lz4bson`` LZ4, ``.frdt`` none),
    else Brotli."""
    from . import _save_atomic

    if compression is None:
        compression = _EXT.get(_os.path.splitext(path)[1].lower(), "brotli")
    _save_atomic(path, encode(value, compression=compression, legacy=legacy))
