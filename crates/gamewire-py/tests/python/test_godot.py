"""Godot: every shared fixture round-trips byte-exact; errors carry offsets."""
import os
import pathlib

import pytest

import gamewire
from gamewire import godot

FIXTURES = pathlib.Path(os.environ.get("GAMEWIRE_FIXTURES", pathlib.Path(__file__).resolve().parents[4] / ".." / "shared" / "fixtures"))


def vectors(name):
    out = []
    for line in (FIXTURES / "godot" / name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        out.append(bytes.fromhex(line.split("\t")[0]))
    assert out, name
    return out


@pytest.mark.parametrize("name,version", [("godot3-engine-vectors.tsv", 3), ("godot4-vectors.tsv", 4)])
def test_fixtures_round_trip(name, version):
    for data in vectors(name):
        value = godot.decode(data, version=version)
        assert godot.encode(value, version=version) == data


def test_native_and_tagged_values():
    assert godot.decode(godot.encode({"a": [1, 2.5, "x", None, True]})) == {"a": [1, 2.5, "x", None, True]}
    v = godot.decode(godot.encode({"$type": "Vector3", "value": [1.0, 2.0, 3.0]}))
    assert v == {"$type": "Vector3", "value": [1.0, 2.0, 3.0]}
    assert isinstance(godot.encode(1.0), bytes) and godot.encode(1.0) != godot.encode(1)


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
