#!/bin/sh
# fuzz.sh — builds every libFuzzer target (clang, ASan + UBSan) and runs each for a bounded time.
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
# New inputs go to a temporary folder; the committed seeds in fuzz/corpus/<reader>/ are only read.
# A crash fails the run and leaves the reproducer in build-fuzz/crashes/<reader>/.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
build=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKILN_BUILD_FUZZ=ON \
    -DKILN_SANITIZE=address,undefined -DKILN_BUILD_TESTS=OFF -DKILN_BUILD_TOOLS=OFF \
    -DKILN_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
# One target: its log in $build/crashes/<reader>.log, a failure marker beside it.
run_one() {
    name=$1
    reader=${name#fuzz_}
    work=$(mktemp -d)
    mkdir -p "$build/crashes/$reader"
    rm -f "$build/crashes/$reader.failed"
    # libdraco 1.5.5 loops over an unchecked texture-coordinate orientation count (up to 2^32,
    # some seconds per 10^9) that kiln cannot reach first (docs/draco.md): slow, not hung. glTF
    # files reach it through KHR_draco_mesh_compression.
    timeout=10
    if [ "$reader" = draco ] || [ "$reader" = gltf ]; then timeout=30; fi
    if ! "$build/fuzz/$name" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 \
            -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/crashes/$reader/" \
            "$work" "fuzz/corpus/$reader" >"$build/crashes/$reader.log" 2>&1; then
        : >"$build/crashes/$reader.failed"
    fi
    rm -rf "$work"
}

# As many targets at once as there are cores: each is single-threaded, so the run takes
# targets x seconds / cores without shortening any target's time.
jobs=$(nproc 2>/dev/null || echo 1)
running=0
names=""
for src in fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    names="$names $name"
    echo "fuzz: $name for ${secs}s"
    run_one "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

status=0
for name in $names; do
    reader=${name#fuzz_}
    if [ -e "$build/crashes/$reader.failed" ]; then
        echo "fuzz: $name FAILED; see $build/crashes/$reader.log" >&2
        tail -40 "$build/crashes/$reader.log" >&2
        status=1
    else
        echo "fuzz: $name: $(grep -E "stat::number_of_executed_units" "$build/crashes/$reader.log" | tail -1)"
    fi
done
exit $status
