#!/usr/bin/env bash
# Instructions per reader (callgrind), each BSON reader once over the same stored FrDT
# data tree: `examples/reader_counts.rs`, the file read alone subtracted.
#
#   scripts/resonite/reader-counts.sh [BINARY] [SLOTS]
#
# BINARY defaults to the example built with `cargo build --profile bench -p
# gamewire-resonite --example reader_counts`; SLOTS (1,000) sizes the tree.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$here/target/release/examples/reader_counts}
slots=${2:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" make "$tmp/tree.frdt" "$slots"
count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "$1" "$tmp/tree.frdt" \
    2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
base=$(count read)
printf '%s bytes of BSON file, %s instructions to read it\n' "$(stat -c %s "$tmp/tree.frdt")" "$base"
for mode in decode decode-encode decode-json owned owned-arena encode check view-walk json-owned json-view inspect bson; do
  n=$(count "$mode")
  printf '%-13s %12d\n' "$mode" $((n - base))
done
