#!/usr/bin/env python3
"""Times `gamewire view` on big files through its HTTP API.

    python3 scripts/view/bench.py [--gamewire target/release/gamewire] [--mb 100] [--runs 5]
                                  [--formats godot3,resonite] [--browser]

Makes, with `gamewire encode`, a Godot 3 save of about --mb megabytes (a list of
dictionaries, the first holding a list of 10,000 integers) and a Resonite file whose BSON
is about --mb megabytes (a document {"items": [the same records]}, LZ4-compressed in a
FrDT container, `.lz4bson`), starts `gamewire view --no-browser --port 0` on each in a
fresh process, and reports the wall time of:

- first open: the first POST /api/open of the fresh process (read, detect, index the
  library's view of the file, answer the first level) -- what the page waits for before
  the tree shows; then the median of --runs opens with reload (the file read again);
- first level again: GET /api/node for the root, 200 children (the file already open);
- expand 10,000: GET /api/node for the 10,000-item list with limit 10000, and with the
  page's 200;
- search: GET /api/search for a string found once, near the end (the whole file read),
  and for a string in every record (the first page of 200 hits, the search stopped);
- a request during a search: GET /api/node for the root while a search that reads the
  whole file runs (it runs without the file's lock);
- first edit: POST /api/patch of one value (made on the file's bytes, no document
  built), then the median of --runs edits and of their undos;
- save: POST /api/save of the edited file (the bytes written back, compressed again for
  the Resonite file);

and the server's peak resident memory (VmHWM) after the first open, after the runs
(searches included) and after the edits and the save. With --browser, the same
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


def records(n):
    items = []
    for i in range(n):
        items.append({"name": f"item {i}", "level": i, "hp": i * 0.5, "tags": ["a", "bc"]})
    items[0]["many"] = list(range(10_000))
    items[-1]["name"] = "needle in the haystack"
    return items


# format -> (file name, bytes per record, the 10,000-item list's pointer)
FORMATS = {
    "godot3": ("big.godot3.bin", 110, "/0/many"),
    "resonite": ("big.lz4bson", 95, "/items/0/many"),
}


def make_file(folder, mb, gamewire, fmt):
    """A file of about `mb` megabytes of `fmt` data; returns its path."""
    name, per, _ = FORMATS[fmt]
    items = records(max(1, int(mb * 1e6 / per)))
    data = items if fmt == "godot3" else {"items": items}
    src = os.path.join(folder, fmt + ".json")
    with open(src, "w") as f:
        json.dump(data, f)
    out = os.path.join(folder, fmt, name)
    os.makedirs(os.path.dirname(out))
    subprocess.run([gamewire, "encode", fmt, src, "-o", out], check=True)
    os.remove(src)
    return out


def peak(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return line.split(":", 1)[1].strip()
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gamewire", default="target/release/gamewire")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--formats", default="godot3,resonite")
    ap.add_argument("--browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.formats.split(","):
            path = make_file(tmp, args.mb, args.gamewire, fmt)
            bench(args, fmt, path)
            os.remove(path)


def bench(args, fmt, path):
    size = os.path.getsize(path)
    name, _, many = FORMATS[fmt]
    server = subprocess.Popen(
        [args.gamewire, "view", "--no-browser", "--port", "0", os.path.dirname(path)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip()
        base, token = url.split("/?token=")
        headers = {"X-Gamewire-Token": token, "Content-Type": "application/json"}
        fid = "0/" + name

        def call(path, body=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(base + path, data=data, headers=headers)
            t = time.perf_counter()
            with urllib.request.urlopen(req) as r:
                text = r.read()
            return time.perf_counter() - t, json.loads(text)

        def median(f):
            return statistics.median(f()[0] for _ in range(args.runs))

        first_t, first = call("/api/open", {"file": fid})
        assert first["lazy"], "the file was not opened through its view"
        hwm_open = peak(server.pid)
        open_t = median(lambda: call("/api/open", {"file": fid, "reload": True}))
        q = urllib.parse.urlencode
        root_t = median(lambda: call("/api/node?" + q({"file": fid, "pointer": "", "limit": 200})))
        exp_all = median(lambda: call("/api/node?" + q({"file": fid, "pointer": many, "limit": 10000})))
        exp_page = median(lambda: call("/api/node?" + q({"file": fid, "pointer": many, "limit": 200})))
        search_t = median(lambda: call("/api/search?" + q({"file": fid, "q": "needle in"})))
        _, hits = call("/api/search?" + q({"file": fid, "q": "needle in"}))
        assert len(hits["hits"]) == 1, hits
        bytes_t = median(lambda: call("/api/bytes?" + q({"file": fid, "pointer": many + "/9999"})))
        page_t = median(lambda: call("/api/search?" + q({"file": fid, "q": "item"})))
        _, hits = call("/api/search?" + q({"file": fid, "q": "item"}))
        assert hits["more"] and len(hits["hits"]) == 200, hits
        # A listing while a search reads the whole file.
        import threading
        during = []
        for _ in range(args.runs):
            t = threading.Thread(target=call, args=(
                "/api/search?" + q({"file": fid, "q": "not in the file"}),))
            t.start()
            time.sleep(0.05)
            during.append(call("/api/node?" + q({"file": fid, "pointer": "", "limit": 200}))[0])
            busy = t.is_alive()
            t.join()
            assert busy, "the search ended before the listing: use a bigger file"
        during_t = statistics.median(during)
        hwm_view = peak(server.pid)
        edit_t, r = call("/api/patch", {"file": fid, "ops": [
            {"op": "replace", "path": many + "/0", "value": 1}]})
        assert r["ok"], r
        _, o = call("/api/open", {"file": fid})
        assert o["lazy"] and o["inPlace"], "the edit built the document"
        call("/api/patch", {"file": fid, "ops": json.loads(r["undo"])})
        edits, undos = [], []
        for i in range(args.runs):
            t, r = call("/api/patch", {"file": fid, "ops": [
                {"op": "replace", "path": many + "/1", "value": 1000 + i}]})
            edits.append(t)
            undos.append(call("/api/patch", {"file": fid, "ops": json.loads(r["undo"])})[0])
        call("/api/patch", {"file": fid, "ops": [
            {"op": "replace", "path": many + "/2", "value": 7}]})
        save_t, r = call("/api/save", {"file": fid})
        assert r["ok"], r
        hwm_edit = peak(server.pid)
        bson = ""
        if fmt == "resonite":
            _, b = call("/api/bytes?" + q({"file": fid, "pointer": ""}))
            bson = f" ({b['length'] / 1e6:.1f} MB of BSON)"
        print(f"{fmt}: {size / 1e6:.1f} MB file{bson}, {args.runs} runs, medians")
        print(f"first open in a fresh process (first level): {first_t * 1000:.0f} ms")
        print(f"open again, file read again:                 {open_t * 1000:.0f} ms")
        print(f"first level of an open file:                 {root_t * 1000:.1f} ms")
        print(f"expand 10,000 children (all):                {exp_all * 1000:.1f} ms")
        print(f"expand 10,000 children (first 200):          {exp_page * 1000:.1f} ms")
        print(f"bytes of the last of the 10,000:             {bytes_t * 1000:.1f} ms")
        print(f"search the whole tree (one hit):             {search_t * 1000:.0f} ms")
        print(f"search, first page of 200 hits (stopped):    {page_t * 1000:.1f} ms")
        print(f"first level during a whole-file search:      {during_t * 1000:.1f} ms")
        print(f"first edit (on the bytes):                   {edit_t * 1000:.0f} ms")
        print(f"edit / undo (median):                        {statistics.median(edits) * 1000:.0f}"
              f" / {statistics.median(undos) * 1000:.0f} ms")
        print(f"save the edited file:                        {save_t * 1000:.0f} ms")
        print(f"server peak memory: {hwm_open} after the first open, {hwm_view} after the"
              f" runs above (searches included), {hwm_edit} after the edits and the save")
    finally:
        server.terminate()
        server.wait()
    if args.browser:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run(["node", os.path.join(here, "bench-browser.mjs"), args.gamewire, path,
                        str(args.runs), many], check=True)


if __name__ == "__main__":
    import urllib.parse  # noqa: F401 (used above through urllib.parse)
    main()
