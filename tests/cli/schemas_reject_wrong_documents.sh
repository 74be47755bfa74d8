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
cat >project_bad.txt <<'END'
{"exclude": "raw/**"}
{"exclude": [""]}
{"exclude": ["# a comment"]}
{"exclude": [3]}
{"standalone_model_images": "yes"}
{"excludes": ["raw/**"]}
END
# report's skipped[] and kiln.json (project.schema.json): wrong documents refused, in one
# Python run (jsonschema is slow to load). Each kiln.json the schema refuses, kiln refuses too.
$PY - "$KILN_CLI_DIR" good.json <<'PY' || fail "the report and project schemas"
import copy, json, sys
sys.path.insert(0, sys.argv[1])
import validate
schemas = validate.load_schemas()
report, project = (validate.make_validator(schemas[n], schemas) for n in ("report", "project"))
good = json.load(open(sys.argv[2]))
skipped_ok = [{"path": "raw", "reason": "excluded", "message": "excluded by .kilnignore:3 'raw/'", "folder": True,
               "rule": {"file": ".kilnignore", "line": 3, "pattern": "raw/"}},
              {"path": "m/a.png", "reason": "owned", "owner": "m/m.gltf", "message": "owned by m/m.gltf"}]
d = copy.deepcopy(good); d["skipped"] = skipped_ok
assert report.is_valid(d), "a good skipped[] was refused"
for bad in ([{"path": "a.png", "reason": "owned", "message": "owned by m.gltf"}],
            [{"path": "a.png", "reason": "ignored", "message": "x", "folder": False, "rule": {"file": ".kilnignore", "line": 1, "pattern": "a"}}],
            [{"path": "a.png", "reason": "excluded", "message": "x", "folder": False, "rule": {"file": ".kilnignore", "pattern": "a"}}],
            None):
    d = copy.deepcopy(good)
    if bad is None: del d["skipped"]
    else: d["skipped"] = bad
    assert not report.is_valid(d), "the report schema accepted skipped = %r" % bad
    print("refused: " + ("a report without skipped" if bad is None else "skipped = " + json.dumps(bad)))
assert project.is_valid({"remote_cache": ["http://cache:8080/kiln"], "exclude": ["raw/**", "!raw/keep.png"],
                         "standalone_model_images": False}), "a good kiln.json was refused"
for line in open("project_bad.txt"):
    assert not project.is_valid(json.loads(line)), "the project schema accepted " + line
    print("refused by the project schema: " + line.strip())
PY
# ... and by kiln (exit 2): a good kiln.json is taken, each of these refused.
printf '%s\n' '{"remote_cache": [], "exclude": ["raw/**", "!raw/keep.png"], "standalone_model_images": false}' >kiln.json
k 0 report
while read -r doc; do
    printf '%s\n' "$doc" >kiln.json
    "$KILN_EXE" import --all >/dev/null 2>&1
    [ $? = 2 ] || fail "kiln import --all accepted: $doc"
    echo "refused by kiln: $doc"
done <project_bad.txt
rm kiln.json
