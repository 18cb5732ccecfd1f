from typing import Any, Dict, List, Optional, Union
from . import godot as godot
from . import kingsisle as kingsisle
from . import o3de as o3de
from . import resonite as resonite
from . import zeze as zeze

class DecodeError(ValueError):
    offset: Optional[int]
    path: str

class File:
    """A file opened through the library: its format, settings, JSON and value."""
    path: Optional[str]
    @property
    def format(self) -> str: ...
    @property
    def settings(self) -> Dict[str, Any]: ...
    @property
    def data(self) -> bytes: ...
    @property
    def notes(self) -> List[str]: ...
    def describe(self) -> str: ...
    def json(self, pretty: bool = False) -> str: ...
    def document(self, pretty: bool = True, json_dir: Optional[str] = None) -> str: ...
    def inspect(self, max_items: int = 8) -> str: ...
    def value(self, *, json: bool = False) -> Any: ...
    def encode_json(self, text: Union[str, bytes]) -> bytes: ...
    def encode(self, value: Any) -> bytes: ...
    def save(self, value: Any, path: Optional[str] = None) -> None: ...

def detect(data: bytes, name: Optional[str] = None) -> Union[str, List[str], None]:
    """Detects the format of `data` (file name `name` helps for formats without magic).
    Returns the format name (`godot3`, `godot4`, `kingsisle`, `zeze`, `resonite`, `o3de`),
    `"json"` for JSON text, a list of names when several fit, or `None`."""
def open(path: str, *, as_format: Optional[str] = None, files: Optional[Dict[str, bytes]] = None,
         allow_objects: bool = False, password: Optional[str] = None,
         key: Union[bytes, str, None] = None) -> File:
    """Opens the file at ``path`` (detected, side files found beside it; ``password=`` or
    ``key=`` for an encrypted Godot file)."""
def open_bytes(data: bytes, name: Optional[str] = None, *, as_format: Optional[str] = None,
               files: Optional[Dict[str, bytes]] = None, allow_objects: bool = False,
               password: Optional[str] = None, key: Union[bytes, str, None] = None) -> File:
    """Opens bytes (``name``: the file name to detect by and find side files beside)."""
def load(path: str, *, json: bool = False, **options: Any) -> Any:
    """Reads any file ``gamewire decode FILE`` reads and returns its value (``json=True``:
    exactly the JSON ``decode FILE`` writes under ``"data"``)."""
def encode(document: Union[Dict[str, Any], str, bytes], *, path: Optional[str] = None,
           files: Optional[Dict[str, bytes]] = None, numbers_as_written: bool = False,
           password: Optional[str] = None, key: Union[bytes, str, None] = None) -> bytes:
    """Encodes a JSON document with a ``"$gamewire"`` header to engine bytes."""
def save(path: str, value: Any, *, like: Union[File, str, None] = None,
         document_path: Optional[str] = None, password: Optional[str] = None,
         key: Union[bytes, str, None] = None) -> None:
    """Writes a document with a header, or a value with the settings of ``like``."""
