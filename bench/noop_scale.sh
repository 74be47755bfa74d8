#!/bin/sh
# bench/noop_scale.sh — what a no-op costs as a project grows: generates projects of N tiny PNGs
# (4x4 RGBA, each different, in folders of 100; made once under $KILN_BENCH_TMP, default
# /tmp/kiln-noop-bench), imports each once, then times a no-op `kiln import --all`, `kiln report`
# and `kiln report --verbose` (every row listed) (median of KILN_BENCH_RUNS runs, default 5) and
# prints a table. docs/performance.md
# gives the figures.
#
#   sh bench/noop_scale.sh [BUILD_DIR] [SIZES]     e.g. sh bench/noop_scale.sh build "1000 5000"
#   KILN_BENCH_JOBS=N   worker threads (-j, default 2)
set -eu

build=${1:-build}
sizes=${2:-1000 5000 50000}
runs=${KILN_BENCH_RUNS:-5}
jobs=${KILN_BENCH_JOBS:-2}
tmp=${KILN_BENCH_TMP:-/tmp/kiln-noop-bench}
kiln=$(cd "$build" && pwd)/tools/kiln/kiln
[ -x "$kiln" ] || { echo "noop_scale.sh: $kiln is not built" >&2; exit 1; }
py=${PYTHON:-python3}

# make N: a project of N images under $tmp/pN (its sources once; its cache is rebuilt each run
# of this script so that the figures are those of the kiln being measured)
make_project() {
    dir=$tmp/p$1
    if [ ! -f "$dir/.generated" ]; then
        rm -rf "$dir"
        mkdir -p "$dir/assets"
        echo '{}' >"$dir/kiln.json"
        "$py" - "$dir/assets" "$1" <<'PYEOF'
import os, struct, sys, zlib
root, n = sys.argv[1], int(sys.argv[2])
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 6, 0, 0, 0))
for i in range(n):
    d = os.path.join(root, "f%04d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    rows = b"".join(b"\0" + bytes(((i >> (8 * (c % 3))) + x * 7 + y * 13 + c * 50) & 255
                                  for x in range(4) for c in range(4)) for y in range(4))
    with open(os.path.join(d, "i%06d.png" % i), "wb") as f:
        f.write(head + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
PYEOF
        touch "$dir/.generated"
    fi
    rm -rf "$dir/.kiln"
}

# median_ms CMD...: runs CMD $runs times (output dropped), prints the median wall time in ms
median_ms() {
    i=0
    : >"$tmp/times"
    while [ $i -lt "$runs" ]; do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        e=$(date +%s%N)
        echo $(((e - s) / 1000)) >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; printf "%.1f", m / 1000 }'
}

mkdir -p "$tmp"
printf '%-8s %12s %14s %12s %12s %14s\n' assets "import (s)" "no-op import" "report" "report -j1" "report -v"
for n in $sizes; do
    make_project "$n"
    cd "$tmp/p$n"
    s=$(date +%s%N)
    "$kiln" import --all -j "$jobs" -q >/dev/null 2>&1 || true
    e=$(date +%s%N)
    imp=$(awk -v d=$(((e - s) / 1000000)) 'BEGIN { printf "%.1f", d / 1000 }')
    # The record index trusts no signature taken within 2 s of a change (racy): after that, one
    # import refreshes records and one more writes an index that holds (docs/cache.md).
    sleep 2.2
    "$kiln" import --all -j "$jobs" -q >/dev/null 2>&1 || true
    sleep 2.2
    "$kiln" import --all -j "$jobs" -q >/dev/null 2>&1 || true
    noop=$(median_ms "$kiln" import --all -j "$jobs" -q)
    rep=$(median_ms "$kiln" report -j "$jobs")
    rep1=$(median_ms "$kiln" report -j 1)
    # --verbose lists every asset with its key: the JSON of every row is made, printed, parsed
    repv=$(median_ms "$kiln" report -j "$jobs" --verbose)
    printf '%-8s %12s %11s ms %9s ms %9s ms %11s ms\n' "$n" "$imp" "$noop" "$rep" "$rep1" "$repv"
    cd - >/dev/null
done
