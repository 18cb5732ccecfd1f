"""Godot Variant binary (3.x and 4.x).

Plain data is native Python; other types (Vector3, NodePath, typed arrays, ...) are dicts
tagged ``"$type"`` as in gamewire's Godot JSON (docs/FORMATS.md).
"""
from ._gamewire import godot as _g

decode = _g.decode
encode = _g.encode


def load(path, *, version=4):
    """Reads and decodes a Variant file."""
    with open(path, "rb") as f:
        return decode(f.read(), version=version)


def save(path, value, *, version=4):
    """Encodes ``value`` and writes it atomically (temporary file, then rename)."""
    from . import _save_atomic

    _save_atomic(path, encode(value, version=version))
