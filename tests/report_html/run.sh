#!/bin/sh
# run.sh OUT_DIR — the page of `kiln report --html` in headless Chromium: builds a small project
# from the corpus in OUT_DIR/project (textures cooked to BC7, ASTC 4x4, BC5 and RGBA16F, three
# models, a shader, one texture made stale and one invalid), writes OUT_DIR/report.html and its
# pictures, and loads it with check_page.mjs, which writes OUT_DIR/report.png (a full-page
# screenshot: look at it). Environment: KILN_EXE, KILN_CORPUS. Exit 77 (skip) without node,
# Chromium, tests/node's npm packages or the corpus.
set -u
out=${1:?usage: run.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd -P)
node=${KILN_NODE:-node}
c=${KILN_CORPUS:-}
command -v "$node" >/dev/null 2>&1 || { echo "SKIP: node is missing"; exit 77; }
[ -n "$c" ] && [ -f "$c/gltf/Fox/glTF/Fox.gltf" ] || { echo "SKIP: no corpus at '$c'"; exit 77; }
: "${KILN_EXE:?KILN_EXE must name the kiln command}"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

rm -rf "$out/project" "$out/report.html" "$out/report.html.d" "$out/report.png"
p=$out/project
mkdir -p "$p/assets/textures" "$p/assets/models/fox" "$p/assets/models/box" "$p/assets/shaders"
cp "$c/images/kodak/kodim03.png" "$c/images/kodak/kodim07.png" "$c/images/normal/ldr-xy-normal1.png" \
    "$c/images/hdr/hdr-rgb-00.hdr" "$p/assets/textures/" || fail "copy the textures"
cp "$c/gltf/Fox/glTF/"* "$p/assets/models/fox/" || fail "copy Fox"
cp "$c/gltf/BoxTextured/glTF/"* "$p/assets/models/box/" || fail "copy BoxTextured"
cp "$c/gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb" "$p/assets/models/"
cp "$here/../shaders/flat_color.frag" "$p/assets/shaders/" || fail "copy the shader"
chmod -R u+w "$p/assets"
printf '{"import": {"texture": {"format": "astc4x4"}}}\n' >"$p/assets/textures/kodim07.png.meta"
printf '{"import": {"texture": {"normal_map": true}}}\n' >"$p/assets/textures/ldr-xy-normal1.png.meta"
(cd "$p" && "$KILN_EXE" import --all -q -j 2) || fail "kiln import --all"
# kodim03 made stale (one byte more at the end of the PNG is still the same picture), the
# shader made invalid by a setting its kind does not have.
printf '\n' >>"$p/assets/textures/kodim03.png"
printf '{"import": {"shader": {"no_such_field": 1}}}\n' >"$p/assets/shaders/flat_color.frag.meta"
(cd "$p" && "$KILN_EXE" report --html -o "$out/report.html") || fail "kiln report --html"
# One card per asset: 4 textures, 3 models, 1 shader.
"$node" "$here/check_page.mjs" "$out/report.html" "$out/report.png" --expect-cards 8
