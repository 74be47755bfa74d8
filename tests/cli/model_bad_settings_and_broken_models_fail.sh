# kiln model refuses bad settings with E_IMPORT_SETTINGS and the pointer of the field (exit 2), a
# broken model with E_IMPORT_FAILED and the pointer into the glTF (exit 1), a missing one with
# E_ASSET_IO (exit 1); it writes nothing then, not even OUTDIR. Models written here (no corpus).
mkdir -p assets
printf '%s' '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"children":[1]},{"children":[0]}]}' >assets/cycle.gltf
printf '%s' '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"empty"}]}' >assets/empty.gltf
k 2 model assets/empty.gltf out --set model.lods=[0.5,0.9]
show_err
k 2 model --json assets/empty.gltf out --set model.meshlet_max_vertices=300
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_SETTINGS", "/import/model/meshlet_max_vertices"]' "bad setting"
k 2 model --json assets/empty.gltf out --settings '{"model":{"compress":"zstd"}}'
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_SETTINGS", "/import/model/compress"]' "bad --settings"
k 2 model assets/empty.gltf out --textures some
show_err
k 2 model assets/empty.gltf
k 1 model assets/cycle.gltf out
show_err
k 1 model --json assets/cycle.gltf out
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/nodes/0"]' "broken model"
k 1 model --json assets/missing.glb out
expect_eq "$(j "d['error']['code']")" E_ASSET_IO "missing model"
[ ! -e out ] || fail "a refused cook wrote its output folder"
# A model of nodes only cooks: a material-less scene, no meshes, totals 0.
k 0 model --json assets/empty.gltf out
expect_eq "$(j "([a['label'] for a in d['artifacts']], d['summary']['triangles'], d['summary']['scene'])")" \
    '[["scene"], 0, {"nodes": 1, "primitives": 0}]' "nodes only"
