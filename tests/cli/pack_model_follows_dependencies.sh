# kiln pack of one artifact brings what it needs: a mesh its material and the material's image,
# a clip its skeleton, the scene everything; a source path packs all its artifacts; an unknown
# label is a usage error listing the labels; inspect --json of the pack matches the schema.
# Skipped without the corpus.
c=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/BoxTextured/glTF/BoxTextured.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets/box assets/man
cp "$c/BoxTextured/glTF/"* assets/box/
cp "$c/CesiumMan/glTF-Binary/CesiumMan.glb" assets/man/
chmod -R u+w assets
k 0 pack 'box/BoxTextured.gltf#mesh0/prim0' -o mesh.kpak --json
expect_eq "$(j "sorted(e['name'] for e in d['entries'])")" \
    '["box/BoxTextured.gltf#image0", "box/BoxTextured.gltf#material0", "box/BoxTextured.gltf#mesh0/prim0"]' "mesh and what it needs"
k 0 pack 'man/CesiumMan.glb#clip0' -o clip.kpak --json
expect_eq "$(j "sorted((e['name'], e['kind']) for e in d['entries'])")" \
    '[["man/CesiumMan.glb#clip0", "CLIP"], ["man/CesiumMan.glb#skeleton0", "SKEL"]]' "clip and its skeleton"
k 0 pack 'man/CesiumMan.glb#scene' assets/box/BoxTextured.gltf -o scene.kpak --json
expect_eq "$(j "(d['totals']['assets'], len(d['entries']), sorted(set(e['kind'] for e in d['entries'])))")" \
    '[2, 10, ["CLIP", "KTX2", "MATL", "MESH", "SCEN", "SKEL"]]' "scene and a whole model"
k 0 inspect scene.kpak --json
expect_eq "$(j "(d['type'], d['entry_count'], [e['asset_id'] for e in d['entries']] == sorted(e['asset_id'] for e in d['entries']))")" \
    '["pack", 10, true]' "inspect: sorted by asset id"
k 0 pack --verify scene.kpak
show
k 2 pack 'box/BoxTextured.gltf#mesh9/prim0'
show_err
k 1 pack missing.gltf
show_err
