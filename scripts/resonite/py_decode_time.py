#!/usr/bin/env python3
"""Wall time of Python's ``gamewire.resonite.decode`` on one file, steady state.

usage: py_decode_time.py FILE [RUNS]

Reads FILE, calls ``gamewire.resonite.decode(data, name=...)`` once to warm up, then RUNS
times (5 by default), each result dropped before the next call; prints the median,
minimum and maximum, and the minor page faults per call (``getrusage``'s ``ru_minflt``,
steady under load). Make a big file with ``cargo run --release -p gamewire --example
resonite_open -- make big.frdt 25000 none`` (or ``big.lz4bson 25000 lz4``); run with
the interpreter that has the gamewire wheel built ``--release`` (``maturin build
--release`` in crates/gamewire-py, then ``pip install`` the wheel, or ``pip install
--target DIR`` and ``PYTHONPATH=DIR`` to compare two builds).
"""
import resource
import statistics
import sys
import time

from gamewire import resonite


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    name = path.rsplit("/", 1)[-1]
    with open(path, "rb") as f:
        data = f.read()
    resonite.decode(data, name=name)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        value = resonite.decode(data, name=name)
        times.append(time.perf_counter() - t)
        del value
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) // runs
    print(
        f"{name}: median {statistics.median(times) * 1e3:.0f} ms "
        f"(min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f}, {runs} runs), "
        f"{faults} minor faults per call"
    )


if __name__ == "__main__":
    main()
