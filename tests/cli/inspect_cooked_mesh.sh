# inspect of a cooked mesh (kind MESH) goes through kiln_mesh_read: the fixture's triangle
# (tests/cooked_formats/kt_write_cooked, default mesh options) shows its vertex and index counts,
# one level of one triangle, its material id and its streams. No transcript is pinned (the mesh
# layout belongs to the mesh cook); the values that matter are asserted, and the document must
# match the schema's container variant.
gen=${KILN_BINARY_DIR:?}/tests/cooked_formats/kt_write_cooked
[ -x "$gen" ] || fail "no $gen (build the tests)"
"$gen" . || fail "kt_write_cooked"
k 0 inspect tri.mesh
expect_said "kiln container MESH version 1" "the kind in the text"
expect_said "level 0: 1 triangles" "the level in the text"
k 0 inspect --json tri.mesh
expect_eq "$(j "(d['kind'], d['mesh']['vertex_count'], d['mesh']['index_count'], [l['triangles'] for l in d['mesh']['levels']])")" \
    '["MESH", 3, 3, [1]]' "mesh counts"
expect_eq "$(j "d['mesh']['material'] == '0x%016x' % 0x225290552a086389")" true "material id is kiln_asset_id(guid, 'material0')"
expect_eq "$(j "[s['stream'] for s in d['mesh']['streams']][0]")" position "first stream"
flip_byte tri.mesh 600
k 1 inspect --json tri.mesh
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "a damaged mesh"
