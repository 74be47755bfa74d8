# kiln model IN OUTDIR cooks one model without a project (no .kiln/, no cache) through the code path
# of an import: the files equal those `kiln import` puts in the cache entry of that model (same
# GUID: derived from the base name, which is the path of a model at the asset root); the same
# bytes with -j1 and -j2; --json lists every artifact (label, kind, file, size, asset id) and the
# summary; --textures none cooks the geometry alone; OUTDIR/manifest.json lists the same outputs
# as the cache entry's manifest, with the asset's guid and path. Skipped without the corpus.
src=${KILN_CORPUS:-}/gltf/BoxTextured/glTF
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src/BoxTextured.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
cp "$src/BoxTextured.gltf" "$src/BoxTextured0.bin" "$src/CesiumLogoFlat.png" assets/
chmod u+w assets/*
k 0 model assets/BoxTextured.gltf out
show
[ ! -e .kiln ] || fail "kiln model made an output folder"
k 0 model --json assets/BoxTextured.gltf out2 -j2
expect_eq "$(j "[(a['label'], a['kind'], a['file']) for a in d['artifacts']]")" \
    '[["image0", "image", "image0.ktx2"], ["material0", "material", "material0.kmat"], ["mesh0/prim0", "mesh", "mesh0.prim0.kmesh"], ["scene", "scene", "scene.kscene"]]' "artifacts"
expect_eq "$(j "[(m['label'], m['vertices'], m['triangles']) for m in d['summary']['meshes']]")" \
    '[["mesh0/prim0", 24, [12]]]' "mesh rows: vertices and triangles per level"
expect_eq "$(j "[(i['label'], i['role'], i['format'], i['width'], i['levels']) for i in d['summary']['images']]")" \
    '[["image0", "color", "bc7", 256, 9]]' "image rows"
expect_eq "$(j "(d['guid'], d['settings']['textures'], d['warnings'])")" \
    '["9f5963977c0077e2702e37e68c9eb3de", true, []]' "guid, settings, warnings"
diff -r out out2 >&2 || fail "-j1 and -j2 wrote different bytes"
k 0 model --json assets/BoxTextured.gltf geometry --textures none
expect_eq "$(j "[a['label'] for a in d['artifacts']]")" '["material0", "mesh0/prim0", "scene"]' "no image without textures"
expect_eq "$(j "(d['summary']['images'], d['settings']['textures'])")" '[[], false]' "no image rows"
cmp -s out/mesh0.prim0.kmesh geometry/mesh0.prim0.kmesh || fail "the mesh depends on --textures"
k 0 model assets/BoxTextured.gltf geometry2 --set model.textures=false --set model.quantize=false
show
k 0 import --json assets/BoxTextured.gltf
entry=$(j "d['records'][0]['entry']")
for f in out/*; do
    [ "$f" != out/manifest.json ] || continue # names the asset; an entry's names its key
    cmp -s "$f" "$entry/${f#out/}" || fail "kiln model and kiln import made different bytes in $f"
done
$PY - out/manifest.json "$entry/manifest.json" <<'EOF' || fail "kiln model's manifest lists other outputs than the entry's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["outputs"] == b["outputs"] and a["summary"] == b["summary"], "outputs or summary differ"
assert (a["guid"], a["path"], a["kind"]) == ("9f5963977c0077e2702e37e68c9eb3de", "BoxTextured.gltf", "model")
EOF
