# inspect of the corpus MeshPrimitiveModes (one mesh per mode: POINTS, LINES, LINE_LOOP, LINE_STRIP,
# TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN; 7 vertices each) counts every primitive and vertex, no
# triangles for points and lines, n/3 for the list and n - 2 for the strip and the fan: 6 + 4 + 6 =
# 16. The numbers are also computed here from the .gltf's own JSON and must agree. The four point
# and line primitives are dropped with a warning each; the external and embedded variants agree.
# Skipped without the corpus.
src=${KILN_CORPUS:-}/gltf/MeshPrimitiveModes
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src/glTF/MeshPrimitiveModes.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets/ext assets/emb
cp "$src/glTF/MeshPrimitiveModes.gltf" "$src/glTF/buffer.bin" assets/ext/
cp "$src/glTF-Embedded/MeshPrimitiveModes.gltf" assets/emb/
# What the file declares, read independently of kiln: per primitive, n = the index count (else the
# vertex count); TRIANGLES n/3, strips and fans n - 2, other modes 0.
declared=$($PY - assets/ext/MeshPrimitiveModes.gltf <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
acc = d["accessors"]
prims = verts = tris = dropped = 0
for m in d["meshes"]:
    for p in m["primitives"]:
        mode = p.get("mode", 4)
        v = acc[p["attributes"]["POSITION"]]["count"]
        n = acc[p["indices"]]["count"] if "indices" in p else v
        prims += 1
        verts += v
        tris += n // 3 if mode == 4 else max(n - 2, 0) if mode in (5, 6) else 0
        dropped += mode < 4
print(json.dumps([len(d["nodes"]), len(d["meshes"]), prims, verts, tris, dropped]))
PY
) || fail "reading the .gltf"
expect_eq "$declared" '[7, 7, 7, 49, 16, 4]' "counts read from the .gltf"
k 0 inspect assets/ext/MeshPrimitiveModes.gltf
show
counts="[d[k] for k in ('nodes', 'meshes', 'primitives', 'vertices', 'triangles', 'dropped_primitives')]"
for variant in ext emb; do
    k 0 inspect --json assets/$variant/MeshPrimitiveModes.gltf
    expect_eq "$(j "$counts")" "$declared" "$variant: kiln's counts against the file's"
    expect_eq "$(j "[d[k] for k in ('materials', 'textures', 'images', 'skins', 'animations', 'roots')]")" '[0, 0, 0, 0, 0, 7]' "$variant: the rest"
    expect_eq "$(j "[w.split(':')[0] for w in d['warnings']]")" \
        '["/meshes/0/primitives/0", "/meshes/1/primitives/0", "/meshes/2/primitives/0", "/meshes/3/primitives/0"]' "$variant: one warning per dropped primitive"
    # Bounds: the drawn meshes only (triangles, strip, fan: nodes 4..6 at y = -3, x = -2, 0, 2).
    expect_eq "$(j "{k: [round(c, 4) for c in v] for k, v in d['bounds'].items()}")" '{"max": [2.866, -2.0, 0.0], "min": [-2.866, -4.0, 0.0]}' "$variant: bounds"
done
