"""Godot's encrypted (GDEC) and compressed (GCPF) files through gamewire.open/load/save:
the files godot3-server wrote, opened with password= or key=, written back unchanged."""
import json

import pytest

import gamewire
from conftest import FIXTURES

C = FIXTURES / "godot" / "containers"
KEY = bytes(range(32))


def test_load_with_a_password_or_a_key():
    values = gamewire.load(C / "godot3-password.sav", password="secret")
    assert values[0]["name"] == "hero" and values[1] == "second"
    assert gamewire.load(C / "godot3-key.sav", key=KEY)[0]["hp"] == 42
    assert gamewire.load(C / "godot3-key.sav", key=KEY.hex())[0]["hp"] == 42


def test_a_missing_or_wrong_secret_is_an_error_saying_so():
    with pytest.raises(gamewire.DecodeError, match="password"):
        gamewire.load(C / "godot3-password.sav")
    with pytest.raises(gamewire.DecodeError, match="wrong password or key"):
        gamewire.load(C / "godot3-password.sav", password="nope")
    with pytest.raises(ValueError):
        gamewire.load(C / "godot3-key.sav", key=b"short")


def test_the_environment_gives_the_secret(monkeypatch):
    monkeypatch.setenv("GAMEWIRE_GODOT_PASSWORD", "secret")
    assert gamewire.load(C / "godot3-password.sav")[1] == "second"


@pytest.mark.parametrize("mode", ["fastlz", "deflate", "zstd", "gzip"])
def test_compressed_saves_save_back_byte_exact(mode, tmp_path):
    path = C / f"godot3-{mode}.sav"
    f = gamewire.open(path)
    assert f.settings["container"]["kind"] == "compressed"
    assert f.settings["container"]["mode"] == mode
    out = tmp_path / "back.sav"
    f.save(f.value(), out)
    assert out.read_bytes() == path.read_bytes()
    # The document, with its header, encodes back with no option.
    doc = json.loads(f.document())
    assert gamewire.encode(doc) == path.read_bytes()


def test_an_encrypted_save_edited_and_saved_keeps_its_key(tmp_path):
    f = gamewire.open(C / "godot3-password.sav", password="secret")
    values = f.value()
    out = tmp_path / "same.sav"
    f.save(values, out)
    assert out.read_bytes() == (C / "godot3-password.sav").read_bytes()
    values[0]["hp"] = 99
    f.save(values, out)
    assert gamewire.load(out, password="secret")[0]["hp"] == 99
    with pytest.raises(gamewire.DecodeError):
        gamewire.load(out, password="other")
    doc = json.loads(f.document())
    assert "secret" not in json.dumps(doc["$gamewire"])
    assert gamewire.encode(doc, password="secret") == (C / "godot3-password.sav").read_bytes()


def test_text_inside_a_container_is_text():
    f = gamewire.open(C / "godot3-text-zstd.sav")
    assert f.settings["framing"] == "text"
    assert f.value() == '{"json": true, "level": 3}\n'
    assert f.encode(f.value()) == (C / "godot3-text-zstd.sav").read_bytes()
