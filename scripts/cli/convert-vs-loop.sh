#!/usr/bin/env bash
# Times `gamewire convert` on N small files (copies of the Godot sample save) against a
# shell loop running `gamewire decode` once per file, and convert with 1 worker against
# all cores. Prints each time and the ratios.
#   scripts/cli/convert-vs-loop.sh [N]     (default 1000)
# The files go to a fresh folder under $TMPDIR (default /tmp); TMPDIR=/dev/shm keeps the
# file system's own cost (on ext4, inode allocation slows after many deletions) out of
# the comparison.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-1000}"
cargo build -q --release -p gamewire-cli
bin="${CARGO_TARGET_DIR:-target}/release/gamewire"
work="$(mktemp -d -p "${TMPDIR:-/tmp}")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
for i in $(seq 1 "$n"); do cp samples/godot/save.godot3.bin "$work/in/save$i.dat"; done
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'; }
loop() { mkdir -p "$work/loop"; for f in "$work"/in/*.dat; do "$bin" decode "$f" -o "$work/loop/$(basename "$f").json"; done; }
t_loop=$(secs loop)
t_all=$(secs "$bin" convert "$work/in" --out-dir "$work/all" -q)
t_one=$(secs "$bin" convert "$work/in" --out-dir "$work/one" -q -j 1)
echo "files: $n (cores: $(nproc), load: $(cut -d" " -f1 /proc/loadavg), in: $(stat -f -c %T "$work"))"
echo "shell loop of gamewire decode: $t_loop s"
echo "gamewire convert, 1 worker:    $t_one s"
echo "gamewire convert, all cores:   $t_all s"
awk -v l="$t_loop" -v a="$t_all" -v o="$t_one" 'BEGIN { printf "convert vs loop: %.1fx; all cores vs 1 worker: %.2fx\n", l / a, o / a }'
