# The record index answers shaders (their includes are found from the asset root) and typed
# materials (their dependencies are sources: a material's row holds while each source's own row
# holds with the key and GUID it recorded), so a no-op import or report of shaders and .kmat
# files opens no record, manifest or source (counted with strace, as noop_import_reads_no_record).
# Before, every shader and material took the full check: its record, and a material's every
# source's record again. Still stale, through the index: an edited include (the shader and both
# materials), a source whose own row was written again with another key (a shader imported
# alone after its include changed), a texture whose row holds with the same key but another GUID.
command -v strace >/dev/null 2>&1 || { echo "no strace" >&2; exit 77; }
strace -f -o /dev/null true 2>/dev/null || { echo "strace cannot trace here (ptrace refused)" >&2; exit 77; }
mkshaders
mktextures base mr normal occlusion emissive
mkdir -p assets/materials
cat >assets/materials/painted.kmat <<'JSON'
{"vertex": "/shaders/pbr_forward.vert",
 "fragment": {"shader": "../shaders/pbr_forward.frag", "variant": "normal_map"},
 "parameters": {"metallic_factor": 0.25},
 "textures": {"base_color_texture": "/textures/base.png",
              "metallic_roughness_texture": "/textures/mr.png",
              "normal_texture": "/textures/normal.png",
              "occlusion_texture": "/textures/occlusion.png",
              "emissive_texture": "/textures/emissive.png"}}
JSON
printf '{"parent": "painted.kmat", "parameters": {"base_color_factor": [1, 0, 0, 1]}}\n' \
    >assets/materials/painted_red.kmat
# settle: an import, then (2 s later, signatures no longer racy) one that writes trusted rows,
# then one whose index is trusted (the records folder changed more than 2 s before it)
settle() {
    sleep 2.2
    k 0 import --all
    sleep 2.2
    k 0 import --all
}
opens() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=openat -o "$KILN_CLI_TMP/trace" "$KILN_EXE" "$@" >"$OUT" 2>"$ERR" ||
        fail "kiln $*: exit $?"
    grep -v ENOENT "$KILN_CLI_TMP/trace" |
        grep -c -E '/assets/[0-9a-f]{32}\.json|manifest\.json|\.(vert|frag|comp|mesh|hlsl|glsl|kmat|png)"' || true
}
# the assets the last report did not call up to date
stale() { j "sorted(a['path'] for a in d['assets'] if a['state'] != 'up_to_date')"; }
k 0 import --all
show
settle
expect_eq "$(opens import --all)" 0 "files a no-op import opened: $(grep -v ENOENT $KILN_CLI_TMP/trace | grep -E "/assets/[0-9a-f]{32}\.json|manifest\.json|\.(vert|frag|comp|mesh|hlsl|glsl|kmat|png)\"" | head)"
expect_grep "13 assets: 0 imported, 13 cached, 0 failed" "$OUT" "no-op import result"
expect_eq "$(opens report --json)" 0 "files a no-op report opened"
expect_eq "$(j "sorted(set(a['state'] for a in d['assets']))")" '["up_to_date"]' "no-op report states"

# An include edited: the shader that includes it and both materials, nothing else.
printf '// edited\n' >>assets/shaders/include/kiln_pbr.glsl
k 0 report --json
expect_eq "$(stale)" '["materials/painted.kmat", "materials/painted_red.kmat", "shaders/pbr_forward.frag"]' \
    "stale after an include's edit"
settle
k 0 report --json
expect_eq "$(stale)" '[]' "after importing them"

# The shader imported alone after another edit: its own row holds again, with another key than
# the materials recorded.
printf '// edited again\n' >>assets/shaders/include/kiln_pbr.glsl
sleep 2.2
k 0 import shaders/pbr_forward.frag
sleep 2.2
k 0 import shaders/pbr_forward.frag
sleep 2.2
expect_eq "$(opens import shaders/pbr_forward.frag)" 0 "the shader's row holds"
k 0 report --json
expect_eq "$(stale)" '["materials/painted.kmat", "materials/painted_red.kmat"]' \
    "materials whose shader's key changed"
settle

# A texture given a GUID of its own (a .meta): a texture's key has no GUID, so its row, written
# again, holds with the key the material recorded; the GUID (which names the texture's artifact
# in the material) differs.
printf '{"guid": "0123456789abcdef0123456789abcdef"}\n' >assets/textures/base.png.meta
sleep 2.2
k 0 import textures/base.png
sleep 2.2
k 0 import textures/base.png
sleep 2.2
expect_eq "$(opens import textures/base.png)" 0 "the texture's row holds"
k 0 report --json
expect_eq "$(stale)" '["materials/painted.kmat", "materials/painted_red.kmat"]' \
    "materials whose texture's GUID changed"
settle
expect_eq "$(opens import --all)" 0 "files the last no-op import opened"
