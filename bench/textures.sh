#!/bin/sh
# bench/textures.sh — the texture-encoder benchmark: runs bench_textures (kiln's BC7,
# BC1, BC4, BC5 and ASTC 4x4 at fast/normal/high against bc7enc_rdo and astcenc, on the Kodak
# photos, the normal maps and a synthetic picture) with the peers found here. bench/run.sh calls
# it at its end; it also runs alone. Numbers are printed, never asserted; docs/performance.md
# ("Textures") says what they mean.
#
#   sh bench/textures.sh [BUILD_DIR] [bench_textures options...]   (default BUILD_DIR: build)
#   e.g. sh bench/textures.sh build-release --sets kodak --formats bc7
#   KILN_BENCH_TEX_RUNS=N  runs per measurement, the minimum is kept (default 1)
#   KILN_BENCH_CORPUS=D    the image tree holding kodak/ and normal/ (default: <repo>/../shared/corpus/images)
#
# Peers: the bc7enc command comes from the npm package @gpu-tex-enc/bc pinned in bench/node/
# (installed there with `npm ci` when missing and npm is present); it needs libomp5 and runs with
# OMP_NUM_THREADS set per measurement. astcenc is Debian's command on PATH. A missing peer is
# reported and its columns stay empty.
set -eu

build=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${KILN_BENCH_TEX_RUNS:-1}
corpus=${KILN_BENCH_CORPUS:-$here/../shared/corpus/images}
bin=$build/bench/bench_textures

if [ ! -x "$bin" ]; then
    echo "textures.sh: $bin is not built (cmake --build $build --target bench_textures)" >&2
    exit 2
fi
if [ ! -d "$corpus" ]; then
    echo "textures.sh: no image corpus at $corpus (set KILN_BENCH_CORPUS); only the synthetic picture" >&2
fi

node_dir=$here/bench/node
bc7enc=$node_dir/node_modules/@gpu-tex-enc/bc/bin/linux/bc7enc
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "textures.sh: the packaged bc7enc is built for Linux x86_64 only; bc7enc is not run" >&2
    bc7enc=none
elif [ ! -x "$bc7enc" ] && command -v npm >/dev/null 2>&1; then
    echo "textures.sh: installing the peer encoders (npm ci in bench/node)" >&2
    (cd "$node_dir" && npm ci --no-audit --no-fund >&2) || true
fi
if [ "$bc7enc" != none ]; then
    # Run with no input it prints its usage; failing to start (no libomp.so.5) prints nothing.
    if [ ! -x "$bc7enc" ] || ! "$bc7enc" 2>&1 | grep -q 'bc7enc v'; then
        echo "textures.sh: bc7enc is missing or does not start (npm ci in bench/node; libomp5-14)" >&2
        bc7enc=none
    fi
fi
astcenc=none
if command -v astcenc >/dev/null 2>&1; then
    astcenc=$(command -v astcenc)
else
    echo "textures.sh: astcenc is not on PATH; it is not run" >&2
fi

echo
echo "texture encoders (bench_textures, $(date -u +%Y-%m-%d), $(nproc) CPUs):"
"$bin" --corpus "$corpus" --bc7enc "$bc7enc" --astcenc "$astcenc" --runs "$runs" "$@"
