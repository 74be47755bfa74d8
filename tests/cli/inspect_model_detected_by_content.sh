# inspect tells a glTF model by its bytes (a JSON object, or a GLB header), not its name, and counts
# what the file declares: a mesh drawn by two nodes counts its triangles once, a strip of 5 vertices
# is 3 triangles, points are a primitive with none. A damaged model is E_IMPORT_FAILED (exit 1), with
# the JSON pointer of the bad field when there is one; the schema refuses wrong model documents.
# Needs no corpus: the case writes its model (an embedded data: URI buffer, and the same as GLB).
$PY - <<'EOF' || fail "writing the models"
import base64, json, struct
f = lambda *v: struct.pack("<%df" % len(v), *v)
strip = f(0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0)       # 5 vertices
tri = f(0, 0, 0, 1, 0, 0, 0, 1, 0)                              # 3 vertices
idx = struct.pack("<3H", 0, 1, 2) + b"\0\0"
times = f(0.5, 3.0)
move = f(0, 0, 0, 0, 2, 0)
turn = f(0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068)
views, data = [], b""
for chunk in (strip, tri, idx, times, move, turn):
    views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(chunk)})
    data += chunk
views[2]["byteLength"] = 6                                      # the indices, not their padding
acc = [
    {"bufferView": 0, "componentType": 5126, "count": 5, "type": "VEC3", "min": [0, 0, 0], "max": [2, 1, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"},
    {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.5], "max": [3.0]},
    {"bufferView": 4, "componentType": 5126, "count": 2, "type": "VEC3"},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"},
]
doc = {
    "asset": {"version": "2.0", "generator": "kiln tests/cli"},
    "scene": 0,
    "scenes": [{"nodes": [0, 1, 2]}],
    "nodes": [{"mesh": 0, "name": "left"}, {"mesh": 0, "translation": [10, 0, 0], "name": "right"},
              {"camera": 0, "translation": [0, 0, 5]}],
    "meshes": [{"name": "parts", "primitives": [
        {"attributes": {"POSITION": 0}, "mode": 5},
        {"attributes": {"POSITION": 1}, "indices": 2, "material": 0},
        {"attributes": {"POSITION": 0}, "mode": 0}]}],
    "materials": [{"name": "grey"}],
    "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}],
    "animations": [{"name": "slide", "samplers": [
        {"input": 3, "output": 4}, {"input": 3, "output": 5, "interpolation": "STEP"}],
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                     {"sampler": 1, "target": {"node": 0, "path": "rotation"}}]}],
    "accessors": acc,
    "bufferViews": views,
    "buffers": [{"byteLength": len(data),
                 "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
}
open("model.dat", "w").write(json.dumps(doc, indent=1))
bad = json.loads(json.dumps(doc))
bad["accessors"][2]["bufferView"] = 9
open("bad_view.gltf", "w").write(json.dumps(bad))
del doc["buffers"][0]["uri"]
js = json.dumps(doc).encode()
js += b" " * (-len(js) % 4)
data += b"\0" * (-len(data) % 4)
body = struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(data), 0x004E4942) + data
open("model.bin", "wb").write(struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body)
open("cut.glb", "wb").write(open("model.bin", "rb").read()[:40])
EOF
k 0 inspect model.dat
show
k 0 inspect --json model.dat
show
expect_eq "$(j "[d[k] for k in ('nodes', 'meshes', 'primitives', 'vertices', 'triangles', 'materials', 'textures', 'images', 'skins', 'animations')]")" \
    '[3, 1, 3, 13, 4, 1, 0, 0, 0, 1]' "counts of the .gltf"
k 0 inspect model.bin
show
k 0 inspect --json model.bin
expect_eq "$(j "(d['format'], d['triangles'], d['dropped_primitives'], d['bounds'], d['files'])")" \
    '["glb", 4, 1, {"max": [12.0, 1.0, 0.0], "min": [0.0, 0.0, 0.0]}, []]' "the same model as GLB"
k 1 inspect --json cut.glb
show
expect_eq "$(j "d['error']['code']")" E_IMPORT_FAILED "truncated GLB"
k 1 inspect --json bad_view.gltf
show
expect_eq "$(j "(d['error']['code'], d['error']['json_pointer'])")" '["E_IMPORT_FAILED", "/accessors/2/bufferView"]' "bufferView out of range"
k 1 inspect bad_view.gltf
show_err
k 2 inspect --json model.dat --compare model.dat
expect_eq "$(j "d['error']['code']")" E_USAGE "--compare on a model"

# The schema is not vacuous for models.
k 0 inspect --json model.dat
cp "$OUT" good.json
$PY "$KILN_CLI_DIR/validate.py" inspect good.json || fail "the model document was refused"
bad() {
    $PY - good.json "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open("bad.json", "w"))
PY
    if $PY "$KILN_CLI_DIR/validate.py" inspect bad.json 2>/dev/null; then fail "the inspect schema accepted: $1"; fi
    echo "refused: $1"
}
bad "d['triangles'] = '4'"
bad "del d['nodes']"
bad "d['vertices'] = -1"
bad "d['extra'] = 1"
bad "d['format'] = 'dae'"
bad "d['type'] = 'image'"
bad "d['bounds'] = {'min': [0, 0], 'max': [1, 1, 1]}"
bad "d['animation_list'][0]['channels'] = 2.5"
bad "d['warnings'] = [3]"
