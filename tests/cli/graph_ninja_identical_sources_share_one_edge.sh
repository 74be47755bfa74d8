# Two sources with identical bytes and settings (`cp a.png b.png`) have one cache key, so they name
# one cache entry. `kiln graph --ninja` wrote one edge per asset and both claimed
# that entry's manifest.json, which ninja refuses ("multiple rules generate"). The graph now has
# one edge per key: `kiln import` of both sources (one cook, both records), a stamp per asset, the
# manifest declared once. The JSON graph lists both assets with the same key and entry. The real
# ninja checks the file (-n), builds it, has no work left, and after b.png changes rewrites the
# graph (the generator edge) and imports b alone. Skipped without ninja (Debian: ninja-build,
# which scripts/setup.sh installs).
mkpng assets/a.png 8 8 1
cp assets/a.png assets/b.png
mkpng assets/c.png 8 8 2
k 0 graph --json
expect_eq "$(j "[a['path'] for a in d['assets']]")" '["a.png", "b.png", "c.png"]' "assets"
expect_eq "$(j "d['assets'][0]['key'] == d['assets'][1]['key'] != d['assets'][2]['key']")" true \
    "a.png and b.png share a key, c.png has its own"
expect_eq "$(j "d['assets'][0]['entry'] == d['assets'][1]['entry']")" true "one entry for a and b"
expect_eq "$(j "d['assets'][0]['guid'] != d['assets'][1]['guid']")" true "two assets"
if ! command -v ninja >/dev/null 2>&1; then
    echo "ninja is not installed (Debian package ninja-build): the build.ninja checks are skipped" >&2
    exit 77
fi
k 0 graph --ninja
show
f=$W/.kiln/build.ninja
echo "edges: $(grep -c '^build .*: kiln_import ' "$f")"
grep '^build .*: kiln_import ' "$f" | sed -e "s|$W|<W>|g" -e 's|/[0-9a-f]\{32\}\.stamp|/<guid>.stamp|g' \
    -e 's|objects/[0-9a-f][0-9a-f]/[0-9a-f]\{64\}|objects/<xx>/<key>|g'
ninja -n -f "$f" >ninja.out 2>&1 || { cat ninja.out >&2; fail "ninja -n refused the file"; }
ninja -f "$f" >ninja.out 2>&1 || { cat ninja.out >&2; fail "ninja could not build"; }
k 0 report --json
expect_eq "$(j "[(a['path'], a['state']) for a in d['assets']]")" \
    '[["a.png", "up_to_date"], ["b.png", "up_to_date"], ["c.png", "up_to_date"]]' "after ninja"
ninja -f "$f" >ninja.out 2>&1 || fail "ninja failed the second time"
expect_grep "no work to do" ninja.out "a second ninja"
# b.png changes: its key, so the graph, changes; ninja writes it again and cooks b only. a.png's
# edge is a new command (it no longer names b.png), which ninja runs: a cache hit, no cook.
sleep 1
mkpng assets/b.png 8 8 3
ninja -f "$f" >ninja.out 2>&1 || { cat ninja.out >&2; fail "ninja after b.png changed"; }
expect_grep "kiln graph --ninja" ninja.out "the generator edge ran"
expect_grep "^imported  *b.png" ninja.out "b.png is cooked"
expect_no_grep "^imported  *a.png" ninja.out "a.png is not cooked again"
echo "edges: $(grep -c '^build .*: kiln_import ' "$f")"
k 0 report --json
expect_eq "$(j "[a['state'] for a in d['assets']]")" '["up_to_date", "up_to_date", "up_to_date"]' \
    "after b.png changed"
