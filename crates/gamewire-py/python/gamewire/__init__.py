"""gamewire: read and write five game engines' data formats byte-exact.

Format modules: ``gamewire.godot`` (more to come). Errors raise ``DecodeError`` (a
``ValueError``) with ``.offset`` (byte offset or None) and ``.path`` (``$...``).
"""
import os as _os
import tempfile as _tempfile

from . import _gamewire
from ._gamewire import DecodeError, detect
from . import godot

__all__ = ["DecodeError", "detect", "load", "godot"]


def _save_atomic(path, data):
    """Writes ``data`` to ``path`` through a temporary file and a rename."""
    d = _os.path.dirname(_os.path.abspath(path))
    fd, tmp = _tempfile.mkstemp(dir=d, prefix=".gamewire-")
    try:
        with _os.fdopen(fd, "wb") as f:
            f.write(data)
        _os.replace(tmp, path)
    except BaseException:
        try:
            _os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path):
    """Reads any file gamewire recognises and returns its decoded value."""
    with open(path, "rb") as f:
        data = f.read()
    fmt = detect(data, _os.path.basename(path))
    if fmt == "godot3":
        return godot.decode(data, version=3)
    if fmt == "godot4":
        return godot.decode(data, version=4)
    raise DecodeError(f"{path}: format not recognised or not supported: {fmt!r}")
