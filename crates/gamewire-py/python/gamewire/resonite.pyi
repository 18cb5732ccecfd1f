from typing import Any, List, Tuple, TypedDict

class Container(TypedDict):
    compression: str
    legacy: bool

class Int64(int): ...
class Entries(List[Tuple[str, Any]]): ...

def decode(data: bytes, *, name: str | None = None, json: bool = False) -> Any:
    """Decodes a file's bytes to its document (``name``, the file name, picks the
    compression of headerless legacy files); ``json=True`` gives Extended JSON."""
def container(data: bytes, *, name: str | None = None) -> Container:
    """The container of a file: `{"compression": "brotli"|"lzma"|"lz4"|"none", "legacy": bool}`,
    the keyword arguments `encode` needs to write the same bytes again."""
def encode(value: Any, *, compression: str = "brotli", legacy: bool = False) -> bytes:
    """Encodes a document (as `decode` gives it) to a file's bytes."""
def load(path: str, *, json: bool = False) -> Any:
    """Reads and decodes a file (the name picks a legacy file's compression);
    ``json=True`` gives Extended JSON, as for ``decode``."""
def save(path: str, value: Any, *, compression: str | None = None, legacy: bool = False) -> None:
    """Encodes ``value`` and writes it atomically. ``compression`` defaults to the one the
    extension means (``.brson`` Brotli, ``.7zbson`` LZMA, ``.lz4bson`` LZ4, ``.frdt`` none),
    else Brotli."""
