"""KingsIsle ObjectProperty blobs (Wizard101, Pirate101) and ``BINd`` files.

Values are gamewire's KingsIsle JSON (docs/FORMATS.md), named through a type list:
``types`` is a wiztype JSON or KingsIsle XML dump, its text or its path. The serializer
options (``shallow``, ``flags``, ``property_mask``, ``zlib``) are those the data was
written with.
"""
from ._gamewire import kingsisle as _k

decode = _k.decode
encode = _k.encode


def load(path, *, types=None, **options):
    """Reads and decodes a file. Without ``types``, the type list is looked for as
    ``gamewire decode`` does: ``<name>.types.json``, ``<stem>.types.json``, ``types.json``
    or ``types.xml`` in the file's folder, then in each parent folder."""
    if types is None:
        from . import _find_types

        types = _find_types(path)
    with open(path, "rb") as f:
        return decode(f.read(), types=types, **options)


def save(path, value, *, types, **options):
    """Encodes ``value`` and writes it atomically."""
    from . import _save_atomic

    _save_atomic(path, encode(value, types=types, **options))
