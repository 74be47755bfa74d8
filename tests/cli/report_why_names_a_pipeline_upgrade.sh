# kiln report --why after kiln's pipeline version changed (issue 17, item 13): a record written by
# an older kiln (its pipeline_version and key, simulated by editing the record) whose asset has no
# entry under the current key is stale, and --why says the pipeline version changed, old -> new,
# in text and in --json (reason "pipeline"). The other reasons have their case in
# report_why_names_what_changed.
mkpng assets/a.png 8 8 1
k 0 import --all --json
key=$(j "d['records'][0]['key']")
guid=$(j "d['records'][0]['guid']")
version=$("$KILN_EXE" version | sed 's/.*(pipeline \([0-9]*\)).*/\1/')
[ -n "$version" ] || fail "no pipeline version in kiln version"
rec=.kiln/cache/assets/$guid.json
[ -f "$rec" ] || fail "no record $rec"
# The record as an older kiln left it, and no entry under the current key (as after an upgrade).
"$PY" - "$rec" "$version" <<'PYEOF' || fail "editing the record"
import json, sys
path, version = sys.argv[1], int(sys.argv[2])
r = json.load(open(path))
r["pipeline_version"] = version - 1
r["key"] = "0" * 64
json.dump(r, open(path, "w"))
PYEOF
rm -rf ".kiln/cache/objects/$(printf %.2s "$key")/$key"
k 0 report --why
show | sed "s/($((version - 1)) -> $version)/(<old> -> <new>)/"
k 0 report --why --json assets/a.png
expect_eq "$(j "[[r['what'], r['old'], r['new']] for r in d['assets'][0]['why']]")" \
    "[[\"pipeline\", $((version - 1)), $version]]" "the reason of a pipeline upgrade"
k 0 import --all
show
k 0 report --why
show
