# kiln report --why (issue 17, item 13): for each stale asset, what changed since its import
# record: the source bytes, a model's dependency (its .bin, by path), a setting of its own .meta,
# a folder default or a kiln.json default (old -> new, and from where). One line per reason;
# --json gives the reasons of the PATHs asked for.
mkpng assets/a.png 8 8 1
mkpng assets/ui/b.png 8 8 2
mkpng assets/ui/c.png 8 8 3
mkdir -p assets/models
$PY - <<'PYEOF' || fail "writing the model"
import json, struct
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
open("assets/models/tri.bin", "wb").write(pos)
json.dump({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
           "buffers": [{"uri": "tri.bin", "byteLength": 36}],
           "bufferViews": [{"buffer": 0, "byteLength": 36}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                          "min": [0, 0, 0], "max": [1, 1, 0]}]},
          open("assets/models/tri.gltf", "w"))
PYEOF
printf '{"import": {"texture": {"max_size": 8}}}\n' >assets/a.png.meta
printf '{"texture": {"quality": "fast"}}\n' >assets/ui/folder.meta
k 0 import --all
k 0 report --why
show
# Each change in turn.
mkpng assets/a.png 8 8 9
k 0 report --why
show
k 0 import --all
printf '{"import": {"texture": {"max_size": 4}}}\n' >assets/a.png.meta
k 0 report --why
show
k 0 import --all
flip_byte assets/models/tri.bin 4
k 0 report --why
show
k 0 import --all
printf '{"texture": {"quality": "high"}}\n' >assets/ui/folder.meta
k 0 report --why
show
k 0 report --why assets/ui/c.png
show
k 0 report --why ui/c.png --json
j "[(r['path'], r['why']) for r in d['assets']]"
k 0 import --all
# The folder.meta emptied and kiln.json given defaults: quality now comes from kiln.json (was
# the folder's), mipmaps from kiln.json (was kiln's default).
printf '{"defaults": {"texture": {"quality": "normal", "mipmaps": false}}}\n' >kiln.json
printf '{}\n' >assets/ui/folder.meta
k 0 report --why ui
show
k 0 import --all
k 0 report --why
show
