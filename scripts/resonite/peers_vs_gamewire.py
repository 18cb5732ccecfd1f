#!/usr/bin/env python3
"""Decode the same Resonite containers with the Python peers (lzma/lz4.block/brotli +
pymongo's bson) and with `gamewire bench resonite`, side by side; print MB/s and ratios.

usage: scripts/resonite/peers_vs_gamewire.py [GAMEWIRE_BINARY] [SLOTS]
The containers are made by the peers (tests/peers.py helpers) from a generated data tree.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "crates", "gamewire-resonite", "tests"))
import peers  # noqa: E402
import bson  # noqa: E402
import brotli  # noqa: E402
from bson.int64 import Int64  # noqa: E402


def tree(n):
    def field(i, v):
        return {"ID": f"f-{i:08x}", "Data": v}

    def slot(i):
        return {
            "ID": f"s-{i:08x}",
            "Components": field(i, [{"Type": i % 6, "Data": {"ID": f"c-{i}", "Enabled": field(i, True),
                                                             "Value": field(i, [0.5, 1.5, i * 0.25])}}]),
            "Name": field(i, f"Slot {i}"), "Active": field(i, True),
            "Position": field(i, [float(i), 0.0, -1.0]), "Rotation": field(i, [0.0, 0.0, 0.0, 1.0]),
            "Scale": field(i, [1.0, 1.0, 1.0]), "OrderOffset": field(i, Int64(0)),
            "ParentReference": "root", "Children": [],
        }
    return {"VersionNumber": "2024.8.5.1346", "Types": ["A", "B", "C", "D", "E", "F"],
            "Object": {"ID": "root", "Children": [slot(i) for i in range(n)]}}


def main():
    gw = sys.argv[1] if len(sys.argv) > 1 else "target/release/gamewire"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 60000
    raw = bson.encode(tree(n))
    print(f"data tree: {len(raw)} bytes of BSON ({n} slots)")
    header = lambda c: b"FrDT\0\0\0\0" + bytes([c])
    files = {
        "lz4": (header(1) + peers.lz4_pack(raw), lambda d: peers.lz4_unpack(d[9:])),
        "brotli": (header(3) + brotli.compress(raw, quality=9, lgwin=16), lambda d: brotli.decompress(d[9:])),
        "lzma": (header(2) + peers.lzma_pack(raw), lambda d: peers.lzma_unpack(d[9:])),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (data, unpack) in files.items():
            times = []
            for _ in range(3):
                t = time.perf_counter()
                bson.decode(unpack(data))
                times.append(time.perf_counter() - t)
            py = statistics.median(times)
            path = os.path.join(tmp, "x." + name)
            with open(path, "wb") as f:
                f.write(data)
            out = subprocess.run([gw, "bench", "resonite", path], check=True, capture_output=True, text=True).stdout
            ms = float(re.search(r"decode: median\s+([\d.]+) ms", out).group(1))
            gws = ms / 1000
            print(f"{name:7s} python peers {len(raw) / 1e6 / py:8.1f} MB/s   gamewire {len(raw) / 1e6 / gws:8.1f} MB/s"
                  f"   gamewire is {py / gws:5.2f}x faster")


if __name__ == "__main__":
    main()
