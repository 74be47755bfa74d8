# kiln import of models in a project: a .gltf with an external .bin (a skin and a clip) and a .glb
# with morph targets cook into one cache entry each (images, materials, skeletons, meshes, clips,
# scene), the import and report documents carry the model summary (checked against
# common.schema.json's modelSummary), and one byte of the external .bin makes that model stale.
# Skipped without the corpus.
c=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/RiggedSimple/glTF/RiggedSimple.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets/rig
cp "$c/RiggedSimple/glTF/RiggedSimple.gltf" "$c/RiggedSimple/glTF/RiggedSimple0.bin" assets/rig/
cp "$c/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb" assets/
chmod u+w assets/rig/* assets/*.glb
k 0 import --all
show
k 0 import --all --json
expect_eq "$(j "[(r['path'], r['kind'], r['status']) for r in d['records']]")" \
    '[["AnimatedMorphCube.glb", "model", "cached"], ["rig/RiggedSimple.gltf", "model", "cached"]]' "records"
expect_eq "$(j "[o['name'] for o in d['records'][1]['outputs']]")" \
    '["rig/RiggedSimple.gltf#material0", "rig/RiggedSimple.gltf#skeleton0", "rig/RiggedSimple.gltf#mesh0/prim0", "rig/RiggedSimple.gltf#clip0", "rig/RiggedSimple.gltf#scene"]' "outputs"
expect_eq "$(j "[(s['label'], s['joints']) for s in d['records'][1]['summary']['skeletons']]")" '[["skeleton0", 2]]' "skeleton row"
expect_eq "$(j "[(c['label'], c['tracks'], c['keys_before'], c['keys_after']) for c in d['records'][1]['summary']['clips']]")" \
    '[["clip0", 3, 150, 7]]' "clip row"
expect_eq "$(j "[(m['label'], m['vertices'], m['triangles']) for m in d['records'][0]['summary']['meshes']]")" \
    '[["mesh0/prim0", 24, [12]]]' "morph cube mesh row"
k 0 report --json
expect_eq "$(j "[(r['path'], r['state'], r['summary']['scene']) for r in d['assets']]")" \
    '[["AnimatedMorphCube.glb", "up_to_date", {"nodes": 1, "primitives": 1}], ["rig/RiggedSimple.gltf", "up_to_date", {"nodes": 5, "primitives": 1}]]' "report rows"
flip_byte assets/rig/RiggedSimple0.bin 100
k 0 report
show
