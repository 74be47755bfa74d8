#!/bin/sh
# bench/run.sh — `make bench`: runs the glTF parsing benchmark (bench_gltf: kiln against assimp,
# time and peak memory), the import benchmark (bench_import: cold, warm, no-op, -j1 vs
# -j2) and then checks, independently of kiln's own "source_read" flags, that a no-op report opens
# no source file: the report runs once more under `strace -f -e trace=openat` and the openat calls
# on the copied image tree are counted. Numbers are printed, never asserted.
#
#   sh bench/run.sh [BUILD_DIR]       (default: build)
#   KILN_BENCH_RUNS=N    runs per case (default 5)
#   KILN_BENCH_JOBS=N    worker threads for warm and no-op (default 2)
#   KILN_BENCH_CORPUS=D  the image tree (default: <repo>/../shared/corpus/images)
#   KILN_BENCH_GLTF_CORPUS=D  the glTF models (default: <repo>/../shared/corpus/gltf)
set -eu

build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${KILN_BENCH_RUNS:-5}
jobs=${KILN_BENCH_JOBS:-2}
corpus=${KILN_BENCH_CORPUS:-$here/../shared/corpus/images}
bin=$build/bench/bench_import

# glTF parsing first: the image part below ends early when its corpus or strace is missing.
gltf_bin=$build/bench/bench_gltf
gltf_corpus=${KILN_BENCH_GLTF_CORPUS:-$here/../shared/corpus/gltf}
if [ ! -x "$gltf_bin" ]; then
    echo "run.sh: $gltf_bin is not built (assimp missing?); the glTF benchmark is skipped" >&2
elif [ ! -d "$gltf_corpus" ]; then
    echo "run.sh: no glTF corpus at $gltf_corpus (set KILN_BENCH_GLTF_CORPUS); glTF skipped" >&2
else
    "$gltf_bin" --corpus "$gltf_corpus" --runs "$runs"
    echo
fi

if [ ! -x "$bin" ]; then
    echo "run.sh: $bin is not built (cmake --build $build --target bench_import)" >&2
    exit 2
fi
if [ ! -d "$corpus" ]; then
    echo "run.sh: no image corpus at $corpus (set KILN_BENCH_CORPUS); nothing to measure" >&2
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kiln-bench-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
work=$tmp/work
"$bin" --corpus "$corpus" --runs "$runs" --jobs "$jobs" --workdir "$work"

root=$work/images
out=$work/out-j$jobs

# Counts openat calls in an strace log: on source files of the image tree (not folders, not
# .meta), on folders of the tree, and on the output folder (records and manifests: proves the
# trace saw the report's own reads at all).
count_opens() {
    log=$1
    sources=$(grep -F "\"$root/" "$log" | grep -v O_DIRECTORY | grep -vc '\.meta"' || true)
    metas=$(grep -F "\"$root/" "$log" | grep -c '\.meta"' || true)
    dirs=$(grep -F "\"$root" "$log" | grep -c O_DIRECTORY || true)
    outs=$(grep -cF "\"$out/" "$log" || true)
    printf '%-22s %14s %10s %12s %14s\n' "$2" "$sources" "$metas" "$dirs" "$outs"
}

if ! command -v strace >/dev/null 2>&1; then
    echo "strace is not installed: the openat check is skipped"
    exit 0
fi
echo
echo "no-op report under strace -f -e trace=openat (openat calls):"
printf '%-22s %14s %10s %12s %14s\n' "report by" "image sources" ".meta" "tree folders" "output folder"
strace -f -e trace=openat -o "$tmp/bench.strace" "$bin" --report-once --root "$root" --out "$out" \
    --jobs "$jobs" >"$tmp/bench.txt"
count_opens "$tmp/bench.strace" "bench_import"
kiln=$build/tools/kiln/kiln
if [ -x "$kiln" ]; then
    strace -f -e trace=openat -o "$tmp/kiln.strace" "$kiln" report --root "$root" --out "$out" \
        -j "$jobs" --json >/dev/null
    count_opens "$tmp/kiln.strace" "kiln report --json"
fi
# Control: touching every source (new mtime and ctime, same bytes) defeats the stat shortcut, so
# this report must open each source once — the counting above would see reads if there were any.
find "$root" -type f -exec touch {} +
strace -f -e trace=openat -o "$tmp/touched.strace" "$bin" --report-once --root "$root" \
    --out "$out" --jobs "$jobs" >"$tmp/touched.txt"
count_opens "$tmp/touched.strace" "control: tree touched"
echo "no-op     $(cat "$tmp/bench.txt")"
echo "control   $(cat "$tmp/touched.txt")"
sh "$here/bench/textures.sh" "$build"
