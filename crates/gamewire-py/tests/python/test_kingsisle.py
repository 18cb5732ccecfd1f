"""KingsIsle: every katsuba fixture and the sample round-trip byte-exact; errors carry
offsets (the should-fail fixtures included); decodes agree with katsuba (when installed)
on every fixture."""
import json
import os
import pickle
import shutil

import pytest

import gamewire
from gamewire import kingsisle
from conftest import FIXTURES, SAMPLES

KATSUBA = FIXTURES / "kingsisle" / "katsuba"
TYPES = str(KATSUBA / "types.json")


def options(path):
    c = json.loads(path.with_name(path.name[: -len(".bin")] + ".config.json").read_text())
    return dict(shallow=c["shallow"], zlib=c["compress"], flags=c["flags"], property_mask=c["property_mask"])


BLOBS = sorted(KATSUBA.glob("*.bin"))


def test_there_are_fixtures():
    assert len(BLOBS) == 28


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_fixture_round_trips(path):
    data = path.read_bytes()
    o = options(path)
    value = kingsisle.decode(data, types=TYPES, **o)
    assert isinstance(value, kingsisle.Object) and value.type_name and value.type_hash
    assert kingsisle.encode(value, types=TYPES, **o) == data
    back = pickle.loads(pickle.dumps(value))
    assert back == value and back.type_name == value.type_name
    assert kingsisle.encode(back, types=TYPES, **o) == data
    plain = kingsisle.decode(data, types=TYPES, json=True, **o)
    assert type(plain) is dict and plain["$class"] == value.type_name
    assert kingsisle.encode(plain, types=TYPES, **o) == data


def test_object_class():
    path = KATSUBA / "strings-shallow.bin"
    o = options(path)
    value = kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    other = kingsisle.Object("class Other", dict(value), value.type_hash)
    assert other != value and dict(other) == dict(value)
    assert repr(value).startswith(f"Object({value.type_name!r}, {{")
    # type_hash may be left out: encode finds it by name.
    named = kingsisle.Object(value.type_name, value)
    assert kingsisle.encode(named, types=TYPES, **o) == path.read_bytes()


def test_types_as_text():
    path = KATSUBA / "all-scalars-deep.bin"
    o = options(path)
    a = kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    b = kingsisle.decode(path.read_bytes(), types=(KATSUBA / "types.xml").read_text(), **o)
    assert a == b


def test_sample_and_load_finds_types(tmp_path):
    path = SAMPLES / "kingsisle" / "item.bin"
    value = gamewire.load(str(path))
    assert kingsisle.encode(value, types=str(SAMPLES / "kingsisle" / "types.json")) == path.read_bytes()
    lone = tmp_path / "item.bin"
    shutil.copy(path, lone)
    with pytest.raises(gamewire.DecodeError):
        kingsisle.load(str(lone))


def test_error_offset():
    path = KATSUBA / "all-scalars-deep.bin"
    with pytest.raises(gamewire.DecodeError) as e:
        kingsisle.decode(path.read_bytes()[:-6], types=TYPES, **options(path))
    assert e.value.offset is not None


def test_save_load(tmp_path):
    path = KATSUBA / "strings-shallow.bin"
    o = options(path)
    value = kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    p = tmp_path / "s.bin"
    kingsisle.save(str(p), value, types=TYPES, **o)
    assert p.read_bytes() == path.read_bytes()
    assert kingsisle.load(str(p), types=TYPES, **o) == value


def enum_options():
    """(class hash, property name) -> {option name: value} of the fixtures' type list."""
    out = {}
    for c in json.loads((KATSUBA / "types.json").read_text())["classes"].values():
        for name, p in c["properties"].items():
            if p.get("enum_options"):
                out[(c["hash"], name)] = {k: int(v) for k, v in p["enum_options"].items()}
    return out


def ours_plain(v, enums, opts=None):
    """gamewire's value in katsuba's terms: objects as dicts with "$hash", enum names as
    their values (katsuba gives enums as numbers)."""
    if isinstance(v, kingsisle.Object):
        return {"$hash": v.type_hash, **{k: ours_plain(x, enums, enums.get((v.type_hash, k))) for k, x in v.items() if not k.startswith("$")}}
    if isinstance(v, list):
        return [ours_plain(x, enums, opts) for x in v]
    if isinstance(v, str) and opts is not None:
        return sum(opts[n] for n in v.split("|"))
    return v


def theirs_plain(v):
    """katsuba's lazy value built: std::string bytes as text (gamewire gives UTF-8 as str)."""
    t = type(v).__name__
    if t == "LazyObject":
        return {"$hash": v.type_hash, **{k: theirs_plain(x) for k, x in v.items()}}
    if t == "LazyList":
        return [theirs_plain(x) for x in v]
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            return v
    return v


@pytest.mark.parametrize("path", BLOBS, ids=lambda p: p.name)
def test_agrees_with_katsuba(path):
    if os.environ.get("GAMEWIRE_REQUIRE_PEERS") == "1":
        import katsuba.op as op
    else:
        op = pytest.importorskip("katsuba.op", reason="katsuba not installed (pip install katsuba)")
    o = options(path)
    so = op.SerializerOptions()
    so.shallow, so.flags, so.property_mask, so.manual_compression = o["shallow"], o["flags"], o["property_mask"], o["zlib"]
    theirs = op.Serializer(so, op.TypeList.open(TYPES)).deserialize(path.read_bytes())
    ours = kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    want = theirs_plain(theirs)
    assert ours_plain(ours, enum_options()) == want
    # The lazy decode reads the same.
    lazy = kingsisle.decode(path.read_bytes(), types=TYPES, lazy=True, **o)
    assert ours_plain(lazy.to_python(), enum_options()) == want


@pytest.mark.parametrize("path", sorted((KATSUBA / "should-fail").glob("*.bin")), ids=lambda p: p.name)
@pytest.mark.parametrize("lazy", [False, True])
def test_should_fail_fixtures_fail_with_offsets(path, lazy):
    with pytest.raises(gamewire.DecodeError) as e:
        kingsisle.decode(path.read_bytes(), types=TYPES, lazy=lazy, **options(path))
    assert e.value.offset is not None, str(e.value)


def test_type_list_read_once():
    tl = kingsisle.TypeList(TYPES)
    assert len(tl) == kingsisle.check_types(TYPES) and "classes" in repr(tl)
    path = KATSUBA / "all-scalars-deep.bin"
    o = options(path)
    value = kingsisle.decode(path.read_bytes(), types=tl, **o)
    assert value == kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    assert kingsisle.encode(value, types=tl, **o) == path.read_bytes()
    with pytest.raises(TypeError):
        kingsisle.decode(path.read_bytes(), types=5, **o)


def test_non_utf8_string_is_bytes():
    path = KATSUBA / "strings-shallow.bin"
    o = options(path)
    value = kingsisle.decode(path.read_bytes(), types=TYPES, **o)
    value["m_string"] = b"\xff\xfeok"
    data = kingsisle.encode(value, types=TYPES, **o)
    back = kingsisle.decode(data, types=TYPES, **o)
    assert back["m_string"] == b"\xff\xfeok"
    assert kingsisle.decode(data, types=TYPES, json=True, **o)["m_string"] == {"$bytes": "fffe6f6b"}
    assert kingsisle.encode(back, types=TYPES, **o) == data
