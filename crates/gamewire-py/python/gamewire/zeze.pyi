from typing import Any, Dict, Iterable, List as _List, Optional, Tuple

class Bean(Dict[int, Any]):
    base: Optional["Bean"]
    def __init__(self, fields: Any = (), base: Optional["Bean"] = None) -> None: ...

class Float(float): ...

class List(_List[Any]):
    elem_type: str
    def __init__(self, items: Iterable[Any] = (), elem_type: str = "int") -> None: ...

class Map(_List[Tuple[Any, Any]]):
    key_type: str
    value_type: str
    def __init__(self, entries: Iterable[Any] = (), key_type: str = "int", value_type: str = "int") -> None: ...

class Dynamic:
    type_id: int
    bean: Bean
    def __init__(self, type_id: int, bean: Bean) -> None: ...

class _Vector(Tuple[float, ...]):
    kind: str
    def __new__(cls, *components: Any) -> "_Vector": ...

class Vector2(_Vector): ...
class Vector2Int(_Vector): ...
class Vector3(_Vector): ...
class Vector3Int(_Vector): ...
class Vector4(_Vector): ...

def decode(data: bytes, *, schema: str | None = None, bean: str | None = None, frames: bool = False, json: bool = False) -> Any:
    """Decodes a bean (or, with ``frames=True``, a frame stream); see the module doc."""
def encode(value: Any, *, schema: str | None = None, bean: str | None = None, frames: bool = False) -> bytes:
    """Encodes a value (as `decode` gives it, with the same keyword arguments) to bytes."""
def load(path: str, *, schema: str | None = None, bean: str | None = None, frames: bool = False, json: bool = False) -> Any:
    """Reads and decodes a file (options as for ``decode``)."""
def save(path: str, value: Any, *, schema: str | None = None, bean: str | None = None, frames: bool = False) -> None:
    """Encodes ``value`` and writes it atomically (options as for ``encode``)."""
