# One mesh drawn by many nodes, each with a skin of its own joints (the shape of Khronos'
# RecursiveSkeletons: 84 skins over one mesh; tests/cli/mkskins.py writes it). A cooked mesh's
# joint indices follow one cooked skeleton's joint order, and the runtime poses each node with
# its own skeleton: instances of one character (other joint nodes, other inverse bind matrices,
# more joints, the same order) share one mesh; skins whose cooked order differs (listed child
# first) get a copy of the mesh in their order, "mesh0/prim0/skin<s>", shared by every skin of
# that order, and the scene points each node at its copy. No warning: every instance is right
# (tests/model/test_skin_instances.c poses each one against the source).
$PY "$KILN_CLI_DIR/mkskins.py" assets/recursive.gltf --tentacles 2 || fail "mkskins"
$PY "$KILN_CLI_DIR/mkskins.py" assets/mixed.gltf 3 2 1 || fail "mkskins"
k 0 import --all
show
k 0 import --all --force --json
expect_eq "$(j "[(r['path'], len(r['warnings'])) for r in d['records']]")" \
    '[["mixed.gltf", 0], ["recursive.gltf", 0]]' "warnings per record"
expect_eq "$(j "[m['label'] for m in d['records'][0]['summary']['meshes']]")" \
    '["mesh0/prim0", "mesh0/prim0/skin3"]' "mixed: the first copy, and one for the reversed skins"
expect_eq "$(j "[m['label'] for m in d['records'][1]['summary']['meshes']]")" \
    '["mesh0/prim0"]' "recursive: one copy for all 84"
expect_eq "$(j "len(d['records'][1]['summary']['skeletons'])")" '84' "one skeleton per skin"
k 0 model assets/mixed.gltf "$KILN_CLI_TMP/out"
expect_no_grep "warning" "$OUT" "kiln model of the instances"
expect_grep "mesh0/prim0/skin3 .*mesh0.prim0.skin3.kmesh" "$OUT" "the copy is an artifact"
k 0 inspect "$KILN_CLI_TMP/out/scene.kscene"
show
