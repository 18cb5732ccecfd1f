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

The contenders run in turn within each of R rounds (after one warm-up round), so a change
of machine load touches all of them alike; each time is the median over the rounds and
each ratio the median of the per-round ratios, peer / gamewire (above 1: gamewire faster). Run with the venv that has katsuba and the gamewire wheel
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


def rounds(fns, runs):
    """Times each of ``fns`` (name -> callable) once per round, in turn; returns
    name -> list of times."""
    for fn in fns.values():
        fn()  # warm-up
    times = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return times


def report(times, mb, width=32):
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name + ':':{width}} {m:8.3f} s  {mb / m:7.1f} MB/s")


def ratio(times, peer, ours):
    return statistics.median(p / o for p, o in zip(times[peer], times[ours]))


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
    fns = {
        "gamewire decode": lambda: kingsisle.decode(data, types=tl),
        "gamewire decode(json=True)": lambda: kingsisle.decode(data, types=tl, json=True),
    }
    try:
        import katsuba.op as op
    except ImportError:
        op = None
        print("  katsuba not installed (pip install katsuba): no comparison")
    if op is not None:
        opts = op.SerializerOptions()
        opts.flags = 1
        opts.shallow = False
        ser = op.Serializer(opts, op.TypeList.open(types))
        body = data[4:]
        fns["katsuba deserialize (lazy)"] = lambda: ser.deserialize(body)
        fns["katsuba deserialize + read all"] = lambda: walk_katsuba(ser.deserialize(body))
    times = rounds(fns, runs)
    report(times, mb)
    if op is not None:
        print(f"  ratio katsuba lazy / gamewire decode:     {ratio(times, 'katsuba deserialize (lazy)', 'gamewire decode'):5.2f}x")
        print(f"  ratio katsuba read-all / gamewire decode: {ratio(times, 'katsuba deserialize + read all', 'gamewire decode'):5.2f}x")


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
    report(rounds({"gamewire decode": lambda: godot.decode(data),
                   "gamewire decode(json=True)": lambda: godot.decode(data, json=True)}, runs), mb)
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
    print(f"gamewire from {os.path.dirname(gamewire.__file__)}; load average {os.getloadavg()[0]:.2f}")
    bench_kingsisle(a.objects, a.runs)
    bench_godot(a.godot_values, a.runs)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
