import os
from typing import Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Tuple, Union, overload

class TypeList:
    """A type list read once and reused across calls (``types=`` takes one in place of a
    path or text, which are read again at every call). Keeps the Python strings of its
    class and property names, made once."""
    def __init__(self, types: str) -> None:
        """Reads a type list: a path to a wiztype JSON or XML dump, or such text itself."""
    def __len__(self) -> int: ...

class Object(Dict[str, Any]):
    """A KingsIsle object: its properties by name, with its class name (``type_name``)
    and class hash (``type_hash``)."""
    type_name: Optional[str]
    type_hash: Optional[int]
    def __init__(self, type_name: Optional[str] = None, properties: Union[Mapping[str, Any], Iterable[Tuple[str, Any]]] = (), type_hash: Optional[int] = None) -> None: ...

class LazyObject:
    """An object of ``decode(..., lazy=True)``: a read-only mapping of its properties by
    name (wire order) whose Python values are made when read. Nested objects are
    ``LazyObject``s, lists ``LazyList``s, other values what the eager ``decode`` gives.
    The root also lists the eager root's ``"$"`` entries (``$bind``, ``$flags``, ...).
    Keeps the input bytes and the decoded node index alive."""

    @property
    def type_name(self) -> str:
        """The class name."""
    @property
    def type_hash(self) -> int:
        """The class hash."""
    def __getitem__(self, key: str) -> Any:
        """The value of property ``key``; ``KeyError`` when the object has none."""
    def get(self, key: str, default: Any = None) -> Any:
        """The value of property ``key``, or ``default``."""
    def keys(self) -> List[str]:
        """The property names, in wire order."""
    def values(self) -> List[Any]:
        """The values, in the order of ``keys()``."""
    def items(self) -> List[Tuple[str, Any]]:
        """(name, value) pairs, in the order of ``keys()``."""
    def __len__(self) -> int: ...
    def __contains__(self, key: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def to_python(self) -> Object:
        """The eager ``Object`` (every nested value built), equal to ``decode(...)``'s."""
    def __eq__(self, other: object) -> bool:
        """Compares ``to_python()`` with ``other`` (a lazy or eager value)."""
    def __reduce__(self) -> Any:
        """Pickles as the eager ``Object``."""

class LazyList:
    """A list of ``decode(..., lazy=True)``: its elements are made when read (objects and
    lists lazy)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> List[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __contains__(self, value: object) -> bool: ...
    def to_python(self) -> List[Any]:
        """The eager list (every nested value built)."""
    def __eq__(self, other: object) -> bool:
        """Compares ``to_python()`` with ``other``."""
    def __reduce__(self) -> Any:
        """Pickles as the eager list."""

@overload
def decode(data: bytes | bytearray, *, types: Union[str, TypeList], shallow: bool = True, flags: int = 0, property_mask: int | None = None, zlib: bool = False, json: bool = False, lazy: Literal[False] = False) -> Any:
    """Decodes a blob or ``BINd`` file: the root ``Object`` with every value built
    (``json=True``: the JSON mapping as plain dicts). An XML object file
    (``<Objects><Class Name=...>``) gives a list of such values, one per object (the
    options are those of deep mode, which XML holds). Bad input raises
    ``gamewire.DecodeError`` with ``.offset`` and ``.path``."""
@overload
def decode(data: bytes | bytearray, *, types: Union[str, TypeList], shallow: bool = True, flags: int = 0, property_mask: int | None = None, zlib: bool = False, json: Literal[False] = False, lazy: Literal[True]) -> LazyObject:
    """Decodes lazily: the whole input is read and checked now (same errors as the eager
    decode), Python values are made when read from the returned ``LazyObject``."""
def encode(value: Any, *, types: Union[str, TypeList], shallow: bool = True, flags: int = 0, property_mask: int | None = None, zlib: bool = False) -> bytes:
    """Encodes a value (as `decode` gives it, lazy or not) with the same type list and
    options."""
def check_types(types: Union[str, TypeList]) -> int:
    """Checks that ``types`` reads as a type list with classes; returns their number."""
def load(path: str, *, types: Union[str, TypeList, None] = None, shallow: bool = True, flags: int = 0, property_mask: int | None = None, zlib: bool = False, json: bool = False, lazy: bool = False) -> Any:
    """Reads and decodes a file (``lazy=True``: a ``LazyObject``)."""
def save(path: str, value: Any, *, types: Union[str, TypeList], shallow: bool = True, flags: int = 0, property_mask: int | None = None, zlib: bool = False) -> None:
    """Encodes ``value`` and writes it atomically."""


class Wad(Mapping[str, bytes | None]):
    """A KIWAD archive, memory-mapped: a read-only mapping from entry name to bytes
    (``None`` for a placeholder entry)."""

    path: str

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Opens the archive and checks its journal."""
    def names(self) -> list[str]:
        """The entry names, in journal order."""
    def header(self) -> dict[str, Any]:
        """``{"version": 1 or 2, "flags": int or None}``."""
    def info(self, name: str) -> dict[str, Any]:
        """The journal record: name, offset, size, compressed_size, compressed, crc."""
    def read(self, name: str) -> bytes | None:
        """The entry's bytes (CRC checked, inflated), None for a placeholder."""
    def decode(self, name: str, *, types: Any, **options: Any) -> Any:
        """What ``decode(wad.read(name), types=types, **options)`` gives: the root object
        of a ``BINd`` file or blob, a list of objects for an XML object file."""
    def __getitem__(self, name: str) -> bytes | None: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...


def pack(
    folder: str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    version: int = 2,
    flags: int | None = None,
    level: int = 9,
) -> int:
    """Packs the files under ``folder`` into a KIWAD archive at ``path``; returns the
    number of entries."""
