# Changing one byte of one source makes report say that one asset is stale, the others up_to_date,
# without processing anything.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 8 8 2
mkpng assets/c.png 8 8 3
k 0 import --all
k 0 report --json
key_b=$(j "d['assets'][1]['key']")
flip_byte assets/b.png 60
k 0 report
show
k 0 report --json
expect_eq "$(j "[(r['path'], r['state']) for r in d['assets']]")" \
    '[["a.png", "up_to_date"], ["b.png", "stale"], ["c.png", "up_to_date"]]' "states"
expect_eq "$(j "d['assets'][1]['imported_key']")" "$key_b" "the stale asset names the key it was imported under"
expect_eq "$(j "d['assets'][1]['key'] != '$key_b'")" true "the stale asset has a new key"
expect_eq "$(j "d['totals']['stale']")" 1 "one stale"
find .kiln/cache/objects -mindepth 2 -maxdepth 2 -type d | wc -l >"$KILN_CLI_TMP/n"
expect_eq "$(cat "$KILN_CLI_TMP/n")" 3 "report cooked nothing"
