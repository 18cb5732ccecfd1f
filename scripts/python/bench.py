#!/usr/bin/env python3
"""Side-by-side decode speed of the gamewire Python package and its Python peers.

usage: bench.py [--objects N] [--runs R] [--godot-values N] [--fresh F]

KingsIsle: one BINd file of N objects made by scripts/kingsisle/make_bind.py, decoded by
katsuba's Python binding (katsuba.op.Serializer.deserialize, BINd options: flags 1, deep)
and by gamewire.kingsisle.decode. Three workloads, each timed for both:

- lazy: the decode call alone. katsuba's ``deserialize`` returns a lazy object whose
  Python values are made on access; so does ``gamewire.kingsisle.decode(lazy=True)``.
- touch: the lazy decode, then a few fields read (the list's length, and the three
  properties of its first, middle and last object).
- read all: the lazy decode, then every property of every object read (for gamewire
  also its eager ``decode``, which returns every value built).

The type list is loaded once outside the timing for both (katsuba.op.TypeList,
gamewire.kingsisle.TypeList). The first call in a fresh process is timed in F new
interpreters per contender (import and type list outside the timing, the file read
before it), median reported.

Godot: gdtype (the pure-Python Godot Variant reader) is timed against
gamewire.godot.decode when it imports; it is not on PyPI (`pip install gdtype`: no
matching distribution), so without it only gamewire's figures are printed.

The contenders run in turn within each of R rounds (after one warm-up round), so a change
of machine load touches all of them alike; each time is the median over the rounds and
each ratio the median of the per-round ratios, peer / gamewire (above 1: gamewire faster). Run with the venv that has katsuba and the gamewire wheel
built with `--release` (maturin build --release, then pip install the wheel).

Wall time under load swings; scripts/python/instructions.py counts the same KingsIsle
workloads' instructions per call with callgrind, which stay steady under load.
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


def walk_gamewire(v, lazy_object=kingsisle.LazyObject, lazy_list=kingsisle.LazyList):
    """Reads every value of a gamewire LazyObject/LazyList (building its Python values)."""
    t = type(v)
    if t is lazy_object:
        for _, x in v.items():
            walk_gamewire(x)
    elif t is lazy_list:
        for x in v:
            walk_gamewire(x)


def walk_eager(v, obj=kingsisle.Object):
    """Reads every value of gamewire's eager value (already built)."""
    t = type(v)
    if t is obj:
        for _, x in v.items():
            walk_eager(x)
    elif t is list:
        for x in v:
            walk_eager(x)


def touch(root):
    """Reads a few fields: the list's length and three objects' properties."""
    items = root["m_items"]
    n = len(items)
    return [(o["m_id"], o["m_count"], o["m_name"]) for o in (items[0], items[n // 2], items[n - 1])]


# The first decode in a fresh interpreter: imports, type list and file read untimed.
FRESH = {
    "gamewire": """
import sys, time
from gamewire import kingsisle
tl = kingsisle.TypeList(sys.argv[2]); data = open(sys.argv[1], "rb").read()
t = time.perf_counter(); v = kingsisle.decode(data, types=tl, lazy=True); {work}
print(time.perf_counter() - t)
""",
    "gamewire eager": """
import sys, time
from gamewire import kingsisle
tl = kingsisle.TypeList(sys.argv[2]); data = open(sys.argv[1], "rb").read()
t = time.perf_counter(); v = kingsisle.decode(data, types=tl); {work}
print(time.perf_counter() - t)
""",
    "katsuba": """
import sys, time
import katsuba.op as op
o = op.SerializerOptions(); o.flags = 1; o.shallow = False
ser = op.Serializer(o, op.TypeList.open(sys.argv[2])); data = open(sys.argv[1], "rb").read()[4:]
t = time.perf_counter(); v = ser.deserialize(data); {work}
print(time.perf_counter() - t)
""",
}
WALK = {
    "gamewire": "\ndef w(v):\n    t = type(v).__name__\n    if t == 'LazyObject':\n        for _, x in v.items(): w(x)\n    elif t == 'LazyList':\n        for x in v: w(x)\n",
}
WALK["katsuba"] = WALK["gamewire"]


def fresh(kind, work, path, types, count):
    """Median first-call time over ``count`` new interpreters."""
    code = FRESH[kind]
    walk = WALK.get(kind.split()[0], "")
    body = {"call": "pass", "touch": "v['m_items'][0]['m_id']", "read all": "w(v)"}[work]
    code = walk + code.format(work=body if not (kind == "gamewire eager" and work == "read all") else "pass")
    times = []
    for _ in range(count):
        out = subprocess.run([sys.executable, "-c", code, path, types], check=True, capture_output=True, text=True)
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


def bench_kingsisle(n, runs, fresh_runs):
    tmp = tempfile.mkdtemp(prefix="gw-bench-")
    path, types = os.path.join(tmp, "bench.bin"), os.path.join(tmp, "types.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "kingsisle", "make_bind.py"), path, types, str(n)], check=True)
    data = open(path, "rb").read()
    mb = len(data) / 1e6
    print(f"KingsIsle BINd: {n} objects, {mb:.1f} MB")
    tl = kingsisle.TypeList(types)
    fns = {
        "gamewire decode(lazy=True)": lambda: kingsisle.decode(data, types=tl, lazy=True),
        "gamewire lazy + touch": lambda: touch(kingsisle.decode(data, types=tl, lazy=True)),
        "gamewire lazy + read all": lambda: walk_gamewire(kingsisle.decode(data, types=tl, lazy=True)),
        "gamewire decode (eager)": lambda: kingsisle.decode(data, types=tl),
        "gamewire eager + read all": lambda: walk_eager(kingsisle.decode(data, types=tl)),
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
        assert touch(ser.deserialize(body)) == [(a, b, c.encode()) for a, b, c in touch(kingsisle.decode(data, types=tl, lazy=True))]
        fns["katsuba deserialize (lazy)"] = lambda: ser.deserialize(body)
        fns["katsuba lazy + touch"] = lambda: touch(ser.deserialize(body))
        fns["katsuba lazy + read all"] = lambda: walk_katsuba(ser.deserialize(body))
    built = kingsisle.decode(data, types=tl)
    fns["(walk of gamewire's built values alone)"] = lambda: walk_eager(built)
    times = rounds(fns, runs)
    report(times, mb, width=40)
    if op is not None:
        for what, k, g in [
            ("lazy call", "katsuba deserialize (lazy)", "gamewire decode(lazy=True)"),
            ("lazy + touch", "katsuba lazy + touch", "gamewire lazy + touch"),
            ("read all, lazy", "katsuba lazy + read all", "gamewire lazy + read all"),
            ("read all, gamewire eager call", "katsuba lazy + read all", "gamewire decode (eager)"),
            ("read all, gamewire eager + read all", "katsuba lazy + read all", "gamewire eager + read all"),
            ("katsuba lazy call / gamewire eager", "katsuba deserialize (lazy)", "gamewire decode (eager)"),
        ]:
            print(f"  ratio katsuba / gamewire, {what + ':':40} {ratio(times, k, g):5.2f}x")
    if fresh_runs:
        print(f"  first call in a fresh process (median of {fresh_runs}):")
        for work in ("call", "touch", "read all"):
            row = {kind: fresh(kind, work, path, types, fresh_runs) for kind in FRESH if op is not None or kind != "katsuba"}
            cells = "  ".join(f"{k} {v * 1000:7.1f} ms" for k, v in row.items())
            extra = f"  katsuba / gamewire {row['katsuba'] / row['gamewire']:5.2f}x" if "katsuba" in row else ""
            print(f"    {work + ':':9} {cells}{extra}")


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
    ap.add_argument("--fresh", type=int, default=5, help="fresh interpreters per first-call figure (0: none)")
    a = ap.parse_args()
    print(f"gamewire from {os.path.dirname(gamewire.__file__)}; load average {os.getloadavg()[0]:.2f}")
    bench_kingsisle(a.objects, a.runs, a.fresh)
    bench_godot(a.godot_values, a.runs)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
