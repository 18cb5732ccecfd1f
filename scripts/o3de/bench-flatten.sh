#!/bin/sh
# Flattening a level of 100 nested instances and 10,000 entities (target: under a
# second): the library (crates/gamewire-o3de/benches/flatten.rs: medians of wall and
# CPU time over O3DE_BENCH_ROUNDS rounds), then the release CLI's
# `gamewire o3de flatten LEVEL -o OUT` on the same project, five runs.
# Usage: scripts/o3de/bench-flatten.sh
set -e
cd "$(dirname "$0")/../.."
project="${TMPDIR:-/tmp}/gamewire-flatten-bench-project"
rm -rf "$project"
O3DE_BENCH_KEEP="$project" cargo bench -p gamewire-o3de --bench flatten
cargo build --release -p gamewire-cli
bin="${CARGO_TARGET_DIR:-target}/release/gamewire"
out="${TMPDIR:-/tmp}/gamewire-flatten-bench.prefab"
for i in 1 2 3 4 5; do
    /usr/bin/time -f "gamewire o3de flatten, 100 instances, 10,100 entities: %e s wall, %U s user, %S s sys, %M KB max RSS" \
        "$bin" o3de flatten "$project/Levels/Bench/Bench.prefab" -o "$out"
done
ls -l "$out"
rm -rf "$project" "$out"
