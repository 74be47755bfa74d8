# Several asset roots (issue 17 item 14): kiln.json "roots" names each root under a prefix, one of
# them outside the project folder. Names carry the prefix (import --all, report, inspect, pack
# ASSET, the runtime's mount); a file of one relative path in two roots is two assets with two
# GUIDs; each root keeps its .kilnignore and folder.meta, kiln.json's exclude and defaults match
# names; pack --all --under packs one root; one cache serves them all. A bad "roots" value is a
# settings error at its JSON pointer, --root with "roots" a usage error, and nothing leaves a
# root: not a name with "..", not a glTF URI that climbs into another root.
E=$KILN_CLI_TMP/engine/assets
mkpng "$E/textures/white.png" 8 8 1
mkpng "$E/textures/shared.png" 8 8 2
mkpng "$E/raw/huge.png" 8 8 3
printf 'raw/\n' >"$E/.kilnignore"
printf '{"texture": {"mipmaps": false}}\n' >"$E/folder.meta"
mkpng assets/textures/shared.png 8 8 2
mkpng assets/scratch.png 8 8 5
mktri assets/models/tri.gltf
cat >kiln.json <<'JSON'
{
  "roots": {"game": "assets", "engine": "../engine/assets"},
  "exclude": ["game/scratch.png"],
  "defaults": {"game/textures/**": {"texture": {"format": "rgba8"}}}
}
JSON
schema_ok() { $PY "$KILN_CLI_DIR/validate.py" "$1" "$2" || fail "the $1 schema refused $2"; }
schema_ok project kiln.json

# Every root, names with their prefix, sorted; the .kilnignore of the engine root and the
# exclude of kiln.json say why they skipped what they skipped.
k 0 import --all
show
k 0 report --verbose
show
k 0 report --json
j "(d['root'] == d['roots']['engine'], sorted(d['roots']), [a['path'] for a in d['assets']])"
expect_eq "$(j "d['roots']['engine']")" "$TMPR/engine/assets" "the engine root lies outside the project"
# The same relative path in two roots: two assets, two GUIDs, one entry (same bytes, settings).
k 0 import --json engine/textures/shared.png game/textures/shared.png
j "[(r['path'], r['status']) for r in d['records']]"
expect_eq "$(j "len(set(r['guid'] for r in d['records']))")" 2 "two GUIDs"
# The defaults of each name: the engine root's folder.meta, kiln.json's pattern for game/.
k 0 report --json
j "sorted((a['path'], a['settings_origin']) for a in d['assets'] if 'settings_origin' in a)"
k 0 inspect 'engine/textures/white.png#texture'
show | head -1
k 0 inspect 'game/models/tri.gltf#mesh0/prim0'
show | head -1

# Packs: one root, then all of them.
k 0 pack --all --under engine -o engine.kpak --json
j "sorted(e['name'] for e in d['entries'])"
k 0 pack --all -o all.kpak --json
j "sorted(e['name'] for e in d['entries'])"
k 0 pack 'engine/textures/white.png#texture' -o one.kpak --json
j "[e['name'] for e in d['entries']]"
k 2 pack --all --under nowhere
show_err
k 2 pack --under engine
show_err

# The runtime mounts the one cache and loads a prefixed name (not in the transcript: checked
# only where kiln-rt-example was built).
if [ -x "${KILN_RT_EXAMPLE:-}" ]; then
    "$KILN_RT_EXAMPLE" "$W/.kiln/cache" 'engine/textures/white.png#texture' >"$OUT" 2>"$ERR" ||
        fail "kiln-rt-example could not load engine/textures/white.png#texture: $(cat "$ERR")"
    expect_grep '^engine/textures/white.png#texture: ready (.*1 textures' "$OUT" "the runtime"
else
    echo "no kiln-rt-example: the runtime part is not checked" >&2
fi

# Nothing leaves a root: a name that climbs out, a file outside every root, a glTF URI that
# reaches into the other root (URIs stay in the model's folder).
cp assets/textures/shared.png "$KILN_CLI_TMP/outside.png"
k 1 import 'engine/../../outside.png'
show_err
k 1 import "$KILN_CLI_TMP/outside.png"
show_err
$PY - assets/models/climb.gltf <<'PY'
import json, sys
tri = json.load(open("assets/models/tri.gltf"))
tri["images"] = [{"uri": "../../../engine/assets/textures/white.png"}]
tri["textures"] = [{"source": 0}]
tri["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
tri["meshes"][0]["primitives"][0]["material"] = 0
json.dump(tri, open(sys.argv[1], "w"))
PY
k 2 import game/models/climb.gltf
show_err | cut -c1-120
rm assets/models/climb.gltf

# report --why takes a file of any root by its path, or a name.
printf '{"texture": {"mipmaps": true}}\n' >"$E/folder.meta"
k 0 report --why "$E/textures/white.png"
show
k 0 report --why engine/textures
show

# --root and "roots" together, and bad "roots" values: errors at their JSON pointer.
k 2 import --root assets --all
show_err
for roots in '[]' '{}' '{"": "assets"}' '{"a/b": "assets"}' '{"..": "assets"}' '{"x": 3}' \
    '{"x": "missing"}' '{"x": "assets", "y": "assets/textures"}'; do
    printf '{"roots": %s}\n' "$roots" >kiln.json
    k 2 report --json
    j "(d['error']['code'], d['error']['json_pointer'], d['error']['message'])" | norm
done
printf '{"roots": {"x": "assets", "x": "assets"}}\n' >kiln.json
k 2 report --json
j "(d['error']['code'], d['error']['message'].split(': ', 1)[1])"
