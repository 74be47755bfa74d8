# inspect of a cooked shader (kind SHDR) goes through kiln_shader_read: the hand-built fixture of
# tests/shader_format (kt_write_shader; no compiler involved) shows the stage and entry point,
# then per variant its SPIR-V size, bindings by set, blocks with member offsets and nested
# structs, push and spec constants, inputs and outputs; the compute shader its workgroup size
# with a spec constant. The transcript is pinned; the --json document must match the schema's
# shader member, and a damaged file is E_FORMAT_INVALID.
gen=${KILN_BINARY_DIR:?}/tests/shader_format/kt_write_shader
[ -x "$gen" ] || fail "no $gen (build the tests)"
"$gen" . || fail "kt_write_shader"
k 0 inspect vertex.kshader
expect_said "kiln container SHDR version 1" "the kind in the text"
expect_said "variant \"skinned\" (defines: SKINNED=1 BONES=64)" "the second variant"
expect_said "16  struct Light     lights.. (runtime-sized, array stride 32)" "a runtime array of structs"
k 0 inspect compute.kshader
expect_said "workgroup 8 x 8 x spec(7)" "the workgroup size"
k 0 inspect --json vertex.kshader
expect_eq "$(j "(d['kind'], d['shader']['stage'], [v['name'] for v in d['shader']['variants']])")" \
    '["SHDR", "vertex", ["default", "skinned"]]' "stage and variants"
expect_eq "$(j "[(m['name'], m['offset']) for m in d['shader']['variants'][1]['blocks'][0]['members']]")" \
    '[["view_proj", 0], ["tint", 64], ["material", 80], ["weights", 112]]' "Globals members"
expect_eq "$(j "[i['location'] for i in d['shader']['variants'][1]['inputs']]")" '[0, 1, 2, 3, 4]' "input locations"
k 0 inspect --json compute.kshader
expect_eq "$(j "(d['shader']['variants'][0]['workgroup'], d['shader']['variants'][0]['workgroup_spec'])")" \
    '[[8, 8, 0], [null, null, 7]]' "workgroup"
flip_byte vertex.kshader 600
k 1 inspect --json vertex.kshader
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "a damaged shader"
