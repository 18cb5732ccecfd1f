#!/usr/bin/env python3
"""Independent peers for gamewire's Resonite containers.

Uses Python's lzma (raw LZMA1), lz4.block, brotli and pymongo's bson, never gamewire.

  peers.py read FILE...   unpack each FrDT/legacy file; print one JSON line per file:
                          {"file", "compression", "legacy", "bson_file", "reencodes", "ejson"}
                          (the raw BSON is written to FILE.peer.bson)
  peers.py make DIR       write containers made by the peers (each compression, FrDT and
                          legacy) plus expected.bson, the BSON they all hold
"""
import datetime
import json
import lzma
import os
import struct
import sys

import brotli
import bson
import lz4.block
from bson import json_util
from bson.binary import Binary
from bson.codec_options import CodecOptions
from bson.int64 import Int64

OPTS = CodecOptions(tz_aware=True)
EXT = {".lz4bson": 1, ".7zbson": 2, ".brson": 3, ".frdt": 0}


def varint(data, pos):
    result = shift = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def put_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def lz4_unpack(data):
    out = bytearray()
    pos = 0
    while pos < len(data):
        flags, pos = varint(data, pos)
        orig, pos = varint(data, pos)
        if flags & 1:
            comp, pos = varint(data, pos)
            out += lz4.block.decompress(data[pos:pos + comp], uncompressed_size=orig)
            pos += comp
        else:
            out += data[pos:pos + orig]
            pos += orig
    return bytes(out)


def lz4_pack(data, chunk=1 << 20):
    out = bytearray()
    for i in range(0, len(data), chunk):
        part = data[i:i + chunk]
        comp = lz4.block.compress(part, mode="high_compression", store_size=False)
        if len(comp) < len(part):
            out += put_varint(3) + put_varint(len(part)) + put_varint(len(comp)) + comp
        else:
            out += put_varint(2) + put_varint(len(part)) + part
    return bytes(out)


def lzma_filters(props):
    b = props[0]
    lc, rest = b % 9, b // 9
    lp, pb = rest % 5, rest // 5
    dict_size = struct.unpack("<I", props[1:5])[0]
    return [{"id": lzma.FILTER_LZMA1, "lc": lc, "lp": lp, "pb": pb, "dict_size": dict_size}]


def lzma_unpack(data):
    props = data[:5]
    usize, csize = struct.unpack("<qq", data[5:21])
    body = data[21:21 + csize]
    dec = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=lzma_filters(props))
    out = dec.decompress(body, max_length=usize if usize >= 0 else -1)
    if usize >= 0 and len(out) != usize:
        raise ValueError(f"LZMA gave {len(out)} bytes, header says {usize}")
    return out


def lzma_pack(data):
    props = bytes([(2 * 5 + 0) * 9 + 3]) + struct.pack("<I", 1 << 21)
    body = lzma.compress(data, format=lzma.FORMAT_RAW, filters=lzma_filters(props))
    return props + struct.pack("<qq", len(data), len(body)) + body


def unpack(path, data):
    ext = os.path.splitext(path)[1].lower()
    if data[:4] == b"FrDT":
        (version,) = struct.unpack("<i", data[4:8])
        assert version == 0, version
        comp, pos = varint(data, 8)
        payload, legacy = data[pos:], False
    else:
        comp, payload, legacy = EXT[ext], data, True
    raw = {0: lambda d: d, 1: lz4_unpack, 2: lzma_unpack, 3: brotli.decompress}[comp](payload)
    return comp, legacy, raw


def read(paths):
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        comp, legacy, raw = unpack(path, data)
        doc = bson.decode(raw, codec_options=OPTS)
        with open(path + ".peer.bson", "wb") as f:
            f.write(raw)
        print(json.dumps({
            "file": path,
            "compression": comp,
            "legacy": legacy,
            "bson_file": path + ".peer.bson",
            "reencodes": bson.encode(doc, codec_options=OPTS) == raw,
            "ejson": json_util.dumps(doc, json_options=json_util.CANONICAL_JSON_OPTIONS),
        }))


def sample():
    slots = []
    for i in range(40):
        slots.append({
            "ID": f"slot-{i:04d}",
            "Name": {"ID": f"name-{i}", "Data": f"Slot {i} \u00e9\u6f22"},
            "Active": {"ID": f"act-{i}", "Data": i % 2 == 0},
            "Position": {"ID": f"pos-{i}", "Data": [float(i), -0.5, 1e-7]},
            "OrderOffset": {"ID": f"ord-{i}", "Data": Int64(i * 1000)},
            "Children": [],
        })
    return {
        "VersionNumber": "2024.8.5.1346",
        "FeatureFlags": {"ColorManagement": 0, "ProtoFlux": 0},
        "Types": ["[FrooxEngine]FrooxEngine.Grabbable"],
        "ints": [0, -1, 2147483647, -2147483648],
        "longs": [Int64(0), Int64(-1), Int64(2**63 - 1), Int64(-2**63), Int64(5)],
        "doubles": [0.0, -0.0, 1.5, 1e300, 5e-324, float("inf"), float("-inf")],
        "when": datetime.datetime(2024, 3, 1, 12, 30, 15, 123000, tzinfo=datetime.timezone.utc),
        "blob": Binary(bytes(range(256)), 0),
        "uuid": Binary(bytes(range(16)), 4),
        "none": None,
        "flag": False,
        "empty": {},
        "empty_list": [],
        "Object": {"ID": "root", "Children": slots},
        "big": "x" * 1_500_000,
    }


def make(out_dir):
    raw = bson.encode(sample(), codec_options=OPTS)
    header = lambda c: b"FrDT" + struct.pack("<i", 0) + put_varint(c)
    files = {
        "peer-lz4.lz4bson": header(1) + lz4_pack(raw),
        "peer-lzma.7zbson": header(2) + lzma_pack(raw),
        "peer-brotli.brson": header(3) + brotli.compress(raw, quality=9, lgwin=16),
        "peer-none.frdt": header(0) + raw,
        "peer-legacy.lz4bson": lz4_pack(raw),
        "peer-legacy.7zbson": lzma_pack(raw),
        "peer-legacy.brson": brotli.compress(raw, quality=9, lgwin=16),
    }
    for name, data in files.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
    with open(os.path.join(out_dir, "expected.bson"), "wb") as f:
        f.write(raw)


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2:])
    elif sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        sys.exit(__doc__)
