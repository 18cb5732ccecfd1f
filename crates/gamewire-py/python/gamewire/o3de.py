"""O3DE JSON files (prefabs, materials, settings registry, ...) kept exactly as written.

This is gamewire's registry-free O3DE document (docs/FORMATS.md): ``decode`` then ``encode``
gives back the same document, and with ``encode(value, **layout(data))`` the same bytes
for every file: ``layout`` reports the file's layout (the library's settings: indentation,
line endings, comments and trailing commas in ``keep``), and an edited value is written in
that layout, comments beside untouched members kept. Values are native Python except where
JSON text carries more than a native value can:

- a number whose text is a plain integer (``12``, ``-3``, ``18446744073709551615``) is an
  ``int``; any other number (``1.0000000``, ``1E+2``, ``-0``) is a ``Number``, a
  ``float`` that keeps its source text in ``.text``;
- a string written otherwise than rapidjson writes it (``"\\u00e9"``, ``"\\/"``) is a
  ``String``, a ``str`` that keeps its escaped source text in ``.raw``;
- an object whose member names repeat (rapidjson keeps every one) is ``Members``, a list
  of ``(name, value)`` pairs in document order; other objects are dicts.

Plain ``int``, ``float`` and ``str`` values are written as rapidjson writes them.
"""
from ._gamewire import o3de as _o

__all__ = ["decode", "encode", "flatten", "layout", "load", "save", "Number", "String", "Members"]

encode = _o.encode
layout = _o.layout


def decode(data, *, json=False):
    """Decodes O3DE JSON text (UTF-8, comments allowed) to Python values; ``json=True``
    gives plain JSON values instead (``float`` for every number that is not a plain
    integer, ``str``, dicts keeping the first of repeated names, the one O3DE reads)."""
    return _o.decode(data, json=json)


class Number(float):
    """A JSON number that keeps its source text (``.text``), e.g. ``Number("1.0000000")``.
    It is the ``float`` the text reads as; ``encode`` writes ``.text`` back."""

    __slots__ = ("text",)

    def __new__(cls, text):
        self = super().__new__(cls, text)
        self.text = str(text)
        return self

    def __repr__(self):
        return f"Number({self.text!r})"

    def __eq__(self, other):
        if isinstance(other, Number):
            return self.text == other.text
        return float(self) == other

    __hash__ = float.__hash__

    def __reduce__(self):
        return (Number, (self.text,))


class String(str):
    """A JSON string that keeps its escaped source text (``.raw``), e.g.
    ``String("é", "\\\\u00e9")``. It is the ``str`` it means; ``encode`` writes ``.raw``."""

    __slots__ = ("raw",)

    def __new__(cls, value, raw):
        self = super().__new__(cls, value)
        self.raw = raw
        return self

    def __repr__(self):
        return f"String({str(self)!r}, raw={self.raw!r})"

    def __eq__(self, other):
        if isinstance(other, String):
            return str(self) == str(other) and self.raw == other.raw
        return str(self) == other

    __hash__ = str.__hash__

    def __reduce__(self):
        return (String, (str(self), self.raw))


class Members(list):
    """An object whose member names repeat: a list of ``(name, value)`` pairs in document
    order. ``get(name)`` gives the first value named ``name``, as rapidjson finds it."""

    __slots__ = ()

    def get(self, name, default=None):
        """The first member named ``name`` (or ``default``)."""
        for k, v in self:
            if k == name:
                return v
        return default

    def __repr__(self):
        return f"Members({list.__repr__(self)})"

    def __eq__(self, other):
        return isinstance(other, Members) and list.__eq__(self, other)

    __hash__ = None

    def __ne__(self, other):
        return not self == other

    def __reduce__(self):
        return (Members, (list(self),))


def load(path, *, json=False):
    """Reads and decodes an O3DE JSON file (``json`` as for ``decode``)."""
    with open(path, "rb") as f:
        return decode(f.read(), json=json)


def save(path, value, *, compact=False, final_newline=False, keep=None):
    """Encodes ``value`` (``keep`` and the rest as for ``encode``) and writes it
    atomically (temporary file, then rename)."""
    from . import _save_atomic

    _save_atomic(
        path, encode(value, compact=compact, final_newline=final_newline, keep=keep)
    )


def flatten(path, *, project=None, keep_going=False, root_alias="", schema=None, json=False):
    """Flattens the level (or prefab) at ``path`` as O3DE builds it, the library's
    ``gamewire o3de flatten``: every nested instance (``Instances`` -> ``Source``,
    relative to the project root: ``project``, else the nearest folder above ``path``
    with a ``project.json``) expanded with its ``Patches``, every entity in one
    ``Entities`` under its alias path (``Instance_[1]/Entity_[2]``), references
    rewritten to those paths.

    Returns a dict: ``document`` (the flattened level, as ``decode`` gives it; with
    ``json=True`` plain JSON values), ``entities`` (one dict per entity: ``path``,
    ``instance``, ``source``, ``name``, ``id``: the 64-bit id O3DE hashes from the path,
    under ``root_alias``) and ``summary`` (counts, patches left out or skipped, files
    read). A patch that fails raises ``gamewire.DecodeError`` naming the instance chain,
    the patch's index and its path, unless ``keep_going`` skips it as O3DE does (it is
    then listed in ``summary["skipped"]``). ``schema`` is a registry file merged over
    the bundled core types, for the default values patches need."""
    import json as _json

    doc, entities, summary = _o.flatten(
        str(path),
        project=None if project is None else str(project),
        keep_going=keep_going,
        root_alias=root_alias,
        schema=None if schema is None else str(schema),
    )
    return {
        "document": _o.decode(doc, json=json),
        "entities": _json.loads(entities),
        "summary": _json.loads(summary),
    }
