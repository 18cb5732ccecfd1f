"""gamewire: read and write five game engines' data formats byte-exact.

Any file, through the library's one way of opening files (the same detection, side
files and settings as ``gamewire decode FILE``):

- ``gamewire.open(path)`` gives a ``File``: ``.format``, ``.settings`` (what writes it
  back as it was), ``.json()`` (exactly what ``decode FILE`` writes under ``"data"``),
  ``.document()`` (the whole JSON document), ``.inspect()``, ``.value()`` and
  ``.save(value)``;
- ``gamewire.load(path)`` its value (``json=True``: its JSON data), ``gamewire.save(path,
  value, like=FILE)`` writes a value back with a file's settings, and
  ``gamewire.encode(document)`` / ``gamewire.save(path, document)`` write a JSON document
  with a ``"$gamewire"`` header (a dict, or its text) back to engine bytes.

Format modules: ``gamewire.godot``, ``gamewire.kingsisle``, ``gamewire.o3de``,
``gamewire.resonite`` and ``gamewire.zeze``, each with ``decode``/``encode``/``load``/``save``.
Values are native Python where the types match and small typed classes of the format's
module where they do not (``json=True`` on ``decode`` gives gamewire's JSON mapping
instead). Errors raise ``DecodeError`` (a
``ValueError``) with ``.offset`` (byte offset or None) and ``.path`` (``$...``).
"""
import builtins as _builtins
import json as _json
import os as _os
import tempfile as _tempfile

from . import _gamewire
from ._gamewire import DecodeError, detect
from . import godot, kingsisle, o3de, resonite, zeze

__all__ = [
    "DecodeError", "File", "detect", "encode", "load", "open", "open_bytes", "save",
    "godot", "kingsisle", "o3de", "resonite", "zeze",
]


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


class File:
    """A file opened through the library: its format, settings, JSON and value."""

    __slots__ = ("_f", "path")

    def __init__(self, inner, path=None):
        self._f = inner
        self.path = path

    @property
    def format(self):
        """The format's name: ``godot3``, ``godot4``, ``kingsisle``, ``zeze``,
        ``resonite`` or ``o3de``."""
        return self._f.format

    @property
    def settings(self):
        """The settings that write the file back as it was read (a dict: the
        ``"$gamewire"`` header's content)."""
        return self._f.settings

    @property
    def data(self):
        """The bytes read."""
        return self._f.data

    @property
    def notes(self):
        """Things worth knowing that are not errors (a layout writing back will not keep)."""
        return self._f.notes

    def describe(self):
        """A one-line description, e.g. ``godot3 (store_var frames)``."""
        return self._f.describe()

    def json(self, pretty=False):
        """The JSON text ``gamewire decode FILE`` writes under ``"data"``."""
        return self._f.json(pretty)

    def document(self, pretty=True, json_dir=None):
        """The whole JSON document ``gamewire decode FILE`` writes (header, data, float
        record), side files named relative to ``json_dir`` (default: the current folder)."""
        return self._f.document(pretty, json_dir)

    def inspect(self, max_items=8):
        """The inspect tree as text."""
        return self._f.inspect(max_items)

    def value(self, *, json=False):
        """The decoded value: typed classes of the format's module (``json=True``: the
        JSON mapping, as ``json.loads(self.json())``)."""
        if json:
            return _json.loads(self._f.json(False))
        s = self.settings
        fmt = s["format"]
        data = self._f.data
        if fmt in ("godot3", "godot4") and s["framing"] in ("text", "bytes"):
            # Not Variants, inside an encrypted or compressed file.
            return data.decode("utf-8") if s["framing"] == "text" else data
        if fmt in ("godot3", "godot4") and s["framing"] == "project_binary":
            return godot.decode_project_binary(data, version=3 if fmt == "godot3" else 4)
        if fmt in ("godot3", "godot4"):
            return godot.decode(
                data,
                version=3 if fmt == "godot3" else 4,
                framed=s["framing"] == "store_var",
                allow_objects=s.get("allow_objects", False),
            )
        if fmt == "kingsisle":
            return kingsisle.decode(data, types=self._f.type_list())
        if fmt == "zeze":
            if s["layout"] == "frames" and s.get("solution"):
                # Typed frames: the JSON mapping (named fields) is the value.
                return _json.loads(self._f.json(False))
            solution = s.get("solution")
            return zeze.decode(
                data,
                schema=solution["path"] if solution and s.get("bean") else None,
                bean=s.get("bean"),
                frames=s["layout"] == "frames",
            )
        if fmt == "resonite":
            name = _os.path.basename(self.path) if self.path else None
            return resonite.decode(data, name=name)
        if fmt == "o3de":
            return o3de.decode(data)
        raise DecodeError(f"{fmt}: no Python value for this format")

    def encode_json(self, text):
        """Encodes JSON text (the data, as ``json()`` gives it) with this file's settings."""
        if isinstance(text, str):
            text = text.encode()
        return self._f.encode_json(text)

    def encode(self, value):
        """Encodes ``value`` (as ``value()`` gives it) with this file's settings."""
        s = self.settings
        if s["format"] == "o3de":
            # The file's own layout (indentation, line endings, comments, trailing
            # commas), as the settings keep it.
            keep = _json.dumps({
                "compact": s.get("layout") == "compact",
                "indent": s.get("indent", "    "),
                "newline": s.get("newline", "\n"),
                "final_newline": s.get("final_newline", False),
                "gaps": s.get("gaps", {}),
                "texts": s.get("texts", {}),
            })
            return o3de.encode(value, keep=keep)
        if s["format"] in ("godot3", "godot4") and s["framing"] in ("text", "bytes"):
            if s["framing"] == "text":
                return self._f.encode_json(_json.dumps(value).encode())
            import base64 as _b64
            return self._f.encode_json(_json.dumps(_b64.b64encode(bytes(value)).decode()).encode())
        if isinstance(value, (dict, list)) and s["format"] == "zeze" and s.get("solution") and s["layout"] == "frames":
            return self._f.encode_json(value)
        return self._f.encode(value)

    def save(self, value, path=None):
        """Writes ``value`` atomically with this file's settings, to ``path`` (default:
        where the file was read from)."""
        target = path or self.path
        if target is None:
            raise ValueError("no path: the file was opened from bytes")
        _save_atomic(target, self.encode(value))

    def __repr__(self):
        return f"<gamewire.File {self.path or '<bytes>'}: {self.describe()}>"


def open_bytes(data, name=None, *, as_format=None, files=None, allow_objects=False,
               password=None, key=None):
    """Opens bytes (``name``: the file name to detect by and find side files beside;
    ``files``: side files as a dict of path -> bytes instead of the file system;
    ``password=`` or ``key=``: the secret of an encrypted Godot file)."""
    inner = _gamewire.open(data, name, as_format=as_format, files=files, allow_objects=allow_objects,
                           password=password, key=key)
    return File(inner, None)


def open(path, *, as_format=None, files=None, allow_objects=False, password=None, key=None):
    """Opens the file at ``path`` (detected, side files found beside it). An encrypted
    Godot file (``GDEC``) needs ``password=`` (``open_encrypted_with_pass``) or ``key=``
    (32 bytes or 64 hex digits, ``open_encrypted``), or the ``GAMEWIRE_GODOT_PASSWORD`` /
    ``GAMEWIRE_GODOT_KEY`` environment variable; writing it back uses the same secret."""
    with _builtins.open(path, "rb") as f:
        data = f.read()
    inner = _gamewire.open(data, _os.fspath(path), as_format=as_format, files=files,
                           allow_objects=allow_objects, password=password, key=key)
    return File(inner, _os.fspath(path))


def load(path, *, json=False, **options):
    """Reads any file ``gamewire decode FILE`` reads and returns its value (``json=True``:
    exactly the JSON ``decode FILE`` writes under ``"data"``, parsed). ``options`` go to
    ``open`` (``as_format=``, ``files=``, ``allow_objects=``, ``password=``, ``key=``)."""
    return open(path, **options).value(json=json)


def encode(document, *, path=None, files=None, numbers_as_written=False, password=None, key=None):
    """Encodes a JSON document with a ``"$gamewire"`` header (a dict, or its text as
    ``gamewire decode FILE`` writes it) to engine bytes. Side files the header names are
    found relative to ``path`` (where the document is; default the current folder). A
    header naming an encrypted Godot file needs ``password=`` or ``key=``."""
    return _gamewire.encode_document(document, path, files=files,
                                     numbers_as_written=numbers_as_written,
                                     password=password, key=key)


def save(path, value, *, like=None, document_path=None, password=None, key=None):
    """Writes ``value`` atomically to ``path``: a JSON document with a ``"$gamewire"``
    header (written with its settings; side files relative to ``document_path``), or a
    value written with the settings of ``like`` (a ``File``, or the path of the file
    the value came from). An encrypted Godot file is written with ``password=`` or
    ``key=`` (a ``File`` opened with one keeps it)."""
    if isinstance(value, dict) and "$gamewire" in value:
        _save_atomic(path, encode(value, path=document_path, password=password, key=key))
        return
    if like is None:
        raise ValueError("save(path, value) needs like=FILE (the file whose settings write "
                         "it) or a document with a \"$gamewire\" header")
    if not isinstance(like, File):
        like = open(like, password=password, key=key)
    _save_atomic(path, like.encode(value))
