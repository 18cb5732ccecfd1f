#!/usr/bin/env bash
# Past one machine, measured on this one (docs/SCALING.md):
#   - `gamewire convert` of a whole mixed folder once, against the same folder in N parts
#     (`--shard K/N`, N = 2 and 4) run one after another: what splitting costs (every
#     part expands, sorts and plans the whole list);
#   - the Dask recipe of docs/SCALING.md on a distributed.LocalCluster of 1, 2 and 4
#     worker processes (one thread each), against the recipe's function in one process.
#   scripts/cli/shard-and-dask.sh [N]    (default 3000 files)
# Files: copies of every sample (with the side files they read) in folders of ~18, under
# $TMPDIR (default /tmp). Prints the median of ROUNDS runs (default 5; Dask: DASK_ROUNDS,
# default 3) and the load average. PYTHON (default python3) must import dask,
# distributed and gamewire (build a release wheel with `maturin build --release -m
# crates/gamewire-py/Cargo.toml` and install it); without them only the CLI is measured.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-3000}"
rounds="${ROUNDS:-5}"
dask_rounds="${DASK_ROUNDS:-3}"
py="${PYTHON:-python3}"
repo="$PWD"
cargo build -q --release -p gamewire-cli
bin="${CARGO_TARGET_DIR:-target}/release/gamewire"
work="$(mktemp -d -p "${TMPDIR:-/tmp}")"
trap 'rm -rf "$work"' EXIT

# The folder: copies of each sample format, side files beside them, until n files.
side="types.json zeze-solution.xml o3de-registry.json SOURCES.md"
made=0 c=0
while [ "$made" -lt "$n" ]; do
  d="$work/in/c$(printf %04d "$c")"
  mkdir -p "$d"
  for f in samples/*/*; do
    cp "$f" "$d/"
    case " $side " in *" $(basename "$f") "*) ;; *) made=$((made + 1)) ;; esac
  done
  c=$((c + 1))
done
echo "files: $made to convert in $c folders (plus their side files), under $work"

secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
whole() { rm -rf "$work/out"; "$bin" convert -r "$work/in" --out-dir "$work/out" -q; }
parts() { # parts N: every part, one after another
  local k; rm -rf "$work/out"
  for k in $(seq 1 "$1"); do
    "$bin" convert -r "$work/in" --out-dir "$work/out" -q --shard "$k/$1" --summary-json "$work/part$k.json"
  done
}
timed() { local r; for r in $(seq 1 "$rounds"); do secs "$@"; echo; done | median; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
t1=$(timed whole)
echo "convert, whole folder:              $t1 s"
for p in 2 4; do
  t=$(timed parts "$p")
  echo "convert, $p parts one after another: $t s ($(awk -v a="$t" -v b="$t1" 'BEGIN { printf "%.2f", a / b }')x the whole)"
done
# The parts' summaries add up to the whole.
jq -s '{files: (map(.files) | add), in_list: .[0].files_in_list, converted: (map(.converted) | add), failed: (map(.failed) | add)}' -c "$work"/part*.json 2>/dev/null || true
echo "load average after CLI: $(cut -d' ' -f1-3 /proc/loadavg)"

if ! "$py" -c "import dask.bag, distributed, gamewire" 2>/dev/null; then
  echo "dask, distributed or gamewire missing for $py: Dask not measured"
  exit 0
fi
# A file, not standard input: worker processes are spawned and re-read the main script.
cat > "$work/dask_bench.py" <<'EOF'
import os, shutil, statistics, sys, time

work, repo, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(os.path.join(repo, "docs", "SCALING.md"), encoding="utf-8").read()
section = text[text.index("## Python on Dask"):]
start = section.index("```python\n") + len("```python\n")
ns = {"__name__": "__main__"}
exec(compile(section[start:section.index("```", start)], "docs/SCALING.md", "exec"), ns)

def one_process():
    shutil.rmtree(out, ignore_errors=True)
    for p in paths:
        ns["convert_one"](p, root, out)

def med(f):
    ts = []
    for _ in range(rounds):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)

if __name__ == "__main__":
    from distributed import Client, LocalCluster
    root, out = os.path.join(work, "in"), os.path.join(work, "py-out")
    paths = ns["files_under"](root)
    base = med(one_process)
    print(f"python, one process, {len(paths)} files: {base:.3f} s")
    for n in (1, 2, 4):
        with LocalCluster(n_workers=n, processes=True, threads_per_worker=1,
                          dashboard_address=None, silence_logs=40) as cluster, Client(cluster):
            def run():
                shutil.rmtree(out, ignore_errors=True)
                ns["convert_folder"](root, out, partitions=max(8, 4 * n))
            run()  # warm: workers import gamewire
            t = med(run)
        print(f"dask, {n} worker process(es): {t:.3f} s ({base / t:.2f}x one process)")
    print("load average after Dask: " + " ".join(open("/proc/loadavg").read().split()[:3]))
EOF
"$py" "$work/dask_bench.py" "$work" "$repo" "$dask_rounds"
