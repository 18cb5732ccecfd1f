from typing import Any, List, Optional, Union
from . import godot as godot
from . import kingsisle as kingsisle
from . import o3de as o3de
from . import resonite as resonite
from . import zeze as zeze

class DecodeError(ValueError):
    offset: Optional[int]
    path: str

def detect(data: bytes, name: Optional[str] = None) -> Union[str, List[str], None]:
    """Detects the format of `data` (file name `name` helps for formats without magic).
    Returns the format name (`godot3`, `godot4`, `kingsisle`, `zeze`, `resonite`, `o3de`),
    `"json"` for JSON text, a list of names when several fit, or `None`."""
def load(path: str, **options: Any) -> Any:
    """Reads any file gamewire recognises and returns its decoded value. ``options`` go to
    the format's ``decode`` (``types=`` for KingsIsle, found beside the file otherwise;
    ``schema=``/``bean=`` for Zeze, schema-less otherwise)."""
