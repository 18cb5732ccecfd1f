#!/bin/sh
# Runs katsuba and gamewire side by side on the same deep BINd file of N nested objects
# (default 1,000,000, about 50 MB) and prints each one's median and the ratio.
#
# usage: scripts/kingsisle/compare.sh [N]
# Needs python3 with `katsuba` (pip install katsuba) and a release build of gamewire
# (built here with only the kingsisle feature). If the katsuba CLI is on PATH, its
# conversion to JSON is timed against `gamewire decode kingsisle` as well.
set -eu
N=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${TMPDIR:-/tmp}/gamewire-kingsisle-bench
mkdir -p "$WORK"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/targets/kingsisle}
(cd "$ROOT" && cargo build -q --release -p gamewire-cli --no-default-features --features kingsisle)
GW="$CARGO_TARGET_DIR/release/gamewire"
python3 "$ROOT/scripts/kingsisle/make_bind.py" "$WORK/bench.bin" "$WORK/bench.types.json" "$N"
ls -l "$WORK/bench.bin"

echo "--- decode to the native value (no JSON), median of runs"
KAT=$(python3 "$ROOT/scripts/kingsisle/katsuba_decode.py" "$WORK/bench.bin" "$WORK/bench.types.json" 5)
echo "$KAT"
GWB=$("$GW" bench kingsisle -t "$WORK/bench.types.json" "$WORK/bench.bin")
echo "$GWB"
K=$(echo "$KAT" | sed -n 's/.*median \([0-9.]*\) s.*/\1/p')
G=$(echo "$GWB" | sed -n 's/^decode: median *\([0-9.]*\) ms.*/\1/p')
python3 -c "print(f'decode ratio (katsuba time / gamewire time): {$K / ($G / 1000):.2f}x')"

echo "--- decode to JSON through the CLIs (best of 3 wall-clock runs)"
best() { # best wall time of 3 runs of "$@" (output discarded)
    python3 - "$@" <<'PY'
import subprocess, sys, time
ts = []
for _ in range(3):
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
    ts.append(time.perf_counter() - t)
print(f"{min(ts):.3f}")
PY
}
GJ=$(best "$GW" decode kingsisle --compact -t "$WORK/bench.types.json" "$WORK/bench.bin" -o "$WORK/gw.json")
echo "gamewire decode -> JSON: $GJ s"
if command -v katsuba >/dev/null 2>&1; then
    KJ=$(best katsuba op -t "$WORK/bench.types.json" de "$WORK/bench.bin" -o "$WORK/katsuba.json")
    echo "katsuba op de -> JSON: $KJ s"
    python3 -c "print(f'JSON ratio (katsuba / gamewire): {$KJ / $GJ:.2f}x')"
else
    echo "katsuba CLI not on PATH: JSON conversion not compared"
fi
