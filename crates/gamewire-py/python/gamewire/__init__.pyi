from typing import Any, List, Optional, Union
from . import godot as godot
from . import kingsisle as kingsisle
from . import o3de as o3de
from . import resonite as resonite
from . import zeze as zeze

class DecodeError(ValueError):
    offset: Optional[int]
    path: str

def detect(data: bytes, name: Optional[str] = None) -> Union[str, List[str], None]: ...
def load(path: str, **options: Any) -> Any: ...
