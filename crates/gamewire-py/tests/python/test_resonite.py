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
    assert gamewire.load(str(path)) == doc
    assert pickle.loads(pickle.dumps(doc)) == doc


def test_error_offset():
    data = (SAMPLES / "resonite" / "item.frdt").read_bytes()
    with pytest.raises(gamewire.DecodeError) as e:
        resonite.decode(data[:-3], name="item.frdt")
    assert e.value.offset is not None


def test_save_load(tmp_path):
    p = tmp_path / "x.lz4bson"
    doc = {"a": 1, "b": [1.5, "s"], "c": {"$numberLong": "5"}}
    resonite.save(str(p), doc)
    assert resonite.container(p.read_bytes(), name=p.name)["compression"] == "lz4"
    assert resonite.load(str(p)) == doc
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".gamewire-")]
