# kiln meta writes a .meta with a fresh GUID for every source without one and leaves existing
# .meta files byte for byte as they were.
mkpng assets/a.png 4 4 1
mkpng assets/sub/b.png 4 4 2
echo "x" >assets/notes.txt
printf '{"guid": "0123456789abcdef0123456789abcdef", "import": {"texture": {"mipmaps": false}}}\n' >assets/sub/b.png.meta
cp assets/sub/b.png.meta "$KILN_CLI_TMP/b.before"
k 0 meta --json
show
cmp -s "$KILN_CLI_TMP/b.before" assets/sub/b.png.meta || fail "meta changed an existing .meta"
[ ! -e assets/notes.txt.meta ] || fail "meta wrote a .meta for a file kiln does not import"
$PY - assets/a.png.meta <<'PY' || fail "the new .meta"
import json, re, sys
m = json.load(open(sys.argv[1]))
if list(m) != ["guid"] or not re.fullmatch("[0-9a-f]{32}", m["guid"]):
    sys.exit("got %r" % m)
PY
cp assets/a.png.meta "$KILN_CLI_TMP/a.before"
k 0 meta
show
cmp -s "$KILN_CLI_TMP/a.before" assets/a.png.meta || fail "a second meta changed the .meta it wrote"
k 0 meta --json assets/a.png
expect_eq "$(j "(d['written'], d['existing'])")" '[[], ["a.png"]]' "meta PATH"
# The GUIDs are the assets' identities from now on.
k 0 report --json
expect_eq "$(j "d['assets'][1]['guid']")" 0123456789abcdef0123456789abcdef "GUID of b"
expect_eq "$(j "d['assets'][0]['guid']")" "$($PY -c "import json; print(json.load(open('assets/a.png.meta'))['guid'])")" "GUID of a"
