#!/bin/sh
# The owned decode (bind::decode: the Document tree built and dropped) against katsuba's
# `Serializer.deserialize` (which also builds a tree; Python binding) on the same deep
# BINd file of N objects (scripts/kingsisle/make_bind.py, default 1,000,000); both trees
# are dropped untimed (katsuba_decode.py `del`s its value after the clock):
#   1. steady: medians of RUNS decodes in a warm process, wall and on-CPU; then the same
#      with each tree given back to a `recycle::Recycler` (instead of dropped) for the
#      next decode to be built in (`bind::decode_with`);
#   2. first call: the first decode in each of RUNS fresh processes, CPU medians.
# Prints the load; on a shared machine trust the CPU ratios.
#
# usage: scripts/kingsisle/owned-vs-katsuba.sh [N] [RUNS=5]
# Needs python3 with `katsuba`; builds examples/owned_decode.rs (release).
set -eu
N=${1:-1000000}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/kingsisle"
PY=${PYTHON:-python3}
WORK=${TMPDIR:-/tmp}/gamewire-kingsisle-owned
mkdir -p "$WORK"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
(cd "$ROOT" && cargo build -q --release -p gamewire-kingsisle --example owned_decode)
BIN="$CARGO_TARGET_DIR/release/examples/owned_decode"
F="$WORK/bench.bin"
T="$WORK/bench.types.json"
"$PY" "$HERE/make_bind.py" "$F" "$T" "$N"
echo "load: $(uptime)"
num() { sed -n "s/$1/\1/p"; }
ratio() { "$PY" -c "print(f'$1: {($2) / ($3):.2f}x')"; }
med() { "$PY" -c "import statistics,sys; print(statistics.median(float(x) for x in sys.stdin.read().split()))"; }

KAT=$("$PY" "$HERE/katsuba_decode.py" "$F" "$T" "$RUNS")
echo "$KAT"
OWN=$("$BIN" "$F" "$T" "$RUNS")
echo "$OWN"
KW=$(echo "$KAT" | num '.*decode: median \([0-9.]*\) s .*')
KC=$(echo "$KAT" | num '.*median CPU \([0-9.]*\) s.*')
OW=$(echo "$OWN" | num '^owned steady: median \([0-9.]*\) ms wall.*')
OC=$(echo "$OWN" | num '^owned steady: .* wall, \([0-9.]*\) ms CPU.*')
ratio "steady, wall medians" "$KW * 1000" "$OW"
ratio "steady, on-CPU medians" "$KC * 1000" "$OC"
RW=$(echo "$OWN" | num '.*recycled steady: median \([0-9.]*\) ms wall.*')
RC=$(echo "$OWN" | num '.*recycled steady: .* wall, \([0-9.]*\) ms CPU.*')
ratio "steady with a Recycler, wall medians" "$KW * 1000" "$RW"
ratio "steady with a Recycler, on-CPU medians" "$KC * 1000" "$RC"

KD=$(for i in $(seq "$RUNS"); do "$PY" "$HERE/katsuba_once.py" "$F" "$T"; done | num '.*, \([0-9.]*\) ms CPU' | med)
OD=$(for i in $(seq "$RUNS"); do "$BIN" "$F" "$T" once; done | num '.*once: .* wall, \([0-9.]*\) ms CPU' | med)
echo "first decode call in a fresh process, CPU medians: katsuba $KD ms, owned $OD ms"
ratio "first call, CPU" "$KD" "$OD"
echo "load: $(uptime)"
