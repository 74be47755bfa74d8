# A second import finds every entry in the cache (status cached) and writes nothing new.
mkpng assets/a.png 8 8 1
mkpng assets/b.png 4 4 2
k 0 import --all --json
expect_eq "$(j "[r['status'] for r in d['records']]")" '["imported", "imported"]' "first import"
first=$(j "[r['key'] for r in d['records']]")
ls -R .kiln/cache/objects >"$KILN_CLI_TMP/before"
k 0 import --all
show
k 0 import --all --json
expect_eq "$(j "[r['status'] for r in d['records']]")" '["cached", "cached"]' "second import"
expect_eq "$(j "d['totals']")" '{"assets": 2, "cached": 2, "cached_with_warnings": 0, "failed": 0, "imported": 0, "unsupported": 0}' "totals"
expect_eq "$(j "[r['key'] for r in d['records']]")" "$first" "keys"
ls -R .kiln/cache/objects >"$KILN_CLI_TMP/after"
cmp -s "$KILN_CLI_TMP/before" "$KILN_CLI_TMP/after" || fail "a cached import changed the entries"
k 0 import assets/b.png
show
