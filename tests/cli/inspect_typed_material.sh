# inspect of a cooked typed material (kind TMAT) goes through kiln_typed_material_read: the golden
# demo of docs/formats.md (tests/golden/typed_material_demo.tmat) shows its two stages, its
# uniform block with the bytes as 32-bit words, its render state and its two textures. The
# transcript is pinned; the --json document must match the schema's typed_material member, and
# a damaged file is E_FORMAT_INVALID.
cp "${KILN_SOURCE_DIR:?}/tests/golden/typed_material_demo.tmat" demo.tmat || fail "no golden file"
chmod u+w demo.tmat
k 0 inspect demo.tmat
expect_said "kiln container TMAT version 1" "the kind in the text"
expect_said "fragment shader 0x5555666677778888 variant \"alpha_test\"" "the fragment stage"
expect_said "0  0x3f800000 0x3f000000 0x3e800000 0x3f800000" "the block's first words"
expect_said "alpha mask (cutoff 0.5), blend none, double-sided, depth test, depth write" "render state"
k 0 inspect --json demo.tmat
expect_eq "$(j "(d['kind'], d['typed_material']['vertex'], d['typed_material']['block']['hex'])")" \
    '["TMAT", {"shader": "0x1111222233334444", "variant": "default"}, ["0000803f0000003f0000803e0000803f", "0000003f000000000000000000000000"]]' \
    "vertex stage and block bytes"
expect_eq "$(j "[(t['name'], t['set'], t['binding'], t['image']) for t in d['typed_material']['textures']]")" \
    '[["albedo", 1, 1, "0xa1a1a1a1a1a1a1a1"], ["normal_map", 1, 2, "0xb2b2b2b2b2b2b2b2"]]' "textures"
flip_byte demo.tmat 300
k 1 inspect --json demo.tmat
expect_eq "$(j "d['error']['code']")" E_FORMAT_INVALID "a damaged typed material"
