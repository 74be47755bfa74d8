# One mesh drawn by many nodes, each with a skin of its own joints (the shape of Khronos'
# RecursiveSkeletons: 84 skins over one mesh; tests/cli/mkskins.py writes it): the mesh's joint
# indices follow the first node's skin, and the runtime indexes each node's own skeleton, so what
# matters is the cooked joint order of each skeleton. Instances of one character (other joint
# nodes, other inverse bind matrices, more joints, the same order) are no problem and get no warning; skins
# whose cooked order differs (listed child first) give ONE warning for the mesh with
# the count of nodes and one example, not one line per node.
$PY "$KILN_CLI_DIR/mkskins.py" assets/recursive.gltf 84 || fail "mkskins"
$PY "$KILN_CLI_DIR/mkskins.py" assets/mixed.gltf 3 2 1 || fail "mkskins"
k 0 import --all
show
k 0 import --all --force --json
expect_eq "$(j "[(r['path'], len(r['warnings'])) for r in d['records']]")" \
    '[["mixed.gltf", 1], ["recursive.gltf", 0]]' "warnings per record"
expect_eq "$(j "len(d['records'][1]['summary']['skeletons'])")" '84' "one skeleton per skin"
k 0 model assets/recursive.gltf "$KILN_CLI_TMP/out"
expect_no_grep "warning" "$OUT" "kiln model of the instances"
