"""O3DE: every JSON fixture decodes and encodes back to the same document; the files O3DE
saved come back byte for byte; number text, string escapes and repeated names survive."""
import math
import os
import pickle

import pytest

import gamewire
from gamewire import o3de
from conftest import REPO

O3DE = REPO / "tests" / "fixtures" / "o3de"
# ObjectStream XML files sit among the fixtures; they are not JSON.
FILES = sorted(p for p in O3DE.rglob("*") if p.is_file() and p.suffix != ".md" and not p.read_bytes().lstrip().startswith(b"<"))
# Written by O3DE itself (its PrettyWriter), so byte-exact.
SAVED = [p for p in FILES if p.suffix in (".prefab", ".material", ".scriptcanvas")]


def test_there_are_fixtures():
    assert len(FILES) >= 29 and len(SAVED) >= 17


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_round_trips(path):
    data = path.read_bytes()
    value = o3de.decode(data)
    out = o3de.encode(value, **o3de.layout(data))
    assert o3de.decode(out) == value
    assert o3de.encode(o3de.decode(out), **o3de.layout(data)) == out
    assert pickle.loads(pickle.dumps(value)) == value
    # Every file, O3DE's own or written by hand (comments, trailing commas, tabs, CRLF).
    assert out == data
    if path in SAVED:
        assert o3de.layout(data)["keep"] is None


def test_an_edit_changes_only_its_line_in_the_files_own_layout():
    # The settings registry file of O3DE's project template: comments, a trailing comma.
    data = (O3DE / "real" / "o3de-template-quality.setreg").read_bytes()
    lay = o3de.layout(data)
    assert lay["keep"] is not None and "trailing_comma" in lay["keep"]
    value = o3de.decode(data)
    value["O3DE"]["Quality"]["Groups"]["q_general"]["Default"] = 2
    out = o3de.encode(value, **lay)
    changed = [(a, b) for a, b in zip(data.split(b"\n"), out.split(b"\n")) if a != b]
    assert changed == [(b'                    "Default": 3,', b'                    "Default": 2,')]
    # CRLF and two spaces: a new member is laid out as the file is.
    data = (O3DE / "real" / "o3de-viewport-crlf.setreg").read_bytes()
    value = o3de.decode(data)
    value["O3DE"]["Viewport"]["New"] = True
    out = o3de.encode(value, **o3de.layout(data))
    assert out == data.replace(b"      ]\r\n", b'      ],\r\n      "New": true\r\n')
    with pytest.raises(ValueError, match="keep"):
        o3de.encode(value, keep="{}")


def test_number_string_and_duplicate_fidelity():
    text = b'{"a": 1, "a": [1.50, -0, 1E+2, 18446744073709551615, "\\u00e9\\/", "\\u00E9", "x\\ty"]}'
    v = o3de.decode(text)
    assert type(v) is o3de.Members and v.get("a") == 1 and len(v) == 2
    nums = v[1][1]
    assert type(nums[0]) is o3de.Number and nums[0] == 1.5 and nums[0].text == "1.50"
    assert nums[1].text == "-0" and nums[2].text == "1E+2" and nums[2] == 100.0
    assert type(nums[3]) is int and nums[3] == 18446744073709551615
    assert type(nums[4]) is o3de.String and nums[4] == "é/" and nums[4].raw == "\\u00e9\\/"
    assert nums[5] == "é" and nums[5] != nums[4]
    assert type(nums[6]) is str  # written as rapidjson writes it
    assert o3de.encode(v, compact=True) == text.replace(b": ", b":").replace(b", ", b",")
    assert repr(nums[0]) == "Number('1.50')"
    assert pickle.loads(pickle.dumps(v)) == v
    # Plain Python values are written as rapidjson writes them.
    assert o3de.encode({"x": [1.5, 2, "é\n", None, True]}, compact=True) == '{"x":[1.5,2,"é\\n",null,true]}'.encode()


def test_bad_values():
    with pytest.raises(ValueError):
        o3de.encode({"x": float("nan")})
    with pytest.raises(ValueError):
        o3de.encode({"x": o3de.String("a", "b")})  # raw text that does not read as the value
    with pytest.raises(ValueError):
        o3de.encode([o3de.Number("1.0.0")])
    with pytest.raises(TypeError):
        o3de.encode({1: 2})


def test_error_offset():
    with pytest.raises(gamewire.DecodeError) as e:
        o3de.decode(b'{\n    "a": [1, 2,,]\n}')
    assert e.value.offset == 17  # the second comma
    # One trailing comma is read, as O3DE's settings registry reads it.
    assert o3de.decode(b'{\n    "a": [1, 2,]\n}') == {"a": [1, 2]}


def test_save_load_and_detect(tmp_path):
    path = SAVED[0]
    p = tmp_path / path.name
    value = o3de.load(str(path))
    o3de.save(str(p), value, **o3de.layout(path.read_bytes()))
    assert p.read_bytes() == path.read_bytes()
    assert gamewire.load(str(p)) == value
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".gamewire-")]


def test_load_takes_json_like_decode(tmp_path):
    text = b'{"a": 1, "a": [1.50, -0, 1E+2, 7, "\\u00e9\\/"], "b": {"c": 2}}'
    p = tmp_path / "doc.json"
    p.write_bytes(text)
    plain = o3de.load(str(p), json=True)
    assert plain == o3de.decode(text, json=True)
    # Plain JSON values: a dict keeping the first of repeated names (as O3DE reads them),
    # floats for non-integer number text, str for escaped strings.
    assert type(plain) is dict and plain == {"a": 1, "b": {"c": 2}}
    nums = o3de.decode(b'[1.50, -0, 1E+2, 7, "\\u00e9\\/"]', json=True)
    assert nums == [1.5, 0.0, 100.0, 7, "é/"]
    assert [type(x) for x in nums] == [float, float, float, int, str]
    assert math.copysign(1.0, nums[1]) == -1.0
    # Without json=True, the typed document as before.
    assert type(o3de.load(str(p))) is o3de.Members
    assert o3de.encode(plain, compact=True) == b'{"a":1,"b":{"c":2}}'


LEVELS = O3DE / "real-levels"


def test_flatten_a_real_level_with_its_nested_prefab():
    level = LEVELS / "mps" / "Levels" / "SpawningPerfTest" / "SpawningPerfTest.prefab"
    f = o3de.flatten(level)
    entities = f["document"]["Entities"]
    nested = [k for k in entities if k.startswith("Instance_[414131786087]/")]
    assert "Instance_[414131786087]/ContainerEntity" in nested and len(nested) == 2
    assert all(entities[k]["Id"] == k for k in entities)
    assert "Instances" not in f["document"]
    rows = {r["path"]: r for r in f["entities"]}
    row = rows["Instance_[414131786087]/ContainerEntity"]
    assert row["instance"] == "Instance_[414131786087]"
    assert row["source"] == "Prefabs/Test_Net_Object.prefab"
    assert len({r["id"] for r in f["entities"]}) == len(f["entities"])
    assert f["summary"]["files"] == [
        "Levels/SpawningPerfTest/SpawningPerfTest.prefab",
        "Prefabs/Test_Net_Object.prefab",
    ]
    # The document encodes as O3DE JSON, and the same root alias gives other ids.
    assert o3de.encode(f["document"]).startswith(b'{\n    "ContainerEntity"')
    g = o3de.flatten(level, root_alias="Instance_[5]")
    assert {r["path"] for r in g["entities"]} == set(rows)
    assert all(r["id"] != rows[r["path"]]["id"] for r in g["entities"])


def test_flatten_names_a_failing_patch_and_keep_going_skips_it(tmp_path):
    (tmp_path / "project.json").write_text("{}")
    (tmp_path / "Child.prefab").write_text('{"ContainerEntity": {"Id": "ContainerEntity"}}')
    (tmp_path / "L.prefab").write_text(
        '{"Instances": {"Instance_[3]": {"Source": "Child.prefab", "Patches": ['
        '{"op": "replace", "path": "/Entities/Entity_[1]/Name", "value": "x"}]}}}'
    )
    with pytest.raises(gamewire.DecodeError, match=r"instance Instance_\[3\] .*patch 0 \(replace /Entities/Entity_\[1\]/Name\)"):
        o3de.flatten(tmp_path / "L.prefab")
    f = o3de.flatten(tmp_path / "L.prefab", keep_going=True)
    assert [s["index"] for s in f["summary"]["skipped"]] == [0]
    assert list(f["document"]["Entities"]) == ["Instance_[3]/ContainerEntity"]
    (tmp_path / "Cycle.prefab").write_text('{"Instances": {"Instance_[1]": {"Source": "Cycle.prefab"}}}')
    with pytest.raises(gamewire.DecodeError, match="a cycle of prefabs"):
        o3de.flatten(tmp_path / "Cycle.prefab")
