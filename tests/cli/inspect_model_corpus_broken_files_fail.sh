# inspect of the deliberately broken assimp-* models of the corpus fails with exit 1 and
# E_IMPORT_FAILED naming the bad field by its JSON pointer: indices past the vertex count, "scene"
# without scenes, and the node cycle (0 -> 1 -> 0), which must fail at once, not hang.
# Skipped without the corpus.
src=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src/assimp-RecursiveNodes/glTF/RecursiveNodes.gltf" ] ||
    [ ! -f "$src/assimp-IndexOutOfRange/glTF/IndexOutOfRange.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
cp "$src/assimp-IndexOutOfRange/glTF/"* "$src/assimp-RecursiveNodes/glTF/RecursiveNodes.gltf" \
    "$src/assimp-TestNoRootNode/glTF/NoScene.gltf" assets/
# A cycle must not hang: bounded here, well inside the test's own timeout.
timeout 20 "$KILN_EXE" inspect --json assets/RecursiveNodes.gltf >/dev/null 2>&1
status=$?
[ "$status" -ne 124 ] || fail "inspect of a node cycle did not end within 20 s"
k 1 inspect --json assets/RecursiveNodes.gltf
show
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/nodes/0"]' "node cycle"
k 1 inspect assets/RecursiveNodes.gltf
show_err
k 1 inspect --json assets/IndexOutOfRange.gltf
show
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/meshes/0/primitives/0/indices"]' "one index out of range"
k 1 inspect --json assets/AllIndicesOutOfRange.gltf
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/meshes/0/primitives/0/indices"]' "all indices out of range"
k 1 inspect --json assets/NoScene.gltf
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/scene"]' "scene without scenes"
