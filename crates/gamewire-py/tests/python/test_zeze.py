"""Zeze: every bean vector of tests/fixtures/zeze/vectors and sample round-trips byte-exact;
errors carry offsets."""
import json
import os
import pickle

import pytest

import gamewire
from gamewire import zeze
from conftest import FIXTURES, SAMPLES

SOLUTION = str(SAMPLES / "zeze" / "zeze-solution.xml")


def vectors():
    v = json.loads((FIXTURES / "zeze" / "vectors" / "vectors.json").read_text(encoding="utf-8"))
    return [bytes.fromhex(b["hex"]) for b in v["beans"]]


def test_shared_beans_round_trip():
    beans = vectors()
    assert len(beans) == 4
    for data in beans:
        value = zeze.decode(data)
        assert isinstance(value, zeze.Bean)
        assert zeze.encode(value) == data
        assert zeze.encode(zeze.decode(data, json=True)) == data
        back = pickle.loads(pickle.dumps(value))
        assert back == value and zeze.encode(back) == data


def test_bean_classes():
    bean = zeze.Bean({1: 150, 3: "hi", 4: zeze.Float(1.5), 5: -2.0, 6: b"\xff\x00",
                      7: zeze.List([1, 2], "int"), 8: zeze.Map([("k", zeze.Bean({1: 7}))], "bytes", "bean"),
                      9: zeze.Vector3(1.0, 2.0, 3.0), 10: zeze.Dynamic(5, zeze.Bean({1: 1}))},
                     base=zeze.Bean({1: 2}))
    back = zeze.decode(zeze.encode(bean))
    assert back == bean and back.base == zeze.Bean({1: 2})
    assert type(back[4]) is zeze.Float and type(back[5]) is float and back[6] == b"\xff\x00"
    assert back[7].elem_type == "int" and back[8].value_type == "bean" and back[10].type_id == 5
    assert back[9] == zeze.Vector3(1.0, 2.0, 3.0) and back[9] != zeze.Vector3Int(1, 2, 3)
    assert repr(back[4]) == "Float(1.5)" and repr(back[9]) == "Vector3(1.0, 2.0, 3.0)"
    assert pickle.loads(pickle.dumps(back)) == bean
    assert zeze.encode(pickle.loads(pickle.dumps(back))) == zeze.encode(bean)


@pytest.mark.parametrize("path", sorted((SAMPLES / "zeze").glob("*.zeze")), ids=lambda p: p.name)
def test_samples_round_trip(path):
    data = path.read_bytes()
    frames = path.name.endswith(".frames.zeze")
    value = zeze.decode(data, frames=frames)
    assert zeze.encode(value, frames=frames) == data
    # Opened as the CLI opens it: typed by the solution beside it where it names the bean
    # (or declares the frames' protocols), and written back the same.
    f = gamewire.open(str(path))
    assert f.settings["solution"]["path"].endswith("zeze-solution.xml")
    assert f.encode(gamewire.load(str(path))) == data


def test_typed_with_schema():
    data = (SAMPLES / "zeze" / "BSimple.zeze").read_bytes()
    value = zeze.decode(data, schema=SOLUTION, bean="BSimple")
    assert isinstance(value, dict) and value
    assert zeze.encode(value, schema=SOLUTION, bean="BSimple") == data
    with pytest.raises(ValueError):
        zeze.decode(data, schema=SOLUTION)


def test_error_offset():
    data = vectors()[0]
    with pytest.raises(gamewire.DecodeError) as e:
        zeze.decode(data[:-4])
    assert e.value.offset is not None


def test_save_load(tmp_path):
    value = zeze.decode(vectors()[0])
    p = tmp_path / "b.zeze"
    zeze.save(str(p), value)
    assert zeze.load(str(p)) == value
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".gamewire-")]
