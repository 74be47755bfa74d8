# kiln gltf: --help; a corpus model (BoxTextured: a texture, one mesh) written as .gltf with its
# side files and nothing else, and as a quantized, compressed .glb (--json); the errors: a
# missing input (E_ASSET_IO, exit 1), an output neither .glb nor .gltf (E_USAGE, exit 2), an
# output over the model's own buffer (E_OUTPUT_REFUSED, exit 2, nothing written), bad option
# values (exit 2).
[ -d "${KILN_CORPUS:-}/gltf/BoxTextured/glTF" ] || { echo "no corpus" >&2; exit 77; }
cp -r "$KILN_CORPUS/gltf/BoxTextured/glTF" model
k 0 gltf --help
show
mkdir out
k 0 gltf model/BoxTextured.gltf out/box.gltf --quantize
show
ls out
k 0 gltf model/BoxTextured.gltf out/box.glb --quantize --compress --json
j "d['written']['triangles'], d['written']['vertices'], d['extensions']"
j "[f['file'] for f in d['files']]"
ls out
k 1 gltf model/missing.gltf out/x.glb
show_err
k 2 gltf model/BoxTextured.gltf out/x.obj
show_err
k 2 gltf model/BoxTextured.gltf model/BoxTextured0.gltf
show_err
[ -e model/BoxTextured0.gltf ] && fail "an output refused was written"
k 2 gltf model/BoxTextured.gltf out/x.glb --position-bits 20
show_err
k 2 gltf model/BoxTextured.gltf out/x.glb --simplify
show_err
k 2 gltf model/BoxTextured.gltf
show_err
ls out
