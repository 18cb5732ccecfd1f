#!/usr/bin/env python3
"""Times katsuba's decoder (Python binding) on a BINd file: median of RUNS runs.

usage: katsuba_decode.py FILE.bin TYPES.json [RUNS=5]
Prints `katsuba decode: median S s  X MB/s  (min S s, median CPU S s)` and the
first run's wall and CPU time (the process's first decode, as a one-shot run meets it).
"""
import statistics
import sys
import time

import katsuba.op as op

path, types_path = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
data = open(path, "rb").read()
types = op.TypeList.open(types_path)
opts = op.SerializerOptions()
opts.flags = 1  # BINd: stateful flags, deep mode
opts.shallow = False
ser = op.Serializer(opts, types)
body = data[4:]
t, c = time.perf_counter(), time.process_time()
v = ser.deserialize(body)
first = (time.perf_counter() - t, time.process_time() - c)
del v
times, cpu = [], []
for _ in range(runs):
    t, c = time.perf_counter(), time.process_time()
    v = ser.deserialize(body)
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
    del v
med = statistics.median(times)
print(f"katsuba decode: median {med:.3f} s  {len(data) / 1e6 / med:.1f} MB/s"
      f"  (min {min(times):.3f} s, median CPU {statistics.median(cpu):.3f} s)")
print(f"katsuba decode: first run {first[0]:.3f} s wall, {first[1]:.3f} s CPU")
