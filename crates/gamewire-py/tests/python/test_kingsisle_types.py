"""KingsIsle values from Python keep their exact types: every property type of the katsuba
fixtures and every leaf struct compared type by type with katsuba's values (when
installed; required under GAMEWIRE_REQUIRE_PEERS=1), the eager, lazy and JSON values
against each other, ``Object``'s own protocol, and the strings the eager decode shares."""
import copy
import json
import os
import pickle

import pytest

from gamewire import kingsisle
from conftest import FIXTURES

KATSUBA = FIXTURES / "kingsisle" / "katsuba"
TYPES = str(KATSUBA / "types.json")
BLOBS = sorted(KATSUBA.glob("*.bin"))


def katsuba_op():
    if os.environ.get("GAMEWIRE_REQUIRE_PEERS") == "1":
        import katsuba.op as op

        return op
    return pytest.importorskip("katsuba.op", reason="katsuba not installed (pip install katsuba)")


def options(path):
    c = json.loads(path.with_name(path.name[: -len(".bin")] + ".config.json").read_text())
    return dict(shallow=c["shallow"], zlib=c["compress"], flags=c["flags"], property_mask=c["property_mask"])


def katsuba_value(op, data, o, types=TYPES):
    so = op.SerializerOptions()
    so.shallow, so.flags, so.property_mask, so.manual_compression = o["shallow"], o["flags"], o["property_mask"], o["zlib"]
    return op.Serializer(so, op.TypeList.open(types)).deserialize(data)


def enum_options(types):
    out = {}
    for c in json.loads(open(types).read())["classes"].values():
        for name, p in c["properties"].items():
            if p.get("enum_options"):
                out[(c["hash"], name)] = {k: int(v) for k, v in p["enum_options"].items()}
    return out


LEAF_PARTS = {
    "Color": ("r", "g", "b", "a"),
    "Vec3": ("x", "y", "z"),
    "Euler": ("pitch", "yaw", "roll"),
    "Quaternion": ("x", "y", "z", "w"),
    "Matrix": ("i", "j", "k"),
    "PointInt": ("x", "y"),
    "PointUChar": ("x", "y"),
    "PointUInt": ("x", "y"),
    "PointFloat": ("x", "y"),
    "SizeInt": ("width", "height"),
    "RectInt": ("left", "top", "right", "bottom"),
    "RectFloat": ("left", "top", "right", "bottom"),
}


def strict_theirs(v):
    """katsuba's value with every leaf as (type name, value): objects as dicts with
    "$hash", leaf structs as dicts of their parts, UTF-8 ``std::string`` bytes as text
    (gamewire gives those as ``str``)."""
    t = type(v).__name__
    if t == "LazyObject":
        return {"$hash": ("int", v.type_hash), **{k: strict_theirs(x) for k, x in v.items()}}
    if t == "LazyList":
        return [strict_theirs(x) for x in v]
    if t in LEAF_PARTS:
        return {k: strict_theirs(getattr(v, k)) for k in LEAF_PARTS[t]}
    if isinstance(v, (list, tuple)):
        return [strict_theirs(x) for x in v]
    if isinstance(v, bytes):
        try:
            v = v.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return (type(v).__name__, v)


def strict_ours(v, enums, opts=None):
    """gamewire's value (eager or lazy) in the form of ``strict_theirs``: enum names as
    their numbers (katsuba gives enums as numbers), "$" entries of the root left out."""
    if isinstance(v, (kingsisle.Object, kingsisle.LazyObject)):
        return {
            "$hash": (type(v.type_hash).__name__, v.type_hash),
            **{k: strict_ours(x, enums, enums.get((v.type_hash, k))) for k, x in v.items() if not k.startswith("$")},
        }
    if isinstance(v, (list, kingsisle.LazyList)):
        return [strict_ours(x, enums, opts) for x in v]
    if type(v) is dict:
        assert all(type(k) is str for k in v)
        return {k: strict_ours(x, enums) for k, x in v.items()}
    if isinstance(v, str) and opts is not None:
        return ("int", sum(opts[n] for n in v.split("|")))
    return (type(v).__name__, v)


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_value_types_agree_with_katsuba(path):
    op = katsuba_op()
    data, o = path.read_bytes(), options(path)
    want = strict_theirs(katsuba_value(op, data, o))
    enums = enum_options(TYPES)
    assert strict_ours(kingsisle.decode(data, types=TYPES, **o), enums) == want
    assert strict_ours(kingsisle.decode(data, types=TYPES, lazy=True, **o), enums) == want


def strict_plain(v):
    """A value with every leaf as (type name, value) and objects' class kept, for
    comparing the eager value with the ``json=True`` mapping."""
    if isinstance(v, kingsisle.Object):
        return {"$class": ("str", v.type_name), "$hash": ("int", v.type_hash), **{k: strict_plain(x) for k, x in v.items()}}
    if type(v) is dict:
        return {k: strict_plain(x) for k, x in v.items()}
    if type(v) is list:
        return [strict_plain(x) for x in v]
    if isinstance(v, bytes):
        return {"$bytes": ("str", v.hex())}
    return (type(v).__name__, v)


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_eager_types_match_the_json_mapping(path):
    data, o = path.read_bytes(), options(path)
    eager = kingsisle.decode(data, types=TYPES, **o)
    assert type(eager) is kingsisle.Object and type(eager.type_name) is str and type(eager.type_hash) is int
    assert strict_plain(eager) == strict_plain(kingsisle.decode(data, types=TYPES, json=True, **o))
    assert strict_plain(kingsisle.decode(data, types=TYPES, lazy=True, **o).to_python()) == strict_plain(eager)


def string_id(text):
    state = 0
    for i, b in enumerate(text.encode()):
        v = (b - 32) & 0xFFFFFFFF
        sh = (i * 5) & 31
        if sh:
            v = ((v << sh) | (v >> (32 - sh))) & 0xFFFFFFFF
        state ^= v
    if state & 0x80000000:
        state = (1 << 32) - state
    return state & 0xFFFFFFFF


def djb2(text):
    h = 5381
    for b in text.encode():
        h = (h * 33 + b) & 0xFFFFFFFF
    return h & 0x7FFFFFFF


LEAVES = [
    ("m_color", "class Color", {"r": 1, "g": 2, "b": 3, "a": 255}),
    ("m_vec", "class Vector3D", {"x": 1.5, "y": -2.0, "z": 3.25}),
    ("m_euler", "class Euler", {"pitch": 1.0, "yaw": 2.0, "roll": 3.0}),
    ("m_quat", "class Quaternion", {"x": 1.0, "y": 2.0, "z": 3.0, "w": 4.0}),
    ("m_matrix", "class Matrix3x3", {"i": [1.0, 2.0, 3.0], "j": [4.0, 5.0, 6.0], "k": [7.0, 8.0, 9.5]}),
    ("m_point_int", "class Point<int>", {"x": -1, "y": 2}),
    ("m_point_uchar", "class Point<unsigned char>", {"x": 1, "y": 250}),
    ("m_point_uint", "class Point<unsigned int>", {"x": 1, "y": 4000000000}),
    ("m_point_float", "class Point<float>", {"x": 1.5, "y": 2.0}),
    ("m_size", "class Size<int>", {"width": 640, "height": 480}),
    ("m_rect_int", "class Rect<int>", {"left": -1, "top": 2, "right": 3, "bottom": 4}),
    ("m_rect_float", "class Rect<float>", {"left": 1.0, "top": 2.0, "right": 3.0, "bottom": 4.5}),
    ("m_wstring", "std::wstring", "wé ✓"),
    ("m_gid", "gid", 123456789012),
    ("m_string", "std::string", "short"),
    ("m_long", "std::string", "a string longer than sixteen bytes"),
    ("m_bytes", "std::string", b"\xff\xfe not UTF-8"),
    ("m_flag", "bool", True),
    ("m_float", "float", 0.5),
    ("m_double", "double", -2.25),
]


def leaf_types(path):
    props = {
        name: {
            "type": ty, "id": i, "offset": 8 * i, "flags": 31, "container": "Static", "dynamic": False,
            "pointer": False, "hash": (string_id(ty) + djb2(name)) & 0xFFFFFFFF, "enum_options": {},
        }
        for i, (name, ty, _) in enumerate(LEAVES)
    }
    h = string_id("class Leaves")
    classes = {str(h): {"name": "class Leaves", "bases": ["PropertyClass"], "hash": h, "singleton": False, "properties": props}}
    path.write_text(json.dumps({"version": 2, "classes": classes}))
    return str(path)


def test_leaf_structs_agree_with_katsuba(tmp_path):
    op = katsuba_op()
    types = leaf_types(tmp_path / "leaves.json")
    value = kingsisle.Object("class Leaves", {name: v for name, _, v in LEAVES})
    data = kingsisle.encode(value, types=types)
    eager = kingsisle.decode(data, types=types)
    assert eager == kingsisle.Object("class Leaves", {name: v for name, _, v in LEAVES}, string_id("class Leaves"))
    # Exact types: leaf structs are plain dicts of ints or floats, matrices dicts of
    # lists of floats, strings str (bytes when not UTF-8), gid int.
    for name, _, v in LEAVES:
        assert strict_plain(eager[name]) == strict_plain(v), name
    # katsuba with its default options (shallow, no flags), as encode wrote.
    theirs = op.Serializer(op.SerializerOptions(), op.TypeList.open(types)).deserialize(data)
    want = strict_theirs(theirs)
    assert strict_ours(eager, {}) == want
    assert strict_ours(kingsisle.decode(data, types=types, lazy=True), {}) == want


def test_object_protocol():
    o = kingsisle.Object("class X", {"m_a": 1}, 5)
    assert isinstance(o, dict) and type(o) is kingsisle.Object
    assert (o.type_name, o.type_hash, dict(o)) == ("class X", 5, {"m_a": 1})
    assert kingsisle.Object(type_name="class X", properties=[("m_a", 1)], type_hash=5) == o
    assert kingsisle.Object().type_name is None and kingsisle.Object().type_hash is None
    assert o != kingsisle.Object("class Y", {"m_a": 1}, 5) and o != {"m_a": 1} and not (o == {"m_a": 1})
    assert repr(o) == "Object('class X', {'m_a': 1}, type_hash=5)"
    for back in (pickle.loads(pickle.dumps(o)), copy.copy(o), copy.deepcopy(o)):
        assert type(back) is kingsisle.Object and back == o and back.type_hash == 5
    o.type_name, o.type_hash = "class Z", None
    assert o.type_name == "class Z" and o.type_hash is None
    with pytest.raises(TypeError):
        hash(o)
    with pytest.raises(AttributeError):
        o.other = 1  # no instance dict, as with the former __slots__ class

    class Sub(kingsisle.Object):
        pass

    s = Sub("class S", {"m_b": 2})
    assert type(s) is Sub and s.type_name == "class S" and s["m_b"] == 2


NAMES = ["", "a", "n1", "é", "✓✓✓✓✓", "x" * 16, "x" * 17, "sixteen bytes ok", "日本語のテキスト", "n1 ",
         # The table keys up to 16 bytes by their first and last words and length:
         # texts that overlap, differ only in length or in a NUL, and bytes not UTF-8.
         "aaaaaaaa", "aaaaaaaai", "aaaaaaaa" * 2, "abcdefgh", "abcdefghabcdefgh", "habcdefg",
         "ab", "ab\x00", "\x00", "\x00\x00\x00\x00", "aaaa", "aaaaa", "abcdefghi", "abcdefgh\x00",
         b"\xff\xfe", b"\xff\xfe\x00", b"aaaaaaa\xff"]


def test_shared_strings_are_the_right_ones():
    """The eager decode shares the Python strings of short texts met again (a table of
    64 to 4,096 slots): thousands of names, many repeated and many sharing a slot, each
    read back as written (a text that is not UTF-8 as bytes)."""
    names = [NAMES[i % len(NAMES)] if i % 3 else f"n{i % 1500}" for i in range(6000)]
    elements = [kingsisle.Object("class ListElement", {"m_id": i, "m_name": n}) for i, n in enumerate(names)]
    value = kingsisle.Object("class NestedLists", {"m_elements": elements, "m_depth": 1})
    o = options(KATSUBA / "nested-lists.bin")
    data = kingsisle.encode(value, types=TYPES, **o)
    eager = kingsisle.decode(data, types=TYPES, **o)
    assert [e["m_name"] for e in eager["m_elements"]] == names
    assert [type(e["m_name"]) for e in eager["m_elements"]] == [type(n) for n in names]
    lazy = kingsisle.decode(data, types=TYPES, lazy=True, **o)
    assert [e["m_name"] for e in lazy["m_elements"]] == names
    assert lazy.to_python() == eager
