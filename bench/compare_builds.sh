#!/bin/sh
# bench/compare_builds.sh — two builds of kiln side by side in one run, for changes that must not
# make kiln slower (a refactor): the same commands run alternately with the OLD and the NEW
# `kiln` command, N times each, and the medians and the ratio NEW/OLD are printed per case.
# Alternating spreads the noise of a shared machine over both builds alike.
#
# Usage: sh bench/compare_builds.sh OLD_KILN NEW_KILN
#   KILN_BENCH_RUNS=N        runs of the cold import per build (default 5)
#   KILN_BENCH_QUICK_RUNS=N  runs of every other case per build (default 11)
#   KILN_BENCH_CORPUS=D   the third-party corpus (default ../shared/corpus beside the checkout)
#
# Cases (every one in a fresh or prepared folder under a temporary directory):
#   import-cold   import --all of the glTF, FBX and OBJ corpus into an empty cache, -j2
#   import-noop   the same again over the filled cache (every asset cached)
#   report        report over the filled cache
#   model-*       `kiln model IN OUT --textures none -j1` of the larger glTF models
#   pack          pack (into the output folder, where every build may write) of every asset the
#                 report calls up to date (the corpus holds invalid files
#                 on purpose: a pack of them all fails, after a different amount of work)
# Times are wall-clock milliseconds of the whole command (process start included). Numbers are
# printed, never asserted.
set -eu
old=$(realpath "$1")
new=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(realpath "${KILN_BENCH_CORPUS:-$here/../shared/corpus}")
cold_runs=${KILN_BENCH_RUNS:-5}
quick_runs=${KILN_BENCH_QUICK_RUNS:-11}
runs=$cold_runs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The models part of the corpus (images alone are the texture benchmark's).
mkdir -p "$tmp/src"
for d in gltf fbx obj; do cp -r "$corpus/$d" "$tmp/src/$d"; done

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run_case NAME CMD... : CMD with KILN replaced by each build, alternately; OUT is per build.
times_old=$tmp/t_old
times_new=$tmp/t_new
run_case() {
    name=$1
    shift
    : >"$times_old"
    : >"$times_new"
    i=0
    while [ "$i" -lt "$runs" ]; do
        for which in old new; do
            if [ "$which" = old ]; then k=$old; else k=$new; fi
            [ -n "${PREPARE:-}" ] && eval "$PREPARE"
            t0=$(now_ms)
            eval "$@" >/dev/null 2>&1 || true
            t1=$(now_ms)
            echo $((t1 - t0)) >>"$tmp/t_$which"
        done
        i=$((i + 1))
    done
    mo=$(sort -n "$times_old" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    mn=$(sort -n "$times_new" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    awk -v n="$name" -v o="$mo" -v w="$mn" \
        'BEGIN { printf "%-28s %10d %10d %8.3f\n", n, o, w, (o > 0 ? w / o : 0) }'
}

printf "%-28s %10s %10s %8s\n" case "old ms" "new ms" "new/old"
PREPARE='rm -rf "$tmp/out_$which"'
run_case import-cold '"$k" import --all --root "$tmp/src" --out "$tmp/out_$which" -j 2'
PREPARE=
runs=$quick_runs
run_case import-noop '"$k" import --all --root "$tmp/src" --out "$tmp/out_$which" -j 2'
run_case report '"$k" report --root "$tmp/src" --out "$tmp/out_$which"'
for m in gltf/DamagedHelmet/glTF/DamagedHelmet.gltf gltf/Fox/glTF/Fox.gltf \
    gltf/CesiumMan/glTF/CesiumMan.gltf; do
    [ -f "$tmp/src/$m" ] || continue
    run_case "model-$(basename "$m" .gltf)" \
        '"$k" model "$tmp/src/'"$m"'" "$tmp/model_$which" --textures none -j1'
done
# The assets both builds cooked, as the new build's report names them.
"$new" report --root "$tmp/src" --out "$tmp/out_new" --json >"$tmp/report.json" || true
python3 - "$tmp/report.json" "$tmp/assets.txt" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["assets"]
open(sys.argv[2], "w").write("".join(r["path"] + "\0" for r in rows if r["state"] == "up_to_date"))
EOF
run_case pack '(cd "$tmp/src" && xargs -0 "$k" pack --root "$tmp/src" --out "$tmp/out_$which" \
    -o "$tmp/out_$which/all.kpak" <"$tmp/assets.txt")'
echo "runs: cold import $cold_runs, other cases $quick_runs per build; old: $old; new: $new"
