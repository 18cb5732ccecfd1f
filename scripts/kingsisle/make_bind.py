#!/usr/bin/env python3
"""Writes a deep BINd file of N nested objects and the type list it needs.

usage: make_bind.py OUT.bin TYPES.json [N=1000000]

The root (class BenchRoot) holds a list of N objects (class BenchItem: an id, a
count and a short name; 46 bytes each on average), written the way the game writes BINd files:
magic, flags word 1, then deep mode (object and property sizes in bits).
"""
import json
import struct
import sys


def string_id(text):
    state = 0
    for i, b in enumerate(text.encode()):
        v = (b - 32) & 0xFFFFFFFF
        sh = (i * 5) & 31
        if sh:
            v = ((v << sh) | (v >> (32 - sh))) & 0xFFFFFFFF
        state ^= v
    if state & 0x80000000:
        state = (1 << 32) - state
    return state & 0xFFFFFFFF


def djb2(text):
    h = 5381
    for b in text.encode():
        h = (h * 33 + b) & 0xFFFFFFFF
    return h & 0x7FFFFFFF


def prop(name, ty, pid, dynamic=False):
    return name, {
        "type": ty, "id": pid, "offset": 8 + 8 * pid, "flags": 31,
        "container": "List" if dynamic else "Static", "dynamic": dynamic,
        "pointer": ty.startswith("class SharedPointer"),
        "hash": (string_id(ty) + djb2(name)) & 0xFFFFFFFF, "enum_options": {},
    }


ITEM = "class BenchItem"
ROOT = "class BenchRoot"
ITEM_PROPS = [prop("m_id", "unsigned int", 0), prop("m_count", "int", 1),
              prop("m_name", "std::string", 2)]
ROOT_PROPS = [prop("m_items", "class SharedPointer<class BenchItem>", 0, True)]


def main():
    out, types_out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    classes = {}
    for name, props in ((ITEM, ITEM_PROPS), (ROOT, ROOT_PROPS)):
        h = string_id(name)
        classes[str(h)] = {"name": name, "bases": ["PropertyClass"], "hash": h,
                           "singleton": False, "properties": dict(props)}
    with open(types_out, "w") as f:
        json.dump({"version": 2, "classes": classes}, f, indent=1)

    ih = string_id(ITEM)
    ph = [p[1]["hash"] for p in ITEM_PROPS]
    items = []
    for i in range(n):
        name = b"n%d" % (i % 1000)
        body = b"".join([
            struct.pack("<III", 96, ph[0], i),
            struct.pack("<IIi", 96, ph[1], (i * 7919) % 100000 - 50000),
            struct.pack("<IIH", 64 + 16 + 8 * len(name), ph[2], len(name)) + name,
        ])
        items.append(struct.pack("<II", ih, 32 + 8 * len(body)) + body)
    lst = b"".join(items)
    prop_body = struct.pack("<I", len(items)) + lst
    prop_bytes = struct.pack("<II", 64 + 8 * len(prop_body), ROOT_PROPS[0][1]["hash"]) + prop_body
    root = struct.pack("<II", string_id(ROOT), 32 + 8 * len(prop_bytes)) + prop_bytes
    with open(out, "wb") as f:
        f.write(b"BINd" + struct.pack("<I", 1) + root)


main()
