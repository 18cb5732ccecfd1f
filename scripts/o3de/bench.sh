#!/bin/sh
# Loads a ~50 MB prefab-like JSON through the O3DE registry, beside serde_json parsing
# the same bytes into serde_json::Value, and prints the medians and the ratio.
# Usage: scripts/o3de/bench.sh   (O3DE_BENCH_MB=10 for a smaller document)
set -e
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo bench -p gamewire-o3de --bench prefab -- --noplot
dir="$CARGO_TARGET_DIR/criterion/o3de_prefab"
median() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median']['point_estimate']/1e6)" "$dir/$1/new/estimates.json"; }
floor=$(median serde_json_value)
ours=$(median gamewire_load)
st=$(median gamewire_store)
python3 -c "print(f'serde_json::Value parse: {float($floor):.1f} ms; gamewire load: {float($ours):.1f} ms; ratio {float($ours)/float($floor):.2f}x (target <= 2x); store: {float($st):.1f} ms')"
