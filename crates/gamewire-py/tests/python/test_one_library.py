"""Every bundled sample and every real fixture goes through the library (Python's
``gamewire.open``, which is the Rust library's ``gamewire::open``) and the CLI
(``gamewire decode FILE`` / ``gamewire encode FILE.json``): both give the same JSON and
the same bytes back, and the engine's own bytes where the format writes them alike.
The CLI binary is named by ``GAMEWIRE_BIN`` (tests/python_package.rs builds it)."""
import json
import os
import pathlib
import subprocess

import pytest

import gamewire
from conftest import FIXTURES, SAMPLES

BIN = os.environ.get("GAMEWIRE_BIN")

SIDE = {"types.json", "types.xml", "zeze-solution.xml", "solution.xml", "o3de-registry.json"}


def _files():
    out = []
    for root in (SAMPLES, FIXTURES / "godot" / "real", FIXTURES / "resonite" / "real",
                 FIXTURES / "o3de" / "real", FIXTURES / "o3de" / "real-typed"):
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.suffix != ".md" and p.name not in SIDE:
                out.append(p)
    assert len(out) > 40, "the samples and real fixtures are where they belong"
    return out


def _pairs(items):
    # Objects as lists of pairs: member order and repeated names count.
    return list(items)


def _load(text):
    return json.loads(text, object_pairs_hook=_pairs)


# Formats whose files come back byte for byte from their JSON: all but compressed
# Resonite containers (the data comes back exactly; the compressor's bytes may differ).
def _exact(path, settings):
    if settings["format"] == "resonite":
        return settings["compression"] == "none"
    return True


def _kept(f):
    # Everything comes back as it was, O3DE files with comments, trailing commas, tabs
    # or CRLF included (their layout is in the header); no note says otherwise.
    if f.format == "o3de":
        assert not [n for n in f.notes if "laid out" in n], f.notes
    return _exact(None, f.settings)


@pytest.mark.skipif(BIN is None, reason="GAMEWIRE_BIN is not set (tests/python_package.rs sets it)")
@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(p.parents[1])))
def test_library_cli_and_python_agree(path, tmp_path):
    doc_path = tmp_path / "doc.json"
    cli = subprocess.run([BIN, "decode", "--compact", str(path), "-o", str(doc_path)],
                         capture_output=True)
    try:
        f = gamewire.open(str(path))
    except gamewire.DecodeError as e:
        assert cli.returncode != 0, f"the CLI reads what Python cannot: {e}"
        return
    if f.format == "o3de" and b"ObjectStream" in f.data[:200]:
        # The older XML serialization: both refuse to decode it, with the same reason.
        assert cli.returncode != 0
        with pytest.raises(gamewire.DecodeError):
            f.json()
        return
    assert cli.returncode == 0, cli.stderr.decode()
    doc = json.loads(doc_path.read_bytes())
    # The same settings (side files compared by content hash: the paths are relative to
    # where each document goes).
    header = dict(doc["$gamewire"])
    settings = f.settings
    for k, v in list(settings.items()):
        if isinstance(v, dict) and "sha256" in v:
            assert header[k]["sha256"] == v["sha256"], k
            header.pop(k)
            settings.pop(k)
    assert header == settings
    # The same JSON, member order and repeated names included.
    text = doc_path.read_text(encoding="utf-8")
    assert _load(text)[1][1] == _load(f.json()), "data"
    assert gamewire.load(str(path), json=True) == doc["data"]
    # The same bytes back, from the CLI's document and from Python.
    out = tmp_path / "back"
    enc = subprocess.run([BIN, "encode", str(doc_path), "-o", str(out)], capture_output=True)
    assert enc.returncode == 0, enc.stderr.decode()
    from_cli = out.read_bytes()
    from_python = f.encode_json(f.json().encode())
    assert from_cli == from_python
    assert gamewire.encode(doc_path.read_text(encoding="utf-8"), path=str(doc_path)) == from_cli
    # As a dict too (Python's json rewrites O3DE's number text, 1.0000000 as 1.0: the
    # header's texts give it back).
    assert gamewire.encode(doc, path=str(doc_path)) == from_cli
    if _kept(f):
        assert from_cli == f.data, "the engine's bytes again"
    else:
        again = gamewire.open_bytes(from_cli, path.name)
        assert _load(again.json()) == _load(f.json()), "the same data, recompressed"
    # The typed value written back with the file's settings.
    value = f.value()
    assert f.encode(value) == from_python


def test_load_reads_real_store_var_saves():
    saves = sorted((FIXTURES / "godot" / "real").glob("*.save"))
    assert len(saves) >= 8
    for p in saves:
        f = gamewire.open(str(p))
        assert f.settings["framing"] == "store_var", p.name
        values = gamewire.load(str(p))
        assert isinstance(values, list) and values, p.name
        assert f.encode(values) == p.read_bytes(), p.name


def test_floats_survive_json_without_fractions(tmp_path):
    p = FIXTURES / "godot" / "real" / "retrofps-settings.godot3.save"
    doc = gamewire.open(str(p)).document(pretty=False)
    # What jq 1.6 and JSON.stringify write: 240.0 as 240.
    stripped = doc.replace("240.0", "240").replace("10.0", "10")
    assert stripped != doc
    assert gamewire.encode(stripped) == p.read_bytes()
    assert gamewire.encode(stripped, numbers_as_written=True) != p.read_bytes()


def test_side_files_in_memory():
    item = (SAMPLES / "kingsisle" / "item.bin").read_bytes()
    types = (SAMPLES / "kingsisle" / "types.json").read_bytes()
    f = gamewire.open_bytes(item, "game/item.bin", files={"game/types.json": types})
    assert f.format == "kingsisle" and f.settings["types"]["path"] == "game/types.json"
    assert f.encode(f.value()) == item
    with pytest.raises(gamewire.DecodeError, match="type list"):
        gamewire.open_bytes(item, "game/item.bin", files={})


def test_zeze_solutions_follow_their_imports(tmp_path):
    (tmp_path / "solution.xml").write_text(
        '<solution name="demo" ModuleIdAllowRanges="1-100"><import file="more.xml"/></solution>')
    (tmp_path / "more.xml").write_text(
        '<solution name="more" ModuleIdAllowRanges="1-100"><bean name="BPoint">'
        '<variable id="1" name="x" type="int"/></bean></solution>')
    data = bytes([0x10, 0x05, 0x00])
    from gamewire import zeze
    assert zeze.decode(data, schema=str(tmp_path / "solution.xml"), bean="BPoint") == {"x": 5}
    (tmp_path / "BPoint.zeze").write_bytes(data)
    assert gamewire.load(str(tmp_path / "BPoint.zeze")) == {"x": 5}


def test_unknown_files_say_what_they_are(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_bytes(b"\x00\x01 nothing an engine wrote")
    with pytest.raises(gamewire.DecodeError) as e:
        gamewire.load(str(p))
    assert "no format recognised" in str(e.value) and "None" not in str(e.value)
