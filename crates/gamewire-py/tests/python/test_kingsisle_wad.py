"""KIWAD archives: ``kingsisle.Wad`` reads katsuba's test archive and what ``kingsisle.pack``
writes; the other tools agree: wizwad and katsuba read our archives, we and katsuba read
wizwad's, every entry equal; katsuba decodes the objects in our archives as we do.
Peers (katsuba, wizwad) are skipped when absent, required under GAMEWIRE_REQUIRE_PEERS=1."""
import os
import shutil

import pytest

import gamewire
from gamewire import kingsisle
from conftest import FIXTURES, SAMPLES
from test_kingsisle import BLOBS, TYPES, enum_options, options, ours_plain, theirs_plain

WADS = FIXTURES / "kingsisle" / "wad"


def peer(module, pip):
    if os.environ.get("GAMEWIRE_REQUIRE_PEERS") == "1":
        return __import__(module, fromlist=["_"])
    return pytest.importorskip(module, reason=f"{module} not installed (pip install {pip})")


@pytest.fixture
def folder(tmp_path):
    """katsuba's ObjectProperty blobs, the sample BINd file, text, an .mp3 and an empty
    file, in nested folders."""
    src = tmp_path / "src"
    (src / "ObjectData" / "Blobs").mkdir(parents=True)
    for b in BLOBS:
        shutil.copy(b, src / "ObjectData" / "Blobs" / b.name)
    shutil.copy(SAMPLES / "kingsisle" / "item.bin", src / "ObjectData" / "item.bin")
    (src / "Sound").mkdir()
    (src / "Sound" / "music.mp3").write_bytes(b"ID3" + bytes(range(1, 200)))
    (src / "readme.txt").write_text("a text entry " * 100)
    (src / "empty.txt").write_bytes(b"")
    return src


def files(src):
    return {p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*") if p.is_file()}


def test_katsubas_test_archive():
    w = kingsisle.Wad(WADS / "Test.wad")
    assert w.names() == ["subdir/subdir_text1.txt", "text1.txt", "text2.txt", "uncompressed.mp3"]
    assert w["text1.txt"] == b"this is text1\n"
    assert w.info("uncompressed.mp3")["compressed"] is False
    assert w.header() == {"version": 1, "flags": None}
    assert "text2.txt" in w and "nope" not in w and len(w) == 4
    assert dict(w)["uncompressed.mp3"] == b"uncompressed data\n"
    with pytest.raises(KeyError):
        w["nope"]
    with pytest.raises(gamewire.DecodeError, match="past the end"):
        kingsisle.Wad(WADS / "oob.wad")
    with pytest.raises(OSError):
        kingsisle.Wad(WADS / "missing.wad")


@pytest.mark.parametrize("version", [1, 2])
def test_pack_and_read_back(folder, tmp_path, version):
    out = tmp_path / "ours.wad"
    want = files(folder)
    assert kingsisle.pack(folder, out, version=version) == len(want)
    w = kingsisle.Wad(out)
    assert w.header()["version"] == version
    assert w.names() == sorted(want)
    assert {n: w[n] for n in w} == want
    assert w.info("Sound/music.mp3")["compressed"] is False
    assert w.info("readme.txt")["compressed"] is True
    # decode gives what kingsisle.decode gives for the entry's bytes.
    b = BLOBS[0]
    name = "ObjectData/Blobs/" + b.name
    assert w.decode(name, types=TYPES, **options(b)) == kingsisle.decode(b.read_bytes(), types=TYPES, **options(b))
    with pytest.raises(ValueError, match="flags byte"):
        kingsisle.pack(folder, tmp_path / "x.wad", version=1, flags=3)


def test_placeholder_entries_read_as_none(folder, tmp_path):
    out = tmp_path / "ours.wad"
    kingsisle.pack(folder, out)
    w = kingsisle.Wad(out)
    i = w.info("readme.txt")
    data = bytearray(out.read_bytes())
    data[i["offset"] : i["offset"] + i["compressed_size"]] = bytes(i["compressed_size"])
    out.write_bytes(bytes(data))
    w = kingsisle.Wad(out)
    assert w.read("readme.txt") is None
    with pytest.raises(ValueError, match="placeholder"):
        w.decode("readme.txt", types=TYPES)


def test_wizwad_and_katsuba_read_our_archives(folder, tmp_path):
    wizwad = peer("wizwad", "wizwad")
    kwad = peer("katsuba.wad", "katsuba")
    want = files(folder)
    for version in (1, 2):
        out = tmp_path / f"ours{version}.wad"
        kingsisle.pack(folder, out, version=version)
        k = kwad.Archive.mmap(str(out))
        assert len(k) == len(want)
        assert {n: bytes(k[n]) for n in k} == want
        with wizwad.Wad(out) as z:
            assert sorted(z.name_list()) == sorted(want)
            assert {n: z.read(n) for n in z.name_list()} == want


def test_we_and_katsuba_read_wizwads_archives(folder, tmp_path):
    wizwad = peer("wizwad", "wizwad")
    kwad = peer("katsuba.wad", "katsuba")
    want = files(folder)
    for version in (1, 2):
        out = tmp_path / f"wizwad{version}.wad"
        wizwad.Wad.from_full_add(folder, out, wad_version=version, workers=2)
        w = kingsisle.Wad(out)
        assert w.header()["version"] == version
        assert {n: w[n] for n in w} == want
        k = kwad.Archive.mmap(str(out))
        assert {n: bytes(k[n]) for n in k} == want


def test_katsuba_decodes_the_objects_in_our_archive_as_we_do(folder, tmp_path):
    kwad = peer("katsuba.wad", "katsuba")
    op = peer("katsuba.op", "katsuba")
    out = tmp_path / "ours.wad"
    kingsisle.pack(folder, out)
    ours, theirs = kingsisle.Wad(out), kwad.Archive.mmap(str(out))
    tl = op.TypeList.open(TYPES)
    enums = enum_options()
    for b in BLOBS:
        o = options(b)
        so = op.SerializerOptions()
        so.shallow, so.flags, so.property_mask, so.manual_compression = o["shallow"], o["flags"], o["property_mask"], o["zlib"]
        name = "ObjectData/Blobs/" + b.name
        got = theirs.deserialize(name, op.Serializer(so, tl))
        assert ours_plain(ours.decode(name, types=TYPES, **o), enums) == theirs_plain(got), name


SAMPLE_TYPES = str(SAMPLES / "kingsisle" / "types.json")
EFFECTS_XML = """<?xml version="1.0" encoding="UTF-8"?>
<Objects>
  <Class Name="class SampleEffect">
    <m_effectType>3</m_effectType><m_amount>-25</m_amount><m_area>1,2,3,4</m_area>
  </Class>
  <Class Name="class SampleEffect">
    <m_effectType>7</m_effectType><m_amount>100</m_amount><m_area>0,0,10,-10</m_area>
  </Class>
</Objects>
"""


def test_xml_object_entries_decode_to_a_list_of_objects(tmp_path):
    src = tmp_path / "src"
    (src / "ObjectData").mkdir(parents=True)
    (src / "ObjectData" / "Effects.xml").write_text(EFFECTS_XML)
    shutil.copy(SAMPLES / "kingsisle" / "item.bin", src / "ObjectData" / "item.bin")
    (src / "notes.xml").write_text("<notes><note>not an object file</note></notes>")
    out = tmp_path / "ours.wad"
    kingsisle.pack(src, out)
    w = kingsisle.Wad(out)
    name = "ObjectData/Effects.xml"
    objs = w.decode(name, types=SAMPLE_TYPES)
    assert isinstance(objs, list) and len(objs) == 2
    assert all(isinstance(o, kingsisle.Object) and o.type_name == "class SampleEffect" for o in objs)
    assert objs[0].type_hash == 1134298167
    assert dict(objs[0]) == {"m_effectType": 3, "m_amount": -25,
                             "m_area": {"left": 1, "top": 2, "right": 3, "bottom": 4}}
    assert objs[1]["m_area"] == {"left": 0, "top": 0, "right": 10, "bottom": -10}
    # The same as kingsisle.decode of the entry's bytes, and lazily and as JSON alike.
    assert objs == kingsisle.decode(w[name], types=SAMPLE_TYPES)
    lazy = w.decode(name, types=SAMPLE_TYPES, lazy=True)
    assert [o.to_python() for o in lazy] == objs
    assert lazy[1]["m_amount"] == 100
    j = w.decode(name, types=SAMPLE_TYPES, json=True)
    assert [o["$class"] for o in j] == ["class SampleEffect"] * 2
    assert j[0]["m_area"] == objs[0]["m_area"] and j[1]["m_amount"] == 100
    # What the one library reads from the same file, extracted.
    extracted = tmp_path / "Effects.xml"
    extracted.write_bytes(w[name])
    (tmp_path / "types.json").write_bytes((SAMPLES / "kingsisle" / "types.json").read_bytes())
    assert gamewire.load(extracted, json=True) == j
    # A BINd entry beside it still gives its root object; other XML is refused.
    assert w.decode("ObjectData/item.bin", types=SAMPLE_TYPES).type_name == "class SampleItem"
    with pytest.raises(gamewire.DecodeError):
        w.decode("notes.xml", types=SAMPLE_TYPES)
    # A damaged XML object file is an error naming where.
    bad = EFFECTS_XML.replace("<m_amount>-25</m_amount>", "<m_amount>x</m_amount>")
    with pytest.raises(gamewire.DecodeError):
        kingsisle.decode(bad.encode(), types=SAMPLE_TYPES)
