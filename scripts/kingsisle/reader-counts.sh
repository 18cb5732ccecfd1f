#!/usr/bin/env bash
# Instructions per object of each KingsIsle reader (callgrind, steady under load): the
# owned decode (tree built and dropped), the borrowed view, the view with every value
# visited, the JSON text of a decoded document, the inspect tree, and (when the binary
# has it) the validating walk, over a generated BINd document of N objects of
# scripts/kingsisle/make_bind.py's shape (`examples/profile_kingsisle.rs`, run twice;
# only its `run` function is counted).
#
#   scripts/kingsisle/reader-counts.sh [BINARY] [N]
#
# BINARY defaults to the example built with `cargo build --release -p gamewire-kingsisle
# --example profile_kingsisle`; N defaults to 100,000.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$here/target/release/examples/profile_kingsisle}
n=${2:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
    --toggle-collect='profile_kingsisle::run' "$bin" "$1" "$n" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-8s %14s %12s\n' reader instructions 'per object'
for mode in decode view visit json inspect validate; do
  total=$(count "$mode" || true)
  [ -n "$total" ] || continue
  python3 -c "print(f'{\"$mode\":<8} {$total:>14,} {$total / (2 * $n):>12,.1f}')"
done
