#!/usr/bin/env bash
# Times `gamewire convert` against a shell loop running `gamewire decode` once per file,
# and convert of files that need side files against the same number of Godot files.
#   scripts/cli/convert-vs-loop.sh [N]     (default 1000)
# Sets, N files each, in fresh folders under $TMPDIR (default /tmp; TMPDIR=/dev/shm keeps
# the file system's own cost, inode allocation on ext4, out of the comparison):
#   godot      copies of the Godot 3 sample save (no side file)
#   zeze       copies of a Zeze bean beside one zeze-solution.xml (typed by it)
#   kingsisle  copies of a BINd file beside one types.json
#   mixed      N files of all five formats in turn, with their side files
# For each set: convert with all cores; for godot and mixed also 1 worker and the shell
# loop. Prints the times, the cost per file of each set against godot's, and convert
# against the loop (medians of ROUNDS runs, default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-1000}"
rounds="${ROUNDS:-5}"
cargo build -q --release -p gamewire-cli
bin="${CARGO_TARGET_DIR:-target}/release/gamewire"
work="$(mktemp -d -p "${TMPDIR:-/tmp}")"
trap 'rm -rf "$work"' EXIT

make_set() { # make_set NAME: fills $work/NAME/in
  local d="$work/$1/in" i
  mkdir -p "$d"
  case "$1" in
    godot) for i in $(seq 1 "$n"); do cp samples/godot/save.godot3.bin "$d/save$i.dat"; done ;;
    zeze)
      cp samples/zeze/zeze-solution.xml "$d/"
      for i in $(seq 1 "$n"); do cp samples/zeze/BSimple.zeze "$d/BSimple.$i.zeze"; done ;;
    kingsisle)
      cp samples/kingsisle/types.json "$d/"
      for i in $(seq 1 "$n"); do cp samples/kingsisle/item.bin "$d/item$i.bin"; done ;;
    mixed)
      cp samples/zeze/zeze-solution.xml samples/kingsisle/types.json "$d/"
      for i in $(seq 1 "$n"); do
        case $((i % 5)) in
          0) cp samples/godot/save.godot3.bin "$d/save$i.dat" ;;
          1) cp samples/zeze/BSimple.zeze "$d/BSimple.$i.zeze" ;;
          2) cp samples/kingsisle/item.bin "$d/item$i.bin" ;;
          3) cp samples/resonite/item.brson "$d/item$i.brson" ;;
          4) cp samples/o3de/Sound_Effect.prefab "$d/effect$i.prefab" ;;
        esac
      done ;;
  esac
}

secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
convert_all() { rm -rf "$work/$1/out"; "$bin" convert "$work/$1/in" --out-dir "$work/$1/out" -q; }
convert_one() { rm -rf "$work/$1/out"; "$bin" convert "$work/$1/in" --out-dir "$work/$1/out" -q -j 1; }
loop() {
  rm -rf "$work/$1/loop"; mkdir -p "$work/$1/loop"
  for f in "$work/$1"/in/*; do
    case "$(basename "$f")" in types.json|zeze-solution.xml) continue ;; esac
    "$bin" decode "$f" -o "$work/$1/loop/$(basename "$f").json"
  done
}
timed() { # timed FUNCTION SET: median seconds of $rounds runs
  local r; for r in $(seq 1 "$rounds"); do secs "$1" "$2"; echo; done | median
}

echo "files per set: $n; rounds: $rounds; cores: $(nproc); load: $(cut -d" " -f1 /proc/loadavg); in: $(stat -f -c %T "$work")"
declare -A t
for set in godot zeze kingsisle mixed; do
  make_set "$set"
  # Every file converts (a failure would make the times meaningless).
  "$bin" convert "$work/$set/in" --out-dir "$work/$set/check" -q
  t[$set]=$(timed convert_all "$set")
  printf "%-10s convert, all cores: %8.4f s (%.3f ms a file)\n" "$set" "${t[$set]}" "$(awk -v s="${t[$set]}" -v n="$n" 'BEGIN { print s * 1000 / n }')"
done
for set in godot mixed; do
  one=$(timed convert_one "$set")
  lp=$(ROUNDS=1 timed loop "$set")
  printf "%-10s convert, 1 worker:  %8.4f s; shell loop of decode: %8.4f s\n" "$set" "$one" "$lp"
  awk -v l="$lp" -v a="${t[$set]}" -v o="$one" -v s="$set" 'BEGIN { printf "%-10s convert vs loop: %.1fx; all cores vs 1 worker: %.2fx\n", s, l / a, o / a }'
done
for set in zeze kingsisle mixed; do
  awk -v a="${t[$set]}" -v g="${t[godot]}" -v s="$set" 'BEGIN { printf "%-10s against godot files: %.2fx\n", s, a / g }'
done
