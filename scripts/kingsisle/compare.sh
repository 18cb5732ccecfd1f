#!/bin/sh
# Runs katsuba and gamewire side by side on the same deep BINd file of N nested objects
# (default 1,000,000, about 50 MB) and prints each one's median and the ratio.
# The machine may be shared: the script also prints CPU times and minimums.
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
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
(cd "$ROOT" && cargo build -q --release -p gamewire-cli)
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
python3 -c "print(f'decode ratio, wall medians (katsuba / gamewire): {$K / ($G / 1000):.2f}x')"
KC=$(echo "$KAT" | sed -n 's/.*median CPU \([0-9.]*\) s.*/\1/p')
GC=$(echo "$GWB" | sed -n 's/^decode: median .*(on-CPU median \([0-9.]*\) ms.*/\1/p')
KF=$(echo "$KAT" | sed -n 's/.*first run .* s wall, \([0-9.]*\) s CPU/\1/p')
GF=$(echo "$GWB" | sed -n 's/^decode: first run .* ms wall, \([0-9.]*\) ms CPU/\1/p')
if [ -n "$GF" ]; then
    python3 -c "print(f'decode ratio, first run in a fresh process, CPU (katsuba / gamewire): {$KF / ($GF / 1000):.2f}x')"
fi
if [ -n "$GC" ]; then
    python3 -c "print(f'decode ratio, on-CPU medians (katsuba / gamewire): {$KC / ($GC / 1000):.2f}x')"
fi

echo "--- gamewire decode -> compact JSON on stdout (CLI, 3 runs: wall, user+sys CPU)"
for i in 1 2 3; do
    /usr/bin/time -f "gamewire decode -> JSON: %e s wall, %U s user + %S s sys" \
        "$GW" decode kingsisle --compact -t "$WORK/bench.types.json" "$WORK/bench.bin" >/dev/null
done
echo "(katsuba decode alone, no JSON: median CPU $KC s)"
if command -v katsuba >/dev/null 2>&1; then
    for i in 1 2 3; do
        /usr/bin/time -f "katsuba op de -> JSON: %e s wall, %U s user + %S s sys" \
            katsuba op -t "$WORK/bench.types.json" de "$WORK/bench.bin" >/dev/null
    done
else
    echo "katsuba CLI not on PATH: its JSON conversion is not timed"
fi
