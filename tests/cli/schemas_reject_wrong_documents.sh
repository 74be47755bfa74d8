# The schemas are themselves valid draft 2020-12, and they are not vacuous: documents with a wrong
# type, a missing field, an unknown field or a bad state fail validation.
$PY "$KILN_CLI_DIR/validate.py" --check-schemas >/dev/null || fail "a schema is not valid"
mkpng assets/a.png 4 4 1
k 0 import --all
k 0 report --json
cp "$OUT" good.json
$PY "$KILN_CLI_DIR/validate.py" report good.json || fail "a report was refused"
bad() {
    $PY - good.json "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open("bad.json", "w"))
PY
    if $PY "$KILN_CLI_DIR/validate.py" report bad.json 2>/dev/null; then fail "the report schema accepted: $1"; fi
    echo "refused: $1"
}
bad "d['assets'][0]['state'] = 'fresh'"
bad "del d['totals']['stale']"
bad "d['assets'][0]['outputs'][0]['size'] = '12'"
bad "d['assets'][0]['key'] = 'ABC'"
bad "d['assets'][0]['extra'] = 1"
bad "del d['assets'][0]['outputs']"
bad "d['assets'][0]['summary']['format'] = 'bc9'"
bad "d['assets'][0]['state'] = 'invalid'"
bad "d['command'] = 'import'"
bad "del d['skipped']"
bad "d['skipped'] = [{'path': 'a.png', 'reason': 'owned', 'message': 'owned by m.gltf'}]"
bad "d['skipped'] = [{'path': 'a.png', 'reason': 'ignored', 'message': 'x', 'folder': False, 'rule': {'file': '.kilnignore', 'line': 1, 'pattern': 'a.png'}}]"
bad "d['skipped'] = [{'path': 'a.png', 'reason': 'excluded', 'message': 'x', 'folder': False, 'rule': {'file': '.kilnignore', 'pattern': 'a.png'}}]"
k 2 import --json
cp "$OUT" err.json
$PY - err.json <<'PY' || fail "mutating the error document"
import json
d = json.load(open("err.json"))
d["error"]["code"] = "E_NOPE"
json.dump(d, open("bad_err.json", "w"))
PY
if $PY "$KILN_CLI_DIR/validate.py" error bad_err.json 2>/dev/null; then fail "the error schema accepted an unknown code"; fi
if $PY "$KILN_CLI_DIR/validate.py" import err.json 2>/dev/null; then fail "the import schema accepted an error document"; fi
echo "refused: error documents with an unknown code or under the import schema"
# kiln.json: the project schema takes what kiln takes, and refuses what kiln refuses.
printf '%s\n' '{"remote_cache": ["http://cache:8080/kiln"], "exclude": ["raw/**", "!raw/keep.png"], "standalone_model_images": false}' >kiln.json
$PY "$KILN_CLI_DIR/validate.py" project kiln.json || fail "the project schema refused a good kiln.json"
k 0 report
project_bad() {
    printf '%s\n' "$1" >kiln.json
    if $PY "$KILN_CLI_DIR/validate.py" project kiln.json 2>/dev/null; then fail "the project schema accepted: $1"; fi
    "$KILN_EXE" import --all >/dev/null 2>&1
    [ $? = 2 ] || fail "kiln import --all accepted: $1"
    echo "refused by both: $1"
}
project_bad '{"exclude": "raw/**"}'
project_bad '{"exclude": [""]}'
project_bad '{"exclude": ["# a comment"]}'
project_bad '{"exclude": [3]}'
project_bad '{"standalone_model_images": "yes"}'
project_bad '{"excludes": ["raw/**"]}'
rm kiln.json
