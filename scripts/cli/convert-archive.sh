#!/usr/bin/env bash
# Times `gamewire convert ARCHIVE` (every entry gamewire reads decoded to JSON, checked to
# encode back to its exact bytes, the rest extracted) on two generated archives:
#   wad   a KIWAD of N entries: N/2 deep BINd files (scripts/kingsisle/make_bind.py, 20 to
#         400 objects each, with their type list beside the archive), N/2 small filler files
#   pck   a Godot 3 pack of N entries: copies of samples/godot/save.godot3.bin (a Variant
#         file of every kind of value) and as many small text files
#   scripts/cli/convert-archive.sh [N=2000]
# Prints medians of ROUNDS runs (default 5) of wall time, CPU time (user + system, all
# threads; this machine's VM accounts it coarsely under load) and minor page faults,
# with all cores and with -j 1 (GNU time, /usr/bin/time, measures each run); with
# CALLGRIND=1 also the instructions of one `convert -j 1` of each archive under
# callgrind (steady under load).
# The archives and outputs go under $TMPDIR (TMPDIR=/dev/shm keeps the disk out).
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-2000}"
rounds="${ROUNDS:-5}"
# GAMEWIRE=PATH times that binary (an earlier build, for a before/after) instead.
if [[ -n "${GAMEWIRE:-}" ]]; then
  bin="$GAMEWIRE"
else
  cargo build -q --release -p gamewire-cli
  bin="$(pwd)/${CARGO_TARGET_DIR:-target}/release/gamewire"
fi
work="$(mktemp -d -p "${TMPDIR:-/tmp}")"
trap 'rm -rf "$work"' EXIT

# The KIWAD: half BINd files of five sizes, half filler, packed as the game packs.
mkdir -p "$work/wad/src" "$work/wad/seeds"
for k in 20 50 100 200 400; do
  python3 scripts/kingsisle/make_bind.py "$work/wad/seeds/$k.bin" "$work/wad/types.json" "$k" >/dev/null
done
sizes=(20 50 100 200 400)
for i in $(seq 0 $((n - 1))); do
  d="$work/wad/src/Zone$((i % 20))"
  mkdir -p "$d"
  if ((i % 2 == 0)); then
    cp "$work/wad/seeds/${sizes[$(((i / 2) % 5))]}.bin" "$d/Object$i.bin"
  else
    printf 'filler %d: the quick brown fox jumps over the lazy dog\n' "$i" >"$d/Asset$i.txt"
  fi
done
"$bin" kingsisle wad pack "$work/wad/src" -o "$work/wad/bench.wad" >/dev/null
rm -rf "$work/wad/src"

# The Godot pack: Variant files and text files.
mkdir -p "$work/pck/src"
for i in $(seq 0 $((n - 1))); do
  d="$work/pck/src/dir$((i % 20))"
  mkdir -p "$d"
  if ((i % 2 == 0)); then
    cp samples/godot/save.godot3.bin "$d/save$i.dat"
  else
    printf 'filler %d: the quick brown fox jumps over the lazy dog\n' "$i" >"$d/note$i.txt"
  fi
done
"$bin" godot pck pack "$work/pck/src" -o "$work/pck/bench.pck" >/dev/null
rm -rf "$work/pck/src"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# One run: "wall cpu minflt" of `convert ARCHIVE --out-dir OUT [ARGS]`, from GNU time (the
# process alone: a Python parent's getrusage would count its own fork's faults too).
run() { # run ARCHIVE ARGS...
  local a="$1"
  shift
  rm -rf "$work/out"
  /usr/bin/time -f '%e %U %S %R' -o "$work/time" "$bin" convert "$a" --out-dir "$work/out" -q "$@" \
    >/dev/null 2>&1
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in wad pck; do
  a="$work/$kind/bench.$kind"
  for jobs in all 1; do
    args=()
    [[ $jobs == 1 ]] && args=(-j 1)
    : >"$work/times"
    for _ in $(seq 1 "$rounds"); do run "$a" "${args[@]}" >>"$work/times"; done
    wall=$(cut -d' ' -f1 "$work/times" | median)
    cpu=$(cut -d' ' -f2 "$work/times" | median)
    flt=$(cut -d' ' -f3 "$work/times" | median)
    decoded=$(find "$work/out" -name '*.json' | wc -l)
    printf '%s (%d entries, %d decoded to JSON), jobs %s: wall %.3f s, CPU %.3f s, %d minor faults\n' \
      "$kind" "$n" "$decoded" "$jobs" "$wall" "$cpu" "$flt"
  done
  if [[ "${CALLGRIND:-0}" == 1 ]]; then
    rm -rf "$work/out"
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
      "$bin" convert "$a" --out-dir "$work/out" -q -j 1 >/dev/null 2>"$work/cg.log"
    printf '%s: %s instructions (callgrind, convert -j 1)\n' "$kind" \
      "$(grep -o 'Collected : [0-9]*' "$work/cg.log" | grep -o '[0-9]*$')"
    [[ -n "${KEEP_PROFILE:-}" ]] && cp "$work/cg.out" "$KEEP_PROFILE.$kind"
  fi
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
