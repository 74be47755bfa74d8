# inspect of cooked virtual geometry (kind VGEO) goes through kiln_vgeo_read: the worked example
# of docs/formats.md (tests/golden/vgeo_three_levels.vgeo: four cells, two halves, one root) shows
# its mesh, counts, root and per level its clusters, triangles and errors; the stalled DAG says
# so. The transcript is pinned; the --json document must match the schema's vgeo member, and a
# damaged file (a non-monotonic error under a valid checksum) is E_FORMAT_INVALID naming it.
cp "${KILN_SOURCE_DIR:?}/tests/golden/vgeo_three_levels.vgeo" three_levels.vgeo || fail "no golden file"
chmod u+w three_levels.vgeo
for f in stalled bad_error; do
    cp "${KILN_SOURCE_DIR:?}/fuzz/corpus/vgeo/$f.vgeo" "$f.vgeo" || fail "no seed $f"
    chmod u+w "$f.vgeo"
done
k 0 inspect three_levels.vgeo
expect_said "kiln container VGEO version 1" "the kind in the text"
expect_said "virtual geometry of mesh 0x0123456789abcdef (9 vertices, extent 2): 8 source triangles" "the mesh"
expect_said "3 levels, 2 groups, 7 clusters of at most 64 vertices / 124 triangles" "the counts"
expect_said "    1         2          4  0.1 .. 0.1" "level 1"
k 0 inspect stalled.vgeo
expect_said "2 roots: simplification stalled" "the stalled DAG"
k 0 inspect --json three_levels.vgeo
expect_eq "$(j "(d['kind'], d['vgeo']['root_count'], [(l['clusters'], l['triangles'], l['error_max']) for l in d['vgeo']['levels']])")" \
    '["VGEO", 1, [[4, 8, 0.0], [2, 4, 0.1], [1, 2, 0.3]]]' "levels"
k 1 inspect --json bad_error.vgeo
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "a non-monotonic error"
flip_byte three_levels.vgeo 600
k 1 inspect --json three_levels.vgeo
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "a damaged file"
