#!/usr/bin/env bash
# Godot's encrypted and compressed saves, read by the Godot 3.2.3 engine's own get_var
# loop and by gamewire (decrypt or decompress, then decode the store_var values: what
# `gamewire decode FILE` and Python's gamewire.load do before writing JSON), one after the
# other on the same ~20 MB files. Prints each side's median time and the ratio.
# Needs godot3-server (Debian package).
#   scripts/godot/bench-containers-vs-engine.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-7}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p gamewire-cli
(cd "$work" && godot3-server --no-window -s "$OLDPWD/scripts/godot/engine-containers-bench.gd" "$work" "$runs" 2>/dev/null) | grep '^ENGINE' > "$work/engine.txt"
printf '%-10s %10s %12s %14s %8s\n' file MB engine_ms gamewire_ms ratio
while read -r _ kind _ plain _ us _ _; do
  out="$(GAMEWIRE_GODOT_PASSWORD='bench password' "${CARGO_TARGET_DIR:-target}/release/gamewire" bench godot3 "$work/$kind.sav")"
  # `decode: median  123.456 ms ...` (µs below a millisecond).
  g_ms="$(echo "$out" | awk '/^decode: median/ { v = $3; if ($4 != "ms") v /= 1000; print v }')"
  e_ms="$(awk -v us="$us" 'BEGIN { print us / 1000 }')"
  printf '%-10s %10.1f %12.1f %14.1f %7.1fx\n' "$kind" "$(awk -v b="$plain" 'BEGIN { print b / 1e6 }')" "$e_ms" "$g_ms" "$(awk -v a="$e_ms" -v b="$g_ms" 'BEGIN { print a / b }')"
done < "$work/engine.txt"
