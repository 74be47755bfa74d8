# kiln thumbnail of a virtual geometry (NAME#vgeo<i>/prim<p>) draws the cut kiln_vgeo_select makes
# for the thumbnail's own camera, under the validation layer: Suzanne cooked with
# model.virtual_geometry, its camera moved to 1, 4 and 16 times the framing distance (--distance):
# the cut's triangles fall; --cut-distance 4 makes the same cut seen from the framing camera (a
# different picture); a larger --pixel-error never draws more; every view of a cut draws, and
# clusters and levels differ. --distance and --pixel-error reach a mesh's LOD choice too.
# Refused (E_USAGE): a mesh's views on a cut and the cut's on a mesh, bad option values.
# Counts are read from the "drawn" text (they follow the DAG builder: not pinned). Skipped
# without Vulkan or the corpus.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
c=${KILN_CORPUS:-}/gltf/Suzanne/glTF
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/Suzanne.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets
cp "$c/Suzanne.gltf" "$c/Suzanne.bin" assets/
printf '{"import": {"model": {"virtual_geometry": true, "textures": false}}}\n' \
    >assets/Suzanne.gltf.meta
"$KILN_EXE" import --all -q || fail "import"
v='Suzanne.gltf#vgeo0/prim0'
"$KILN_EXE" thumbnail "$v" -o probe.png >"$OUT" 2>"$ERR"
if grep -q "vulkan: \|built without its Vulkan renderer" "$ERR"; then
    cat "$ERR" >&2
    exit 77
fi
# tris ARGS...: the triangles a thumbnail drew, from its --json "drawn" text.
tris() {
    k 0 thumbnail "$@" --json >/dev/null
    j "d['drawn']" | sed -n 's/.* \([0-9][0-9]*\) triangles.*/\1/p'
}
t1=$(tris "$v" -o d1.png --size 128)
k 0 thumbnail "$v" -o d1.png --size 128 --json
expect_eq "$(j "d['kind']")" "virtual geometry" "the kind"
expect_grep "virtual geometry, clusters, cut of " "$OUT" "the default view and the cut's counts"
t4=$(tris "$v" -o d4.png --size 128 --distance 4)
t16=$(tris "$v" -o d16.png --size 128 --distance 16)
echo "triangles at distance 1, 4, 16: $t1 $t4 $t16" >&2
[ -n "$t1" ] && [ -n "$t4" ] && [ -n "$t16" ] || fail "no triangle count in the drawn text"
[ "$t4" -lt "$t1" ] || fail "distance 4 drew $t4 triangles, not fewer than distance 1's $t1"
[ "$t16" -lt "$t4" ] || fail "distance 16 drew $t16 triangles, not fewer than distance 4's $t4"
c4=$(tris "$v" -o c4.png --size 128 --cut-distance 4)
expect_eq "$c4" "$t4" "--cut-distance 4 makes the cut of --distance 4"
cmp -s c4.png d4.png && fail "the cut seen from the framing distance drew the camera's picture"
p4=$(tris "$v" -o p4.png --size 128 --pixel-error 4)
[ "$p4" -le "$t1" ] || fail "4 pixels of error drew $p4 triangles, more than 1 pixel's $t1"
for view in clusters levels lit unlit normals uv; do
    k 0 thumbnail "$v" -o "v_$view.png" --size 64 --view "$view" -q
    [ -s "v_$view.png" ] || fail "no picture in view $view"
done
cmp -s v_clusters.png v_levels.png && fail "clusters and levels drew the same picture"
m1=$(tris 'Suzanne.gltf#mesh0/prim0' -o m1.png --size 128)
m16=$(tris 'Suzanne.gltf#mesh0/prim0' -o m16.png --size 128 --distance 16)
[ "$m16" -lt "$m1" ] || fail "the mesh's LOD at distance 16 drew $m16 triangles, not below $m1"
k 2 thumbnail "$v" -o x.png --view lod
show_err
k 2 thumbnail 'Suzanne.gltf#mesh0/prim0' -o x.png --view levels
show_err
k 2 thumbnail "$v" -o x.png --distance 0
show_err
k 2 thumbnail "$v" -o x.png --cut-distance far
show_err
k 2 thumbnail "$v" -o x.png --pixel-error -1
show_err
[ ! -e x.png ] || fail "a refused thumbnail left x.png"
