"""KingsIsle lazy decode (``decode(..., lazy=True)``): the same values as the eager decode
on every fixture, a deep BINd file and damaged copies (errors with the same offsets);
the mapping and sequence protocols; encode, pickling and ``to_python()``. Also checks the
eager decode (built from the view) against the serde path behind ``json=True``."""
import collections.abc
import json
import math
import os
import pickle
import random
import subprocess
import sys

import pytest

import gamewire
from gamewire import kingsisle
from conftest import FIXTURES, REPO

KATSUBA = FIXTURES / "kingsisle" / "katsuba"
TYPES = str(KATSUBA / "types.json")
BLOBS = sorted(KATSUBA.glob("*.bin"))


def options(path):
    c = json.loads(path.with_name(path.name[: -len(".bin")] + ".config.json").read_text())
    return dict(shallow=c["shallow"], zlib=c["compress"], flags=c["flags"], property_mask=c["property_mask"])


def same(a, b):
    """Equality that also holds for NaN floats (compared by being NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


def check_lazy(lazy, eager):
    """Walks a lazy value against the eager one through every protocol."""
    if isinstance(eager, kingsisle.Object):
        assert isinstance(lazy, kingsisle.LazyObject)
        assert lazy.type_name == eager.type_name and lazy.type_hash == eager.type_hash
        assert len(lazy) == len(eager)
        assert lazy.keys() == list(eager.keys())
        assert list(lazy) == list(eager)
        for (k, v), key in zip(lazy.items(), eager):
            assert k == key and k in lazy
            check_lazy(v, eager[key])
            check_lazy(lazy[key], eager[key])
            check_lazy(lazy.get(key), eager[key])
        assert len(lazy.values()) == len(eager)
        assert "no such property" not in lazy and lazy.get("no such property", 7) == 7
        with pytest.raises(KeyError):
            lazy["no such property"]
        assert lazy.to_python() == eager and lazy == eager
    elif isinstance(eager, list) and not isinstance(lazy, list):  # "$padding" is a list
        assert isinstance(lazy, kingsisle.LazyList)
        assert len(lazy) == len(eager)
        for i, (x, y) in enumerate(zip(lazy, eager)):
            check_lazy(x, y)
            check_lazy(lazy[i], y)
            check_lazy(lazy[i - len(eager)], y)
        assert lazy[1::2] == eager[1::2] or not eager
        with pytest.raises(IndexError):
            lazy[len(eager)]
        assert lazy.to_python() == eager and lazy == eager
    else:
        assert same(lazy, eager), (lazy, eager)


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_lazy_equals_eager_on_fixtures(path):
    data = path.read_bytes()
    o = options(path)
    eager = kingsisle.decode(data, types=TYPES, **o)
    lazy = kingsisle.decode(data, types=TYPES, lazy=True, **o)
    check_lazy(lazy, eager)
    # The root also carries the "$" entries of the eager decode.
    assert [k for k in lazy if k.startswith("$")] == [k for k in eager if k.startswith("$")]
    assert kingsisle.encode(lazy, types=TYPES, **o) == data
    back = pickle.loads(pickle.dumps(lazy))
    assert type(back) is kingsisle.Object and back == eager
    assert kingsisle.encode(back, types=TYPES, **o) == data


def to_json(v):
    """The eager value in the form of ``json=True``."""
    if isinstance(v, kingsisle.Object):
        return {"$class": v.type_name, "$hash": v.type_hash, **{k: to_json(x) for k, x in v.items()}}
    if isinstance(v, dict):
        return {k: to_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_json(x) for x in v]
    if isinstance(v, bytes):
        return {"$bytes": v.hex()}
    return v


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_eager_decode_matches_the_json_mapping(path):
    data = path.read_bytes()
    o = options(path)
    eager = kingsisle.decode(data, types=TYPES, **o)
    assert json.dumps(to_json(eager), sort_keys=False) == json.dumps(kingsisle.decode(data, types=TYPES, json=True, **o))


def make_bind(tmp_path, n):
    out, types = tmp_path / "deep.bin", tmp_path / "deep.types.json"
    subprocess.run([sys.executable, str(REPO / "scripts" / "kingsisle" / "make_bind.py"), str(out), str(types), str(n)], check=True)
    return out.read_bytes(), kingsisle.TypeList(str(types))


def test_lazy_deep_bind(tmp_path):
    data, tl = make_bind(tmp_path, 300)
    eager = kingsisle.decode(data, types=tl)
    lazy = kingsisle.decode(data, types=tl, lazy=True)
    assert lazy["$bind"] is True and lazy["$flags"] == 1
    check_lazy(lazy, eager)
    items = lazy["m_items"]
    assert isinstance(items, kingsisle.LazyList) and len(items) == 300
    assert items[-1]["m_id"] == 299 and items[5]["m_name"] == "n5"
    assert [x["m_id"] for x in items[10:13]] == [10, 11, 12]
    assert kingsisle.encode(lazy, types=tl) == data
    # Lazy values nested in eager ones encode too (through to_python()).
    mixed = kingsisle.Object(eager.type_name, {"m_items": items}, eager.type_hash)
    assert kingsisle.encode(mixed, types=tl) == kingsisle.encode(kingsisle.Object(eager.type_name, {"m_items": eager["m_items"]}, eager.type_hash), types=tl)
    assert pickle.loads(pickle.dumps(items)) == eager["m_items"]
    assert repr(lazy).startswith("LazyObject('class BenchRoot'") and "300 elements" in repr(items)
    # dict() gives the top level (nested values stay lazy); the abstract types fit.
    top = dict(lazy)
    assert list(top) == lazy.keys() and isinstance(top["m_items"], kingsisle.LazyList)
    assert isinstance(lazy, collections.abc.Mapping) and isinstance(items, collections.abc.Sequence)
    with pytest.raises(TypeError):
        hash(lazy)


def test_lazy_keeps_its_input(tmp_path):
    data, tl = make_bind(tmp_path, 20)
    buf = bytearray(data)
    lazy = kingsisle.decode(buf, types=tl, lazy=True)
    item = lazy["m_items"][3]
    del lazy
    buf[:] = b"\0" * len(buf)  # a bytearray is copied: changing it changes nothing
    assert item["m_id"] == 3 and item["m_name"] == "n3"


def outcome(data, **kw):
    try:
        return "ok", kingsisle.decode(data, **kw)
    except gamewire.DecodeError as e:
        return "error", (str(e), e.offset, e.path)


def test_damaged_input_fails_alike_with_offsets(tmp_path):
    rng = random.Random(15)
    data, tl = make_bind(tmp_path, 40)
    cases = [(data, dict(types=tl))] + [(p.read_bytes(), dict(types=TYPES, **options(p))) for p in BLOBS]
    seen = {"ok": 0, "error": 0}
    for blob, kw in cases:
        for _ in range(12):
            bad = bytearray(blob)
            if rng.random() < 0.5:
                bad = bad[: rng.randrange(len(bad))]
            else:
                for _ in range(rng.randrange(1, 4)):
                    bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            bad = bytes(bad)
            eager, lazy = outcome(bad, **kw), outcome(bad, lazy=True, **kw)
            assert eager[0] == lazy[0], (eager, lazy)
            if eager[0] == "ok":
                check_lazy(lazy[1], eager[1])
            else:
                assert eager[1] == lazy[1] and lazy[1][1] is not None
            seen[eager[0]] += 1
    assert seen["ok"] > 10 and seen["error"] > 10, seen


def test_lazy_error_has_offset():
    path = KATSUBA / "all-scalars-deep.bin"
    with pytest.raises(gamewire.DecodeError) as e:
        kingsisle.decode(path.read_bytes()[:-6], types=TYPES, lazy=True, **options(path))
    assert e.value.offset is not None


def test_lazy_and_json_exclude_each_other():
    path = KATSUBA / "all-scalars-deep.bin"
    with pytest.raises(ValueError, match="exclude"):
        kingsisle.decode(path.read_bytes(), types=TYPES, lazy=True, json=True, **options(path))


def test_load_lazy(tmp_path):
    data, tl = make_bind(tmp_path, 5)
    p = tmp_path / "deep.bin"
    lazy = kingsisle.load(str(p), types=tl, lazy=True)
    assert isinstance(lazy, kingsisle.LazyObject) and lazy == kingsisle.load(str(p), types=tl)


def chain_types():
    """A type list of one class whose objects point to the next (``m_next``)."""
    from test_kingsisle_types import djb2, string_id

    name = "class Node"

    def prop(n, ty, pid):
        return {"type": ty, "id": pid, "offset": 8 + 8 * pid, "flags": 31, "container": "Static",
                "dynamic": False, "pointer": ty.startswith("class SharedPointer"),
                "hash": (string_id(ty) + djb2(n)) & 0xFFFFFFFF, "enum_options": {}}

    props = {"m_v": prop("m_v", "int", 0), "m_next": prop("m_next", "class SharedPointer<class Node>", 1)}
    h = string_id(name)
    cls = {"name": name, "bases": ["PropertyClass"], "hash": h, "singleton": False, "properties": props}
    return name, kingsisle.TypeList(json.dumps({"version": 2, "classes": {str(h): cls}}))


@pytest.mark.parametrize("shallow", [True, False])
def test_eager_deep_chain(shallow):
    """Objects nested 100 deep (what the default stack budget holds in a debug build too):
    the eager decode (built from the walk, no recursion of its own) gives the lazy
    decode's values; damaged, both fail with the same error."""
    name, tl = chain_types()
    v = kingsisle.Object(name, {"m_v": 0, "m_next": None})
    for i in range(1, 100):
        v = kingsisle.Object(name, {"m_v": i, "m_next": v})
    data = kingsisle.encode(v, types=tl, shallow=shallow)
    eager = kingsisle.decode(data, types=tl, shallow=shallow)
    assert eager == kingsisle.decode(data, types=tl, shallow=shallow, lazy=True).to_python()
    depth, o = 0, eager
    while o is not None:
        assert type(o) is kingsisle.Object and o.type_name == name and o["m_v"] == 99 - depth
        o, depth = o["m_next"], depth + 1
    assert depth == 100
    for cut in (1, 7, len(data) // 2):
        with pytest.raises(gamewire.DecodeError) as a:
            kingsisle.decode(data[:-cut], types=tl, shallow=shallow)
        with pytest.raises(gamewire.DecodeError) as b:
            kingsisle.decode(data[:-cut], types=tl, shallow=shallow, lazy=True)
        assert str(a.value) == str(b.value) and a.value.offset == b.value.offset
