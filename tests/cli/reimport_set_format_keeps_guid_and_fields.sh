# reimport --set texture.format=bc7 writes the .meta keeping its GUID and the fields it had, and
# says the output is unchanged (bc7 is what format auto cooked the 8-bit colour source to already).
mkpng assets/a.png 8 8 1
printf '{\n  "guid": "0123456789abcdef0123456789abcdef",\n  "import": {"texture": {"quality": "fast"}}\n}\n' >assets/a.png.meta
k 0 import assets/a.png
k 0 reimport assets/a.png --set texture.format=bc7
show
$PY - assets/a.png.meta <<'PY' || fail ".meta after reimport"
import json, sys
m = json.load(open(sys.argv[1]))
want = {"guid": "0123456789abcdef0123456789abcdef", "import": {"texture": {"quality": "fast", "format": "bc7"}}}
if m != want:
    sys.exit("got %r" % m)
PY
k 0 reimport --json assets/a.png --set texture.format=bc7
expect_eq "$(j "(d['meta_written'], d['record']['status'], d['record']['unchanged'])")" '[true, "imported", true]' "reimport document"
expect_eq "$(j "d['record']['guid']")" 0123456789abcdef0123456789abcdef "GUID kept"
expect_eq "$(j "d['previous_key'] == d['record']['key']")" true "same key"
# A source without .meta gets one with its path-derived GUID, so its identity does not change.
mkpng assets/b.png 4 4 2
k 0 import --json assets/b.png
guid_b=$(j "d['records'][0]['guid']")
k 0 reimport --json assets/b.png --settings '{"texture": {"format": "bc7"}}'
expect_eq "$(j "d['record']['guid']")" "$guid_b" "derived GUID kept"
expect_eq "$(j "d['previous_key'] is not None")" true "previous key"
expect_eq "$($PY -c "import json; print(json.load(open('assets/b.png.meta'))['guid'])")" "$guid_b" "GUID written"
k 0 report --json
expect_eq "$(j "[r['state'] for r in d['assets']]")" '["up_to_date", "up_to_date"]' "report"
