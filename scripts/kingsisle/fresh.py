#!/usr/bin/env python3
"""Runs a command RUNS times, each in a fresh process, and prints the median wall time
and the median CPU time (user + system of the child) in seconds.

usage: fresh.py LABEL RUNS CMD [ARGS...]   (the command's stdout goes to /dev/null)
Prints `LABEL: fresh process, median S s wall, S s CPU (N runs; min S s wall)`.
"""
import os
import statistics
import subprocess
import sys
import time

label, runs, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
walls, cpus = [], []
for _ in range(runs):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    walls.append(time.perf_counter() - t)
    if status != 0:
        sys.exit(f"{label}: {cmd} failed with status {status}")
    cpus.append(ru.ru_utime + ru.ru_stime)
print(f"{label}: fresh process, median {statistics.median(walls):.3f} s wall, "
      f"{statistics.median(cpus):.3f} s CPU ({runs} runs; min {min(walls):.3f} s wall)")
