#!/usr/bin/env python3
"""KIWAD archives side by side: gamewire (CLI and Python), katsuba's Python binding and
wizwad on the same generated archive (default 20,000 entries, about 500 MB inflated):
listing, unpacking everything, and decoding every ObjectProperty entry. Prints medians
of wall and CPU time and the ratios (theirs / ours).

usage: scripts/kingsisle/wad_bench.py [ENTRIES=20000] [MB=500] [RUNS=3]

The archive is generated here (not committed), in $TMPDIR/gamewire-wad-bench: half its
entries are deep BINd files (scripts/kingsisle/make_bind.py, 20 to 400 objects each,
with the type list they need), half filler files (half random bytes, half text, so zlib
halves them), packed by `gamewire kingsisle wad pack` (zlib level 9, as the game and
wizwad pack). Needs python3 with gamewire (maturin develop or the wheel), katsuba and
wizwad; builds the release CLI. Outputs go under the same folder ($TMPDIR=/dev/shm keeps
the disk out of the unpacking figures).
"""
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "scripts", "kingsisle")
ENTRIES = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
MB = int(sys.argv[2]) if len(sys.argv) > 2 else 500
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
WORK = os.path.join(os.environ.get("TMPDIR", "/tmp"), "gamewire-wad-bench")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
GW = os.path.join(TARGET, "release", "gamewire")


def generate():
    """The folder of files and its archive (reused when the sizes match)."""
    stamp = os.path.join(WORK, f"made-{ENTRIES}-{MB}")
    wad = os.path.join(WORK, "bench.wad")
    types = os.path.join(WORK, "types.json")
    if os.path.exists(stamp):
        return wad, types
    shutil.rmtree(WORK, ignore_errors=True)
    src = os.path.join(WORK, "src")
    os.makedirs(src)
    rng = random.Random(27)
    binds = []
    for k, n in enumerate([20, 50, 100, 200, 400]):
        p = os.path.join(WORK, f"seed{k}.bin")
        subprocess.run([sys.executable, os.path.join(HERE, "make_bind.py"), p, types, str(n)],
                       check=True, stdout=subprocess.DEVNULL)
        binds.append(open(p, "rb").read())
    objects = ENTRIES // 2
    object_bytes = sum(len(binds[i % len(binds)]) for i in range(objects))
    filler = ENTRIES - objects
    each = max(1, (MB * 1_000_000 - object_bytes) // filler)
    text = (b"The quick brown fox jumps over the lazy dog; Wizard101 zone data. " * (each // 64 + 1))
    for i in range(ENTRIES):
        folder = os.path.join(src, f"Zone{i % 40:02d}", "ObjectData" if i < objects else "Assets")
        os.makedirs(folder, exist_ok=True)
        if i < objects:
            data, name = binds[i % len(binds)], f"Object{i:05d}.bin"
        else:
            half = each // 2
            data, name = rng.randbytes(half) + text[: each - half], f"Asset{i:05d}.dat"
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    subprocess.run([GW, "kingsisle", "wad", "pack", src, "-o", wad], check=True)
    shutil.rmtree(src)
    open(stamp, "w").close()
    return wad, types


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed_process(argv):
    """Wall and CPU seconds of a whole process."""
    c0, t0 = cpu_children(), time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, cpu_children() - c0


# Each Python measurement runs in its own process (imports done, archive not yet open)
# and prints {"wall", "cpu"} for the timed part.
PY = r"""
import json, os, sys, time
tool, what, wad, types, out = sys.argv[1:6]
def done(t0, c0):
    print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}))
if tool == "gamewire":
    from gamewire import kingsisle
    tl = kingsisle.TypeList(types)
elif tool == "katsuba":
    import katsuba.wad as kw, katsuba.op as op
    so = op.SerializerOptions(); so.shallow = False; so.flags = 1
    ser = op.Serializer(so, op.TypeList.open(types))
else:
    import wizwad
t0, c0 = time.perf_counter(), time.process_time()
if what == "list":
    if tool == "gamewire":
        names = kingsisle.Wad(wad).names()
    elif tool == "katsuba":
        names = list(kw.Archive.mmap(wad))
    else:
        names = wizwad.Wad(wad).name_list()
    assert len(names) > 0
elif what == "unpack":
    if tool == "wizwad":
        wizwad.Wad(wad).extract_all(out)
    else:
        a = kingsisle.Wad(wad) if tool == "gamewire" else kw.Archive.mmap(wad)
        made = set()
        for n in a:
            d = os.path.join(out, os.path.dirname(n))
            if d not in made:
                os.makedirs(d, exist_ok=True); made.add(d)
            with open(os.path.join(out, n), "wb") as f:
                f.write(a[n])
elif what in ("decode", "decode-eager"):
    if tool == "gamewire":
        a = kingsisle.Wad(wad)
        lazy = what == "decode"
        n = sum(1 for name in a.names() if name.endswith(".bin") and a.decode(name, types=tl, lazy=lazy) is not None)
    else:
        a = kw.Archive.mmap(wad)
        # katsuba's Serializer does not read the BINd magic: the bytes after it, with
        # the stateful flags BINd files use.
        n = sum(1 for name in a if name.endswith(".bin") and ser.deserialize(a[name][4:]) is not None)
    assert n > 0
done(t0, c0)
"""


def timed_python(tool, what, wad, types, out):
    r = subprocess.run([sys.executable, "-c", PY, tool, what, wad, types, out],
                       check=True, capture_output=True, text=True)
    j = json.loads(r.stdout.strip().splitlines()[-1])
    return j["wall"], j["cpu"]


def median(f, runs, out=None):
    walls, cpus = [], []
    for _ in range(runs):
        if out:
            shutil.rmtree(out, ignore_errors=True)
        w, c = f()
        walls.append(w)
        cpus.append(c)
    if out:
        shutil.rmtree(out, ignore_errors=True)
    return statistics.median(walls), statistics.median(cpus)


def main():
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "gamewire-cli"], cwd=ROOT, check=True)
    wad, types = generate()
    out = os.path.join(WORK, "out")
    size = os.path.getsize(wad)
    print(f"archive: {wad}, {size / 1e6:.0f} MB on disk, {ENTRIES} entries, about {MB} MB inflated")
    print(f"load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; runs: {RUNS}; medians")
    rows = {}
    cases = {
        "list": [
            ("gamewire CLI (list --json, whole process)", lambda: timed_process([GW, "kingsisle", "wad", "list", "--json", wad])),
            ("gamewire Python (Wad.names)", lambda: timed_python("gamewire", "list", wad, types, out)),
            ("katsuba Python (list(Archive.mmap))", lambda: timed_python("katsuba", "list", wad, types, out)),
            ("wizwad (Wad.name_list)", lambda: timed_python("wizwad", "list", wad, types, out)),
        ],
        "unpack": [
            ("gamewire CLI (wad unpack, whole process)", lambda: timed_process([GW, "kingsisle", "wad", "unpack", wad, "-o", out])),
            ("gamewire CLI (wad unpack -j 1, one worker)", lambda: timed_process([GW, "kingsisle", "wad", "unpack", wad, "-o", out, "-j", "1"])),
            ("gamewire Python (read each, write)", lambda: timed_python("gamewire", "unpack", wad, types, out)),
            ("katsuba Python (read each, write)", lambda: timed_python("katsuba", "unpack", wad, types, out)),
            ("wizwad (extract_all)", lambda: timed_python("wizwad", "unpack", wad, types, out)),
        ],
        "decode": [
            ("gamewire Python (Wad.decode lazy=True)", lambda: timed_python("gamewire", "decode", wad, types, out)),
            ("gamewire Python (Wad.decode, eager)", lambda: timed_python("gamewire", "decode-eager", wad, types, out)),
            ("katsuba Python (Serializer.deserialize)", lambda: timed_python("katsuba", "decode", wad, types, out)),
            ("gamewire CLI (convert --types: every object to JSON, the rest extracted)",
             lambda: timed_process([GW, "convert", wad, "--out-dir", out, "--types", types, "-q"])),
        ],
    }
    for what, tools in cases.items():
        print(f"--- {what}")
        for name, f in tools:
            w, c = median(f, RUNS, out if what != "list" else None)
            rows[(what, name)] = (w, c)
            print(f"{name:75} wall {w:8.3f} s  cpu {c:8.3f} s  (load {os.getloadavg()[0]:.1f})")
    def ratio(what, theirs, ours):
        (tw, tc), (ow, oc) = rows[(what, theirs)], rows[(what, ours)]
        print(f"{what}: {theirs} / {ours}: wall {tw / ow:.2f}x, cpu {tc / oc:.2f}x")
    print("--- ratios (theirs / ours)")
    for theirs in ("katsuba Python (list(Archive.mmap))", "wizwad (Wad.name_list)"):
        ratio("list", theirs, "gamewire Python (Wad.names)")
    for theirs in ("katsuba Python (read each, write)", "wizwad (extract_all)"):
        ratio("unpack", theirs, "gamewire CLI (wad unpack, whole process)")
        ratio("unpack", theirs, "gamewire Python (read each, write)")
    for ours in ("gamewire Python (Wad.decode lazy=True)", "gamewire Python (Wad.decode, eager)"):
        ratio("decode", "katsuba Python (Serializer.deserialize)", ours)
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
