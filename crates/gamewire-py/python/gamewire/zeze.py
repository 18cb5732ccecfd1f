"""Zeze beans (the ``ByteBuffer`` encoding) and protocol frame streams.

Without a schema, a bean is a dict of field ids to typed values (gamewire's schema-less
Zeze JSON, docs/FORMATS.md); with ``schema`` (a solution XML, its text or path) and
``bean`` (the bean's name), named typed values. ``frames=True`` reads a frame stream.
"""
from ._gamewire import zeze as _z

decode = _z.decode
encode = _z.encode


def load(path, **options):
    """Reads and decodes a file (options as for ``decode``)."""
    with open(path, "rb") as f:
        return decode(f.read(), **options)


def save(path, value, **options):
    """Encodes ``value`` and writes it atomically (options as for ``encode``)."""
    from . import _save_atomic

    _save_atomic(path, encode(value, **options))
