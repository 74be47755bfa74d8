#!/bin/sh
# render_corpus.sh CORPUS_GLTF_DIR OUT_DIR — renders every .gltf/.glb under the folder with
# render_threejs.mjs (256x256, auto camera, time 0) and prints one line per file:
# "ok SECONDS PATH" or "FAIL PATH: MESSAGE"; beside each PNG its info line (.json: bounds,
# camera, warnings, page errors). Used for the lists in docs/rendering-reference.md.
set -u
src=$1 out=$2
here=$(dirname "$0")
mkdir -p "$out"
find "$src" \( -name '*.gltf' -o -name '*.glb' \) | LC_ALL=C sort | while IFS= read -r f; do
    rel=${f#"$src"/}
    png="$out/$(printf '%s' "$rel" | tr '/ ' '__').png"
    t0=$(date +%s.%N)
    if msg=$(node "$here/render_threejs.mjs" "$f" "$png" --size 256 256 \
                  --background 32,64,96 --info "$png.json" 2>&1 >/dev/null); then
        t1=$(date +%s.%N)
        printf 'ok %.2f %s\n' "$(echo "$t1 - $t0" | bc)" "$rel"
    else
        printf 'FAIL %s: %s\n' "$rel" "$(printf '%s' "$msg" | head -n 1)"
    fi
done
