"""gamewire.godot.Pack and project.binary: packs made by the CLI (every format), read
from Python; project.binary decoded, encoded back byte-exact, seen through gamewire.load."""
import os
import subprocess

import pytest

import gamewire
from gamewire import godot
from conftest import FIXTURES

REAL = FIXTURES / "godot" / "real"


def test_project_binary_round_trips_and_loads():
    data = (REAL / "cell-game.project.binary").read_bytes()
    settings = godot.decode_project_binary(data)
    assert settings["application/config/name"] == "Cell Game"
    assert isinstance(settings["application/config/features"], godot.PackedStringArray)
    assert list(settings)[0] == "application/config/name"
    assert godot.encode_project_binary(settings, version=4) == data
    f = gamewire.open(REAL / "cell-game.project.binary")
    assert f.settings == {"format": "godot4", "framing": "project_binary"}
    assert f.value() == settings
    assert f.encode(f.value()) == data
    assert gamewire.load(REAL / "cell-game.project.binary", json=True)["application/config/name"] == "Cell Game"


def _pack(tmp_path, fmt):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True, exist_ok=True)
    (src / "project.binary").write_bytes((REAL / "cell-game.project.binary").read_bytes())
    (src / "sub" / "a.txt").write_bytes(b"hello\n")
    out = tmp_path / f"p{fmt}.pck"
    exe = os.environ.get("GAMEWIRE_BIN", "gamewire")
    subprocess.run([exe, "godot", "pck", "pack", str(src), "-o", str(out), "--format", str(fmt)],
                   check=True, capture_output=True)
    return out


@pytest.mark.parametrize("fmt", [1, 2, 3, 4])
def test_pack_reads_every_format(tmp_path, fmt):
    if not os.environ.get("GAMEWIRE_BIN"):
        pytest.skip("GAMEWIRE_BIN not set (the CLI packs the test's pack)")
    pack = godot.Pack.open(_pack(tmp_path, fmt))
    assert pack.info["format"] == fmt
    assert pack.names() == ["project.binary", "sub/a.txt"]
    assert "res://sub/a.txt" in pack and len(pack) == 2
    assert pack.read("res://sub/a.txt") == b"hello\n"
    entries = {e["name"]: e for e in pack.entries()}
    assert entries["project.binary"]["format"] == "godot4 (project.binary, 8 settings)"
    assert entries["sub/a.txt"]["format"] is None and len(entries["sub/a.txt"]["md5"]) == 32
    assert pack.decode("project.binary")["application/config/name"] == "Cell Game"
    with pytest.raises(gamewire.DecodeError, match="no entry"):
        pack.read("missing.txt")


def test_damaged_pack_is_a_clear_error():
    with pytest.raises(gamewire.DecodeError, match="not a Godot pack"):
        godot.Pack(b"not a pack at all")
    with pytest.raises(gamewire.DecodeError, match="truncated"):
        godot.Pack(b"GDPC\x03\x00\x00\x00")
