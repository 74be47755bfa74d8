# kiln help settings lists every settings field with its --set path, type, default and allowed
# values, generated from the table the validator checks .meta files with: the fields it lists are
# exactly those the validator's "unknown field" message allows, and each allowed text is the one a
# bad value's message says. One group: help settings texture. --json: help-settings.schema.json.
k 0 help settings
show
k 0 help settings texture
expect_grep "^  texture.max_size  *integer  *default 16384$" "$OUT" "max_size with its default"
expect_grep "allowed: an integer from 4 to 16384$" "$OUT" "max_size's range"
expect_no_grep "model.lods" "$OUT" "one group only"
k 0 help settings --json
expect_eq "$(j "[g['name'] for g in d['groups']]")" '["texture", "model", "fbx", "shader"]' "groups"
expect_eq "$(j "[g['kinds'] for g in d['groups']]")" '[["texture", "texture_set"], ["model"], ["model"], ["shader"]]' "kinds reading each group"
expect_eq "$(j "[f['default'] for f in d['groups'][1]['fields'] if f['name'] == 'lods'][0]")" '[0.5, 0.25, 0.125]' "lods default"
expect_eq "$(j "[f['choices'] for f in d['groups'][0]['fields'] if f['name'] == 'quality'][0]")" '["fast", "normal", "high"]' "quality choices"
# The validator's own list of fields (its message, cut at 255 bytes), from a bad --set.
mkpng assets/a.png 4 4 1
cp "$OUT" "$KILN_CLI_TMP/help.json"
for g in 0 1 2 3; do
    name=$($PY -c "import json; print(json.load(open('$KILN_CLI_TMP/help.json'))['groups'][$g]['name'])")
    k 2 texture assets/a.png out.ktx2 --set "$name.no_such_field=1" --json
    $PY - "$KILN_CLI_TMP/help.json" "$OUT" "$g" <<'PY' || fail "$name: the validator allows what help lists"
import json, sys
listed = ", ".join(f["name"] for f in json.load(open(sys.argv[1]))["groups"][int(sys.argv[3])]["fields"])
said = json.load(open(sys.argv[2]))["error"]["message"].split("; allowed: ")[1]
if not (said == listed or (len(said) > 100 and listed.startswith(said))):
    sys.exit("validator: %r\nhelp: %r" % (said, listed))
PY
done
cp "$KILN_CLI_TMP/help.json" "$OUT"
allowed=$(j "[f['allowed'] for f in d['groups'][0]['fields'] if f['name'] == 'max_size'][0]")
k 2 texture assets/a.png out.ktx2 --set texture.max_size=2
expect_grep "allowed: $allowed" "$ERR" "the validator's message says what help says"
k 0 help settings fbx --json
expect_eq "$(j "[f['path'] for f in d['groups'][0]['fields']]")" \
    '["fbx.scale", "fbx.up_axis", "fbx.skins", "fbx.animations", "fbx.animation_fps"]' "fbx paths"
k 2 help settings nope
show_err
