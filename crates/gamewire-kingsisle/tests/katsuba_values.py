"""Decodes blobs with katsuba (the Python binding) and prints their values as JSON.

stdin: {"types": [paths], "cases": [{"file", "flags", "mask", "shallow", "manual"}]}
stdout: a JSON list, one {"ok": value} or {"err": message} per case. Objects become
{"$type": hash, ...properties}; std::string bytes become "b:<hex>"; leaf structs a dict
of their fields.
"""
import json
import sys

import katsuba.op as op


LAZY_LIST = getattr(op, "LazyList", ())


def conv(v):
    # katsuba 0.4 returns LazyObject/LazyList; later versions a dict subclass with
    # `type_hash` and plain lists and dicts. Both shapes are handled.
    if hasattr(v, "type_hash"):
        out = {"$type": v.type_hash}
        for k, x in v.items():
            out[k] = conv(x)
        return out
    if isinstance(v, (list, tuple)) or (LAZY_LIST and isinstance(v, LAZY_LIST)):
        return [conv(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (bytes, bytearray)):
        return "b:" + bytes(v).hex()
    if isinstance(v, dict):
        return {k: conv(x) for k, x in v.items()}
    return {n: conv(getattr(v, n)) for n in dir(v) if not n.startswith("_")}


def main():
    req = json.load(sys.stdin)
    types = op.TypeList.open_many(req["types"])
    results = []
    for c in req["cases"]:
        o = op.SerializerOptions()
        o.flags = c["flags"]
        o.property_mask = c["mask"]
        o.shallow = c["shallow"]
        o.manual_compression = c["manual"]
        try:
            with open(c["file"], "rb") as f:
                data = f.read()
            results.append({"ok": conv(op.Serializer(o, types).deserialize(data))})
        except Exception as e:  # katsuba raises its own error types
            results.append({"err": f"{type(e).__name__}: {e}"})
    json.dump(results, sys.stdout)


main()
