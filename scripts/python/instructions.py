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

from workloads import SETUP, WORKLOADS

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = SETUP + r"""
run()
for _ in range(n):
    run()
"""



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
