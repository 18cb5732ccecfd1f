#!/bin/sh
# Runs katsuba and gamewire side by side on the same deep BINd file of N nested objects
# (default 1,000,000, about 46 MB) and prints medians and ratios (katsuba / gamewire):
#   1. steady state: decode in a warm process (katsuba's Serializer.deserialize; gamewire's
#      borrowed view, the view with every value visited, and the owned decode);
#   2. the first decode in a fresh process, RUNS fresh processes each: the whole process
#      (katsuba: python3, import, type list load, read, decode; gamewire: the CLI
#      `bench kingsisle --once`, type list load, read, decode) and the decode call alone;
#   3. decode to JSON end to end: `gamewire decode kingsisle --compact` against katsuba's
#      Python binding walked into JSON (it has no JSON writer of its own).
# The machine may be shared: the script prints the load and CPU times beside wall times.
#
# usage: scripts/kingsisle/compare.sh [N] [RUNS=5]
# Needs python3 with `katsuba` (pip install katsuba); builds the release CLI.
set -eu
N=${1:-1000000}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/kingsisle"
WORK=${TMPDIR:-/tmp}/gamewire-kingsisle-bench
mkdir -p "$WORK"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
(cd "$ROOT" && cargo build -q --release -p gamewire-cli)
GW="$CARGO_TARGET_DIR/release/gamewire"
F="$WORK/bench.bin"
T="$WORK/bench.types.json"
python3 "$HERE/make_bind.py" "$F" "$T" "$N"
ls -l "$F"
echo "load: $(uptime)"
ratio() { python3 -c "print(f'$1: {($2) / ($3):.2f}x')"; }
num() { sed -n "s/$1/\1/p"; }

echo "--- 1. steady state: decode in a warm process, medians"
KAT=$(python3 "$HERE/katsuba_decode.py" "$F" "$T" 7)
echo "$KAT"
GWB=$("$GW" bench kingsisle --view -t "$T" "$F")
echo "$GWB"
K=$(echo "$KAT" | num '.*median \([0-9.]*\) s.*')
KC=$(echo "$KAT" | num '.*median CPU \([0-9.]*\) s.*')
for what in view view+visit decode; do
    G=$(echo "$GWB" | num "^$what: median *\([0-9.]*\) ms.*")
    GC=$(echo "$GWB" | num "^$what: median .*(on-CPU median \([0-9.]*\) ms.*")
    ratio "steady $what, wall medians" "$K" "$G / 1000"
    ratio "steady $what, on-CPU medians" "$KC" "$GC / 1000"
done

echo "--- 2. first decode in a fresh process ($RUNS fresh processes each)"
python3 "$HERE/fresh.py" "katsuba (python3: import, types, read, decode)" "$RUNS" \
    python3 "$HERE/katsuba_once.py" "$F" "$T" > "$WORK/k.fresh"
python3 "$HERE/fresh.py" "gamewire view (CLI: types, read, view, visit)" "$RUNS" \
    "$GW" bench kingsisle --once --view -t "$T" "$F" > "$WORK/gv.fresh"
python3 "$HERE/fresh.py" "gamewire owned (CLI: types, read, decode, free)" "$RUNS" \
    "$GW" bench kingsisle --once -t "$T" "$F" > "$WORK/go.fresh"
cat "$WORK/k.fresh" "$WORK/gv.fresh" "$WORK/go.fresh"
KW=$(num '.*median \([0-9.]*\) s wall.*' < "$WORK/k.fresh")
KC=$(num '.*wall, \([0-9.]*\) s CPU.*' < "$WORK/k.fresh")
for g in gv go; do
    GW_=$(num '.*median \([0-9.]*\) s wall.*' < "$WORK/$g.fresh")
    GC_=$(num '.*wall, \([0-9.]*\) s CPU.*' < "$WORK/$g.fresh")
    ratio "fresh process ($g), whole process wall" "$KW" "$GW_"
    ratio "fresh process ($g), whole process CPU" "$KC" "$GC_"
done
# The decode call alone, first in its process: medians of the calls' own timings.
med() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.stdin.read().split()))"; }
KD=$(for i in $(seq "$RUNS"); do python3 "$HERE/katsuba_once.py" "$F" "$T"; done | num '.*, \([0-9.]*\) ms CPU' | med)
VD=$(for i in $(seq "$RUNS"); do "$GW" bench kingsisle --once --view -t "$T" "$F"; done | num '.*, \([0-9.]*\) ms CPU' | med)
OD=$(for i in $(seq "$RUNS"); do "$GW" bench kingsisle --once -t "$T" "$F"; done | num '.*, \([0-9.]*\) ms CPU' | med)
echo "first decode call, CPU medians: katsuba $KD ms, gamewire view+visit $VD ms, owned $OD ms"
ratio "first decode call (view+visit), CPU" "$KD" "$VD"
ratio "first decode call (owned), CPU" "$KD" "$OD"

echo "--- 3. decode -> compact JSON, whole process ($RUNS fresh processes each)"
python3 "$HERE/fresh.py" "gamewire decode kingsisle --compact" "$RUNS" \
    "$GW" decode kingsisle --compact -t "$T" "$F" > "$WORK/gj.fresh"
JR=$(( RUNS < 3 ? RUNS : 3 ))
python3 "$HERE/fresh.py" "katsuba (Python binding) -> json.dump" "$JR" \
    python3 "$HERE/katsuba_once.py" "$F" "$T" --json > "$WORK/kj.fresh"
cat "$WORK/gj.fresh" "$WORK/kj.fresh"
ratio "decode to JSON, whole process wall" \
    "$(num '.*median \([0-9.]*\) s wall.*' < "$WORK/kj.fresh")" \
    "$(num '.*median \([0-9.]*\) s wall.*' < "$WORK/gj.fresh")"
ratio "decode to JSON, whole process CPU" \
    "$(num '.*wall, \([0-9.]*\) s CPU.*' < "$WORK/kj.fresh")" \
    "$(num '.*wall, \([0-9.]*\) s CPU.*' < "$WORK/gj.fresh")"
echo "load: $(uptime)"
