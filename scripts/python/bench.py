#!/usr/bin/env python3
"""Side-by-side decode speed of the gamewire Python package and its Python peers.

usage: bench.py [--objects N] [--runs R] [--godot-values N]

KingsIsle: one BINd file of N objects made by scripts/kingsisle/make_bind.py, decoded by
katsuba's Python binding (katsuba.op.Serializer.deserialize, BINd options: flags 1, deep)
and by gamewire.kingsisle.decode. katsuba returns a lazy object whose Python values are
built on access, so it is timed twice: the call alone, and the call plus reading every
property of every object (what gamewire's decode returns already built). The type list is
loaded once outside the timing for both (katsuba.op.TypeList, gamewire.kingsisle.TypeList).

Godot: gdtype (the pure-Python Godot Variant reader) is timed against
gamewire.godot.decode when it imports; it is not on PyPI (`pip install gdtype`: no
matching distribution), so without it only gamewire's figures are printed.

Each figure is the median of R runs (after one warm-up run); ratios are peer / gamewire
(above 1: gamewire faster). Run with the venv that has katsuba and the gamewire wheel
built with `--release` (maturin build --release, then pip install the wheel).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import gamewire
from gamewire import godot, kingsisle

HERE = os.path.dirname(os.path.abspath(__file__))


def median_time(fn, runs):
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def walk_katsuba(v):
    """Reads every value of a katsuba LazyObject/LazyList (building its Python values)."""
    t = type(v).__name__
    if t == "LazyObject":
        for _, x in v.items():
            walk_katsuba(x)
    elif t == "LazyList":
        for x in v:
            walk_katsuba(x)


def bench_kingsisle(n, runs):
    tmp = tempfile.mkdtemp(prefix="gw-bench-")
    path, types = os.path.join(tmp, "bench.bin"), os.path.join(tmp, "types.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "kingsisle", "make_bind.py"), path, types, str(n)], check=True)
    data = open(path, "rb").read()
    mb = len(data) / 1e6
    print(f"KingsIsle BINd: {n} objects, {mb:.1f} MB")
    tl = kingsisle.TypeList(types)
    ours = median_time(lambda: kingsisle.decode(data, types=tl), runs)
    ours_json = median_time(lambda: kingsisle.decode(data, types=tl, json=True), runs)
    print(f"  gamewire decode:               {ours:8.3f} s  {mb / ours:7.1f} MB/s")
    print(f"  gamewire decode(json=True):    {ours_json:8.3f} s  {mb / ours_json:7.1f} MB/s")
    try:
        import katsuba.op as op
    except ImportError:
        print("  katsuba not installed (pip install katsuba): no comparison")
        return
    opts = op.SerializerOptions()
    opts.flags = 1
    opts.shallow = False
    ser = op.Serializer(opts, op.TypeList.open(types))
    body = data[4:]
    lazy = median_time(lambda: ser.deserialize(body), runs)
    full = median_time(lambda: walk_katsuba(ser.deserialize(body)), runs)
    print(f"  katsuba deserialize (lazy):    {lazy:8.3f} s  {mb / lazy:7.1f} MB/s")
    print(f"  katsuba deserialize + read all:{full:8.3f} s  {mb / full:7.1f} MB/s")
    print(f"  ratio katsuba lazy / gamewire:     {lazy / ours:5.2f}x")
    print(f"  ratio katsuba read-all / gamewire: {full / ours:5.2f}x")


def bench_godot(n, runs):
    value = {
        "players": [
            {"name": f"p{i}", "hp": i, "pos": godot.Vector3([float(i), 2.0, 3.0]), "tags": ["a", "b"], "speed": 1.5}
            for i in range(n)
        ],
        "grid": godot.PackedInt32Array(range(n)),
    }
    data = godot.encode(value)
    mb = len(data) / 1e6
    print(f"Godot 4 Variant: {n} dictionaries, {mb:.1f} MB")
    ours = median_time(lambda: godot.decode(data), runs)
    print(f"  gamewire decode:               {ours:8.3f} s  {mb / ours:7.1f} MB/s")
    try:
        import gdtype  # noqa: F401
    except ImportError:
        print("  gdtype not installed (not on PyPI): no comparison")
        return
    print("  gdtype is installed but this script has no adapter for its API yet")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objects", type=int, default=200_000)
    ap.add_argument("--godot-values", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    print(f"gamewire from {os.path.dirname(gamewire.__file__)}; load: {os.getloadavg()[0]:.2f}")
    bench_kingsisle(a.objects, a.runs)
    bench_godot(a.godot_values, a.runs)


if __name__ == "__main__":
    main()
