"""Resonite: every sample round-trips byte-exact with its recorded container."""
import os
import pickle

import pytest

import gamewire
from gamewire import resonite
from conftest import SAMPLES

FILES = sorted((SAMPLES / "resonite").iterdir())


def test_there_are_samples():
    assert len(FILES) >= 7


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sample_round_trips(path):
    data = path.read_bytes()
    doc = resonite.decode(data, name=path.name)
    c = resonite.container(data, name=path.name)
    assert c["legacy"] == path.name.startswith("legacy-")
    assert resonite.encode(doc, **c) == data
    assert resonite.encode(resonite.decode(data, name=path.name, json=True), **c) == data
    assert gamewire.load(str(path)) == doc
    back = pickle.loads(pickle.dumps(doc))
    assert back == doc and resonite.encode(back, **c) == data


def test_int_kinds_kept_apart():
    doc = {"i32": 5, "i64": resonite.Int64(5), "big": 3000000000, "d": 5.0, "nan": float("nan"),
           "bin": b"\x00\x01", "dup": resonite.Entries([("a", 1), ("a", 2)]), "dollar": resonite.Entries([("$x", 1)])}
    back = resonite.decode(resonite.encode(doc, compression="none"))
    assert type(back["i32"]) is int and back["i32"] == 5
    assert type(back["i64"]) is resonite.Int64 and back["i64"] == 5 and repr(back["i64"]) == "Int64(5)"
    assert type(back["big"]) is resonite.Int64
    assert type(back["d"]) is float and back["nan"] != back["nan"]
    assert back["bin"] == b"\x00\x01"
    assert back["dup"] == resonite.Entries([("a", 1), ("a", 2)]) and back["dollar"] == resonite.Entries([("$x", 1)])
    assert pickle.loads(pickle.dumps(back["i64"])) == 5 and type(pickle.loads(pickle.dumps(back["i64"]))) is resonite.Int64
    assert resonite.encode(back, compression="none") == resonite.encode(doc, compression="none")
    plain = resonite.decode(resonite.encode(doc, compression="none"), json=True)
    assert plain["i64"] == {"$numberLong": "5"}


def test_error_offset():
    data = (SAMPLES / "resonite" / "item.frdt").read_bytes()
    with pytest.raises(gamewire.DecodeError) as e:
        resonite.decode(data[:-3], name="item.frdt")
    assert e.value.offset is not None


def test_save_load(tmp_path):
    p = tmp_path / "x.lz4bson"
    doc = {"a": 1, "b": [1.5, "s"], "c": resonite.Int64(5)}
    resonite.save(str(p), doc)
    assert resonite.container(p.read_bytes(), name=p.name)["compression"] == "lz4"
    assert resonite.load(str(p)) == doc
    assert type(resonite.load(str(p))["c"]) is resonite.Int64
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".gamewire-")]


def test_load_takes_json_like_decode():
    path = SAMPLES / "resonite" / "item.brson"
    as_json = resonite.load(str(path), json=True)
    assert as_json == resonite.decode(path.read_bytes(), name=path.name, json=True)
    # Extended JSON ({"$numberLong": ...}), where load without json gives Int64.
    assert "$numberLong" in str(as_json) and as_json != resonite.load(str(path))
    c = resonite.container(path.read_bytes(), name=path.name)
    assert resonite.encode(as_json, **c) == path.read_bytes()
