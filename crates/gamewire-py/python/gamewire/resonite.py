"""Resonite/FrooxEngine BSON files (FrDT container with LZ4, LZMA or Brotli, or legacy).

Documents are dicts; non-plain BSON values are MongoDB canonical Extended JSON dicts
(``{"$numberLong": "5"}``), as in gamewire's Resonite JSON (docs/FORMATS.md).
``container(data)`` gives the ``compression``/``legacy`` that ``encode`` needs to write
the same bytes again.
"""
import os as _os

from ._gamewire import resonite as _r

decode = _r.decode
encode = _r.encode
container = _r.container

_EXT = {".brson": "brotli", ".7zbson": "lzma", ".lz4bson": "lz4", ".frdt": "none"}


def load(path):
    """Reads and decodes a file (the name picks a legacy file's compression)."""
    with open(path, "rb") as f:
        return decode(f.read(), name=_os.path.basename(path))


def save(path, value, *, compression=None, legacy=False):
    """Encodes ``value`` and writes it atomically. ``compression`` defaults to the one the
    extension means (``.brson`` Brotli, ``.7zbson`` LZMA, ``.lz4bson`` LZ4, ``.frdt`` none),
    else Brotli."""
    from . import _save_atomic

    if compression is None:
        compression = _EXT.get(_os.path.splitext(path)[1].lower(), "brotli")
    _save_atomic(path, encode(value, compression=compression, legacy=legacy))
