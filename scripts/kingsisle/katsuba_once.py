#!/usr/bin/env python3
"""One katsuba decode of a BINd file in this (fresh) process: import, type list load,
read, `Serializer.deserialize`. With `--json`, also turns the value into JSON on stdout
(katsuba's Python binding has no JSON writer: its lazy objects are walked into Python
dicts and lists and written with the json module).

usage: katsuba_once.py FILE.bin TYPES.json [--json]
Without --json prints `katsuba once: S ms wall, S ms CPU` for the deserialize call.
"""
import sys
import time

import katsuba.op as op

path, types_path = sys.argv[1], sys.argv[2]
types = op.TypeList.open(types_path)
opts = op.SerializerOptions()
opts.flags = 1  # BINd: stateful flags, deep mode
opts.shallow = False
ser = op.Serializer(opts, types)
data = open(path, "rb").read()
t, c = time.perf_counter(), time.process_time()
v = ser.deserialize(data[4:])
wall, cpu = time.perf_counter() - t, time.process_time() - c

if "--json" in sys.argv[3:]:
    import json

    def plain(x):
        if isinstance(x, op.LazyObject):
            d = {"$__type": x.type_hash}
            for k, val in x.items():
                d[k] = plain(val)
            return d
        if isinstance(x, op.LazyList):
            return [plain(e) for e in x]
        if isinstance(x, (bytes, bytearray)):
            return x.decode("utf-8", "replace")
        if isinstance(x, (int, float, str, bool)) or x is None:
            return x
        return str(x)

    json.dump(plain(v), sys.stdout, separators=(",", ":"))
else:
    print(f"katsuba once: {wall * 1e3:.3f} ms wall, {cpu * 1e3:.3f} ms CPU")
