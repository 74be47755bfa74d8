#!/bin/sh
# bench/materials_noop.sh — what a no-op import costs on a project of shaders with includes and
# typed materials (.kmat): N copies of tests/shaders (6 shaders and 3 include files each, include
# dirs root-relative) with 5 textures and 2 materials (one the instance of the other) per copy,
# made once under $KILN_BENCH_TMP (default /tmp/kiln-materials-bench), imported once, then the
# median of KILN_BENCH_RUNS (default 5) no-op `kiln import --all` and `kiln report` runs, each
# with how many records the no-op import opened (strace, when it can trace: a record is opened
# for each asset the record index does not answer). docs/cache.md ("The record index") gives
# the figures.
#
#   sh bench/materials_noop.sh [BUILD_DIR] [COPIES]       (default: build 40)
#   KILN_BENCH_KILN=PATH   another kiln command to measure (a build before a change)
#   KILN_BENCH_JOBS=N      worker threads (-j, default 2)
set -eu

build=${1:-build}
copies=${2:-40}
runs=${KILN_BENCH_RUNS:-5}
jobs=${KILN_BENCH_JOBS:-2}
tmp=${KILN_BENCH_TMP:-/tmp/kiln-materials-bench}
here=$(cd "$(dirname "$0")/.." && pwd)
kiln=${KILN_BENCH_KILN:-$(cd "$build" && pwd)/tools/kiln/kiln}
[ -x "$kiln" ] || { echo "materials_noop.sh: $kiln is not built" >&2; exit 1; }
py=${PYTHON:-python3}

dir=$tmp/c$copies
if [ ! -f "$dir/.generated" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/assets"
    echo '{}' >"$dir/kiln.json"
    "$py" - "$here/tests/shaders" "$dir/assets" "$copies" <<'PYEOF'
import os, shutil, struct, sys, zlib
src, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
def png(path, seed):
    rows = b"".join(b"\0" + bytes((x * 7 + y * 13 + seed * 31 + c * 50) & 255
                                  for x in range(8) for c in range(4)) for y in range(8))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
for i in range(n):
    c = os.path.join(root, "c%03d" % i)
    shutil.copytree(src, os.path.join(c, "shaders"),
                    ignore=shutil.ignore_patterns("broken", "CMakeLists.txt", "*.sh", "*.md"))
    with open(os.path.join(c, "shaders", "folder.meta"), "w") as f:
        f.write('{"shader": {"include_dirs": ["c%03d/shaders/include"]}}\n' % i)
    os.makedirs(os.path.join(c, "textures"))
    for t, name in enumerate(["base", "mr", "normal", "occlusion", "emissive"]):
        png(os.path.join(c, "textures", name + ".png"), i * 5 + t)
    os.makedirs(os.path.join(c, "materials"))
    with open(os.path.join(c, "materials", "painted.kmat"), "w") as f:
        f.write('{"vertex": "../shaders/pbr_forward.vert",\n'
                ' "fragment": {"shader": "../shaders/pbr_forward.frag", "variant": "normal_map"},\n'
                ' "parameters": {"metallic_factor": 0.25},\n'
                ' "textures": {"base_color_texture": "../textures/base.png",\n'
                '              "metallic_roughness_texture": "../textures/mr.png",\n'
                '              "normal_texture": "../textures/normal.png",\n'
                '              "occlusion_texture": "../textures/occlusion.png",\n'
                '              "emissive_texture": "../textures/emissive.png"}}\n')
    with open(os.path.join(c, "materials", "painted_red.kmat"), "w") as f:
        f.write('{"parent": "painted.kmat", "parameters": {"base_color_factor": [1, 0, 0, 1]}}\n')
PYEOF
    # old files: no signature of the first import is racy
    find "$dir/assets" -exec touch -d '1 minute ago' {} +
    touch "$dir/.generated"
fi

now() { date +%s.%N; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
time_of() { # time_of ARGS...: wall seconds of kiln ARGS in the project
    t0=$(now)
    (cd "$dir" && "$kiln" "$@" -j "$jobs" >/dev/null 2>&1) || true
    t1=$(now)
    echo "$t1 - $t0" | bc
}

rm -rf "$dir/.kiln"
(cd "$dir" && "$kiln" import --all -j "$jobs" >/dev/null 2>&1) || true
# The records folder changed just now: the index is trusted once 2 s have passed and an import
# has written it again.
sleep 2.2
(cd "$dir" && "$kiln" import --all -j "$jobs" >/dev/null 2>&1) || true
sleep 2.2
(cd "$dir" && "$kiln" import --all -j "$jobs") | tail -1
assets=$(cd "$dir" && "$kiln" report --json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["assets"]))')
records="?"
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    (cd "$dir" && strace -f -e trace=openat -o "$tmp/trace" "$kiln" import --all -j "$jobs" >/dev/null 2>&1) || true
    records=$(grep -v ENOENT "$tmp/trace" | grep -c -E '/assets/[0-9a-f]{32}\.json' || true)
fi
for cmd in import report; do
    : >"$tmp/times"
    r=0
    while [ $r -lt "$runs" ]; do
        if [ "$cmd" = import ]; then time_of import --all >>"$tmp/times"; else time_of report >>"$tmp/times"; fi
        r=$((r + 1))
    done
    printf '%-28s %8.3f s\n' "no-op kiln $cmd ($assets assets)" "$(median <"$tmp/times")"
done
echo "records opened by a no-op import: $records"
