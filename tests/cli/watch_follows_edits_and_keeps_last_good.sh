# kiln watch on a live project: it imports once, then follows each edit with one line: a PNG
# rewritten in place, a PNG written to a temporary file and renamed over, a deleted PNG (its record
# goes), a folder created with an image in it and a folder moved in, a PNG broken with garbage bytes
# (the failure is shown, the last good entry stays what the runtime loads) and then repaired, a
# model's .bin and its image changed (the model is imported again). After each step `kiln report`
# says every asset is up to date (but the broken one), which is what `kiln import --all` gives;
# kiln-rt-example --watch, polling the cache, reloads the edited texture at its new size; SIGTERM
# stops kiln watch with exit 0. Every wait has a timeout, so the case cannot hang.
WATCH_OUT=$KILN_CLI_TMP/watch.out
RT_OUT=$KILN_CLI_TMP/rt.out
watch_pid=
rt_pid=
stop_all() {
    [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
    [ -n "$rt_pid" ] && kill "$rt_pid" 2>/dev/null
}
trap stop_all EXIT

# wait_for FILE PATTERN WHAT: waits (10 s at most) for a line matching PATTERN in FILE after the
# first $mark lines, prints it (normalised) to the transcript (unless $silent is set).
silent=
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        line=$(tail -n +$((mark + 1)) "$1" | grep -m1 -- "$2")
        if [ -n "$line" ]; then
            [ -n "$silent" ] || echo "$line" | norm
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "--- $1" >&2
    cat "$1" >&2
    fail "$3: no line matching '$2' within 10 s"
}
mark_watch() { mark=$(wc -l <"$WATCH_OUT"); }

# mkgltf DIR: a one-triangle model (tri.gltf) reading tri.bin and the image tri.png.
mkgltf() {
    mkpng "$1/tri.png" 8 8 4
    $PY - "$1" <<'EOF' || fail "mkgltf $1"
import json, struct, sys
d = sys.argv[1]
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
uv = struct.pack("<6f", 0, 0, 1, 0, 0, 1)
idx = struct.pack("<3H", 0, 1, 2) + b"\0\0"
open(d + "/tri.bin", "wb").write(pos + uv + idx)
doc = {
    "asset": {"version": "2.0"},
    "buffers": [{"uri": "tri.bin", "byteLength": len(pos + uv + idx)}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 36, "byteLength": 24},
                    {"buffer": 0, "byteOffset": 60, "byteLength": 6}],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
         "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
        {"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"}],
    "images": [{"uri": "tri.png"}],
    "textures": [{"source": 0}],
    "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1},
                                "indices": 2, "material": 0}]}],
    "nodes": [{"mesh": 0}],
    "scenes": [{"nodes": [0]}],
    "scene": 0,
}
json.dump(doc, open(d + "/tri.gltf", "w"))
EOF
}

# states: each asset's state as `kiln report` says it
states() {
    k 0 report --json
    j "' '.join('%s=%s' % (r['path'], r['state']) for r in d['assets'])"
}

mkpng assets/tex/a.png 16 16 1
mkpng assets/tex/b.png 16 16 2
mkpng assets/tex/gone.png 8 8 3
mkgltf assets/models

"$KILN_EXE" watch >"$WATCH_OUT" 2>"$KILN_CLI_TMP/watch.err" &
watch_pid=$!
mark=0
wait_for "$WATCH_OUT" "^4 assets: 4 imported" "the first import"
wait_for "$WATCH_OUT" "^watching " "kiln watch starts"
states

# A program that mounted the cache and loaded the texture reloads it when kiln watch re-imports
# (its lines are waited for, not kept in the transcript: the program is built only with examples).
if [ -n "${KILN_RT_EXAMPLE:-}" ]; then
    "$KILN_RT_EXAMPLE" --watch .kiln/cache 'tex/a.png#texture' >"$RT_OUT" 2>&1 &
    rt_pid=$!
    mark=0
    silent=1 wait_for "$RT_OUT" "^watching for reloads" "kiln-rt-example --watch starts"
else
    echo "(no kiln-rt-example: the runtime's reload is not checked)" >&2
fi

echo "# a PNG rewritten in place (at another size)"
mark_watch
mkpng assets/tex/a.png 32 32 5
wait_for "$WATCH_OUT" "^tex/a.png changed: tex/a.png imported (bc7 32x32" "edit"
states
if [ -n "$rt_pid" ]; then
    mark=0
    silent=1 wait_for "$RT_OUT" "^tex/a.png#texture: reloaded (texture 32x32" "the runtime reloads"
fi

echo "# a PNG written to a temporary file and renamed over"
mark_watch
mkpng assets/tex/.b.png.tmp 24 24 6
mv assets/tex/.b.png.tmp assets/tex/b.png
wait_for "$WATCH_OUT" "^tex/b.png changed: tex/b.png imported (bc7 24x24" "rename over"
states

echo "# a PNG deleted"
mark_watch
rm assets/tex/gone.png
wait_for "$WATCH_OUT" "^tex/gone.png removed: its record removed" "delete"
states
[ "$(grep -l '"tex/gone.png"' .kiln/cache/assets/*.json)" = "" ] || fail "the record of gone.png is still there"

echo "# a folder created with an image in it, and a folder moved in"
mark_watch
mkdir assets/more
mkpng assets/more/d.png 8 8 7
wait_for "$WATCH_OUT" "^more/d.png added: more/d.png imported" "new folder"
mark_watch
mkpng "$KILN_CLI_TMP/staged/deep/e.png" 8 8 8
mv "$KILN_CLI_TMP/staged" assets/moved
wait_for "$WATCH_OUT" "^moved/deep/e.png added: moved/deep/e.png imported" "folder moved in"
states

echo "# a PNG renamed (no .meta: a new GUID, so the old asset goes and a new one comes)"
mark_watch
mv assets/more/d.png assets/more/d2.png
wait_for "$WATCH_OUT" "^more/d.png removed: its record removed" "rename: the old name"
wait_for "$WATCH_OUT" "^more/d2.png added: more/d2.png cached" "rename: the new name"
states

echo "# a .meta written: every asset is looked at, only the stale one is imported"
mark_watch
echo '{"import": {"texture": {"format": "rgba8"}}}' >assets/tex/a.png.meta
wait_for "$WATCH_OUT" "^tex/a.png.meta changed: tex/a.png imported (rgba8 32x32" "a .meta"
states
grep -q "changed: .* cached" "$WATCH_OUT" && fail "cached assets were listed for a .meta change"

echo "# a PNG broken with garbage bytes: the last good entry stays"
mark_watch
printf 'garbage, not a PNG at all' >assets/tex/b.png
wait_for "$WATCH_OUT" "^tex/b.png changed: tex/b.png failed: .*its last good entry stays in use" "break"
states
k 1 import --all --json
j "d['totals']"
k 0 cache gc # keeps the last good entry: the record still points to it
if [ -n "${KILN_RT_EXAMPLE:-}" ]; then
    "$KILN_RT_EXAMPLE" .kiln/cache 'tex/b.png#texture' >"$KILN_CLI_TMP/rt1.out" 2>&1 ||
        fail "the last good entry of tex/b.png does not load: $(cat "$KILN_CLI_TMP/rt1.out")"
fi

echo "# ... and repaired"
mark_watch
mkpng assets/tex/b.png 16 16 9
wait_for "$WATCH_OUT" "^tex/b.png changed: tex/b.png imported" "repair"
states

echo "# the model's .bin changed, then its image"
mark_watch
flip_byte assets/models/tri.bin 4
wait_for "$WATCH_OUT" "^models/tri.bin changed: models/tri.gltf imported" "a .bin"
states
mark_watch
mkpng assets/models/tri.png 8 8 10
wait_for "$WATCH_OUT" "^models/tri.png changed: models/tri.gltf imported" "an image of the model"
states

echo "# SIGTERM stops it"
kill -TERM "$watch_pid"
i=0
while kill -0 "$watch_pid" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -0 "$watch_pid" 2>/dev/null && fail "kiln watch still runs 10 s after SIGTERM"
wait "$watch_pid"
status=$?
watch_pid=
expect_eq "$status" 0 "exit status of kiln watch after SIGTERM"
echo "kiln watch exited with $status"
k 0 import --all --json
j "d['totals']"

echo "# --json: one document per line, the first import's, then one per batch"
"$KILN_EXE" watch --json >"$WATCH_OUT" 2>"$KILN_CLI_TMP/watch.err" &
watch_pid=$!
mark=0
silent=1 wait_for "$WATCH_OUT" '"command":"import"' "kiln watch --json starts"
sleep 0.3 # the first line is printed before the loop polls; an edit now is the first batch
mkpng assets/tex/a.png 16 16 11
silent=1 wait_for "$WATCH_OUT" '"command":"watch"' "kiln watch --json sees the edit"
kill -INT "$watch_pid"
wait "$watch_pid"
status=$?
watch_pid=
expect_eq "$status" 0 "exit status of kiln watch --json after SIGINT"
n=0
while IFS= read -r line; do # each line is checked against its schema by run_case.sh
    n=$((n + 1))
    m=$(($(wc -l <"$KILN_CLI_TMP/json/index") + 1))
    printf '%s\n' "$line" >"$KILN_CLI_TMP/json/$m.json"
    printf '%s.json: kiln watch --json, line %s\n' "$m" "$n" >>"$KILN_CLI_TMP/json/index"
done <"$WATCH_OUT"
$PY - "$WATCH_OUT" <<'PYEOF' || fail "the --json lines"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
print([d["command"] for d in docs])
w = docs[-1]
print([(r["because"], r["change"], r["import"]["path"], r["import"]["status"]) for r in w["records"]], w["totals"])
PYEOF
