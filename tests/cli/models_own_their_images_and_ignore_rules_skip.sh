# The images a model names are that model's, not assets of their own: a glTF naming two PNGs, an
# unrelated PNG, a .kilnignore (a comment, a folder's contents, a negation, a folder) and a
# kiln.json "exclude". report --verbose says why each file was skipped, report --json lists the
# same under "skipped", import --all and pack --all cook and ship only the assets. An image with a
# .meta of its own is an asset again; "standalone_model_images": true brings the rest back; a
# malformed "exclude" is a settings error naming the field.
mkpng assets/models/car_base.png 8 8 1
mkpng assets/models/car_normal.png 8 8 2
mkpng assets/textures/logo.png 8 8 3
# A triangle with normals and UVs (the buffer inline) whose material names both PNGs.
$PY - assets/models/ToyCar.gltf <<'PY' || fail "writing the glTF"
import base64, json, struct, sys
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
nrm = struct.pack("<9f", 0, 0, 1, 0, 0, 1, 0, 0, 1)
uv = struct.pack("<6f", 0, 0, 1, 0, 0, 1)
idx = struct.pack("<3H", 0, 1, 2) + b"\0\0"
data = pos + nrm + uv + idx
views, off = [], 0
for part, target in ((pos, 34962), (nrm, 34962), (uv, 34962), (idx, 34963)):
    views.append({"buffer": 0, "byteOffset": off, "byteLength": len(part) - (2 if target == 34963 else 0), "target": target})
    off += len(part)
doc = {
    "asset": {"version": "2.0"},
    "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
    "bufferViews": views,
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC2"},
        {"bufferView": 3, "componentType": 5123, "count": 3, "type": "SCALAR"},
    ],
    "images": [{"uri": "car_base.png"}, {"uri": "car_normal.png"}],
    "textures": [{"source": 0}, {"source": 1}],
    "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "normalTexture": {"index": 1}}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}]}],
    "nodes": [{"mesh": 0}],
    "scenes": [{"nodes": [0]}],
    "scene": 0,
}
json.dump(doc, open(sys.argv[1], "w"), indent=1)
PY
# Only the model and the unrelated image are imported (before: the two PNGs as well, as
# textures of their own).
k 0 import --all --json
expect_eq "$(j "[(r['path'], r['status']) for r in d['records']]")" \
    '[["models/ToyCar.gltf", "imported"], ["textures/logo.png", "imported"]]' "imported"

mkpng assets/raw/source.png 4 4 4
mkpng assets/raw/keep.png 4 4 5
mkpng assets/build/out.png 4 4 6
mkpng assets/tmp/scratch.png 4 4 7
cat >assets/.kilnignore <<'END'
# what the artists keep beside the game's sources

raw/**
!raw/keep.png
build/
END
echo '{"exclude": ["tmp/*"]}' >kiln.json

k 0 report --verbose
show
k 0 report
show
k 0 import --all --verbose
show
k 0 report --json
expect_eq "$(j "[(r['path'], r['state']) for r in d['assets']]")" \
    '[["models/ToyCar.gltf", "up_to_date"], ["raw/keep.png", "up_to_date"], ["textures/logo.png", "up_to_date"]]' "assets"
expect_eq "$(j "[(s['path'], s['reason'], s.get('owner'), s.get('rule'), s.get('folder')) for s in d['skipped']]")" \
    '[["build", "excluded", null, {"file": ".kilnignore", "line": 5, "pattern": "build/"}, true], ["models/car_base.png", "owned", "models/ToyCar.gltf", null, null], ["models/car_normal.png", "owned", "models/ToyCar.gltf", null, null], ["raw/source.png", "excluded", null, {"file": ".kilnignore", "line": 3, "pattern": "raw/**"}, false], ["tmp/scratch.png", "excluded", null, {"file": "kiln.json", "json_pointer": "/exclude/0", "pattern": "tmp/*"}, false]]' "skipped"
# The model cooked both images itself, the normal map as one (BC5).
expect_eq "$(j "[(i['label'], i['format'], i['role']) for i in d['assets'][0]['summary']['images']]")" \
    '[["image0", "bc7", "color"], ["image1", "bc5", "normal"]]' "model images"
k 0 pack --all -o game.kpak --json
expect_eq "$(j "sorted(e['name'] for e in d['entries'] if e['kind'] == 'KTX2')")" \
    '["models/ToyCar.gltf#image0", "models/ToyCar.gltf#image1", "raw/keep.png#texture", "textures/logo.png#texture"]' "packed textures"
# The same list now that the model is imported (its record lists the images, not its bytes).
k 0 report --verbose
show

# A .meta of its own makes the normal map an asset again, with the model still owning the other.
k 0 meta models/car_normal.png
k 0 report --verbose
show
k 0 import --all --verbose
show

# A project that wants every image standalone says so in kiln.json.
echo '{"exclude": ["tmp/*"], "standalone_model_images": true}' >kiln.json
k 0 report --json
expect_eq "$(j "[r['path'] for r in d['assets']]")" \
    '["models/ToyCar.gltf", "models/car_base.png", "models/car_normal.png", "raw/keep.png", "textures/logo.png"]' "standalone"
expect_eq "$(j "[s['path'] for s in d['skipped']]")" '["build", "raw/source.png", "tmp/scratch.png"]' "only excluded"

# Malformed rules stop the scan with a settings error that names the field.
echo '{"exclude": "tmp/*"}' >kiln.json
k 2 report
show_err
echo '{"exclude": ["# a comment"]}' >kiln.json
k 2 import --all --json
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_SETTINGS", "/exclude/0"]' "comment pattern"
echo '{"standalone_model_images": "yes"}' >kiln.json
k 2 pack --all
show_err
