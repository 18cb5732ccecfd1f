#!/bin/sh
# Loads a ~50 MB prefab-like JSON through the O3DE registry, beside serde_json parsing
# the same bytes into serde_json::Value, alternating the two round by round, and prints
# the medians and the median ratio (target: gamewire <= 2x the floor).
# Usage: scripts/o3de/bench.sh   (O3DE_BENCH_MB=10, O3DE_BENCH_ROUNDS=21 to change)
# The criterion version (with store timings): cargo bench -p gamewire-o3de --bench prefab
set -e
cd "$(dirname "$0")/../.."
cargo bench -p gamewire-o3de --bench prefab_ratio
