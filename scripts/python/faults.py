#!/usr/bin/env python3
"""Minor page faults per call (getrusage's ru_minflt) of the KingsIsle workloads of bench.py.

usage: faults.py [--objects N] [--calls C] [WORKLOAD ...]

Each workload runs in a fresh interpreter: one warm-up call, then C calls, each result
dropped before the next call as bench.py does; the faults of the C calls divided by C
are the faults of one call (its result freed included). A minor fault is the kernel
giving a page to memory touched for the first time (here mostly CPython's object arenas,
mapped anew when the previous result's were given back), so the count is steady under
load while the wall time it costs is not. Workloads as in instructions.py
(``gamewire-eager``, ``gamewire-lazy``, ``katsuba-walk``, ...). Run with the interpreter
that has katsuba and the gamewire wheel built ``--release``.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from workloads import SETUP, WORKLOADS

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = SETUP + r"""
import resource
run()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(n):
    run()
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / n)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objects", type=int, default=200_000)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="gw-faults-")
    path, types = os.path.join(tmp, "bench.bin"), os.path.join(tmp, "types.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "kingsisle", "make_bind.py"), path, types, str(a.objects)], check=True)
    print(f"KingsIsle BINd: {a.objects} objects, {os.path.getsize(path) / 1e6:.1f} MB; minor page faults per call ({a.calls} calls)")
    for w in a.workloads:
        out = subprocess.run([sys.executable, "-c", CHILD, path, types, w, str(a.calls)], capture_output=True, text=True, check=True)
        per = float(out.stdout.strip())
        print(f"  {w + ':':22} {per:9.0f}  ({per * 4096 / a.objects:6.0f} bytes of new pages per object)", flush=True)


if __name__ == "__main__":
    main()
