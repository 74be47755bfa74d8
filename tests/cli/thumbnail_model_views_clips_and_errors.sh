# kiln thumbnail draws models headless under the validation layer (KILN_VULKAN_VALIDATION=1: any
# message fails the command): a corpus model's scene in every view, a skinned one posed at two
# times of its clip (the pictures differ) and at rest (--clip none), a single mesh, a material
# on a sphere, a forced LOD, and the framing options (--bounds, --background, --camera). Each
# picture has the size asked for and more than a few colours. Refused with stable codes: a clip
# the scene lacks, bad option values, a cooked scene file alone (its meshes are named by id).
# Skipped without Vulkan or the corpus.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
c=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/CesiumMan/glTF/CesiumMan.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets
cp -r "$c/BoxTextured/glTF" assets/box
cp -r "$c/CesiumMan/glTF" assets/man
"$KILN_EXE" import --all -q || fail "import"
"$KILN_EXE" thumbnail box/BoxTextured.gltf#scene -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    cat "$ERR" >&2
    exit 77
fi
# distinct PATH: how many distinct RGBA pixels a PNG holds (python3-pil).
distinct() {
    $PY -c "from PIL import Image; import sys; im = Image.open(sys.argv[1]); \
print(im.size[0], im.size[1], len(set(im.convert('RGBA').getdata())))" "$1" || fail "distinct $1"
}
for v in lit unlit normals uv lod meshlets; do
    k 0 thumbnail box/BoxTextured.gltf#scene -o "box_$v.png" --size 96 --view "$v" -q
    set -- $(distinct "box_$v.png")
    [ "$1 $2" = "96 96" ] || fail "box $v: size $1x$2"
    want=3 # one flat colour with the background in the LOD and meshlet views of a box
    [ "$v" = lod ] || [ "$v" = meshlets ] && want=2
    [ "$3" -ge "$want" ] || fail "box $v: $3 colours"
done
k 0 thumbnail assets/man/CesiumMan.gltf -o man_t0.png --size 128 --time 0
show
k 0 thumbnail assets/man/CesiumMan.gltf -o man_t1.png --size 128 --time 1
k 0 thumbnail assets/man/CesiumMan.gltf -o man_rest.png --size 128 --clip none
cmp -s man_t0.png man_t1.png && fail "the clip at 0 s and 1 s drew the same picture"
cmp -s man_t0.png man_rest.png && fail "clip 0 at 0 s and the rest pose drew the same picture"
k 0 thumbnail 'man/CesiumMan.gltf#mesh0/prim0' -o mesh.png --size 64 --view normals
show
k 0 thumbnail 'box/BoxTextured.gltf#material0' -o sphere.png --size 64
show
k 0 thumbnail box/BoxTextured.gltf#scene -o framed.png --size 64 --view unlit --camera front \
    --background 0,0,0 --bounds -2,-2,-2,2,2,2 --lod 3
show
k 2 thumbnail assets/man/CesiumMan.gltf -o x.png --clip 7
show_err
k 2 thumbnail assets/man/CesiumMan.gltf -o x.png --background 1,2
show_err
k 2 thumbnail assets/man/CesiumMan.gltf -o x.png --bounds 0,0,0,1,1
show_err
scene=$(ls .kiln/cache/objects/*/*/scene.kscene | head -n 1)
cp "$scene" alone.kscene
k 2 thumbnail alone.kscene -o x.png
show_err
[ ! -e x.png ] || fail "a refused thumbnail left x.png"
