#!/usr/bin/env bash
# Runs the Godot 3.2.3 engine and gamewire on the same bytes, one after the other, and
# prints each one's median MB/s and the ratio. Needs godot3-server (Debian package).
#   scripts/godot/bench-vs-engine.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-7}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p gamewire-cli
(cd "$work" && godot3-server --no-window -s "$OLDPWD/scripts/godot/engine-bench.gd" "$work" "$runs" 2>/dev/null) | grep '^ENGINE' > "$work/engine.txt"
mbps() { awk -v b="$1" -v us="$2" 'BEGIN { printf "%.1f", b / us }'; }
printf '%-8s %-7s %12s %12s %8s\n' payload op engine_MB/s gamewire_MB/s ratio
for payload in mixed packed; do
  read -r _ _ _ bytes _ dec_us _ enc_us < <(grep "ENGINE $payload " "$work/engine.txt")
  out="$("${CARGO_TARGET_DIR:-target}/release/gamewire" bench godot3 "$work/$payload.godot3")"
  g_dec="$(echo "$out" | awk '/^decode: median/ { print $5 }')"
  g_enc="$(echo "$out" | awk '/^encode: median/ { print $5 }')"
  g_tape="$(echo "$out" | awk '/^decode to tape: median/ { print $7 }')"
  e_dec="$(mbps "$bytes" "$dec_us")"
  e_enc="$(mbps "$bytes" "$enc_us")"
  printf '%-8s %-7s %12s %12s %7.1fx\n' "$payload" decode "$e_dec" "$g_dec" "$(awk -v a="$g_dec" -v b="$e_dec" 'BEGIN { print a / b }')"
  printf '%-8s %-7s %12s %12s %7.1fx\n' "$payload" tape "$e_dec" "$g_tape" "$(awk -v a="$g_tape" -v b="$e_dec" 'BEGIN { print a / b }')"
  printf '%-8s %-7s %12s %12s %7.1fx\n' "$payload" encode "$e_enc" "$g_enc" "$(awk -v a="$g_enc" -v b="$e_enc" 'BEGIN { print a / b }')"
done
