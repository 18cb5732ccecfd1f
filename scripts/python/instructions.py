#!/usr/bin/env python3
"""Instructions per call (callgrind) of the KingsIsle workloads of bench.py, steady under load.

usage: instructions.py [--objects N] [--calls C] [WORKLOAD ...]

Each workload runs in a fresh interpreter under ``valgrind --tool=callgrind`` twice, with
0 and with C calls after one warm-up call (imports, type lists, the file and the warm-up
are the same in both); the difference divided by C is the instructions of one call,
freeing its result included. The workloads (all by default):

- ``gamewire-eager``: ``kingsisle.decode(data, types=tl)`` (every value built);
- ``gamewire-eager-walk``: the same, then every value visited by a Python walk;
- ``gamewire-lazy``: ``decode(..., lazy=True)``;
- ``gamewire-lazy-walk``: the lazy call, then every value read by a Python walk;
- ``katsuba-call``: katsuba's ``Serializer.deserialize`` (values made on access);
- ``katsuba-walk``: katsuba's call, then every value read by the same walk.

Ratios are katsuba-walk over each gamewire workload (above 1: gamewire does fewer
instructions). Instruction counts leave out the kernel's work (page faults for the
memory a call touches), which wall time includes: see bench.py for wall time. Run with
the interpreter that has katsuba and the gamewire wheel built ``--release``.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys
from gamewire import kingsisle
import katsuba.op as op
path, types, what, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
tl = kingsisle.TypeList(types)
data = open(path, "rb").read()
o = op.SerializerOptions(); o.flags = 1; o.shallow = False
ser = op.Serializer(o, op.TypeList.open(types))
body = data[4:]
def walk_lazy(v):
    t = type(v).__name__
    if t == "LazyObject":
        for _, x in v.items(): walk_lazy(x)
    elif t == "LazyList":
        for x in v: walk_lazy(x)
def walk_eager(v, obj=kingsisle.Object):
    t = type(v)
    if t is obj:
        for _, x in v.items(): walk_eager(x)
    elif t is list:
        for x in v: walk_eager(x)
run = {
    "gamewire-eager": lambda: kingsisle.decode(data, types=tl),
    "gamewire-eager-walk": lambda: walk_eager(kingsisle.decode(data, types=tl)),
    "gamewire-lazy": lambda: kingsisle.decode(data, types=tl, lazy=True),
    "gamewire-lazy-walk": lambda: walk_lazy(kingsisle.decode(data, types=tl, lazy=True)),
    "katsuba-call": lambda: ser.deserialize(body),
    "katsuba-walk": lambda: walk_lazy(ser.deserialize(body)),
}[what]
run()
for _ in range(n):
    run()
"""

WORKLOADS = ["gamewire-eager", "gamewire-eager-walk", "gamewire-lazy", "gamewire-lazy-walk", "katsuba-call", "katsuba-walk"]


def instructions(path, types, what, calls):
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD, path, types, what, str(calls)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"Collected : (\d+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objects", type=int, default=50_000)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="gw-instr-")
    path, types = os.path.join(tmp, "bench.bin"), os.path.join(tmp, "types.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "kingsisle", "make_bind.py"), path, types, str(a.objects)], check=True)
    print(f"KingsIsle BINd: {a.objects} objects, {os.path.getsize(path) / 1e6:.1f} MB; instructions per call ({a.calls} calls)")
    per = {}
    for w in a.workloads:
        per[w] = (instructions(path, types, w, a.calls) - instructions(path, types, w, 0)) / a.calls
        print(f"  {w + ':':22} {per[w] / 1e6:9.1f} M  ({per[w] / a.objects:7.0f} per object)", flush=True)
    if "katsuba-walk" in per:
        for w in per:
            if w.startswith("gamewire"):
                print(f"  katsuba-walk / {w + ':':22} {per['katsuba-walk'] / per[w]:5.2f}x")


if __name__ == "__main__":
    main()
