"""Godot: every engine vector (tests/fixtures/godot/vectors) round-trips byte-exact through
the typed classes (and the JSON mapping); the classes compare, print and pickle; errors carry
offsets."""
import math
import os
import pickle

import pytest

import gamewire
from gamewire import godot
from conftest import FIXTURES


def vectors(name):
    out = []
    for line in (FIXTURES / "godot" / "vectors" / name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        out.append(bytes.fromhex(line.split("\t")[0]))
    assert out, name
    return out


@pytest.mark.parametrize("name,version", [("godot3-engine-vectors.tsv", 3), ("godot4-vectors.tsv", 4)])
def test_fixtures_round_trip(name, version):
    kinds = set()
    for data in vectors(name):
        value = godot.decode(data, version=version)
        kinds.add(type(value).__name__)
        assert godot.encode(value, version=version) == data
        assert godot.encode(godot.decode(data, version=version, json=True), version=version) == data
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value)
        assert godot.encode(back, version=version) == data
    # The fixtures exercise the classes, not only native values.
    assert len(kinds) >= 10, kinds


def test_native_and_typed_values():
    assert godot.decode(godot.encode({"a": [1, 2.5, "x", None, True]})) == {"a": [1, 2.5, "x", None, True]}
    v = godot.decode(godot.encode(godot.Vector3([1.0, 2.0, 3.0])))
    assert type(v) is godot.Vector3 and v == godot.Vector3([1.0, 2.0, 3.0])
    assert (v.x, v.y, v.z) == (1.0, 2.0, 3.0) and list(v) == [1.0, 2.0, 3.0]
    assert v != godot.Vector3([1.0, 2.0, 4.0]) and v != godot.Vector3i([1, 2, 3])
    assert repr(v) == "Vector3([1.0, 2.0, 3.0])"
    assert pickle.loads(pickle.dumps(v)) == v
    # The tagged JSON form is still accepted and still available.
    assert godot.decode(godot.encode({"$type": "Vector3", "value": [1.0, 2.0, 3.0]})) == v
    assert godot.decode(godot.encode(v), json=True) == {"$type": "Vector3", "value": [1.0, 2.0, 3.0]}
    assert isinstance(godot.encode(1.0), bytes) and godot.encode(1.0) != godot.encode(1)


def test_classes_for_godot_types():
    c = godot.Color([0.5, 0.25, 1.0, 1.0])
    assert godot.decode(godot.encode(c)).a == 1.0
    p = godot.NodePath("/root/Main:position:x")
    assert godot.decode(godot.encode(p)) == p and godot.decode(godot.encode(p)).value == "/root/Main:position:x"
    s = godot.StringName("jump")
    assert godot.decode(godot.encode(s)) == s and s != "jump"
    a = godot.TypedArray([1, 2, 3], element_type="int")
    back = godot.decode(godot.encode(a))
    assert back == a and back.element_type == "int" and back != [1, 2, 3]
    f = godot.PackedFloat32Array([1.5, 2.0])
    assert godot.decode(godot.encode(f)) == f and repr(f) == "PackedFloat32Array([1.5, 2.0])"
    assert godot.decode(godot.encode(b"\x01\x02")) == b"\x01\x02"
    assert math.isnan(godot.decode(godot.encode(float("nan"))))
    assert godot.decode(godot.encode(float("-inf"))) == float("-inf")
    # Godot 3 names read as the Godot 4 classes and write back in 3.x spelling.
    q = godot.decode(godot.encode(godot.Quaternion([0.0, 0.0, 0.0, 1.0]), version=3), version=3)
    assert type(q) is godot.Quaternion and q.w == 1.0
    assert godot.decode(godot.encode(q, version=3), version=3, json=True)["$type"] == "Quat"
    for v in (c, p, s, a, f, q):
        assert pickle.loads(pickle.dumps(v)) == v


def test_error_offset():
    with pytest.raises(gamewire.DecodeError) as e:
        godot.decode(b"\x04\x00\x00\x00\xff\xff\x00\x00", version=4)
    assert isinstance(e.value, ValueError)
    assert e.value.offset is not None
    assert e.value.path.startswith("$")


def test_save_load(tmp_path):
    p = tmp_path / "v.bin"
    godot.save(str(p), [1, "two"])
    assert godot.load(str(p)) == [1, "two"]
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".gamewire-")]


def test_dictionary_with_non_string_keys_is_a_mapping():
    from collections.abc import Mapping

    data = godot.encode({"$type": "Dictionary", "entries": [[1, "one"], [2, "two"], [godot.Vector2([0.0, 1.0]), [3]]]})
    d = godot.decode(data)
    assert type(d) is godot.Dictionary and isinstance(d, Mapping)
    assert d[1] == "one" and d[2] == "two" and d[godot.Vector2([0.0, 1.0])] == [3]
    assert d.get(3) is None and d.get(3, "x") == "x" and 1 in d and 3 not in d
    with pytest.raises(KeyError):
        d[3]
    # Keys as Godot tells them apart: True and 1.0 are not 1.
    assert True not in d and 1.0 not in d
    assert list(d) == [1, 2, godot.Vector2([0.0, 1.0])] and len(d) == 3
    assert list(d.items())[0] == (1, "one")
    assert dict(d)[2] == "two"
    # entries stay, and it still writes, pickles, compares and hashes as a Variant.
    assert d.entries[0] == [1, "one"]
    assert godot.encode(d) == data
    back = pickle.loads(pickle.dumps(d))
    assert back == d and type(back) is godot.Dictionary and back[1] == "one"
    assert hash(back) == hash(d)
    # A key repeated on the wire reads as Godot reads it: the last value, once.
    rep = godot.decode(godot.encode({"$type": "Dictionary", "entries": [[1, "a"], [2, "b"], [1, "c"]]}))
    assert rep[1] == "c" and list(rep) == [1, 2] and len(rep) == 2
    # Unhashable keys (arrays) work too.
    arr = godot.decode(godot.encode({"$type": "Dictionary", "entries": [[[1, 2], "pair"]]}))
    assert arr[[1, 2]] == "pair" and list(arr) == [[1, 2]]
