# Typed materials (issue 19, item 7): .kmat documents cooked against the shaders they name, in
# one import with the shaders. The parameter block is packed as the fragment shader's reflection
# lays it out (checked here against offsets spirv-cross reports on its own); a mistyped or
# unknown parameter is refused with its name and pointer; a texture for every sampled image; a
# derived material (instance) stores its whole block and goes stale with its parent; an edit to
# a shader's include makes the shader and every material drawing with it stale, and nothing else.
mkshaders
mktextures base mr normal occlusion emissive
mkdir -p assets/materials
cat >assets/materials/painted.kmat <<'JSON'
{"vertex": "/shaders/pbr_forward.vert",
 "fragment": {"shader": "../shaders/pbr_forward.frag", "variant": "normal_map"},
 "parameters": {"base_color_factor": [0.8, 0.6, 0.4, 1.0], "metallic_factor": 0.25,
                "roughness_factor": 0.5, "normal_scale": 1.5, "occlusion_strength": 1,
                "alpha_cutoff": 0.5, "emissive_factor": [0, 0, 0], "emissive_strength": 1},
 "textures": {"base_color_texture": "/textures/base.png",
              "metallic_roughness_texture": "/textures/mr.png",
              "normal_texture": {"texture": "/textures/normal.png", "sampler": {"wrap_s": "clamp"}},
              "occlusion_texture": "/textures/occlusion.png",
              "emissive_texture": "/textures/emissive.png"}}
JSON
cat >assets/materials/painted_red.kmat <<'JSON'
{"parent": "painted.kmat", "parameters": {"base_color_factor": [1, 0, 0, 1]},
 "render_state": {"double_sided": true}}
JSON
$PY "$KILN_CLI_DIR/validate.py" kmat assets/materials/painted.kmat || fail "kmat schema"
k 0 import --all
show
# The block as the shader lays it out: offsets from spirv-cross's own reflection of the module.
k 0 shader assets/shaders/pbr_forward.frag frag.spv --root assets --include-dir shaders/include \
    --define NORMAL_MAP
spirv-cross frag.spv --reflect >reflect.json 2>/dev/null || { echo "no spirv-cross" >&2; exit 77; }
k 0 inspect materials/painted_red.kmat#typed_material --json
$PY - "$OUT" reflect.json <<'PY' || fail "the packed block is not where spirv-cross puts the members"
import json, struct, sys
m = json.load(open(sys.argv[1]))
block = bytes.fromhex("".join(m["typed_material"]["block"]["hex"]))
refl = json.load(open(sys.argv[2]))
t = [t for k, t in refl["types"].items() if t["name"] == "Material"][0]
off = {x["name"]: x["offset"] for x in t["members"]}
want = {"base_color_factor": [1, 0, 0, 1], "metallic_factor": [0.25], "roughness_factor": [0.5],
        "normal_scale": [1.5], "occlusion_strength": [1.0], "alpha_cutoff": [0.5],
        "emissive_factor": [0, 0, 0], "emissive_strength": [1.0]}
for name, vals in want.items():
    got = list(struct.unpack_from("<%df" % len(vals), block, off[name]))
    if got != [float(v) for v in vals]:
        sys.exit("%s at %d: %r, expected %r" % (name, off[name], got, vals))
PY
# A mistyped parameter, an unknown one, a missing texture: refused, naming them.
cp assets/materials/painted_red.kmat red.bak
printf '{"parent": "painted.kmat", "parameters": {"roughness_factor": "high"}}\n' >assets/materials/painted_red.kmat
k 2 import assets/materials/painted_red.kmat
show
printf '{"parent": "painted.kmat", "parameters": {"roughnes_factor": 0.2}}\n' >assets/materials/painted_red.kmat
k 2 import assets/materials/painted_red.kmat
show
printf '{"parent": "painted.kmat", "parameters": {"base_color_factor": [1, 0, 0]}}\n' >assets/materials/painted_red.kmat
k 2 import assets/materials/painted_red.kmat
show
cp red.bak assets/materials/painted_red.kmat
# Staleness: the parent's edit reaches its instance; an include's edit reaches the shaders and
# the materials, nothing else.
k 0 import --all
printf ' ' >>assets/materials/painted.kmat
k 0 report --why
show
k 0 import --all
printf '// edited\n' >>assets/shaders/include/kiln_pbr.glsl
k 0 report --json
expect_eq "$(j "sorted(a['path'] for a in d['assets'] if a['state'] == 'stale')")" \
    '["materials/painted.kmat", "materials/painted_red.kmat", "shaders/pbr_forward.frag"]' \
    "the include's shader and the two materials drawing with it"
k 0 import --all
show
