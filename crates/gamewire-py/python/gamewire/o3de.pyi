from typing import Any, List, Tuple, TypedDict

class Number(float):
    text: str
    def __new__(cls, text: str) -> "Number": ...

class String(str):
    raw: str
    def __new__(cls, value: str, raw: str) -> "String": ...

class Members(List[Tuple[str, Any]]):
    def get(self, name: str, default: Any = None) -> Any: ...

class Layout(TypedDict):
    final_newline: bool

def decode(data: bytes) -> Any:
    """Decodes O3DE JSON text (UTF-8, comments allowed) to Python values."""
def layout(data: bytes) -> Layout:
    """How a file is laid out: `{"final_newline": bool}`, the keyword argument `encode`
    needs (with the default pretty layout) to give back a saved file's bytes."""
def encode(value: Any, *, compact: bool = False, final_newline: bool = False) -> bytes:
    """Encodes a value (as `decode` gives it) to JSON text, indented as O3DE writes
    (`compact=True`: no white space), with a final newline when asked."""
def load(path: str) -> Any:
    """Reads and decodes an O3DE JSON file."""
def save(path: str, value: Any, *, compact: bool = False, final_newline: bool = False) -> None:
    """Encodes ``value`` and writes it atomically (temporary file, then rename)."""
