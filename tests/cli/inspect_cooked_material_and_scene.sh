# inspect tells a kiln container by its "KILN" magic, whatever the file is called, and prints the
# header, the section table and what the kind's reader finds: a material (factors, flags, each
# slot's image id, sampler and texture transform) and a scene (the node tree in depth-first
# pre-order under a synthetic root, mesh, skin, camera and light references, clips). The cooked
# files are the test fixture's, written by kiln's own code (tests/cooked_formats/kt_write_cooked).
# A flipped byte is E_FORMAT_INVALID (checksum), another container version E_FORMAT_VERSION, a
# container of a kind without a reader here (tests/golden/container_small.bin, kind TEST) gets the
# section table alone; the schema refuses wrong container documents.
gen=${KILN_BINARY_DIR:?}/tests/cooked_formats/kt_write_cooked
[ -x "$gen" ] || fail "no $gen (build the tests)"
"$gen" . || fail "kt_write_cooked"
cp painted.matl painted.bin
k 0 inspect painted.bin
show
k 0 inspect --json painted.matl
show
expect_eq "$(j "d['material']['textures']['base_color']['matrix'][1:5]")" '[-2.0, 3.0, -1.3113417e-07, 0.5]' "rotation of 90 degrees, scale 2, 3"
k 0 inspect flat.matl
show
k 0 inspect demo.scen
show
k 0 inspect --json demo.scen
expect_eq "$(j "[(n['name'], n['parent'], n['subtree_end']) for n in d['scene']['nodes']]")" \
    '[["demo", null, 7], ["root_a", 0, 5], ["child_mesh", 1, 3], ["child_cam", 1, 5], ["grandchild", 3, 5], ["root_b", 0, 7], ["leaf", 5, 7]]' \
    "pre-order, parents first"
expect_eq "$(j "[d['scene']['nodes'][i]['primitives'] == d['scene']['nodes'][2]['primitives'] for i in (2, 4)]")" '[true, true]' "one mesh, one range"
expect_eq "$(j "(d['scene']['synthetic_root'], len(d['scene']['clips']), d['sections'][1]['id'], d['sections'][1]['element_size'])")" '[true, 2, "NODE", 168]' "scene summary"
cp "$OUT" scene.json
k 0 inspect one_root.scen
show
# Damage.
cp painted.matl flipped.matl
flip_byte flipped.matl 300
k 1 inspect flipped.matl
show_err
k 1 inspect --json flipped.matl
expect_eq "$(j "(d['error']['code'], 'checksum' in d['error']['message'])")" '["E_FORMAT_INVALID", true]' "checksum"
cp demo.scen future.scen
flip_byte future.scen 4
k 1 inspect --json future.scen
show
head -c 100 demo.scen >cut.scen
k 1 inspect --json cut.scen
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "truncated"
cp "$KILN_SOURCE_DIR/tests/golden/container_small.bin" small.bin
k 0 inspect small.bin
show
k 0 inspect --json small.bin
expect_eq "$(j "(d['kind'], [s['id'] for s in d['sections']], 'material' in d)")" '["TEST", ["WRDS", "TEXT", "NONE", "VEC3"], false]' "unknown kind"

# The schema is not vacuous for containers.
bad() {
    $PY - scene.json "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open("bad.json", "w"))
PY
    if $PY "$KILN_CLI_DIR/validate.py" inspect bad.json 2>/dev/null; then fail "the inspect schema accepted: $1"; fi
    echo "refused: $1"
}
$PY "$KILN_CLI_DIR/validate.py" inspect scene.json || fail "the scene document was refused"
bad "del d['scene']"
bad "d['kind'] = 5"
bad "d['sections'][0]['offset'] = -16"
bad "d['scene']['nodes'][2]['primitives'][0] = 12345"
bad "d['scene']['nodes'][0]['parent'] = -1"
bad "d['scene']['nodes'][0]['rotation'] = [0, 0, 1]"
bad "d['scene']['cameras'][0]['type'] = 'fisheye'"
bad "d['extra'] = 1"
bad "d['material'] = {}"
