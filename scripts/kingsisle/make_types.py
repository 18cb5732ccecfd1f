#!/usr/bin/env python3
"""Writes a large wiztype v2 type list: the classes of TYPES.json plus N filler classes
of 24 properties each (about the size of a whole game's dump at N = 10,000), to time
type list loading.

usage: make_types.py TYPES.json OUT.json [N=10000]
"""
import json
import sys

src, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
doc = json.load(open(src))
kinds = ["unsigned int", "int", "std::string", "float", "bool", "class Vector3D",
         "enum Kind", "class SharedPointer<class Other>"]
for c in range(n):
    name = f"class Filler{c}"
    props = {}
    for i in range(24):
        ty = kinds[(c + i) % len(kinds)]
        p = {"type": ty, "id": i, "offset": 8 * i, "flags": 31, "container": "Static",
             "dynamic": False, "pointer": False, "hash": (c * 7919 + i * 104729) & 0x7FFFFFFF,
             "enum_options": {}}
        if ty.startswith("enum"):
            p["enum_options"] = {f"Option{k}": k for k in range(6)}
        props[f"m_member{i}"] = p
    h = (c * 2654435761 + 12345) & 0xFFFFFFFF
    doc["classes"][str(h)] = {"name": name, "bases": ["PropertyClass"], "hash": h,
                              "singleton": False, "properties": props}
json.dump(doc, open(out, "w"), indent=1)
