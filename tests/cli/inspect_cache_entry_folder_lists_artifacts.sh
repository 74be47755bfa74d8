# kiln inspect on a cache entry folder (.kiln/cache/objects/<kk>/<key>/) or its manifest.json lists
# the entry's artifacts (label, kind, bytes, asset id, file) instead of reading the manifest as a
# glTF. Inside the project the asset ids and names come from the asset whose record names the
# entry; run elsewhere they are unknown (null). A manifest that is not kiln's is E_CACHE_CORRUPT,
# a folder without one E_ASSET_IO; both exit 1.
mktri assets/models/tri.gltf
k 0 import --json --all
entry=$(j "d['records'][0]['entry']")
k 0 inspect "$entry"
show
k 0 inspect --json "$entry/manifest.json"
expect_eq "$(j "(d['type'], d['kind'], d['key'] in d['folder'], d['assets'][0]['path'])")" \
    '["entry", "model", true, "models/tri.gltf"]' "the entry, its kind and asset"
expect_eq "$(j "[(a['label'], a['kind'], a['file'], a['name']) for a in d['artifacts']]")" \
    '[["mesh0/prim0", "mesh", "mesh0.prim0.kmesh", "models/tri.gltf#mesh0/prim0"], ["scene", "scene", "scene.kscene", "models/tri.gltf#scene"]]' "artifacts"
id=$(j "d['artifacts'][1]['asset_id']")
k 0 inspect --json 'models/tri.gltf#scene'
expect_eq "$(j "d['artifact']['asset_id']")" "$id" "the asset id the entry listing gives"
mkdir elsewhere
cd elsewhere
k 0 inspect --json "$entry"
expect_eq "$(j "(d['assets'], [a['asset_id'] for a in d['artifacts']])")" '[[], [null, null]]' "no project: no asset known"
cd ..
mkdir -p fake
printf '{"asset": {"version": "2.0"}}' >fake/manifest.json
k 1 inspect fake
show_err
k 1 inspect fake/manifest.json
show_err
k 1 inspect assets/models
show_err
