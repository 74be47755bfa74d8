# Warnings are said when an asset is cooked. A no-op import (every asset cached) does not say them
# again, unless --verbose; the JSON records and report keep them. -q / --quiet on every
# subcommand: no warnings, no progress, no line per asset; failures and errors still print.
# a model with a warning: a primitive of points, which kiln drops
$PY - assets/points.gltf <<'PY' || fail "writing the glTF"
import base64, json, struct, sys
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
uri = "data:application/octet-stream;base64," + base64.b64encode(pos).decode()
doc = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 36, "uri": uri}],
       "bufferViews": [{"buffer": 0, "byteLength": 36}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                      "min": [0, 0, 0], "max": [1, 1, 0]}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}},
                                  {"attributes": {"POSITION": 0}, "mode": 0}]}],
       "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}
with open(sys.argv[1], "w") as f:
    json.dump(doc, f)
PY
mkpng assets/a.png 8 8 1
k 0 import --all
show
k 0 import --all
show
k 0 import --all --verbose
show
k 0 import --all --json
expect_eq "$(j "[(r['status'], len(r['warnings'])) for r in d['records']]")" \
    '[["cached", 0], ["cached", 1]]' "cached records keep their warnings"
k 0 report --json
expect_eq "$(j "[len(r['warnings']) for r in d['assets']]")" '[0, 1]' "report keeps them"
k 0 import --all --force -q
show
show_err
k 0 import --all --force --quiet --json
expect_eq "$(j "[len(r['warnings']) for r in d['records']]")" '[0, 1]' "--quiet leaves the JSON whole"
printf '{"asset": {"version": "1.0"}}' >assets/broken.gltf
k 1 import --all -q
show
show_err
k 2 import -q
show_err
k 0 model -q assets/points.gltf "$KILN_CLI_TMP/out"
show
show_err
k 0 reimport -q assets/a.png --set texture.mipmaps=false
show
show_err
for cmd in "report" "meta --all" "graph --ninja -o $KILN_CLI_TMP/build.ninja" "cache gc" \
    "inspect assets/a.png" "texture assets/a.png $KILN_CLI_TMP/a.ktx2"; do
    # shellcheck disable=SC2086 # the words of cmd are its arguments
    "$KILN_EXE" $cmd -q >"$OUT" 2>"$ERR" || true
    expect_no_grep "unknown option" "$ERR" "kiln $cmd -q"
done
