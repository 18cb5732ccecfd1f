#!/usr/bin/env python3
"""Times the pages of a search through `gamewire view`'s API, as the page's More results
reads them one after another.

    python3 scripts/view/search-pages.py GAMEWIRE FILE [QUERY] [PAGES]

Starts `gamewire view --no-browser --port 0 FILE` in a fresh process, opens FILE, then
asks `GET /api/search` for PAGES pages (default 52) of QUERY (default "item", a hit in
every record of the files `scripts/view/bench.py` makes), each from the `next` the last
one gave, and prints the median of the first five pages' times and the last five's.
A server that walks the file again for each page takes longer for each later page; one
that reads on from where the last page stopped, the same for each.
"""
import json
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def main():
    gw, path = sys.argv[1], sys.argv[2]
    query = sys.argv[3] if len(sys.argv) > 3 else "item"
    pages = int(sys.argv[4]) if len(sys.argv) > 4 else 52
    server = subprocess.Popen([gw, "view", "--no-browser", "--port", "0", path],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base, token = server.stdout.readline().strip().split("/?token=")
        headers = {"X-Gamewire-Token": token, "Content-Type": "application/json"}

        def call(target, body=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(base + target, data=data, headers=headers)
            t = time.perf_counter()
            with urllib.request.urlopen(req) as r:
                out = json.loads(r.read())
            return (time.perf_counter() - t) * 1000, out

        fid = "0/" + path.rsplit("/", 1)[-1]
        call("/api/open", {"file": fid})
        times, offset = [], 0
        for _ in range(pages):
            t, r = call("/api/search?" + urllib.parse.urlencode(
                {"file": fid, "q": query, "offset": offset}))
            times.append(t)
            if "next" not in r:
                break
            offset = r["next"]
        last = ", ".join(f"{x:.1f}" for x in times[-5:])
        print(f"{gw}: {len(times)} pages of {query!r}; pages 1-5 median "
              f"{statistics.median(times[:5]):.1f} ms; the last five: {last} ms")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
