# kiln pack of one typed material (.kmat) brings the sources its artifact refers to by asset id:
# its shaders and its textures, also those it inherits from its parent, but not the parent's own
# material (nothing refers to it at run time). The pack holds exactly the material and what it
# refers to (the ids kiln inspect reads in the material), and the runtime loads it from the pack
# alone. --all --under a folder of materials brings the shaders and textures from outside it. A
# texture that fails leaves the material out, naming the texture (E_NOT_IMPORTED). Before, the
# pack failed: "... refers to asset id ..., which no artifact of the packed assets has".
mkshaders
mktextures base mr normal occlusion emissive spare
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
# Nothing imported before: pack imports the material, then the sources it depends on.
k 0 pack materials/painted_red.kmat -o red.kpak --json
expect_eq "$(j "sorted(e['name'] for e in d['entries'])")" \
    '["materials/painted_red.kmat#typed_material", "shaders/pbr_forward.frag#shader", "shaders/pbr_forward.vert#shader", "textures/base.png#texture", "textures/emissive.png#texture", "textures/mr.png#texture", "textures/normal.png#texture", "textures/occlusion.png#texture"]' \
    "the material, its two shaders and the five textures it inherits"
expect_eq "$(j "(d['totals']['assets'], d['totals']['failed'])")" '[8, 0]' "assets packed"
k 0 inspect red.kpak --json
$PY - "$OUT" >ids.txt <<'PY' || fail "inspect of the pack"
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps(sorted(e["asset_id"] for e in d["entries"] if e["kind"] != "TMAT")))
print(json.dumps(sorted(e["kind"] for e in d["entries"])))
PY
expect_eq "$(sed -n 2p ids.txt)" '["KTX2", "KTX2", "KTX2", "KTX2", "KTX2", "SHDR", "SHDR", "TMAT"]' "kinds in the pack"
# What the material refers to, read from its own artifact, is what else the pack holds.
k 0 inspect 'materials/painted_red.kmat#typed_material' --json
m="d['typed_material']"
expect_eq "$(j "sorted(set([$m['vertex']['shader'][2:], $m['fragment']['shader'][2:]] + [t['image'][2:] for t in $m['textures']]))")" \
    "$(sed -n 1p ids.txt)" "the pack holds exactly what the material refers to"
k 0 pack --verify red.kpak
show
if [ -x "${KILN_RT_EXAMPLE:-}" ]; then
    rt 0 -v red.kpak 'materials/painted_red.kmat#typed_material' >/dev/null # (not in the transcript: optional)
    expect_grep "ready" "$OUT" "the runtime loads the material from the pack"
    expect_eq "$(grep -c -E '^create_(shader|texture) ' "$ERR" "$OUT" | awk -F: '{n += $2} END {print n}')" 7 \
        "shaders and textures the runtime created"
fi
# A folder of materials: the shaders and textures come from outside it; the spare texture no
# material uses does not.
k 0 pack --all --under materials -o materials.kpak --json
expect_eq "$(j "sorted(e['kind'] for e in d['entries'])")" \
    '["KTX2", "KTX2", "KTX2", "KTX2", "KTX2", "SHDR", "SHDR", "TMAT", "TMAT"]' "--under materials"
# A texture that fails: the material needs it and is left out, naming it.
printf 'not a png' >assets/textures/emissive.png
k 1 pack materials/painted_red.kmat -o broken.kpak
show_err
[ ! -e broken.kpak ] || fail "a pack was written although an asset failed"
k 1 pack materials/painted_red.kmat -o broken.kpak --keep-going --json
expect_eq "$(j "[(f['path'], f['error']['code']) for f in d['failed']]")" \
    '[["textures/emissive.png", "E_IMPORT_UNSUPPORTED"], ["materials/painted_red.kmat", "E_NOT_IMPORTED"]]' \
    "failures"
expect_eq "$(j "len(d['entries'])")" 0 "nothing packed of the material"
