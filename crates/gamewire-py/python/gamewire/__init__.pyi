from typing import Any, List, Optional, Union
from . import godot as godot

class DecodeError(ValueError):
    offset: Optional[int]
    path: str

def detect(data: bytes, name: Optional[str] = None) -> Union[str, List[str], None]: ...
def load(path: str) -> Any: ...
