# inspect of the corpus Fox as .glb and as .gltf (external .bin and PNG) gives the counts the file
# declares: 26 nodes, 1 mesh, 1 primitive, 1728 vertices (not indexed), 576 triangles, 1 material,
# texture and image, 1 skin of 24 joints, 3 animations (Survey, Walk, Run, 21 channels each). The two
# containers describe the same model. Skipped without the corpus.
src=${KILN_CORPUS:-}/gltf/Fox
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src/glTF-Binary/Fox.glb" ] || [ ! -f "$src/glTF/Fox.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
# Copies under the project folder, so the files read show as <W>/... in the transcript.
mkdir -p assets/glb assets/gltf
cp "$src/glTF-Binary/Fox.glb" assets/glb/
cp "$src/glTF/Fox.gltf" "$src/glTF/Fox.bin" "$src/glTF/Texture.png" assets/gltf/
k 0 inspect assets/glb/Fox.glb
show
k 0 inspect --json assets/glb/Fox.glb
show
counts="[d[k] for k in ('nodes', 'meshes', 'primitives', 'vertices', 'triangles', 'materials', 'textures', 'images', 'skins', 'animations')]"
expect_eq "$(j "$counts")" '[26, 1, 1, 1728, 576, 1, 1, 1, 1, 3]' "Fox.glb counts"
expect_eq "$(j "(d['joints'], d['format'], d['files'], d['warnings'])")" '[24, "glb", [], []]' "Fox.glb joints, format, files"
expect_eq "$(j "[(a['name'], a['channels'], round(a['duration'], 4)) for a in d['animation_list']]")" \
    '[["Survey", 21, 3.4167], ["Walk", 21, 0.7083], ["Run", 21, 1.1583]]' "Fox.glb animations"
cp "$OUT" glb.json
k 0 inspect assets/gltf/Fox.gltf
show
k 0 inspect --json assets/gltf/Fox.gltf
expect_eq "$(j "$counts")" '[26, 1, 1, 1728, 576, 1, 1, 1, 1, 3]' "Fox.gltf counts"
expect_eq "$(j "(d['format'], [f.rsplit('/', 1)[1] for f in d['files']])")" '["gltf", ["Texture.png", "Fox.bin"]]' "Fox.gltf files"
# Everything but the container, the file name and the files read is equal.
$PY - glb.json "$OUT" <<'PY' || fail "Fox.glb and Fox.gltf describe different models"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("format", "file", "files"):
        del d[k]
sys.exit(a != b)
PY
