# A model's glTF materials cooked against .kmat templates (import.model.material_templates,
# issue 19 item 7): the corpus AlphaBlendModeTest (six materials: one with normal, occlusion and
# metallic-roughness maps; opaque, mask at cutoffs 0.25/0.75/default and blend, double-sided)
# with "*" naming a template of tests/shaders' PBR forward shader and MatBed its own (the
# normal-mapped variant). Each material gets typed_material<i> beside material<i>: the block holds
# the glTF values where the shader declares their names (offsets as the shader lays them out:
# base_color_factor 0, emissive_factor 16, emissive_strength 28, metallic 32, roughness 36, normal
# scale 40, occlusion strength 44, alpha cutoff 48), the template's own values elsewhere; the
# glTF textures bind by name (the model's images), the template's fill the rest; the render state
# is the glTF material's. EmissiveStrengthTest's emissive strengths reach the block. An edit of
# the template, and of an include of its shader, makes the model stale; a template that leaves an
# image unbound fails naming the material; a template path that is no .kmat is a settings error.
src=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -d "$src/AlphaBlendModeTest" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mkdir -p assets/shaders/include assets/templates assets/textures assets/alpha assets/emissive
cp "$KILN_SOURCE_DIR"/tests/shaders/pbr_forward.* assets/shaders/
cp "$KILN_SOURCE_DIR"/tests/shaders/include/*.glsl assets/shaders/include/
chmod -R u+w assets/shaders
printf '{"shader": {"include_dirs": ["shaders/include"]}}\n' >assets/shaders/folder.meta
seed=1
for t in white flat_normal black; do
    mkpng assets/textures/$t.png 4 4 $seed # distinct bytes: no two share a cache entry
    seed=$((seed + 1))
done
cat >assets/templates/pbr.kmat <<'JSON'
{"vertex": {"shader": "/shaders/pbr_forward.vert", "variant": "static"},
 "fragment": {"shader": "/shaders/pbr_forward.frag", "variant": "alpha_mask"},
 "parameters": {"base_color_factor": [0.5, 0.5, 0.5, 1], "metallic_factor": 1, "roughness_factor": 1,
                "normal_scale": 1, "occlusion_strength": 1, "alpha_cutoff": 0.5,
                "emissive_factor": [0, 0, 0], "emissive_strength": 1},
 "textures": {"base_color_texture": "/textures/white.png", "metallic_roughness_texture": "/textures/white.png",
              "occlusion_texture": "/textures/white.png", "emissive_texture": "/textures/black.png"}}
JSON
cat >assets/templates/pbr_normal.kmat <<'JSON'
{"parent": "pbr.kmat", "fragment": {"variant": "normal_map_alpha_mask"},
 "textures": {"normal_texture": "/textures/flat_normal.png"}}
JSON
cp -R "$src/AlphaBlendModeTest/glTF/." assets/alpha/
cp -R "$src/EmissiveStrengthTest/glTF/." assets/emissive/
chmod -R u+w assets/alpha assets/emissive
small='"texture_max_size": 64, "texture_quality": "fast", "meshlets": false, "lods": []'
printf '{"import": {"model": {%s, "material_templates": {"*": "templates/pbr.kmat", "MatBed": "templates/pbr_normal.kmat"}}}}\n' \
    "$small" >assets/alpha/AlphaBlendModeTest.gltf.meta
printf '{"import": {"model": {%s, "material_templates": {"*": "templates/pbr.kmat"}}}}\n' \
    "$small" >assets/emissive/EmissiveStrengthTest.gltf.meta
$PY "$KILN_CLI_DIR/validate.py" meta assets/alpha/AlphaBlendModeTest.gltf.meta || fail "meta schema"
k 0 import --all
show
k 0 import --json alpha/AlphaBlendModeTest.gltf
cp "$OUT" alpha.json
expect_eq "$(j "[o['label'] for o in d['records'][0]['outputs'] if 'material' in o['label']]")" \
    '["material0", "typed_material0", "material1", "typed_material1", "material2", "typed_material2", "material3", "typed_material3", "material4", "typed_material4", "material5", "typed_material5"]' \
    "a typed material beside each material"
expect_eq "$(j "[(r['material'], r['template'], r['overrides'], r['textures']) for r in d['records'][0]['summary']['typed_materials']]")" \
    '[[0, "templates/pbr_normal.kmat", 8, 5], [1, "templates/pbr.kmat", 8, 4], [2, "templates/pbr.kmat", 8, 4], [3, "templates/pbr.kmat", 8, 4], [4, "templates/pbr.kmat", 8, 4], [5, "templates/pbr.kmat", 8, 4]]' \
    "the summary's rows: the template, the glTF values the shader takes, the textures bound"
for i in 0 1 2 3 4 5; do
    k 0 inspect --json "alpha/AlphaBlendModeTest.gltf#typed_material$i"
    cp "$OUT" "tm$i.json"
done
for t in white flat_normal black; do
    k 0 import --json "textures/$t.png"
    cp "$OUT" "tex-$t.json"
done
k 0 import --json shaders/pbr_forward.frag
cp "$OUT" frag.json
$PY - alpha.json frag.json tex-*.json tm*.json <<'PY' || fail "typed materials against the template"
import json, struct, sys
rec = json.load(open(sys.argv[1]))["records"][0]
ids = {"0x" + o["asset_id"]: o["label"] for o in rec["outputs"]}
frag = "0x" + json.load(open(sys.argv[2]))["records"][0]["outputs"][0]["asset_id"]
tex = {}
for p in sys.argv[3:6]:
    r = json.load(open(p))["records"][0]
    tex["0x" + r["outputs"][0]["asset_id"]] = r["path"]
tms = [json.load(open(p))["typed_material"] for p in sys.argv[6:]]
src = json.load(open("assets/alpha/AlphaBlendModeTest.gltf"))["materials"]
def f(block, at, n=1):
    return list(struct.unpack_from("<%df" % n, block, at))
def close(a, b):
    return all(abs(x - y) < 1e-6 for x, y in zip(a, b)) and len(a) == len(b)
for i, (tm, m) in enumerate(zip(tms, src)):
    block = bytes.fromhex("".join(tm["block"]["hex"]))
    pbr = m.get("pbrMetallicRoughness", {})
    assert tm["name"] == m["name"], (tm["name"], m["name"])
    assert tm["fragment"]["shader"] == frag, tm["fragment"]
    assert tm["fragment"]["variant"] == ("normal_map_alpha_mask" if i == 0 else "alpha_mask")
    assert close(f(block, 0, 4), pbr.get("baseColorFactor", [1, 1, 1, 1])), (i, f(block, 0, 4))
    assert close(f(block, 32), [pbr.get("metallicFactor", 1)]), (i, f(block, 32))
    assert close(f(block, 36), [pbr.get("roughnessFactor", 1)]), (i, f(block, 36))
    mode = m.get("alphaMode", "OPAQUE").lower()
    cutoff = m.get("alphaCutoff", 0.5) if mode == "mask" else 0.5
    assert close(f(block, 48), [m.get("alphaCutoff", 0.5)]), (i, f(block, 48))
    assert tm["alpha_mode"] == mode and abs(tm["alpha_cutoff"] - cutoff) < 1e-6, (i, tm["alpha_mode"])
    assert tm["double_sided"] == m.get("doubleSided", False), i
    assert tm["blend"] == ("alpha" if mode == "blend" else "none"), (i, tm["blend"])
    bound = {t["name"]: t["image"] for t in tm["textures"]}
    assert len(bound) == (5 if i == 0 else 4), bound  # the alpha_mask variant samples no normal map
    slots = {"base_color_texture": pbr.get("baseColorTexture"), "normal_texture": m.get("normalTexture"),
             "occlusion_texture": m.get("occlusionTexture"),
             "metallic_roughness_texture": pbr.get("metallicRoughnessTexture"), "emissive_texture": None}
    for name, ref in slots.items():
        if name not in bound:
            assert i != 0 and name == "normal_texture", (i, name)
        elif ref is not None:  # the model's own image
            assert ids.get(bound[name], "").startswith("image"), (i, name, bound[name])
        else:  # the template's default
            assert bound[name] in tex, (i, name, bound[name])
    assert tex[bound["emissive_texture"]] == "textures/black.png"
print("ok")
PY
k 0 inspect --json "emissive/EmissiveStrengthTest.gltf#typed_material0"
$PY - "$OUT" <<'PY' || fail "emissive factor and strength in the block"
import json, struct, sys
block = bytes.fromhex("".join(json.load(open(sys.argv[1]))["typed_material"]["block"]["hex"]))
got = struct.unpack_from("<4f", block, 16)
assert all(abs(a - b) < 1e-6 for a, b in zip(got, (0.1, 0.5, 0.9, 4.0))), got
PY
# Pack: the model alone brings what its typed materials refer to — the template's shaders and
# textures (through the template's parent too) that some material takes — and not the
# templates' own materials.
k 0 pack alpha/AlphaBlendModeTest.gltf -o alpha.kpak --json
cp "$OUT" pack.json
k 0 inspect alpha.kpak --json
$PY - pack.json "$OUT" tm*.json <<'PY' || fail "the pack of the model"
import json, sys
names = sorted(e["name"] for e in json.load(open(sys.argv[1]))["entries"])
outside = [n for n in names if not n.startswith("alpha/")]
assert outside == ["shaders/pbr_forward.frag#shader", "shaders/pbr_forward.vert#shader",
                   "textures/black.png#texture", "textures/white.png#texture"], outside
# (flat_normal.png is pbr_normal.kmat's default, and MatBed has a normal map of its own)
ids = {e["asset_id"] for e in json.load(open(sys.argv[2]))["entries"]}
for p in sys.argv[3:]:
    tm = json.load(open(p))["typed_material"]
    want = {tm["vertex"]["shader"][2:], tm["fragment"]["shader"][2:]} | {t["image"][2:] for t in tm["textures"]}
    assert want <= ids, (p, want - ids)
print("pack ok")
PY
# The record index answers the models too (a template's row holds with the recorded key and
# GUID): a settled no-op import opens neither model, record nor template (counted with strace).
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    sleep 2.2
    k 0 import --all
    sleep 2.2
    k 0 import --all
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=openat -o "$KILN_CLI_TMP/trace" "$KILN_EXE" import --all >"$OUT" 2>"$ERR" ||
        fail "kiln import --all under strace"
    expect_eq "$(grep -v ENOENT "$KILN_CLI_TMP/trace" |
        grep -c -E '/assets/[0-9a-f]{32}\.json|manifest\.json|\.(gltf|bin|kmat|frag|vert|glsl)"' || true)" 0 \
        "files a no-op import opened"
fi
# Staleness: the template's edit, and an include of its shader, reach the model.
k 0 import --all
printf ' ' >>assets/templates/pbr.kmat
k 0 report --json
expect_eq "$(j "sorted(a['path'] for a in d['assets'] if a['state'] == 'stale')")" \
    '["alpha/AlphaBlendModeTest.gltf", "emissive/EmissiveStrengthTest.gltf", "templates/pbr.kmat", "templates/pbr_normal.kmat"]' \
    "the template's edit: both models, the template and the one deriving from it"
k 0 import --all
printf '// edited\n' >>assets/shaders/include/kiln_pbr.glsl
k 0 report --json
expect_eq "$(j "sorted(a['path'] for a in d['assets'] if a['state'] == 'stale')")" \
    '["alpha/AlphaBlendModeTest.gltf", "emissive/EmissiveStrengthTest.gltf", "shaders/pbr_forward.frag", "templates/pbr.kmat", "templates/pbr_normal.kmat"]' \
    "an include of the template's shader: the shader, the templates, both models"
k 0 import --all
# A template that leaves an image without a texture: the material is named.
cp assets/templates/pbr.kmat pbr.bak
$PY - <<'PY'
import json
p = "assets/templates/pbr.kmat"
d = json.load(open(p)); del d["textures"]["emissive_texture"]; json.dump(d, open(p, "w"))
PY
k 2 import alpha/AlphaBlendModeTest.gltf
show
cp pbr.bak assets/templates/pbr.kmat
printf '{"import": {"model": {"material_templates": {"*": "templates/pbr.json"}}}}\n' \
    >assets/emissive/EmissiveStrengthTest.gltf.meta
k 2 import emissive/EmissiveStrengthTest.gltf
show
