# kiln report --html writes one page and a folder of pictures beside it: every texture's mip
# chain (an up-to-date one with level 0's PSNR measured against its source, a stale one as of its
# last import, marked stale), a model's LOD table read from its cooked mesh, its image's mip
# chain, the invalid asset's error, the sizes chart; every <img> names a PNG that is there and no
# other file is referred to; the same project gives the same bytes (again, with one thread, and
# in another folder); -o without --html and --html with --json are usage errors; a cache entry
# damaged behind kiln's back still gives a page, which says so; names are escaped; each model's
# scene and each LOD of its meshes drawn by kiln's renderer under the validation layer. Skipped
# without the corpus or Vulkan.
export KILN_VULKAN_VALIDATION=1 KILN_RENDER_PIN=libvulkan_lvp.so
c=${KILN_CORPUS:-}/gltf
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$c/BoxTextured/glTF/BoxTextured.gltf" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
mktextures probe
k 0 import --all -q
if ! "$KILN_EXE" thumbnail textures/probe.png#texture -o probe.png >"$OUT" 2>"$ERR"; then
    cat "$ERR" >&2
    exit 77 # no Vulkan here: the model pictures would be placeholders
fi
rm -rf assets .kiln probe.png
mktextures a b c
mkpng 'assets/textures/x&y "q" <z>.png' 4 4 7
mkdir -p assets/models/box
cp "$c/BoxTextured/glTF/"* assets/models/box/
cp "$c/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb" assets/models/
chmod -R u+w assets
k 0 import --all -q
mkpng assets/textures/b.png 8 8 9
printf '{"import": {"texture": {"colour": 1}}}\n' >assets/textures/c.png.meta
k 0 report --html
show
[ -s report.html ] || fail "no report.html"
[ -d report.html.d ] || fail "no report.html.d/"

# Every picture the page names exists and is a PNG; every PNG of the folder is named.
$PY - <<'PYEOF' || fail "pictures"
import os, re, sys
html = open("report.html", encoding="utf-8").read()
srcs = re.findall(r'<img[^>]* src="([^"]*)"', html)
refs = re.findall(r'(?:src|href)="([^"#]*)"', html)
assert srcs, "no <img>"
for r in refs:
    assert r.startswith("report.html.d/"), "a reference outside the pictures folder: " + r
for s in srcs:
    with open(s, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", s + " is not a PNG"
names = set(os.path.basename(s) for s in srcs)
assert names == set(os.listdir("report.html.d")), "pictures not on the page"
assert "<script" not in html and "<link" not in html and "http:" not in html.replace(
    "http://www.w3.org/2000/svg", "")
print("%d pictures, %d <img>" % (len(names), len(srcs)))
PYEOF

# One card per asset, in path order, with its state.
$PY - <<'PYEOF' || fail "cards"
import re
html = open("report.html", encoding="utf-8").read()
cards = re.findall(r'<article class="asset s-([a-z_]+)" id="a\d+">.*?<h3><a href="#a\d+">([^<]*)</a>',
                   html, re.S)
for state, path in cards:
    print(state, path)
PYEOF
expect_grep 'level 0 PSNR [0-9][0-9.]* dB' report.html "a measured PSNR"
expect_grep 'shown as of its last import' report.html "the stale texture's pictures"
expect_grep 'the source bytes changed' report.html "why b.png is stale"
expect_grep 'E_IMPORT_SETTINGS' report.html "c.png's error"
expect_grep '<b>LOD 0</b><br>12 triangles' report.html "the morph cube's LOD table"
expect_grep '<svg class="chart"' report.html "the sizes chart"
expect_grep 'x&amp;y &quot;q&quot; &lt;z&gt;.png</a>' report.html "a name escaped"
[ "$(ls report.html.d | grep -c -- '-scene\.png$')" = 2 ] || fail "not two model pictures"
[ "$(ls report.html.d | grep -c -- '-lod[0-9]*\.png$')" -ge 2 ] || fail "no LOD pictures"
expect_grep 'alt="mesh0/prim0 LOD 0"' report.html "a LOD picture"
grep -q 'no picture: ' report.html && fail "a model placeholder where the renderer draws"
grep -q 'vulkan validation' report.html && fail "a validation message while drawing a model"

# Deterministic: again in place, with one thread, and in a copy of the project elsewhere.
cp report.html "$TMPR/first.html"
cp -R report.html.d "$TMPR/first.d"
k 0 report --html
cmp report.html "$TMPR/first.html" || fail "a second report differs"
diff -r report.html.d "$TMPR/first.d" >/dev/null || fail "the second report's pictures differ"
k 0 report --html -j 1
cmp report.html "$TMPR/first.html" || fail "the report with one thread differs"
diff -r report.html.d "$TMPR/first.d" >/dev/null || fail "the pictures with one thread differ"
cp -R "$W" "$TMPR/copy"
rm -rf "$TMPR/copy/report.html" "$TMPR/copy/report.html.d"
(cd "$TMPR/copy" && "$KILN_EXE" report --html -q) || fail "report in the copy"
cmp "$TMPR/copy/report.html" "$TMPR/first.html" || fail "the copy's report differs"
diff -r "$TMPR/copy/report.html.d" "$TMPR/first.d" >/dev/null || fail "the copy's pictures differ"

# -o names the page; its pictures go beside it.
mkdir out
k 0 report --html -o "out/my report.html"
show
[ -s "out/my report.html.d/$(ls report.html.d | head -n 1)" ] || fail "pictures beside -o"
expect_grep 'src="my%20report.html.d/' "out/my report.html" "a URL-encoded folder"
k 2 report -o x.html
show_err
k 2 report --html --json
show

# a.png's KTX2 damaged in the cache (its first byte: same size and times, so the report still
# calls it up to date): the page is still written (exit 0), and the problems table says why a.png
# has no pictures.
k 0 report --json
key=$(j "[r['key'] for r in d['assets'] if r['path'] == 'textures/a.png'][0]")
ktx=.kiln/cache/objects/$(printf %s "$key" | cut -c1-2)/$key/texture.ktx2
chmod u+w "$ktx"
touch -r "$ktx" "$KILN_CLI_TMP/stamp"
flip_byte "$ktx" 0
touch -r "$KILN_CLI_TMP/stamp" "$ktx"
k 0 report --html
show
$PY - <<'PYEOF' || fail "the damaged entry"
import re
html = open("report.html", encoding="utf-8").read()
rows = re.findall(r'<tr><td><a href="#a\d+">([^<]*)</a></td><td><span class="badge st s-[a-z_]+">'
                  r'[a-z_]+</span></td><td><ul class="problems">\n(.*?)</ul>', html, re.S)
for path, items in rows:
    for item in re.findall(r'<li class="([a-z]+)">([^<]*)</li>', items):
        print(path, item[0], re.sub(r"\.kiln/cache/objects/[0-9a-f/]+", "<entry>/", item[1]))
PYEOF
