"""gamewire: read and write five game engines' data formats byte-exact.

Format modules: ``gamewire.godot``, ``gamewire.kingsisle``, ``gamewire.o3de``,
``gamewire.resonite`` and ``gamewire.zeze``, each with ``decode``/``encode``/``load``/``save``.
Values are native Python where the types match and small typed classes of the format's
module where they do not (``json=True`` on ``decode`` gives gamewire's JSON mapping
instead). Errors raise ``DecodeError`` (a
``ValueError``) with ``.offset`` (byte offset or None) and ``.path`` (``$...``).
"""
import os as _os
import tempfile as _tempfile

from . import _gamewire
from ._gamewire import DecodeError, detect
from . import godot, kingsisle, o3de, resonite, zeze

__all__ = ["DecodeError", "detect", "load", "godot", "kingsisle", "o3de", "resonite", "zeze"]


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


def _find_types(path):
    """The KingsIsle type list for ``path``, found as ``gamewire decode`` finds it."""
    name = _os.path.basename(path)
    stem = name.split(".")[0]
    names = [f"{name}.types.json", f"{stem}.types.json", "types.json", "types.xml"]
    d = _os.path.dirname(_os.path.abspath(path))
    while True:
        for n in names:
            p = _os.path.join(d, n)
            if _os.path.isfile(p):
                return p
        parent = _os.path.dirname(d)
        if parent == d:
            raise DecodeError(
                f"{path}: a KingsIsle file needs its type list: put {stem}.types.json or "
                "types.json beside it (or in a parent folder), or pass types="
            )
        d = parent


def load(path, **options):
    """Reads any file gamewire recognises and returns its decoded value. ``options`` go to
    the format's ``decode`` (``types=`` for KingsIsle, found beside the file otherwise;
    ``schema=``/``bean=`` for Zeze, schema-less otherwise)."""
    with open(path, "rb") as f:
        data = f.read()
    fmt = detect(data, _os.path.basename(path))
    if fmt == "godot3":
        return godot.decode(data, version=3)
    if fmt == "godot4":
        return godot.decode(data, version=4)
    if fmt == "kingsisle":
        types = options.pop("types", None) or _find_types(path)
        return kingsisle.decode(data, types=types, **options)
    if fmt == "resonite":
        return resonite.decode(data, name=_os.path.basename(path))
    if fmt == "o3de":
        return o3de.decode(data)
    if fmt == "zeze":
        options.setdefault("frames", path.endswith(".frames.zeze"))
        return zeze.decode(data, **options)
    raise DecodeError(f"{path}: format not recognised or not supported: {fmt!r}")
