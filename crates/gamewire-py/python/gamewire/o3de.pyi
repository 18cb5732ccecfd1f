import os
from typing import Any, Dict, List, Optional, Tuple, TypedDict, Union

class Number(float):
    text: str
    def __new__(cls, text: str) -> "Number": ...

class String(str):
    raw: str
    def __new__(cls, value: str, raw: str) -> "String": ...

class Members(List[Tuple[str, Any]]):
    def get(self, name: str, default: Any = None) -> Any: ...

class Layout(TypedDict):
    compact: bool
    final_newline: bool
    keep: Optional[str]

def decode(data: bytes, *, json: bool = False) -> Any:
    """Decodes O3DE JSON text (UTF-8, comments allowed) to Python values; ``json=True``
    gives plain JSON values instead (``float`` for every number that is not a plain
    integer, ``str``, dicts keeping the first of repeated names, the one O3DE reads)."""
def layout(data: bytes) -> Layout:
    """How a file is laid out: `{"compact": bool, "final_newline": bool, "keep": str |
    None}`, the keyword arguments `encode` needs to give back the file's bytes (`keep`:
    its indentation, line endings, comments and trailing commas, when not O3DE's own)."""
def encode(
    value: Any, *, compact: bool = False, final_newline: bool = False, keep: Optional[str] = None
) -> bytes:
    """Encodes a value (as `decode` gives it) to JSON text, indented as O3DE writes
    (`compact=True`: no white space), with a final newline when asked; with `keep` (from
    `layout`), in that file's own layout, comments beside untouched members kept."""
def load(path: str, *, json: bool = False) -> Any:
    """Reads and decodes an O3DE JSON file (``json`` as for ``decode``)."""
def save(
    path: str,
    value: Any,
    *,
    compact: bool = False,
    final_newline: bool = False,
    keep: Optional[str] = None,
) -> None:
    """Encodes ``value`` and writes it atomically (temporary file, then rename)."""

class Flattened(TypedDict):
    document: Any
    entities: List[Dict[str, Any]]
    summary: Dict[str, Any]

def flatten(
    path: Union[str, "os.PathLike[str]"],
    *,
    project: Optional[Union[str, "os.PathLike[str]"]] = None,
    keep_going: bool = False,
    root_alias: str = "",
    schema: Optional[Union[str, "os.PathLike[str]"]] = None,
    json: bool = False,
) -> Flattened:
    """Flattens a level as O3DE builds it (``gamewire o3de flatten``)."""
    ...
