# What `kiln model IN OUTDIR` writes mounts in libkiln_rt as is: OUTDIR holds, beside one file per
# artifact, a manifest.json (a cache entry's, naming the asset's guid and path), so
# krt_mount_cache(OUTDIR) mounts it as one entry and loads "<IN's file name>#label" (the ids an
# import at the asset root gives); `kiln inspect OUTDIR` lists it. A cache entry folder mounted
# instead of its cache says which folder to mount (E_USAGE). Run through kiln-rt-example; skipped
# when it was not built.
need_rt_example
mktri assets/tri.gltf
k 0 model assets/tri.gltf "$TMPR/cooked"
rt 0 "$TMPR/cooked" 'tri.gltf#scene' 'tri.gltf#mesh0/prim0'
show
k 0 inspect "$TMPR/cooked"
show
k 0 inspect --json "$TMPR/cooked"
ids=$(j "[a['asset_id'] for a in d['artifacts']]")
k 0 import --json --all
entry=$(j "d['records'][0]['entry']")
expect_eq "$(j "['0x' + o['asset_id'] for o in d['records'][0]['outputs']]")" "$ids" "the ids of an import at the root"
rt 2 "$entry" 'tri.gltf#scene'
show_err
