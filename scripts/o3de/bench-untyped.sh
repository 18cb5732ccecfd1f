#!/bin/sh
# The registry-free path on a ~50 MB level built from the real prefabs' entities
# (tests/fixtures/o3de/real): serde_json -> serde_json::Value (the floor) beside
# gamewire's untyped parse, untyped decode (parse + write back) and `o3de tree`
# (parse + build + render), alternated round by round; medians and ratios (target:
# <= 2x the floor). Then times the release CLI's `gamewire o3de tree` on a level of
# 100,000 entities (target: under a second).
# Usage: scripts/o3de/bench-untyped.sh   (O3DE_BENCH_MB, O3DE_BENCH_ROUNDS to change)
set -e
cd "$(dirname "$0")/../.."
cargo bench -p gamewire-o3de --bench untyped
level="${TMPDIR:-/tmp}/gamewire-100k-level.prefab"
O3DE_BENCH_ENTITIES=100000 O3DE_BENCH_ROUNDS=0 O3DE_BENCH_WRITE="$level" \
    cargo bench -p gamewire-o3de --bench untyped
cargo build --release -p gamewire-cli
bin="${CARGO_TARGET_DIR:-target}/release/gamewire"
for i in 1 2 3 4 5; do
    /usr/bin/time -f "gamewire o3de tree, 100,000 entities: %e s wall, %M KB max RSS" \
        "$bin" o3de tree "$level" > /dev/null
done
rm -f "$level"
