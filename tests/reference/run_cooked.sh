#!/bin/sh
# run_cooked.sh KILN BREAK_COOKED OUT_DIR — the three.js comparison of cooked corpus models
# (compare_cooked.py --check --breaks over every model of $KILN_CORPUS/gltf, or those of
# $KILN_REFERENCE_MODELS) with Debian's
# python3 (python3-pil); exit 77 (skip) without it, node, Chromium, the npm packages, Vulkan or
# the corpus.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ] || ! "$py" -c 'import PIL' 2>/dev/null; then
    echo "SKIP: python3 with PIL (python3-pil) is missing"; exit 77
fi
if ! command -v "${KILN_NODE:-node}" >/dev/null 2>&1; then echo "SKIP: node is missing"; exit 77; fi
if [ -z "${KILN_CORPUS:-}" ] || [ ! -d "$KILN_CORPUS/gltf" ]; then
    echo "SKIP: no corpus at '${KILN_CORPUS:-}'"; exit 77
fi
probe=$(mktemp -d) || exit 1
mkdir -p "$probe/assets" && cp "$KILN_CORPUS/gltf/Box/glTF-Binary/Box.glb" "$probe/assets/"
if ! (cd "$probe" && "$1" import --all -q && "$1" thumbnail Box.glb#scene -o probe.png -q); then
    rm -rf "$probe"
    echo "SKIP: kiln thumbnail cannot draw here (no Vulkan device?)"; exit 77
fi
rm -rf "$probe" "$3"
# Every draw under the validation layer: any message fails that thumbnail, and so the case.
export KILN_VULKAN_VALIDATION=1
# KILN_REFERENCE_MODELS=A,B,... compares those models only (the Makefile's sanitizer stages).
exec "$py" "$(dirname "$0")/compare_cooked.py" --kiln "$1" --break-tool "$2" --out "$3" \
    --corpus "$KILN_CORPUS" --models "${KILN_REFERENCE_MODELS:-all}" --breaks --check \
    --json "$3.json"
