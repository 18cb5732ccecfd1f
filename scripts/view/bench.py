#!/usr/bin/env python3
"""Times `gamewire view` on a big file through its HTTP API.

    python3 scripts/view/bench.py [--gamewire target/release/gamewire] [--mb 100] [--runs 5]
                                  [--browser]

Makes a Godot 3 save of about --mb megabytes (a list of dictionaries, the first holding a
list of 10,000 integers) with `gamewire encode godot3`, starts `gamewire view --no-browser
--port 0` on it, and reports the median wall time of:

- open: POST /api/open (read, detect, decode to the JSON document, parse it into the
  server's tree, answer the first level) -- what the page waits for before the tree shows;
- first level again: GET /api/node for the root, 200 children (the file already open);
- expand 10,000: GET /api/node for the 10,000-item list with limit 10000, and with the
  page's 200;
- search: GET /api/search for a string found once, near the end;

and the server's peak resident memory (VmHWM) after the runs. With --browser, the same
file is then timed in the page (scripts/view/bench-browser.mjs: headless chromium through
tests/peers/view's playwright-core). Figures go in docs/PERFORMANCE.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import urllib.request


def make_file(folder, mb, gamewire):
    """A Godot 3 file of about `mb` megabytes; returns its path."""
    # One item: about 110 bytes of Variant binary.
    n = max(1, int(mb * 1e6 / 110))
    items = []
    for i in range(n):
        items.append({"name": f"item {i}", "level": i, "hp": i * 0.5, "tags": ["a", "bc"]})
    items[0]["many"] = list(range(10_000))
    items[-1]["name"] = "needle in the haystack"
    src = os.path.join(folder, "big.json")
    with open(src, "w") as f:
        json.dump(items, f)
    out = os.path.join(folder, "data", "big.godot3.bin")
    os.makedirs(os.path.dirname(out))
    subprocess.run([gamewire, "encode", "godot3", src, "-o", out], check=True)
    os.remove(src)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gamewire", default="target/release/gamewire")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = make_file(tmp, args.mb, args.gamewire)
        size = os.path.getsize(path)
        server = subprocess.Popen(
            [args.gamewire, "view", "--no-browser", "--port", "0", os.path.dirname(path)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            url = server.stdout.readline().strip()
            base, token = url.split("/?token=")
            headers = {"X-Gamewire-Token": token, "Content-Type": "application/json"}
            fid = "0/big.godot3.bin"

            def call(path, body=None):
                data = None if body is None else json.dumps(body).encode()
                req = urllib.request.Request(base + path, data=data, headers=headers)
                t = time.perf_counter()
                with urllib.request.urlopen(req) as r:
                    text = r.read()
                return time.perf_counter() - t, json.loads(text)

            def median(f):
                return statistics.median(f()[0] for _ in range(args.runs))

            open_t = median(lambda: call("/api/open", {"file": fid, "reload": True}))
            q = urllib.parse.urlencode
            root_t = median(lambda: call("/api/node?" + q({"file": fid, "pointer": "", "limit": 200})))
            many = "/0/many"
            exp_all = median(lambda: call("/api/node?" + q({"file": fid, "pointer": many, "limit": 10000})))
            exp_page = median(lambda: call("/api/node?" + q({"file": fid, "pointer": many, "limit": 200})))
            search_t = median(lambda: call("/api/search?" + q({"file": fid, "q": "needle in"})))
            _, hits = call("/api/search?" + q({"file": fid, "q": "needle in"}))
            assert len(hits["hits"]) == 1, hits
            hwm = ""
            with open(f"/proc/{server.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM"):
                        hwm = line.split(":", 1)[1].strip()
            print(f"file: {size / 1e6:.1f} MB Godot 3, {args.runs} runs, medians")
            print(f"open (decode + parse + first level): {open_t * 1000:.0f} ms")
            print(f"first level of an open file:         {root_t * 1000:.1f} ms")
            print(f"expand 10,000 children (all):        {exp_all * 1000:.1f} ms")
            print(f"expand 10,000 children (first 200):  {exp_page * 1000:.1f} ms")
            print(f"search the whole tree:               {search_t * 1000:.0f} ms")
            print(f"server peak memory: {hwm}")
        finally:
            server.terminate()
            server.wait()
        if args.browser:
            here = os.path.dirname(os.path.abspath(__file__))
            subprocess.run(["node", os.path.join(here, "bench-browser.mjs"), args.gamewire, path,
                            str(args.runs)], check=True)


if __name__ == "__main__":
    import urllib.parse  # noqa: F401 (used above through urllib.parse)
    main()
